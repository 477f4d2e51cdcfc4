"""Float32 2-norms over the last (contiguous) dimension are PyTorch's to the bit: ATen's fast
path adds the squares in its own order (`ops.reduction._norm2_rows`), which differs from a
plain sum in the last bit of many norms. Recorded with torch 2.13 (tests/ops/data/record_norm.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops.reduction import _norm_fwd

CASES = json.loads((Path(__file__).parent / "data" / "norm_float32.json").read_text())


def _input(case: dict) -> np.ndarray:
    shape = case["shape"]
    x = np.random.default_rng([*shape, case["seed"]]).standard_normal(shape).astype(np.float32)
    return x * 3 if case["dim"] is None else x


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['shape']}-{c['seed']}-{c['dim']}")
def test_norm_is_pytorchs_to_the_bit(case: dict) -> None:
    x = _input(case)
    got = _norm_fwd(x, 2.0, case["dim"])
    assert got.dtype == np.float32
    assert [int(b) for b in np.asarray(got).reshape(-1).view(np.uint32)] == case["bits"]


def test_the_recorded_norms_tell_the_orders_apart() -> None:
    """A plain float32 sum of squares (or a double one) misses some of the recorded norms:
    the data can fail a rule that is off."""
    plain = double = 0
    for case in CASES:
        x = _input(case)
        want = np.array(case["bits"], dtype=np.uint32).view(np.float32)
        ax = None if case["dim"] is None else -1
        p = np.sqrt(np.sum(x * x, axis=ax, dtype=np.float32)).reshape(-1)
        d = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=ax)).astype(np.float32).reshape(-1)
        plain += int(np.sum(p != want))
        double += int(np.sum(d != want))
    assert plain > 5 and double > 5


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    for n in range(1, 300, 7):
        x = rng.standard_normal((3, n)).astype(np.float32)
        want = torch.linalg.vector_norm(torch.from_numpy(x), dim=-1).numpy()
        assert (_norm_fwd(x, 2.0, -1) == want).all(), n
        whole = torch.linalg.vector_norm(torch.from_numpy(x[0])).numpy()
        assert _norm_fwd(x[0], 2.0, None) == whole, n
