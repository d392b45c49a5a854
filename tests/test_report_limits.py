"""The maintainers' report stays bounded and inert whatever the store holds (issue 23, point 5), with a
stand-in encoder: what is checked is which texts are grouped and how cells are written, not meaning."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from bot.records import report as maintainers

#: Every character a spreadsheet starts a formula (or a DDE command) with, as OWASP lists them.
FORMULAS = ["=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("cell", FORMULAS)
def test_a_csv_cell_that_starts_a_formula_is_shown_as_text(cell):
    assert maintainers.csv_cell(cell) == "'" + cell


def test_other_csv_cells_are_kept_as_they_are():
    assert [maintainers.csv_cell(v) for v in ("dropout kya hai", "a=b", 3, None)] == [
        "dropout kya hai",
        "a=b",
        3,
        None,
    ]


class _Encoder:
    """Random unit vectors; remembers every batch it was given."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.rng = np.random.default_rng(0)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        self.batches.append(texts)
        vectors = self.rng.normal(size=(len(texts), 8)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_only_the_most_recent_distinct_texts_are_grouped_each_encoded_once():
    encoder = _Encoder()
    bot = SimpleNamespace(encoder=encoder, search=lambda text, k: [])
    extra = 100
    texts = [f"question number {n}" for n in range(maintainers.MAX_GROUPED + extra)]
    rows = [
        {"question": t, "lang": "en"} for t in texts + texts[-10:]
    ]  # oldest first; the newest asked twice
    memo = maintainers.VectorMemo()
    groups = maintainers.group_declined(bot, rows, memo)  # type: ignore[arg-type]
    encoded = [t for batch in encoder.batches for t in batch]
    assert len(encoded) == maintainers.MAX_GROUPED and set(encoded) == set(texts[extra:])
    assert sum(g.count for g in groups) == maintainers.MAX_GROUPED + 10
    maintainers.group_declined(bot, rows, memo)  # a second report encodes nothing new
    assert len(encoder.batches) == 1
