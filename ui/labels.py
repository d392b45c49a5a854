"""The texts of the page's components in either interface language, and the record of which
component shows which, so that the interface-language switch relabels all of them at once.

Components are made in English (``START``) through :class:`Labels`; the texts that say whose
glossary this is (title, description, example questions) come from the glossary's identity
(``bot.identity``) through :class:`Identity`, read when shown, so a reloaded glossary's are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import gradio as gr
from gradio.blocks import Block

from bot.core import GlossaryBot
from bot.markdown import escape_md
from bot.reply.messages import t
from bot.understand.text import Side

#: The interface language a page opens in (until the browser remembers the asker's choice).
START: Side = "en"

B = TypeVar("B", bound=Block)


def _texts(keys: Mapping[str, str], lang: Side) -> dict[str, Any]:
    """Component properties (label, placeholder, value) -> their catalog texts in ``lang``."""
    return {prop: t(key, lang) for prop, key in keys.items()}


#: A component's texts (property -> text) in an interface language.
Texts = Callable[[Side], dict[str, Any]]


class Labels:
    """The components whose texts follow the interface language, and how each gets its texts: from
    catalog keys (:meth:`make`) or from the glossary's identity (:meth:`show`)."""

    def __init__(self) -> None:
        self._texts: list[tuple[Block, Texts]] = []

    def make(self, kind: Callable[..., B], keys: Mapping[str, str], **options: Any) -> B:
        """``kind(**options)`` with the properties in ``keys`` set to their texts in the start language."""
        return self.show(kind, partial(_texts, dict(keys)), **options)

    def show(self, kind: Callable[..., B], texts: Texts, **options: Any) -> B:
        """``kind(**options)`` with the properties ``texts`` gives in the start language."""
        block = kind(**texts(START), **options)
        self._texts.append((block, texts))
        return block

    @property
    def blocks(self) -> list[Block]:
        return [block for block, _ in self._texts]

    def updates(self, lang: Side) -> list[dict]:
        """One update per block (in :attr:`blocks` order) with its texts in ``lang``."""
        return [gr.update(**texts(lang)) for _, texts in self._texts]


@dataclass(frozen=True)
class Identity:
    """The texts that say whose glossary this is (``bot.identity``), read from the glossary the bot
    serves when they are shown, in each interface language."""

    bot: GlossaryBot

    def header(self, lang: Side) -> dict[str, Any]:
        identity = self.bot.identity
        return {"value": f"## {escape_md(identity.name(lang))}\n{escape_md(identity.description[lang])}"}

    def chat(self, lang: Side) -> dict[str, Any]:
        hints = [f"*{escape_md(h)}*" for h in self.bot.identity.hints[lang]]
        return {"label": t("chat_label", lang), "placeholder": t("chat_empty", lang, hints=_or(hints, lang))}

    def question(self, lang: Side) -> dict[str, Any]:
        hints = " · ".join(self.bot.identity.hints[lang])
        return {"label": t("question_label", lang), "placeholder": t("question_hint", lang, hints=hints)}


def _or(items: list[str], lang: Side) -> str:
    """ "a, b or c" in ``lang``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {t('or', lang)} {items[-1]}"
