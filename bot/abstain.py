"""Deciding that the glossary does not cover a question.

One cosine threshold is brittle (e5 scores crowd into a narrow band), so the
decision reads three signals of the fused ranking: how far the best entry's
dense score stands above the query's typical entry, how clearly it beats the
runner-up, and whether the asker typed a name of that entry.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot.retrieval import Ranking


class AbstentionPolicy(BaseModel):
    """Thresholds calibrated on the dev set (see README, "Abstention")."""

    model_config = ConfigDict(frozen=True)

    min_fused: float = 0.06
    name_vouches: float = 0.99

    def abstain(self, ranking: Ranking) -> bool:
        top = int(ranking.order[0])
        if ranking.name[top] >= self.name_vouches:
            return False
        return float(ranking.fused[top]) < self.min_fused
