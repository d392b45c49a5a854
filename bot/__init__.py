"""Retrieval, answer composition and dialogue for the glossary bot.

``from bot import GlossaryBot`` is the public entry point; it is imported lazily so that
light modules (``bot.text``, ``bot.cli --help``) do not pay for loading FAISS and the encoders.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core import GlossaryBot

__all__ = ["GlossaryBot"]


def __getattr__(name: str):
    if name == "GlossaryBot":
        from bot.core import GlossaryBot

        return GlossaryBot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
