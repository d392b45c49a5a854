"""``GET /source/{document}?line=N``: the source viewer a citation opens, the cited line in context.

A bundled seed's own text is shown (``glossary.sources``, checked against the checksums recorded
at import). A user glossary's documents are not shipped text, so the records loaded from that line
are shown instead. Everything is HTML-escaped: the page shows the text as it is.
"""

from __future__ import annotations

import html

from fastapi import Query
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute

from bot.answer import SOURCE_ROUTE
from bot.core import GlossaryBot
from bot.messages import t
from glossary.sources import excerpt

_PAGE = """<!doctype html>
<html lang="hi"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1rem; line-height: 1.5; }}
ol {{ padding-left: 3.5rem; }} li {{ padding: 2px 6px; white-space: pre-wrap; }}
li.cited {{ background: #fff3b0; font-weight: 600; }}
</style></head>
<body><h1>{title}</h1><p><code>{document}</code></p>{body}</body></html>"""


def _lines_html(lines: list[tuple[int, str]], cited: int) -> str:
    items = "".join(
        f"<li value='{n}' id='L{n}'"
        + (" class='cited' aria-current='true'" if n == cited else "")
        + f">{html.escape(text)}</li>"
        for n, text in lines
    )
    return f"<ol id='source-lines'>{items}</ol>"


def source_routes(bot: GlossaryBot) -> list[APIRoute]:
    def source(document: str, line: int = Query(ge=1)) -> HTMLResponse:
        """The cited lines of a glossary's source document, the cited one highlighted."""
        glossary = bot.glossary
        lines = excerpt(document, line)
        if lines is not None:
            body = _lines_html(lines, line)
        else:
            records = [e for e in glossary.entries if e.source.document == document and e.source.line == line]
            if not records:
                return HTMLResponse(f"<p>{html.escape(t('source_missing', 'en'))}</p>", status_code=404)
            body = _lines_html([(line, f"{e.term} — {e.definition_hi}") for e in records], line)
        title = html.escape(glossary.title(document))
        return HTMLResponse(_PAGE.format(title=title, document=html.escape(document), body=body))

    return [APIRoute(f"/{SOURCE_ROUTE}/{{document}}", source, methods=["GET"], response_class=HTMLResponse)]
