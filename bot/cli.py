"""The ``glossary-bot`` command line.

Exit codes (``bot.exitcodes.ExitCode``, shared with the app): 0 success; 1 unexpected internal
error (a bug: one line on stderr, ``-v`` adds the traceback); 2 usage error; 3 the glossary, model
or index cannot be loaded; 4 an input file cannot be read. stdout carries only results (JSON with
``--json``); logs and progress bars go to stderr. Any question is accepted: undecodable bytes on the
command line or stdin become U+FFFD.
"""

from __future__ import annotations

import logging
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markdown import Markdown
from typer._click.core import Context  # the Context TyperGroup.invoke is declared with
from typer.core import TyperGroup

from bot import cli_files
from bot.cli_common import fail as _fail
from bot.cli_common import state as _state
from bot.cli_common import stdin_lines
from bot.exitcodes import ExitCode
from bot.inputs import json_line, scrub
from bot.search.calibration import FEATURE_NAMES
from bot.settings import Settings, setting_errors
from bot.understand.text import SIDES
from index.encoders.registry import BACKENDS, DEFAULT_BACKEND

log = logging.getLogger(__name__)
#: Shortest maintainers' password accepted (a guess costs one argon2 hash and is rate-limited).
MIN_ADMIN_PASSWORD = 12


class _Guarded(TyperGroup):
    """Turns an unexpected exception into one line on stderr and exit code 1, never a traceback."""

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException):  # exits, Ctrl-C, usage errors: typer's own
            raise
        except Exception as exc:
            log.info("internal error", exc_info=True)  # logged at INFO: -v shows it
            _fail(f"internal error: {type(exc).__name__}: {exc} (run with -v for details)", ExitCode.INTERNAL)


app = typer.Typer(
    cls=_Guarded,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Bilingual AI-glossary bot.",
)


@app.callback()
def main(
    glossary: Annotated[
        list[Path] | None, typer.Option("--glossary", "-g", help="Glossary file or folder (repeatable).")
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help=f"Encoder backend: {' | '.join(BACKENDS)} (default {DEFAULT_BACKEND}).")
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="Another sentence-transformers model (needs hub).")
    ] = None,
    cache_dir: Annotated[Path | None, typer.Option(help="Model and index cache folder.")] = None,
    title: Annotated[
        str | None, typer.Option(help="The glossary's title (default: its metadata, else its file's name).")
    ] = None,
    description: Annotated[
        str | None, typer.Option(help="The one line under the title (default: its metadata, else generic).")
    ] = None,
    extras: Annotated[
        bool,
        typer.Option(
            "--extras/--no-extras",
            help="Use the bundled glossary's project-written paraphrases and aliases (--no-extras: "
            "the glossary as a user's file would be).",
        ),
    ] = True,
    columns: Annotated[
        str | None,
        typer.Option(
            help="Which header holds which field where the header synonyms do not tell, e.g. "
            "term=Word,definition=Meaning (setting glossary_columns)."
        ),
    ] = None,
    sheet: Annotated[
        str | None, typer.Option(help="The sheet of XLSX / XLS / ODS glossaries (default the first).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log to stderr.")] = False,
) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr)
    overrides: dict[str, Any] = {
        "glossary_paths": glossary or None,
        "encoder_backend": backend,
        "encoder_model": model,
        "cache_dir": cache_dir,
        "title": title,
        "description": description,
        "project_extras": None if extras else False,
        "glossary_columns": columns,
        "glossary_sheet": sheet,
    }
    try:
        _state["settings"] = Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        _fail(f"invalid option or setting: {setting_errors(exc)}", ExitCode.USAGE)


def _bot(rebuild: bool = False, progress: bool = False, sentences: bool = True):
    """The configured bot; ``sentences=False`` for commands that rank and decide only (no advice)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from bot.core import GlossaryBot
    from glossary import GlossaryError
    from index.errors import IndexLayerError

    try:
        return GlossaryBot.load(
            _state["settings"], rebuild_index=rebuild, progress=progress, sentences=sentences
        )
    except (GlossaryError, IndexLayerError, OSError) as exc:
        _fail(str(exc), ExitCode.LOAD)


def _store():
    from bot.records import Store, StoreError

    settings = _state["settings"]
    try:
        return Store.open(settings.database, settings.record_questions)
    except StoreError as exc:
        _fail(f"cannot open the store: {exc}", ExitCode.LOAD)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in Hindi, English or Hinglish.")],
    record: Annotated[
        bool, typer.Option("--record", help="Record the question and answer in the store (database_url).")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="The answer as JSON, the same as POST /api/answer returns.")
    ] = False,
    ui: Annotated[
        str | None,
        typer.Option("--ui", help="The asker's interface language (en | hi): answers Hinglish questions."),
    ] = None,
) -> None:
    """Answer a question: readable text (the app's answer with its details), or JSON."""
    from bot.records.answered import record as record_answer
    from bot.reply.answer import public_json  # here: the other commands start without it

    if ui not in (None, *SIDES):
        _fail(f"--ui must be one of {', '.join(SIDES)}, not {ui!r}", ExitCode.USAGE)
    live = _bot().pinned()
    answer = live.answer(scrub(question), preferred=ui)
    if record:
        record_answer(_store(), live, scrub(question), answer, "cli")
    if as_json:
        typer.echo(public_json(answer))
        return
    # rich renders the markdown for a terminal (tables, bold, links as their text) and as plain text
    # when stdout is a pipe or a file.
    Console(soft_wrap=True).print(Markdown(answer.full_text))


def _when(value: str | None, option: str) -> datetime | None:
    """A --since/--until date (YYYY-MM-DD, or a full ISO time); UTC when no zone is given."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        _fail(f"{option} {value!r}: expected a date like 2026-11-30 or 2026-11-30T14:00", ExitCode.USAGE)
    return parsed.astimezone(UTC) if parsed.tzinfo else parsed.replace(tzinfo=UTC)


@app.command()
def report(
    since: Annotated[str | None, typer.Option(help="From this date or time (UTC), e.g. 2026-11-01.")] = None,
    until: Annotated[str | None, typer.Option(help="Up to (not including) this date or time (UTC).")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV, one row per finding.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON document.")] = False,
) -> None:
    """What the bot declined (grouped by meaning), the most disliked answers, the most asked entries,
    per language, from the store that database_url names."""
    from bot.records import StoreError
    from bot.records import report as maintainers

    start, end = _when(since, "--since"), _when(until, "--until")
    store = _store()
    if _state["settings"].retention_days:
        store.prune(_state["settings"].retention_days)
    try:
        found = maintainers.build(store, _bot(), start, end)
    except StoreError as exc:
        _fail(f"cannot read the store: {exc}", ExitCode.LOAD)
    render = maintainers.to_json if as_json else maintainers.to_csv if as_csv else maintainers.to_markdown
    typer.echo(render(found), nl=False)


@app.command("admin-password")
def admin_password(
    stdin: Annotated[
        bool, typer.Option("--stdin", help="Read the password from stdin's first line.")
    ] = False,
) -> None:
    """Make the argon2 hash that turns the maintainers' area (/admin) on: set it as the setting
    admin_password_hash (e.g. the secret GLOSSARY_BOT_ADMIN_PASSWORD_HASH). The password is not stored."""
    from bot.passwords import hash_password

    if stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    if len(password) < MIN_ADMIN_PASSWORD:
        _fail(f"the password needs at least {MIN_ADMIN_PASSWORD} characters", ExitCode.USAGE)
    typer.echo(hash_password(password))


def _search_record(bot, query: str, k: int) -> dict:
    found = bot.retrieve(query, k)
    return {
        "query": query,
        "abstained": found.abstained,
        "no_entry": found.no_entry,
        "confidence": round(found.confidence, 4),
        "results": [
            {
                "term": h.entry.term,
                "id": h.entry.id,
                "source": h.entry.source.cite(),
                "score": round(h.score, 6),
            }
            for h in found.hits
        ],
    }


@app.command()
def search(
    query: Annotated[
        str | None, typer.Argument(help="Query; omit to read one query per line from stdin.")
    ] = None,
    k: Annotated[int, typer.Option("--k", min=1, max=50, help="How many results.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per query.")] = False,
) -> None:
    """Top-k glossary entries for a query (or for each stdin line)."""
    bot = _bot(sentences=False)  # ranking and deciding only: no advice
    queries = [scrub(query)] if query is not None else stdin_lines()
    for q in queries:
        record = _search_record(bot, q, k)
        if as_json:
            typer.echo(json_line(record))
            continue
        if record["no_entry"]:
            flag = "  (no entry for what is asked: the bot would say so and offer these)"
        else:
            flag = "  (out of scope: the bot would decline)" if record["abstained"] else ""
        typer.echo(f"{q}{flag}")
        for i, r in enumerate(record["results"], start=1):
            typer.echo(f"  {i}. {r['term']}  [{r['id']}]  {r['score']:.3f}  {r['source']}")


@app.command()
def prepare() -> None:
    """Convert the model and build the index, each only if missing or stale (not `GlossaryBot.prepare`,
    which cleans one question)."""
    bot = _bot(progress=True)
    m = bot.retriever.vectors.manifest
    typer.echo(f"ready: {len(bot.glossary)} entries, {len(m.rows)} vectors, encoder {m.encoder_id}", err=True)


#: The fusion weights ``calibrate`` shows.
FITTED_WEIGHTS = {"dense", "sentence", "paraphrase", "bm25", "name", "dense_fields"}


@app.command()
def calibrate(
    save: Annotated[Path | None, typer.Option(help="Also write the fitted calibration (JSON) here.")] = None,
) -> None:
    """Show what was fitted to this glossary: weights, the answer-or-decline threshold and its trade-off."""
    from glossary.files import atomic_write

    bot = _bot(progress=True, sentences=False)
    c = bot.calibration
    if save is not None:
        atomic_write(save, (c.model_dump_json(indent=1) + "\n").encode())
    weights = c.options.model_dump(include=FITTED_WEIGHTS)
    typer.echo(f"pseudo-questions: {sum(c.questions.values())} " + str(c.questions))
    typer.echo(f"fitted weights: {weights}")
    typer.echo(f"pseudo-question R@1 {c.pseudo_recall_at_1:.3f}, MRR {c.pseudo_mrr:.3f}")
    typer.echo(f"answer when P(in scope) >= {c.threshold:.3f}")
    for name, model, names in (
        ("P(in scope)", c.in_scope, FEATURE_NAMES["in_scope"]),
        ("P(first entry right)", c.correct, FEATURE_NAMES["correct"]),
    ):
        coef = ", ".join(f"{f} {w:+.2f}" for f, w in zip(names, model.coef, strict=True))
        typer.echo(f"{name}: intercept {model.intercept:+.2f}; {coef}")
    typer.echo("threshold  out-of-scope declined  in-scope declined   (pseudo-questions)")
    for row in c.trade_off:
        typer.echo(f"  {row.threshold:5.2f}   {row.out_declined:8.3f}              {row.in_declined:8.3f}")


@app.command("build-index")
def build_index() -> None:
    """Rebuild the vector index now (with a progress bar)."""
    bot = _bot(rebuild=True, progress=True)
    m = bot.retriever.vectors.manifest
    typer.echo(f"index built: {len(m.entry_ids)} entries, {len(m.rows)} vectors, encoder {m.encoder_id}")


@app.command()
def prebuild() -> None:
    """Write the index and calibration shipped for the bundled glossary (bot/data/prebuilt/)."""
    from bot.search import prebuilt

    settings = _state["settings"]
    if settings.glossary_paths or not settings.project_extras or settings.encoder_model:
        _fail("prebuild ships the bundled glossary (with extras) and model only", ExitCode.USAGE)
    bot = _bot(rebuild=True, progress=True)
    sentences = bot.sentences.vectors if bot.sentences is not None else None
    shipped = prebuilt.write(bot.retriever.vectors, bot.calibration, sentences=sentences)
    typer.echo(f"prebuilt index for {shipped.encoder_id} written to {prebuilt.FOLDER}", err=True)


@app.command("eval")
def evaluate(
    file: Annotated[Path, typer.Argument(help="JSONL file in the dev-set format.")],
    compare: Annotated[bool, typer.Option(help="Also run dense-only, lexical-only and ablations.")] = False,
    misses: Annotated[int, typer.Option(help="How many worst misses to list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print metrics as JSON.")] = False,
    save: Annotated[
        Path | None, typer.Option(help="Also write the full pipeline's metrics as JSON here (for `summary`).")
    ] = None,
) -> None:
    """Recall@1, Recall@5, MRR, abstention and calibration figures, overall and per lang and style."""
    from bot import evaluation
    from bot.variants import VARIANTS, variant_bot

    try:
        items = evaluation.load_items(file)
    except evaluation.EvalError as exc:
        _fail(str(exc), ExitCode.INPUT)
    bot = _bot()
    names = list(VARIANTS) if compare else ["full"]
    results, outcomes = {}, {}
    for name in names:
        outcomes[name] = evaluation.run(items, evaluation.retrieve_with(variant_bot(bot, name)))
        if name == "full":
            outcomes[name] = evaluation.with_labels(outcomes[name], bot)
        results[name] = evaluation.grouped(outcomes[name])
    if save is not None:
        from glossary.files import atomic_write

        atomic_write(save, evaluation.to_json({"full": results["full"]}).encode())
    if as_json:
        typer.echo(evaluation.to_json(results))
        return
    for start in range(0, len(names), 3):
        typer.echo(evaluation.table({n: results[n] for n in names[start : start + 3]}) + "\n")
    typer.echo(f"Worst misses of the full pipeline (up to {misses}):")
    for o in evaluation.worst_misses(outcomes["full"], misses):
        typer.echo(evaluation.describe_miss(o))


@app.command()
def summary(
    files: Annotated[list[Path], typer.Argument(help="Metrics saved by `eval --save`; named by file stem.")],
    record: Annotated[
        Path | None, typer.Option(help="Also write the table's figures as JSON here (benchmarks/VIEWS.json).")
    ] = None,
    command: Annotated[str, typer.Option(help="The command recorded with the figures.")] = "summary",
) -> None:
    """One table of the full pipeline over several evaluations (what `make eval` ends with)."""
    from bot import evaluation

    try:
        rows = {f.stem: evaluation.summary_row(evaluation.from_json(f.read_bytes())["full"]) for f in files}
    except (OSError, ValueError, KeyError) as exc:
        _fail(f"cannot read saved metrics: {exc}", ExitCode.INPUT)
    typer.echo(evaluation.summary_table(rows))
    if record is not None:
        import json

        from glossary.files import atomic_write

        when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M+00:00")
        data = {"command": command, "date": when, "load_average": round(os.getloadavg()[0], 1), "runs": rows}
        atomic_write(record, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())


for _command in (cli_files.check, cli_files.template, cli_files.view):
    app.command()(_command)


if __name__ == "__main__":
    app()
