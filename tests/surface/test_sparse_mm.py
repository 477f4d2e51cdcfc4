"""The product of a sparse COO matrix and a dense one (`ops.sparsemm`): its gradient with
respect to the dense matrix against central finite differences in float64 (a second
derivative through it too), PyTorch's order of fused multiply-adds, and torch.sparse.sum."""

from __future__ import annotations

import numpy as np

from gradcli.core import autograd
from gradcli.core.sparse import SparseCOO
from gradcli.core.tensor import Tensor
from gradcli.ops.sparsemm import sparse_mm
from gradcli.surface.sparse import sparse_sum, to_sparse

ROWS = np.array([[0, 2, 1, 0, 2, 2], [1, 0, 2, 1, 3, 0]])  # (0, 1) and (2, 0) twice


def _s(dtype: type = np.float64) -> SparseCOO:
    return SparseCOO(ROWS, np.array([0.5, -1.25, 2.0, 0.75, 1.5, 0.3], dtype), (3, 4))


def test_gradient_against_central_differences() -> None:
    rng = np.random.default_rng(2)
    d0 = rng.standard_normal((4, 3))
    w = rng.standard_normal((3, 3))

    def f(d: np.ndarray) -> float:
        y = sparse_mm(_s(), Tensor(d), "MmBackward0").data
        return float((np.tanh(y) * w).sum())

    d = Tensor(d0.copy(), requires_grad=True)
    y = sparse_mm(_s(), d, "SparseAddmmBackward0")
    assert y.node.label == "SparseAddmmBackward0"
    (y.tanh() * Tensor(w)).sum().backward()
    fd = np.zeros_like(d0)
    for idx in np.ndindex(d0.shape):
        up, down = d0.copy(), d0.copy()
        up[idx] += 1e-6
        down[idx] -= 1e-6
        fd[idx] = (f(up) - f(down)) / 2e-6
    np.testing.assert_allclose(d.grad.data, fd, rtol=1e-7, atol=1e-9)


def test_the_gradient_is_differentiable_again() -> None:
    # d/dd of sum((S d)^2) is 2 S^T S d; its gradient again along v is 2 S^T S v
    d = Tensor(np.arange(12.0).reshape(4, 3) / 7, requires_grad=True)
    v = np.linspace(-1, 1, 12).reshape(4, 3)
    y = sparse_mm(_s(), d, "MmBackward0")
    (g,) = autograd.grad([(y * y).sum()], [d], create_graph=True)
    (h,) = autograd.grad([(g * Tensor(v)).sum()], [d])
    dense = _s().dense()
    np.testing.assert_allclose(h.data, 2 * dense.T @ dense @ v, rtol=1e-12)


def test_float32_fused_multiply_adds_in_stored_order() -> None:
    # each entry adds v * d[col] with one rounding, in the stored order of its row
    s = _s(np.float32)
    d = np.linspace(-3, 3, 12, dtype=np.float32).reshape(4, 3) / np.float32(7)
    want = np.zeros((3, 3), np.float32)
    for p in range(ROWS.shape[1]):
        r, c = ROWS[:, p]
        exact = s.values[p].astype(np.float64) * d[c].astype(np.float64) + want[r]
        want[r] = exact.astype(np.float32)
    got = sparse_mm(s, Tensor(d), "MmBackward0").data
    assert got.dtype == np.float32 and (got == want).all()


def test_sum_and_to_sparse() -> None:
    assert float(sparse_sum(_s()).data) == float(_s().values.sum())
    rows = sparse_sum(_s(), 1)
    assert rows.shape == (3,) and rows.coalesced
    np.testing.assert_allclose(rows.dense(), _s().dense().sum(1))
    a = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    s = to_sparse(Tensor(a))
    assert s.coalesced and s.indices.tolist() == [[0, 1, 1], [1, 0, 2]]
    np.testing.assert_array_equal(s.dense(), a)


def test_sparse_softmax_is_the_softmax_of_the_stored_entries() -> None:
    from gradcli.surface.sparse import sparse_log_softmax, sparse_softmax

    s = _s()
    dense = s.coalesce().dense()
    stored = np.zeros(dense.shape, bool)
    stored[tuple(s.coalesce().indices)] = True
    masked = np.where(stored, dense, -np.inf)
    for dim in (0, 1):
        e = np.exp(masked - masked.max(axis=dim, keepdims=True))
        want = np.where(stored, e / e.sum(axis=dim, keepdims=True), 0.0)
        np.testing.assert_allclose(sparse_softmax(s, dim).dense(), want, rtol=1e-14)
        logs = sparse_log_softmax(s, dim)
        np.testing.assert_allclose(np.exp(logs.values), sparse_softmax(s, dim).values, rtol=1e-13)
