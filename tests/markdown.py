"""Markdown as a CommonMark + GFM renderer (markdown-it-py, as Gradio's server side uses) turns it
into HTML: what tests check escaped text against."""

from __future__ import annotations

from markdown_it import MarkdownIt

_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def render(markdown: str) -> str:
    return _MD.render(markdown)
