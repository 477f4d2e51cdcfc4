"""Programs that draw random numbers as tutorials do (`torch.manual_seed(0); torch.randn(3)`,
nn.Linear's initialisation, dropout in training, nn.init, generators, every sampler, on views
too): `gradcli run` prints exactly what PyTorch 2.13 printed, recorded in
data/random/programs.json (the programs: data/random/programs.py). Where torch is installed,
the recording is checked against a live run as well."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from gradcli.core.tensor import Settings
from gradcli.lang.program import parse

DATA = Path(__file__).resolve().parent / "data" / "random"


def _load_programs() -> Any:
    spec = importlib.util.spec_from_file_location("_random_programs", DATA / "programs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROGRAMS = _load_programs()
RECORDED: dict[str, str] = json.loads((DATA / "programs.json").read_text())["stdout"]
NAMES = sorted(PROGRAMS.PROGRAMS)


@pytest.fixture(autouse=True)
def _settings_restored() -> Any:
    """A run sets the process's default dtype (float32 here): later tests expect theirs."""
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def run_gradcli(source: str) -> str:
    return "".join(parse(source, "program.py").run(dtype="float32").output)


def test_every_program_is_recorded() -> None:
    assert set(RECORDED) == set(PROGRAMS.PROGRAMS)


@pytest.mark.parametrize("name", NAMES)
def test_prints_what_pytorch_printed(name: str) -> None:
    ours = run_gradcli(PROGRAMS.PROGRAMS[name])
    want = RECORDED[name]
    if ours != want:
        for i, (a, b) in enumerate(zip(ours.splitlines(), want.splitlines())):
            assert a == b, f"line {i + 1} differs"
    assert ours == want


@pytest.mark.parametrize("name", NAMES)
def test_the_recording_is_pytorchs(name: str) -> None:
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip(f"recorded for torch 2.13, found {torch.__version__}")
    assert PROGRAMS.run_torch(PROGRAMS.PROGRAMS[name]) == RECORDED[name]


def test_random_past_the_exact_integers_of_a_float_warns_as_pytorch() -> None:
    """randint / random_ into a float dtype past 2**digits: PyTorch's UserWarning (its words,
    checked against torch 2.13), the draws unchanged."""
    src = (
        "import torch\ntorch.manual_seed(0)\n"
        "print(torch.randint(0, 2**24 + 3, (3,), dtype=torch.float32).tolist())\n"
        "x = torch.empty(2, dtype=torch.float64)\nx.random_(-(2**60), 5)\nprint(x.tolist())\n"
        "print(torch.randint(0, 2**24, (2,), dtype=torch.float32).tolist())\n"
    )
    run = parse(src, "program.py").run(dtype="float32")
    assert "".join(run.output) == (
        "[8325384.0, 12888170.0, 1483856.0]\n"
        "[-5.669469504773358e+17, -3.145977836319891e+17]\n"
        "[15039847.0, 7644169.0]\n"
    )
    tail = (
        "Due to precision limitations {} can support discrete uniform distribution only within "
        "this range. This warning will become an error in version 1.7 release, please fix the "
        "code in advance"
    )
    assert list(run.warnings) == [
        "program.py:3:1: warning: to - 1 is out of bounds [-(2^24), 2^24]. " + tail.format("float"),
        "program.py:5:1: warning: from is out of bounds [-(2^53), 2^53]. " + tail.format("double"),
    ]
