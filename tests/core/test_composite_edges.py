"""Operations gradcli records as a composition but PyTorch as one node show PyTorch's edges in
`grad_fn.next_functions`: clamp with tensor bounds (ClampBackward0: input, min, max, a missing
bound None; ClampMin/MaxBackward1: input, bound; the operands themselves, not their dtype
casts), tril / triu (the input alone), lerp (start, end[, weight]) and addcmul / addcdiv with
broadcast operands (the operands, not their expansions). gradcli showed its composition's
inputs (clamp: [None, x, WhereBackward0]; lerp: two MulBackward1). Expected lists: PyTorch
2.13's. explore78."""

from __future__ import annotations

import numpy as np

from gradcli.lang.program import parse


def out(text: str) -> list[str]:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output).splitlines()


SETUP = (
    "x = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.7, 1.5]], requires_grad=True)\n"
    "lo = torch.tensor([0.0, -0.5, 0.0])\n"
    "hi = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)\n"
    "def edges(t):\n"
    "    return [(f.name() if f else None) for f, _ in t.grad_fn.next_functions]\n"
)
ACC = "'torch::autograd::AccumulateGrad'"


def test_clamp_with_tensor_bounds_shows_input_min_max() -> None:
    got = out(
        SETUP + "print(edges(x.clamp(min=lo)))\n"
        "print(edges(x.clamp(lo, hi)))\n"
        "print(edges(torch.clamp(x * 2, max=hi)))\n"
        "print(edges(torch.clamp_min(x, lo)))\n"
        "print(edges(x.clamp_max(hi)))\n"
        "print(edges(x.clamp(min=lo.double())))\n"
        "y = x * 1\n"
        "y.clamp_(lo, hi)\n"
        "print(edges(y))\n"
    )
    assert got == [
        f"[{ACC}, None, None]",
        f"[{ACC}, None, {ACC}]",
        f"['MulBackward0', None, {ACC}]",
        f"[{ACC}, None]",
        f"[{ACC}, {ACC}]",
        f"[{ACC}, None, None]",
        f"['MulBackward0', None, {ACC}]",
    ]


def test_clamp_gradients_unchanged() -> None:
    # the edges shown changed, not the rule: x's gradient where lo <= x <= hi, hi's where x > hi
    got = out(
        SETUP + "x.clamp(lo, hi).sum().backward()\nprint(x.grad.tolist(), hi.grad.tolist())\n"
    )
    xv = np.array([[0.5, -1.0, 2.0], [-0.3, 0.7, 1.5]])
    keep = ((xv >= [0.0, -0.5, 0.0]) & (xv <= 1.0)).astype(float)
    assert got == [f"{keep.tolist()} {(xv > 1.0).sum(0).astype(float).tolist()}"]


def test_tril_triu_lerp_addc_show_their_operands() -> None:
    got = out(
        SETUP + "print(edges(x.tril()), edges((x * 2).triu(1)))\n"
        "print(edges(torch.lerp(x, x * 3, 0.25)))\n"
        "print(edges(torch.lerp(x, hi, torch.full((3,), 0.5))))\n"
        "print(edges(torch.addcmul(x, x, hi)))\n"
        "print(edges(torch.addcdiv(x, hi, x + 3, value=0.5)))\n"
    )
    assert got == [
        f"[{ACC}] ['MulBackward0']",
        f"[{ACC}, 'MulBackward0']",
        f"[{ACC}, {ACC}, None]",
        f"[{ACC}, {ACC}, {ACC}]",
        f"[{ACC}, {ACC}, 'AddBackward0']",
    ]


def test_one_node_results_show_their_input() -> None:
    # multi-output linalg (a part of a packed value in gradcli), repeat, diagonal, trace,
    # take, roll, median: PyTorch's node's one edge is the input's own node
    got = out(
        "x = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.7, 1.5], [1.0, 0.2, -0.4]], "
        "requires_grad=True)\n"
        "def edges(t):\n"
        "    return [(f.name() if f else None) for f, _ in t.grad_fn.next_functions]\n"
        "print(edges(torch.linalg.slogdet(x[:, :2][:2])[1]), edges(torch.linalg.qr(x * 2)[0]), "
        "edges(torch.linalg.svd(x)[1]))\n"
        "print(edges(x.repeat(2, 1)), edges(x.tile(2)), edges(x.diagonal(1)), "
        "edges(torch.diag_embed(x[0])))\n"
        "print(edges(x.trace()), edges(x.take(torch.tensor([0, 4]))), edges(x.roll(1)), "
        "edges(x.median()))\n"
        "print(edges(torch.logdet(x + 2)), edges(torch.outer(x[0], x[1])))\n"
    )
    assert got == [
        f"['SliceBackward0'] ['MulBackward0'] [{ACC}]",
        f"[{ACC}] [{ACC}] [{ACC}] ['SelectBackward0']",
        f"[{ACC}] [{ACC}] [{ACC}] [{ACC}]",
        "[None, 'LinalgSlogdetBackward0'] ['ViewBackward0', 'SelectBackward0']",
    ]


def test_a_copying_reshape_shows_atens_clone() -> None:
    # reshape that cannot be a view: ATen's _unsafe_view of a contiguous clone; a view or an
    # alias shows no clone; the shown node answers for an unknown attribute by its name
    got = out(
        "x = torch.tensor([[0.5, -1.0, 2.0], [-0.3, 0.7, 1.5]], requires_grad=True)\n"
        "def edges(f):\n"
        "    return f.name(), [(g.name() if g else None) for g, _ in f.next_functions]\n"
        "r = x.t().reshape(-1)\n"
        "c = r.grad_fn.next_functions[0][0]\n"
        "print(edges(r.grad_fn), edges(c))\n"
        "print(edges(x.permute(1, 0).flatten().grad_fn), edges(x.reshape(3, 2).grad_fn))\n"
        "print(edges(x.t().reshape(3, 2).grad_fn))\n"
        "try:\n"
        "    c.grad_fn\n"
        "except AttributeError as e:\n"
        "    print(e)\n"
        "(r * torch.arange(6.0)).sum().backward()\n"
        "print(x.grad.tolist())\n"
    )
    assert got == [
        "('UnsafeViewBackward0', ['CloneBackward0']) ('CloneBackward0', ['TBackward0'])",
        f"('UnsafeViewBackward0', ['CloneBackward0']) ('ViewBackward0', [{ACC}])",
        "('ReshapeAliasBackward0', ['TBackward0'])",
        "'CloneBackward0' object has no attribute 'grad_fn'",
        # d/dx of sum(x.t().reshape(-1) * [0..5]): x[i][j] is element 2 * j + i
        "[[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]",
    ]
