"""Fuzzing in the normal test run (bounded: a few hundred cases, well under 30 s).

Mutations of valid programs (examples/*.py and the snippets of fuzz/run_fuzz.py), random token
soup and random text must never let anything but a `GradcliError` out of `gradcli.api.load`
/ `api.backward`, never hang, and through the CLI end with exit status 0 or 1 and no traceback.
The mutators are those of `fuzz/run_fuzz.py` (the long run), driven here by hypothesis.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
from collections.abc import Iterator
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gradcli.analysis import api
from gradcli.base.errors import GradcliError
from gradcli.cli.main import app
from tests.helpers import ROOT


def _load_runner() -> object:
    spec = importlib.util.spec_from_file_location("gradcli_fuzz", ROOT / "fuzz" / "run_fuzz.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gradcli_fuzz"] = mod
    spec.loader.exec_module(mod)
    return mod


fz = _load_runner()
SEEDS: list[str] = fz.seeds()  # type: ignore[attr-defined]
TOKENS: list[str] = fz.TOKENS  # type: ignore[attr-defined]

# Small budgets, so that no case can take long (the limits themselves are what is tested).
ENV = {
    "GRADCLI_TIME_SECONDS": "1",
    "GRADCLI_MEMORY_MB": "256",
    "GRADCLI_TENSOR_ELEMENTS": "200000",
    "GRADCLI_LOOP_ITERATIONS": "20000",
    "GRADCLI_LIST_ITEMS": "20000",
}
HANG_SECONDS = 20

FUZZ = settings(
    max_examples=500,
    deadline=timedelta(seconds=10),
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(autouse=True, scope="module")
def small_limits() -> Iterator[None]:
    old = {k: os.environ.get(k) for k in ENV}
    os.environ.update(ENV)
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


class Hang(Exception):
    pass


def _no_hang(*_: object) -> None:
    raise Hang(f"a case ran for over {HANG_SECONDS} s")


def check(text: str) -> None:
    """Only GradcliError may escape; formatting the message must work too."""
    old = signal.signal(signal.SIGALRM, _no_hang)
    signal.alarm(HANG_SECONDS)
    try:
        run = api.load(text, "<fuzz>")
        api.backward(run)
    except GradcliError as e:
        assert e.format().startswith(("<fuzz>:", "error:")), e.format()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@FUZZ
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_mutated_programs(seed: str, rng: object) -> None:
    check(fz.mutate(seed, rng))  # type: ignore[attr-defined]


@FUZZ
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_ast_mutated_programs(seed: str, rng: object) -> None:
    text = seed
    for _ in range(3):
        text = fz._ast_mutate(rng, text)  # type: ignore[attr-defined]
    check(text)


@FUZZ
@given(
    st.lists(
        st.tuples(st.sampled_from(TOKENS), st.sampled_from([" ", "", "\n", "\n  "])), max_size=30
    )
)
def test_token_soup(tokens: list[tuple[str, str]]) -> None:
    check("".join(t + sep for t, sep in tokens))


@settings(FUZZ, max_examples=200)
@given(st.text(max_size=80))
def test_random_text(text: str) -> None:
    check(text)


@settings(FUZZ, max_examples=50)
@given(st.sampled_from(SEEDS), st.randoms(use_true_random=False))
def test_cli_exit_codes(seed: str, rng: object) -> None:
    text = fz.mutate(seed, rng)  # type: ignore[attr-defined]
    result = CliRunner().invoke(app, ["backward", "-e", text])
    out = result.stdout + result.stderr
    assert result.exit_code in (0, 1), (result.exit_code, out)
    assert "Traceback" not in out and "internal error" not in out, out
    if result.exit_code == 1:
        assert result.stdout == ""
        assert result.stderr.startswith(("<-e>:", "error:")), result.stderr


def test_seeds_run() -> None:
    """The unmutated seeds are valid programs (so mutations start from real code)."""
    for text in SEEDS:
        api.load(text)
