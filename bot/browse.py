"""The Browse and About pages: every entry A–Z with a filter, and how the bot works."""

from __future__ import annotations

import html

from bot.answer import Side, code, entry_card, escape_md, other, term
from bot.text import normalise
from glossary import Glossary, GlossaryEntry

ALL = ""  # the category filter value meaning "every category"


def categories(glossary: Glossary, lang: Side) -> list[tuple[str, str]]:
    """(label, value) choices for the category filter; values are the English names."""
    seen = {e.category.en: e.category for e in glossary.entries}
    label = {"en": "All categories", "hi": "सभी श्रेणियाँ"}[lang]
    pairs = [
        (c.en if lang == "en" else f"{c.hi} · {c.en}" if c.hi != c.en else c.en, k) for k, c in seen.items()
    ]
    return [(label, ALL), *sorted(pairs, key=lambda p: normalise(p[0]))]


def _matches(entry: GlossaryEntry, words: list[str]) -> bool:
    haystack = normalise(
        " ".join(
            [
                entry.term,
                entry.term_en,
                entry.term_hi,
                *entry.aliases,
                entry.definition_en,
                entry.definition_hi,
            ]
        )
    )
    return all(w in haystack for w in words)


def filtered(glossary: Glossary, query: str, category: str, lang: Side) -> list[GlossaryEntry]:
    """Entries whose names or definitions contain every word of ``query``, A–Z in ``lang``."""
    words = normalise(query).split()
    chosen = [
        e for e in glossary.entries if (category == ALL or e.category.en == category) and _matches(e, words)
    ]
    return sorted(chosen, key=lambda e: normalise(term(e, lang)))


def _html_text(text: str) -> str:
    """Text for inside an HTML tag: escaped, and brackets as entities so that no markdown renderer
    can read a link into it either."""
    return html.escape(text).replace("[", "&#91;").replace("]", "&#93;")


def _summary(entry: GlossaryEntry, lang: Side) -> str:
    """``<strong>Term</strong> · दूसरा नाम <small>category</small>``, HTML-escaped (no markdown in HTML)."""
    first, second = term(entry, lang), term(entry, other(lang))
    name = f"<strong>{_html_text(first)}</strong>" + (f" · {_html_text(second)}" if second != first else "")
    category = entry.category.en if lang == "en" else entry.category.hi
    return f"{name} <small>{_html_text(category)}</small>"


def listing(glossary: Glossary, query: str, category: str, lang: Side) -> str:
    """The Browse page: a count, then one collapsible full card per entry."""
    entries = filtered(glossary, query, category, lang)
    count = (
        f"**{len(entries)}** of {len(glossary)} terms"
        if lang == "en"
        else f"{len(glossary)} में से **{len(entries)}** शब्द"
    )
    if not entries:
        return count + "\n\n" + ("No term matches this filter." if lang == "en" else "कोई शब्द नहीं मिला।")
    blocks = [
        "\n\n".join(
            [
                f"<details class='entry' id='entry-{e.id}'>\n<summary>{_summary(e, lang)}</summary>",
                entry_card(e, lang, heading=False),
                "</details>",
            ]
        )
        for e in entries
    ]
    return "\n\n".join([count, *blocks])


def about(glossary: Glossary, lang: Side) -> str:
    """How the bot works, where its text comes from, and the licence."""
    docs = "\n".join(
        f"- {code(d.document)} — **{escape_md(d.title_hi)}**"
        + (f": {escape_md(d.subtitle_hi)}" if d.subtitle_hi else "")
        + f" ({len(d.entries)} {'terms' if lang == 'en' else 'शब्द'})"
        for d in glossary.documents
    )
    if lang == "en":
        return f"""### How it works
Ask in Hindi, English or Hinglish. Your question is matched against every glossary entry twice:
by meaning, with the multilingual-e5-small sentence model running on this machine, and by
words, with BM25 and a match on term names and aliases (spelling mistakes are tolerated).
The best entry is shown as a card with its citation; "X vs Y" questions get both entries side
by side. When no entry fits, the bot says so instead of guessing. Follow-ups such as
"give me an example", "iska example do" or "in Hindi please" refer to the previous answer.

Nothing leaves this machine: no external services, no analytics. Likes, dislikes and comments
are saved in a local file with only the question, the cited entries and what you typed.

### Sources
The Hindi text (terms, definitions, usage, examples, cautions, tables, FAQ answers) is quoted
verbatim from the two commissioned seed documents; every answer cites document and line.
English definitions and translations, aliases and FAQ questions are written by the project
and marked as such.

{docs}

### Licence
Code: MIT licence. The Hindi glossary text is from the commissioned documents listed above.
"""
    return f"""### यह कैसे काम करता है
हिंदी, अंग्रेज़ी या हिंग्लिश में पूछें। आपका प्रश्न हर शब्दावली प्रविष्टि से दो तरह मिलाया जाता है:
अर्थ से (इसी मशीन पर चलने वाला multilingual-e5-small मॉडल) और शब्दों से (BM25 तथा शब्दों और
उपनामों का मिलान; वर्तनी की गलतियाँ भी चलती हैं)। सबसे उपयुक्त प्रविष्टि स्रोत-उद्धरण के साथ कार्ड के रूप में
दिखती है; "X बनाम Y" प्रश्नों में दोनों प्रविष्टियाँ साथ-साथ दिखती हैं। कोई प्रविष्टि उपयुक्त न हो तो बॉट
अनुमान लगाने के बजाय साफ़ बता देता है। "इसका उदाहरण दो", "give me an example" या "in English" जैसे
प्रश्न पिछले उत्तर के शब्द के बारे में माने जाते हैं।

कुछ भी इस मशीन से बाहर नहीं जाता: न बाहरी सेवाएँ, न एनालिटिक्स। पसंद/नापसंद और टिप्पणियाँ केवल प्रश्न,
उद्धृत प्रविष्टियों और आपके लिखे पाठ के साथ एक स्थानीय फ़ाइल में सहेजी जाती हैं।

### स्रोत
हिंदी पाठ (शब्द, परिभाषाएँ, उपयोग, उदाहरण, सावधानियाँ, तालिकाएँ, FAQ उत्तर) दो कमीशन किए गए मूल
दस्तावेज़ों से ज्यों का त्यों लिया गया है; हर उत्तर दस्तावेज़ और पंक्ति का हवाला देता है। अंग्रेज़ी परिभाषाएँ
व अनुवाद, उपनाम और FAQ प्रश्न परियोजना द्वारा लिखे गए हैं और ऐसे चिह्नित हैं।

{docs}

### लाइसेंस
कोड: MIT लाइसेंस। हिंदी शब्दावली का पाठ ऊपर दिए गए कमीशन किए गए दस्तावेज़ों से है।
"""
