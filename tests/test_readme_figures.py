"""The README's deploy figures are the last recorded run's (benchmarks/DEPLOY.json), not typed in
separately: a re-run that changes DEPLOY.json without the README fails here."""

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEPLOY = json.loads((REPO / "benchmarks" / "DEPLOY.json").read_text(encoding="utf-8"))
README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Deploy") : README.index("## Performance")]

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
    ("big_5000", "load_s", "{:,.0f} s"),
    ("big_5000", "one_entry_rebuild_s", "{:.1f} s"),
    ("big_5000", "peak_rss_mb", "{:.0f} MB"),
    ("big_5000", "query_p50_ms", "{:.1f} ms"),
]


@pytest.mark.parametrize(("section", "key", "form"), FIGURES)
def test_the_readme_shows_the_recorded_figure(section, key, form):
    written = form.format(DEPLOY[section][key])
    assert written in SECTION, f"README Deploy lacks {section}.{key} = {written}"


@pytest.mark.parametrize("section", ["big", "big_5000"])
def test_the_readme_shows_the_recorded_encoding_rates(section):
    rates = " / ".join(f"{DEPLOY[section][f'texts_per_s_{n}_threads']:.1f}" for n in (1, 2))
    assert rates in SECTION
