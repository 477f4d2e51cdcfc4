"""var / std of a float32 or float64 tensor reduced to one element take ATen's
`std_var_all_cpu` road: the tensor's own mean first (in its dtype: a float32 sum past 3.4e38
makes it inf, or NaN), then the squared deviations added in double. var_mean / std_mean take
Welford's road (double throughout). Both to the bit, against results recorded with torch 2.13
(tests/ops/data/record_var_all.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.ops.reduction import _mean_fwd, _var_fwd

CASES = json.loads((Path(__file__).parent / "data" / "var_all.json").read_text())


def _input(case: dict) -> np.ndarray:
    shape = case["shape"]
    x = np.random.default_rng([*shape, case["seed"]]).standard_normal(shape) * case["scale"]
    return x.astype(case["dtype"])


def _bits(a: np.ndarray, dtype: str) -> int:
    width = np.dtype(dtype).itemsize * 8
    return int(np.asarray(a, dtype=dtype).reshape(1).view(f"uint{width}")[0])


def _dims(x: np.ndarray):
    return None if x.ndim == 1 else tuple(range(x.ndim))


def _id(c: dict) -> str:
    kind = "std" if c["root"] else "var"
    return f"{kind}-{c['dtype']}-{c['shape']}-{c['scale']:g}-c{c['correction']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_one_element_var_and_std_are_pytorchs(case: dict) -> None:
    x = _input(case)
    got = _var_fwd(x, _dims(x), case["correction"], False, case["root"])
    assert got.dtype == x.dtype
    assert _bits(got, case["dtype"]) == case["bits"]


@pytest.mark.parametrize("case", [c for c in CASES if c["dtype"] == "float32"], ids=_id)
def test_var_mean_and_std_mean_take_welfords_road(case: dict) -> None:
    """(float32: Welford's double accumulation rounded once is the exact value rounded; a
    float64 result's last bits are Welford's order's, not reproduced: README, "Where gradcli
    differs".)"""
    x = _input(case)
    got = _var_fwd(x, _dims(x), case["correction"], False, case["root"], welford=True)
    assert _bits(got, case["dtype"]) == case["welford"]


@pytest.mark.parametrize("case", [c for c in CASES if c["dtype"] == "float32"], ids=_id)
def test_var_mean_and_std_mean_give_welfords_mean(case: dict) -> None:
    x = _input(case)
    got = _mean_fwd(x, _dims(x), False, welford=True)
    assert _bits(got, case["dtype"]) == case["welford_mean"]


def test_the_recorded_results_tell_the_roads_apart() -> None:
    """The data must fail the other road somewhere (the test of the tester): past float32's
    range the mean-first road gives inf or NaN where Welford's is finite."""
    apart = [c for c in CASES if c["bits"] != c["welford"]]
    assert len(apart) > 10
    assert any(c["dtype"] == "float32" and c["scale"] >= 1e36 for c in apart)
    x = _input(
        next(
            c
            for c in CASES
            if c["dtype"] == "float32" and c["scale"] == 3e37 and c["shape"] == [1000]
        )
    )
    assert not np.isfinite(_mean_fwd(x, _dims(x), False))  # the plain mean overflows


def test_the_mean_overflows_as_pytorchs_sum() -> None:
    x = np.full((8, 512), 1e37, dtype=np.float32)
    assert np.isinf(_var_fwd(x, None, 1, False, True))
    assert np.isfinite(_var_fwd(x, None, 1, False, True, welford=True))
    kept = _var_fwd(x[:1, :4], (0, 1), 1, True, True)
    assert kept.shape == (1, 1) and kept[0, 0] == 0
