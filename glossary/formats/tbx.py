"""TBX (ISO 30042) termbases, TBX-Basic and TBX-Core, v2 (``termEntry``) and v3 (``conceptEntry``).

One concept is one entry: per ``langSet`` (``xml:lang`` en / hi) its first term is the term, the
others are aliases; ``descrip type="definition"`` is the definition, ``descrip type="context"`` the
usage, ``note`` the notes, and a concept's ``subjectField`` its category. Languages other than
English and Hindi are kept under their own headers. Parsed by defusedxml: entity declarations
(a "billion laughs") and external entities or DTDs are refused, never expanded or fetched.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from glossary.formats.base import ReadOptions, Record, Table, refuse

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
CONCEPTS = ("conceptEntry", "termEntry")
KNOWN = ("en", "hi")


def read(path: Path, data: bytes, options: ReadOptions) -> Table:
    try:
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise refuse(
            path,
            "refused: the TBX file declares XML entities (they can expand without bound or read other "
            f"files: {type(exc).__name__}); remove the ENTITY declarations from its DOCTYPE",
        ) from exc
    except ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise refuse(path, f"invalid TBX (XML): {exc}", line) from exc
    concepts = [e for e in root.iter() if _local(e.tag) in CONCEPTS]
    if not concepts:
        raise refuse(path, "no termEntry or conceptEntry elements: not a TBX termbase")
    table = Table("TBX", [], [], "concept", {"encoding": "XML (declared)"})
    for number, concept in enumerate(concepts, start=1):
        cells = _concept(concept, table.languages)
        table.records.append(Record(number, cells))
        table.header.extend(h for h in cells if h not in table.header)
    return table


def _concept(concept: Element, languages: dict[str, str]) -> dict[str, str]:
    cells: dict[str, str] = {}
    if concept.get("id"):
        cells["id"] = concept.get("id", "")
    own = _descrips(concept, stop=("langSet",))  # concept-level: language told by script
    for kind, header in (("subjectField", "category"), ("definition", "definition"), ("context", "usage")):
        if own.get(kind):
            cells[header] = own[kind]
    for lang_set in (e for e in concept if _local(e.tag) == "langSet"):
        code = (lang_set.get(XML_LANG) or lang_set.get("lang") or "").split("-")[0].lower()
        suffix = code if code in KNOWN else f"{code or 'unknown'}"
        # termSec/term (v3), tig/term and ntig/termGrp/term (v2): every term, in document order
        terms = [
            " ".join("".join(t.itertext()).split())
            for t in lang_set.iter()
            if _local(t.tag) == "term" and "".join(t.itertext()).strip()
        ]
        descrips = _descrips(lang_set)
        values = {
            "term": terms[0] if terms else "",
            "aliases": " | ".join(terms[1:]),
            "definition": descrips.get("definition", ""),
            "usage": descrips.get("context", ""),
            "notes": " | ".join(
                (n.text or "").strip()
                for n in lang_set.iter()
                if _local(n.tag) == "note" and (n.text or "").strip()
            ),
        }
        for name, value in values.items():
            if value:
                header = f"{name}_{suffix}" if name != "aliases" else f"aliases ({suffix})"
                cells[header] = value
                if suffix in KNOWN:
                    languages[header] = suffix
    return cells


def _descrips(element: Element, stop: tuple[str, ...] = ()) -> dict[str, str]:
    """``descrip`` (and ``descripGrp/descrip``) texts by type, not looking inside ``stop`` children."""
    found: dict[str, str] = {}
    stack = list(element)
    while stack:
        child = stack.pop(0)
        name = _local(child.tag)
        if name in stop:
            continue
        if name == "descrip" and child.get("type") and "".join(child.itertext()).strip():
            found.setdefault(child.get("type", ""), " ".join("".join(child.itertext()).split()))
        stack.extend(child)
    return found


def _local(tag: object) -> str:
    return str(tag).rsplit("}", 1)[-1]
