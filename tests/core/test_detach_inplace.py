"""`detach_()` on a non-leaf tensor that nodes recorded earlier still use: PyTorch keeps
differentiating those uses through the operation that computed the tensor (the edges were
recorded); gradcli's graph reaches the tensor's node only through the tensor, so a pass that
meets such a use refuses in plain words (it gave the gradient without them, in silence). Uses
recorded after the detach see a constant, and detaching after the backward pass (truncated
backpropagation through time) is as before."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from gradcli.base.errors import NotSupported
from gradcli.core import tensor as core_tensor
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float64").output)


@pytest.mark.parametrize(
    "use",
    [
        "c = b.sum()",
        "c = (b * a).sum()",
        "c = b[0] + a.sum()",
        "c = b.exp().sum()",
        "c = torch.stack([b, a]).sum()",
    ],
)
@pytest.mark.parametrize("call", ["c.backward()", "torch.autograd.grad(c, a)"])
def test_a_use_recorded_before_detach_is_refused(use: str, call: str) -> None:
    with pytest.raises(NotSupported, match=r"detached in place \(detach_\(\)\) after it was used"):
        run(f"a = torch.ones(2, requires_grad=True)\nb = a * 3\n{use}\nb.detach_()\n{call}\n")


def test_uses_after_detach_are_constants() -> None:
    out = run(
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = a * 3\n"
        "b.detach_()\n"
        "c = (b * a).sum()\n"
        "c.backward()\n"
        "print(a.grad, b.requires_grad, b.grad_fn, b.is_leaf)\n"
    )
    assert out == "tensor([3., 6.]) False None True\n"


def test_detach_after_backward_in_a_loop() -> None:
    # h_{k+1} = tanh(w h_k + 1), backward each step, then h detached: w.grad sums the
    # one-step derivatives (h_k a constant in step k+1)
    out = run(
        "w = torch.tensor(0.5, requires_grad=True)\n"
        "h = torch.zeros(2)\n"
        "for step in range(4):\n"
        "    h = torch.tanh(w * h + 1.0)\n"
        "    h.sum().backward()\n"
        "    h.detach_()\n"
        "torch.set_printoptions(precision=12)\n"
        "print(w.grad)\n"
    )
    w, h, total = 0.5, np.zeros(2), 0.0
    for _ in range(4):
        new = np.tanh(w * h + 1.0)
        total += float(((1 - new**2) * h).sum())
        h = new
    assert abs(float(out.split("(")[1].split(",")[0].rstrip(")\n")) - total) < 1e-12


def test_the_record_goes_with_the_tensor() -> None:
    gc.collect()
    before = set(core_tensor.DETACHED)  # (what other tests in this process still hold)
    run(
        "w = torch.tensor(0.5, requires_grad=True)\n"
        "for step in range(50):\n"
        "    h = w * step\n"
        "    h.detach_()\n"
    )
    gc.collect()
    assert set(core_tensor.DETACHED) <= before
