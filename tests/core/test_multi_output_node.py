"""The nodes gradcli records per output of one call (split, chunk, unbind, a decomposition)
stand for PyTorch's one node: one grad_fn object, one metadata dict, node hooks that run once
with every output's gradient (None for an output that received none, or is gone) and, after,
with the inputs' gradients summed over the outputs. Expected text is PyTorch 2.13's (checked
with /work/torchenv)."""

from __future__ import annotations

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run().output).strip()


def test_one_node_object_for_the_pieces() -> None:
    text = (
        "import torch\nx = torch.arange(6.0, requires_grad=True)\np, q, r = x.split(2)\n"
        "print(p.grad_fn is q.grad_fn, q.grad_fn is r.grad_fn, r.output_nr)\n"
        "p.grad_fn.metadata['k'] = 1\nprint(r.grad_fn.metadata)\n"
        "y = (p * q).sum()\nprint(y.grad_fn.next_functions[0][0].next_functions[0][0]"
        " is q.grad_fn)\n"
    )
    assert out(text) == "True True 2\n{'k': 1}\nTrue"


def test_hooks_run_once_with_every_output() -> None:
    text = (
        "import torch\nx = torch.arange(6.0, requires_grad=True)\na, b, c = x.chunk(3)\n"
        "b.grad_fn.register_prehook(lambda go: print('pre', go))\n"
        "b.grad_fn.register_hook(lambda gi, go: print('post', gi[0]))\n"
        "(a.sum() + 3 * c.sum()).backward()\nprint(x.grad)\n"
    )
    assert out(text) == (
        "pre (tensor([1., 1.]), None, tensor([3., 3.]))\n"
        "post tensor([1., 1., 0., 0., 3., 3.])\n"
        "tensor([1., 1., 0., 0., 3., 3.])"
    )


def test_a_pre_hook_changes_every_piece_and_a_gone_piece_is_none() -> None:
    text = (
        "import torch\nx = torch.arange(4.0, requires_grad=True)\na, b = x.unbind(0)[:2]\n"
        "node = b.grad_fn\ndel a\n"
        "node.register_prehook(lambda go: tuple(None if g is None else 10 * g for g in go))\n"
        "node.register_prehook(lambda go: print(len(go), go[0], go[1]))\n"
        "(b * 2).backward()\nprint(x.grad)\n"
    )
    assert out(text) == "4 None tensor(20.)\ntensor([ 0., 20.,  0.,  0.])"


FUNCTION = (
    "import torch\nclass Two(torch.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x):\n        idx = x.argmax()\n"
    "        ctx.mark_non_differentiable(idx)\n        return x * 2, idx, x * 3\n"
    "    @staticmethod\n    def backward(ctx, ga, gi, gb):\n        return 2 * ga + 3 * gb\n"
    "x = torch.tensor([1.0, 4.0], requires_grad=True)\na, i, b = Two.apply(x)\n"
)


def test_function_node_hooks_see_one_gradient_per_output() -> None:
    text = FUNCTION + (
        "b.grad_fn.register_prehook(lambda go: print('pre', go))\n"
        "b.grad_fn.register_hook(lambda gi, go: print('post', gi, go))\n"
        "a.sum().backward()\nprint(x.grad)\n"
    )
    assert out(text) == (
        "pre (tensor([1., 1.]), None, None)\n"
        "post (tensor([2., 2.]),) (tensor([1., 1.]), None, None)\ntensor([2., 2.])"
    )


def test_function_pre_hook_replaces_the_outputs_gradients() -> None:
    text = FUNCTION + (
        "a.grad_fn.register_prehook(lambda go: (go[0], None, 10 * go[2]))\n"
        "(a + b).sum().backward()\nprint(x.grad)\n"
    )
    assert out(text) == "tensor([32., 32.])"


def test_saved_values_of_the_pieces_node() -> None:
    text = (
        "import torch\nx = torch.arange(10.0, requires_grad=True)\n"
        "a, b, c = x.split(4)\nprint(b.grad_fn._saved_dim, b.grad_fn._saved_self_sym_sizes,"
        " b.grad_fn._saved_split_size)\n"
        "p, q = x.view(2, 5).split([3, 2], 1)\nprint(q.grad_fn._saved_dim, "
        "q.grad_fn._saved_split_sizes)\n"
        "one = x.split(12)\nprint(one[0].grad_fn._saved_split_size)\n"
        "print(x.view(2, 5).unbind(1)[4].grad_fn._saved_dim)\n"
    )
    assert out(text) == "0 (10,) 4\n1 (3, 2)\n12\n1"


def test_pieces_gradients_are_placed_not_added() -> None:
    # PyTorch's one node of the pieces writes each piece's gradient in its place (a -0. stays
    # -0.). The expected gradient is assembled from each piece's own gradient (autograd.grad
    # through that piece alone), and its values are checked against central differences.
    text = (
        "import torch\n"
        "def f(v):\n"
        "    a, b, c = v.double().split([1, 2, 2])\n"
        "    return (a * -0.0).sum() + (b * b).sum() + (c * 0.0 - c * 0.0).sum() * -1.0\n"
        "v = torch.tensor([0.5, 1.5, 2.0, 3.0, 0.25], dtype=torch.float64,"
        " requires_grad=True)\n"
        "f(v).backward()\n"
        "parts = []\n"
        "for k, (lo, hi) in enumerate([(0, 1), (1, 3), (3, 5)]):\n"
        "    w = v.detach().clone().requires_grad_()\n"
        "    piece = w.split([1, 2, 2])[k]\n"
        "    y = [(piece * -0.0).sum(), (piece * piece).sum(),"
        " (piece * 0.0 - piece * 0.0).sum() * -1.0][k]\n"
        "    parts.append(torch.autograd.grad(y, w)[0][lo:hi])\n"
        "want = torch.cat(parts)\n"
        "print(torch.equal(v.grad, want), torch.equal(v.grad.signbit(), want.signbit()))\n"
        "h = 1e-6\n"
        "fd = torch.stack([(f(v.detach() + h * e) - f(v.detach() - h * e)) / (2 * h)"
        " for e in torch.eye(5, dtype=torch.float64)])\n"
        "print(torch.allclose(v.grad, fd, atol=1e-6), v.grad.signbit().tolist())\n"
        "m = torch.arange(6.0).reshape(2, 3).requires_grad_()\n"
        "total = 0\n"
        "for row in m:\n"
        "    total = total + (row * -0.0).sum()\n"
        "total.backward()\n"
        "print(m.grad.signbit().all().item())\n"
    )
    assert out(text) == ("True True\nTrue [True, False, False, False, False]\nTrue")
