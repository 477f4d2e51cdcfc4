"""A 0-dim integer tensor used as an index is the integer it holds, as in PyTorch: `x[:, t]`
is a view of `x` (select), so a change in place through it reaches `x` (it was a copy, and
the change was lost in silence). A bool or uint8 0-dim tensor stays a mask; an integer tensor
of one or more dimensions stays an index tensor (a copy)."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float64").output)


def numbers(text: str) -> np.ndarray:
    return np.array([float(v) for v in re.findall(r"-?\d+\.\d*(?:e[-+]?\d+)?", text)])


KEYS = ["t0, :", ":, t0", "t0, t1", "..., t1", "t1", "None, t0", "t0, 1:", "-1, t1"]


@pytest.mark.parametrize("key", KEYS)
def test_index_by_0dim_tensor_is_a_view_like_an_integer(key: str) -> None:
    ints = key.replace("t0", "1").replace("t1", "2")
    text = (
        "m = torch.arange(12.).reshape(3, 4).clone()\n"
        "t0 = torch.tensor(1)\n"
        "t1 = torch.tensor(2)\n"
        f"v = m[{key}]\n"
        "print(v._base is m, v.shape)\n"
        "v.mul_(-10)\n"
        "print(m)\n"
    )
    a = np.arange(12.0).reshape(3, 4)
    exec(f"a[{ints}] *= -10", {"a": a})
    out = run(text)
    assert out.splitlines()[0].startswith("True")
    assert np.array_equal(numbers(out.split("\n", 1)[1]), a.reshape(-1))


@pytest.mark.parametrize(("i", "j"), list(itertools.product(range(-3, 3), range(-4, 4))))
def test_gradient_through_a_change_in_place_of_the_view(i: int, j: int) -> None:
    # y = sin(w); y[ti].mul_(c) with ti = tensor(i); loss = sum(y * k): d/dw by central
    # differences of the same computation in NumPy
    text = (
        "w = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()\n"
        "y = w.sin()\n"
        f"y[torch.tensor({i}), torch.tensor({j})].mul_(3.5)\n"
        f"y[torch.tensor({i})].add_(y[:, torch.tensor({j})].sum())\n"
        "(y * torch.arange(12.).reshape(3, 4)).sum().backward()\n"
        "torch.set_printoptions(precision=10)\n"
        "print(w.grad)\n"
    )

    def f(w: np.ndarray) -> float:
        y = np.sin(w)
        y[i, j] *= 3.5
        y[i] += y[:, j].sum()
        return float((y * np.arange(12.0).reshape(3, 4)).sum())

    w0 = np.linspace(-1, 1, 12).reshape(3, 4)
    num = np.zeros_like(w0)
    h = 1e-6
    for k in range(12):
        e = np.zeros(12)
        e[k] = h
        e = e.reshape(3, 4)
        num.flat[k] = (f(w0 + e) - f(w0 - e)) / (2 * h)
    assert np.allclose(numbers(run(text)), num.reshape(-1), atol=1e-6)


def test_out_of_range_0dim_index_has_the_integer_words() -> None:
    for key in ("torch.tensor(5)", ":, torch.tensor(-5)"):
        with pytest.raises(Exception, match="out of bounds for dimension"):
            run(f"m = torch.zeros(3, 4)\nm[{key}]\n")


def test_masks_and_index_tensors_are_not_integers() -> None:
    out = run(
        "m = torch.arange(6.).reshape(2, 3).clone()\n"
        "b = m[torch.tensor(True)]\n"
        "c = m[torch.tensor([1])]\n"
        "print(b.shape, b._base is m, c.shape, c._base is m)\n"
    )
    assert out == "torch.Size([1, 2, 3]) False torch.Size([1, 3]) False\n"
