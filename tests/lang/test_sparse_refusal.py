"""Sparse operations are refused in plain words with what to write instead (dense tensors and
products), whichever way a program reaches them: torch.sparse, Tensor.to_sparse (explore39: a
learner's sparse scratch file got no hint). torch.sparse_coo_tensor builds the sparse value
gradcli models (tests/surface/test_sparse_grad.py); operations on it are refused."""

from __future__ import annotations

import pytest

from tests.helpers.programs import error


@pytest.mark.parametrize(
    "line",
    [
        "y = torch.sparse.mm(x, x.t())",
        "y = x.to_sparse()",
        "y = x.to_sparse_coo()",
    ],
)
def test_sparse_is_refused_with_the_dense_way(line: str) -> None:
    e = error(f"import torch\nx = torch.ones(2, 3)\n{line}\n")
    assert "is not supported by gradcli" in str(e)
    assert "sparse tensors are not supported by gradcli" in (e.hint or "")
    assert "a @ b" in e.hint


def test_operations_on_a_built_sparse_tensor_are_refused() -> None:
    e = error(
        "import torch\ny = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1., 2.]),"
        " [3])\nz = y @ y\n"
    )
    assert "not supported by gradcli" in e.message
    assert "to_dense()" in (e.hint or "")
