"""The maintainers' password hash, made in one place for the CLI that prints it and the area that
checks it.

argon2's default spreads one check over 4 threads; with ``parallelism=1`` a check takes one core,
so logins sent together leave the machine's other cores to the visitors (logins are checked one at a
time). Memory and passes stay at argon2-cffi's defaults, which set what a guess costs.
"""

from __future__ import annotations

from argon2 import PasswordHasher

#: Threads one password check may take.
CHECK_THREADS = 1


def hasher() -> PasswordHasher:
    """The hasher that makes new hashes (a stored hash is checked with the parameters it holds)."""
    return PasswordHasher(parallelism=CHECK_THREADS)


def hash_password(password: str) -> str:
    """The argon2id hash to put in ``admin_password_hash`` (a new random salt each time)."""
    return hasher().hash(password)
