"""Fixtures: the navlab command (independent C++ path to compare with), a synthetic corpus it
makes, and the real samples when present (NAVLAB_SAMPLES or ../shared/samples)."""
from __future__ import annotations

import os
import pathlib
import subprocess

import pytest


def _source_dir() -> pathlib.Path:
    env = os.environ.get("NAVLAB_SOURCE_DIR")
    return pathlib.Path(env) if env else pathlib.Path(__file__).resolve().parents[2]


def navlab_binary() -> str:
    env = os.environ.get("NAVLAB_BINARY")
    if env:
        return env
    return str(_source_dir() / "build" / "navlab")


def run_navlab(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([navlab_binary(), *map(str, args)], capture_output=True, text=True, check=check)


def samples_dir() -> pathlib.Path | None:
    env = os.environ.get("NAVLAB_SAMPLES")
    if env:
        if not pathlib.Path(env).is_dir():
            pytest.fail(f"NAVLAB_SAMPLES={env} is not a folder")
        return pathlib.Path(env)
    p = _source_dir().parent / "shared" / "samples"
    return p if p.is_dir() else None


def sample(relative: str) -> pathlib.Path:
    """A real sample, or a skip naming it (a failure when NAVLAB_REQUIRE_SAMPLES=1)."""
    d = samples_dir()
    path = d / relative if d else None
    if path is None or not path.exists():
        message = f"sample {relative} not found (set NAVLAB_SAMPLES)"
        if os.environ.get("NAVLAB_REQUIRE_SAMPLES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> pathlib.Path:
    """The `small` synthetic corpus (Sekiro- and Elden Ring-shaped binders), made once."""
    out = tmp_path_factory.mktemp("corpus")
    run_navlab("synth", "--preset", "small", "--seed", "3", "-o", out)
    return out


@pytest.fixture(scope="session")
def binders(corpus) -> list[pathlib.Path]:
    found = sorted(corpus.rglob("*.nvmhktbnd.dcx"))
    assert found, "synth made no binder"
    return found


@pytest.fixture
def er_sample() -> pathlib.Path:
    return sample("havok/er/n10_01_00_00_001700.hkx")
