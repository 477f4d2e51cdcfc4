"""Float32 results that depend on the order (or the width) of PyTorch's arithmetic are its to
the bit: 2-norms over the last dimension (ATen's fast path: `ops.reduction._norm2_rows`),
cumsum (summed in double, each output rounded once), var and std (double, the root in double,
rounded once). Recorded with torch 2.13 (tests/ops/data/record_float32.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops.reduction import _norm_fwd, _var_fwd
from gradcli.ops.scan import _cumsum_fwd

CASES = json.loads((Path(__file__).parent / "data" / "float32_results.json").read_text())

OPS = {
    "norm": lambda x, dim: _norm_fwd(x, 2.0, dim),
    "cumsum": lambda x, dim: _cumsum_fwd(x, 0 if dim is None else dim % x.ndim),
    "std": lambda x, dim: _var_fwd(x, dim, 1, False, True),
    "var": lambda x, dim: _var_fwd(x, dim, 1, False),
}
# What the rule replaced (the data must fail it somewhere: the test of the tester).
NAIVE = {
    "norm": lambda x, dim: np.sqrt(np.sum(x * x, axis=dim, dtype=np.float32)),
    "cumsum": lambda x, dim: np.cumsum(x, axis=0 if dim is None else dim),
    "std": lambda x, dim: np.sqrt(np.var(x, axis=dim, ddof=1)),
    "var": lambda x, dim: np.var(x, axis=dim, ddof=1),
}


def _input(case: dict) -> np.ndarray:
    shape = case["shape"]
    return np.random.default_rng([*shape, case["seed"]]).standard_normal(shape).astype(
        np.float32
    ) * np.float32(3)


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c['op']}-{c['shape']}-{c['seed']}-{c['dim']}"
)
def test_pytorchs_to_the_bit(case: dict) -> None:
    if case["op"] in ("std", "var") and case["shape"] == [1]:
        pytest.skip("one element: nan (PyTorch warns)")
    got = OPS[case["op"]](_input(case), case["dim"])
    assert np.asarray(got).dtype == np.float32
    assert _bits(got) == case["bits"]


@pytest.mark.parametrize("op", sorted(OPS))
def test_the_recorded_results_tell_the_rules_apart(op: str) -> None:
    misses = 0
    for case in CASES:
        if case["op"] != op or case["shape"] == [1]:
            continue
        naive = NAIVE[op](_input(case), case["dim"])
        misses += sum(a != b for a, b in zip(_bits(naive), case["bits"]))
    assert misses > 3, f"the {op} data cannot tell the naive rule from PyTorch's"


def test_live_norms_against_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    for n in range(1, 300, 7):
        x = rng.standard_normal((3, n)).astype(np.float32)
        want = torch.linalg.vector_norm(torch.from_numpy(x), dim=-1).numpy()
        assert (_norm_fwd(x, 2.0, -1) == want).all(), n
        assert _norm_fwd(x[0], 2.0, None) == torch.linalg.vector_norm(torch.from_numpy(x[0]))
        assert (_cumsum_fwd(x, 1) == torch.cumsum(torch.from_numpy(x), 1).numpy()).all(), n
        if n > 1:
            std = torch.from_numpy(x).std(dim=1).numpy()
            assert (_var_fwd(x, 1, 1, False, True) == std).all(), n
