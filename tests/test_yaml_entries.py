"""A YAML glossary parsed entry by entry (``glossary.yamlentries``) gives what the whole parse gives,
whatever the entries hold and however the file is written; an edit parses only the edited entry."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from glossary.files import PUBLISHED_FILE
from glossary.yamlentries import parse_split as parse_split_with
from glossary.yamlentries import split_entries
from glossary.yamlio import load_yaml, load_yaml_cached

#: Characters that mean something to YAML, Devanagari, and line breaks, in entry texts.
TOKENS = [*"ab Zक्षि०:-#'\"\n\r\t*&!|>{}[],%?@`\\\x85\u2028", "- ", ": ", "\n- ", "\n#", "\n  ", "---"]
TEXT = st.lists(st.sampled_from(TOKENS), max_size=30).map("".join)
ENTRY = st.fixed_dictionaries(
    {
        "id": TEXT,
        "term": TEXT,
        "definition_en": TEXT,
        "notes_en": st.lists(TEXT, max_size=3),
        "category": st.fixed_dictionaries({"en": TEXT, "hi": TEXT}),
    }
)
DOCUMENT = st.fixed_dictionaries(
    {"document": TEXT, "entries": st.lists(ENTRY, min_size=1, max_size=5)},
    optional={"faq": st.lists(TEXT, max_size=2)},
)
STYLE = st.fixed_dictionaries(
    {
        "width": st.sampled_from([12, 80, 1_000_000]),
        "default_style": st.sampled_from([None, '"', "'", "|"]),
        "indent": st.sampled_from([2, 4]),
        "allow_unicode": st.booleans(),
    }
)


def _parse_split(text: str) -> object:
    """What the split gives, None where the whole parse is used instead (as ``glossary.yamlio``)."""
    split = split_entries(text)
    try:
        return None if split is None else parse_split_with(split, load_yaml, {})
    except yaml.YAMLError:
        return None


@settings(max_examples=300, deadline=None)
@given(document=DOCUMENT, style=STYLE)
def test_a_document_parsed_entry_by_entry_is_the_document_parsed_whole(document, style):
    text = yaml.safe_dump(document, sort_keys=False, **style)
    by_entries = _parse_split(text)
    assert by_entries is None or by_entries == load_yaml(text)


HAND_WRITTEN = {
    "comments and blank lines between entries": """document: d
entries:
# first
- id: a
  definition_en: |
    one

    - not an item
  # inside
- id: b   # trailing
  notes_en: []

faq:
- q
""",
    "entries indented under their key": """entries:
  - id: a
    term: A
  - id: b
    term: >
      folded
      text
title: t
""",
    "windows line ends": "entries:\r\n- id: a\r\n  term: A\r\n\r\n- id: b\r\n  term: B\r\n",
    "a quoted text that goes on at the start of a line": 'entries:\n- id: a\n  term: "one\n- two"\n- id: b\n',
    "a plain text that goes on less indented": "entries:\n- id: a\n  term: one\n two\n- id: b\n",
    "the same entry twice": "entries:\n- id: a\n- id: a\n",
    "line separators inside a text": "entries:\n- id: a\n  term: one\u2028- two\x85- three\n- id: b\n",
    "no line break at the end": "entries:\n- id: a\n  term: |+\n    kept\n\n- id: b\n  term: |+\n    end",
}


@pytest.mark.parametrize("text", list(HAND_WRITTEN.values()), ids=list(HAND_WRITTEN))
def test_hand_written_files_parse_alike_both_ways(text):
    by_entries = _parse_split(text)
    if by_entries is not None:
        assert by_entries == load_yaml(text)


def test_texts_that_tie_parts_together_are_parsed_whole():
    assert split_entries("entries:\n- &a {id: a}\n- *a\n") is None
    assert split_entries("entries:\n- id: a\n  term: !!str 1\n") is None
    assert split_entries("---\nentries:\n- id: a\n") is None
    assert split_entries("entries:\n- id: a\n  ? k\n  : - &x v\n") is None  # an explicit value's list
    assert split_entries("entries:\n- id: a\n  term: are **observed** here\n") is not None
    assert split_entries("a: 1\n") is None and split_entries("- id: a\n") is None


def test_the_same_entry_twice_gives_two_objects():
    known = {}
    split = split_entries("entries:\n- id: a\n- id: a\n")
    assert split is not None
    first = parse_split_with(split, load_yaml, known)
    known = dict(zip(split.keys, first["entries"], strict=True))
    again = parse_split_with(split, load_yaml, known)
    assert again == first and again["entries"][0] is not again["entries"][1]


def _document(n: int, edited: int | None = None) -> str:
    entries = [
        {"id": f"e{i}", "term": f"Term {i}", "definition_en": f"Text of {i}.\nLine two."} for i in range(n)
    ]
    if edited is not None:
        entries[edited]["definition_en"] += " Edited."
    return yaml.safe_dump({"document": "d", "entries": entries}, sort_keys=False, allow_unicode=True)


def _published(cache) -> list[dict]:
    return [json.loads((f / PUBLISHED_FILE).read_text()) for f in sorted(cache.iterdir()) if f.is_dir()]


def test_an_edit_parses_only_the_edited_entry_and_gives_the_whole_parse(tmp_path):
    before, after = _document(50), _document(50, edited=7)
    assert load_yaml_cached(before, tmp_path) == yaml.safe_load(before)
    assert load_yaml_cached(after, tmp_path) == yaml.safe_load(after)
    reused = sorted(p["entries_reused"] for p in _published(tmp_path))
    assert reused == [0, 49]


def test_an_edited_parse_whose_entry_keys_do_not_match_their_checksum_is_not_borrowed_from(tmp_path):
    before, after = _document(20), _document(20, edited=3)
    load_yaml_cached(before, tmp_path)
    (folder,) = [f for f in tmp_path.iterdir() if f.is_dir()]
    keys = json.loads((folder / "entry_keys.json").read_text())
    (folder / "entry_keys.json").write_text(json.dumps(list(reversed(keys))))  # same size, other order
    assert load_yaml_cached(after, tmp_path) == yaml.safe_load(after)
    assert max(p.get("entries_reused", 0) for p in _published(tmp_path)) == 0


def test_an_error_in_one_entry_names_the_files_own_line(tmp_path):
    text = _document(10).replace("term: Term 7\n", "term: Term 7: x\n")
    with pytest.raises(yaml.YAMLError) as whole:
        load_yaml(text)
    with pytest.raises(yaml.YAMLError) as cached:
        load_yaml_cached(text, tmp_path)
    assert cached.value.problem_mark.line == whole.value.problem_mark.line > 20
