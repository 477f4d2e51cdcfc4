"""An elementwise op lays its result out as PyTorch's TensorIterator does: in the order of the
inputs' strides (`core.op._iteration_order`), so `x.t().tanh()` is transposed like `x.t()`
(strides, `is_contiguous()`, `view` refusing it), whichever kernel computes it (the VML and
SLEEF emulations worked on row-major copies before). The expected strides are PyTorch 2.13's,
printed by the same lines."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core import cpu
from gradcli.core.op import _iteration_order
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_the_order_follows_the_first_input_that_tells_dimensions_apart() -> None:
    c = np.zeros((4, 6), np.float32)
    t = np.zeros((6, 4), np.float32).T
    assert _iteration_order([c]) is None  # row-major: nothing to do
    assert _iteration_order([t]) == (1, 0)
    assert _iteration_order([t, c]) == (1, 0)  # x.t() + y: x's layout
    assert _iteration_order([c, t]) is None  # y + x.t(): row-major
    p = np.zeros((2, 3, 4)).transpose(2, 0, 1)
    assert _iteration_order([p]) == (1, 2, 0)
    assert p.transpose(1, 2, 0).flags.c_contiguous
    # an expanded dimension (stride 0) tells nothing: the next input decides
    e = np.broadcast_to(np.zeros((4, 1)), (4, 6))
    assert _iteration_order([e, t]) == (1, 0)
    assert _iteration_order([e]) is None
    assert _iteration_order([t[::-1]]) is None  # NumPy's negative strides: not modelled


UNARY = (
    "exp",
    "log1p",
    "tanh",
    "sqrt",
    "atan",
    "asinh",
    "erf",
    "erfinv",
    "expm1",
    "log2",
    "log10",
    "lgamma",
    "sigmoid",
    "sin",
    "reciprocal",
    "abs",
)


@pytest.mark.parametrize("family", ["avx2", "avx512"])
def test_unary_results_keep_a_transposed_or_permuted_layout(family: str, monkeypatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", family)
    assert cpu.family() == family
    calls = "".join(
        f"print('{n}', torch.{n}(a).stride(), torch.{n}(b).stride(), "
        f"torch.equal(torch.{n}(a), torch.{n}(a.contiguous())))\n"
        for n in UNARY
    )
    got = out(
        "import torch\ntorch.manual_seed(0)\na = (torch.rand(5, 6) * 0.9 + 0.05).t()\n"
        "b = (torch.rand(2, 3, 4) * 0.9 + 0.05).permute(2, 0, 1)\n" + calls
    )
    assert got == "".join(f"{n} (1, 6) (1, 12, 4) True\n" for n in UNARY)


def test_the_ops_pytorch_lays_out_row_major_and_mixed_layouts() -> None:
    got = out(
        "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "a = torch.rand(5, 6).t() + 0.1\nc = torch.rand(6, 5)\n"
        "print(F.logsigmoid(a).stride(), torch.pow(2.0, a).stride(),\n"
        "      torch.mvlgamma(a + 2, 2).stride())\n"
        "print(torch.atan2(a, c).stride(), torch.atan2(c, a).stride(),\n"
        "      torch.hypot(a, a).stride())\n"
        "print(F.gelu(a).stride(), F.gelu(a, approximate='tanh').stride(), F.silu(a).stride())\n"
        "y = a.exp()\ntry:\n    y.view(-1)\nexcept RuntimeError as e:\n    print(str(e)[:40])\n"
    )
    assert got == (
        "(5, 1) (5, 1) (5, 1)\n(1, 6) (5, 1) (1, 6)\n(1, 6) (1, 6) (1, 6)\n"
        "view size is not compatible with input t\n"
    )


def test_a_tail_is_the_last_elements_in_memory() -> None:
    # 35 elements, transposed: PyTorch's vector loops and their scalar tail follow memory, so
    # the values are those of the row-major computation, transposed (bit for bit)
    got = out(
        "import torch\ntorch.manual_seed(1)\nx = (torch.randn(7, 5) * 3).t()\n"
        "for f in (torch.exp, torch.tanh, torch.atan, torch.asinh, torch.expm1):\n"
        "    print(torch.equal(f(x), f(x.t().contiguous()).t()), f(x).stride())\n"
    )
    assert got == "True (1, 5)\n" * 5


def test_comparisons_and_logical_ops_follow_the_first_input() -> None:
    # PyTorch 2.13 prints these strides for the same lines (NumPy alone gives (5, 1) to all
    # the mixed ones)
    got = out(
        "import torch\ntorch.manual_seed(0)\na = torch.rand(5, 6).t()\nc = torch.rand(6, 5)\n"
        "print((a > c).stride(), (c > a).stride(), (a == c).stride(), torch.ne(a, c).stride())\n"
        "print(torch.logical_and(a > 0.5, c > 0.5).stride(),\n"
        "      torch.logical_or(c > 0.5, a > 0.5).stride())\n"
        "print(((a > 0.5) & (c > 0.5)).stride(), ((a * 9).int() | (c * 9).int()).stride())\n"
        "print(torch.equal(a > c, (a.contiguous() > c)))\n"
    )
    assert got == "(1, 6) (5, 1) (1, 6) (1, 6)\n(1, 6) (5, 1)\n(1, 6) (1, 6)\nTrue\n"
