"""torch.linalg.eig / eigvals return complex tensors in PyTorch and gradcli has no complex dtype:
refused in plain words naming what to write for a symmetric matrix (eigh / eigvalsh). The
removed torch.eig / torch.symeig are PyTorch's RuntimeError, which a program catches."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nA = torch.tensor([[2.0, 1.0], [1.0, 3.0]])\n"


def out(text: str) -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output).splitlines()


@pytest.mark.parametrize("call", ["torch.linalg.eigvals(A)", "torch.linalg.eig(A)"])
def test_complex_eigen_decompositions_are_refused_with_what_to_write(call: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(f"L = {call}\n")
    assert "not supported" in str(e.value) and "complex" in str(e.value)
    assert "torch.linalg.eigh(A)" in e.value.hint and "eigvalsh" in e.value.hint


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
