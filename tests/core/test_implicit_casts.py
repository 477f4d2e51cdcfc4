"""An operand promoted to the common dtype inside an operation (a real leaf times a complex
tensor, float32 times float64) is recorded by gradcli as a cast, which PyTorch's graph does not
have: `next_functions` shows the operand's own node (feat24), while an explicit `.double()`
keeps its ToCopyBackward0; `torch.where`'s condition is no edge. Expected values are PyTorch
2.13's (corpus 979 holds more)."""

from __future__ import annotations

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


EDGES = (
    "def e(t):\n    return [(f.name() if f else None, i) for f, i in t.grad_fn.next_functions]\n"
)


def test_promoted_operands_show_their_own_nodes() -> None:
    got = out(
        "import torch\n" + EDGES + "x = torch.ones(2, requires_grad=True)\n"
        "w = torch.tensor([1j, 2.0], requires_grad=True)\n"
        "d = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
        "print(e(x * w))\nprint(e((x * 2) * d))\nprint(e(x.double() * d))\n"
        "print(e(torch.where(d > 0, x * 3, d)))\n"
    )
    acc = "('torch::autograd::AccumulateGrad', 0)"
    assert got == (
        f"[{acc}, {acc}]\n[('MulBackward0', 0), {acc}]\n[('ToCopyBackward0', 0), {acc}]\n"
        f"[('MulBackward0', 0), {acc}]\n"
    )


def test_the_gradients_still_come_back_in_each_leafs_dtype() -> None:
    got = out(
        "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "d = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)\n"
        "(x * d).sum().backward()\nprint(x.grad, d.grad)\n"
    )
    assert got == "tensor([3., 4.]) tensor([1., 2.], dtype=torch.float64)\n"
