"""Every example runs, prints the seeds' numbers, and prints exactly what PyTorch prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

from gradcli.analysis import api
from tests.helpers import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def run_text(path: Path) -> str:
    out: list[str] = []
    # As `gradcli run` runs them: PyTorch's float32 default.
    api.load(path.read_text(), str(path), echo=out.append, dtype="float32")
    return "".join(out)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(path: Path) -> None:
    run_text(path)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_matches_pytorch(path: Path) -> None:
    torch = pytest.importorskip("torch")
    buf = io.StringIO()
    torch.manual_seed(0)
    with contextlib.redirect_stdout(buf):
        # The examples are valid PyTorch programs: run them as such for the reference.
        exec(compile(path.read_text(), str(path), "exec"), {"__name__": "__example__"})  # noqa: S102
    expected = re.sub(r",\s*dtype=torch\.float64", "", buf.getvalue())
    code = "\n".join(line.split("#")[0] for line in path.read_text().splitlines())
    if "rand" in code:
        pytest.skip("random values differ from PyTorch's generator by design")
    assert run_text(path) == expected


def test_seed_masks_numbers() -> None:
    text = run_text(Path("examples/seed_masks.py"))
    assert text.splitlines() == [
        "tensor([[2., 0., 0., 0.]])",
        "tensor([[0., 2., 0., 0.]])",
        "tensor([[2., 2., 2., 2.]])",
        "tensor([[2., 2., 2., 2.]])",
    ]


def test_sigmoid_net_reproduces_the_seed() -> None:
    r = api.load(Path("examples/sigmoid_net.py").read_text())
    full = api.backward(r, of="avg_loss", wrt=["W", "b"])
    # The seed's printed values: 1e-2 * [[-2.6718, -3.2673, -3.8628]] and [[0.1481, -0.1038]].
    np.testing.assert_array_equal(np.round(full.grads["W"] * 100, 4), [[-2.6718, -3.2673, -3.8628]])
    np.testing.assert_array_equal(np.round(full.grads["b"], 4), [[0.1481, -0.1038]])
    # losses.backward([0.5, 0.5]) is avg_loss.backward().
    half = api.backward(r, of="losses", wrt=["W", "b"], grad=[[0.5, 0.5]])
    np.testing.assert_allclose(half.grads["W"], full.grads["W"], rtol=1e-15)
    np.testing.assert_allclose(half.grads["b"], full.grads["b"], rtol=1e-15)
    # The masked rows: the seed's Jacobian (its rows listed in the other order).
    rows = [
        api.backward(r, of="losses", wrt=["W"], grad=m).grads["W"][0]
        for m in ([[0.5, 0]], [[0, 0.5]])
    ]
    np.testing.assert_array_equal(
        np.round(np.array(rows) * 100, 4), [[1.4808, 2.9616, 4.4424], [-4.1526, -6.2289, -8.3053]]
    )


def test_loops_numbers() -> None:
    lines = run_text(Path("examples/loops.py")).splitlines()
    assert lines[0:2] == ["tensor([[ 2.,  4.,  6.],", "        [ 8., 10., 12.]])"]
    assert lines[2:4] == ["tensor([[ 2.,  8., 18.],", "        [32., 50., 72.]])"]
