"""Signs of zero and infinities in two gradients at x = 0 (explore79).

copysign(a, b)'s gradient for a is PyTorch's copysign_tensor_self_backward: g * (out / a) with
the ratio masked_fill'ed to +0 where a == 0, so the zeros there are +0 for a positive g (gradcli
multiplied by a 0/1 mask, keeping out's sign: `-0.` printed where b < 0), and, recorded, the
division's gradients at a == 0 are 0/0: the second derivative there is NaN, as PyTorch's.

logit's backward kernel gives dy * inf at x == 0 in its scalar loop (the elements past its
vector steps), where dy / (x (1 - x)) gives -inf at x = -0.0; the vector loop, the recorded rule
(create_graph, torch.func) and forward mode divide. Values elsewhere are checked against central
finite differences in float64."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


def values(text: str) -> list[float]:
    # a printed list of floats, inf and nan included (float() reads Python's own spellings)
    return [float(v) for v in out(text).strip().strip("[]").split(",")]


def sign(v: float) -> float:
    return math.copysign(1.0, v)


A = [0.0, -0.0, 2.0, -3.0, 0.5]
B = [-1.0, 1.0, -1.0, 1.0, -2.0]
G = [1.0, -1.0, 1.0, -1.0, 2.0]


def test_copysign_gradient_is_positive_zero_times_g_at_zero_and_fd_elsewhere() -> None:
    got = values(
        f"a = torch.tensor({A}, dtype=torch.float64, requires_grad=True)\n"
        f"torch.copysign(a, torch.tensor({B}, dtype=torch.float64)).backward("
        f"torch.tensor({G}, dtype=torch.float64))\n"
        "print(a.grad.tolist())\n"
    )
    h = 1e-6
    for k, (a, b, g) in enumerate(zip(A, B, G)):
        if a == 0.0:
            # masked_fill'ed +0 ratio times g: the zero takes g's sign
            assert got[k] == 0.0 and sign(got[k]) == sign(g), (k, got[k])
        else:
            fd = (math.copysign(a + h, b) - math.copysign(a - h, b)) / (2 * h)
            assert got[k] == pytest.approx(g * fd, rel=1e-9), (k, got[k])


@pytest.mark.parametrize("how", ["jvp", "jacfwd", "jacrev"])
def test_copysign_other_modes_give_positive_zeros_at_zero(how: str) -> None:
    call = {
        "jvp": "torch.func.jvp(f, (a,), (torch.ones(5, dtype=torch.float64),))[1]",
        "jacfwd": "torch.func.jacfwd(f)(a).diagonal()",
        "jacrev": "torch.func.jacrev(f)(a).diagonal()",
    }[how]
    got = values(
        f"b = torch.tensor({B}, dtype=torch.float64)\n"
        "f = lambda t: torch.copysign(t, b)\n"
        f"a = torch.tensor({A}, dtype=torch.float64)\n"
        f"print({call}.tolist())\n"
    )
    for k, (a, b) in enumerate(zip(A, B)):
        if a == 0.0:
            assert got[k] == 0.0 and sign(got[k]) == 1.0, (k, got[k])
        else:
            assert got[k] == math.copysign(1.0, a) * math.copysign(1.0, b), (k, got[k])


def test_copysign_second_derivative_is_nan_at_zero_and_zero_elsewhere() -> None:
    got = values(
        f"a = torch.tensor({A}, dtype=torch.float64, requires_grad=True)\n"
        f"g, = torch.autograd.grad(torch.copysign(a, torch.tensor({B}, dtype=torch.float64)),"
        " a, torch.ones(5, dtype=torch.float64), create_graph=True)\n"
        "print(torch.autograd.grad(g.sum(), a)[0].tolist())\n"
    )
    for k, a in enumerate(A):
        # copysign is piecewise linear: its second derivative is 0 off a == 0
        assert math.isnan(got[k]) if a == 0.0 else got[k] == 0.0, (k, got[k])


@pytest.mark.parametrize("n", [3, 7, 16, 17, 40])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logit_gradient_at_negative_zero_is_plus_inf_in_the_scalar_tail(n: int, dtype: str) -> None:
    from gradcli.ops.special import in_vector_loop_logit

    x = np.linspace(0.05, 0.95, n)
    x[0] = -0.0
    x[-1] = -0.0
    got = values(
        f"x = torch.tensor({x.tolist()}, dtype=torch.{dtype}, requires_grad=True)\n"
        "torch.logit(x).sum().backward()\n"
        "print(x.grad.tolist())\n"
    )
    vector = in_vector_loop_logit(x.astype(dtype))
    h = 1e-7
    for k, v in enumerate(x):
        if v == 0.0:
            # the scalar loop's dy * inf; the vector loop's dy / (-0.0 * 1)
            assert got[k] == (-math.inf if vector[k] else math.inf), (k, got[k])
        else:
            fd = (math.log((v + h) / (1 - v - h)) - math.log((v - h) / (1 - v + h))) / (2 * h)
            assert got[k] == pytest.approx(fd, rel=1e-5), (k, got[k])


@pytest.mark.parametrize(
    "call",
    [
        "torch.autograd.grad(torch.logit(x).sum(), x, create_graph=True)[0]",
        "torch.func.grad(lambda t: torch.logit(t).sum())(x)",
        "torch.func.jvp(torch.logit, (x,), (torch.ones(3),))[1]",
    ],
)
def test_logit_recorded_and_forward_rules_divide_at_negative_zero(call: str) -> None:
    got = values(
        f"x = torch.tensor([-0.0, 0.25, 0.0], requires_grad=True)\nprint({call}.tolist())\n"
    )
    assert got[0] == -math.inf and got[2] == math.inf
    assert got[1] == pytest.approx(1 / (0.25 * 0.75))
