"""A custom autograd.Function in the setup_context form run inside torch.func transforms, as
PyTorch 2.13 runs it (checked by hand with /work/torchenv): forward once, setup_context once
on the plain inputs and once more for each grad, vjp, jacrev, jvp or jacfwd level (vmap adds
none), outermost first, each ctx with its level's needs_input_grad (an input the level
wraps and differentiates; a captured tensor never; nothing at a forward-mode level); backward
and jvp see the innermost level's."""

from __future__ import annotations

from tests.helpers.programs import out

TWO = """
import torch


class M(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, y):
        print("forward")
        return x * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        print("setup", ctx.needs_input_grad)

    @staticmethod
    def backward(ctx, g):
        print("backward", ctx.needs_input_grad)
        return g, g

    @staticmethod
    def jvp(ctx, gx, gy):
        print("jvp", ctx.needs_input_grad)
        return gx + gy

a = torch.ones(2)
c = torch.ones(2, requires_grad=True)
"""


def lines(text: str) -> list[str]:
    return out(TWO + text).splitlines()


def test_one_setup_per_grad_level_after_the_plain_inputs_one() -> None:
    got = lines("torch.func.grad(lambda t: M.apply(t, a).sum())(a)\n")
    assert got == [
        "forward",
        "setup (False, False)",
        "setup (True, False)",
        "backward (True, False)",
    ]
    got = lines(
        "torch.func.grad(torch.func.grad(lambda t: M.apply(t, t).sum()))(torch.tensor(1.))\n"
    )
    assert got[:4] == [
        "forward",
        "setup (False, False)",
        "setup (True, True)",
        "setup (True, True)",
    ]


def test_forward_mode_levels_need_no_input_grad() -> None:
    got = lines("torch.func.jvp(lambda t: M.apply(t, a), (a,), (a,))\n")
    assert got == ["forward", "setup (False, False)", "setup (False, False)", "jvp (False, False)"]


def test_a_captured_tensor_needs_grad_only_on_the_plain_call() -> None:
    got = lines("torch.func.grad(lambda t: M.apply(t, c).sum())(a)\n")
    assert got == [
        "forward",
        "setup (False, True)",
        "setup (True, False)",
        "backward (True, False)",
    ]


def test_vmap_adds_no_setup_and_a_plain_call_has_one() -> None:
    assert lines("torch.func.vmap(torch.func.grad(lambda t: M.apply(t, t).sum()))(a.view(2, 1))")[
        :3
    ] == ["forward", "setup (False, False)", "setup (True, True)"]
    assert lines("M.apply(c, a)\n") == ["forward", "setup (True, False)"]


def test_jvp_reads_only_what_save_for_forward_kept() -> None:
    body = (
        "import torch\n\nclass S(torch.autograd.Function):\n    @staticmethod\n"
        "    def forward(x):\n        return x * 2\n    @staticmethod\n"
        "    def setup_context(ctx, inputs, output):\n        ctx.save_for_backward(inputs[0])\n"
        "{extra}    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
        "    @staticmethod\n    def jvp(ctx, t):\n        print(len(ctx.saved_tensors))\n"
        "        return t * 2\n\n"
        "torch.func.jvp(S.apply, (torch.ones(2),), (torch.ones(2),))\n"
    )
    assert out(body.format(extra="")) == "0\n"
    assert out(body.format(extra="        ctx.save_for_forward(inputs[0], output)\n")) == "2\n"
