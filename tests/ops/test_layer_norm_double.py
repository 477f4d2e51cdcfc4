"""layer_norm's gradients taken with create_graph=True are PyTorch's: its kernel
(native_layer_norm_backward) as the recorded node of each result (NativeLayerNormBackward-
Backward0, for the input's, the weight's and the bias's gradient: the bias's was the incoming
gradient itself, with no grad_fn), differentiated by layer_norm_double_backward in PyTorch's
order. `data/lndouble/probe.py` runs under torch and gradcli alike; `expected.txt` is its
output under torch 2.13 with one thread (float32 bits of first and second derivatives, names).
Second derivatives are checked against central differences in float64."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradcli.lang.program import parse

DATA = Path(__file__).parent / "data" / "lndouble"


def run(source: str, dtype: str = "float32") -> str:
    return "".join(parse(source, "t.py").run(dtype=dtype).output)


def test_create_graph_gradients_are_pytorchs_bits_and_nodes() -> None:
    want = (DATA / "expected.txt").read_text().splitlines()
    got = run((DATA / "probe.py").read_text()).splitlines()
    assert len(got) == len(want) == 24
    for g, w in zip(got, want):
        assert g == w


FD = """
import torch
import torch.nn.functional as F
torch.manual_seed({seed})
x = torch.randn({shape}, dtype=torch.float64, requires_grad=True)
w = torch.randn({ns}, dtype=torch.float64, requires_grad=True)
b = torch.randn({ns}, dtype=torch.float64, requires_grad=True)
c = torch.randn({shape}, dtype=torch.float64)
v = torch.randn({shape}, dtype=torch.float64)
u = torch.randn({ns}, dtype=torch.float64)

def loss(x, w, b):
    y = F.layer_norm(x, {ns}, w, b)
    gx, gw, gb = torch.autograd.grad((y * c).sum(), (x, w, b), create_graph=True)
    return (gx * v).sum() + (gw * u).sum() + (gb * gb * u).sum() + (gw * gw).sum()

hx, hw = torch.autograd.grad(loss(x, w, b), (x, w))
h = 1e-6
worst = 0.0
for t, grad in ((x, hx), (w, hw)):
    flat = t.detach().reshape(-1)
    for i in range(flat.numel()):
        e = torch.zeros_like(flat)
        e[i] = h
        e = e.reshape(t.shape)
        if t is x:
            up = loss((x.detach() + e).requires_grad_(), w, b)
            down = loss((x.detach() - e).requires_grad_(), w, b)
        else:
            up = loss(x, (w.detach() + e).requires_grad_(), b)
            down = loss(x, (w.detach() - e).requires_grad_(), b)
        fd = (up - down) / (2 * h)
        worst = max(worst, abs(fd.item() - grad.reshape(-1)[i].item()))
print(worst < 1e-6)
"""


@pytest.mark.parametrize(
    ("shape", "ns", "seed"),
    [("(3, 5)", "(5,)", 1), ("(2, 3, 4)", "(3, 4)", 2), ("(1, 6)", "(6,)", 3)],
)
def test_second_derivatives_match_finite_differences(shape: str, ns: str, seed: int) -> None:
    got = run(FD.format(shape=shape, ns=ns, seed=seed), dtype="float64")
    assert got.strip() == "True"
