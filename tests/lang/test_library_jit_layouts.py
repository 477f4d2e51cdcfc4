"""torch.library ops, torch.jit results and memory formats (fixmeasb, session 38): the rules
the corpus programs 1870-1873 do not pin down one by one."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.layout import format_strides, suggested_format
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


# c10's is_channels_last_strides_2d/3d, as PyTorch 2.13's suggest_memory_format answered for
# tensors made with torch.empty_strided (ambiguous N111 / N1H1 / 1C1W cases included).
@pytest.mark.parametrize(
    ("shape", "strides", "expected"),
    [
        ((2, 3, 4, 5), (60, 20, 5, 1), "contiguous"),
        ((2, 3, 4, 5), (60, 1, 15, 3), "channels_last"),
        ((4, 1, 1, 1), (1, 1, 1, 1), "contiguous"),
        ((4, 1, 1, 5), (5, 5, 5, 1), "contiguous"),
        ((3, 1, 5, 1), (5, 1, 1, 1), "channels_last"),
        ((3, 1, 5, 1), (5, 5, 1, 1), "contiguous"),
        ((1, 3, 1, 4), (12, 4, 4, 1), "contiguous"),
        ((1, 4, 1, 3), (12, 1, 12, 4), "channels_last"),
        ((2, 3, 4, 5), (60, 0, 15, 3), "contiguous"),
        ((2, 3, 4, 5), (1, 2, 6, 24), "contiguous"),
        ((2, 3, 4, 5, 6), (360, 1, 90, 18, 3), "channels_last_3d"),
        ((2, 3, 4, 5, 6), (360, 120, 30, 6, 1), "contiguous"),
    ],
)
def test_suggested_format_is_c10s(shape: tuple, strides: tuple, expected: str) -> None:
    assert suggested_format(shape, strides) == expected


def test_format_strides() -> None:
    assert format_strides((10, 3, 32, 32), "channels_last") == (3072, 1, 96, 3)
    assert format_strides((2, 3, 2, 2, 2), "channels_last_3d") == (24, 1, 12, 6, 3)
    assert format_strides((4, 1, 4, 4), "channels_last") == (16, 1, 4, 1)


OP = (
    "import torch\n"
    "@torch.library.custom_op('t::f', mutates_args=())\n"
    "def f(x: torch.Tensor) -> torch.Tensor:\n    return x * x\n"
)


def test_the_registered_backward_is_the_ops_gradient_right_or_not() -> None:
    # PyTorch uses what register_autograd gives, even a formula that is not the derivative
    got = run(
        OP + "f.register_autograd(lambda ctx, g: g * 10)\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\nf(x).sum().backward()\nprint(x.grad)\n"
    )
    assert got == "tensor([10., 10.])\n"


def test_ops_of_one_run_are_not_the_next_runs() -> None:
    program = parse(OP + "print(torch.ops.t.f(torch.ones(1) * 3))\n", "t.py")
    assert "".join(program.run(dtype="float32").output) == "tensor([9.])\n"
    assert "".join(program.run(dtype="float32").output) == "tensor([9.])\n"
    with pytest.raises(GradcliError, match=r"torch\.ops\.t"):
        run("import torch\nprint(torch.ops.t.f(torch.ones(1)))\n")


def test_a_traced_module_keeps_the_mode_it_was_traced_in_and_a_scripted_one_follows() -> None:
    got = run(
        "import torch\ntorch.manual_seed(0)\n"
        "m = torch.nn.Dropout(0.5)\nm.eval()\n"
        "t = torch.jit.trace(m, torch.ones(4))\ns = torch.jit.script(m)\n"
        "t.train()\ns.train()\n"
        "print(t(torch.ones(4)), m.training, (s(torch.ones(1000)) == 0).any().item())\n"
    )
    assert got == "tensor([1., 1., 1., 1.]) False True\n"
