"""The glossary-bot command line, run as a real process: stdout must carry only results."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.model
REPO = Path(__file__).resolve().parents[1]


def run_cli(
    *args: str, stdin: str | None = None, cache_dir: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    env = {**os.environ, "GLOSSARY_BOT_CACHE_DIR": str(cache_dir), "HF_HUB_OFFLINE": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )


def test_search_json_single_query(bot, cache_dir):
    out = run_cli("search", "What is gradient clipping?", "--k", "3", "--json", cache_dir=cache_dir)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["query"] == "What is gradient clipping?"
    assert record["abstained"] is False
    assert len(record["results"]) == 3
    first = record["results"][0]
    assert first["term"] == "Gradient clipping" and first["id"] == "gradient-clipping"
    assert first["source"] == "004_2d22f4c9d7805074.txt:197" and isinstance(first["score"], float)


def test_search_json_stdin_batch_keeps_order(bot, cache_dir):
    queries = ["dropout kya hai", "what is the capital of France", "ओवरफिटिंग क्या है"]
    out = run_cli("search", "--json", stdin="\n".join(queries) + "\n", cache_dir=cache_dir)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["query"] for r in records] == queries
    assert records[0]["results"][0]["id"] == "dropout"
    assert records[1]["abstained"] is True
    assert records[2]["results"][0]["term"] == "Overfitting"


def test_eval_reports_metrics(bot, cache_dir, tmp_path):
    data = tmp_path / "mini.jsonl"
    rows = [
        {"id": "1", "query": "what is dropout", "lang": "en", "style": "term", "expected": ["Dropout"]},
        {"id": "2", "query": "best pizza in town", "lang": "en", "style": "out_of_scope", "expected": []},
    ]
    data.write_text("\n".join(json.dumps(r) for r in rows))
    out = run_cli("eval", str(data), "--json", cache_dir=cache_dir)
    assert out.returncode == 0, out.stderr
    overall = json.loads(out.stdout)["full"]["overall"]
    assert overall["recall_at_1"] == 1.0 and overall["out_abstained"] == 1.0


def test_bad_eval_file_exits_4_without_traceback(cache_dir, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    out = run_cli("eval", str(bad), cache_dir=cache_dir)
    assert out.returncode == 4
    assert "Traceback" not in out.stderr and "bad.jsonl:1" in out.stderr


def test_bad_glossary_exits_3_without_traceback(cache_dir, tmp_path):
    bad = tmp_path / "g.yaml"
    bad.write_text("entries: [\n")
    out = run_cli("--glossary", str(bad), "search", "dropout", cache_dir=cache_dir)
    assert out.returncode == 3
    assert "Traceback" not in out.stderr and "g.yaml" in out.stderr
