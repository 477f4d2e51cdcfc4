"""gradcli's optim.LBFGS against PyTorch 2.13: recorded trajectories compared bit for bit.

The cases (data/lbfgs/record.py) hand both implementations the same losses and gradients
(NumPy scalar arithmetic on the parameters' current values): the Rosenbrock function, coupled
quadratics of 9, 40 and 70 parameters, nn.Linear's least squares; float32 and float64; the
fixed step and strong_wolfe; small histories, max_iter and max_eval, the tolerance stops.
Also MKL's dot order (kernels.dot), LBFGS's state, state_dict and errors.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Tensor
from gradcli.surface import kernels as K
from gradcli.surface import optim
from gradcli.surface.nn import Parameter

DATA = Path(__file__).resolve().parent / "data" / "lbfgs"


def _load_record() -> Any:
    spec = importlib.util.spec_from_file_location("_lbfgs_record", DATA / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load_record()
EXPECTED = np.load(DATA / "expected.npz")


def run_ours(case: str) -> dict[str, np.ndarray]:
    params = [Parameter(v.copy()) for v in REC.initial(case)]
    opt = optim.LBFGS(params, **REC.CASES[case]["kw"])
    calls = [0]

    def closure() -> Any:
        calls[0] += 1
        opt.zero_grad()
        loss, grads = REC.evaluate(case, [p.data.copy() for p in params])
        for p, g in zip(params, grads):
            p.grad = Tensor(g.copy())
        return Tensor(np.asarray(loss))

    out: dict[str, list[Any]] = {"loss": [], "func_evals": [], "n_iter": [], "calls": []}
    for i in range(len(params)):
        out[f"p{i}"] = []
    for _ in range(REC.STEPS):
        loss = opt.step(closure)
        out["loss"].append(float(loss.data))
        state = opt.state[params[0]]
        out["func_evals"].append(state["func_evals"])
        out["n_iter"].append(state["n_iter"])
        out["calls"].append(calls[0])
        for i, p in enumerate(params):
            out[f"p{i}"].append(p.data.copy())
    return {k: np.array(v) for k, v in out.items()}


@pytest.mark.parametrize("case", list(REC.CASES))
def test_trajectory_bit_for_bit(case: str) -> None:
    ours = run_ours(case)
    for key, value in ours.items():
        expected = EXPECTED[f"{case}/{key}"]
        assert value.dtype == expected.dtype or key in ("func_evals", "n_iter", "calls"), key
        assert (
            np.array_equal(value.view(np.uint8), expected.view(np.uint8))
            if (value.dtype.kind == "f")
            else np.array_equal(value, expected)
        ), f"{case}: {key}\n{value}\n{expected}"


def test_cases_move_and_stop_differently() -> None:
    """The options change the trajectories (a case that ignored its option would match the
    default's recording and prove nothing)."""
    for dt in ("float32", "float64"):
        base = EXPECTED[f"rosen2_{dt}/p0"]
        assert not np.array_equal(EXPECTED[f"rosen2_{dt}_history2/p0"], base)
        assert EXPECTED[f"rosen2_{dt}_tolerance_grad/n_iter"][-1] < 40
        # max_iter=3 leaves max_eval at 3 * 5 // 4 = 3 calls: two iterations a step
        assert list(EXPECTED[f"quad40_{dt}_max_iter/func_evals"]) == [3, 6]
        assert list(EXPECTED[f"quad40_{dt}_max_iter/n_iter"]) == [2, 4]
        assert EXPECTED[f"rosen6_{dt}_max_eval/func_evals"][0] == 7


# --- MKL's dot ---------------------------------------------------------------------------------


def _dot_reference(a: np.ndarray, b: np.ndarray) -> Any:
    """The order of kernels.dot written out as a chain per lane (a second reading of it)."""
    dt = a.dtype
    lanes = 16 if dt == np.float32 else 8
    acc = [dt.type(0)] * (4 * lanes)
    n, i = a.size, 0
    pieces = []
    while n - i >= 4 * lanes:
        pieces.append((i, 4 * lanes))
        i += 4 * lanes
    for size in (2 * lanes, lanes):
        if n - i >= size:
            pieces.append((i, size))
            i += size
    if i < n:
        pieces.append((i, n - i))
    for lo, size in pieces:
        for k in range(size):
            acc[k] = K.fma(a[lo + k], b[lo + k], acc[k], dt)[()]
    regs = [np.array(acc[r * lanes : (r + 1) * lanes], dt) for r in range(4)]
    v = (regs[0] + regs[1]) + (regs[2] + regs[3])
    while v.size > (4 if dt == np.float32 else 1):
        v = v[: v.size // 2] + v[v.size // 2 :]
    return (v[0] + v[1]) + (v[2] + v[3]) if dt == np.float32 else v[0]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_dot_order(dt: Any) -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 9, 16, 17, 33, 40, 64, 70, 100, 129):
        a = rng.standard_normal(n).astype(dt)
        b = (rng.standard_normal(n) * np.exp(3 * rng.standard_normal(n))).astype(dt)
        got = K.dot(a, b)
        assert got.dtype == dt and got.shape == ()
        assert got == _dot_reference(a, b), n


def test_dot_is_not_numpys_order() -> None:
    """Cancelling products show the tree: with +-2**60 at 0 and 8 (float64), lanes 0 meet
    first, so the ones added after them survive; NumPy's left-to-right loses them."""
    a = np.ones(12)
    b = np.ones(12)
    b[0], b[8] = 2.0**60, -(2.0**60)
    assert K.dot(a, b) == 10.0  # 1..7, 9..11 all added after p0 + p8 cancel
    a32, b32 = np.ones(20, np.float32), np.ones(20, np.float32)
    b32[0], b32[16] = 2.0**30, -(2.0**30)
    assert K.dot(a32, b32) == 18.0


# --- the optimizer's surface -------------------------------------------------------------------


def _rosen(x: Tensor, opt: Any) -> Any:
    def closure() -> Any:
        opt.zero_grad()
        loss, (g,) = REC.evaluate("rosen2_float64", [x.data.copy()])
        x.grad = Tensor(g)
        return Tensor(np.asarray(loss))

    return closure


def test_state_and_state_dict() -> None:
    x = Parameter(np.array([-1.2, 1.0]))
    opt = optim.LBFGS([x], history_size=3)
    opt.step(_rosen(x, opt))
    state = opt.state[x]
    assert list(state) == [
        "func_evals",
        "n_iter",
        "al",
        "d",
        "t",
        "old_dirs",
        "old_stps",
        "ro",
        "H_diag",
        "prev_flat_grad",
        "prev_loss",
    ]
    assert len(state["al"]) == 3 and len(state["old_dirs"]) <= 3
    saved = opt.state_dict()
    assert saved["param_groups"][0]["max_eval"] == 25 and saved["param_groups"][0]["params"] == [0]
    # a fresh optimizer that loads the state continues as the first one would
    y = Parameter(x.data.copy())
    other = optim.LBFGS([y], history_size=3)
    other.load_state_dict(saved)
    # PyTorch's load_state_dict keeps tensors of the parameter's dtype as they are (`.to()`
    # makes no copy): the two optimizers share them, and the lists are new
    assert other.state[y]["prev_flat_grad"] is opt.state[x]["prev_flat_grad"]
    assert other.state[y]["old_dirs"] is not opt.state[x]["old_dirs"]
    z = Parameter(np.array([-1.2, 1.0]))
    ref = optim.LBFGS([z], history_size=3)
    ref.step(_rosen(z, ref))
    ref.step(_rosen(z, ref))
    other.step(_rosen(y, other))
    assert np.array_equal(z.data, y.data)
    assert other.state[y]["func_evals"] == ref.state[z]["func_evals"]
    # the state's own history lists, updated in place, as PyTorch's
    kept = other.state[y]["old_dirs"]
    other.step(_rosen(y, other))
    assert other.state[y]["old_dirs"] is kept


def test_errors_in_pytorchs_words() -> None:
    w, b = Parameter(np.zeros(2)), Parameter(np.zeros(1))
    with pytest.raises(GradcliError, match="doesn't support per-parameter options") as e:
        optim.LBFGS([{"params": [w]}, {"params": [b]}])
    assert e.value.python_class == "ValueError"
    with pytest.raises(GradcliError, match="Invalid learning rate: -1"):
        optim.LBFGS([w], lr=-1)
    opt = optim.LBFGS([w])
    with pytest.raises(GradcliError, match="missing 1 required positional argument: 'closure'"):
        opt.step()
    with pytest.raises(GradcliError, match="'NoneType' object is not callable"):
        opt.step(None)
    with pytest.raises(GradcliError, match="float\\(\\) argument must be a string or a real"):
        opt.step(lambda: None)
    with pytest.raises(GradcliError, match="only 'strong_wolfe' is supported"):
        bad = optim.LBFGS([w], line_search_fn="armijo")
        w.grad = Tensor(np.ones(2))
        bad.step(lambda: Tensor(np.array(1.0)))
    with pytest.raises(GradcliError, match="history_size"):
        optim.LBFGS([w], history_size=10**9).step(lambda: Tensor(np.array(1.0)))


def test_converged_start_returns_at_once() -> None:
    """A gradient within tolerance_grad: one call of the closure, no state beyond the counts."""
    w = Parameter(np.array([1.0, 1.0]))
    opt = optim.LBFGS([w])
    calls = []

    def closure() -> Any:
        calls.append(1)
        w.grad = Tensor(np.zeros(2))
        return Tensor(np.array(0.5))

    loss = opt.step(closure)
    assert float(loss.data) == 0.5 and len(calls) == 1
    assert dict(opt.state[w]) == {"func_evals": 1, "n_iter": 0}
