"""A Python number, a str or a list where PyTorch wants a tensor (issue 10): every function of
torch / torch.nn.functional / torch.linalg / torch.special gradcli has is called with each of
`data/typeprobe/record.py`'s wrong first arguments (`torch.digamma(2.0)`, `F.one_hot(3, 5)`,
`torch.sum('a')`, `torch.clamp(2.0, t)`...), in a small program that prints what happened,
and must print what PyTorch 2.13 printed (`data/typeprobe/expect.json`, recorded with torch;
no torch is needed here).

The calls gradcli does not answer as PyTorch yet are listed in `data/typeprobe/known.txt`, one
a line; the test is strict both ways (a call fixed must leave the list).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradcli.analysis import api
from gradcli.base.errors import GradcliError
from tests.surface.data.typeprobe import record as R

HERE = Path(__file__).resolve().parent / "data" / "typeprobe"


def _outcome(call: str) -> str:
    try:
        return "".join(api.load(R.program(call)).output).rstrip("\n")
    except GradcliError as e:
        return "refused: " + str(e).splitlines()[0]


@pytest.fixture(scope="module")
def outcomes() -> dict[str, tuple[str, str]]:
    expect = json.loads((HERE / "expect.json").read_text())
    return {call: (want, _outcome(call)) for call, want in expect.items()}


def _known() -> set[str]:
    lines = (HERE / "known.txt").read_text().splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def test_the_probe_covers_the_namespaces(outcomes):
    calls = list(outcomes)
    assert len(calls) > 2500
    for prefix in ("torch.", "F.", "torch.linalg.", "torch.special."):
        assert sum(c.startswith(prefix) for c in calls) > 50
    # PyTorch refuses most of them with its TypeError, which gradcli must then raise too
    typeerrors = [c for c, (want, _) in outcomes.items() if want.startswith("TypeError: ")]
    assert len(typeerrors) > 2000


def test_wrong_first_arguments_are_pytorchs_errors(outcomes):
    differ = {call for call, (want, got) in outcomes.items() if want != got}
    known = _known()
    new = sorted(differ - known)
    shown = "\n".join(f"{c}\n  torch:   {outcomes[c][0]}\n  gradcli: {outcomes[c][1]}" for c in new)
    assert not new, f"{len(new)} calls print otherwise than PyTorch:\n{shown}"
    fixed = sorted(known - differ)
    assert not fixed, "these now print what PyTorch prints; remove them from known.txt:\n" + (
        "\n".join(fixed)
    )


def test_the_checked_first_parameters_are_the_tables():
    # lang.calls keeps the names as a literal (the table is not imported on the start-up path)
    from gradcli.lang import calls
    from gradcli.surface.callerrors import tensor_first_names

    assert calls._TENSOR_FIRST_NAMES == tensor_first_names()
