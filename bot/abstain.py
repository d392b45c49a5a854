"""Deciding that the glossary does not cover a question.

A bare similarity threshold is brittle: e5 cosines crowd into a narrow band,
and an off-topic question still lands near *something*. The evidence used is
the question's best similarity to anything in the glossary, lowered by the
share of the asker's words that the glossary never uses ("docker",
"kubernetes", "recall"): questions about other topics carry such words,
in-scope questions, even descriptive ones, rarely do.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot.retrieval import Ranking


class AbstentionPolicy(BaseModel):
    """Calibrated on the dev set (README, "Abstention"); both numbers hold for any e5-small backend."""

    model_config = ConfigDict(frozen=True)

    min_evidence: float = 0.856
    unknown_word_penalty: float = 0.03

    def evidence(self, ranking: Ranking) -> float:
        return ranking.best_similarity - self.unknown_word_penalty * ranking.unknown_share

    def abstain(self, ranking: Ranking) -> bool:
        return self.evidence(ranking) < self.min_evidence
