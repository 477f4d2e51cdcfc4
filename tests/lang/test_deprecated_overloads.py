"""PyTorch's deprecated overloads with a leading Number (`torch.addmm(beta, M, alpha, m1, m2)`,
`M.addmm_(beta, m1, m2)`, `v.addcmul_(value, t1, t2)`): the values and gradients of the current
form, one warning per run in PyTorch's text (the torch function's or the method's), and
PyTorch's refusals of the combinations it has no overload for."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse
from gradcli.surface.overloads import warning_text

HEAD = (
    "import torch\ntorch.manual_seed(1)\nM = torch.randn(2, 2, dtype=torch.float64)\n"
    "a = torch.randn(2, 3, dtype=torch.float64)\nb = torch.randn(3, 2, dtype=torch.float64)\n"
    "o = torch.randn(2, dtype=torch.float64)\nv = torch.randn(3, dtype=torch.float64)\n"
    "B = torch.randn(2, 2, 2, dtype=torch.float64)\n"
    "b1 = torch.randn(2, 2, 3, dtype=torch.float64)\n"
    "b2 = torch.randn(2, 3, 2, dtype=torch.float64)\n"
)


def run(text: str) -> tuple[list[str], list[str]]:
    r = parse(HEAD + text, "t.py").run(dtype="float64")
    return "".join(r.output).splitlines(), [str(w) for w in r.warnings]


PAIRS = [
    ("torch.addmm(0.5, M, 2.0, a, b)", "torch.addmm(M, a, b, beta=0.5, alpha=2.0)"),
    ("torch.addmm(0.5, M, a, b)", "torch.addmm(M, a, b, beta=0.5)"),
    ("M.addmm(0.5, 2.0, a, b)", "M.addmm(a, b, beta=0.5, alpha=2.0)"),
    ("M.addmm(-1, a, b)", "M.addmm(a, b, beta=-1)"),
    ("M.clone().addmm_(3, 0.5, a, b)", "M.clone().addmm_(a, b, beta=3, alpha=0.5)"),
    ("torch.addmv(2, o, 3, a, v)", "torch.addmv(o, a, v, beta=2, alpha=3)"),
    ("o.addmv(0.5, a, v)", "o.addmv(a, v, beta=0.5)"),
    ("torch.addr(1.5, M, 0.5, o, o)", "torch.addr(M, o, o, beta=1.5, alpha=0.5)"),
    ("M.addr(2, o, o)", "M.addr(o, o, beta=2)"),
    ("torch.baddbmm(0.5, B, 2, b1, b2)", "torch.baddbmm(B, b1, b2, beta=0.5, alpha=2)"),
    ("B.baddbmm(0.25, b1, b2)", "B.baddbmm(b1, b2, beta=0.25)"),
    ("torch.addbmm(1, M, 0.5, b1, b2)", "torch.addbmm(M, b1, b2, alpha=0.5)"),
    ("M.clone().addbmm_(2, b1, b2)", "M.clone().addbmm_(b1, b2, beta=2)"),
    ("torch.addcmul(o, 0.5, o, o)", "torch.addcmul(o, o, o, value=0.5)"),
    ("o.clone().addcdiv_(-2, o, o + 3)", "o.clone().addcdiv_(o, o + 3, value=-2)"),
]


@pytest.mark.parametrize("old,new", PAIRS)
def test_the_deprecated_form_is_the_current_one(old: str, new: str) -> None:
    lines, warnings = run(f"print(torch.equal({old}, {new}))\nprint({old})\n")
    assert lines[0] == "True" and len(lines) > 1
    assert len(warnings) == 1 and "This overload of" in warnings[0]


def test_gradients_flow_as_through_the_current_form() -> None:
    lines, _ = run(
        "x = a.clone().requires_grad_()\ntorch.addmm(0.5, M, 2.0, x, b).pow(2).sum().backward()\n"
        "g1 = x.grad.clone()\nx.grad = None\n"
        "torch.addmm(M, x, b, beta=0.5, alpha=2.0).pow(2).sum().backward()\n"
        "print(torch.equal(g1, x.grad), g1.abs().sum().item() > 0)\n"
    )
    assert lines == ["True True"]


def test_one_warning_per_run_in_the_words_of_the_form_used() -> None:
    _, warnings = run(
        "x = M.addmm_(0.5, a, b)\ny = torch.addmm(0.5, M, a, b)\nz = o.addmv(1, a, v)\n"
    )
    assert len(warnings) == 1
    assert warning_text("addmm_", True, False) in warnings[0]
    assert "addmm_(Number beta, Tensor mat1, Tensor mat2)" in warnings[0]
    _, warnings = run("y = torch.addmm(0.5, M, 2.0, a, b)\n")
    assert (
        "addmm(Number beta, Tensor input, Number alpha, Tensor mat1, Tensor mat2, *, "
        "Tensor out = None)" in warnings[0]
    )
    assert "torch.dtype out_dtype" in warnings[0] and "python_arg_parser.cpp:1841" in warnings[0]


@pytest.mark.parametrize(
    "text",
    [
        "torch.addmm(M, 0.5, a, b)",  # the method's form is not torch's
        "torch.addmm(0.5, M, a, b, beta=2)",
        "M.addmm(0.5, a, b, c=1)",
        "torch.addmm(0.5, M, a, 2, b)",
        "torch.addmm(0.5, M, 2, 3, a, b)",
    ],
)
def test_combinations_pytorch_has_no_overload_for(text: str) -> None:
    with pytest.raises(GradcliError) as e:
        run(text + "\n")
    assert e.value.python_class == "TypeError"
