"""The Space installs from requirements.txt, everyone else from pyproject.toml: they must agree."""

import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def test_requirements_match_pyproject():
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    lines = (REPO / "requirements.txt").read_text().splitlines()
    reqs = [line for line in lines if line.strip() and not line.startswith("#")]
    assert sorted(reqs) == sorted(deps)


def test_every_dependency_is_pinned():
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    assert all("==" in d for d in deps), deps


def test_readme_has_space_front_matter():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["sdk"] == "gradio" and meta["app_file"] == "app.py"
    for key in ("sdk_version", "python_version", "title", "emoji", "license"):
        assert meta.get(key), key


def test_every_folder_of_code_is_a_listed_package():
    """An installed (not editable) copy has only the packages pyproject.toml lists: a new sub-package
    left out imports here, from the checkout, and fails everywhere else."""
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(path.parent.relative_to(REPO).parts)
        for top in ("glossary", "index", "bot", "ui")
        for path in (REPO / top).rglob("*.py")
    }
    assert folders <= listed, sorted(folders - listed)
