"""Sparse operations gradcli lacks are refused in plain words with what to write instead,
whichever way a program reaches them (explore39: a learner's sparse scratch file got no hint).
torch.sparse_coo_tensor and Tensor.to_sparse build the sparse value gradcli models
(tests/surface/test_sparse_grad.py, test_sparse_mm.py): torch.sparse.mm / @ with a dense
matrix, torch.sparse.sum and softmax; other operations on it are refused."""

from __future__ import annotations

from tests.helpers.programs import error


def test_a_sparse_result_is_refused_with_the_dense_way() -> None:
    e = error("import torch\nx = torch.ones(2, 3)\ny = torch.smm(x.to_sparse(), x.t())\n")
    assert "is not supported by gradcli" in str(e)
    assert "torch.sparse.mm(a, b)" in (e.hint or "")


def test_operations_on_a_built_sparse_tensor_are_refused() -> None:
    e = error(
        "import torch\ny = torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1., 2.]),"
        " [3])\nz = y @ y\n"
    )
    assert "not supported by gradcli" in e.message
    assert "to_dense()" in (e.hint or "")
