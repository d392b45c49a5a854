"""The maintainers' area (``/admin``): off unless a password hash is configured."""
