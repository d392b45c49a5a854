"""The maintainers' area as plain HTML: no script, every text escaped.

Every value that comes from a visitor (questions, comments) or from a glossary file (terms, the
loader's report) goes through ``html.escape``, so it shows as the text it is. Forms post the
session's form token back (``ui.admin.auth``).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlencode

from bot.records.report import MAX_GROUPED, Report

#: Seconds after which a page that waits for something (a report, a build) reloads itself.
REFRESH_S = 3
STYLE = """body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:70rem;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;
text-align:left;vertical-align:top}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}
.error{color:#a00}.note{color:#555}form{margin:.5rem 0}"""


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def page(title: str, body: str, refresh: bool = False) -> str:
    meta = f'<meta http-equiv="refresh" content="{REFRESH_S}">' if refresh else ""
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">{meta}'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>{body}</body></html>"
    )


def login(message: str | None = None) -> str:
    error = f'<p class="error" id="login-error">{esc(message)}</p>' if message else ""
    return page(
        "Maintainers' area: log in",
        "<h1>Maintainers' area</h1>"
        f"{error}"
        '<form method="post" action="/admin/login">'
        '<label>Password <input type="password" name="password" id="password" '
        'autocomplete="current-password" required></label> '
        '<button type="submit" id="login">Log in</button></form>',
    )


def table(head: Sequence[str], rows: Iterable[Sequence[object]], id_: str) -> str:
    header = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table id="{esc(id_)}"><tr>{header}</tr>{body}</table>'


@dataclass(frozen=True)
class GlossaryStatus:
    """What the area says about the glossary in service."""

    files: list[str]
    content_hash: str
    entries: int
    languages: dict[str, int]
    last_reload: datetime | None
    last_refused: datetime | None
    refused_report: str | None
    build: str
    building: bool


def _when(moment: datetime | None) -> str:
    return moment.isoformat(timespec="seconds") if moment else "never"


def glossary_section(status: GlossaryStatus, form_token: str, upload_mb: float) -> str:
    refused = (
        f'<h3>Last refused edit ({esc(_when(status.last_refused))})</h3><pre id="refused">'
        f"{esc(status.refused_report)}</pre>"
        if status.refused_report
        else "<p>No edit has been refused since the app started.</p>"
    )
    languages = ", ".join(f"{k}: {v}" for k, v in status.languages.items())
    return (
        '<h2>Glossary in service</h2><ul id="glossary-status">'
        f"<li>files: {esc(', '.join(status.files))}</li>"
        f"<li>content hash: <code>{esc(status.content_hash)}</code></li>"
        f'<li>entries: <span id="entries">{status.entries}</span></li>'
        f"<li>languages: Hindi and English (definitions in both); entries with {esc(languages)}</li>"
        f"<li>last reload: {esc(_when(status.last_reload))}</li>"
        f'<li>build: <span id="build">{esc(status.build)}</span></li></ul>'
        f"{refused}"
        "<h3>Upload or replace the glossary file</h3>"
        '<p class="note">CSV, TSV, XLSX, XLS, ODS, TBX, JSON, JSONL or YAML, '
        f"at most {upload_mb:g} MB; checked whole before anything is swapped in; "
        "the previous file is kept as a backup.</p>"
        '<form method="post" action="/admin/glossary" enctype="multipart/form-data">'
        f'<input type="hidden" name="form_token" value="{esc(form_token)}">'
        '<input type="file" name="file" id="glossary-file" required> '
        '<button type="submit" id="upload">Upload</button></form>'
    )


def period_links(since: str, until: str) -> str:
    query = urlencode({k: v for k, v in (("since", since), ("until", until)) if v})
    suffix = f"?{query}" if query else ""
    return (
        '<form method="get" action="/admin">'
        f'<label>From <input type="date" name="since" value="{esc(since)}"></label> '
        f'<label>to (not included) <input type="date" name="until" value="{esc(until)}"></label> '
        '<button type="submit" id="period">Show</button></form>'
        f'<p>Download: <a id="report-md" href="/admin/report.md{esc(suffix)}">markdown</a> · '
        f'<a id="report-csv" href="/admin/report.csv{esc(suffix)}">CSV</a></p>'
    )


def report_section(report: Report) -> str:
    def names(ids: Sequence[str]) -> str:
        return ", ".join(f"{report.terms.get(i, i)} ({i})" for i in ids) or "—"

    languages = table(
        ["language", "questions", "declined", "likes", "dislikes"],
        ([lang, c.questions, c.declined, c.likes, c.dislikes] for lang, c in report.languages.items()),
        "languages",
    )
    declined = table(
        ["count", "languages", "examples", "nearest entries"],
        (
            [
                g.count,
                ", ".join(f"{k} {v}" for k, v in sorted(g.languages.items())),
                " · ".join(g.examples),
                names(g.nearest),
            ]
            for g in report.declined
        ),
        "declined",
    )
    disliked = table(
        ["dislikes", "likes", "answer", "questions", "comments"],
        (
            [
                d.dislikes,
                d.likes,
                f"{d.kind}: {names(d.entry_ids)}",
                " · ".join(d.questions),
                " · ".join(d.comments),
            ]
            for d in report.disliked
        ),
        "disliked",
    )
    asked = table(["times cited", "entry"], ([n, names([e])] for e, n in report.most_asked), "most-asked")
    return (
        f'<h2>Report</h2><p id="report-summary">{report.questions} questions in this period; '
        f"{report.declined_total} declined, {report.declined_grouped} of them grouped by meaning (the "
        f"{MAX_GROUPED} most recent distinct texts at most).</p>"
        f"<h3>Per language</h3>{languages}<h3>Declined questions, grouped by meaning</h3>{declined}"
        f"<h3>Feedback per entry: most disliked answers and their comments</h3>{disliked}"
        f"<h3>Most asked entries</h3>{asked}"
    )


def dashboard(sections: Sequence[str], form_token: str, refresh: bool) -> str:
    logout = (
        '<form method="post" action="/admin/logout">'
        f'<input type="hidden" name="form_token" value="{esc(form_token)}">'
        '<button type="submit" id="logout">Log out</button></form>'
    )
    return page("Maintainers' area", "<h1>Maintainers' area</h1>" + logout + "".join(sections), refresh)


def message(title: str, text: str, details: str | None = None, back: str = "/admin") -> str:
    extra = f'<pre id="details">{esc(details)}</pre>' if details else ""
    return page(
        title,
        f'<h1>{esc(title)}</h1><p id="message">{esc(text)}</p>{extra}<p><a href="{esc(back)}">Back</a></p>',
    )
