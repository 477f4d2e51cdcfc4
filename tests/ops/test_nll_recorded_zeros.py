"""nll_loss's recorded gradient (create_graph=True, torch.func.grad / jacrev) is written only
at the kept targets, into zeros, as ATen's nll_loss_backward: +0.0 at the other classes and
at ignored rows (gradcli's product with the one-hot mask gave -0.0 there, printed `-0.`, and
NaN for an infinite upstream gradient; explore73). Values checked against central finite
differences in float64."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(
        parse("import torch\nimport torch.nn.functional as F\n" + text, "t.py")
        .run(dtype="float32")
        .output
    )


X0 = [[0.3, -0.7, 1.2], [0.1, 0.2, -0.4], [2.0, -1.0, 0.5]]
T0 = [2, -100, 0]
W = [0.5, 2.0, 1.5]


def nll(x: np.ndarray, reduction: str, weight: list[float] | None) -> float:
    w = np.ones(3) if weight is None else np.array(weight)
    kept = [(i, t) for i, t in enumerate(T0) if t != -100]
    picked = [-x[i, t] * w[t] for i, t in kept]
    if reduction == "sum":
        return float(np.sum(picked))
    return float(np.sum(picked) / np.sum([w[t] for _, t in kept]))


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("weight", [None, W])
@pytest.mark.parametrize("how", ["create_graph", "func"])
def test_zeros_are_positive_and_values_match_finite_differences(reduction, weight, how) -> None:
    kw = f"reduction='{reduction}'" + (
        "" if weight is None else f", weight=torch.tensor({W}, dtype=torch.float64)"
    )
    call = f"F.nll_loss(a, torch.tensor({T0}), {kw})"
    if how == "create_graph":
        grad = f"torch.autograd.grad({call.replace('a,', 'x,')}, x, create_graph=True)[0]"
    else:
        grad = f"torch.func.grad(lambda a: {call})(x)"
    got = json.loads(
        out(
            f"x = torch.tensor({X0}, dtype=torch.float64, requires_grad=True)\n"
            f"print({grad}.reshape(-1).tolist())\n"
        )
    )
    x0 = np.array(X0)
    h = 1e-6
    for k, v in enumerate(got):
        e = np.zeros(x0.size)
        e[k] = h
        fd = (
            nll(x0 + e.reshape(3, 3), reduction, weight)
            - nll(x0 - e.reshape(3, 3), reduction, weight)
        ) / (2 * h)
        assert v == pytest.approx(fd, rel=1e-7, abs=1e-9)
        if fd == 0.0:
            assert math.copysign(1.0, v) == 1.0, (k, v)


def test_an_infinite_upstream_gradient_leaves_the_other_classes_zero() -> None:
    got = out(
        f"x = torch.tensor({X0}, requires_grad=True)\n"
        f"l = F.nll_loss(x, torch.tensor({T0}), reduction='none').sum() * float('inf')\n"
        "print(torch.autograd.grad(l, x, create_graph=True)[0].reshape(-1).tolist())\n"
    )
    assert got.strip() == str([0.0, 0.0, -math.inf, 0.0, 0.0, 0.0, -math.inf, 0.0, 0.0])
