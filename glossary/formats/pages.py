"""A folder of Markdown pages with YAML front matter (how Hugo and Jekyll sites publish a glossary):
one page is one entry. ``title`` is the term, the body the definition, ``aka`` / ``aliases`` the
aliases, the first of ``tags`` the category; other front-matter keys go through the same header
meanings as a spreadsheet's columns. Markup and Hugo / Jekyll shortcodes are reduced to their text
(a tooltip shortcode to its ``text``). ``_index.md`` / ``index.md`` give the glossary's title and
description instead of an entry; a page without front matter (a README beside the pages) is
left out, and the report says so.

Front matter is parsed by python-frontmatter with the glossary's own YAML loader, so duplicate keys
and alias bombs are refused there as in any glossary file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import frontmatter
import regex
import yaml
from markdown_it import MarkdownIt

from glossary.formats.base import ReadOptions, Record, Table, refuse
from glossary.formats.structured import LIST_JOIN
from glossary.formats.text import decode
from glossary.yamlio import YamlTooLarge, load_yaml, yaml_error_message

INDEX_PAGES = ("_index", "index")
#: Site machinery, not glossary content: left out (the report lists which ones were found).
SITE_KEYS = {
    "date",
    "lastmod",
    "publishdate",
    "expirydate",
    "weight",
    "draft",
    "layout",
    "type",
    "slug",
    "menu",
    "toc",
    "sitemap",
    "build",
    "cascade",
    "outputs",
}
#: Summaries of the body: the definition only on a page without a body.
SUMMARY_KEYS = ("short_description", "description", "summary", "excerpt")
#: ``{{< name args >}}``, ``{{% name %}}``, ``{% tag %}`` and ``{{ variable }}``.
SHORTCODE = regex.compile(r"\{\{[<%]\s*/?\s*[\w\-/.]*(?P<args>.*?)[>%]\}\}|\{%.*?%\}|\{\{.*?\}\}", regex.S)
TEXT_ARG = regex.compile(r"""\btext\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_MARKDOWN = MarkdownIt("commonmark")


class _GlossaryYaml(frontmatter.YAMLHandler):
    """Front matter read with ``glossary.yamlio.load_yaml`` (duplicate keys, alias bombs refused)."""

    def load(self, fm: str, **kwargs: Any) -> Any:
        return load_yaml(fm)


def read_folder(folder: Path, pages: Iterable[Path], options: ReadOptions) -> Table:
    table = Table("Markdown pages", [], [], "page", {"folder": folder.name})
    site_keys: set[str] = set()
    summaries: set[str] = set()
    plain: list[str] = []
    for path in pages:
        meta, body = _page(path)
        if not meta:  # a README or notes beside the glossary, not one of its pages
            plain.append(path.name)
            continue
        if path.stem in INDEX_PAGES:
            table.title = _one_line(meta.get("title"))
            table.description = _one_line(meta.get("description"))
            continue
        cells, dropped = _cells(meta, body)
        site_keys |= dropped
        if body.strip():
            summaries |= {k for k in SUMMARY_KEYS if meta.get(k)}
        table.records.append(Record(_title_line(path), cells, page=path.relative_to(folder).as_posix()))
        table.header.extend(h for h in cells if h not in table.header)
    table.details["pages"] = str(len(table.records))
    if plain:
        table.notes.append(f"pages without front matter, not glossary entries, left out: {', '.join(plain)}")
    if site_keys:
        table.notes.append(
            f"site settings in the front matter, not glossary text, left out: {', '.join(sorted(site_keys))}"
        )
    if summaries:
        table.notes.append(
            f"{', '.join(sorted(summaries))}: a summary of the body, used as the definition only on "
            "pages without a body"
        )
    return table


def _page(path: Path) -> tuple[Mapping[str, Any], str]:
    text, _ = decode(path, path.read_bytes(), "Markdown")
    try:
        post = frontmatter.loads(text, handler=_GlossaryYaml())
    except YamlTooLarge as exc:
        raise refuse(path, str(exc)) from exc
    except yaml.YAMLError as exc:
        raise refuse(path, f"invalid front matter: {yaml_error_message(exc)}") from exc
    meta = post.metadata if isinstance(post.metadata, Mapping) else {}
    return meta, post.content


def _cells(meta: Mapping[str, Any], body: str) -> tuple[dict[str, str], set[str]]:
    cells: dict[str, str] = {"term": _value(meta.get("title")), "definition": to_text(body)}
    if not cells["definition"]:
        cells["definition"] = next((to_text(_value(meta[k])) for k in SUMMARY_KEYS if meta.get(k)), "")
    tags = meta.get("tags") or meta.get("categories")
    tags = [str(t) for t in tags] if isinstance(tags, list) else [str(tags)] if tags else []
    if tags:
        cells["category"] = tags[0]
        if len(tags) > 1:
            cells["more tags"] = LIST_JOIN.join(tags[1:])
    aliases = meta.get("aka") or meta.get("aliases")
    if aliases:
        cells["aliases"] = _value(aliases)
    used = {"title", "tags", "categories", "aka", "aliases", *SUMMARY_KEYS}
    dropped = {k for k in meta if str(k).lower() in SITE_KEYS}
    for key, value in meta.items():
        if key not in used and key not in dropped and value not in (None, "", []):
            cells[str(key)] = _value(value)
    return {k: v for k, v in cells.items() if v}, {str(k) for k in dropped}


def to_text(markdown: str) -> str:
    """Markdown (with shortcodes) as plain text: paragraphs kept apart, links as their text."""
    plain = SHORTCODE.sub(_shortcode_text, markdown)
    blocks: list[str] = []
    for token in _MARKDOWN.parse(plain):
        if token.type == "inline" and token.children is not None:
            text = "".join(_inline(child) for child in token.children).strip()
            if text:
                blocks.append(text)
        elif token.type in ("fence", "code_block") and token.content.strip():
            blocks.append(token.content.strip())
    return "\n\n".join(blocks)


def _inline(token: Any) -> str:
    if token.type in ("text", "code_inline"):
        return str(token.content)
    if token.type in ("softbreak", "hardbreak"):
        return " " if token.type == "softbreak" else "\n"
    return ""


def _shortcode_text(match: regex.Match[str]) -> str:
    found = TEXT_ARG.search(match.group("args") or "")
    return next((g for g in found.groups() if g is not None), "") if found else ""


def _value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return LIST_JOIN.join(str(v).strip() for v in value if v is not None and str(v).strip())
    return " ".join(str(value).split()) if not isinstance(value, str) else value.strip()


def _one_line(value: Any) -> str | None:
    return " ".join(str(value).split()) or None if value else None


def _title_line(path: Path) -> int:
    """The line of the page's ``title:`` (1 when there is none): where a reader finds the entry."""
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if line.lstrip().startswith(b"title:"):
                return number
            if number > 200:
                break
    return 1
