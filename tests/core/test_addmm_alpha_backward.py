"""addmm, addmv and baddbmm with alpha != 1: each operand's gradient is its product scaled by
alpha after the product (PyTorch's rules for mat1 / mat2: the product of the gradient and the
other operand, then times alpha; under create_graph that last step is a MulBackward1 node).
Scaling the gradient first gives other float32 last bits in about a third of the elements.
The bits below are PyTorch 2.13's; float64 values are checked against central differences;
forward mode's tangent is each product scaled, then added."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the bits were recorded on an AVX2 processor: MKL's product order there, `gemm_avx2`)
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")


X = [[0.3125, -1.7, 0.41], [2.3, 0.77, -0.9], [-1.1, 0.05, 1.9]]
W = [[1.3, -0.2, 0.6, 0.11], [-0.7, 2.1, 0.35, -1.4], [0.9, 0.45, -1.25, 0.8]]
G = [[0.71, -1.3, 0.27, 2.2], [1.9, 0.33, -0.6, 0.15], [-0.45, 1.1, 0.8, -2.7]]

# PyTorch 2.13: g @ w.t(); then x.grad and w.grad of
# torch.addmm(m, x, w, alpha=0.37, beta=0.5).backward(g)
TORCH_PRODUCT = [
    "0x1.9645ap+0", "-0x1.8d9998p+2", "0x1.79fbe8p+0",
    "0x1.07be74p+1", "-0x1.0e978cp+0", "0x1.5d3f7cp+1",
    "-0x1.3e76c8p-1", "0x1.abd70ap+2", "-0x1.88f5c4p+1",
]  # fmt: skip
TORCH_XGRAD = [
    "0x1.2ca42ap-1", "-0x1.263958p+1", "0x1.17b54ap-1",
    "0x1.86575p-1", "-0x1.9079e4p-2", "0x1.02718ap+0",
    "-0x1.d753a4p-3", "0x1.3c9a02p+1", "-0x1.22ca58p+0",
]  # fmt: skip
TORCH_WGRAD = [
    "0x1.e1d42cp+0", "-0x1.44cb7ep-2", "-0x1.9c2682p-1", "0x1.7b1de8p+0",
    "0x1.61dfb2p-4", "0x1.dd37e6p-1", "-0x1.4dcb14p-2", "-0x1.641992p+0",
    "-0x1.aec48p-1", "0x1.dd6388p-2", "0x1.9b37aap-1", "-0x1.9d436cp+0",
]  # fmt: skip


def _program(dtype: str, extra: str = "") -> str:
    return f"""import torch
x = torch.tensor({X}, dtype=torch.{dtype}, requires_grad=True)
w = torch.tensor({W}, dtype=torch.{dtype}, requires_grad=True)
m = torch.tensor([[0.1, 0.2, 0.3, 0.4]] * 3, dtype=torch.{dtype})
g = torch.tensor({G}, dtype=torch.{dtype})
y = torch.addmm(m, x, w, alpha=0.37, beta=0.5)
{extra}"""


def _bits(a: np.ndarray) -> list[str]:
    return [float(v).hex() for v in a.astype(np.float32).ravel()]


def test_float32_gradients_are_pytorchs_bits() -> None:
    run = parse(_program("float32", "y.backward(g)\n"), "t.py").run(dtype="float32")
    expect_x = [float.fromhex(h).hex() for h in TORCH_XGRAD]
    expect_w = [float.fromhex(h).hex() for h in TORCH_WGRAD]
    assert _bits(run.env["x"].grad.data) == expect_x
    assert _bits(run.env["w"].grad.data) == expect_w


def test_the_scale_first_rule_gives_other_bits() -> None:
    # PyTorch's x.grad is its product's bits times alpha; the rule this replaced, (g * alpha)
    # @ w^T, gives other bits in 3 of the 9 elements here
    f = np.float32
    product = np.array([float.fromhex(h) for h in TORCH_PRODUCT], f)
    assert _bits(product * f(0.37)) == [float.fromhex(h).hex() for h in TORCH_XGRAD]
    run = parse(_program("float32", "s = (g * 0.37) @ w.detach().t()\n"), "t.py").run(
        dtype="float32"
    )
    first = _bits(run.env["s"].data)
    assert sum(a != float.fromhex(b).hex() for a, b in zip(first, TORCH_XGRAD)) == 3


def test_float64_gradients_match_central_differences() -> None:
    run = parse(_program("float64", "y.backward(g)\n"), "t.py").run(dtype="float64")
    x0, w0, g0 = np.array(X), np.array(W), np.array(G)
    m0 = np.full((3, 4), 0.0) + np.array([0.1, 0.2, 0.3, 0.4])

    def loss(x: np.ndarray, w: np.ndarray) -> float:
        return float(((0.5 * m0 + 0.37 * (x @ w)) * g0).sum())

    eps = 1e-6
    for name, a0, got in (("x", x0, run.env["x"].grad.data), ("w", w0, run.env["w"].grad.data)):
        fd = np.zeros_like(a0)
        for i in np.ndindex(a0.shape):
            e = np.zeros_like(a0)
            e[i] = eps
            args = (a0 + e, w0) if name == "x" else (x0, a0 + e)
            args_m = (a0 - e, w0) if name == "x" else (x0, a0 - e)
            fd[i] = (loss(*args) - loss(*args_m)) / (2 * eps)
        np.testing.assert_allclose(got, fd, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("fn", ["addmv", "baddbmm"])
def test_create_graph_names_the_scaling_mulbackward1(fn: str) -> None:
    call = {
        "addmv": "torch.addmv(torch.zeros(3), x, w[:, 0], alpha=1.7)",
        "baddbmm": "torch.baddbmm(torch.zeros(1, 3, 4), x, w[None], alpha=-0.3)",
    }[fn]
    prelude = "x = x.detach()[None].requires_grad_()\n" if fn == "baddbmm" else ""
    text = _program(
        "float32",
        f"{prelude}z = {call}\ngx, = torch.autograd.grad(z.sum(), x, create_graph=True)\n",
    )
    run = parse(text, "t.py").run(dtype="float32")
    assert run.env["gx"].node.name() == "MulBackward1"


def test_forward_mode_scales_each_product() -> None:
    extra = """import torch.autograd.forward_ad as fwAD
tx = torch.tensor([[0.5, -0.25, 1.5], [0.7, 0.1, -0.3], [1.2, -0.8, 0.45]])
tw = torch.tensor([[0.3, 0.6, -0.9, 0.2], [1.1, -0.4, 0.5, 0.75], [-0.6, 0.2, 0.3, 1.4]])
with fwAD.dual_level():
    o = torch.addmm(m, fwAD.make_dual(x.detach(), tx), fwAD.make_dual(w.detach(), tw), alpha=0.37)
    t = fwAD.unpack_dual(o).tangent
e = (tx @ w.detach()) * 0.37 + (x.detach() @ tw) * 0.37
s = ((tx @ w.detach()) + (x.detach() @ tw)) * 0.37
"""
    run = parse(_program("float32", extra), "t.py").run(dtype="float32")
    # (PyTorch's tangent is e's bits, measured; the sum scaled once, s, is not)
    assert np.array_equal(run.env["t"].data, run.env["e"].data)
    assert not np.array_equal(run.env["t"].data, run.env["s"].data)


@pytest.mark.parametrize(
    "call",
    [
        "torch.addmm(m, x, w, alpha=0.37, beta=0.5)",
        "torch.addmv(m[0, :3], x, w[:, 0], alpha=2)",
        "torch.baddbmm(m[None], x[None], w[None], alpha=-1.5)",
    ],
)
def test_the_product_is_computed_once(call: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # (the record's value is the product times alpha; it was computed once more for the value
    # and overwritten)
    from gradcli.ops import linalg

    calls = []
    real = linalg._matmul_record

    def counted(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        calls.append(a.shape)
        return real(a, b)

    monkeypatch.setattr(linalg, "_matmul_record", counted)
    text = _program("float32").replace("y = torch.addmm(m, x, w, alpha=0.37, beta=0.5)\n", "")
    parse(text + f"z = {call}\n", "t.py").run(dtype="float32")
    assert len(calls) == 1


# PyTorch 2.13 (AMD Zen 4, MKL's AVX2 code): torch.addmm(m, x, w, alpha=0.37, beta=0.5) in
# float32, as MKL computes it: beta * m first, alpha folded into an operand (not the two steps
# m * 0.5 + (x @ w) * 0.37, which differ in 6 of these 12 elements)
TORCH_ADDMM = [
    "0x1.8de59ep-1", "-0x1.2cfe9cp+0", "-0x1.85f06ep-3", "0x1.36f53p+0",
    "0x1.507894p-1", "0x1.835154p-2", "0x1.2d335ep+0", "-0x1.7c91d2p-2",
    "0x1.200d18p-3", "0x1.12bd3cp-1", "-0x1.eed5dp-1", "0x1.622a7p-1",
]  # fmt: skip


def test_values_are_mkls_steps() -> None:
    extra = """z = torch.addmm(m, x, w, alpha=0.37, beta=0.5)
v = torch.addmv(m[0, :3], x, w[:, 0], alpha=2.3)
f = m[0, :3] + (x @ w[:, 0]) * 2.3
"""
    run = parse(_program("float32", extra), "t.py").run(dtype="float32")
    assert _bits(run.env["z"].data) == [float.fromhex(h).hex() for h in TORCH_ADDMM]
    assert np.array_equal(run.env["v"].data, run.env["f"].data)
