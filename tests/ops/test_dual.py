"""Forward-mode AD as ops run (`core.dual`, PyTorch's `torch.autograd.forward_ad`): for every
op of the registry and each of its samples, the tangent a dual input gives the output is
checked against central finite differences of the op's forward along the tangent (float64);
computed attached (inputs requiring grad) it has the same values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gradcli.core import dual
from gradcli.core.op import apply
from gradcli.core.tensor import Tensor, no_grad
from tests.helpers import gradcheck as gc
from tests.ops.test_ops import CASES, _case, _seed


def _directions(op: Any, s: Any, arrays: list, positions: list, seed: int) -> list:
    v = [gc.random_like(arrays[i].shape, seed + 7 + i) for i in positions]
    # a Cholesky factor moves in its triangle (the rest is not read by the value; PyTorch's
    # rule differentiates it anyway, as its gradient does: tests/ops BEYOND_DERIVATIVE)
    one_side = {"lower": np.tril, "upper": np.triu}
    return [
        gc._sym(vi)
        if s.structure.get(i) in gc.SYMMETRIC
        else one_side[s.structure[i]](vi)
        if s.structure.get(i) in one_side
        else vi
        for i, vi in zip(positions, v, strict=True)
    ]


def _dual_tangent(op: Any, s: Any, arrays: list, positions: list, v: list, grad: bool) -> Any:
    ts = [Tensor(a.copy(), requires_grad=grad and i in positions) for i, a in enumerate(arrays)]
    dual.enter()
    try:
        for i, vi in zip(positions, v, strict=True):
            dual.set_tangent(ts[i], Tensor(vi))
        out = apply(op, *ts, **s.params)
        d = dual.tangent(out)
        return out, d
    finally:
        dual.leave()


# Records PyTorch has no forward mode for: a tangent through them fails in PyTorch's words.
# forward-mode rules of PyTorch's that are not the derivative, mirrored as they are (the
# corpus checks the values against PyTorch's: 829)
NOT_THE_DERIVATIVE = {
    "cholesky_inverse": "PyTorch 2.13's cholesky_inverse_jvp is not the derivative "
    "(pytorch#196682); gradcli gives its values",
    "triangular_solve": "PyTorch 2.13's triangular_solve_jvp reads A's tangent as given, the "
    "triangle the solve ignores too (pytorch#196707); gradcli gives its values",
}

NO_FORWARD_MODE = {
    "zeta",
    "igamma",
    "igammac",
    "grid_sample",
    "grid_sample_input_grad",
    "grid_sample_grid_grad",
    "ctc_loss",
    "segment_reduce",
    "cdist",
    "pdist",
}


def test_no_forward_mode_fails_in_pytorchs_words() -> None:
    from gradcli.base.errors import GradcliError
    from gradcli.ops import REGISTRY

    for name in NO_FORWARD_MODE:
        op = REGISTRY[name]
        s = op.samples[0]
        arrays = gc.make_inputs(s, 0)
        lvl = dual.enter()
        try:
            ins = [Tensor(a) for a in arrays]
            dual.set_tangent(ins[-1], Tensor(np.ones_like(arrays[-1])))
            words = f"Trying to use forward AD with {dual.NO_FORWARD_AD[name]} "
            with pytest.raises(GradcliError, match=words):
                apply(op, *ins, **s.params)
        finally:
            dual.leave(lvl)


@pytest.mark.parametrize("name, i", CASES)
def test_dual_tangent_matches_finite_differences(name: str, i: int) -> None:
    if name in NO_FORWARD_MODE:
        pytest.skip("PyTorch has no forward mode for it")
    if name in NOT_THE_DERIVATIVE:
        pytest.skip(NOT_THE_DERIVATIVE[name])
    op, s = _case(name, i)
    seed = _seed(name, i)
    arrays = gc.make_inputs(s, seed)
    positions = gc.diff_positions(op, s, arrays)
    if not positions:
        pytest.skip("no differentiable input")
    v = _directions(op, s, arrays, positions, seed)
    with no_grad():
        out, d = _dual_tangent(op, s, arrays, positions, v, grad=False)
    if out.dtype.kind != "f":
        assert d is None
        return
    # A lower-precision result (astype to float32) is differenced with a larger step.
    low = np.finfo(out.dtype).eps > np.finfo(np.float64).eps
    h, tol = (0.05, 1e-4) if low else (gc.STEP, 1e-5)

    def at(t: float) -> np.ndarray:
        xs = [a.copy() for a in arrays]
        for j, vj in zip(positions, v, strict=True):
            xs[j] = xs[j] + t * vj
        xs = gc.symmetrized(s, xs)
        with np.errstate(all="ignore"):
            return np.asarray(op.forward(*xs, **s.params), dtype=np.float64)

    want = (at(h) - at(-h)) / (2 * h)
    assert d is not None and d.shape == out.shape
    err = gc.rel_error(d.data, want)
    assert err <= tol, (d.data, want)
    # Attached (the inputs require grad): the same tangent, recorded in the graph.
    out2, d2 = _dual_tangent(op, s, arrays, positions, v, grad=True)
    assert gc.rel_error(d2.data, d.data) <= 1e-12


def test_a_jvp_rule_off_by_a_tenth_of_a_percent_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.core import op as core_op

    exp = core_op.REGISTRY["exp"]
    wrong = exp.replace(vjp=lambda g, out, x: (g * out * 1.001,))
    monkeypatch.setitem(core_op.REGISTRY, "exp", wrong)
    s = wrong.samples[1]
    arrays = gc.make_inputs(s, 0)
    v = [gc.random_like(arrays[0].shape, 3)]
    with no_grad():
        _, d = _dual_tangent(wrong, s, arrays, [0], v, grad=False)
    want = np.exp(arrays[0]) * v[0]
    assert gc.rel_error(d.data, want) > 1e-5
