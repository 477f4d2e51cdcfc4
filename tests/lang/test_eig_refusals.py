"""torch.linalg.eigvals gives LAPACK's complex eigenvalues where their order and digits are
PyTorch's (measured: float64, float32 2 x 2), without a gradient; torch.linalg.eig (eigenvector
phases chosen by MKL) and the rest are refused in plain words naming what to write (eigvals,
eigh / eigvalsh, float64). The removed torch.eig / torch.symeig are PyTorch's RuntimeError,
which a program catches."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nA = torch.tensor([[2.0, 1.0], [1.0, 3.0]])\n"


def out(text: str) -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output).splitlines()


def test_eigvals_are_pytorchs() -> None:
    # PyTorch 2.13's text for these programs
    got = out(
        "print(torch.linalg.eigvals(A))\n"
        "print(torch.linalg.eigvals(torch.tensor([[0., -1.], [1., 0.]])))\n"
        "R = torch.tensor([[1., -1.], [1., 1.]], dtype=torch.float64)\n"
        "print(torch.linalg.eigvals(A.double() * R))\n"
    )
    assert got == [
        "tensor([1.3820+0.j, 3.6180+0.j])",
        "tensor([0.+1.j, 0.-1.j])",
        "tensor([2.5000+0.8660j, 2.5000-0.8660j], dtype=torch.complex128)",
    ]


@pytest.mark.parametrize(
    ("call", "words", "hint"),
    [
        ("torch.linalg.eig(A)", "eigenvectors' signs", "torch.linalg.eigh(A)"),
        ("torch.linalg.eigvals(torch.eye(3))", "float32 matrix larger", "A.double()"),
    ],
)
def test_the_rest_is_refused_with_what_to_write(call: str, words: str, hint: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(f"L = {call}\n")
    assert "not supported" in str(e.value) and words in str(e.value)
    assert hint in e.value.hint


def test_removed_eig_and_symeig_are_pytorchs_runtime_errors() -> None:
    got = out(
        "for f in (torch.eig, torch.symeig):\n"
        "    try:\n        f(A)\n    except RuntimeError as e:\n"
        "        print(str(e).splitlines()[0])\n"
        "print(torch.linalg.eigvalsh(A))\n"
    )
    removed = "This function was deprecated since version 1.9 and is now removed."
    assert got[0].startswith(removed) and got[1].startswith(removed)
    assert got[2] == "tensor([1.3820, 3.6180])"
