"""A float64 row (or vector) times a row-major float64 matrix: MKL's column kernel, each output
the chain of fused multiply-adds over the inner index in order, from zero (gradcli/ops/linalg.py,
`_row64`). Recorded with torch 2.13 (tests/ops/data/record_row64.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import linalg as LA

CASES = json.loads((Path(__file__).parent / "data" / "row64.json").read_text())


def _draw(shape, seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape)


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.float64).tobytes()).hexdigest()[:24]


def _operands(rec):
    k, n, seed = rec["case"]
    return _draw((1, k), seed), _draw((k, n), seed + 1)


@pytest.mark.parametrize("rec", CASES, ids=lambda r: "x".join(map(str, r["case"][:2])))
def test_recorded(rec):
    x, b = _operands(rec)
    assert LA._row64(x, b) == (b.shape[1] >= 2)
    out = (Tensor(x) @ Tensor(b)).numpy()
    assert out.dtype == np.float64 and out.shape == (1, b.shape[1])
    if b.shape[1] >= 2:
        assert _sha(out) == rec["sha"]
        assert _sha((Tensor(x[0]) @ Tensor(b)).numpy()[None]) == rec["sha"]  # a vector too


def test_the_records_tell_the_orders_apart():
    # NumPy's order (what gradcli used) misses most records, as do lanes of the chain summed
    # apart; one element 1 ulp off changes a digest
    chained = [r for r in CASES if r["case"][1] >= 2 and r["case"][0] >= 8]
    numpy_missed = sum(_sha(np.matmul(*_operands(r))) != r["sha"] for r in chained)
    assert numpy_missed >= len(chained) - 2
    for rec in chained:
        x, b = _operands(rec)
        halves = LA._fma64_chain(x[:, ::2], b[::2]) + LA._fma64_chain(x[:, 1::2], b[1::2])
        assert _sha(halves) != rec["sha"]
        out = LA._fma64_chain(x, b)
        assert _sha(out) == rec["sha"]
        out[0, 0] = np.nextafter(out[0, 0], np.inf)
        assert _sha(out) != rec["sha"]


def test_other_layouts_keep_their_path():
    # x @ w.t() (a column-major second operand) is another kernel of MKL's: not this chain
    x, w = _draw((1, 50), 1), _draw((7, 50), 2)
    assert not LA._row64(x, w.T)
    assert not LA._row64(x.astype(np.float32), w.T.copy().astype(np.float32))
    assert not LA._row64(_draw((2, 50), 3), w.T.copy())  # two rows: the blocked kernels
    assert not LA._row64(x[:, ::2], _draw((25, 7), 4))  # a row whose elements are apart
    big = np.ones((LA._FMA64_MAX_K + 1, 2))
    assert not LA._row64(np.ones((1, LA._FMA64_MAX_K + 1)), big)  # past the bound: NumPy's


DOTS = json.loads((Path(__file__).parent / "data" / "dot64.json").read_text())


def _dot_product(m: int, k: int, kind: str, seed: int) -> np.ndarray:
    from gradcli.surface.composite import linear

    a, v, b = _draw((m, k), seed), _draw((k,), seed + 1), _draw((m,), seed + 2)
    if kind == "Av":
        return (Tensor(a) @ Tensor(v)).numpy()
    if kind == "Acol":
        return (Tensor(a) @ Tensor(v[:, None])).numpy()
    if kind == "xwt":
        return (Tensor(v[None]) @ Tensor(a).t()).numpy()
    if kind == "vwt":
        return (Tensor(v) @ Tensor(a).t()).numpy()
    if kind == "linear":
        return linear(Tensor(v[None]), Tensor(a), Tensor(b)).numpy()
    g = _draw((m,), seed + 3)
    vv = Tensor(v.copy(), requires_grad=True)
    (Tensor(a) @ vv).backward(Tensor(g))
    out = (Tensor(a).t() @ Tensor(g)).numpy()
    assert np.array_equal(out, vv.grad.numpy())  # the gradient of A @ v is this product
    return out


@pytest.mark.parametrize("rec", DOTS, ids=lambda r: "-".join(map(str, r["case"][:3])))
def test_dot_kernel_recorded(rec):
    out = _dot_product(*rec["case"])
    assert out.dtype == np.float64
    assert _sha(out) == rec["sha"]


def test_dot_kernel_order_is_what_the_records_test(monkeypatch: pytest.MonkeyPatch) -> None:
    # the accumulators paired otherwise (first and second), or one chain over k, miss the
    # records of 16 inner steps or more; one element 1 ulp off changes a digest
    from gradcli.core.fma64 import _fma64

    def paired_apart(a, v):
        m, k = a.shape
        acc = [np.zeros((m, 4)) for _ in range(4)]
        i = 0
        while k - i >= 16:
            for j in range(4):
                acc[j] = _fma64(
                    a[:, i + 4 * j : i + 4 * j + 4], v[None, i + 4 * j : i + 4 * j + 4], acc[j]
                )
            i += 16
        pair = [acc[0] + acc[1], acc[2] + acc[3]]
        turn = 0
        while i < k:
            e = min(i + 4, k)
            pair[turn][:, : e - i] = _fma64(a[:, i:e], v[None, i:e], pair[turn][:, : e - i])
            i, turn = e, 1 - turn
        s = [(p[:, :2] + p[:, 2:]) for p in pair]
        return (s[0][:, 0] + s[0][:, 1]) + (s[1][:, 0] + s[1][:, 1])

    def chain(a, v):
        return LA._fma64_chain(a, v[:, None])[:, 0]

    rows = [r for r in DOTS if r["case"][2] == "Av" and r["case"][1] >= 16]
    assert len(rows) >= 6
    for rule in (paired_apart, chain):
        monkeypatch.setattr(LA, "_dot_rows64", rule)
        missed = sum(_sha(_dot_product(*r["case"])) != r["sha"] for r in rows)
        assert missed >= len(rows) - 1, rule
    monkeypatch.undo()
    out = _dot_product(*rows[0]["case"])
    assert _sha(out) == rows[0]["sha"]
    out[3] = np.nextafter(out[3], -np.inf)
    assert _sha(out) != rows[0]["sha"]


def test_dot_kernel_layouts():
    a, v = _draw((4, 30), 1), _draw((30,), 2)
    assert LA._gemv64(a, v) is not None and LA._gemv64(a, v[:, None]) is not None
    assert LA._gemv64(a[:1], v[:, None]) is None  # one row times a column: mm's dot
    assert LA._gemv64(v[None], a.T) is not None  # x @ w.t()
    assert LA._gemv64(v[None], np.ascontiguousarray(a.T)) is None  # row-major: `_row64`
    assert LA._gemv64(np.asfortranarray(a), v) is None  # a transposed matrix: another kernel
    assert LA._gemv64(a.astype(np.float32), v.astype(np.float32)) is None


FEW = json.loads((Path(__file__).parent / "data" / "few64.json").read_text())


def _few_rows(m: int, k: int, n: int, kind: str, seed: int) -> np.ndarray:
    from gradcli.surface.composite import linear

    x, w = Tensor(_draw((m, k), seed)), Tensor(_draw((n, k), seed + 1))
    if kind == "mm":
        return (x @ w.t()).numpy()
    return linear(x, w, Tensor(_draw((n,), seed + 2))).numpy()


@pytest.mark.parametrize("rec", FEW, ids=lambda r: "-".join(map(str, r["case"][:4])))
def test_few_rows_recorded(rec):
    # x @ w.t() of 4 to 15 rows: dgemm's chain in blocks of 192 (F.linear's bias as beta)
    out = _few_rows(*rec["case"])
    assert _sha(out) == rec["sha"]


def test_few_rows_bound_and_order():
    m, k, n, _, seed = FEW[3]["case"]
    x, w = _draw((m, k), seed), _draw((n, k), seed + 1)
    assert LA._blocked64(x, w.T) and not LA._blocked64(x[:3], w.T)  # 3 rows: another kernel
    assert _sha(x @ w.T) != FEW[3]["sha"]  # NumPy's order misses the record
    missed = sum(
        _sha(
            np.matmul(
                _draw(r["case"][:2], r["case"][4]), _draw(r["case"][2:0:-1], r["case"][4] + 1).T
            )
        )
        != r["sha"]
        for r in FEW
        if r["case"][3] == "mm" and r["case"][1] >= 17
    )
    assert missed >= 4


def test_a_runs_emulated_float64_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past RUN_WORK64 emulated multiply-adds in one run, float64 products take NumPy's order
    (a PINN's float64 double backward ran into the time limit at 100x PyTorch's time), said
    once on stderr; a new run starts a new account; outside a run, always mirrored."""
    from typer.testing import CliRunner

    from gradcli.base import limits
    from gradcli.cli.main import app
    from gradcli.lang import runtime

    assert runtime.hooks.observer is limits.BUDGET  # the interpreter's budget watches the kernel
    m, k, n, _, seed = FEW[3]["case"]
    x, w = _draw((m, k), seed), _draw((n, k), seed + 1)
    assert LA._blocked64(x, w.T) and LA._blocked64(x, w.T)  # outside a run: no account
    monkeypatch.setattr(LA, "RUN_WORK64", 2 * m * n * k)
    with limits.BUDGET.run():
        assert LA._blocked64(x, w.T) and LA._blocked64(x, w.T)
        assert not LA._blocked64(x, w.T)  # the account is spent: NumPy's order
        y = np.ascontiguousarray(w.T)
        assert _sha(LA._matmul_fwd(x, y)) == _sha(x @ y)
    with limits.BUDGET.run():
        assert LA._blocked64(x, w.T)  # a new run, a new account
    program = (
        "torch.manual_seed(0)\nx = torch.randn(8, 40, dtype=torch.float64)\n"
        "w = torch.randn(40, 30, dtype=torch.float64)\n"
        "for i in range(6):\n    y = x @ w\nprint(y.shape)"
    )
    monkeypatch.setattr(LA, "RUN_WORK64", 3 * 8 * 40 * 30)
    r = CliRunner().invoke(app, ["run", "-e", program])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "torch.Size([8, 30])\n"
    assert r.stderr.count("warning: float64 matrix products past") == 1, r.stderr
    monkeypatch.setattr(LA, "RUN_WORK64", 6 * 8 * 40 * 30)
    quiet = CliRunner().invoke(app, ["run", "-e", program])
    assert quiet.exit_code == 0 and "float64 matrix products" not in quiet.stderr


def test_gradcheck_across_the_float64_budget_is_reentrant(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gradcheck runs each output's backward twice and compares the bits (PyTorch's reentrancy
    check): a budget that runs out between the two runs gave other last bits and a false
    "Backward is not reentrant" (gradcheck of pinv(a @ b.t()) on 30 x 30); both runs are then
    computed again in NumPy's order (explore125). A backward that does differ still fails."""
    from typer.testing import CliRunner

    from gradcli.cli.main import app

    program = (
        "torch.manual_seed(0)\n"
        "a = torch.rand(10, 1, dtype=torch.float64, requires_grad=True)\n"
        "b = torch.rand(10, 1, dtype=torch.float64, requires_grad=True)\n"
        "f = lambda a, b: torch.linalg.pinv(a @ b.t())\n"
        "print(torch.autograd.gradcheck(f, [a, b]))\n"
    )
    monkeypatch.setattr(LA, "RUN_WORK64", 300_000)  # runs out within the two runs
    r = CliRunner().invoke(app, ["run", "-e", program])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "True\n"
    assert "float64 matrix products past" in r.stderr  # the budget did run out
    flaky = (
        "import random\n"
        "class F(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n        return x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n        return g * (2 + random.random() * 1e-9)\n"
        "a = torch.rand(3, dtype=torch.float64, requires_grad=True)\n"
        "print(torch.autograd.gradcheck(F.apply, [a], raise_exception=False))\n"
    )
    r = CliRunner().invoke(app, ["run", "-e", program.replace("print(torch", "x = (torch") + flaky])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.endswith("False\n"), r.stdout
