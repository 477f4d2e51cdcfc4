"""Sparse tensors are refused in plain words with what to write instead (dense tensors and
products), whichever way a program reaches them: torch.sparse, Tensor.to_sparse,
torch.sparse_coo_tensor (explore39: a learner's sparse scratch file got no hint)."""

from __future__ import annotations

import pytest

from tests.helpers.programs import error


@pytest.mark.parametrize(
    "line",
    [
        "y = torch.sparse.mm(x, x.t())",
        "y = x.to_sparse()",
        "y = x.to_sparse_coo()",
        "y = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1., 2.]), [3])",
    ],
)
def test_sparse_is_refused_with_the_dense_way(line: str) -> None:
    e = error(f"import torch\nx = torch.ones(2, 3)\n{line}\n")
    assert "is not supported by gradcli" in str(e)
    assert "sparse tensors are not supported by gradcli" in (e.hint or "")
    assert "a @ b" in e.hint
