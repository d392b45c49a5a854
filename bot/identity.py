"""Whose glossary the app serves: its title, one-line description, example questions and the facts
the About page gives (files, entries, languages, categories).

A team's glossary must look like the team's own, not like the bundled AI glossary. The title and
description come, first found: from the settings (``title``, ``description``), from the glossary's
own metadata, else they are derived from the first configured file or folder ("Payments glossary").
The example questions are made from the glossary's own entries, in the languages it has text in.
The bundled glossary keeps the identity it has always had (``data/identity.yaml``).

:func:`identity` is the one place that reads a glossary's metadata, so a new metadata field is an
edit to :func:`_metadata` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import regex

from bot.markdown import escape_md
from bot.reply.messages import t
from bot.settings import Settings
from bot.understand.text import SIDES, Lang, Side, other, side
from glossary import Category, Glossary, GlossaryEntry, languages_of
from glossary.sources import source_lines
from glossary.yamlio import load_yaml

BUNDLED_PATH = Path(__file__).parent / "data" / "identity.yaml"
#: Example questions made per language the glossary has text in.
EXAMPLES_PER_LANGUAGE = 3
#: Example questions the question box and the empty chat suggest.
HINTS = 3
#: File stems that say nothing about a glossary: its folder names it instead.
GENERIC_STEMS = frozenset({"glossary", "terms", "index", "data", "termbase", "शब्दावली"})
#: Separators in a file or folder name that are spaces in its human name.
_SEPARATORS = regex.compile(r"[\s_.\-]+")
#: "What is X?" in each language.
ASK_TEMPLATES: dict[Side, str] = {"en": "What is {term}?", "hi": "{term} क्या है?"}


@dataclass(frozen=True)
class FileFacts:
    """One loaded file as About lists it."""

    name: str
    title: str
    subtitle: str | None
    entries: int


@dataclass(frozen=True)
class GlossaryIdentity:
    """What the app says the glossary is, and the facts About gives about it."""

    title: dict[Side, str]
    description: dict[Side, str]
    examples: tuple[str, ...]
    #: The few examples the question box and the empty chat suggest, per interface language.
    hints: dict[Side, tuple[str, ...]]
    files: tuple[FileFacts, ...]
    entries: int
    #: Languages the glossary has definitions in.
    languages: tuple[Side, ...]
    categories: tuple[Category, ...]
    bundled: bool
    #: Its own texts of the replies that name the glossary (key -> text per language); the others
    #: are the catalog's, with its title and first example question filled in.
    replies: dict[str, dict[Side, str]]

    def say(self, reply: str, lang: Lang) -> str:
        """The reply ``reply`` (greeting, "who are you", "which term?", "help") about this glossary:
        its title, how many terms it has in which languages, and an example question of its own."""
        first = side(lang)
        if reply in self.replies:
            return self.replies[reply][first]
        return t(
            reply,
            lang,
            title=escape_md(self.title[first]),
            example=escape_md(next(iter(self.hints[first]), "")),
            entries=self.entries,
            languages=self.language_names,
        )

    @property
    def language_names(self) -> str:
        """The languages it has definitions in, each named in itself ("English, हिंदी")."""
        return ", ".join(t("language_name", s) for s in self.languages)

    def name(self, lang: Side) -> str:
        """The title in ``lang``, then in the other language when it differs."""
        first, second = self.title[lang], self.title[other(lang)]
        return first if first == second else f"{first} · {second}"


def is_bundled(glossary: Glossary) -> bool:
    """Every document is one of the shipped seed documents, its text as imported."""
    return all(source_lines(d.document) is not None for d in glossary.documents)


@dataclass(frozen=True)
class _Own:
    """What a glossary says of itself, or what is derived for it, before the settings override it."""

    title: dict[Side, str]
    description: dict[Side, str]
    examples: tuple[str, ...]
    hints: dict[Side, tuple[str, ...]]
    replies: dict[str, dict[Side, str]]


def identity(glossary: Glossary, settings: Settings) -> GlossaryIdentity:
    """The glossary's identity: the settings' title and description, else its metadata, else derived
    (the bundled glossary's own for the bundled glossary)."""
    bundled = is_bundled(glossary)
    own = _bundled() if bundled else _team(glossary, settings.glossary_paths)
    return GlossaryIdentity(
        title=_every_language(settings.title) if settings.title else own.title,
        description=_every_language(settings.description) if settings.description else own.description,
        examples=own.examples,
        hints=own.hints,
        files=tuple(
            FileFacts(d.document, glossary.title(d.document), d.description or d.subtitle_hi, len(d.entries))
            for d in glossary.documents
        ),
        entries=len(glossary),
        languages=languages_of(glossary.entries),
        categories=tuple({e.category: None for e in glossary.entries if e.category}),
        bundled=bundled,
        replies=own.replies,
    )


def _every_language(text: str) -> dict[Side, str]:
    return dict.fromkeys(SIDES, text)


def _metadata(glossary: Glossary) -> tuple[str | None, str | None]:
    """(title, description) the glossary's files give themselves: the first file that has a title
    (a YAML document's ``title`` / ``description``, an ``index.md`` page's front matter, or a source
    document's own Hindi title and subtitle)."""
    for document in glossary.documents:
        if document.title:
            return document.title, document.description
        if document.title_hi and document.title_hi != Path(document.document).stem:
            return document.title_hi, document.subtitle_hi
    return None, None


def _bundled() -> _Own:
    raw = load_yaml(BUNDLED_PATH.read_text(encoding="utf-8"))
    return _Own(
        title=raw["title"],
        description=raw["description"],
        examples=tuple(raw["examples"]),
        hints={lang: tuple(raw["hints"][lang]) for lang in SIDES},
        replies=raw["replies"],
    )


def _team(glossary: Glossary, paths: Sequence[Path]) -> _Own:
    """A team's glossary: its metadata where it has some, else a title from its first file or folder
    and the generic description; examples from its entries."""
    title, description = _metadata(glossary)
    name = human_name(paths[0] if paths else Path(glossary.documents[0].document))
    questions = examples(glossary)
    return _Own(
        title=_every_language(title) if title else {s: t("derived_title", s, name=name) for s in SIDES},
        description=(
            _every_language(description) if description else {s: t("derived_description", s) for s in SIDES}
        ),
        examples=tuple(q for row in _interleave(questions) for q in row),
        hints={s: tuple((questions.get(s) or questions.get(other(s), []))[:HINTS]) for s in SIDES},
        replies={},
    )


def human_name(path: Path) -> str:
    """ "support_terms.csv" -> "Support terms"; a generic stem ("glossary.csv") names its folder."""
    stem = path.name if path.is_dir() else path.stem
    if stem.casefold() in GENERIC_STEMS and path.parent.name:
        stem = path.parent.name
    words = _SEPARATORS.sub(" ", stem).strip() or stem
    return words[:1].upper() + words[1:]


def _term(entry: GlossaryEntry, lang: Side) -> str | None:
    return entry.term_en if lang == "en" else entry.term_hi


def examples(glossary: Glossary) -> dict[Side, list[str]]:
    """A few "What is X?" questions per language the glossary has, about entries spread evenly over
    it (the same ones every time); each further language starts half a step on, so that together
    they name more of the glossary."""
    out: dict[Side, list[str]] = {}
    for n, lang in enumerate(languages_of(glossary.entries)):
        named = [term for e in glossary.entries if lang in e.languages and (term := _term(e, lang))]
        picked = _spread(named, EXAMPLES_PER_LANGUAGE, shift=n)
        out[lang] = [ASK_TEMPLATES[lang].format(term=term) for term in picked]
    return out


def _spread(items: Sequence[str], count: int, shift: int) -> list[str]:
    """``count`` distinct items evenly spaced over ``items``, starting ``shift`` half-steps in."""
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return list(dict.fromkeys(items[int(i * step + shift * step / 2) % len(items)] for i in range(count)))


def _interleave(questions: dict[Side, list[str]]) -> list[tuple[str, ...]]:
    """One question of each language in turn, so that the first few show every language."""
    rows = max((len(q) for q in questions.values()), default=0)
    return [tuple(q[i] for q in questions.values() if i < len(q)) for i in range(rows)]
