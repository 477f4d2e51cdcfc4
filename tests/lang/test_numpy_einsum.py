"""`np.einsum` in a program (a lesson's hand-written vector-Jacobian products on NumPy arrays):
NumPy's own values, dtypes and errors, the equation checked and the result's size and the
work bounded before NumPy runs."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError, LimitError
from gradcli.lang.program import parse

HEAD = (
    "import numpy as np\nrng = np.random.RandomState(0)\n"
    "x = rng.random((3, 2)).astype('float32')\nu = rng.random((3, 2))\n"
)


def out(body: str) -> str:
    return "".join(parse(HEAD + body, "t.py").run().output).strip()


rng = np.random.RandomState(0)
X = rng.random((3, 2)).astype("float32")
U = rng.random((3, 2))


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("np.einsum('na,nb-> nab', x, u)", np.einsum("na,nb-> nab", X, U)),
        ("np.einsum('ij,jk', x.T, u)", np.einsum("ij,jk", X.T, U)),
        (
            "np.einsum('ii', np.arange(9).reshape(3, 3))",
            np.einsum("ii", np.arange(9).reshape(3, 3)),
        ),
        ("np.einsum('i,i->', [1, 2, 3], [4, 5, 6])", np.einsum("i,i->", [1, 2, 3], [4, 5, 6])),
        (
            "np.einsum('...i,...i', np.ones((2, 3)), np.ones((4, 1, 3)))",
            np.einsum("...i,...i", np.ones((2, 3)), np.ones((4, 1, 3))),
        ),
    ],
)
def test_numpys_values(expr: str, expected: np.ndarray) -> None:
    assert out(f"r = {expr}\nprint(r, np.shape(r))\n") == f"{expected} {np.shape(expected)}"


def test_numpys_errors_are_catchable() -> None:
    body = (
        "try:\n    np.einsum('ij,jk->ik', np.ones((2, 3)), np.ones((4, 2)))\n"
        "except ValueError as e:\n    print(e)\n"
    )
    with pytest.raises(ValueError) as e:
        np.einsum("ij,jk->ik", np.ones((2, 3)), np.ones((4, 2)))
    assert out(body) == str(e.value).strip()


@pytest.mark.parametrize(
    "expr",
    [
        "a = np.ones((2000, 2000))\nnp.einsum('ij,jk,kl->il', a, a, a)",
        "np.einsum('i,j,k->ijk', np.ones(3000), np.ones(3000), np.ones(3000))",
        "np.einsum('ij,kl->', np.ones((3000, 3000)), np.ones((3000, 3000)))",
    ],
)
def test_size_and_work_are_bounded_before_numpy_runs(expr: str) -> None:
    with pytest.raises(LimitError, match=r"numpy\.einsum\(\)"):
        out(expr + "\n")


def test_a_tensor_is_refused_with_torch_einsum_in_view() -> None:
    with pytest.raises(GradcliError, match="numpy.einsum\\(\\) of a tensor is not supported"):
        out("import torch\nnp.einsum('i', torch.ones(2))\n")
