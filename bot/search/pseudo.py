"""Pseudo-questions made from a glossary's own text, for fitting retrieval to that glossary.

Nobody writes questions for a user's glossary, yet the weights and the answer-or-decline
decision must suit it. So the glossary questions itself, with each question asked of a view
of the glossary that does not contain its answer verbatim:

* ``name`` — "what is X", "X kya hai", "X क्या है" and the bare name, for a name of the entry;
* ``field`` — a sentence of an entry's definition, usage or example (names removed), asked of a
  view where that field is hidden (leave-one-field-out), so only the entry's *other* fields —
  the same text in the other language among them — can find it: the way a real descriptive
  question meets a definition it paraphrases but does not quote (hiding both languages was
  measured too: the rest of an entry rarely restates its definition, and such questions were
  far harder than real ones, R@1 0.06 on the bundled glossary);
* ``romanized`` — a hidden Hindi field's sentence written in Latin letters (Hinglish);
* ``held-out`` — name and definition questions about entries removed from the view entirely: near
  misses the bot must decline;
* ``off-topic`` — the project's general pool of everyday questions (data/off_topic.yaml).

Entries are dealt into ``FOLDS`` views deterministically, so a glossary always gets the same
questions and the same fit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import regex

from bot.understand.text import tokens
from bot.understand.translit import romanise_text
from glossary import GlossaryEntry, languages_of
from glossary.yamlio import load_yaml
from index.sentences import first_sentence

Kind = Literal["name", "field", "romanized", "held-out", "off-topic", "paraphrase"]
#: Kinds made of an entry's own sentences (the others are names or out of scope).
REWORDED = ("field", "romanized")
OFF_TOPIC_PATH = Path(__file__).parents[1] / "data" / "off_topic.yaml"
#: Views of the glossary; each hides one field of a quarter of the entries.
FOLDS = 4
#: One entry in this many of a fold is held out of that fold's view entirely (out-of-scope questions).
HOLD_OUT_EVERY = 6
#: At most this many entries are questioned: enough for a stable fit, cheap to encode on 5,000 entries.
MAX_ENTRIES = 300
#: Words kept of a field sentence: real descriptive questions are short.
MAX_WORDS = 16
#: A field sentence needs at least this many words left after its names are removed.
MIN_WORDS = 4
SEED = 20261201
#: The text fields a view may hide, one per entry.
FIELDS = ("definition_en", "definition_hi", "usage_en", "usage_hi", "example_en", "example_hi")
NAME_TEMPLATES = ("what is {}?", "{} kya hai?", "{} क्या है?", "{}")
#: For a glossary without one of the languages, each name is also asked the way an asker of that
#: language would: a Hindi-only file's names romanized in an English question (ड्रॉपआउट -> "what is
#: dropout?"), an English-only file's names in a Hindi one.
_OTHER_LANGUAGE_TEMPLATES = {"en": "what is {}?", "hi": "{} क्या होता है?"}


@dataclass(frozen=True)
class PseudoQuestion:
    text: str
    entry_id: str | None  # None: the glossary view it is asked of does not cover it
    kind: Kind
    fold: int


@dataclass(frozen=True)
class View:
    """What one fold's retriever may see: entries hidden entirely, and one field family of others."""

    fold: int
    held_out: frozenset[str]
    hidden: dict[str, str]  # entry id -> the field hidden for it

    def hides(self, entry_id: str, field: str) -> bool:
        return entry_id in self.held_out or self.hidden.get(entry_id) == field

    def entries(self, entries: Sequence[GlossaryEntry]) -> list[GlossaryEntry]:
        """The entries as this view shows them (hidden fields emptied, held-out entries gone)."""
        shown = []
        for entry in entries:
            if entry.id in self.held_out:
                continue
            field = self.hidden.get(entry.id)
            if field is not None:
                entry = entry.model_copy(update={field: ""})
            shown.append(entry)
        return shown


def off_topic_pool() -> list[str]:
    return list(load_yaml(OFF_TOPIC_PATH.read_text(encoding="utf-8"))["questions"])


def views_and_questions(
    entries: Sequence[GlossaryEntry], other_languages: bool = True
) -> tuple[list[View], list[PseudoQuestion]]:
    """The ``FOLDS`` views of the glossary and the questions asked of each; ``other_languages``: with
    the names asked in the languages it lacks (off for the ablation's row only)."""
    rng = random.Random(SEED)
    have = languages_of(entries)
    missing = [lang for lang in _OTHER_LANGUAGE_TEMPLATES if other_languages and lang not in have]
    chosen = list(entries)
    rng.shuffle(chosen)
    chosen = chosen[:MAX_ENTRIES]
    views, questions = [], []
    for fold in range(FOLDS):
        members = chosen[fold::FOLDS]
        held_out = frozenset(e.id for i, e in enumerate(members) if i % HOLD_OUT_EVERY == 0)
        hidden: dict[str, str] = {}
        for i, entry in enumerate(members):
            if entry.id in held_out:
                questions += [PseudoQuestion(q, None, "held-out", fold) for q in _about(entry, rng)]
                continue
            field = _field_to_hide(entry, i)
            hidden[entry.id] = field
            questions += _questions(entry, field, fold, rng)
            questions += _asked_in(missing, entry, fold)
        views.append(View(fold, held_out, hidden))
    questions += [PseudoQuestion(q, None, "off-topic", 0) for q in off_topic_pool()]
    return views, questions


def _field_to_hide(entry: GlossaryEntry, i: int) -> str:
    """Rotate over the text fields the entry has (it has a definition in one language at least)."""
    present = [f for f in FIELDS if getattr(entry, f)]
    return present[i % len(present)]


def _questions(entry: GlossaryEntry, field: str, fold: int, rng: random.Random) -> list[PseudoQuestion]:
    names = [core_name(n) for n in (entry.term_en, entry.term_hi) if n]
    template = NAME_TEMPLATES[rng.randrange(len(NAME_TEMPLATES))]
    out = [PseudoQuestion(template.format(n), entry.id, "name", fold) for n in dict.fromkeys(names) if n]
    sentence = _unnamed_sentence(entry, getattr(entry, field))
    if sentence:
        out.append(PseudoQuestion(sentence, entry.id, "field", fold))
        if field.endswith("_hi"):
            out.append(PseudoQuestion(romanise_text(sentence), entry.id, "romanized", fold))
    return out


def _asked_in(languages: Sequence[str], entry: GlossaryEntry, fold: int) -> list[PseudoQuestion]:
    """The entry's first name asked in each of ``languages`` the glossary lacks (see
    ``_OTHER_LANGUAGE_TEMPLATES``), Devanagari romanized for English."""
    name = core_name(entry.term)
    out = []
    for lang in languages:
        shown = romanise_text(name) if lang == "en" else name
        out.append(PseudoQuestion(_OTHER_LANGUAGE_TEMPLATES[lang].format(shown), entry.id, "name", fold))
    return out


def _about(entry: GlossaryEntry, rng: random.Random) -> list[str]:
    """Questions about an entry the view does not hold: its name, and its definition."""
    template = NAME_TEMPLATES[rng.randrange(len(NAME_TEMPLATES))]
    out = [template.format(core_name(entry.term_en or entry.term_hi or entry.term))]
    sentence = _unnamed_sentence(entry, entry.definition_en) or _unnamed_sentence(entry, entry.definition_hi)
    return [*out, sentence] if sentence else out


def core_name(name: str) -> str:
    """The name without a bracketed part ("Continuous Delivery (CD)" -> "Continuous Delivery")."""
    core = regex.sub(r"\s*\([^)]*\)", "", name).strip()
    return core or name


def _unnamed_sentence(entry: GlossaryEntry, text: str | None) -> str | None:
    """The first sentence of ``text`` without the entry's name words, cut to ``MAX_WORDS``."""
    if not text:
        return None
    first = first_sentence(text)[0]
    name_words = {t for n in entry.names for t in tokens(n)}
    words = [w for w in first.split() if not set(tokens(w)) & name_words]
    return " ".join(words[:MAX_WORDS]) if len(words) >= MIN_WORDS else None
