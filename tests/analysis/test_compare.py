"""The one comparison rule works on large matrices a block at a time: the verdict, the
largest differences, the worst entry and the missing count are those of the whole."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.analysis import compare as cmp
from gradcli.analysis import results


def _case(seed: int, lacking: bool) -> dict:
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(37, 23))
    b = a * (1 + 1e-7 * rng.normal(size=a.shape))
    for at in [(5, 7), (10, 20)]:  # the worst entries, tied: the first one is named
        a[at], b[at] = 1.0, 1.01
    a[30, 2], b[30, 2] = 1.0, 1.005  # bad, less so
    if lacking:
        a[2, 3] = np.nan  # one side lacks a value: the worst of all
    lo, hi = a - 0.02, a + 0.02
    kinks = np.zeros(a.shape, dtype=bool)
    kinks[5, 7] = True  # excused there: both inside the one-sided derivatives
    noise = np.full(a.shape, 1e-9)
    return dict(a=a, b=b, lo=lo, hi=hi, kinks=kinks, noise=noise)


def _run(c: dict, **kw) -> results.Comparison:
    return cmp.compare("x", c["a"], "y", c["b"], atol=1e-6, rtol=1e-5, **kw)


@pytest.mark.parametrize("block", [1, 5, 23, 24, 100])
@pytest.mark.parametrize("kinked", [False, True])
@pytest.mark.parametrize("lacking", [False, True])
def test_blocks_give_the_whole_matrix_answer(monkeypatch, block, kinked, lacking):
    c = _case(block, lacking)
    kw = dict(noise=c["noise"])
    if kinked:
        kw.update(kinks=c["kinks"], lo=c["lo"], hi=c["hi"])
    whole = _run(c, **kw)
    monkeypatch.setattr(cmp, "BLOCK", block)
    parts = _run(c, **kw)
    assert parts == whole
    assert whole.skipped == int(lacking) and not whole.ok
    assert whole.worst == ((2, 3) if lacking else (10, 20) if kinked else (5, 7))


def test_a_vector_and_a_scalar_keep_their_worst_entry(monkeypatch):
    monkeypatch.setattr(cmp, "BLOCK", 3)
    v = np.arange(10.0)
    w = v.copy()
    w[8] += 1
    got = cmp.compare("x", v, "y", w, atol=1e-6, rtol=1e-5)
    assert got.worst == (0, 8) and not got.ok and got.max_abs == 1.0
    s = cmp.compare("x", np.float64(2), "y", np.float64(2), atol=1e-6, rtol=1e-5)
    assert s.ok and s.worst == (0, 0)
    e = cmp.compare("x", np.zeros((3, 0)), "y", np.zeros((3, 0)), atol=1e-6, rtol=1e-5)
    assert e.ok and e.worst is None


def test_missing_values_allowed_by_column(monkeypatch):
    a = np.ones((4, 6))
    b = a.copy()
    b[:, 2] = np.nan
    allowed = np.zeros(6, dtype=bool)
    for block in (2, 1000):
        monkeypatch.setattr(cmp, "BLOCK", block)
        assert not cmp.compare("x", a, "y", b, atol=1e-6, rtol=1e-5).ok
        allowed[2] = True
        ok = cmp.compare("x", a, "y", b, atol=1e-6, rtol=1e-5, missing_ok=allowed)
        allowed[2] = False
        assert ok.ok and ok.skipped == 4


def test_scale_and_largest_in_blocks(monkeypatch):
    m = np.array([[1.0, -7.5, np.inf], [np.nan, 2.0, 3.0]])
    assert cmp.scale_of([m]) == 7.5
    monkeypatch.setattr(cmp, "BLOCK", 2)
    assert cmp.scale_of([m]) == 7.5


def test_small_scale_of_the_exact_methods() -> None:
    import numpy as np

    from gradcli.analysis.compare import SMALL_FLOOR, small_scale, tolerances

    def mats(engine: float, numeric: float) -> dict:
        return {"engine": np.array([[engine]]), "numeric": np.array([[numeric]])}

    assert small_scale(mats(0.5, 7.0)) == 0.5  # numeric's values are not the scale
    assert small_scale(mats(-3.0, 0.0)) == 1.0
    assert small_scale(mats(0.0, 1e-8)) == 1.0  # only zeros: nothing to be relative to
    assert small_scale(mats(1e-9, 0.0)) == SMALL_FLOOR
    assert small_scale({"engine": np.array([[np.nan, 2e-3]]), "sympy": np.array([[1e-4]])}) == 2e-3
    kw = {"atol": 1e-6, "rtol": 1e-5, "scale": 1.0, "low_precision": set()}
    assert tolerances("engine", "numeric", small=1e-3, **kw) == (1e-9, 1e-5)
    assert tolerances("engine", "sympy", small=1e-3, **kw) == (1e-10, 1e-8)  # exact: unchanged
