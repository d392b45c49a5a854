"""Query understanding: a question is read once, into one Query, and nothing after reads its text again."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.understand import query as query_module
from bot.understand.comparison import comparison_splits
from bot.understand.cues import follow_up_cues, is_how_to, opposite_topic, small_talk
from bot.understand.hinglish import to_english
from bot.understand.query import Query, understand
from bot.understand.text import content_tokens, detect_lang, lang_undecided, strip_scaffolding, tokens

#: Questions that between them reach every kind of reply the bundled glossary gives without a history.
QUESTIONS = {
    "What is gradient clipping?": "answer",
    "dropout kya hai": "answer",
    "ग्रेडिएंट क्लिपिंग क्या है?": "answer",
    "batch vs epoch": "comparison",
    "what is the opposite of overfitting?": "opposite",
    "hello": "small talk",
    "is a GPU required for training?": "faq",
    "my model does badly even on the training data, what should I do": "remedy",
    "what is attention": "near miss",
    "benchmark questions ended up in the pretraining data so the scores look inflated": "unsure",
    "how do I bake bread": "declined",
    "?!? ...": "declined",
}
#: Follow-ups after "What is gradient clipping?", and how many questions each answer understands:
#: a language switch answers the earlier question again, so that one is understood too.
FOLLOW_UPS = {"give me an example": 1, "tell me more": 1, "in Hindi please": 2}
#: The functions that read a question's text; only understanding may call them on it.
READERS = (
    strip_scaffolding,
    detect_lang,
    lang_undecided,
    content_tokens,
    tokens,
    to_english,
    comparison_splits,
    follow_up_cues,
    small_talk,
    is_how_to,
    opposite_topic,
)


@contextmanager
def counting_queries(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Query]]:
    """Every Query built while inside, wherever it is built."""
    built: list[Query] = []
    init = Query.__init__

    def counted(self: Query, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        built.append(self)

    with monkeypatch.context() as patch:
        patch.setattr(Query, "__init__", counted)
        yield built


@contextmanager
def reads_after_understanding() -> Iterator[list[tuple[str, str]]]:
    """(function, text) of every call to a reader, outside ``understand``, on a text that a Query
    understood before the call holds."""
    readers = {f.__code__: f.__name__ for f in READERS}
    inside = query_module.understand.__code__
    depth = 0
    understood: set[str] = set()
    again: list[tuple[str, str]] = []

    def profile(frame, event, arg):
        nonlocal depth
        if frame.f_code is inside and event in ("call", "return"):
            depth += 1 if event == "call" else -1
            if event == "return" and isinstance(arg, Query):
                understood.update(_texts(arg))
        elif event == "call" and depth == 0 and frame.f_code in readers:
            text = frame.f_locals.get(frame.f_code.co_varnames[0])
            if isinstance(text, str) and text in understood:
                again.append((readers[frame.f_code], text))

    sys.setprofile(profile)
    try:
        yield again
    finally:
        sys.setprofile(None)


def _texts(query: Query) -> set[str]:
    """Every text a Query holds: the question, its topic, its English rendering, its sides and opposite."""
    readings = [r for r in (query.reading, *(query.sides or ()), query.opposite) if r is not None]
    return {query.text} | {t for r in readings for t in (r.text, r.topic, r.english)}


def test_understanding_reads_what_every_step_needs():
    query = understand("training ke time loss kyu badhta hai?", 2000)
    assert query.lang == "hinglish" and query.reading.hinglish and query.how_to
    assert "increase" in query.reading.glosses and "increase" in query.reading.english
    assert "hai" not in query.reading.hinglish_words
    sides = understand("batch vs epoch", 2000).sides
    assert sides is not None and [s.text for s in sides] == ["batch", "epoch"]
    opposite = understand("what is the opposite of overfitting?", 2000).opposite
    assert opposite is not None and opposite.text == "overfitting"
    assert understand("give me an example", 2000).follow_up == ("example", None)
    assert understand("What is Dropout?", 2000).reading.name == "dropout"


def test_a_long_question_is_cut_and_remembers_its_whole_language():
    query = understand("dropout and gradient clipping in batch size " + "क्या है " * 400, 100)
    assert len(query.text) == 100 and query.cut_at == 100
    assert query.lang == "hi" and query.reading.lang == "mixed"  # what is searched is mostly Latin


@pytest.mark.model
def test_a_question_is_understood_once_per_answer(bot, monkeypatch):
    kinds = set()
    for question, kind in QUESTIONS.items():
        with counting_queries(monkeypatch) as built:
            answer = bot.answer(question)
        assert [q.text for q in built] == [bot.prepare(question).text], question
        assert answer.kind == kind, question
        kinds.add(answer.kind)
    assert kinds == set(QUESTIONS.values())
    first = "What is gradient clipping?"
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": bot.answer(first).text}]
    for follow_up, understood in FOLLOW_UPS.items():
        with counting_queries(monkeypatch) as built:
            bot.answer(follow_up, history)
        assert len(built) == understood, follow_up
    with counting_queries(monkeypatch) as built:
        assert bot.answer("give me an example").kind == "no context"
    assert len(built) == 1


@pytest.mark.model
def test_nothing_after_understanding_reads_the_question_again(bot, monkeypatch):
    """Search, the router and the replies read the Query's fields: once a question is understood, no
    reader of text is called on it (or on a text understanding derived from it). The dialogue may read
    an earlier question of the history before it is answered again ("in Hindi please")."""
    first = "What is gradient clipping?"
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": bot.answer(first).text}]
    asked = [(q, []) for q in QUESTIONS] + [(q, history) for q in FOLLOW_UPS]
    for question, before in asked:
        with reads_after_understanding() as again:
            bot.answer(question, before)
        assert not again, (question, again)
