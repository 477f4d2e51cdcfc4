"""A leaf's AccumulateGrad node reached through `grad_fn.next_functions`: its `variable`, and
the hooks a program registers on it, run by a backward pass that accumulates (not by
`autograd.grad`) in PyTorch's order: the tensor's hooks, the node's pre-hooks (a tuple returned
replaces the gradient), the sum into `.grad`, post-accumulate-grad hooks, the node's hooks. As
PyTorch's node, it lives while a name or a graph that showed it holds it: a hook put on it
through a temporary graph is lost with it. (tests/lang/programs/accumulate_grad_hooks.py holds
the cases PyTorch's output was recorded for.) Expected values are PyTorch 2.13's."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_the_node_still_shows_its_name_and_variable() -> None:
    got = out(
        "import torch\nw = torch.ones(2, requires_grad=True)\n"
        "acc = (w * 2).grad_fn.next_functions[0][0]\n"
        "print(acc.name(), acc.variable is w, acc.next_functions, acc.metadata)\n"
    )
    assert got == "torch::autograd::AccumulateGrad True () {}\n"


def test_order_of_every_kind_of_hook_on_two_leaves() -> None:
    # PyTorch's engine finishes one leaf (all of its hooks) before the next
    got = out(
        "import torch\na = torch.ones(2, requires_grad=True)\n"
        "b = torch.ones(1, requires_grad=True)\n"
        "y = (a * b * 2).sum()\nkeep = []\n"
        "for name, t in (('a', a), ('b', b)):\n"
        "    acc = (t * 1).grad_fn.next_functions[0][0]\n"
        "    keep.append(acc)\n"
        "    acc.register_prehook(lambda go, n=name: print(n, 'pre', go[0].tolist()))\n"
        "    acc.register_hook(lambda gi, go, n=name, t=t: print(n, 'hook', gi, t.grad.tolist()))\n"
        "    t.register_hook(lambda g, n=name: print(n, 'tensor', g.tolist()))\n"
        "    post = lambda p, n=name: print(n, 'post', p.grad.tolist())\n"
        "    t.register_post_accumulate_grad_hook(post)\n"
        "y.backward()\n"
    )
    assert got == (
        "a tensor [2.0, 2.0]\na pre [2.0, 2.0]\na post [2.0, 2.0]\na hook () [2.0, 2.0]\n"
        "b tensor [4.0]\nb pre [4.0]\nb post [4.0]\nb hook () [4.0]\n"
    )


def test_a_pre_hook_replaces_the_gradient_and_its_handle_removes_it() -> None:
    got = out(
        "import torch\nw = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
        "acc = (w * 1).grad_fn.next_functions[0][0]\n"
        "h = acc.register_prehook(lambda go: (go[0] * 10,))\n"
        "acc.register_prehook(lambda go: None)\n"
        "(w * w).sum().backward()\nprint(w.grad)\nh.remove()\n"
        "(w * w).sum().backward()\nprint(w.grad)\n"
    )
    assert got == "tensor([ 20., -40.,  60.])\ntensor([ 22., -44.,  66.])\n"


def test_the_node_dies_with_what_held_it() -> None:
    # a function's local name, then nothing: PyTorch's next node is a new one, without hooks
    got = out(
        "import torch\nv = torch.ones(2, requires_grad=True)\n"
        "def attach():\n    acc = v.view(2).grad_fn.next_functions[0][0]\n"
        "    acc.register_hook(lambda gi, go: print('ran'))\n    return id(acc)\n"
        "attach()\n(2 * v).sum().backward()\nprint(v.grad)\n"
        "kept = v.view(2)\n"
        "kept.grad_fn.next_functions[0][0].register_hook(lambda gi, go: print('ran'))\n"
        "(2 * v).sum().backward()\nprint(v.grad)\n"
    )
    assert got == "tensor([2., 2.])\nran\ntensor([4., 4.])\n"


@pytest.mark.parametrize(
    "hook, message",
    [
        ("register_prehook(lambda go: go[0])", "expected tuple, but hook returned 'Tensor'"),
        (
            "register_prehook(lambda go: (go[0], go[0]))",
            "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)",
        ),
        (
            "register_prehook(lambda go: (go[0][:1],))",
            "hook '<lambda>' has changed the size of value",
        ),
        (
            "register_hook(lambda gi, go: go)",
            "hook '<lambda>' has returned an incorrect number of values (got 1, but expected 0)",
        ),
    ],
)
def test_what_a_hook_returns_is_checked_in_pytorchs_words(hook: str, message: str) -> None:
    with pytest.raises(GradcliError) as info:
        out(
            "import torch\nw = torch.ones(2, requires_grad=True)\n"
            f"acc = (w * 1).grad_fn.next_functions[0][0]\nacc.{hook}\n"
            "(w * 3).sum().backward()\n"
        )
    assert message in info.value.message
