"""The nodes a create_graph pass records, in the order PyTorch 2.13 records them (measured with
`grad_fn._sequence_nr()`): MulBackward0 makes other's gradient before self's; CosBackward0's
`grad * -self.sin()` makes sin, neg, mul; SigmoidBackwardBackward0 makes output's gradient
`grad * grad_output * (-2 * output + 1)` after grad_output's, right factor first; SiluBackward0's
`grad_output * sigmoid * (1.0 + input * (1.0 - sigmoid))` right factor first too;
MmBackward0 and BmmBackward0 (and a vector times a matrix) mat2's gradient first, MvBackward0
and AddmmBackward0 mat1's; DivBackward0's `-grad * ((self / other) / other)` the quotients
before the negation. A later pass
runs nodes newest first, so this order decides the order of float32 sums where several
gradients meet (PINN losses differentiated a third time printed other last digits; corpus
1021). The values are checked against central differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.graph import ancestors
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn.functional as F\n"


def _env(text: str, dtype: str = "float32") -> dict:
    return parse(HEAD + text, "t.py").run(dtype=dtype).env


def _created(t, since: int) -> list[tuple[int, str]]:
    return sorted((n.seq, n.name()) for n in ancestors([t]) if n.seq > since)


def test_mul_makes_the_other_operands_gradient_first() -> None:
    env = _env(
        "x = torch.tensor([0.5, -1.5], requires_grad=True)\n"
        "y = torch.tensor([2.0, 0.25], requires_grad=True)\n"
        "z = x * y\n"
        "gx, gy = torch.autograd.grad(z.sum(), (x, y), create_graph=True)\n"
    )
    assert env["gy"].node.seq < env["gx"].node.seq


def test_division_records_the_quotients_before_the_negated_gradient() -> None:
    env = _env(
        "x = torch.tensor([0.5, -1.5], requires_grad=True)\n"
        "y = torch.tensor([2.0, 0.25], requires_grad=True)\n"
        "z = x / y\n"
        "gx, gy = torch.autograd.grad((z * z).sum(), (x, y), create_graph=True)\n"
    )
    names = [name for _, name in _created(env["gy"], env["z"].node.seq)]
    assert names[-4:] == ["DivBackward0", "DivBackward0", "NegBackward0", "MulBackward0"]


def test_cos_gradient_records_sin_neg_mul() -> None:
    env = _env(
        "x = torch.tensor([0.5, -1.5], requires_grad=True)\n"
        "c = torch.cos(x)\n"
        "g, = torch.autograd.grad(c.sum(), x, create_graph=True)\n"
    )
    names = [name for _, name in _created(env["g"], env["c"].node.seq)]
    assert names[-3:] == ["SinBackward0", "NegBackward0", "MulBackward0"]


def test_sigmoid_second_pass_records_grad_output_then_the_right_factor() -> None:
    env = _env(
        "x = torch.tensor([0.5, -1.5], requires_grad=True)\n"
        "s = torch.sigmoid(x)\n"
        "g, = torch.autograd.grad((s * s).sum(), x, create_graph=True)\n"
        "h, = torch.autograd.grad(g.sum(), x, create_graph=True)\n"
    )
    names = [name for _, name in _created(env["h"], env["g"].node.seq)]
    # grad_output's gradient (a sigmoid_backward), then output's: (-2 * output + 1) before
    # grad * grad_output, then their product
    assert names[:5] == [
        "SigmoidBackwardBackward0",
        "MulBackward0",
        "AddBackward0",
        "MulBackward0",
        "MulBackward0",
    ]


def test_silu_gradient_records_the_right_factor_first() -> None:
    env = _env(
        "x = torch.tensor([0.5, -1.5], requires_grad=True)\n"
        "a = F.silu(x)\n"
        "g, = torch.autograd.grad(a.sum(), x, create_graph=True)\n"
    )
    names = [name for _, name in _created(env["g"], env["a"].node.seq)]
    assert names == [
        "SigmoidBackward0",
        "RsubBackward1",
        "MulBackward0",
        "AddBackward0",
        "MulBackward0",
        "MulBackward0",
    ]


def _second(act: str, w: float, t: float) -> float:
    """d^2/dt^2 act(w t) = w^2 act''(w t), in float64."""
    u = w * t
    if act == "sin":
        d2 = -np.sin(u)
    elif act == "cos":
        d2 = -np.cos(u)
    elif act == "sigmoid":
        s = 1 / (1 + np.exp(-u))
        d2 = s * (1 - s) * (1 - 2 * s)
    else:  # silu
        s = 1 / (1 + np.exp(-u))
        d2 = s * (1 - s) * (2 + u * (1 - 2 * s))
    return float(w * w * d2)


@pytest.mark.parametrize("act", ["sin", "cos", "sigmoid", "silu"])
def test_third_derivative_matches_central_differences(act: str) -> None:
    fn = {"sin": "torch.sin", "cos": "torch.cos", "sigmoid": "torch.sigmoid", "silu": "F.silu"}
    env = _env(
        "w = torch.tensor(1.3, dtype=torch.float64, requires_grad=True)\n"
        "t = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)\n"
        f"y = {fn[act]}(w * t * (w * 0 + 1))\n"
        "dy, = torch.autograd.grad(y, t, create_graph=True)\n"
        "d2y, = torch.autograd.grad(dy, t, create_graph=True)\n"
        "gw, = torch.autograd.grad(d2y, w)\n",
        dtype="float64",
    )
    eps = 1e-5
    fd = (_second(act, 1.3 + eps, 0.7) - _second(act, 1.3 - eps, 0.7)) / (2 * eps)
    assert env["d2y"].item() == pytest.approx(_second(act, 1.3, 0.7), rel=1e-12)
    assert env["gw"].item() == pytest.approx(fd, rel=1e-7)


PRODUCTS = {
    # (program, which operand's gradient PyTorch makes first)
    "mm": (
        "a = torch.randn(2, 3, requires_grad=True)\nb = torch.randn(3, 4, requires_grad=True)\n"
        "z = a @ b\n",
        "b",
    ),
    "bmm": (
        "a = torch.randn(2, 2, 3, requires_grad=True)\n"
        "b = torch.randn(2, 3, 4, requires_grad=True)\nz = torch.bmm(a, b)\n",
        "b",
    ),
    "vector_matrix": (
        "a = torch.randn(3, requires_grad=True)\n"
        "b = torch.randn(3, 4, requires_grad=True)\nz = a @ b\n",
        "b",
    ),
    "matrix_vector": (
        "a = torch.randn(2, 3, requires_grad=True)\n"
        "b = torch.randn(3, requires_grad=True)\nz = a @ b\n",
        "a",
    ),
    "linear": (
        "a = torch.randn(2, 3, requires_grad=True)\n"
        "b = torch.randn(4, 3, requires_grad=True)\nc = torch.randn(4, requires_grad=True)\n"
        "z = F.linear(a, b, c)\n",
        "a",
    ),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_products_make_their_operands_gradients_in_pytorchs_order(name: str) -> None:
    text, first = PRODUCTS[name]
    env = _env(text + "ga, gb = torch.autograd.grad((z * z).sum(), (a, b), create_graph=True)\n")
    ga, gb = env["ga"], env["gb"]
    # the product each gradient was made by (a transpose after it is the operand's view)
    made = {}
    for key, g in (("a", ga), ("b", gb)):
        products = [n.seq for n in ancestors([g]) if n.op.name in ("matmul", "mul")]
        made[key] = max(products)
    other = "b" if first == "a" else "a"
    assert made[first] < made[other]


def test_gelu_second_pass_records_the_difference_before_grad_times_grad_output() -> None:
    # gelu_double_backward: `ggI * grad * (pdf * 2 - input_sq * pdf)`, its right operands first
    env = _env(
        "x = torch.tensor([0.5, -1.5], requires_grad=True)\n"
        "a = F.gelu(x)\n"
        "g, = torch.autograd.grad((a * a).sum(), x, create_graph=True)\n"
        "h, = torch.autograd.grad(g.sum(), x, create_graph=True)\n"
    )
    nodes = [n for n in ancestors([env["h"]]) if n.seq > env["g"].node.seq]
    sub = next(n for n in nodes if n.name() == "SubBackward0")
    product = next(n for n in nodes if n.op.name == "mul" and sub.out in n.inputs)
    scaled, right = sub.inputs  # pdf * 2, input_sq * pdf
    assert right.node.seq < scaled.node.seq < sub.seq
    assert sub.seq < product.inputs[0].node.seq < product.seq
