"""A view made under `torch.no_grad()` (or inference mode) of a tensor whose storage belongs to a
tensor that requires grad keeps requires_grad=True, as PyTorch's views do: it prints
`requires_grad=True`, an operation on it with grad mode on is recorded, a backward pass gives
it no gradient (nor its base), and changing it in place with grad mode on is refused in
PyTorch's words. Copies made under no_grad (arithmetic, clone, advanced indexing, a
non-contiguous `contiguous()`) do not require grad; neither does a view of a view that
requires grad whose own storage's tensor does not. Before, every such view printed without
`requires_grad=True` and said requires_grad=False."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

# What PyTorch 2.13 prints for `t.requires_grad` of each expression made under no_grad from
# x (a leaf that requires grad) and y = x * 2 (recorded), x of shape (6,), y viewed (2, 3).
EXPECTED = {
    "x[1:]": True,
    "x.view(2, 3)": True,
    "y[0]": True,
    "y.t()": True,
    "y.unsqueeze(0)": True,
    "y.expand(2, 2, 3)": True,
    "y.diagonal()": True,
    "y.narrow(1, 0, 2)": True,
    "y.split(1)[0]": True,
    "y.unbind(1)[2]": True,
    "y.reshape(-1)": True,
    "y.movedim(0, 1)": True,
    "y.clone()": False,
    "y * 1": False,
    "y.t().contiguous()": False,
    "y.t().reshape(-1)": False,
    "y[[0, 1]]": False,
    "y[y > 3]": False,
    "y.flip(0)": False,
    "y.diag()": False,
    "y.detach()[0]": False,
    "x.data[1:]": False,
    "torch.arange(6.0).view(2, 3).requires_grad_()[0]": False,
}


def run(text: str) -> list[str]:
    program = "import torch\n" + text
    return "".join(parse(program, "t.py").run().output).splitlines()


@pytest.mark.parametrize("expr", sorted(EXPECTED))
def test_requires_grad_of_what_no_grad_makes(expr: str) -> None:
    got = run(
        "x = torch.arange(6.0, requires_grad=True)\n"
        "y = (x * 2).view(2, 3)\n"
        "with torch.no_grad():\n"
        f"    t = {expr}\n"
        "print(t.requires_grad, t.is_leaf, t.grad_fn)\n"
        "with torch.inference_mode():\n"
        f"    u = {expr}\n"
        "print(u.requires_grad)\n"
    )
    want = EXPECTED[expr]
    assert got == [f"{want} True None", str(want)]


def test_printed_with_requires_grad_and_recorded_when_used_with_grad_on() -> None:
    got = run(
        "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    v = x[:2]\n"
        "print(v)\n"
        "z = (v * 3).sum()\n"
        "print(z.grad_fn.name(), z.requires_grad)\n"
        "z.backward()\n"
        "print(v.grad, x.grad)\n"
    )
    assert got == [
        "tensor([1., 2.], requires_grad=True)",
        "SumBackward0 True",
        "None None",
    ]


def test_a_backward_through_it_leaves_the_base_gradient_alone() -> None:
    """The view is a dead end: x's gradient is what the other paths give (d/dx of x.sum() plus
    nothing through v), not what a recorded view would add (3 at v's places)."""
    got = run(
        "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    v = x[1:]\n"
        "(x.sum() + (v * 3).sum()).backward()\n"
        "print(x.grad)\n"
    )
    assert got == ["tensor([1., 1., 1.])"]


def test_changing_it_in_place_with_grad_on_is_refused_in_pytorch_words() -> None:
    with pytest.raises(GradcliError, match="A view was created in no_grad mode and is being"):
        run(
            "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
            "with torch.no_grad():\n"
            "    v = x[1:]\n"
            "v.mul_(2)\n"
        )
    # catchable as PyTorch's RuntimeError, and allowed under no_grad, where it changes x
    got = run(
        "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    v = x[1:]\n"
        "try:\n"
        "    v.add_(1)\n"
        "except RuntimeError as e:\n"
        "    print(str(e)[:40])\n"
        "with torch.no_grad():\n"
        "    v.mul_(2)\n"
        "print(x)\n"
    )
    assert got == [
        "A view was created in no_grad mode and i",
        "tensor([1., 4., 6.], requires_grad=True)",
    ]


# What PyTorch 2.13 says (its first words) for `e[key] = 1.0` with grad mode on, e = x.view(2, 3)
# made under no_grad: the last view op the key applies, or the plain refusal for index_put_.
SETITEM = {
    "1:": "Output 0 of Slice is a view of a view",
    "0, 1:": "Output 0 of Slice is a view of a view",
    "..., 0": "Output 0 of Select is a view of a view",
    "None": "Output 0 of Unsqueeze is a view of a view",
    "[0]": "A view was created in no_grad mode",
    ":, 1:2": "Output 0 of Slice is a view of a view",
    "1:, 0": "Output 0 of Select is a view of a view",
}


@pytest.mark.parametrize("key", sorted(SETITEM))
def test_assigning_into_it_with_grad_on_names_the_view_op(key: str) -> None:
    got = run(
        "x = torch.arange(6.0, requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    e = x.view(2, 3)\n"
        "try:\n"
        f"    e[{key}] = 1.0\n"
        "except RuntimeError as err:\n"
        "    print(err)\n"
        "print(x)\n"
    )
    assert got[0].startswith(SETITEM[key]) and "created in no_grad mode" in got[0]
    assert got[1] == "tensor([0., 1., 2., 3., 4., 5.], requires_grad=True)"


@pytest.mark.parametrize(
    "code, op", [("e[0].mul_(2)", "Select"), ("e.t().add_(1)", "T"), ("e.view(6).neg_()", "View")]
)
def test_changing_a_view_of_it_made_with_grad_on_is_refused(code: str, op: str) -> None:
    with pytest.raises(GradcliError, match=f"^Output 0 of {op} is a view of a view which was"):
        run(
            "x = torch.arange(6.0, requires_grad=True)\n"
            "with torch.no_grad():\n"
            "    e = x.view(2, 3)\n"
            f"{code}\n"
        )


def test_its_edge_leads_nowhere_hooks_and_autograd_grad() -> None:
    """PyTorch sends no gradient to it: its hooks do not run, and autograd.grad with respect to
    it (or to its base through it) finds it unused."""
    got = run(
        "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    t = x[1:]\n"
        "for wrt in (t, x):\n"
        "    try:\n"
        "        print(torch.autograd.grad((t * 2).sum(), wrt))\n"
        "    except RuntimeError as e:\n"
        "        print(str(e)[:50])\n"
        "print(torch.autograd.grad((t * 2).sum(), t, allow_unused=True))\n"
        "t.register_hook(lambda g: print('hook', g))\n"
        "(t * 3).sum().backward()\n"
        "print(t.grad)\n"
    )
    unused = "The differentiated Tensor at index 0 appears to no"
    assert got == [unused, unused, "(None,)", "None"]


def test_once_its_storage_changes_it_prints_invalid_and_refuses_use() -> None:
    """`w.mul_(2)` under no_grad after `v = w[0]` was taken there: PyTorch prints v with
    grad_fn=<Invalid> and refuses its is_leaf, grad_fn and any use with grad mode on (gradcli
    gave it a new AsStridedBackward0 node, and w a gradient through it, in silence)."""
    got = run(
        "w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
        "with torch.no_grad():\n"
        "    v = w[0]\n"
        "    w.mul_(2)\n"
        "print(v)\n"
        "for f in (lambda: v.is_leaf, lambda: v.grad_fn, lambda: (v * 2).sum()):\n"
        "    try:\n"
        "        print(f())\n"
        "    except RuntimeError as e:\n"
        "        print(str(e)[:60])\n"
        "with torch.no_grad():\n"
        "    print(v * 2, v.requires_grad)\n"
    )
    refusal = "A view was created in no_grad mode and its base or another v"
    assert got == [
        "tensor([2., 4.], grad_fn=<Invalid>)",
        refusal,
        refusal,
        refusal,
        "tensor([4., 8.]) True",
    ]
