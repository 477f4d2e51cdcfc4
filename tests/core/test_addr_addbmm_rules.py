"""addr and addbmm as PyTorch computes them (derivatives.yaml): the vectors' gradients of addr
are products (g.mv(vec2), g^T.mv(vec1)) then times alpha, addbmm's batches' one bmm of the
gradient expanded over the batch then times alpha; the input's is g times beta (zeros for beta
0, never None). addr's value is ATen's kernel compiled with contraction: fma(alpha * u, v,
beta * input) on the whole vector steps of a row, fma(beta, input, alpha * u * v) on its tail.
Before, the gradients were the sums of an elementwise product's and a chain of matrix products'
rules, scaled before (other float32 bits in most elements), and the value was unfused.

The bits are PyTorch 2.13's, recorded on the AVX2 processor (`GRADCLI_KERNELS=avx2`); float64
gradients are checked against central differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse


@pytest.fixture(autouse=True)
def _avx2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")


ADDR_Y = [
    "-0x1.d47afap-4", "0x1.63fb5p+0", "0x1.b8003cp-2", "0x1.02447p-1", "-0x1.5276d2p-2",
    "0x1.e1f28ap-1", "-0x1.40f5d2p-3", "-0x1.0ee96ep+0", "-0x1.9cda8p-5", "-0x1.13ec42p-2",
    "-0x1.6aee4ep-2", "-0x1.60147ep-7", "0x1.fd5d72p-2", "-0x1.844246p-2", "-0x1.e72038p-5",
    "0x1.7f8ec2p-3", "-0x1.772fe6p-4", "0x1.2bfd46p-6", "-0x1.a0457ap-5", "0x1.2dc15p-1",
    "0x1.a6187ap-5", "0x1.db78a4p-4", "0x1.a0aa9ap-3", "0x1.3e460ap-4", "-0x1.41c1bcp-1",
    "-0x1.396baap-2", "-0x1.bce86ap-4", "-0x1.649842p-2", "0x1.871726p-4", "-0x1.566f92p-5",
    "-0x1.842d42p-2", "-0x1.aa2534p-4", "0x1.8d1052p-2", "0x1.3d552p-1", "-0x1.256632p-5",
    "0x1.09bd1cp-1", "0x1.77885cp-6", "-0x1.2fa096p-5", "-0x1.7abba4p-7", "-0x1.18bf32p-3",
    "-0x1.1b88dap-3", "0x1.8a4736p-2", "-0x1.6a2124p-2", "0x1.23b8f6p-2", "0x1.6aecep-3",
    "0x1.bdb006p-3", "0x1.084e3ap-3", "0x1.e4228ap-4", "0x1.c2b1b4p-2", "0x1.2183e2p-3",
    "-0x1.d02b6ep-2", "0x1.0959b6p-1", "0x1.7df7e2p-2", "0x1.6a1d9ep-3", "0x1.2013ccp-2",
    "0x1.d4d12p-4", "-0x1.1a984ap-2", "-0x1.b67a34p-5", "0x1.af348p-3", "-0x1.cb053cp-5",
]  # fmt: skip
ADDR_V1 = [
    "0x1.0359e2p-1", "0x1.c43022p+0", "-0x1.8f8938p+2",
]  # fmt: skip
ADDR_V2 = [
    "-0x1.3f672cp-1", "0x1.1ac16cp-7", "0x1.1c843p-3", "-0x1.1d8dcep-2", "0x1.43c04cp-2",
    "-0x1.3c71e4p-2", "0x1.61ced4p-1", "-0x1.b432c6p-2", "0x1.c12128p-2", "-0x1.b9b44ap-4",
    "0x1.1b29c4p-5", "-0x1.fa3ae2p-7", "0x1.21c598p-3", "-0x1.2bb5f6p-4", "0x1.6f0cfap-2",
    "-0x1.01a9bap-2", "-0x1.0d4074p-3", "-0x1.8adbecp-1", "-0x1.8e2d6cp-3", "0x1.94dc78p-2",
]  # fmt: skip
ADDBMM_B1 = [
    "-0x1.460406p-2", "0x1.41022p-2", "-0x1.10835p-7", "-0x1.983bc6p+0", "0x1.703ac4p-1",
    "-0x1.932ef8p+0", "0x1.666a52p-1", "-0x1.72a084p+0", "-0x1.e546ccp+0", "-0x1.02729ep+0",
    "0x1.f80c34p-1", "0x1.2642a6p-4", "0x1.f53174p-4", "0x1.4915dcp-1", "-0x1.2bb496p-1",
    "0x1.f0aaf6p-4", "0x1.4dc4bcp-2", "-0x1.fdd20ep-1", "-0x1.16d9b4p+0", "-0x1.e690eap-2",
    "0x1.d5c4bp-2", "-0x1.b5111cp-8", "0x1.4c533p+0", "0x1.8a22a2p-8", "0x1.bef52ep-1",
    "-0x1.516822p-7", "-0x1.ddb032p-1", "0x1.5b2262p-1", "0x1.b58e56p-3", "-0x1.0656a8p+0",
    "-0x1.3d61aap-3", "0x1.3e2856p-1", "-0x1.98a056p-2", "0x1.2e5b7ep-1", "-0x1.7dc2a6p-3",
    "-0x1.009572p-1", "-0x1.0062eap+0", "0x1.e323f2p-1", "-0x1.9154b6p-2", "0x1.3ed2a8p-2",
    "0x1.05a932p+0", "-0x1.0d7f8p-1", "0x1.a3aaccp-1", "-0x1.d437b2p-1", "-0x1.784506p-2",
    "0x1.99e788p+0", "-0x1.2b77aep-2", "-0x1.3723fap+0", "0x1.8756cp-1", "0x1.76270ap-1",
    "-0x1.e87964p-1", "0x1.5c5dc4p-1", "0x1.56adacp-1", "0x1.26434ep-3", "0x1.0e0132p-1",
    "0x1.8b57fap-1", "-0x1.8d50fep-3", "-0x1.fe7df8p-1", "-0x1.412fa8p-1", "0x1.7eb22p-1",
]  # fmt: skip
ADDBMM_B2 = [
    "0x1.224f28p-1", "0x1.455894p-3", "-0x1.73b5aap-3", "-0x1.66351ep+0", "0x1.4ccc72p-1",
    "0x1.285fa2p-1", "0x1.12178ep-1", "-0x1.062648p+1", "-0x1.1aad7ap-1", "-0x1.887706p-3",
    "-0x1.5f03ecp-2", "0x1.15f7fap+0", "-0x1.82d8acp-4", "0x1.e44ba8p-2", "0x1.41dc2ep-6",
    "-0x1.b344bep-4", "0x1.ddd08p-5", "-0x1.bffae4p-3", "0x1.4b53eep-2", "-0x1.24114cp-1",
    "-0x1.dfa3ecp-3", "-0x1.27eabcp-2", "0x1.7d8edcp-6", "0x1.b0d472p-2", "0x1.39b18p-2",
    "0x1.8cc08ep-7", "-0x1.8a9d26p-2", "0x1.f66a9ep-2", "-0x1.d5e516p-3", "-0x1.be2adcp-3",
    "-0x1.0aebbep-6", "-0x1.636526p-2", "-0x1.0b801p-1", "0x1.0f671p-1", "-0x1.39a36cp-1",
    "-0x1.9fc796p-3", "0x1.0951fap-1", "-0x1.7aaf96p-2", "-0x1.24e1f8p-2", "-0x1.05d96cp-3",
    "0x1.8f4e98p-4", "0x1.3b584ep-2", "-0x1.2e707ep-2", "-0x1.fbfdf6p-2", "-0x1.35ae4ep-3",
    "0x1.19ae9ap+0", "-0x1.643a24p-1", "-0x1.4463fap-2", "-0x1.b6cde6p-4", "-0x1.2291a6p-1",
    "-0x1.263482p-3", "-0x1.310568p-2", "-0x1.7ca97ep-3", "0x1.41f3eep-2", "-0x1.059284p-1",
    "0x1.0217d8p-1", "0x1.96595ap-1", "-0x1.79f02cp-1", "0x1.1dee72p-1", "0x1.efa172p-4",
    "0x1.204894p-1", "-0x1.cec4b8p-1", "0x1.3e04f4p-3", "-0x1.dd02bep-2", "0x1.e4433ep-2",
    "0x1.b7a26ap-1", "-0x1.aa4ac2p-4", "0x1.5e9bfp-4", "0x1.d0b718p-1", "0x1.3b19bcp-4",
    "0x1.3b12d4p-1", "0x1.7ee3fap-3", "-0x1.df0adap-1", "0x1.2c65ccp+0", "0x1.3a72f6p+0",
    "0x1.3f8562p+0", "0x1.4982aep-3", "-0x1.ee306p-1", "-0x1.2595bp-2", "-0x1.70e6cep-3",
    "0x1.9b808ep-5", "0x1.146afp+0", "-0x1.ec3c32p-2", "-0x1.97c81ap-2", "0x1.73e42cp-3",
    "0x1.d96fa2p-5", "0x1.c13ce2p-4", "-0x1.0bd5fap-2", "0x1.238326p-2", "0x1.51e2p-3",
]  # fmt: skip
ADDBMM_M = [
    "-0x1.15d3d2p-3", "-0x1.4d60e6p-2", "-0x1.16ff56p-1", "0x1.1848d2p-2", "-0x1.43abb2p-1",
    "-0x1.4bae48p-3", "-0x1.12a888p-1", "0x1.a63dep-1", "0x1.20af46p-2", "0x1.e598bp-2",
    "-0x1.199382p-3", "-0x1.589938p-1", "-0x1.42dd32p-3", "-0x1.e020bap-4", "0x1.94fef8p-3",
    "-0x1.deb4d2p-2", "0x1.48765ep-3", "0x1.fdcea2p-3", "-0x1.0a974p-2", "-0x1.639274p-4",
    "0x1.6e4a22p-2", "0x1.3da2a8p-1", "-0x1.5e1e06p-4", "-0x1.4bef0ap-3",
]  # fmt: skip

ADDR = """import torch
torch.manual_seed(3)
v1 = torch.randn(3, requires_grad=True)
v2 = torch.randn(20, requires_grad=True)
M = torch.randn(3, 20, requires_grad=True)
g = torch.randn(3, 20)
y = torch.addr(M, v1, v2, alpha=0.7, beta=0.3)
y.backward(g)
"""

ADDBMM = """import torch
torch.manual_seed(4)
b1 = torch.randn(3, 4, 5, requires_grad=True)
b2 = torch.randn(3, 5, 6, requires_grad=True)
M = torch.randn(4, 6, requires_grad=True)
g = torch.randn(4, 6)
torch.addbmm(M, b1, b2, alpha=0.37, beta=0.5).backward(g)
"""


def _bits(a: np.ndarray) -> list[str]:
    return [float(v).hex() for v in np.asarray(a, np.float32).ravel()]


def _want(hexes: list[str]) -> list[str]:
    return [float.fromhex(h).hex() for h in hexes]


def test_addr_value_and_gradients_are_pytorchs_bits() -> None:
    env = parse(ADDR, "t.py").run(dtype="float32").env
    assert _bits(env["y"].data) == _want(ADDR_Y)
    assert _bits(env["v1"].grad.data) == _want(ADDR_V1)
    assert _bits(env["v2"].grad.data) == _want(ADDR_V2)


def test_addr_other_rules_give_other_bits() -> None:
    # the unfused value, and the gradients as the sums of g * v2 scaled first, differ
    env = parse(ADDR, "t.py").run(dtype="float32").env
    f = np.float32
    v1, v2, m, g = (env[k].data for k in ("v1", "v2", "M", "g"))
    plain = f(0.3) * m + (v1 * f(0.7))[:, None] * v2[None, :]
    assert sum(a != b for a, b in zip(_bits(plain), _want(ADDR_Y))) >= 5
    first = ((g * f(0.7)) * v2[None, :]).sum(1, dtype=f)
    assert sum(a != b for a, b in zip(_bits(first), _want(ADDR_V1))) >= 1
    # and a rule 0.1% off is caught
    off = np.float32(1.001) * np.array([float.fromhex(h) for h in ADDR_V1], f)
    assert _bits(env["v1"].grad.data) != _bits(off)


def test_addbmm_gradients_are_pytorchs_bits() -> None:
    env = parse(ADDBMM, "t.py").run(dtype="float32").env
    assert _bits(env["b1"].grad.data) == _want(ADDBMM_B1)
    assert _bits(env["b2"].grad.data) == _want(ADDBMM_B2)
    assert _bits(env["M"].grad.data) == _want(ADDBMM_M)


def _central(loss, arrays: list[np.ndarray], i: int, eps: float = 1e-6) -> np.ndarray:
    fd = np.zeros_like(arrays[i])
    for idx in np.ndindex(arrays[i].shape):
        hi = [a.copy() for a in arrays]
        lo = [a.copy() for a in arrays]
        hi[i][idx] += eps
        lo[i][idx] -= eps
        fd[idx] = (loss(*hi) - loss(*lo)) / (2 * eps)
    return fd


@pytest.mark.parametrize("beta", [0.3, 0.0])
def test_float64_gradients_match_central_differences(beta: float) -> None:
    text = f"""import torch
torch.manual_seed(8)
v1 = torch.randn(4, dtype=torch.float64, requires_grad=True)
v2 = torch.randn(5, dtype=torch.float64, requires_grad=True)
M = torch.randn(5, dtype=torch.float64, requires_grad=True)
b1 = torch.randn(3, 4, 2, dtype=torch.float64, requires_grad=True)
b2 = torch.randn(3, 2, 5, dtype=torch.float64, requires_grad=True)
g = torch.randn(4, 5, dtype=torch.float64)
torch.addr(M, v1, v2, alpha=-1.7, beta={beta}).backward(g)
N = torch.randn(1, 5, dtype=torch.float64, requires_grad=True)
torch.addbmm(N, b1, b2, alpha=0.6, beta={beta}).backward(g)
"""
    env = parse(text, "t.py").run(dtype="float64").env
    v1, v2, m, b1, b2, g, n = (env[k].data.copy() for k in ("v1", "v2", "M", "b1", "b2", "g", "N"))

    def addr_loss(m_, u, v) -> float:
        return float(((beta * m_ + -1.7 * np.outer(u, v)) * g).sum())

    def addbmm_loss(n_, x, y) -> float:
        return float(((beta * n_ + 0.6 * np.einsum("bij,bjk->ik", x, y)) * g).sum())

    for i, name in enumerate(("M", "v1", "v2")):
        fd = _central(addr_loss, [m, v1, v2], i)
        np.testing.assert_allclose(env[name].grad.data, fd, rtol=1e-7, atol=1e-9)
    for i, name in enumerate(("N", "b1", "b2")):
        fd = _central(addbmm_loss, [n, b1, b2], i)
        np.testing.assert_allclose(env[name].grad.data, fd, rtol=1e-7, atol=1e-9)


def test_beta_zero_ignores_nan_and_gives_a_zero_gradient() -> None:
    text = """import torch
M = torch.full((2, 3), float('nan'), requires_grad=True)
u = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([0.5, -1.0, 3.0], requires_grad=True)
y = torch.addr(M, u, v, beta=0)
y.sum().backward()
N = torch.full((2, 3), float('nan'), requires_grad=True)
z = torch.addbmm(N, u.detach().view(1, 2, 1), v.detach().view(1, 1, 3), beta=0)
z.sum().backward()
"""
    env = parse(text, "t.py").run(dtype="float32").env
    assert np.array_equal(env["y"].data, np.outer([1.0, 2.0], [0.5, -1.0, 3.0]))
    assert np.array_equal(env["z"].data, env["y"].data)
    for name in ("M", "N"):
        assert env[name].grad is not None and np.array_equal(env[name].grad.data, np.zeros((2, 3)))


@pytest.mark.parametrize(
    "call, names",
    [
        ("torch.addr(M, u, v)", ("MvBackward0", "MvBackward0")),
        ("torch.addr(M, u, v, alpha=2.5)", ("MulBackward1", "MulBackward1")),
        ("M.addbmm(b1, b2)", ("BmmBackward0", "BmmBackward0")),
        ("torch.addbmm(M, b1, b2, alpha=-1)", ("MulBackward1", "MulBackward1")),
    ],
)
def test_create_graph_names(call: str, names: tuple[str, str]) -> None:
    wrt = "(b1, b2)" if "bmm" in call else "(u, v)"
    text = f"""import torch
M = torch.ones(2, 3)
u = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([0.5, -1.0, 3.0], requires_grad=True)
b1 = torch.tensor([[[1.0], [2.0]]], requires_grad=True)
b2 = torch.tensor([[[0.5, -1.0, 3.0]]], requires_grad=True)
gu, gv = torch.autograd.grad({call}.sum(), {wrt}, create_graph=True)
"""
    env = parse(text, "t.py").run(dtype="float32").env
    assert (env["gu"].node.name(), env["gv"].node.name()) == names


def test_forward_mode_adds_in_the_formulas_order() -> None:
    # beta * dM + alpha * outer(du, v) + alpha * outer(u, dv), left to right (PyTorch's bits:
    # measured e, not the two products summed first, s)
    text = """import torch
import torch.autograd.forward_ad as fwAD
torch.manual_seed(2)
M, u, v = torch.randn(6, 40), torch.randn(6), torch.randn(40)
dM, du, dv = torch.randn(6, 40), torch.randn(6), torch.randn(40)
with fwAD.dual_level():
    o = torch.addr(fwAD.make_dual(M, dM), fwAD.make_dual(u, du), fwAD.make_dual(v, dv),
                   alpha=0.7, beta=0.3)
    t = fwAD.unpack_dual(o).tangent
e = dM * 0.3 + torch.outer(du, v) * 0.7 + torch.outer(u, dv) * 0.7
s = dM * 0.3 + (torch.outer(du, v) * 0.7 + torch.outer(u, dv) * 0.7)
"""
    env = parse(text, "t.py").run(dtype="float32").env
    assert np.array_equal(env["t"].data, env["e"].data)
    assert not np.array_equal(env["t"].data, env["s"].data)


@pytest.mark.parametrize(
    "dtypes, message",
    [
        (("float64", "float32", "float32"), "self and mat2 must have the same dtype"),
        (("float32", "float64", "float32"), "mat1 and mat2 must have the same dtype"),
        (("float32", "float32", "float64"), "self and mat2 must have the same dtype"),
    ],
)
def test_addbmm_of_two_dtypes_is_refused_in_addmms_words(dtypes: tuple, message: str) -> None:
    a, b, c = dtypes
    text = f"""import torch
try:
    torch.addbmm(torch.ones(2, 2, dtype=torch.{a}), torch.ones(1, 2, 2, dtype=torch.{b}),
                 torch.ones(1, 2, 2, dtype=torch.{c}))
except RuntimeError as e:
    said = str(e)
"""
    env = parse(text, "t.py").run(dtype="float32").env
    assert env["said"].startswith(message)


def test_empty_batches_and_vectors() -> None:
    text = """import torch
M = torch.ones(2, 3, requires_grad=True)
b1 = torch.zeros(0, 2, 4, requires_grad=True)
b2 = torch.zeros(0, 4, 3, requires_grad=True)
y = torch.addbmm(M, b1, b2, beta=0.5, alpha=2)
y.sum().backward()
u = torch.zeros(0, requires_grad=True)
v = torch.ones(3, requires_grad=True)
z = torch.addr(torch.ones(0, 3), u, v, alpha=2)
z.sum().backward()
"""
    env = parse(text, "t.py").run(dtype="float32").env
    assert np.array_equal(env["y"].data, np.full((2, 3), 0.5))
    assert np.array_equal(env["M"].grad.data, np.full((2, 3), 0.5))
    assert env["b1"].grad.shape == (0, 2, 4) and env["z"].shape == (0, 3)
    assert np.array_equal(env["v"].grad.data, np.zeros(3))
