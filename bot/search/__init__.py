"""Search: the glossary entries (and FAQ items) a question is about, and how sure that is.

Hybrid retrieval (``retrieval``: dense e5 and lexical evidence, ``lexical``, fused), fitted to each
glossary on questions made from its own text (``calibration``, ``pseudo``, ``fit_basis``; shipped
for the bundled glossary: ``prebuilt``), over a glossary readied by ``loading``; names (``names``),
the FAQ (``faq``) and the entries whose text addresses a problem (``remedies``). ``evidence`` holds
what search finds for one understood question. What depends on the glossary (spelling corrected
against its words, acronyms it spells out) is worked out here from the question's reading.
"""
