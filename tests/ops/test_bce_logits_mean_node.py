"""binary_cross_entropy_with_logits' gradient with reduction='mean', recorded
(create_graph=True), ends in ATen's division by a C++ number, div(Tensor, Scalar):
DivBackward1 (gradcli's showed DivBackward0, explore73), for the input's gradient and the
target's. The second-order values are checked against central finite differences in float64."""

from __future__ import annotations

import json

import numpy as np

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


X0 = [[0.3, -0.7, 2.1], [1.2, 0.1, -1.5]]
T0 = [[1.0, 0.0, 0.25], [0.0, 1.0, 0.5]]
W = [1.0, 2.0, 0.5]


def test_the_mean_gradients_end_in_divbackward1() -> None:
    got = out(
        f"x = torch.tensor({X0}, requires_grad=True)\n"
        f"t = torch.tensor({T0}, requires_grad=True)\n"
        "for red in ('mean', 'sum'):\n"
        "    l = torch.nn.functional.binary_cross_entropy_with_logits(x, t, reduction=red)\n"
        "    gx, gt = torch.autograd.grad(l, (x, t), create_graph=True)\n"
        "    print(gx.grad_fn.name(), gt.grad_fn.name())\n"
    )
    assert got == "DivBackward1 DivBackward1\nMulBackward0 MulBackward0\n"


def test_second_order_matches_finite_differences() -> None:
    got = out(
        f"x = torch.tensor({X0}, dtype=torch.float64, requires_grad=True)\n"
        f"t = torch.tensor({T0}, dtype=torch.float64)\n"
        f"w = torch.tensor({W}, dtype=torch.float64)\n"
        "l = torch.nn.functional.binary_cross_entropy_with_logits(x, t, weight=w)\n"
        "gx, = torch.autograd.grad(l, x, create_graph=True)\n"
        "(gx ** 2).sum().backward()\n"
        "print(x.grad.reshape(-1).tolist())\n"
    )
    x0, t0, w = np.array(X0), np.array(T0), np.array(W)
    n = x0.size

    def phi(x: np.ndarray) -> float:
        gx = (1 / (1 + np.exp(-x)) - t0) * w / n
        return float(np.sum(gx**2))

    h = 1e-6
    fd = []
    for i in range(n):
        e = np.zeros(n)
        e[i] = h
        fd.append((phi(x0 + e.reshape(x0.shape)) - phi(x0 - e.reshape(x0.shape))) / (2 * h))
    np.testing.assert_allclose(json.loads(got), fd, rtol=1e-7, atol=1e-10)
