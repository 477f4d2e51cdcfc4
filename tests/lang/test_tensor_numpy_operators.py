"""A tensor with a NumPy array under an operator, as PyTorch 2.13 with NumPy 2 (the versions
that install together here) computes it: with the tensor on the left NumPy's arithmetic and
dtypes, wrapped in a tensor (a bool result as uint8, PyTorch's __array_wrap__); with the array
on the left Python's TypeError but for `/` (the tensor's reciprocal times the array); `x op= a`
a new tensor. Expected values are PyTorch's, measured (explore81)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

_PRELUDE = "import numpy as np\nimport torch\nt = torch.tensor([1.0, 2.0])\n"


def out(text: str) -> str:
    return "".join(parse(_PRELUDE + text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize(
    "expr, printed",
    [
        # NumPy's promotion: a 0-d array is not weak, an int64 array with float32 is float64
        ("t + np.array(3.0)", "tensor([4., 5.], dtype=torch.float64)"),
        ("t - np.array([1, 2])", "tensor([0., 0.], dtype=torch.float64)"),
        ("t * np.array([1.5, 2.5], dtype=np.float32)", "tensor([1.5000, 5.0000])"),
        ("t ** np.array(2)", "tensor([1., 4.], dtype=torch.float64)"),
        ("torch.tensor([3, 4]) // np.array(2)", "tensor([1, 2])"),
        (
            "torch.tensor([True, False]) + np.array([True, True])",
            "tensor([1, 1], dtype=torch.uint8)",
        ),
        (
            "torch.tensor([True, False]) & np.array([True, True])",
            "tensor([1, 0], dtype=torch.uint8)",
        ),
        ("np.array(3.0) / torch.tensor([3, 4])", "tensor([1.0000, 0.7500], dtype=torch.float64)"),
        (
            "np.array([1, 2]) / torch.tensor([2.0, 4.0], dtype=torch.float32)",
            "tensor([0.5000, 0.5000], dtype=torch.float64)",
        ),
        ("t == np.array([1.0, 0.0])", "tensor([ True, False])"),
        ("t != np.array([1.0, 0.0])", "True"),
    ],
)
def test_numpy_computes(expr: str, printed: str) -> None:
    assert out(f"print({expr})\n") == printed + "\n"


def test_int_reciprocal_in_float32_first() -> None:
    # 1/3 in float32, then NumPy's float64 product: not float64's 1/3
    assert out("print(np.array(3.0) / torch.tensor([3]))\n") == (
        "tensor([1.0000], dtype=torch.float64)\n"
    )
    assert out("print((np.array(3.0) / torch.tensor([3])).item())\n") == "1.0000000298023224\n"


@pytest.mark.parametrize(
    "expr, words",
    [
        ("np.array([1.0, 2.0]) + t", "Concatenation operation is not implemented for NumPy"),
        ("np.array([1.0, 2.0]) - t", "unsupported operand type(s) for -: 'numpy.ndarray' and"),
        ("np.array(2.0) * t", "unsupported operand type(s) for *: 'numpy.ndarray' and 'Tensor'"),
        ("np.array(2.0) ** t", "unsupported operand type(s) for ** or pow(): 'numpy.ndarray'"),
        ("np.array([1, 2]) & torch.tensor([1, 2])", "for &: 'numpy.ndarray' and 'Tensor'"),
        ("np.array([1.0, 2.0]) < t", "'<' not supported between instances of 'numpy.ndarray'"),
        ("t >= np.array([1.0, 2.0])", "'>=' not supported between instances of 'Tensor' and"),
        ("torch.tensor([True]) - np.array([True])", "numpy boolean subtract, the `-` operator"),
    ],
)
def test_refused(expr: str, words: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(f"y = {expr}\n")
    assert words in e.value.message


def test_augmented_assignment_makes_a_new_tensor() -> None:
    got = out(
        "u = t\nt += np.array([1.0, 1.0])\nprint(t, u, t is u)\n"
        "c = torch.tensor([1, 2])\nc *= np.array([0.5, 0.5])\nprint(c)\n"
        "a = np.array([2.0, 4.0])\na /= torch.tensor([2.0, 8.0])\nprint(type(a).__name__, a)\n"
    )
    assert got == (
        "tensor([2., 3.], dtype=torch.float64) tensor([1., 2.]) False\n"
        "tensor([0.5000, 1.0000], dtype=torch.float64)\n"
        "Tensor tensor([1.0000, 0.5000], dtype=torch.float64)\n"
    )
    with pytest.raises(GradcliError) as e:
        out("a = np.array([1.0])\na *= t[:1]\n")
    assert e.value.message == "unsupported operand type(s) for *=: 'numpy.ndarray' and 'Tensor'"


def test_a_tensor_that_requires_grad_is_not_read() -> None:
    with pytest.raises(GradcliError) as e:
        out("w = torch.ones(2, requires_grad=True)\ny = w * np.array([1.0, 2.0])\n")
    assert "Can't call numpy() on Tensor that requires grad" in e.value.message
    assert out(
        "w = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n"
        "    print(w * np.array([1.0, 2.0]))\n"
    ) == ("tensor([1., 2.], dtype=torch.float64)\n")
