"""What a reply is made from: the question understood, the follow-up it is, what search found, and
the language to answer in. Every handler (``bot.reply.router.HANDLERS``) takes one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.identity import GlossaryIdentity
from bot.reply.answer import Answer
from bot.reply.messages import t
from bot.search.evidence import Evidence
from bot.understand.dialogue import FollowUp, Turn
from bot.understand.query import Query
from bot.understand.text import Lang
from glossary import Glossary


@dataclass(frozen=True)
class Context:
    query: Query
    #: The earlier answer this message follows up on (None: a question of its own).
    follow: FollowUp | None
    evidence: Evidence
    lang: Lang
    glossary: Glossary
    #: Whose glossary it is: the replies that name it (greeting, "who are you") say so.
    identity: GlossaryIdentity
    #: Answers an earlier question again in another language ("in Hindi please"): the whole
    #: pipeline on that turn's question and the history before it.
    again: Callable[[Turn, Lang], Answer]

    @property
    def notice(self) -> str | None:
        """What the asker is told about the question itself: that it was cut to its maximum length
        (in the language it was written in)."""
        cut_at = self.query.cut_at
        return None if cut_at is None else t("truncated", self.query.lang, limit=cut_at)
