"""addcmul (value=), addcdiv (value=) and lerp of a tensor weight: one record each with the
rules derivatives.yaml writes (tensor1: g * (tensor2 * value); addcdiv's tensor2:
-g * (value * tensor1 / (tensor2 * tensor2)); lerp's self: g * (1 - weight)), so that a second
pass through them (create_graph) adds PyTorch's float32 values and shows its nodes. They were
compositions whose gradients scaled g first ((g * value) * tensor2) and whose nodes were other
(an AccumulateGrad edge where PyTorch has MulBackward1, lerp's self an AddBackward0). The
names and bits are PyTorch 2.13's."""

from __future__ import annotations

import numpy as np

from gradcli.lang.program import parse

PROG = """import torch
torch.manual_seed(2)
s = torch.randn(7, requires_grad=True)
a = torch.randn(7, requires_grad=True)
b = (torch.rand(7) + 0.5).requires_grad_()
w = torch.rand(7, requires_grad=True)
outs = [
    torch.addcmul(s, a, b, value=0.3), torch.addcdiv(s, a, b, value=-1.7), torch.lerp(s, a, w)
]
hs = []
names = []
for out in outs:
    gs = torch.autograd.grad(
        (out ** 2).sum(), (s, a, b, w), create_graph=True, allow_unused=True
    )
    names.append([
        [g.grad_fn.name()] + [None if n is None else n.name() for n, _ in g.grad_fn.next_functions]
        for g in gs if g is not None
    ])
    tot = sum(g.sum() for g in gs if g is not None)
    hs.append(torch.autograd.grad(tot, (a, b), allow_unused=True))
"""

NAMES = [
    [
        ["MulBackward0", None, "MulBackward1"],
        ["MulBackward0", "MulBackward0", "MulBackward1"],
        ["MulBackward0", "MulBackward0", "MulBackward1"],
    ],
    [
        ["MulBackward0", None, "MulBackward1"],
        ["MulBackward0", "MulBackward0", "DivBackward0"],
        ["MulBackward0", "NegBackward0", "DivBackward0"],
    ],
    [
        ["MulBackward0", "MulBackward0", "SubBackward0"],
        ["MulBackward0", "MulBackward0", "torch::autograd::AccumulateGrad"],
        ["MulBackward0", "MulBackward0", "SubBackward0"],
    ],
]
H0 = [
    "0x1.cb6e84p-1", "0x1.441078p-2", "-0x1.fb084p-7", "0x1.5c81fp-4", "0x1.d2ad88p+0",
    "0x1.9cd52p-4", "0x1.61264ep-1", "0x1.811c9cp-1", "-0x1.cb366p-2", "-0x1.a7297ap-1",
    "0x1.6750e6p-1", "0x1.7a08d4p+0", "-0x1.7e6884p+0", "-0x1.29b296p-1",
]  # fmt: skip
H1 = [
    "-0x1.f8a01ap+2", "0x1.d6a25p+3", "0x1.4ea3e8p+6", "-0x1.9660bp+5", "-0x1.c3317ap+0",
    "0x1.81b42p+2", "0x1.161e68p+4", "0x1.206202p+2", "0x1.b0bbe4p+3", "0x1.011648p+8",
    "0x1.067e02p+7", "0x1.186d8ep+0", "0x1.4359dp+3", "0x1.3f4c08p+5",
]  # fmt: skip
H2 = [
    "0x1.7cbaccp+0", "0x1.03f1e6p-1", "-0x1.d3f99p-1", "0x1.26192p+1", "0x1.22e1b8p+1",
    "-0x1.8816c4p+0", "0x1.e8117ap-1",
]  # fmt: skip


def _bits(a: np.ndarray) -> list[str]:
    return [float(v).hex() for v in np.asarray(a, np.float32).ravel()]


def _want(hexes: list[str]) -> list[str]:
    return [float.fromhex(h).hex() for h in hexes]


def _run() -> dict:
    return parse(PROG, "t.py").run(dtype="float32").env


def test_second_order_values_are_pytorchs_bits() -> None:
    env = _run()
    for i, want in enumerate((H0, H1, H2)):
        got = [b for t in env["hs"][i] if t is not None for b in _bits(t.data)]
        assert got == _want(want), i


def test_the_gradients_nodes_are_pytorchs() -> None:
    assert _run()["names"] == NAMES


def test_scaling_g_first_gives_other_bits() -> None:
    # tensor1's gradient of addcmul as (g * value) * tensor2, against g * (tensor2 * value)
    rng = np.random.default_rng(0)
    g, t2 = (rng.standard_normal(4000).astype(np.float32) for _ in range(2))
    v = np.float32(0.3)
    assert np.count_nonzero((g * v) * t2 != g * (t2 * v)) > 100
