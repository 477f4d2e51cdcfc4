"""Sparse COO gradients (`core.sparse`): an embedding's weight under `sparse=True`.

The orders of PyTorch's CPU kernels decide float32 sums where an index repeats: coalesce adds
the entries of one index in the order libstdc++'s std::sort leaves them (not their first
order), dense + sparse adds them in turn, and two sparse gradients are merged or concatenated
by whether their values are contiguous. The numbers below were recorded with PyTorch 2.13
(CPU, OMP_NUM_THREADS=1)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.sparse import SparseCOO, add, add_rows, std_sort_order
from gradcli.core.tensor import Tensor
from gradcli.surface import nnfunctional as NF
from tests.helpers.programs import error, out

# torch.tensor(KEYS).sort(0)[1].tolist(), recorded
KEYS = [3, 1, 3, 0, 2, 3, 1, 0, 3, 3, 2, 1, 3, 0, 0, 3, 2, 1, 3, 3, 0]
TORCH_ORDER = [20, 3, 14, 13, 7, 1, 17, 11, 6, 10, 4, 16, 8, 9, 12, 5, 15, 2, 18, 19, 0]


def test_sort_order_is_std_sorts_not_a_stable_one() -> None:
    assert std_sort_order(KEYS) == TORCH_ORDER
    assert std_sort_order(KEYS) != sorted(range(len(KEYS)), key=KEYS.__getitem__)
    assert std_sort_order([0] * 20)[:3] == [10, 19, 18]  # (torch.zeros(20).sort())
    assert std_sort_order([0] * 16) == list(range(16))  # (insertion sort up to 16)


def test_coalesce_sums_in_the_sorted_order() -> None:
    # 1e8, eighteen 1s, -1e8 at one index: PyTorch's coalesce gives 9 (its order), to_dense 0
    # (their own order); a sum in input order, or a stable sort's, gives 0 for both.
    vals = np.array([1e8] + [1.0] * 18 + [-1e8], np.float32)[:, None]
    s = SparseCOO(np.zeros((1, 20), np.int64), vals, (1, 1))
    c = s.coalesce()
    assert c.values.item() == 9.0
    assert c.coalesced and c.nnz == 1
    assert s.dense().item() == 0.0
    assert not s.coalesced  # (a new tensor: the first is left as it was)


def test_coalesce_sorts_indices_and_keeps_distinct_ones() -> None:
    s = SparseCOO(np.array([[4, 1, 4, 0]]), np.arange(8.0).reshape(4, 2), (5, 2))
    c = s.coalesce()
    assert c.indices.tolist() == [[0, 1, 4]]
    assert c.values.tolist() == [[6.0, 7.0], [2.0, 3.0], [4.0, 6.0]]
    np.testing.assert_array_equal(c.dense(), s.dense())


def test_sum_of_two_contiguous_gradients_merges_their_entries() -> None:
    # PyTorch: indices [1,2,4,5,4,3,2,9] then [1,1] gave [1,1,2,4,5,4,3,2,9] (the first pair
    # of 1s summed into one entry, the merge walking both lists as if they were sorted)
    t = SparseCOO(np.array([[1, 2, 4, 5, 4, 3, 2, 9]]), np.ones((8, 1), np.float32), (10, 1))
    s = SparseCOO(np.array([[1, 1]]), np.array([[-2.0], [-3.0]], np.float32), (10, 1))
    r = add(t, s)
    assert r.indices.tolist() == [[1, 1, 2, 4, 5, 4, 3, 2, 9]]
    assert r.values[:2, 0].tolist() == [-1.0, -3.0]
    assert not r.coalesced


def test_sum_with_a_non_contiguous_gradient_concatenates() -> None:
    t = SparseCOO(np.array([[3]]), np.ones((1, 2), np.float32), (5, 2))
    s = SparseCOO(np.array([[1]]), np.ones((1, 2), np.float32), (5, 2), contiguous=False)
    r = add(t, s)
    assert r.indices.tolist() == [[3, 1]]  # (a merge would give [1, 3])
    assert not r.coalesced


def test_dense_plus_sparse_adds_entries_in_turn_fused_with_alpha() -> None:
    d = np.array([[1.0]], np.float32)
    s = SparseCOO(np.zeros((1, 3), np.int64), np.array([[1e8], [1.0], [-1e8]], np.float32), (1, 1))
    add_rows(d, s)
    assert d.item() == 0.0  # ((1 + 1e8) + 1) - 1e8 in float32: in turn, not summed first
    d = np.array([[0.1]], np.float32)
    one = SparseCOO(np.zeros((1, 1), np.int64), np.array([[0.3]], np.float32), (1, 1))
    add_rows(d, one, -0.7)
    fused = np.float32(np.float64(np.float32(0.1)) - np.float64(np.float32(0.7)) * 0.3)
    # (0.3 as float32, times -0.7 as float32, plus 0.1: one rounding)
    exact = np.float64(np.float32(0.1)) + np.float64(np.float32(-0.7)) * np.float64(np.float32(0.3))
    assert d.item() == float(np.float32(exact))
    assert abs(d.item() - float(fused)) < 1e-7


def _embedding_grad(w: Tensor, idx: np.ndarray, up: np.ndarray) -> SparseCOO:
    out = NF.embedding(Tensor(idx), w, sparse=True)
    (out * Tensor(up)).sum().backward()
    return w.grad


def test_sparse_gradient_matches_central_differences() -> None:
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((5, 3))
    idx = np.array([[1, 4, 1], [0, 4, 4]])
    up = rng.standard_normal((2, 3, 3))
    w = Tensor(w0.copy(), requires_grad=True)
    g = _embedding_grad(w, idx, up)
    assert type(g) is SparseCOO
    assert g.indices.tolist() == [[1, 4, 1, 0, 4, 4]]

    def f(v: np.ndarray) -> float:
        return float((v[idx] * up).sum())

    h = 1e-6
    fd = np.zeros_like(w0)
    for i in np.ndindex(w0.shape):
        e = np.zeros_like(w0)
        e[i] = h
        fd[i] = (f(w0 + e) - f(w0 - e)) / (2 * h)
    np.testing.assert_allclose(g.dense(), fd, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(g.coalesce().dense(), fd, rtol=1e-7, atol=1e-8)


def test_padding_row_is_left_out() -> None:
    w = Tensor(np.ones((4, 2), np.float32), requires_grad=True)
    NF.embedding(Tensor(np.array([0, 2, 2, 3])), w, padding_idx=2, sparse=True).sum().backward()
    assert w.grad.indices.tolist() == [[0, 3]]


def test_computed_weight_is_refused() -> None:
    w = Tensor(np.ones((4, 2), np.float32), requires_grad=True)
    with pytest.raises(GradcliError, match="not supported"):
        NF.embedding(Tensor(np.array([0])), w * 2, sparse=True)


SETUP = """import torch
import torch.nn.functional as F
w = torch.tensor([[0.5, -1.25], [2.0, 0.75], [-0.3, 0.1], [1.1, -0.7]], requires_grad=True)
idx = torch.tensor([2, 0, 2, 3, 2])
up = torch.tensor([[0.3, -0.2], [1.7, 0.4], [-0.9, 2.2], [0.05, 0.6], [1.3, -1.1]])
"""


def test_sgd_nesterov_on_sparse_gradients_is_pytorchs_to_the_bit() -> None:
    text = out(
        SETUP
        + """opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True)
for k in range(3):
    opt.zero_grad()
    (F.embedding(idx, w, sparse=True) * up * (k + 1)).sum().backward()
    opt.step()
print(w.tolist())
"""
    )
    recorded = [
        [-1.9750301837921143, -1.8323599100112915],
        [2.0, 0.75],
        [-1.3191300630569458, -1.2103101015090942],
        [1.027204990386963, -1.5735399723052979],
    ]
    assert eval(text) == recorded  # noqa: S307  (a list of floats the program printed)


def test_sparse_adam_is_pytorchs_to_the_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    # (recorded on an AVX2 machine: MKL's float32 sqrt there, `core.vmlsqrt`'s avx2 family)
    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")
    text = out(
        SETUP
        + """opt = torch.optim.SparseAdam([w], lr=0.1, betas=(0.8, 0.9))
for k in range(3):
    opt.zero_grad()
    (F.embedding(idx[k:], w, sparse=True) * up[k:] * (k + 1)).sum().backward()
    opt.step()
print(w.tolist())
"""
    )
    recorded = [
        [0.30313557386398315, -1.4468644857406616],
        [2.0, 0.75],
        [-0.5995442867279053, -0.19010815024375916],
        [0.806594729423523, -0.9934054017066956],
    ]
    assert eval(text) == recorded  # noqa: S307


def test_other_uses_are_refused_plainly() -> None:
    base = SETUP + "F.embedding(idx, w, sparse=True).sum().backward()\n"
    for line in ("print(w.grad * 2)", "print(w.grad.sum())", "print(torch.sum(w.grad))"):
        e = error(base + line)
        assert "not supported" in e.message and "sparse" in e.message
    e = error(base + "torch.optim.Adam([w]).step()")
    assert e.message == "Adam does not support sparse gradients, please consider SparseAdam instead"


def test_sparse_coo_tensor_builds_the_value_pytorch_prints() -> None:
    text = out(
        "import torch\n"
        "s = torch.sparse_coo_tensor([[2, 0, 2]], [1.0, 2.0, 3.0], (4,))\n"
        "print(s.to_dense().tolist(), s.coalesce()._indices().tolist(), s._nnz())\n"
        "r = torch.sparse_coo_tensor([[1, 3]], [[1, 2], [3, 4]])\n"
        "print(r.shape, r.dtype)\n"
    )
    assert text == "[2.0, 0.0, 4.0, 0.0] [[0, 2]] 3\ntorch.Size([4, 2]) torch.int64\n"


def test_sparse_coo_tensor_checks_in_pytorchs_words() -> None:
    e = error("import torch\ntorch.sparse_coo_tensor([[0, 1, 2]], [1.0, 2.0], (3,))")
    assert e.message == (
        "indices and values must have same nnz, but got nnz from indices: 3, nnz from values: 2"
    )
    e = error("import torch\ntorch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3, 2))")
    assert e.message.startswith("'len(size) == sparse_dim + dense_dim' is not satisfied")
    e = error(
        "import torch\nv = torch.ones(1, requires_grad=True)\n"
        "torch.sparse_coo_tensor([[0]], v, (2,))"
    )
    assert "not supported" in e.message


# --- a sparse leaf that requires grad (ops.sparsemm, lang.sparsegrad) ----------------------

SPARSE_LEAF = (
    "import torch\n"
    "a = torch.tensor([[1.5, 0.0, -2.0], [0.0, 0.5, 0.0]], dtype=torch.float64)\n"
    "s = a.to_sparse().requires_grad_()\n"
    "b = torch.tensor([[0.3, -1.0], [2.0, 0.7], [-0.4, 1.1]], dtype=torch.float64,"
    " requires_grad=True)\n"
    "w = torch.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=torch.float64)\n"
)


def _fd(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central finite differences of the scalar f at x (float64)."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up) - f(down)) / (2 * h)
    return g


A0 = np.array([[1.5, 0.0, -2.0], [0.0, 0.5, 0.0]])
B0 = np.array([[0.3, -1.0], [2.0, 0.7], [-0.4, 1.1]])
W0 = np.array([[1.0, -2.0], [0.5, 3.0]])


def test_sparse_mm_gradients_match_finite_differences() -> None:
    text = out(
        SPARSE_LEAF
        + "(torch.sparse.mm(s, b) * w).sum().backward()\n"
        + "print(s.grad.coalesce().indices().tolist(), s.grad.coalesce().values().tolist())\n"
        + "print(b.grad.tolist())\n"
    )
    lines = text.splitlines()
    mask = A0 != 0
    ga = _fd(lambda a: float(((a * mask) @ B0 * W0).sum()), A0)
    gb = _fd(lambda b: float((A0 @ b * W0).sum()), B0)
    assert eval(lines[0].split("] [")[0] + "]") == [[0, 0, 1], [0, 2, 1]]  # noqa: S307
    got_values = eval("[" + lines[0].split("] [", 1)[1])  # noqa: S307
    np.testing.assert_allclose(got_values, ga[mask], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(eval(lines[1]), gb, rtol=1e-6, atol=1e-8)  # noqa: S307


def test_torch_mm_gives_a_sparse_leaf_a_dense_gradient() -> None:
    text = out(SPARSE_LEAF + "(torch.mm(s, b) * w).sum().backward()\nprint(s.grad.tolist())\n")
    ga = _fd(lambda a: float((a @ B0 * W0).sum()), A0)
    np.testing.assert_allclose(eval(text), ga, rtol=1e-6, atol=1e-8)  # noqa: S307


def test_csr_mm_reduce_gradients_match_finite_differences() -> None:
    rows, cols = np.nonzero(A0)
    vals = A0[rows, cols]

    def reduced(b: np.ndarray, how: str) -> np.ndarray:
        out = np.zeros((2, 2))
        for r in range(2):
            prods = [vals[e] * b[cols[e]] for e in range(len(rows)) if rows[e] == r]
            if how == "sum":
                out[r] = np.sum(prods, axis=0)
            elif how == "mean":
                out[r] = np.mean(prods, axis=0)
            else:
                out[r] = (np.max if how == "amax" else np.min)(prods, axis=0)
        return out

    for how in ("sum", "mean", "amax", "amin"):
        text = out(
            SPARSE_LEAF
            + "c = a.to_sparse_csr()\n"
            + f"(torch.sparse.mm(c, b, '{how}') * w).sum().backward()\n"
            + "print(b.grad.tolist())\n"
        )
        gb = _fd(lambda b, how=how: float((reduced(b, how) * W0).sum()), B0)
        np.testing.assert_allclose(eval(text), gb, rtol=1e-6, atol=1e-8)  # noqa: S307


def test_sparse_leaf_refuses_what_it_does_not_differentiate() -> None:
    e = error(SPARSE_LEAF + "s.coalesce().values()\n")
    assert "requires grad is not supported" in e.message
