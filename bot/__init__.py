"""The glossary bot: a question's pipeline, one stage per sub-package, behind one façade.

``bot.understand`` reads a question once into a ``Query``; ``bot.search`` ranks the glossary's
entries for it (hybrid retrieval fitted to each glossary) and finds what else a reply may need;
``bot.reply`` decides the kind of reply (``router``) and writes it. ``bot.core.GlossaryBot`` runs the
three; ``bot.lookup`` (Browse, suggestions), ``bot.records`` (the question store), the CLI and
the settings stand beside it.

``from bot import GlossaryBot`` is the public entry point; it is imported lazily so that
light modules (``bot.understand.text``, ``bot.cli --help``) do not pay for loading FAISS and the encoders.
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
