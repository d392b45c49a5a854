"""The message catalog (bot/data/messages.yaml): a text in every interface language for every key,
every key the code asks for present, and no text that nothing shows."""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import get_args

import pytest

from bot.records import Vote
from bot.reply import near_miss, ticket
from bot.reply.answer import ConfidenceLabel
from bot.reply.messages import MESSAGES, t
from bot.understand.cues import SMALL_TALK
from bot.understand.text import SIDES
from index.sentences import FIELDS as SENTENCE_FIELDS

REPO = Path(__file__).resolve().parents[1]
SOURCES = sorted([*REPO.glob("bot/**/*.py"), *REPO.glob("ui/**/*.py"), REPO / "app.py"])
FIELDS = ["definition", "usage", "example"]
#: Keys the code computes (the key expression's source -> every key it can be).
DYNAMIC = {
    "k": FIELDS,  # answer._field_lines
    "aspect": ["example", "usage"],  # answer.aspect_card
    "f'no_{aspect}'": ["no_example", "no_usage"],
    "f'vote_{vote}'": [f"vote_{v}" for v in get_args(Vote)],
    "f'label_{label}'": [f"label_{v}" for v in get_args(ConfidenceLabel)],
    # GlossaryIdentity.say: the replies that name the glossary
    "reply": ["which_term", "empty_question", *(f"small_talk_{k}" for k in SMALL_TALK)],
    "key": [*FIELDS, "opposite_of", "no_opposite"],  # answer._comparison_rows, answer.opposite
    "closest.field": list(SENTENCE_FIELDS),  # card.advice_line: the field a sentence comes from
    "LINES[kind]": list(near_miss.LINES.values()),  # near_miss.near_miss: what is missing
    "said": ["near_miss_plain", *ticket.PLAIN_LINES.values()],  # ticket: a near miss's first line
}


def _keys_in(call: ast.Call) -> list[ast.expr]:
    """The catalog keys a call passes: ``t(key, ...)``, or the property -> key mapping of
    ``labels.make(kind, {...})`` (ui/layout.py)."""
    if isinstance(call.func, ast.Name) and call.func.id == "t":
        return call.args[:1]
    if isinstance(call.func, ast.Attribute) and call.func.attr == "make" and len(call.args) > 1:
        mapping = call.args[1]
        return [v for v in mapping.values if v is not None] if isinstance(mapping, ast.Dict) else [mapping]
    return []


def _key_expressions() -> list[tuple[str, ast.expr]]:
    """(file:line, key expression) of every catalog key the project's code passes."""
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                found += [(f"{path.relative_to(REPO)}:{node.lineno}", key) for key in _keys_in(node)]
    return found


def _used_keys() -> dict[str, str]:
    """Every key the code can ask for -> where it asks."""
    used: dict[str, str] = {}
    for where, expr in _key_expressions():
        if isinstance(expr, ast.Constant):
            used.setdefault(expr.value, where)
            continue
        source = ast.unparse(expr)
        assert source in DYNAMIC, f"{where}: computed key {source}: list what it can be in DYNAMIC"
        for key in DYNAMIC[source]:
            used.setdefault(key, where)
    return used


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_key_has_a_text_in_every_language(key):
    texts = MESSAGES[key]
    assert sorted(texts) == sorted(SIDES)
    assert all(isinstance(text, str) and text.strip() for text in texts.values())


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_language_fills_in_the_same_values(key):
    fields = {
        lang: {f for _, f, _, _ in string.Formatter().parse(text) if f}
        for lang, text in MESSAGES[key].items()
    }
    assert len({frozenset(f) for f in fields.values()}) == 1, fields


def test_every_key_the_code_asks_for_exists():
    missing = {key: where for key, where in _used_keys().items() if key not in MESSAGES}
    assert not missing


def test_every_text_in_the_catalog_is_shown_somewhere():
    assert sorted(set(MESSAGES) - set(_used_keys())) == []


def test_hinglish_and_mixed_questions_read_the_hindi_texts():
    for lang in ("hinglish", "mixed"):
        assert t("declined", lang) == t("declined", "hi") != t("declined", "en")


def test_values_are_filled_in():
    assert t("browse_count", "en", shown=3, total=77) == "**3** of 77 terms"
    assert t("browse_count", "hi", shown=3, total=77) == "77 में से **3** शब्द"
