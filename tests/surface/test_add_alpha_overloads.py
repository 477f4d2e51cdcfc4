"""add/sub's alpha as PyTorch's argument parser and ATen take it: the deprecated
`add(Number alpha, Tensor other)` (hand-written optimizers' `p.data.add_(-lr, grad)`), taken
with one warning a process; a positional alpha after a tensor, and `alpha=` beside the
deprecated form, refused with the parser's words; subtract without the deprecated overload;
ATen's checks of a Boolean or floating alpha against the result's dtype (corpus 1180 holds
PyTorch's printed text)."""

from __future__ import annotations

import pytest

from tests.helpers.programs import out


def _run(expr: str) -> str:
    text = (
        "import torch\n"
        "a = torch.tensor([1.0, 2.0])\n"
        "b = torch.tensor([10.0, 20.0])\n"
        "try:\n"
        f"    print({expr})\n"
        "except (TypeError, RuntimeError) as e:\n"
        "    print(type(e).__name__, str(e).splitlines()[0])\n"
    )
    return out(text).strip()


def test_deprecated_overload_is_the_keyword_form_with_its_gradient() -> None:
    text = (
        "import torch\n"
        "x = torch.tensor([1.0, -2.0], requires_grad=True)\n"
        "g = torch.tensor([0.5, 3.0], requires_grad=True)\n"
        "y = x.add(-0.25, g) * x\n"
        "y.sum().backward()\n"
        "print(y.tolist(), x.grad.tolist(), g.grad.tolist())\n"
        "x2 = x.detach().requires_grad_()\n"
        "g2 = g.detach().requires_grad_()\n"
        "y2 = x2.add(g2, alpha=-0.25) * x2\n"
        "y2.sum().backward()\n"
        "print(y2.tolist(), x2.grad.tolist(), g2.grad.tolist())\n"
    )
    first, second = out(text).splitlines()
    assert first == second
    # (x - g/4) * x; d/dx = 2x - g/4, d/dg = -x/4 (as PyTorch prints)
    assert second == "[0.875, 5.5] [1.875, -4.75] [-0.25, 0.5]"


def test_one_warning_for_every_deprecated_overload() -> None:
    text = (
        "import torch, warnings\n"
        "p = torch.ones(2)\n"
        "g = torch.tensor([1.0, 2.0])\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    p.add_(-0.5, g)\n"
        "    p.sub_(0.5, g)\n"
        "    p.addcmul_(0.1, g, g)\n"
        "    print(len(w), str(w[0].message).splitlines()[:2])\n"
        "print(p.tolist())\n"
    )
    lines = out(text).splitlines()
    assert (
        lines[0]
        == "1 ['This overload of add_ is deprecated:', '\\tadd_(Number alpha, Tensor other)']"
    )
    assert lines[1] == "[0.10000000149011612, -0.6000000238418579]"


@pytest.mark.parametrize(
    ("expr", "want"),
    [
        ("torch.add(a, 2, b)", "tensor([21., 42.])"),
        ("torch.sub(a, 2, b)", "tensor([-19., -38.])"),
        ("a.add(torch.tensor(2.0), b)", "tensor([21., 42.])"),
        ("torch.subtract(a, 2, 3)", "tensor([-5., -4.])"),
        ("torch.add(a, b, 2)", "TypeError add() takes 2 positional arguments but 3 were given"),
        ("a.sub(b, 2)", "TypeError sub() takes 1 positional argument but 2 were given"),
        ("a.clone().add_(b, 2)", "TypeError add_() takes 1 positional argument but 2 were given"),
        (
            "torch.add(a, 2, b, alpha=1)",
            "TypeError add() takes 2 positional arguments but 3 were given",
        ),
        (
            "a.clone().sub_(2, b, alpha=2)",
            "TypeError sub_() received an invalid combination of arguments - got unrecognized "
            "keyword arguments: alpha",
        ),
        (
            "a.add(torch.tensor([2.0]), b)",
            "TypeError add() takes 1 positional argument but 2 were given",
        ),
        (
            "torch.subtract(a, 2, b)",
            "TypeError subtract() received an invalid combination of arguments - got (Tensor, "
            "int, Tensor), but expected one of:",
        ),
        (
            "a.clone().subtract_(b, 2)",
            "TypeError subtract_() received an invalid combination of arguments - got (Tensor, "
            "int), but expected one of:",
        ),
        ("a.add(b, alpha=True)", "RuntimeError Boolean alpha only supported for Boolean results."),
        (
            "a.long().sub(True, b.long())",
            "RuntimeError Boolean alpha only supported for Boolean results.",
        ),
        (
            "a.long().add(b.long(), alpha=0.5)",
            "RuntimeError For integral input tensors, argument alpha must not be a floating "
            "point number.",
        ),
        ("a.long().add(b, alpha=0.5)", "tensor([ 6., 12.])"),
        ("a.bool().add(b.bool(), alpha=True)", "tensor([True, True])"),
    ],
)
def test_alpha_as_pytorch_takes_it(expr: str, want: str) -> None:
    assert _run(expr) == want
