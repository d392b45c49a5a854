"""The Gradio app around the bot, one job per module.

- ``layout``: the page (header, Chat, Browse and About tabs) and which event calls which callback;
  ``style.css`` beside it.
- ``callbacks``: what happens when the asker types, clicks, votes, comments or filters.
- ``api``: ``POST /api/answer`` and its request and reply models.
- ``admission``: how many answers run at once and how many callers may wait.
- ``serve``: launching, and refusing to start with an exit code (``bot.exitcodes``).

Layering: glossary -> index -> bot -> ui. ``ui`` imports ``bot``; ``bot`` never imports ``ui``,
so the CLI and the Python API work without Gradio. ``app.py`` at the top is the Space's entry point.

Nothing is fetched at run time: the defaults below keep Gradio's analytics and the hub off before
Gradio is first imported, whoever imports the package (``app.py``, tests, benchmarks).
"""

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
