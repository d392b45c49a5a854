"""Real questions borrowed from the project's own glossary for fitting decisions on any other.

A glossary's pseudo-questions (``bot.search.pseudo``) are made from its own text, so they are asked
in its own languages and worded as it is worded; real askers are neither. A Hindi-only file's
pseudo-questions never ask in English, and an English question's best similarity is lower than any
of theirs: fitted on them alone, the bot declined such questions although it ranked them right.

The project owns questions written the way people ask: the bundled glossary's paraphrases, in
English, Hindi and Hinglish. ``bot.search.transfer_build`` asks them of views of that glossary with
the same languages as a user's file (bilingual, English-only, Hindi-only; each with the held-out
entries of its pseudo-question folds, whose paraphrases are near-domain questions it must decline)
and ships their features, standardised by that view's own pseudo-questions. A glossary's fit
standardises its features by its own pseudo-questions the same way and adds the rows borrowed for
its languages: the decision and the confidence learn what a real question looks like relative to
the glossary's own, and the glossary's pseudo-questions still set everything specific to it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

log = logging.getLogger(__name__)

BORROWED_PATH = Path(__file__).parents[1] / "data" / "borrowed_questions.json"


class Borrowed(BaseModel):
    """Standardised features of questions asked of one view, whether each was in the view's scope,
    and whether its entry came first."""

    model_config = ConfigDict(frozen=True)

    z: list[list[float]] = []
    inside: list[bool] = []
    right: list[bool] = []
    #: Whether each was asked in a script the view's languages do not use (some of its words are).
    across: list[bool] = []

    @model_validator(mode="after")
    def _one_value_per_row(self) -> Borrowed:
        if not len(self.z) == len(self.inside) == len(self.right) == len(self.across):
            raise ValueError("borrowed rows: z, inside, right and across must have one value per row")
        return self


class BorrowedSet(BaseModel):
    """What ``bot.search.transfer_build`` ships: one ``Borrowed`` per set of languages."""

    model_config = ConfigDict(frozen=True)

    #: The calibration version and features the rows were computed with (rows of another are unused).
    version: int
    features: tuple[str, ...]
    by_languages: dict[str, Borrowed]


def key(languages: Sequence[str]) -> str:
    return "+".join(languages)


@lru_cache(maxsize=1)
def shipped() -> BorrowedSet | None:
    try:
        return BorrowedSet.model_validate_json(BORROWED_PATH.read_bytes())
    except (OSError, ValidationError) as exc:
        log.warning("no borrowed questions (%s): glossaries are fitted on their own alone", exc)
        return None


def borrowed(languages: Sequence[str], version: int, features: Sequence[str]) -> Borrowed:
    """The rows borrowed for a glossary in ``languages``; none when the shipped ones are of another
    calibration version or feature list (``make borrowed-questions`` remakes them)."""
    found = _current(version, features)
    return Borrowed() if found is None else found.by_languages.get(key(languages), Borrowed())


def left_out(languages: Sequence[str], version: int, features: Sequence[str]) -> Borrowed:
    """Every view's rows but those made from the view in ``languages``, pooled: what a view of the
    project's glossary is judged with when the rows made from it are left out (``benchmarks.lovo``)."""
    found = _current(version, features)
    if found is None:
        return Borrowed()
    kept = [rows for name, rows in found.by_languages.items() if name != key(languages)]
    return Borrowed(
        z=[z for rows in kept for z in rows.z],
        inside=[i for rows in kept for i in rows.inside],
        right=[r for rows in kept for r in rows.right],
        across=[a for rows in kept for a in rows.across],
    )


def _current(version: int, features: Sequence[str]) -> BorrowedSet | None:
    found = shipped()
    if found is None or found.version != version or found.features != tuple(features):
        return None
    return found
