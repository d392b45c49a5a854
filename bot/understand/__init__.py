"""Query understanding: what a question says, read once (``query.understand``), before anything is
searched.

Cleaning (``clean``), language and script, tokens and question scaffolding (``text``), Hinglish
glosses (``hinglish``), Devanagari spellings of English words sounded out (``translit``),
comparisons and their sides (``comparison``), what else a question asks for: small talk, a how-to,
an opposite, a follow-up (``cues``); all gathered into one frozen ``Query`` (``query``). The
dialogue (``dialogue``) reads the chat history for the earlier answer a follow-up refers to.
Nothing here reads a glossary.
"""
