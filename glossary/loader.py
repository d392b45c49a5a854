"""Load the bundled glossary and/or user glossary files into a ``Glossary``.

A user's glossary comes as they have it: CSV / TSV, XLSX / XLS / ODS, TBX, JSON / JSONL, YAML, or
a folder of Markdown pages (``glossary.formats``), with any headers (``glossary.columns``); only a
term and a definition, in either language, are required. YAML and JSON in the full schema (how the
bundled glossary is written) are validated as they are.

All files are read and validated before anything is returned, so a bad user file can never leave
the bot with a half-loaded glossary; the problems of a file are reported together (``GlossaryError``
naming file, line or row and column). Files above a size limit and glossaries above an entry limit
are refused before they can tie up the machine (every entry is embedded some thirty times when the
index is built). ``read_source`` gives the same reading as a report, for ``glossary-bot check``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from glossary.columns import Column, map_columns
from glossary.errors import GlossaryError, from_validation_error
from glossary.formats import (
    PAGE_SUFFIXES,
    SUPPORTED_SUFFIXES,
    UNSUPPORTED,
    ReadOptions,
    Structured,
    Table,
    read,
    read_folder,
)
from glossary.schema import GlossaryDocument, GlossaryEntry
from glossary.store import Glossary
from glossary.tables import Built, Problem, build
from glossary.validation import check_glossary
from glossary.yamlio import DEFAULT_MAX_MB

DATA_DIR = Path(__file__).resolve().with_name("data")
#: Default limits (the bot's Settings can change them): a file's size in MB, and all files' entries.
MAX_FILE_MB = DEFAULT_MAX_MB
MAX_ENTRIES = 5000
#: Problems one error message lists; the rest are counted.
MAX_PROBLEMS_SHOWN = 20
MB = 1024 * 1024
NO_ENTRIES = "no entries: a glossary needs at least one entry"
#: Where a table's "see also" names that are not entries of the glossary are kept.
RELATED_ELSEWHERE = "related"


@dataclass(frozen=True)
class PageFolder:
    """A folder's Markdown pages, read as one glossary."""

    folder: Path
    pages: tuple[Path, ...]
    #: The folder has glossary files too ("glossary.csv" beside a README.md): pages without front
    #: matter are then the folder's notes, and having no glossary page is no problem.
    beside_files: bool = False


Source = Path | PageFolder


@dataclass
class FileReport:
    """What reading one file (or folder of pages) found: what ``glossary-bot check`` prints."""

    path: Path
    format: str = "unknown"
    details: dict[str, str] = field(default_factory=dict)
    columns: list[Column] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    languages: dict[str, Counter[str]] = field(default_factory=dict)
    entries: int = 0
    problems: list[Problem] = field(default_factory=list)


class GlossaryProblems(GlossaryError):
    """Several problems in one file: all of them listed (up to MAX_PROBLEMS_SHOWN), then a count."""

    def __init__(self, path: Path, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        first = self.problems[0]
        if len(self.problems) == 1:
            super().__init__(path, str(first))
            self.field = first.column
            return
        shown = "\n".join(f"  - {p}" for p in self.problems[:MAX_PROBLEMS_SHOWN])
        more = len(self.problems) - MAX_PROBLEMS_SHOWN
        super().__init__(
            path,
            f"{len(self.problems)} problems; fix them and load again:\n{shown}"
            + (f"\n  ... and {more} more" if more > 0 else ""),
        )
        self.field = first.column


def load_glossary(
    paths: Sequence[Path] | None = None,
    max_file_mb: float = MAX_FILE_MB,
    max_entries: int = MAX_ENTRIES,
    parse_cache: Path | None = None,
    options: ReadOptions | None = None,
) -> Glossary:
    """Load glossary files (or folders of them); ``None`` loads the bundled ``glossary/data``.

    ``parse_cache``: a folder where parsed YAML is kept between runs (``yamlio.load_yaml_cached``).
    ``options``: sheet and column overrides for users' files.
    """
    options = _options(options, max_file_mb, parse_cache)
    sources = expand([DATA_DIR] if paths is None else [Path(p) for p in paths])
    documents: list[tuple[Path, GlossaryDocument]] = []
    tabular: set[Path] = set()
    count = 0
    for source in sources:
        document, report = read_source(source, options)
        if report.problems:
            raise GlossaryProblems(report.path, report.problems)
        if document is None:
            continue  # only notes beside the folder's glossary files
        count += len(document.entries)
        if count > max_entries:
            raise GlossaryError(
                report.path,
                f"too many entries: the glossary reaches {count} entries here; the limit is {max_entries} "
                "(setting max_glossary_entries)",
            )
        documents.append((_path(source), document))
        if report.columns:
            tabular.add(_path(source))
    if count == 0:
        raise GlossaryError(_named(sources[0]), NO_ENTRIES)
    documents = _settle_related(documents, tabular)
    check_glossary(documents)
    return Glossary([document for _, document in documents])


def read_source(source: Source, options: ReadOptions) -> tuple[GlossaryDocument | None, FileReport]:
    """Read one file or folder of pages: its document (None when it has problems, or for pages that
    are only notes beside glossary files) and the report. A file that cannot be read at all raises
    ``GlossaryError`` (one line)."""
    path = _path(source)
    report = FileReport(_named(source))
    if isinstance(source, PageFolder):
        _check_size(path, sum(p.stat().st_size for p in source.pages), options.max_mb)
        read_as: Table | Structured = read_folder(source.folder, source.pages, options)
    else:
        read_as = read(path, _read_bytes(path, options.max_mb), options)
    report.format, report.details = read_as.format, dict(read_as.details)
    document: GlossaryDocument | None
    if isinstance(read_as, Structured):
        document = _structured(path, read_as)
    elif isinstance(source, PageFolder) and source.beside_files and not read_as.records:
        report.notes = list(read_as.notes)
        return None, report
    else:
        document = _tabular(path, read_as, options, report)
    if document is not None:
        report.entries = len(document.entries)
        report.languages = _languages(document.entries)
    return (None if report.problems else document), report


def expand(paths: Sequence[Path]) -> list[Source]:
    """Files as given; a folder's glossary files in name order, then its Markdown pages as one (a
    README beside a spreadsheet is such a page: read, and left out when it has no front matter)."""
    sources: list[Source] = []
    for path in paths:
        if path.is_dir():
            children = sorted(c for c in path.iterdir() if c.is_file() and not c.name.startswith("."))
            files = [c for c in children if c.suffix.lower() in SUPPORTED_SUFFIXES]
            # the folder's own pages, not its subfolders': what the reload watcher looks at too
            pages = tuple(c for c in children if c.suffix.lower() in PAGE_SUFFIXES)
            if not files and not pages:
                raise GlossaryError(path, _nothing_in(path))
            sources.extend(files)
            if pages:
                sources.append(PageFolder(path, pages, beside_files=bool(files)))
        elif not path.is_file():
            raise GlossaryError(path, "no such file or directory")
        elif path.suffix.lower() in PAGE_SUFFIXES:
            sources.append(PageFolder(path.parent, (path,)))
        elif path.suffix.lower() not in SUPPORTED_SUFFIXES:
            raise GlossaryError(path, UNSUPPORTED)
        else:
            sources.append(path)
    return sources


def _nothing_in(folder: Path) -> str:
    """Why a folder gives no glossary, naming the subfolders that hold one (only a folder's own
    files are read, as the reload watcher watches them)."""
    said = f"directory has no glossary files ({', '.join(SUPPORTED_SUFFIXES)}) or Markdown pages"
    below = sorted(
        str(d)
        for d in folder.iterdir()
        if d.is_dir() and any(c.suffix.lower() in (*SUPPORTED_SUFFIXES, *PAGE_SUFFIXES) for c in d.iterdir())
    )
    if not below:
        return said
    return f"{said}; its subfolders are not read, give them instead: {', '.join(below)}"


def _tabular(path: Path, table: Table, options: ReadOptions, report: FileReport) -> GlossaryDocument | None:
    """Entries from a table read by header meaning (``glossary.columns``, ``glossary.tables``)."""
    report.columns = map_columns(table.header, options.columns, table.languages)
    report.notes = list(table.notes)
    built = build(table, report.columns, path.name) if table.header else Built()
    report.problems.extend(built.problems)
    report.languages = _languages(built.entries)  # of the good rows too, when others have problems
    if not report.problems and not table.records:
        # why nothing was read (pages without front matter, ...): `check` prints it, an error must say it
        why = "; ".join(table.notes)
        report.problems.append(Problem("file", None, f"{NO_ENTRIES} ({why})" if why else NO_ENTRIES))
    if report.problems:
        return None
    return GlossaryDocument(
        document=path.name, entries=built.entries, title=table.title, description=table.description
    )


def _settle_related(
    documents: list[tuple[Path, GlossaryDocument]], tabular: set[Path]
) -> list[tuple[Path, GlossaryDocument]]:
    """A "see also" cell of a user's table may name things the glossary does not have: those names
    are kept as text (``extra``, under "related") instead of refusing the file. Files in the full
    schema keep the strict check (a related id there must exist)."""
    known = {e.id for _, d in documents for e in d.entries}
    settled = []
    for path, document in documents:
        if path in tabular and any(r not in known for e in document.entries for r in e.related):
            document = document.model_copy(
                update={"entries": [_keep_unknown(e, known) for e in document.entries]}
            )
        settled.append((path, document))
    return settled


def _keep_unknown(entry: GlossaryEntry, known: set[str]) -> GlossaryEntry:
    unknown = [r for r in entry.related if r not in known]
    if not unknown:
        return entry
    extra = {**entry.extra, RELATED_ELSEWHERE: " | ".join(unknown)}
    return entry.model_copy(update={"related": [r for r in entry.related if r in known], "extra": extra})


def _structured(path: Path, found: Structured) -> GlossaryDocument:
    raw = found.data
    if isinstance(raw, list):
        raw = {"document": path.name, "entries": raw}
    try:
        return GlossaryDocument.model_validate(raw)
    except ValidationError as exc:
        raise from_validation_error(path, exc, raw, found.entry_lines) from exc


def _languages(entries: Sequence[GlossaryEntry]) -> dict[str, Counter[str]]:
    """field -> language -> how many entries have it ("definition": {"en": 170, "hi": 3})."""
    found: dict[str, Counter[str]] = {}
    for entry in entries:
        for name in ("term", "definition", "usage", "example"):
            for lang in ("en", "hi"):
                if entry.text(name, lang):
                    found.setdefault(name, Counter())[lang] += 1
    return found


def _options(options: ReadOptions | None, max_mb: float, parse_cache: Path | None) -> ReadOptions:
    base = options or ReadOptions()
    return ReadOptions(base.sheet, base.columns, max_mb, parse_cache)


def _path(source: Source) -> Path:
    return source.folder if isinstance(source, PageFolder) else source


def _named(source: Source) -> Path:
    """What an error names: the page, when a source is one Markdown page (a file the user gave is
    read as its folder's pages, but "/docs: no entries" would point at a folder they never named)."""
    if isinstance(source, PageFolder) and len(source.pages) == 1 and not source.beside_files:
        return source.pages[0]
    return _path(source)


def _check_size(path: Path, size: int, max_mb: float) -> None:
    if size > max_mb * MB:
        raise GlossaryError(
            path,
            f"file too large: {size / MB:.1f} MB; the limit is {max_mb:g} MB "
            "(setting max_glossary_mb); split it or raise the limit",
        )


def _read_bytes(path: Path, max_mb: float) -> bytes:
    try:
        _check_size(path, path.stat().st_size, max_mb)
        return path.read_bytes()
    except OSError as exc:
        raise GlossaryError(path, f"cannot read file: {exc.strerror or exc}") from exc
