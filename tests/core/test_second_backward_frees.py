"""A backward without retain_graph frees what PyTorch's nodes saved, index tensors included:
a second backward through x[index], gather, index_select, take, masked_select, embedding,
sort/topk/kthvalue/median/mode, scatter/scatter_add/index_add/index_copy, reflection and
replication pads, or an item assignment (CopySlices) fails with PyTorch's message, while the
nodes PyTorch records without saved values (slices, an integer index, flip, roll, diagonal,
repeat, cat...) can be walked again. Each case has a twin on torch itself when installed."""

from __future__ import annotations

import pytest

from gradcli.core.autograd import SECOND_BACKWARD
from tests.helpers.programs import error, out

PRELUDE = """import torch
import torch.nn.functional as F
a = torch.tensor([[1.0, -2.0, 3.0, 0.5], [0.25, 4.0, -1.5, 2.0], [1.5, -0.5, 2.5, -3.0]],
                 requires_grad=True)
i2 = torch.tensor([0, 2])
col = torch.tensor([[0], [1], [2]])
"""

# Expressions of `a` whose graph PyTorch frees after one backward (it saved index tensors).
FREED = [
    "a[i2]",
    "a[[0, 2]]",
    "a[i2, i2]",
    "a[a > 0]",
    "a[torch.tensor([True, False, True]), 1]",
    "a.index_select(1, i2)",
    "a.gather(1, col)",
    "torch.take(a, i2)",
    "torch.take_along_dim(a, col, dim=1)",
    "a.masked_select(a > 0)",
    "F.embedding(i2, a)",
    "a.sort(1).values",
    "torch.msort(a)",
    "a.topk(2, 1).values",
    "a.kthvalue(2, 1).values",
    "a.median(1).values",
    "a.nanmedian(1).values",
    "a.mode(1).values",
    "a.cummax(1).values",
    "torch.zeros(3, 4).scatter(1, col, a[:, :1])",
    "torch.zeros(3, 4).scatter_add(1, col, a[:, :1])",
    "a.scatter(1, col, 0.0)",
    "torch.zeros(3, 4).index_add(0, i2, a[:2])",
    "torch.zeros(3, 4).index_copy(0, i2, a[:2])",
    "a.index_fill(1, i2, 0.0)",
    "F.pad(a[None], (1, 1), mode='reflect')",
    "F.pad(a[None], (1, 1), mode='replicate')",
    "F.pad(a[None], (1, 1), mode='circular')",
]

# Expressions PyTorch records without saved values: a second backward walks them again.
WALKED = [
    "a[1:, :2]",
    "a[1]",
    "a[None, ..., 0]",
    "a.flip(0)",
    "a.roll(1, 1)",
    "torch.rot90(a, 1, (0, 1))",
    "a.diagonal()",
    "a.narrow(1, 1, 2)",
    "a.repeat(2, 1)",
    "a.repeat_interleave(2, dim=0)",
    "torch.cat([a, a])",
    "a.unfold(1, 2, 1)",
    "F.pixel_shuffle(a.reshape(1, 4, 3, 1), 2)",
    "F.pad(a, (1, 1))",
    "a.clone()",
    "a.tril()",
    "a.triu(1)",
    "torch.lerp(a, torch.zeros(3, 4), 0.3)",
    "F.interpolate(a[None], scale_factor=2, mode='nearest')",
    "F.interpolate(a[None], scale_factor=2, mode='linear')",
]

ASSIGNMENTS = {
    "slice": "b = a.clone()\nb[1:] = 5.0",
    "into zeros": "b = torch.zeros(3, 4)\nb[1:] = a[:2]",
    "plain element": "b = torch.zeros(3, 4)\nb[1, 1] = a[0, 0]",
    "tensor index": "b = a.clone()\nb[i2] = 2.0",
    "mask": "b = a.clone()\nb[a > 0] = 0.0",
}


# Changes of the whole tensor in place that PyTorch records without saved values.
WHOLE = {
    "ellipsis fill": "b = a.clone()\nb[...] = 1.0",
    "slice fill": "b = a.clone()\nb[:] = 2.0",
    "fill_": "b = a.clone()\nb.fill_(1.0)",
    "zero_": "b = a.clone()\nb.zero_()",
    "copy_": "b = a.clone()\nb.copy_(a)",
}


def _twice(expr: str) -> str:
    return PRELUDE + f"y = ({expr}).sum()\ny.backward()\ny.backward()\nprint(a.grad.sum().item())\n"


@pytest.mark.parametrize("expr", FREED)
def test_second_backward_through_a_node_holding_indices_fails(expr) -> None:
    e = error(_twice(expr))
    assert SECOND_BACKWARD in str(e)


@pytest.mark.parametrize("expr", WALKED)
def test_nodes_that_hold_nothing_are_walked_again(expr) -> None:
    once = PRELUDE + f"y = ({expr}).sum()\ny.backward()\nprint(a.grad.sum().item())\n"
    assert float(out(_twice(expr))) == pytest.approx(2 * float(out(once)))


@pytest.mark.parametrize("name", sorted(ASSIGNMENTS))
def test_item_assignment_is_freed_as_copyslices(name) -> None:
    text = PRELUDE + ASSIGNMENTS[name] + "\ny = b.sum()\ny.backward()\ny.backward()\n"
    assert SECOND_BACKWARD in str(error(text))


@pytest.mark.parametrize("name", sorted(WHOLE))
def test_whole_fills_and_copies_are_walked_again(name) -> None:
    text = (
        PRELUDE + WHOLE[name] + "\ny = b.sum()\ny.backward()\ny.backward()\nprint(a.grad.sum())\n"
    )
    expected = "tensor(24.)" if name == "copy_" else "tensor(0.)"
    assert out(text) == expected + "\n"


@pytest.mark.parametrize("expr", FREED[:4] + ["F.embedding(i2, a)", "a.gather(1, col)"])
def test_retain_graph_keeps_index_nodes_and_gradients_add(expr) -> None:
    text = PRELUDE + (
        f"y = ({expr}).pow(2).sum()\n"
        "y.backward(retain_graph=True)\n"
        "g1 = a.grad.clone()\n"
        "y.backward()\n"
        "print(torch.equal(a.grad, 2 * g1), (g1 != 0).any().item())\n"
    )
    assert out(text) == "True True\n"


def test_double_backward_through_indexing_still_works() -> None:
    # create_graph keeps the graph: the gradient's own graph (index_put of the index tensors)
    # is walked by the second-order pass, and the Hessian of a gathered sum of cubes is right
    text = PRELUDE + (
        "y = a[i2].pow(3).sum()\n"
        "(g,) = torch.autograd.grad(y, a, create_graph=True)\n"
        "g.sum().backward()\n"
        "print(a.grad[0].tolist(), a.grad[1].tolist())\n"
        "h = torch.autograd.functional.hessian(lambda t: t[i2].pow(3).sum(), a[:, 0].detach())\n"
        "print(h.diagonal().tolist())\n"
    )
    assert out(text) == "[6.0, -12.0, 18.0, 3.0] [0.0, 0.0, 0.0, 0.0]\n[6.0, 0.0, 9.0]\n"


def _torch_twice(torch, expr: str) -> bool:
    scope: dict = {}
    exec(PRELUDE, scope)  # noqa: S102 - the twin runs the same text on torch itself
    y = eval(expr, scope).sum()  # noqa: S307
    y.backward()
    try:
        y.backward()
    except RuntimeError as e:
        assert "backward through the graph a second time" in str(e)
        return False
    return True


@pytest.mark.parametrize("expr", FREED + WALKED)
def test_torch_twin(expr) -> None:
    torch = pytest.importorskip("torch")
    assert _torch_twice(torch, expr) is (expr in WALKED)
