"""`torch.nn.utils.rnn`'s packed sequences: PackedSequence, pack_padded_sequence,
pad_packed_sequence, pack_sequence, unpack_sequence, unpad_sequence.

A PackedSequence holds the steps of a batch of sequences of decreasing lengths one after
another: the first step of every sequence, then the second step of those that have one, ...;
`batch_sizes[t]` says how many sequences have a step t. The packing and padding are made of
gradcli's recorded indexing operations (one gather, one scatter), so gradients flow through
them; their results show PyTorch's grad_fn names (PackPaddedSequenceBackward0, CopySlices,
IndexSelectBackward0 for the reordering of unsorted batches, IndexBackward0 for unpadding).
The recurrent modules run a packed batch as ATen's packed layers do (recurrent.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core import hooks
from ..core.op import apply
from ..core.tensor import Tensor, typename
from ..ops import shape as S
from . import functional as F
from .printing import format_value
from .rearrange import index_select

FIELDS = ("data", "batch_sizes", "sorted_indices", "unsorted_indices")


def _err(message: str, kind: str = "RuntimeError") -> GradcliError:
    return GradcliError(message).mirror(kind)


def _long(values: Any) -> Tensor:
    return Tensor(np.asarray(values, dtype=np.int64))


class PackedSequence(tuple):
    """`torch.nn.utils.rnn.PackedSequence`: a named 4-tuple (data, batch_sizes, sorted_indices,
    unsorted_indices), printed as PyTorch's namedtuple prints."""

    def __new__(
        cls, data: Any, batch_sizes: Any, sorted_indices: Any, unsorted_indices: Any
    ) -> PackedSequence:
        return super().__new__(cls, (data, batch_sizes, sorted_indices, unsorted_indices))

    def __getnewargs__(self) -> tuple:
        return tuple(self)

    @property
    def data(self) -> Any:
        return self[0]

    @property
    def batch_sizes(self) -> Any:
        return self[1]

    @property
    def sorted_indices(self) -> Any:
        return self[2]

    @property
    def unsorted_indices(self) -> Any:
        return self[3]

    def _with_data(self, data: Any) -> PackedSequence:
        if data is self.data:
            return self
        return PackedSequence(data, *self[1:])

    # What a program may reach (the runtime wraps the methods): the fields, and the methods
    # of PyTorch's PackedSequence that mean something on the CPU.
    PROGRAM_ATTRIBUTES = (*FIELDS, "is_cuda", "to", "float", "double", "cpu", "is_pinned")

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        from .names import _to

        return self._with_data(_to(self.data, *args, **kwargs))

    def _cast(self, dtype: Any) -> PackedSequence:
        if self.data.dtype == dtype:
            return self
        return self._with_data(F.to_dtype(self.data, dtype))

    def float(self) -> PackedSequence:
        return self._cast(np.dtype(np.float32))

    def double(self) -> PackedSequence:
        return self._cast(np.dtype(np.float64))

    def cpu(self, *args: Any, **kwargs: Any) -> PackedSequence:
        return self

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False

    def program_typename(self) -> str:
        return "PackedSequence"

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={_shown(v)}" for f, v in zip(FIELDS, self))
        return f"PackedSequence({inner})"

    __str__ = __repr__


def _shown(v: Any) -> str:
    if isinstance(v, str):
        return repr(v)
    return format_value(v)


# --- lengths and indices --------------------------------------------------------------------


def _lengths(lengths: Any) -> np.ndarray:
    """`torch.as_tensor(lengths, dtype=torch.int64)`, then ATen's check of it."""
    if isinstance(lengths, Tensor):
        arr = lengths.data
    elif isinstance(lengths, np.ndarray) and lengths.dtype.kind in "biuf":
        arr = lengths  # `seq_lengths.cpu().numpy()`, as tutorials pass them
    else:
        try:
            items = list(lengths) if isinstance(lengths, (list, tuple)) else lengths
            if isinstance(items, list):
                limits.LIST_ITEMS.check(len(items), "the lengths")
                vals = [
                    v.data.item() if isinstance(v, Tensor) and v.data.size == 1 else v
                    for v in items
                ]
                if not all(isinstance(v, (int, float, np.integer, np.floating)) for v in vals):
                    raise TypeError
                arr = np.asarray(vals)
            elif isinstance(items, (int, float, np.integer, np.floating)) and not isinstance(
                items, bool
            ):
                arr = np.asarray(items)
            else:
                raise TypeError
        except TypeError:
            raise _err(
                f"as_tensor(): could not convert the lengths ({typename(lengths)}) to a tensor",
                "TypeError",
            ) from None
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise _err("value cannot be converted to type int64 without overflow")
    arr = arr.astype(np.int64) if arr.dtype.kind in "biuf" else arr
    if arr.ndim != 1:
        raise _err(
            f"'lengths' argument should be a 1D CPU int64 tensor, but got {arr.ndim}D cpu Long "
            "tensor"
        )
    return arr


def _inverse(order: np.ndarray) -> np.ndarray:
    inv = np.empty_like(order)
    inv[order] = np.arange(order.size, dtype=order.dtype)
    return inv


def _index_tensor(v: Any, what: str) -> np.ndarray | None:
    if v is None:
        return None
    if not isinstance(v, Tensor) or v.dtype.kind not in "iu":
        raise _err(f"PackedSequence: {what} must be an integer tensor or None, not {typename(v)}")
    return v.data.astype(np.int64).reshape(-1)


def _dim_error(dim: int, ndim: int) -> GradcliError:
    if ndim == 0:
        return _err(f"Dimension specified as {dim} but tensor has no dimensions", "IndexError")
    return _err(
        f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})",
        "IndexError",
    )


# --- packing ---------------------------------------------------------------------------------


def pack_padded_sequence(
    input: Any,  # noqa: A002 - PyTorch's name
    lengths: Any,
    batch_first: Any = False,
    enforce_sorted: Any = True,
) -> PackedSequence:
    if not isinstance(input, Tensor):
        raise _err(
            "_pack_padded_sequence(): argument 'input' (position 1) must be Tensor, not "
            + typename(input),
            "TypeError",
        )
    x = input
    n = _lengths(lengths)
    sorted_indices = None
    if not enforce_sorted:
        if n.ndim == 1:
            order = np.argsort(-n, kind="stable")
            n = n[order]
            sorted_indices = _long(order)
            batch_dim = 0 if batch_first else 1
            if x.ndim <= batch_dim:
                raise _dim_error(batch_dim, x.ndim)
            x = index_select(x, batch_dim, sorted_indices)
    if batch_first:
        if x.ndim < 2:
            raise _dim_error(1, x.ndim)
        x = F.transpose(x, 0, 1)
    if x.ndim < 2:
        raise _dim_error(1, x.ndim)
    if x.data.size == 0:
        raise _err("Cannot pack empty tensors.")
    steps, batch = x.shape[0], x.shape[1]
    if n.shape[0] != batch:
        raise _err(
            f"Expected `len(lengths)` to be equal to batch_size, but got {n.shape[0]} "
            f"(batch_size={batch})"
        )
    if n[-1] <= 0:
        raise _err(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    if (np.diff(n) > 0).any():
        raise _err(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
            "sidestep this requirement if you do not need ONNX exportability."
        )
    longest = int(n[0])
    limits.TENSOR_ELEMENTS.check(longest, "the batch sizes of a packed sequence")
    # batch_sizes[t]: how many sequences are longer than t (as ATen: from the lengths, even past
    # the rows the padded input has, which then give no data)
    ascending = n[::-1]
    batch_sizes = n.shape[0] - np.searchsorted(ascending, np.arange(longest), side="right")
    batch_sizes = batch_sizes.astype(np.int64)
    rows = min(longest, steps)
    t_idx = np.repeat(np.arange(rows), batch_sizes[:rows])
    b_idx = np.concatenate([np.arange(b) for b in batch_sizes[:rows]]) if rows else t_idx
    data = apply(S.index, x, idx=(t_idx, b_idx), label="PackPaddedSequenceBackward0")
    unsorted = None if sorted_indices is None else _long(_inverse(sorted_indices.data))
    return PackedSequence(data, _long(batch_sizes), sorted_indices, unsorted)


def _packed(sequence: Any) -> PackedSequence:
    if not isinstance(sequence, PackedSequence):
        shown = "Tensor" if isinstance(sequence, Tensor) else typename(sequence)
        raise _err(f"'{shown}' object has no attribute 'batch_sizes'", "AttributeError")
    return sequence


def batch_sizes_list(p: PackedSequence) -> list[int]:
    bs = p.batch_sizes
    if not isinstance(bs, Tensor) or bs.dtype.kind not in "iu" or bs.ndim != 1:
        raise _err("batch_sizes should be a 1D CPU int64 tensor")
    sizes = [int(b) for b in bs.data]
    if any(b < 0 for b in sizes) or any(a < b for a, b in zip(sizes, sizes[1:])):
        raise _err("batch_sizes of a PackedSequence must be decreasing and non-negative")
    return sizes


def pad_packed_sequence(
    sequence: Any,
    batch_first: Any = False,
    padding_value: Any = 0.0,
    total_length: Any = None,
) -> tuple[Tensor, Tensor]:
    p = _packed(sequence)
    sizes = batch_sizes_list(p)
    longest = len(sizes)
    if total_length is not None:
        if isinstance(total_length, bool) or not isinstance(total_length, (int, np.integer)):
            raise _err(
                "_pad_packed_sequence(): argument 'total_length' (position 5) must be int, not "
                + typename(total_length),
                "TypeError",
            )
        if total_length < longest:
            raise _err(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{longest}",
                "ValueError",
            )
        longest = int(total_length)
    if isinstance(padding_value, bool) or not isinstance(
        padding_value, (int, float, np.integer, np.floating)
    ):
        if not (isinstance(padding_value, Tensor) and padding_value.data.size == 1):
            raise _err(
                "_pad_packed_sequence(): argument 'padding_value' (position 4) must be Number, "
                "not " + typename(padding_value),
                "TypeError",
            )
        padding_value = padding_value.data.item()
    data = p.data
    if not isinstance(data, Tensor):
        raise _err(f"'{typename(data)}' object has no attribute 'size'", "AttributeError")
    batch = sizes[0] if sizes else 0
    rest = tuple(data.shape[1:])
    if data.ndim == 0 or sum(sizes) != data.shape[0]:
        shown = [len(sizes), batch, *rest]
        raise _err(f"shape '{shown}' is invalid for input of size {data.data.size}")
    shape = (longest, batch, *rest)
    limits.TENSOR_ELEMENTS.check(int(np.prod(shape)), "the padded sequences")
    out = Tensor(np.full(shape, padding_value, dtype=data.dtype))
    t_idx = np.repeat(np.arange(len(sizes)), sizes)
    b_idx = np.concatenate([np.arange(b) for b in sizes]) if sizes else t_idx
    from .indexing import setitem

    hooks.observer.tick()
    setitem(out, (_long(t_idx), _long(b_idx)), data)
    if out.node is not None:
        out.node.label = "CopySlices"
    lengths = np.zeros(batch, dtype=np.int64)
    for b in sizes:
        lengths[:b] += 1
    if batch_first:
        out = F.transpose(out, 0, 1)
    ui = _index_tensor(p.unsorted_indices, "unsorted_indices")
    if ui is not None:
        out = index_select(out, 0 if batch_first else 1, _long(ui))
        lengths = lengths[ui]
    return out, _long(lengths)


def pack_sequence(sequences: Any, enforce_sorted: Any = True) -> PackedSequence:
    from .nnutils import pad_sequence

    if not isinstance(sequences, (list, tuple)):
        raise _err(
            f"pack_sequence(): sequences must be a list of tensors, not {typename(sequences)}",
            "TypeError",
        )
    lengths = []
    for v in sequences:
        if not isinstance(v, Tensor):
            raise _err(f"'{typename(v)}' object has no attribute 'size'", "AttributeError")
        if v.ndim == 0:
            raise _dim_error(0, 0)
        lengths.append(v.shape[0])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences: Any, lengths: Any, batch_first: Any = False) -> list[Tensor]:
    from .composite import unbind
    from .indexing import getitem

    x = padded_sequences
    if not isinstance(x, Tensor):
        raise _err(f"'{typename(x)}' object has no attribute 'transpose_'", "AttributeError")
    if not batch_first:
        if x.ndim < 2:
            raise _dim_error(1, x.ndim)
        F.INPLACE["transpose_"](x, 0, 1)  # in place, as PyTorch: the caller's tensor turns
    if x.ndim < 2:
        raise _dim_error(1, x.ndim)
    longest = x.shape[1]
    idx = np.arange(longest)
    if isinstance(lengths, Tensor):
        ls = (
            [lengths.data.reshape(-1)[i].item() for i in range(lengths.data.size)]
            if (lengths.ndim)
            else None
        )
        if ls is None:
            raise _err("iteration over a 0-d tensor", "TypeError")
    elif isinstance(lengths, (list, tuple)):
        ls = list(lengths)
    else:
        raise _err(f"'{typename(lengths)}' object is not iterable", "TypeError")
    out = []
    for seq, n in zip(unbind(x, 0), ls):
        hooks.observer.tick()
        if isinstance(n, Tensor) and n.data.size == 1:
            n = n.data.item()
        if isinstance(n, bool) or not isinstance(n, (int, float, np.integer, np.floating)):
            raise _err(
                f"'<' not supported between instances of 'Tensor' and '{typename(n)}'", "TypeError"
            )
        out.append(getitem(seq, Tensor(idx < n)))
    return out


def unpack_sequence(packed_sequences: Any) -> list[Tensor]:
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


_NEW_PARAMS = [
    ("cls", "PK", False),
    ("data", "PK", False),
    ("batch_sizes", "PK", True),
    ("sorted_indices", "PK", True),
    ("unsorted_indices", "PK", True),
]


def packed_sequence(*args: Any, **kwargs: Any) -> PackedSequence:
    """`PackedSequence(data, batch_sizes, sorted_indices=, unsorted_indices=)` built directly
    (the unsorted indices are the inverse of the sorted ones when not given); a call that does
    not bind has Python's words for PyTorch's `PackedSequence.__new__`."""
    from .callerrors import python_call_error

    words = python_call_error("PackedSequence.__new__", _NEW_PARAMS, len(args) + 1, list(kwargs))
    if words is not None:
        raise _err(words, "TypeError")
    bound = dict(zip([n for n, _, _ in _NEW_PARAMS[1:]], args), **kwargs)
    return _packed_sequence(**bound)


def _packed_sequence(
    data: Any, batch_sizes: Any = None, sorted_indices: Any = None, unsorted_indices: Any = None
) -> PackedSequence:
    if batch_sizes is None:
        raise _err("Expected data to be a list or tuple of length 2", "AssertionError")
    if not isinstance(batch_sizes, Tensor):
        raise _err(f"'{typename(batch_sizes)}' object has no attribute 'device'", "AttributeError")
    if unsorted_indices is None and sorted_indices is not None:
        si = _index_tensor(sorted_indices, "sorted_indices")
        if sorted(si.tolist()) != list(range(si.size)):
            raise _err("sorted_indices must be a permutation")
        unsorted_indices = _long(_inverse(si))
    return PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices)


FUNCTIONS = {
    "pack_padded_sequence": pack_padded_sequence,
    "pad_packed_sequence": pad_packed_sequence,
    "pack_sequence": pack_sequence,
    "unpack_sequence": unpack_sequence,
    "unpad_sequence": unpad_sequence,
}
