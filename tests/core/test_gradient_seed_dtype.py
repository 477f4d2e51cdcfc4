"""A gradient given to backward() / autograd.grad of another dtype than its output (an integer
or bool tensor for a float output, float32 for float64) is cast to the output's dtype before
it flows back, as PyTorch's engine does (validate_outputs); a seed in the graph (create_graph)
through a recorded cast. gradcli let an int64 seed through an add or a view, and x.grad came
back int64 (explore73: `y = x + 2; y.backward(torch.tensor([1, 1, 1]))`). Gradients checked
against central finite differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse


def values(text: str) -> list[tuple[list[float], str]]:
    """Each printed line `a b c | dtype`."""
    rows = []
    out = "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)
    for line in out.splitlines():
        nums, dt = line.split("|")
        rows.append(([float(v) for v in nums.split()], dt.strip()))
    return rows


SHOW = (
    "def show(t):\n"
    "    print(' '.join(repr(float(v)) for v in t.reshape(-1).tolist()), '|', t.dtype)\n"
)

SEEDS = {
    "int": ("torch.tensor([1, 2, 3])", [1.0, 2.0, 3.0]),
    "bool": ("torch.tensor([True, False, True])", [1.0, 0.0, 1.0]),
    "float64": ("torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)", [0.5, -1.0, 2.0]),
}
# expressions whose Jacobian is the identity (their backward rules pass the seed through)
IDENTITY = ["x + 2", "x - 1", "x.clone()", "x.view(3, 1).view(3)", "x * 1"]


@pytest.mark.parametrize("seed", sorted(SEEDS))
@pytest.mark.parametrize("expr", IDENTITY)
def test_a_seed_of_another_dtype_comes_back_in_the_leafs_dtype(seed: str, expr: str) -> None:
    text, want = SEEDS[seed]
    got = values(
        SHOW + "x = torch.tensor([0.5, 1.5, -2.0], requires_grad=True)\n"
        f"y = {expr}\ny.backward({text})\nshow(x.grad)\n"
        f"g, = torch.autograd.grad({expr}, x, grad_outputs={text})\nshow(g)\n"
    )
    assert got == [(want, "torch.float32"), (want, "torch.float32")]


def test_an_integer_seed_through_a_nonlinear_function_matches_finite_differences() -> None:
    x0 = np.array([0.3, -1.1, 2.0])
    v = np.array([2, -3, 5])
    (got, dt), (got64, dt64) = values(
        SHOW + f"x = torch.tensor({x0.tolist()}, requires_grad=True)\n"
        f"(x.sin() * 3 + 1).backward(torch.tensor({v.tolist()}))\nshow(x.grad)\n"
        f"d = torch.tensor({x0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        f"(d.sin() * 3 + 1).backward(torch.tensor({v.tolist()}))\nshow(d.grad)\n"
    )

    def f(x: np.ndarray) -> float:
        return float(np.dot(v, np.sin(x) * 3 + 1))

    h = 1e-6
    fd = [(f(x0 + h * e) - f(x0 - h * e)) / (2 * h) for e in np.eye(3)]
    assert dt == "torch.float32" and dt64 == "torch.float64"
    np.testing.assert_allclose(got64, fd, rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-6)


def test_a_seed_in_the_graph_is_cast_through_a_recorded_cast() -> None:
    # g(v) = J^T v for y = x * x (J = diag(2x)): d sum(g) / dv = 2x, in v's own dtype
    x0 = [1.0, 2.0, -0.5]
    got = values(
        SHOW + f"x = torch.tensor({x0}, dtype=torch.float64, requires_grad=True)\n"
        "v = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)\n"
        "g, = torch.autograd.grad(x * x, x, grad_outputs=v, create_graph=True)\n"
        "show(g)\ng.sum().backward()\nshow(v.grad)\n"
    )
    assert got == [
        ([2.0, 12.0, -2.0], "torch.float64"),
        ([2 * a for a in x0], "torch.float32"),
    ]


def test_a_batched_seed_of_another_dtype_is_cast_too() -> None:
    got = values(
        SHOW + "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "g, = torch.autograd.grad(x + 1, x, grad_outputs=torch.eye(2, dtype=torch.int64), "
        "is_grads_batched=True)\nshow(g)\n"
    )
    assert got == [([1.0, 0.0, 0.0, 1.0], "torch.float32")]
