"""`torch.utils.data` as tutorials use it: `TensorDataset`, `Dataset` (a base for the program's
own datasets), `DataLoader` (batches, shuffling, default collation), `Subset`, `random_split`.

A loader draws from PyTorch's random streams exactly where PyTorch's does, so that the batches
and every number drawn after them are PyTorch's: each `iter(loader)` (each epoch's `for`)
draws the iterator's base seed (`random_()` on an int64 scalar, from the loader's generator);
with `shuffle=True` and no generator, the sampler then draws a seed from the default generator
at the first batch and shuffles with `randperm` from a generator seeded with it. Workers
(`num_workers`) are accepted and the data is loaded in the program's own process: the batches
are the same.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from ..surface import names
from ..surface import sampling as G
from .classes import PlainClass
from .values import Generator, current


def dataset_base() -> PlainClass:
    """`torch.utils.data.Dataset`: a class of no methods for the program's datasets to derive
    from (`class Points(Dataset):` with `__len__` and `__getitem__`); one per program."""
    return PlainClass("Dataset", {}, None)


def _length(ds: Any) -> int:
    from .builtins import BUILTINS

    return BUILTINS["len"].fn(ds)


def _item(ds: Any, i: Any) -> Any:
    return current().getitem(ds, i)


class TensorDataset:
    """`TensorDataset(x, y)`: item i is `(x[i], y[i])`."""

    PROGRAM_ATTRIBUTES = ("tensors",)

    def __init__(self, *tensors: Any) -> None:
        for t in tensors:
            if not isinstance(t, Tensor):
                raise GradcliError(
                    f"TensorDataset takes tensors, not {typename(t)}",
                    hint="make them tensors first: torch.tensor(values)",
                ).mirror("TypeError")
            if t.ndim == 0:
                raise GradcliError(
                    "TensorDataset takes tensors of one dimension or more (the samples along "
                    "the first)"
                ).mirror("IndexError")
        if tensors and any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise GradcliError("Size mismatch between tensors").mirror("AssertionError")
        self.tensors = tuple(tensors)

    def program_len(self) -> int:
        if not self.tensors:
            raise GradcliError("tuple index out of range").mirror("IndexError")
        return self.tensors[0].shape[0]

    def program_getitem(self, index: Any) -> tuple:
        return tuple(_item(t, index) for t in self.tensors)

    def program_iter(self) -> Generator:
        return Generator(self.program_getitem(i) for i in range(self.program_len()))

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.TensorDataset object at {id(self):#x}>"


class Subset:
    """`Subset(dataset, indices)`: item i is `dataset[indices[i]]`."""

    PROGRAM_ATTRIBUTES = ("dataset", "indices")

    def __init__(self, dataset: Any, indices: Any) -> None:
        self.dataset = dataset
        self.indices = indices if isinstance(indices, list) else list(indices)

    def program_len(self) -> int:
        return len(self.indices)

    def program_getitem(self, index: Any) -> Any:
        if isinstance(index, list):
            return [_item(self.dataset, self.indices[i]) for i in index]
        return _item(self.dataset, self.indices[index])

    def program_iter(self) -> Generator:
        return Generator(self.program_getitem(i) for i in range(len(self.indices)))

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.Subset object at {id(self):#x}>"


def random_split(dataset: Any, lengths: Any, generator: Any = None) -> list[Subset]:
    """`random_split(ds, [8, 2])` or fractions (`[0.8, 0.2]`): subsets of one permutation
    (`randperm(len(ds), generator=...)`, from the default generator unless one is given), the
    fractions' remainders given one each to the first subsets, as PyTorch does."""
    n = _length(dataset)
    sizes = list(lengths)
    if sizes and all(isinstance(s, float) for s in sizes) and math.isclose(sum(sizes), 1):
        counts = [int(math.floor(n * f)) for f in sizes]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        sizes = counts
    if sum(sizes) != n:
        raise GradcliError(
            "Sum of input lengths does not equal the length of the input dataset!"
        ).mirror("ValueError")
    gen = G.DEFAULT if generator is None else generator
    order = G.randperm(n, generator=gen).data.tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start : start + size]))
        start += size
    return out


class DataLoader:
    """`DataLoader(dataset, batch_size=1, shuffle=False, drop_last=False, collate_fn=None,
    generator=None, ...)`: the dataset's items in batches, collated as PyTorch's
    `default_collate` does (tensors stacked, numbers made tensors, tuples and lists
    transposed into lists, dicts by key)."""

    PROGRAM_ATTRIBUTES = ("dataset", "batch_size", "drop_last", "generator", "num_workers")

    def __init__(
        self,
        dataset: Any,
        batch_size: Any = 1,
        shuffle: Any = None,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Any = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Any = None,
        multiprocessing_context: Any = None,
        generator: Any = None,
        *,
        prefetch_factor: Any = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if sampler is not None or batch_sampler is not None:
            raise NotSupported(
                "DataLoader(sampler=...) and batch_sampler= are not supported",
                hint="shuffle=True (with generator=) or index the dataset yourself",
            )
        if batch_size is not None and (
            isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0
        ):
            raise GradcliError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size!r}"
            ).mirror("ValueError")
        if not isinstance(drop_last, bool):
            raise GradcliError(
                f"drop_last should be a boolean value, but got drop_last={drop_last!r}"
            ).mirror("ValueError")
        if generator is not None and not isinstance(generator, G.Generator):
            raise GradcliError(
                f"generator must be a torch.Generator, not {typename(generator)}"
            ).mirror("TypeError")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = drop_last
        self.collate_fn = collate_fn
        self.generator = generator
        self.num_workers = num_workers

    def program_len(self) -> int:
        n = _length(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def program_iter(self) -> Generator:
        # The iterator's base seed, drawn when it is made (PyTorch's workers seed from it).
        G.random_(Tensor(np.zeros((), dtype=np.int64)), generator=self.generator)
        return Generator(self._batches())

    def _order(self) -> Iterator[int]:
        n = _length(self.dataset)
        if not self.shuffle:
            yield from range(n)
            return
        gen = self.generator
        if gen is None:
            draw = G.random_(Tensor(np.zeros((), dtype=np.int64)))
            gen = G.Generator().manual_seed(int(draw.data))
        yield from G.randperm(n, generator=gen).data.tolist()
        # PyTorch's RandomSampler then draws the permutation of the `num_samples % n` items
        # left over (none) when it is asked past the end: a second randperm, which a loader's
        # own generator feels (the next epoch's order depends on it).
        G.randperm(n, generator=gen)

    def _batches(self) -> Iterator[Any]:
        order = self._order()
        if self.batch_size is not None:
            # A batch is a list of samples before it is collated: sized before it is made.
            limits.LIST_ITEMS.check(
                min(self.batch_size, _length(self.dataset)), "the number of samples in one batch"
            )
        if self.batch_size is None:
            for i in order:
                yield self._collate(_item(self.dataset, i), batched=False)
            return
        while True:
            batch = []
            for i in order:
                batch.append(_item(self.dataset, i))
                if len(batch) == self.batch_size:
                    break
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self._collate(batch, batched=True)

    def _collate(self, batch: Any, batched: bool) -> Any:
        if self.collate_fn is not None:
            return current().call(self.collate_fn, [batch], {}, None)
        return default_collate(batch) if batched else default_convert(batch)

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader.DataLoader object at {id(self):#x}>"


def default_convert(v: Any) -> Any:
    """A sample with no batch dimension added (`batch_size=None`): arrays made tensors."""
    if isinstance(v, np.ndarray) and v.dtype.kind in "biuf":
        return Tensor(v)
    if isinstance(v, dict):
        return {k: default_convert(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        return [default_convert(x) for x in v]  # a tuple too, as PyTorch's
    return v


def default_collate(batch: list) -> Any:
    """PyTorch's `default_collate` of a list of samples."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return names.FUNCTIONS["stack"](batch, 0)
    if isinstance(elem, np.ndarray):
        return names.FUNCTIONS["stack"]([Tensor(np.asarray(b)) for b in batch], 0)
    if isinstance(elem, float):
        return Tensor(np.array(batch, dtype=np.float64))  # Python floats are doubles
    if isinstance(elem, (bool, int)):
        return names.FUNCTIONS["tensor"](batch)
    if isinstance(elem, str):
        return list(batch)
    if isinstance(elem, dict):
        return {k: default_collate([d[k] for d in batch]) for k in elem}
    if isinstance(elem, (tuple, list)):
        if any(not isinstance(b, (tuple, list)) or len(b) != len(elem) for b in batch):
            raise GradcliError("each element in list of batch should be of equal size")
        return [default_collate(list(samples)) for samples in zip(*batch)]
    raise GradcliError(
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
        f"found {typename(elem)}"
    ).mirror("TypeError")
