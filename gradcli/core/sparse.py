"""A sparse COO gradient: what `F.embedding(..., sparse=True)` gives its weight (PyTorch's
`torch.sparse_coo` layout). Not a sparse tensor library: indices, values and a size, the few
operations a gradient meets (accumulation, coalesce, a dense copy, an optimizer's update),
each in the order of PyTorch's CPU kernels, so float32 sums end in PyTorch's last bits.

`indices` is an int64 array (sparse_dim, nnz); `values` an array (nnz, *dense dims); entries
may repeat an index (uncoalesced) until `coalesce()` sums them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from . import hooks


class SparseCOO:
    __slots__ = (
        "indices",
        "values",
        "shape",
        "coalesced",
        "contiguous",
        "requires_grad",
        "shadow",
        "grad_dense",
        "__weakref__",
    )

    def __init__(
        self,
        indices: np.ndarray,
        values: np.ndarray,
        shape: tuple,
        coalesced: bool = False,
        contiguous: bool = True,
    ) -> None:
        # (entries grow with each backward call that adds to a .grad: bounded as a tensor is)
        limits.TENSOR_ELEMENTS.check(int(np.size(values)), "the values of a sparse gradient")
        self.indices = np.ascontiguousarray(indices, dtype=np.int64)
        self.values = np.array(values)
        hooks.observer.allocated(self.values.nbytes + self.indices.nbytes)
        self.shape = tuple(int(s) for s in shape)
        # (PyTorch marks a tensor of fewer than two entries coalesced when it makes it)
        self.coalesced = bool(coalesced) or self.nnz < 2
        # Whether PyTorch's values tensor is contiguous: an embedding's gradient made from an
        # expanded upstream gradient (that of a sum) is not, and ATen's sums take another
        # path for it (`add`, `add_rows`).
        self.contiguous = contiguous
        # A leaf that requires grad (`s.requires_grad_()`, sparse_coo_tensor(...,
        # requires_grad=True)): its gradient is gathered on `shadow`, a dense leaf of its
        # shape the products that read it take as an input (`ops.sparsemm`); `grad_dense`:
        # a dense gradient reached it (torch.mm's), so its .grad is dense as PyTorch's.
        self.requires_grad = False
        self.shadow: Any = None
        self.grad_dense = False

    # What the interpreter asks of a value: its class as messages name it, len() and
    # indexing (refused: PyTorch's sparse tensors have them, gradcli's gradient does not).
    def program_typename(self) -> str:
        return "Tensor"

    def program_len(self) -> int:
        raise refused("len()")

    def program_getitem(self, key: Any) -> Any:
        raise refused("indexing")

    @property
    def nnz(self) -> int:
        return int(self.indices.shape[1])

    @property
    def dtype(self) -> np.dtype:
        return self.values.dtype

    @property
    def sparse_dim(self) -> int:
        return int(self.indices.shape[0])

    def clone(self) -> SparseCOO:
        """A copy (its values contiguous, as a clone's are)."""
        return SparseCOO(self.indices.copy(), self.values.copy(), self.shape, self.coalesced)

    def set(self, other: SparseCOO) -> None:
        """Take `other`'s entries (an operation in place: names bound to self see them)."""
        self.indices, self.values = other.indices, other.values
        self.coalesced, self.contiguous = other.coalesced, other.contiguous

    def keys(self) -> np.ndarray:
        """Each entry's row-major position among the sparse dims (ATen's flatten_indices)."""
        if self.sparse_dim == 1:
            return self.indices[0]
        lead = self.shape[: self.sparse_dim]
        if math.prod(lead) >= 2**62:
            raise refused("a sparse size of more than 2**62 positions")
        return np.ravel_multi_index(tuple(self.indices), lead)

    def dense(self) -> np.ndarray:
        """to_dense(): zeros, the entries added (`add_rows`)."""
        limits.TENSOR_ELEMENTS.check(math.prod(self.shape), "the elements of to_dense()")
        out = np.zeros(self.shape, self.dtype)
        add_rows(out, self)
        return out

    def scaled(self, alpha: Any) -> SparseCOO:
        """alpha * self (its values multiplied, in their dtype)."""
        vals = self.values * self.dtype.type(alpha)
        return SparseCOO(self.indices.copy(), vals, self.shape, self.coalesced)

    def coalesce(self) -> SparseCOO:
        """A new tensor with each index once, sorted, its entries summed: ATen's CPU coalesce
        sorts the flattened indices with an unstable sort (libstdc++'s std::sort) and adds the
        entries of one index in that sorted order, the first copied."""
        if self.coalesced:
            return self
        keys = self.keys()
        order = np.asarray(std_sort_order(keys), dtype=np.int64)
        sorted_keys = keys[order]
        first = np.ones(len(order), bool)
        first[1:] = sorted_keys[1:] != sorted_keys[:-1]
        group = np.cumsum(first) - 1
        starts = np.flatnonzero(first)
        rank = np.arange(len(order)) - starts[group]
        vals = self.values[order]
        out = np.array(vals[first])
        for r in range(1, int(rank.max()) + 1 if len(order) else 0):
            pick = np.flatnonzero(rank == r)
            out[group[pick]] = out[group[pick]] + vals[pick]
        return SparseCOO(self.indices[:, order[first]], out, self.shape, True)

    def clear(self) -> None:
        """zero_(): no entries left (PyTorch's sparse_resize_and_clear_)."""
        self.indices = np.zeros((self.sparse_dim, 0), np.int64)
        self.values = np.zeros((0, *self.values.shape[1:]), self.dtype)
        self.coalesced = self.contiguous = True


def set_requires_grad(s: SparseCOO, requires_grad: Any = True) -> SparseCOO:
    """`s.requires_grad_(flag)`: a leaf's flag set, as PyTorch's checks it."""
    if requires_grad and s.dtype.kind not in "fc":
        raise GradcliError("only Tensors of floating point dtype can require gradients").pytorch()
    s.requires_grad = bool(requires_grad)
    return s


def _axpy(alpha: Any, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y + alpha * x in x's dtype, one rounding (BLAS axpy: a fused multiply-add)."""
    if alpha == 1:
        return y + x
    from .specfun import fma

    a = np.full(x.shape, alpha, x.dtype)
    return fma(np.ascontiguousarray(x), a, np.ascontiguousarray(y, dtype=x.dtype))


def add(t: SparseCOO, s: SparseCOO, alpha: Any = 1) -> SparseCOO:
    """t + alpha * s, two sparse tensors, as ATen's CPU add: when both values are contiguous,
    a merge of the two entry lists as if both were sorted (equal indices met at the same time
    summed into one entry, zeros + t's + alpha * s's); otherwise the entries concatenated
    (coalesced once there are more of them than elements)."""
    if s.nnz == 0:
        return t.clone()
    if t.nnz == 0:
        return s.scaled(alpha) if alpha != 1 else s.clone()
    if not (t.contiguous and s.contiguous):
        vals = s.values if alpha == 1 else s.values * s.dtype.type(alpha)
        r = SparseCOO(
            np.concatenate([t.indices, s.indices], axis=1),
            np.concatenate([t.values, vals.astype(t.dtype)], axis=0),
            t.shape,
        )
        r.coalesced = False
        if r.nnz > int(np.prod(r.shape)):
            r = r.coalesce()
        return r
    ti = si = 0
    tn, sn = t.nnz, s.nnz
    tk, sk = t.indices.T.tolist(), s.indices.T.tolist()
    rows: list[list[int]] = []
    vals = np.zeros((tn + sn, *t.values.shape[1:]), t.dtype)
    r = 0
    tick = hooks.observer.tick
    while ti < tn or si < sn:
        tick()
        if ti >= tn:
            cmp = -1
        elif si >= sn:
            cmp = 1
        else:
            a, b = tk[ti], sk[si]
            cmp = 1 if a < b else -1 if a > b else 0
        if cmp >= 0:
            rows.append(tk[ti])
            vals[r] = vals[r] + t.values[ti]
            ti += 1
        if cmp <= 0:
            if cmp < 0:
                rows.append(sk[si])
            vals[r] = _axpy(alpha, s.values[si], vals[r])
            si += 1
        r += 1
    return SparseCOO(
        np.array(rows, np.int64).T.reshape(t.sparse_dim, r),
        vals[:r],
        t.shape,
        t.coalesced and s.coalesced,
    )


def add_rows(dense: np.ndarray, s: SparseCOO, alpha: Any = 1) -> None:
    """dense += alpha * s in place, as ATen's CPU dense + sparse: contiguous values are added
    entry after entry (repeated indices in their order); others are coalesced first. Entries
    are taken in rounds of distinct indices (the k-th occurrence of every index in round k):
    the same order of sums."""
    if not s.contiguous:
        s = s.coalesce()
    if s.nnz and (s.indices.min() < 0 or np.any(s.indices.max(axis=1) >= s.shape[: s.sparse_dim])):
        raise NotSupported(
            "a sparse tensor with an index outside its size is not supported by gradcli here "
            "(PyTorch checks it only with check_invariants=True; its result is undefined)",
            hint="give torch.sparse_coo_tensor a size that holds every index",
        )
    keys = s.keys()
    if not keys.size:
        return
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    first = np.ones(len(order), bool)
    first[1:] = sk[1:] != sk[:-1]
    starts = np.flatnonzero(first)
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order)) - starts[np.cumsum(first) - 1]
    lead = dense.reshape((-1,) + dense.shape[s.sparse_dim :])
    vals = s.values.astype(dense.dtype, copy=False)
    for r in range(int(rank.max()) + 1):
        pick = np.flatnonzero(rank == r)
        k = keys[pick]
        lead[k] = _axpy(alpha, vals[pick], lead[k])


def std_sort_order(keys: Any) -> list[int]:
    """The permutation libstdc++'s std::sort leaves when sorting the positions of `keys` by
    key (`core.stdalgo`), which ATen's CPU sort uses: equal keys come out in its order, not
    their first order."""
    from .stdalgo import _StdAlgorithms

    k = [int(v) for v in keys]
    tick = hooks.observer.tick  # (a comparison at a time: the run's clock is watched)

    def less(i: int, j: int) -> bool:
        tick()
        return k[i] < k[j]

    return _StdAlgorithms(len(k), less).sort()


def refused(what: str, csr: bool = False) -> NotSupported:
    """The refusal of what gradcli's sparse gradients (or CSR matrices) do not do."""
    if csr:
        return NotSupported(
            f"{what} on a sparse CSR tensor is not supported by gradcli: it models PyTorch's "
            "CSR matrices for printing, crow_indices()/col_indices()/values(), to_dense(), "
            "to_sparse() and products with a dense matrix",
            hint="call .to_dense() first for the dense tensor",
        )
    return NotSupported(
        f"{what} on a sparse gradient (an embedding's, sparse=True) is not supported by gradcli: "
        "it models PyTorch's sparse COO gradient for printing, to_dense(), coalesce(), "
        "indices()/values(), zero_(), accumulation over backward calls and the SGD and "
        "SparseAdam steps",
        hint="call .to_dense() first for the dense tensor, or write sparse=False",
    )


class SparseCSR:
    """A 2-D sparse tensor in PyTorch's `torch.sparse_csr` layout: its entries row by row
    (`coo`, a coalesced SparseCOO in the same order), `crow` the offsets of each row's first
    entry (rows + 1 of them). Values only: no gradient flows through it."""

    __slots__ = ("coo", "crow", "__weakref__")

    def __init__(self, coo: SparseCOO, crow: np.ndarray | None = None) -> None:
        self.coo = coo
        if crow is None:
            counts = np.bincount(coo.indices[0], minlength=coo.shape[0])
            crow = np.concatenate([[0], np.cumsum(counts)])
        self.crow = np.asarray(crow, np.int64)

    def program_typename(self) -> str:
        return "Tensor"

    def program_len(self) -> int:
        return self.coo.shape[0]

    def program_getitem(self, key: Any) -> Any:
        raise refused("indexing", csr=True)

    @property
    def shape(self) -> tuple:
        return self.coo.shape

    @property
    def dtype(self) -> np.dtype:
        return self.coo.dtype

    @property
    def nnz(self) -> int:
        return self.coo.nnz

    @property
    def col(self) -> np.ndarray:
        return self.coo.indices[1]

    @property
    def values(self) -> np.ndarray:
        return self.coo.values
