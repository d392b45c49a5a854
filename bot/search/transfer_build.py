"""Make the borrowed questions (``bot.search.transfer``): ``make borrowed-questions``.

The bundled glossary without its project-written extras stands for a user's file, as the shipped
default calibration does; its paraphrases are the questions, and for a one-language view its
entries' names in the language the view lacks, asked as ``bot.search.pseudo`` asks names ("what
is X", "X kya hai", "X क्या है", the bare name): a Hindi-only file's askers ask by the English names
it does not have (a user's own glossary can only be asked its names romanized). Each view
(bilingual, English-only, Hindi-only: ``glossary.views``) is indexed and asked its own
pseudo-questions first, which fixes its folds, its fusion weights and the standardisation of its
features; then every question about an entry the view has is asked of the fold that holds the entry
(a held-out entry's question is out of that fold's scope), with every field of the fold's other
entries shown: a real asker meets the whole glossary. Asked with the field the fold hides for
pseudo-questions hidden too, 255 of the bilingual view's 467 in-scope paraphrases had their entry
first (276 with it shown), and the confidence learnt from them stated too little.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bot.search.calibration import FEATURES, VERSION, ask, labelled, question
from bot.search.loading import ready
from bot.search.logistic import Standard
from bot.search.pseudo import NAME_TEMPLATES, PseudoQuestion, View, core_name
from bot.search.retrieval import Retriever
from bot.search.transfer import BORROWED_PATH, Borrowed, BorrowedSet, key
from bot.settings import Settings
from bot.understand.query import read
from glossary import Glossary, languages_of, load_glossary
from glossary.files import atomic_write
from glossary.schema import LANGUAGES
from glossary.views import VIEWS, glossary_view
from index.encoders import CachedEncoder, make_encoder

#: Decimals kept of a standardised feature (the file is shipped; more say nothing).
DECIMALS = 4


def asked_rows(retriever: Retriever, questions: Mapping[str, Sequence[str]]) -> Borrowed:
    """``questions`` about ``retriever``'s entries asked of its pseudo-question folds."""
    done = question(retriever)
    own, _, _ = labelled(done.asked, done.options)
    scale = Standard.of(own)
    fold_of = {e: v.fold for v in done.views for e in (*v.held_out, *v.hidden)}
    held_out = {e for v in done.views for e in v.held_out}
    asked = [
        PseudoQuestion(text, None if entry in held_out else entry, "paraphrase", fold_of[entry])
        for entry, texts in questions.items()
        if entry in fold_of
        for text in texts
    ]
    readings = [read(q.text) for q in asked]
    whole = [View(v.fold, v.held_out, {}) for v in done.views]
    rows = ask(retriever, whole, asked, readings, retriever.encode(readings), [done.options])
    x, inside, right = labelled(rows, done.options)
    return Borrowed(
        z=np.round(scale.apply(x), DECIMALS).tolist(),
        inside=inside.tolist(),
        right=right.tolist(),
        across=(x[:, FEATURES.index("foreign_share")] > 0).tolist(),
    )


def real_questions(full: Glossary, languages: Sequence[str]) -> dict[str, list[str]]:
    """Per entry of the bundled glossary: its paraphrases, and its names in the languages not among
    ``languages`` (a view's) in each of the pseudo-questions' name templates."""
    lacking = [lang for lang in LANGUAGES if lang not in languages]
    return {
        e.id: [
            *e.paraphrases,
            *(
                template.format(core_name(name))
                for name in (e.text("term", lang) for lang in lacking)
                if name
                for template in NAME_TEMPLATES
            ),
        ]
        for e in full.entries
    }


def borrowed_set(settings: Settings) -> BorrowedSet:
    full = load_glossary()
    bare = full.without_project_extras()
    views: list[Glossary] = [bare, *(glossary_view(bare, v) for v in VIEWS)]
    encoder = CachedEncoder(
        make_encoder(settings.encoder_backend, settings.cache_dir, settings.encoder_model, settings.threads)
    )
    by_languages = {}
    for view in views:
        retriever = ready(view, encoder, settings).retriever
        languages = languages_of(retriever.entries)
        by_languages[key(languages)] = asked_rows(retriever, real_questions(full, languages))
    return BorrowedSet(version=VERSION, features=FEATURES, by_languages=by_languages)


def main() -> None:
    made = borrowed_set(Settings())
    atomic_write(BORROWED_PATH, (made.model_dump_json() + "\n").encode())
    for languages, rows in made.by_languages.items():
        inside, right = sum(rows.inside), sum(rows.right)
        print(f"{languages}: {len(rows.inside)} questions, {inside} in scope, {right} right first")


if __name__ == "__main__":
    main()
