"""Transforms with an event dimension (ComposeTransform, IndependentTransform, ReshapeTransform,
StackTransform, CatTransform, AffineTransform(event_dim=1)): log_abs_det_jacobian against
log |det J| of the Jacobian by central differences (float64), TransformedDistribution.log_prob
against the change of variables computed independently, the event dims PyTorch's rules give, and
its errors."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nfrom torch.distributions import Normal, Independent, "
    "TransformedDistribution\nfrom torch.distributions.transforms import (AffineTransform, "
    "CatTransform, ComposeTransform, ExpTransform, IndependentTransform, ReshapeTransform, "
    "SigmoidTransform, StackTransform, TanhTransform)\n"
    "torch.set_default_dtype(torch.float64)\n"
)


def out(text: str) -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float64").output).splitlines()


def floats(line: str) -> np.ndarray:
    return np.array([float(v) for v in line.split()])


# Bijections of R^4 (as a flat vector x), each made of the transforms under test.
FLOWS = {
    "compose_affine_event": "ComposeTransform([AffineTransform(torch.tensor([0.1, -0.2, 0.3, 0.0]),"
    " torch.tensor([1.5, 0.5, -2.0, 1.0]), event_dim=1), TanhTransform()])",
    "independent_exp": "IndependentTransform(ExpTransform(), 1)",
    "stack": "ComposeTransform([ReshapeTransform((4,), (2, 2)), StackTransform([ExpTransform(), "
    "AffineTransform(1.0, 3.0)], dim=1), ReshapeTransform((2, 2), (4,))])",
    "cat_blocks": "CatTransform([IndependentTransform(ExpTransform(), 1), "
    "IndependentTransform(AffineTransform(1.0, 3.0), 1), IndependentTransform(TanhTransform(), 1)"
    "], dim=0, lengths=[2, 1, 1])",
    "nested_compose": "ComposeTransform([ComposeTransform([AffineTransform(0.5, 2.0), "
    "IndependentTransform(SigmoidTransform(), 1)]), ComposeTransform([])])",
}


@pytest.mark.parametrize("flow", FLOWS.values(), ids=FLOWS.keys())
def test_log_abs_det_jacobian_is_log_det_of_the_jacobian(flow: str) -> None:
    lines = out(
        f"t = {flow}\nx = torch.tensor([0.3, -0.7, 0.2, 0.9])\ny = t(x)\n"
        "print(t.log_abs_det_jacobian(x, y).item())\n"
        "print(*t.inv(y).tolist())\n"
        "h = 1e-6\n"
        "for j in range(4):\n    e = torch.zeros(4)\n    e[j] = h\n"
        "    print(*((t(x + e) - t(x - e)) / (2 * h)).tolist())\n"
    )
    ladj = float(lines[0])
    back = floats(lines[1])
    jac = np.array([floats(v) for v in lines[2:6]])
    np.testing.assert_allclose(back, [0.3, -0.7, 0.2, 0.9], rtol=1e-12, atol=1e-12)
    assert abs(ladj - np.log(abs(np.linalg.det(jac)))) < 1e-7


def test_log_prob_is_the_change_of_variables() -> None:
    # y = tanh(loc + scale * x) over vectors of 3, x standard normal: log p(y) = sum of the
    # normal's log density at x minus log |det dy/dx|, computed here from the numbers
    lines = out(
        "loc = torch.tensor([0.1, -0.2, 0.3])\nscale = torch.tensor([1.5, 0.5, 2.0])\n"
        "t = ComposeTransform([AffineTransform(loc, scale, event_dim=1), TanhTransform()])\n"
        "d = TransformedDistribution(Independent(Normal(torch.zeros(3), torch.ones(3)), 1), t)\n"
        "x = torch.tensor([[0.2, -0.4, 0.1], [1.0, 0.3, -0.6]])\ny = t(x)\n"
        "print(*d.log_prob(y).tolist())\nprint(d.batch_shape, d.event_shape)\n"
    )
    x = np.array([[0.2, -0.4, 0.1], [1.0, 0.3, -0.6]])
    loc, scale = np.array([0.1, -0.2, 0.3]), np.array([1.5, 0.5, 2.0])
    u = loc + scale * x
    expected = (-0.5 * x**2 - 0.5 * np.log(2 * np.pi)).sum(1) - (
        np.log(scale) + np.log(1 - np.tanh(u) ** 2)
    ).sum(1)
    np.testing.assert_allclose(floats(lines[0]), expected, rtol=1e-10)
    assert lines[1] == "torch.Size([]) torch.Size([3])"


@pytest.mark.parametrize(
    "made,shapes",
    [
        (
            "TransformedDistribution(Normal(torch.zeros(5, 4), 1.0), "
            "ReshapeTransform((4,), (2, 2)))",
            "torch.Size([5]) torch.Size([2, 2])",
        ),
        (
            "TransformedDistribution(Normal(torch.zeros(5, 4), 1.0), "
            "IndependentTransform(ExpTransform(), 2))",
            "torch.Size([]) torch.Size([5, 4])",
        ),
        (
            "TransformedDistribution(Independent(Normal(torch.zeros(5, 4), 1.0), 1), "
            "ExpTransform())",
            "torch.Size([5]) torch.Size([4])",
        ),
        (
            "TransformedDistribution(Normal(torch.zeros(5, 4), 1.0), "
            "[AffineTransform(0.0, 2.0, event_dim=1), ReshapeTransform((4,), (4, 1))])",
            "torch.Size([5]) torch.Size([4, 1])",
        ),
    ],
)
def test_batch_and_event_shapes_by_pytorchs_rules(made: str, shapes: str) -> None:
    lines = out(
        f"d = {made}\nprint(d.batch_shape, d.event_shape)\nprint(d.log_prob(d.sample()).shape)\n"
    )
    assert lines[0] == shapes
    assert lines[1] == f"torch.Size({shapes.split(') ')[0].removeprefix('torch.Size(')})"


@pytest.mark.parametrize(
    "text,words,kind",
    [
        (
            "ReshapeTransform((3,), (2, 2))",
            "in_shape, out_shape have different numbers of elements",
            "ValueError",
        ),
        (
            "ReshapeTransform((4,), (2, 2)).event_dim",
            "Please use either .domain.event_dim or .codomain.event_dim",
            "ValueError",
        ),
        (
            "ReshapeTransform((4,), (2, 2))(torch.ones(3))",
            "shape '[2, 2]' is invalid for input of size 3",
            "RuntimeError",
        ),
        (
            "StackTransform([ExpTransform()], dim=0)(torch.ones(2, 2))",
            "x.size(0) = 2 must equal len(transforms) 1",
            "AssertionError",
        ),
        (
            "StackTransform([ExpTransform(), 3])",
            "All elements of tseq must be Transform instances",
            "AssertionError",
        ),
        (
            "TransformedDistribution(Normal(torch.zeros(3), 1.0), ReshapeTransform((2, 3), (6,)))",
            "base_distribution needs to have shape with size at least 2, but got torch.Size([3]).",
            "ValueError",
        ),
    ],
)
def test_pytorchs_errors(text: str, words: str, kind: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(text + "\n")
    assert e.value.message == words
    assert e.value.python_class in (kind, None if kind == "RuntimeError" else kind)
