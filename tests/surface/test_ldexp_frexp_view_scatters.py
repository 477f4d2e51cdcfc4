"""torch.ldexp / frexp, select_scatter / slice_scatter / diagonal_scatter, and the functions
PyTorch removed (solve, lstsq, matrix_rank, reinforce): values against NumPy written out
independently, gradients against central finite differences in float64 on random shapes and
parameters, PyTorch's node names and error words. (PyTorch's printed text: corpus 492.)"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def _run(text: str) -> dict:
    return parse("import torch\n" + text, "t.py").run(dtype="float64").tensors


def _fd(f, x: np.ndarray, g: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        out[i] = np.sum(g * (f(x + d) - f(x - d))) / (2 * eps)
    return out


def _lit(a: np.ndarray) -> str:
    return f"torch.tensor({a.tolist()}, dtype=torch.float64, requires_grad=True)"


@pytest.mark.parametrize("seed", range(8))
def test_ldexp_values_and_gradients(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = tuple(rng.integers(1, 4, rng.integers(1, 3)))
    x = rng.normal(size=shape)
    e = rng.uniform(-2, 2, size=shape[-1:])  # (broadcast over the leading dims)
    g = rng.normal(size=shape)
    t = _run(
        f"x = {_lit(x)}\ne = {_lit(e)}\ny = torch.ldexp(x, e)\n"
        f"y.backward(torch.tensor({g.tolist()}, dtype=torch.float64))\n"
        "n = y.grad_fn.name()\n"
    )
    np.testing.assert_allclose(t["y"].data, x * 2.0**e, rtol=1e-14)
    np.testing.assert_allclose(t["x"].grad.data, _fd(lambda a: a * 2.0**e, x, g), rtol=1e-6)
    np.testing.assert_allclose(t["e"].grad.data, _fd(lambda b: x * 2.0**b, e, g), rtol=1e-6)


def test_ldexp_of_integers_is_the_default_float_and_exact() -> None:
    run = parse(
        "import torch\ny = torch.ldexp(torch.tensor([1, -3, 5]), torch.tensor([2, 0, -1]))\n"
        "print(y.dtype, y)\nz = torch.tensor([1.5])\nz.ldexp_(torch.tensor([3]))\nprint(z)\n",
        "t.py",
    ).run(dtype="float32")
    assert "".join(run.output) == (
        "torch.float32 tensor([ 4.0000, -3.0000,  2.5000])\ntensor([12.])\n"
    )


@pytest.mark.parametrize("seed", range(6))
def test_frexp_rebuilds_its_input_and_differentiates(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # away from powers of two (where the mantissa jumps)
    x = rng.choice([-1, 1], 6) * 2.0 ** rng.integers(-5, 6, 6) * rng.uniform(1.05, 1.95, 6)
    g = rng.normal(size=6)
    t = _run(
        f"x = {_lit(x)}\nm, e = torch.frexp(x)\nr = m * 2.0 ** e\n"
        f"m.backward(torch.tensor({g.tolist()}, dtype=torch.float64))\n"
    )
    m, e = t["m"].data, t["e"].data
    assert e.dtype == np.int32
    assert np.all((np.abs(m) >= 0.5) & (np.abs(m) < 1))
    np.testing.assert_array_equal(t["r"].data, x)
    np.testing.assert_allclose(t["x"].grad.data, _fd(lambda a: np.frexp(a)[0], x, g), rtol=1e-6)


def _select_ref(x: np.ndarray, src: np.ndarray, dim: int, i: int) -> np.ndarray:
    out = x.copy()
    for pos in np.ndindex(src.shape):
        full = pos[:dim] + (i,) + pos[dim:]
        out[full] = src[pos]
    return out


def _slice_ref(x, src, dim, start, end, step):
    out = x.copy()
    picked = list(range(x.shape[dim]))[start:end:step]
    for pos in np.ndindex(src.shape):
        full = pos[:dim] + (picked[pos[dim]],) + pos[dim + 1 :]
        out[full] = src[pos]
    return out


def _diag_ref(x, src, offset, d1, d2):
    out = x.copy()
    others = [i for i in range(x.ndim) if i not in (d1, d2)]
    for pos in np.ndindex(src.shape):
        k = pos[-1]
        full = [0] * x.ndim
        for o, p in zip(others, pos[:-1], strict=True):
            full[o] = p
        full[d1] = k + max(0, -offset)
        full[d2] = k + max(0, offset)
        out[tuple(full)] = src[pos]
    return out


@pytest.mark.parametrize("seed", range(12))
def test_the_view_scatters_values_and_gradients(seed: int) -> None:
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(2, 4))
    shape = tuple(int(n) for n in rng.integers(2, 5, ndim))
    x = rng.normal(size=shape)
    kind = ("select", "slice", "diagonal")[seed % 3]
    if kind == "select":
        dim = int(rng.integers(0, ndim))
        i = int(rng.integers(-shape[dim], shape[dim]))
        slot = shape[:dim] + shape[dim + 1 :]
        call = f"torch.select_scatter(x, s, {dim}, {i})"
        ref = lambda a, b: _select_ref(a, b, dim, i % shape[dim])  # noqa: E731
    elif kind == "slice":
        dim = int(rng.integers(0, ndim))
        start, step = int(rng.integers(0, shape[dim])), int(rng.integers(1, 3))
        n = len(range(start, shape[dim], step))
        slot = shape[:dim] + (n,) + shape[dim + 1 :]
        call = f"torch.slice_scatter(x, s, dim={dim}, start={start}, step={step})"
        ref = lambda a, b: _slice_ref(a, b, dim, start, None, step)  # noqa: E731
    else:
        d1, d2 = (int(v) for v in rng.choice(ndim, 2, replace=False))
        offset = int(rng.integers(-1, 2))
        n1, n2 = shape[d1], shape[d2]
        n = max(0, min(n1, n2 - offset)) if offset >= 0 else max(0, min(n1 + offset, n2))
        slot = tuple(shape[i] for i in range(ndim) if i not in (d1, d2)) + (n,)
        call = f"torch.diagonal_scatter(x, s, {offset}, {d1}, {d2})"
        ref = lambda a, b: _diag_ref(a, b, offset, d1, d2)  # noqa: E731
    src = rng.normal(size=slot)
    g = rng.normal(size=shape)
    t = _run(
        f"x = {_lit(x)}\ns = {_lit(src)}\ny = {call}\n"
        f"y.backward(torch.tensor({g.tolist()}, dtype=torch.float64))\n"
    )
    np.testing.assert_array_equal(t["y"].data, ref(x, src))
    np.testing.assert_allclose(t["x"].grad.data, _fd(lambda a: ref(a, src), x, g), atol=1e-8)
    np.testing.assert_allclose(t["s"].grad.data, _fd(lambda b: ref(x, b), src, g), atol=1e-8)
    assert t["y"].node.name() == f"{kind.capitalize()}ScatterBackward0"


@pytest.mark.parametrize(
    "line, words",
    [
        ("torch.select_scatter(torch.zeros(3, 4), torch.ones(3), 0, 1)", "src size = [3]"),
        ("torch.select_scatter(torch.zeros(3, 4), torch.ones(4), 0, 5)", "index 5 out of range"),
        ("torch.slice_scatter(torch.zeros(3, 4), torch.ones(2, 4))", "slice size = [3, 4]"),
        ("torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(2))", "slice size = [3]"),
        ("torch.frexp(torch.tensor([1, 2]))", "only supports floating-point dtypes"),
        ("torch.solve(torch.ones(2, 1), torch.eye(2))", "torch.linalg.solve(A, B)"),
        ("torch.eye(2).lstsq(torch.ones(2, 1))", "torch.linalg.lstsq"),
        ("torch.matrix_rank(torch.eye(2))", "torch.linalg.matrix_rank"),
        ("torch.ones(2).reinforce(1)", "reinforce() was removed"),
    ],
)
def test_pytorchs_errors(line: str, words: str) -> None:
    program = parse(f"import torch\ntry:\n    {line}\nexcept Exception as e:\n    print(e)\n", "t")
    assert words in "".join(program.run().output)


def test_volatile_is_false_with_pytorchs_warning_and_newaxis_is_none() -> None:
    run = parse(
        "import torch\nx = torch.ones(3)\nprint(x.volatile, torch.newaxis is None)\n"
        "print(x[:, torch.newaxis].shape)\n",
        "t.py",
    ).run()
    assert "".join(run.output) == "False True\ntorch.Size([3, 1])\n"
    assert any("volatile was removed" in w for w in run.warnings)


def test_a_huge_index_is_refused_in_words() -> None:
    with pytest.raises(GradcliError, match="out of range"):
        parse(
            "import torch\ntorch.select_scatter(torch.zeros(3), torch.ones(()), 0, 10**30)", "t"
        ).run()
