"""RELIABILITY.md says only what a test shows (issue 26, point 7): every row of a table whose last
column is "tests" names at least one test, and every test it names exists.

A reference is a code span: ``file.py::test_name`` (a file under ``tests/``), ``file.py::*`` (the
whole file), ``…::test_name`` (in the file named last before it in the same table), ``…[ids]``
(parameters of the test named last), and a name cut short with ``…`` stands for the tests it begins;
a figure may name its benchmark instead (``benchmarks.<module>``).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO

DOC = REPO / "RELIABILITY.md"
REFERENCE = re.compile(r"`(?P<file>[\w/]+\.py|…)(?:::(?P<name>[\w*]+)(?P<cut>_?…)?)?[^`]*`")
#: A benchmark named as the evidence of a figure: ``benchmarks.<module>`` (a file that must exist).
BENCHMARK = re.compile(r"`benchmarks\.(?P<module>\w+)`")


def _tables(text: str) -> list[tuple[int, list[list[str]]]]:
    """(line of the header, rows as cells) of every table whose last column is "tests"."""
    tables: list[tuple[int, list[list[str]]]] = []
    rows: list[list[str]] | None = None  # the rows of the table being read, None outside one
    named = False  # whether that table's last column is "tests"
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("|"):
            rows = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if rows is None:
            rows, named = [], cells[-1] == "tests"
            if named:
                tables.append((number, rows))
        elif named and not set(line.strip()) <= set("|-: "):
            rows.append(cells)
    return tables


def _defined(path: Path) -> set[str]:
    return set(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(encoding="utf-8"), re.MULTILINE))


def _problems(text: str) -> list[str]:
    problems: list[str] = []
    for header, rows in _tables(text):
        last_file: Path | None = None
        for cells in rows:
            row = cells[0][:60]
            found = list(REFERENCE.finditer(cells[-1]))
            benchmarks = [m["module"] for m in BENCHMARK.finditer(cells[-1])]
            problems += [
                f"row {row!r}: no benchmarks/{b}.py"
                for b in benchmarks
                if not (REPO / "benchmarks" / f"{b}.py").exists()
            ]
            if not found and not benchmarks:
                problems.append(f"table at line {header}: row {row!r} names no test")
            for match in found:
                if match["file"] != "…":
                    last_file = REPO / "tests" / match["file"].removeprefix("tests/")
                if last_file is None or not last_file.exists():
                    problems.append(f"row {row!r}: {match[0]} names no file under tests/")
                    continue
                name = match["name"]
                if name in (None, "*"):
                    continue
                defined = _defined(last_file)
                exists = any(d.startswith(name) for d in defined) if match["cut"] else name in defined
                if not exists:
                    problems.append(f"row {row!r}: {last_file.name}::{name} does not exist")
    return problems


def test_every_row_names_a_test_that_exists():
    assert _problems(DOC.read_text(encoding="utf-8")) == []


def test_the_check_fails_on_a_missing_test_and_a_row_without_one():
    table = (
        "| fault | what | tests |\n|---|---|---|\n"
        "| a | b | `test_votes.py::test_no_such_test` |\n| c | d | — |\n"
    )
    assert len(_problems(table)) == 2
