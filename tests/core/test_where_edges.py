"""masked_fill is recorded as a where(mask, value, x) named MaskedFillBackward0/1; PyTorch's
node has one edge, x's (a number as value), or two, (x, value) (a tensor value): its
next_functions and the grad_inputs its hooks see are those (gradcli showed the where's three
inputs, the mask first). The recorded gradient (create_graph) is grad.masked_fill(mask, 0),
MaskedFillBackward0 again (gradcli's was a WhereBackward0). explore73."""

from __future__ import annotations

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


SETUP = (
    "x = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.7, 1.5]], requires_grad=True)\n"
    "m = x.detach() > 0.6\n"
    "def edges(t):\n"
    "    return [(f.name() if f else None) for f, _ in t.grad_fn.next_functions]\n"
)


def test_next_functions_are_pytorchs_edges() -> None:
    got = out(
        SETUP + "print(edges(x.masked_fill(m, 0.0)))\n"
        "print(edges((x * 2).masked_fill(m, 1.5)))\n"
        "v = torch.tensor(2.0, requires_grad=True)\n"
        "print(edges(x.masked_fill(m, v)))\n"
        "print(edges(x.masked_fill(m, torch.tensor(2.0))))\n"
        "print(edges(torch.where(m, x, x * 3)))\n"
    )
    acc = "torch::autograd::AccumulateGrad"
    assert got.splitlines() == [
        f"['{acc}']",
        "['MulBackward0']",
        f"['{acc}', '{acc}']",
        f"['{acc}', None]",
        f"['{acc}', 'MulBackward0']",
    ]


def test_hooks_see_and_replace_the_edges_gradients() -> None:
    got = out(
        SETUP + "z = x.masked_fill(m, 0.0)\n"
        "z.grad_fn.register_hook(lambda gi, go: print(len(gi), gi[0].tolist()))\n"
        "z.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))\n"
        "(z * torch.tensor([1.0, 2.0, 3.0])).sum().backward()\n"
        "print(x.grad.tolist())\n"
        "v = torch.tensor(2.0, requires_grad=True)\n"
        "w = x.masked_fill(m, v)\n"
        "w.grad_fn.register_hook(lambda gi, go: print(len(gi), gi[1].item()))\n"
        "w.sum().backward()\n"
        "print(v.grad.item())\n"
    )
    # d/dx of sum(z * [1, 2, 3]) is [1, 2, 3] where the mask is off, 0 where it is on
    assert got.splitlines() == [
        "1 [[1.0, 2.0, 0.0], [1.0, 0.0, 0.0]]",
        "[[10.0, 20.0, 0.0], [10.0, 0.0, 0.0]]",
        "2 3.0",
        "3.0",
    ]


def test_the_recorded_gradient_is_a_masked_fill() -> None:
    got = out(
        SETUP + "g, = torch.autograd.grad(x.masked_fill(m, 0.0).pow(2).sum(), x, "
        "create_graph=True)\n"
        "print(g.grad_fn.name(), edges(g))\n"
        "g.sum().backward()\n"
        "print(x.grad.tolist())\n"
    )
    # g = 2 x where the mask is off: d sum(g) / dx = 2 there, 0 under the mask
    assert got.splitlines() == [
        "MaskedFillBackward0 ['MulBackward0']",
        "[[2.0, 2.0, 0.0], [2.0, 0.0, 0.0]]",
    ]
