"""jacrev of a function with several outputs: each row is one VJP of all the outputs, the
others' cotangents zeros, as PyTorch's basis over the flattened outputs has it. Where two
outputs' branches meet, their zero contributions are summed in: an entry the rows of one
output alone leave at -0.0 (0 * a negative derivative) is +0.0 in PyTorch's Jacobian, and so
prints `0.0000`, not `-0.0000`. The values are the finite-difference derivatives."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.program import parse
from gradcli.surface import func

PROGRAM = """
import torch
from torch.func import jacrev, vjp
torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64)
y = torch.randn(5, dtype=torch.float64)
def f(a, b):
    return a.sin() * b, a.cos() - b ** 2, (a * b).exp()
ja, jb = [torch.stack(list(t)) for t in zip(*jacrev(f, argnums=(0, 1))(x, y))]
print(ja.flatten().tolist())
print(jb.flatten().tolist())
# the rows of the joint VJP, one output's one-hot and the others' zeros
outs, fn = vjp(f, x, y)
rows_a, rows_b = [], []
for i, o in enumerate(outs):
    for k in range(o.numel()):
        cot = [torch.zeros_like(p) for p in outs]
        cot[i] = torch.zeros_like(o).flatten().index_fill(0, torch.tensor([k]), 1.0).view_as(o)
        ga, gb = fn(tuple(cot))
        rows_a.append(ga)
        rows_b.append(gb)
print(torch.stack(rows_a).flatten().tolist())
print(torch.stack(rows_b).flatten().tolist())
"""


def _lists(batch_from: int, monkeypatch: pytest.MonkeyPatch) -> list[np.ndarray]:
    monkeypatch.setattr(func, "_BATCH_FROM", batch_from)
    out = "".join(parse(PROGRAM, "t.py").run(dtype="float64").output).splitlines()
    return [np.array(eval(line)) for line in out]  # noqa: S307 - lists of floats we printed


@pytest.mark.parametrize("batch_from", [0, 10**9], ids=["batched", "row_by_row"])
def test_rows_are_the_joint_vjps_bit_for_bit(batch_from, monkeypatch):
    ja, jb, ra, rb = _lists(batch_from, monkeypatch)
    for got, want in ((ja, ra), (jb, rb)):
        assert np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))  # zeros' signs included


@pytest.mark.parametrize("batch_from", [0, 10**9], ids=["batched", "row_by_row"])
def test_a_cross_term_of_two_branches_is_plus_zero(batch_from, monkeypatch):
    # sin's row k at j != k: 0 * cos(x_j) from sin's branch (-0.0 where cos < 0) plus
    # 0 * -sin(x_j) from cos's branch (+0.0 where sin < 0): +0.0, as PyTorch prints it
    monkeypatch.setattr(func, "_BATCH_FROM", batch_from)
    prog = (
        "import torch\nfrom torch.func import jacrev\n"
        "x = torch.tensor([1.5, -0.3, -2.2])\n"
        "js, jc = jacrev(lambda v: (v.sin(), v.cos()))(x)\n"
        "print(js.tolist())\nprint(js)\n"
    )
    rows, shown = "".join(parse(prog, "t.py").run(dtype="float32").output).split("\n", 1)
    js = np.array(eval(rows))  # noqa: S307 - a list of floats we printed
    assert js[0, 2] == 0 and not np.signbit(js[0, 2])
    assert "-0.0000" not in shown


def test_values_are_the_finite_difference_derivatives(monkeypatch):
    ja, jb, _, _ = _lists(10**9, monkeypatch)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(5), rng.standard_normal(5)

    def f(a, b):
        return np.concatenate([np.sin(a) * b, np.cos(a) - b**2, np.exp(a * b)])

    del rng
    # the program's inputs: its own seeded tensors (float64), read back from its output
    # would tie the test to torch's generator; the Jacobian's structure is checked instead
    # at points of our own: diagonal blocks, derivatives by central differences
    h = 1e-6
    eye = np.eye(5)
    num_a = np.stack([(f(x + h * e, y) - f(x - h * e, y)) / (2 * h) for e in eye], axis=1)
    num_b = np.stack([(f(x, y + h * e) - f(x, y - h * e)) / (2 * h) for e in eye], axis=1)
    prog = (
        "import torch\nfrom torch.func import jacrev\n"
        f"x = torch.tensor({x.tolist()}, dtype=torch.float64)\n"
        f"y = torch.tensor({y.tolist()}, dtype=torch.float64)\n"
        "def f(a, b):\n    return a.sin() * b, a.cos() - b ** 2, (a * b).exp()\n"
        "ja, jb = [torch.cat(list(t)) for t in zip(*jacrev(f, argnums=(0, 1))(x, y))]\n"
        "print(ja.tolist())\nprint(jb.tolist())\n"
    )
    la, lb = "".join(parse(prog, "t.py").run(dtype="float64").output).splitlines()
    np.testing.assert_allclose(np.array(eval(la)), num_a, rtol=1e-7, atol=1e-8)  # noqa: S307
    np.testing.assert_allclose(np.array(eval(lb)), num_b, rtol=1e-7, atol=1e-8)  # noqa: S307
    assert ja.shape == jb.shape == (75,)


def test_functional_jacobian_vectorized_is_the_joint_vjp_too():
    prog = (
        "import torch\nfrom torch.autograd.functional import jacobian\n"
        "x = torch.tensor([1.5, -0.3, -2.2])\n"
        "f = lambda v: (v.sin(), v.cos())\n"
        "print(jacobian(f, x, vectorize=True)[0].tolist())\n"
        "print(jacobian(f, x)[0].tolist())\n"
    )
    joint, apart = "".join(parse(prog, "t.py").run(dtype="float32").output).splitlines()
    joint, apart = np.array(eval(joint)), np.array(eval(apart))  # noqa: S307
    assert np.array_equal(joint, apart)  # the same numbers
    # sin's cross term at (0, 2): +0.0 summed with cos's branch; -0.0 from sin's alone
    assert not np.signbit(joint[0, 2]) and np.signbit(apart[0, 2])
