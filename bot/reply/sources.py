"""The Sources block the app shows beside an answer: every cited and nearby entry, ranked."""

from __future__ import annotations

from bot.reply.answer import Answer
from bot.reply.cards import names, snippet, source_link
from bot.reply.messages import t
from bot.understand.text import Side, side
from glossary import Glossary


def sources_markdown(answer: Answer, glossary: Glossary, lang: Side | None = None) -> str:
    """The cited entries (and the nearby ones considered): title and line, a snippet of each
    definition, every row's rank, and the calibrated confidence of the first (raw fused scores mean
    nothing to a reader); in ``lang``, the interface's language, when given."""
    first = lang or side(answer.lang)
    rows = [(c.entry_id, t("cited", first)) for c in answer.citations]
    rows += [(h.entry.id, t("nearby", first)) for h in answer.hits if h.entry.id not in answer.entry_ids]
    if not rows:
        return "—"
    lines = []
    for n, (entry_id, role) in enumerate(rows, start=1):
        entry = glossary.get(entry_id)
        sure = ""
        if n == 1 and answer.confidence is not None:
            sure = f" · {t('confidence', first, percent=round(answer.confidence * 100))}"
        link = source_link(entry.source, first, glossary)
        rank = t("rank", first, n=n)
        lines.append(
            f"{n}. **{names(entry, first)}** ({rank} · {role}{sure}) — {link}  \n   {snippet(entry, first)}"
        )
    return "\n".join(lines)
