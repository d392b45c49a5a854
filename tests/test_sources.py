"""The source viewer a citation opens: the whole cited entry highlighted (heading to last line, and no
further: a table or FAQ may follow the last entry), every line of the seed on its own, a link back to
the chat opening the entry's card, and a user CSV's cited row shown with its neighbours."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from glossary import Glossary
from glossary.loader import load_glossary
from glossary.sources import source_lines
from ui.sources import CONTEXT_ROWS, source_routes

ROW = "{n},Term {n},Term {n},शब्द {n},,श्रेणी,Parts,परिभाषा {n} है।,Definition {n}.\n"
HEADER = "id,term,term_en,term_hi,aliases,category_hi,category_en,definition_hi,definition_en\n"


class _Page(HTMLParser):
    """The page's list items (attributes and text) and its links' hrefs by id."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.items: list[dict[str, str]] = []
        self.links: dict[str, str] = {}
        self._in_item = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        if tag == "li":
            self.items.append({**named, "text": ""})
            self._in_item = True
        elif tag == "a" and "id" in named:
            self.links[named["id"]] = named.get("href", "")

    def handle_endtag(self, tag: str) -> None:
        self._in_item = self._in_item and tag != "li"

    def handle_data(self, data: str) -> None:
        if self._in_item:
            self.items[-1]["text"] += data


def _client(glossary: Glossary) -> TestClient:
    app = FastAPI()
    app.router.routes.extend(source_routes(SimpleNamespace(glossary=glossary)))  # type: ignore[arg-type]
    return TestClient(app)


def _items(client: TestClient, document: str, line: int) -> tuple[list[dict[str, str]], _Page]:
    response = client.get(f"/source/{document}", params={"line": line})
    assert response.status_code == 200
    page = _Page(response.text)
    return page.items, page


@pytest.fixture(scope="module")
def bundled() -> Glossary:
    return load_glossary()


def _marked(items: list[dict[str, str]]) -> list[int]:
    return [int(li["value"]) for li in items if "entry" in li.get("class", "").split()]


LAST_IN_DOCUMENT = ["training-reproducibility", "optimizer-state-sharding"]


@pytest.mark.parametrize("entry_id", ["model-training", *LAST_IN_DOCUMENT])
def test_the_whole_entry_is_highlighted_and_nothing_after_it(bundled, entry_id):
    entry = bundled.get(entry_id)
    doc, line = entry.source.document, entry.source.line
    items, _ = _items(_client(bundled), doc, line)
    marked = _marked(items)
    lines = source_lines(doc)
    assert lines is not None and marked[0] == line and marked == list(range(line, marked[-1] + 1))
    shown = "\n".join(lines[n - 1] for n in marked)
    for text in (entry.definition_hi, entry.usage_hi, entry.example_hi):
        assert text is None or text in shown, text
    later = [e.source.line for e in bundled.entries if e.source.document == doc and e.source.line > line]
    if later:  # the next entry's heading is not part of this one
        assert marked[-1] < min(later)
    else:  # what follows the last entry (a table, a FAQ) holds none of its text
        assert all(entry.example_hi not in lines[n - 1] for n in range(marked[-1] + 1, len(lines) + 1))
    assert [li["value"] for li in items if li.get("aria-current")] == [str(line)]
    assert len(items) > len(marked)  # lines around it too


def test_every_line_is_its_own_item_blank_ones_kept(bundled):
    entry = bundled.get("model-training")
    items, _ = _items(_client(bundled), entry.source.document, entry.source.line)
    lines = source_lines(entry.source.document)
    assert lines is not None
    assert [li["text"] for li in items] == [lines[int(li["value"]) - 1] for li in items]


def test_the_page_links_back_to_the_chat_with_the_entrys_card(bundled):
    entry = bundled.get("gradient-clipping")
    _, page = _items(_client(bundled), entry.source.document, entry.source.line)
    assert page.links["back"] == "../?entry=gradient-clipping"


def test_a_user_csv_row_is_shown_with_its_neighbours(tmp_path: Path):
    path = tmp_path / "parts.csv"
    path.write_text(HEADER + "".join(ROW.format(n=f"p{n}") for n in range(1, 11)), encoding="utf-8")
    glossary = load_glossary([path])
    cited = glossary.get("p5")
    items, page = _items(_client(glossary), "parts.csv", cited.source.line)
    rows = [int(li["value"]) for li in items]
    line = cited.source.line
    assert rows == list(range(line - CONTEXT_ROWS, line + CONTEXT_ROWS + 1))
    assert _marked(items) == [line] and "परिभाषा p5" in items[rows.index(line)]["text"]
    assert page.links["back"] == "../?entry=p5"


def test_a_line_with_no_record_is_a_404(tmp_path: Path):
    path = tmp_path / "parts.csv"
    path.write_text(HEADER + ROW.format(n="p1"), encoding="utf-8")
    response = _client(load_glossary([path])).get("/source/parts.csv", params={"line": 9})
    assert response.status_code == 404
