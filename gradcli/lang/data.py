"""`torch.utils.data` as tutorials use it: `TensorDataset`, `Dataset` (a base for the program's
own datasets), `DataLoader` (batches, shuffling, default collation), `Subset`, `random_split`.

A loader draws from PyTorch's random streams exactly where PyTorch's does, so that the batches
and every number drawn after them are PyTorch's: each `iter(loader)` (each epoch's `for`)
draws the iterator's base seed (`random_()` on an int64 scalar, from the loader's generator);
with `shuffle=True` and no generator, the sampler then draws a seed from the default generator
at the first batch and shuffles with `randperm` from a generator seeded with it. Workers
(`num_workers`): the data is loaded in the program's own process, batch k under worker
(k % num_workers)'s own torch, `random` and NumPy streams seeded as PyTorch seeds them, and the
sampler drawn ahead as PyTorch sends the workers their batches, so the numbers are PyTorch's.
What a worker changes in the program's objects (a list worker_init_fn appends to) is seen by
the program here; PyTorch's worker processes change only their own copies.
"""

from __future__ import annotations

import collections
import itertools
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, pytype_name, typename
from ..surface import names
from ..surface import sampling as G
from .classes import PlainClass
from .values import Generator, current


class _GenericBase(PlainClass):
    """A base class PyTorch makes generic (`Dataset[T_co]`, `Sampler[T_co]`): `Dataset[int]`
    in a class's bases is the class itself, as Python's subscripted generic derives from it."""

    __slots__ = ()

    def program_getitem(self, key: Any) -> PlainClass:
        return self


class _DatasetBase(_GenericBase):
    """`torch.utils.data.Dataset`: the program's datasets derive from it (`a + b` of them is
    a ConcatDataset)."""

    __slots__ = ()


def dataset_base() -> PlainClass:
    """`torch.utils.data.Dataset`: a class of no methods for the program's datasets to derive
    from (`class Points(Dataset):` with `__len__` and `__getitem__`); one per program."""
    from . import operators

    operators.DATASET_ADD[0] = dataset_add
    return _DatasetBase("Dataset", {}, None)


class _IterableBase(_DatasetBase):
    """`torch.utils.data.IterableDataset`: the base of the program's streams (`__iter__`);
    a loader draws their items in order, with no sampler."""

    __slots__ = ()


def iterable_dataset_base(dataset: PlainClass) -> PlainClass:
    """`IterableDataset`, one per program, deriving from its `Dataset`."""
    return _IterableBase("IterableDataset", {}, (dataset,))


def is_iterable_dataset(v: Any) -> bool:
    from .classes import Instance

    if isinstance(v, ChainDataset):
        return True
    return isinstance(v, Instance) and any(isinstance(c, _IterableBase) for c in v.cls.mro)


def dataset_add(a: Any, b: Any) -> Any:
    """`a + b` where `a` is a dataset with no `__add__` of the program's own: PyTorch's
    `Dataset.__add__` (a ConcatDataset; `IterableDataset.__add__`: a ChainDataset), whatever
    `b` is; NotImplemented where `a` is no dataset."""
    from .classes import Instance

    if isinstance(a, Instance):
        if not any(isinstance(c, _DatasetBase) for c in a.cls.mro):
            return NotImplemented
        if a.operator_method("__add__") is not None:
            return NotImplemented  # (the program's own, called by the interpreter)
    elif not isinstance(a, (TensorDataset, Subset, ConcatDataset, StackDataset, ChainDataset)):
        return NotImplemented
    if is_iterable_dataset(a):
        return ChainDataset([a, b])
    return ConcatDataset([a, b])


def _length(ds: Any) -> int:
    from .builtins import BUILTINS

    return BUILTINS["len"].fn(ds)


def _item(ds: Any, i: Any) -> Any:
    return current().getitem(ds, i)


class TensorDataset:
    """`TensorDataset(x, y)`: item i is `(x[i], y[i])`."""

    PROGRAM_ATTRIBUTES = ("tensors",)
    program_has_iter = False  # (iterated by __getitem__: not an Iterable in PyTorch)

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
    program_has_iter = False  # (iterated by __getitem__: not an Iterable in PyTorch)

    def __init__(self, dataset: Any, indices: Any) -> None:
        from .values import seq

        self.dataset = dataset
        # Kept as given where it has a length (PyTorch's asks for it when it is used); a range
        # stays a range (`Subset(ds, range(10**9))` makes no list); an iterator is taken into
        # a list under the list limit.
        if not isinstance(indices, (list, range, tuple, Tensor)):
            indices = seq(indices, "Subset indices")
        self.indices = indices

    def program_len(self) -> int:
        return _length(self.indices)

    def program_getitem(self, index: Any) -> Any:
        if isinstance(index, list):
            return [_item(self.dataset, _item(self.indices, i)) for i in index]
        return _item(self.dataset, _item(self.indices, index))

    def program_iter(self) -> Generator:
        return Generator(self.program_getitem(i) for i in range(self.program_len()))

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.Subset object at {id(self):#x}>"


class ConcatDataset:
    """`ConcatDataset([a, b])`: a's items, then b's."""

    PROGRAM_ATTRIBUTES = ("datasets", "cumulative_sizes")
    program_has_iter = False  # (iterated by __getitem__: not an Iterable in PyTorch)

    def __init__(self, datasets: Any) -> None:
        from .values import seq

        self.datasets = seq(datasets, "ConcatDataset")
        if not self.datasets:
            raise GradcliError("datasets should not be an empty iterable").mirror("AssertionError")
        total, self.cumulative_sizes = 0, []
        for d in self.datasets:
            total += _length(d)
            self.cumulative_sizes.append(total)
            limits.BUDGET.tick()

    def program_len(self) -> int:
        return self.cumulative_sizes[-1]

    def program_getitem(self, index: Any) -> Any:
        import bisect

        n = self.cumulative_sizes[-1]
        if isinstance(index, Tensor) and index.ndim == 0:
            index = int(index.data)
        if isinstance(index, bool) or not isinstance(index, int):
            raise GradcliError(
                f"ConcatDataset indices must be integers, not {typename(index)}"
            ).mirror("TypeError")
        if index < 0:
            if -index > n:
                raise GradcliError(
                    "absolute value of index should not exceed dataset length"
                ).mirror("ValueError")
            index += n
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        if which >= len(self.datasets):
            raise GradcliError("list index out of range").mirror("IndexError")
        return _item(self.datasets[which], index - start)

    def program_iter(self) -> Generator:
        return Generator(self.program_getitem(i) for i in range(self.program_len()))

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.ConcatDataset object at {id(self):#x}>"


class ChainDataset:
    """`ChainDataset([a, b])`: a stream of a's items, then b's (each an IterableDataset)."""

    PROGRAM_ATTRIBUTES = ("datasets",)

    def __init__(self, datasets: Any) -> None:
        self.datasets = datasets

    def program_iter(self) -> Generator:
        from .values import iterate

        def items() -> Iterator[Any]:
            for d in iterate(self.datasets, "ChainDataset"):
                if not is_iterable_dataset(d):
                    raise GradcliError("ChainDataset only supports IterableDataset").mirror(
                        "AssertionError"
                    )
                yield from iterate(d, "a dataset")

        return Generator(items())

    def program_len(self) -> int:
        from .values import iterate

        total = 0
        for d in iterate(self.datasets, "ChainDataset"):
            if not is_iterable_dataset(d):
                raise GradcliError("ChainDataset only supports IterableDataset").mirror(
                    "AssertionError"
                )
            total += _length(d)
        return total

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.ChainDataset object at {id(self):#x}>"


class StackDataset:
    """`StackDataset(a, b)`: item i is `(a[i], b[i])`; `StackDataset(x=a, y=b)`: the dict
    `{'x': a[i], 'y': b[i]}`."""

    program_has_iter = False  # (iterated by __getitem__, as PyTorch's)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args and kwargs:
            raise GradcliError(
                "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                "input/output, but both types are given."
            ).mirror("ValueError")
        parts = list(args) or list(kwargs.values())
        if not parts:
            raise GradcliError("At least one dataset should be passed").mirror("ValueError")
        self.length = _length(parts[0])
        if any(_length(d) != self.length for d in parts):
            raise GradcliError("Size mismatch between datasets").mirror("ValueError")
        self.args, self.kwargs = tuple(args), dict(kwargs)

    def program_len(self) -> int:
        return self.length

    def program_getitem(self, index: Any) -> Any:
        if self.kwargs:
            return {k: _item(d, index) for k, d in self.kwargs.items()}
        return tuple(_item(d, index) for d in self.args)

    def program_iter(self) -> Generator:
        return Generator(self.program_getitem(i) for i in range(self.length))

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataset.StackDataset object at {id(self):#x}>"


def random_split(dataset: Any, lengths: Any, generator: Any = None) -> list[Subset]:
    """`random_split(ds, [8, 2])` or fractions (`[0.8, 0.2]`): subsets of one permutation
    (`randperm(len(ds), generator=...)`, from the default generator unless one is given), the
    fractions' remainders given one each to the first subsets, as PyTorch does."""
    from .values import seq

    n = _length(dataset)
    sizes = seq(lengths, "random_split lengths")
    for s in sizes:
        if isinstance(s, str) or not isinstance(s, (int, float)):
            raise GradcliError(
                f"unsupported operand type(s) for +: 'int' and '{typename(s)}'"
            ).mirror("TypeError")
    if sizes and math.isclose(sum(sizes), 1) and sum(sizes) <= 1:
        for i, f in enumerate(sizes):
            if not 0 <= f <= 1:
                raise GradcliError(f"Fraction at index {i} is not between 0 and 1").mirror(
                    "ValueError"
                )
        counts = [int(math.floor(n * f)) for f in sizes]
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        sizes = counts
    if sum(sizes) != n:
        raise GradcliError(
            "Sum of input lengths does not equal the length of the input dataset!"
        ).mirror("ValueError")
    if any(not isinstance(s, int) for s in sizes):
        raise GradcliError(
            "random_split lengths must be whole numbers, or fractions that sum to 1",
            found=repr(sizes[:5])[:80],
        ).mirror("TypeError")
    gen = G.DEFAULT if generator is None else generator
    order = G.randperm(n, generator=gen).data.tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start : start + size]))
        start += size
    return out


# --- samplers: the indices a loader visits, drawn from PyTorch's streams as its samplers ---


def sampler_base() -> PlainClass:
    """`torch.utils.data.Sampler`: a base for the program's own samplers (`__iter__`,
    `__len__`), one per program."""
    return _GenericBase("Sampler", {}, None)


def _positive(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise GradcliError(
            f"{what} should be a positive integer value, but got {what}={_shown(v)}"
        ).mirror("ValueError")
    return v


def _flag(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise GradcliError(f"{what} should be a boolean value, but got {what}={_shown(v)}").mirror(
            "ValueError"
        )
    return v


def _shown(v: Any) -> str:
    """The value as PyTorch's f-string shows it (`str`, not `repr`: replacement=yes)."""
    from .text import to_str

    return to_str(v, 1000)


def _generator(g: Any) -> Any:
    if g is not None and not isinstance(g, G.Generator):
        raise GradcliError(f"generator must be a torch.Generator, not {typename(g)}").mirror(
            "TypeError"
        )
    return g


def _int64_scalar() -> Tensor:
    return Tensor(np.zeros((), dtype=np.int64))


class SequentialSampler:
    """`SequentialSampler(data)`: 0, 1, ..., len(data) - 1."""

    PROGRAM_ATTRIBUTES = ("data_source",)

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def program_len(self) -> int:
        return _length(self.data_source)

    def program_iter(self) -> Generator:
        return Generator(iter(range(_length(self.data_source))))

    def __repr__(self) -> str:
        return f"<torch.utils.data.sampler.SequentialSampler object at {id(self):#x}>"


class RandomSampler:
    """`RandomSampler(data, replacement=False, num_samples=None, generator=None)`. Each
    iteration without a generator seeds a fresh one from the default generator (one int64
    draw) at its first index; without replacement, whole permutations of n, then a permutation
    of which the first `num_samples % n` are taken (drawn even when that is none); with
    replacement, randint in blocks of 32."""

    PROGRAM_ATTRIBUTES = ("data_source", "replacement", "generator", "num_samples")

    def __init__(
        self,
        data_source: Any,
        replacement: Any = False,
        num_samples: Any = None,
        generator: Any = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = _flag(replacement, "replacement")
        self._num_samples = num_samples
        self.generator = _generator(generator)
        _positive(self.num_samples, "num_samples")

    @property
    def num_samples(self) -> int:
        if self._num_samples is None:
            return _length(self.data_source)
        return self._num_samples

    def program_len(self) -> int:
        return self.num_samples

    def program_iter(self) -> Generator:
        return Generator(self._indices())

    def _indices(self) -> Iterator[int]:
        n = _length(self.data_source)
        gen = self.generator
        if gen is None:
            seed = G.random_(_int64_scalar())
            gen = G.Generator().manual_seed(int(seed.data))
        total = self.num_samples  # (what takes the indices bounds them: a list, a loop)
        if self.replacement:
            for _ in range(total // 32):
                yield from G.randint(n, (32,), generator=gen).data.tolist()
            yield from G.randint(n, (total % 32,), generator=gen).data.tolist()
            return
        for _ in range(total // n):
            yield from G.randperm(n, generator=gen).data.tolist()
        yield from G.randperm(n, generator=gen).data.tolist()[: total % n]

    def __repr__(self) -> str:
        return f"<torch.utils.data.sampler.RandomSampler object at {id(self):#x}>"


class SubsetRandomSampler:
    """`SubsetRandomSampler(indices, generator=None)`: the indices in the order of one
    randperm (from the default generator when none is given)."""

    PROGRAM_ATTRIBUTES = ("indices", "generator")

    def __init__(self, indices: Any, generator: Any = None) -> None:
        self.indices = indices
        self.generator = _generator(generator)

    def program_len(self) -> int:
        return _length(self.indices)

    def program_iter(self) -> Generator:
        order = G.randperm(_length(self.indices), generator=self.generator).data.tolist()
        return Generator(current().getitem(self.indices, i) for i in order)

    def __repr__(self) -> str:
        return f"<torch.utils.data.sampler.SubsetRandomSampler object at {id(self):#x}>"


class WeightedRandomSampler:
    """`WeightedRandomSampler(weights, num_samples, replacement=True, generator=None)`: one
    `torch.multinomial` of the weights (as float64) per iteration."""

    PROGRAM_ATTRIBUTES = ("weights", "num_samples", "replacement", "generator")

    def __init__(
        self, weights: Any, num_samples: Any, replacement: Any = True, generator: Any = None
    ) -> None:
        self.num_samples = _positive(num_samples, "num_samples")
        self.replacement = _flag(replacement, "replacement")
        w = names.FUNCTIONS["as_tensor"](weights, dtype=np.dtype(np.float64))
        if w.ndim != 1:
            raise GradcliError(
                f"weights should be a 1d sequence but given weights have shape {w.shape}"
            ).mirror("ValueError")
        self.weights = w
        self.generator = _generator(generator)

    def program_len(self) -> int:
        return self.num_samples

    def program_iter(self) -> Generator:
        drawn = G.multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        return Generator(iter(drawn.data.tolist()))

    def __repr__(self) -> str:
        return f"<torch.utils.data.sampler.WeightedRandomSampler object at {id(self):#x}>"


class BatchSampler:
    """`BatchSampler(sampler, batch_size, drop_last)`: the sampler's indices in lists."""

    PROGRAM_ATTRIBUTES = ("sampler", "batch_size", "drop_last")

    def __init__(self, sampler: Any, batch_size: Any, drop_last: Any) -> None:
        self.sampler = sampler
        self.batch_size = _positive(batch_size, "batch_size")
        self.drop_last = _flag(drop_last, "drop_last")

    def program_len(self) -> int:
        n = _length(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def program_iter(self) -> Generator:
        return Generator(self._batches())

    def _batches(self) -> Iterator[list]:
        from .values import iterate

        what = "the number of samples in one batch"
        if isinstance(self.sampler, _SIZED_SAMPLERS):  # sized before the work
            limits.LIST_ITEMS.check(min(self.batch_size, _length(self.sampler)), what)
        cap = limits.LIST_ITEMS.value
        it = iter(iterate(self.sampler, "a sampler"))
        while True:
            batch = []
            for i in it:
                batch.append(i)
                limits.BUDGET.tick()
                if len(batch) == self.batch_size:
                    break
                if len(batch) >= cap:  # a batch is a list: it stops at the list limit
                    limits.LIST_ITEMS.check(len(batch) + 1, what)
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __repr__(self) -> str:
        return f"<torch.utils.data.sampler.BatchSampler object at {id(self):#x}>"


_SIZED_SAMPLERS = (SequentialSampler, RandomSampler, SubsetRandomSampler, WeightedRandomSampler)


MAX_WORKERS = 64  # the workers whose random streams a loader keeps (each a few kilobytes)
MAX_AHEAD = 4096  # the batches of indices a loader with workers takes ahead (prefetch)


class _InfiniteConstantSampler:
    """The sampler of a loader over an IterableDataset: None, forever."""

    def program_iter(self) -> Generator:
        def nones() -> Iterator[None]:
            while True:
                limits.BUDGET.tick()
                yield None

        return Generator(nones())

    def __repr__(self) -> str:
        return f"<torch.utils.data.sampler._InfiniteConstantSampler object at {id(self):#x}>"


class DataLoader:
    """`DataLoader(dataset, batch_size=1, shuffle=False, drop_last=False, collate_fn=None,
    generator=None, ...)`: the dataset's items in batches, collated as PyTorch's
    `default_collate` does (tensors stacked, numbers made tensors, tuples and lists
    transposed into lists, dicts by key)."""

    PROGRAM_ATTRIBUTES = (
        "dataset",
        "batch_size",
        "drop_last",
        "generator",
        "num_workers",
        "pin_memory",
        "persistent_workers",
        "worker_init_fn",
        "sampler",
        "batch_sampler",
    )

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
        self.iterable = is_iterable_dataset(dataset)
        if self.iterable:
            for name, v in (
                ("shuffle", shuffle),
                ("sampler", sampler),
                ("batch_sampler", batch_sampler),
            ):
                if v not in (None, False):
                    raise GradcliError(
                        "DataLoader with IterableDataset: expected unspecified "
                        f"{name} option, but got {name}={_shown(v)}"
                    ).mirror("ValueError")
        if sampler is not None and shuffle:
            raise GradcliError("sampler option is mutually exclusive with shuffle").mirror(
                "ValueError"
            )
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise GradcliError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                ).mirror("ValueError")
            batch_size = None
        if batch_size is not None:
            _positive(batch_size, "batch_size")
        _flag(drop_last, "drop_last")
        _generator(generator)
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = drop_last
        self.collate_fn = collate_fn
        self.generator = generator
        if isinstance(num_workers, bool) or not isinstance(num_workers, int):
            raise GradcliError(f"num_workers must be an int, not {typename(num_workers)}")
        if num_workers < 0:
            raise GradcliError(
                "num_workers option should be non-negative; use num_workers=0 to disable "
                "multiprocessing."
            ).mirror("ValueError")
        if num_workers == 0 and prefetch_factor is not None:
            raise GradcliError(
                "prefetch_factor option could only be specified in multiprocessing.let "
                "num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to "
                "None."
            ).mirror("ValueError")
        if num_workers == 0 and persistent_workers:
            raise GradcliError("persistent_workers option needs num_workers > 0").mirror(
                "ValueError"
            )
        if num_workers > MAX_WORKERS:
            raise NotSupported(
                f"a DataLoader with num_workers={num_workers} is not supported (gradcli keeps "
                f"each worker's random streams: at most {MAX_WORKERS} workers)",
                hint="use fewer workers: the batches do not depend on how many run at once",
            )
        self.num_workers = num_workers
        self.worker_init_fn = worker_init_fn
        self._prefetch = 2 if prefetch_factor is None else prefetch_factor
        if isinstance(self._prefetch, bool) or not isinstance(self._prefetch, int):
            raise GradcliError(f"prefetch_factor must be an int, not {typename(prefetch_factor)}")
        if self._prefetch * num_workers > MAX_AHEAD:
            raise NotSupported(
                f"a DataLoader with prefetch_factor={self._prefetch} and num_workers={num_workers}"
                f" is not supported (gradcli takes at most {MAX_AHEAD} batches ahead)",
                hint="use a smaller prefetch_factor: the batches do not depend on it",
            )
        self.persistent_workers = bool(persistent_workers)
        self.pin_memory = bool(pin_memory)
        self._workers: Any = None
        self._base_seed = 0
        if self.iterable:
            sampler = _InfiniteConstantSampler()
        elif sampler is None:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if self.shuffle
                else SequentialSampler(dataset)
            )
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        if batch_sampler is None and batch_size is not None:
            self.batch_sampler = BatchSampler(sampler, batch_size, drop_last)

    def program_len(self) -> int:
        if self.iterable:
            n = _length(self.dataset)
            if self.batch_size is not None:
                n = n // self.batch_size if self.drop_last else -(-n // self.batch_size)
            return n
        return _length(self.batch_sampler if self.batch_sampler is not None else self.sampler)

    def program_iter(self) -> Generator:
        # The iterator's base seed, drawn when it is made (PyTorch's workers seed from it);
        # the sampler's own draws come at the first batch. Persistent workers keep the first
        # iterator's: PyTorch resets it, drawing nothing.
        if not (self.persistent_workers and self._workers is not None):
            base = G.random_(_int64_scalar(), generator=self.generator)
            self._base_seed = int(base.data.reshape(()))
            self._workers = None
        batches = self._batches()
        if self.num_workers and not self.iterable:
            next(batches)  # (the workers' first batches sent: the sampler drawn now)
        return Generator(batches)

    def _fetch(self, k: int, fetch: Any) -> Any:
        """Batch `k`, fetched as PyTorch's worker `k % num_workers` fetches it: under that
        worker's random streams (torch's, Python's and NumPy's, seeded from the base seed as
        PyTorch seeds them; every worker's `worker_init_fn` run at the first batch). gradcli runs
        the workers' code in the program's own process, one batch at a time, in order."""
        n = self.num_workers
        if not n:
            return fetch()
        import random as pyrandom_std

        R = G.random_module()
        if self._workers is None:
            # PyTorch starts every worker with the iterator: each seeds its streams and runs
            # worker_init_fn, whether or not a batch comes to it.
            self._workers = {}
            for w in range(n):
                seed = self._base_seed + w
                self._workers[w] = [
                    R.Generator(seed),
                    pyrandom_std.Random(seed),
                    np.random.RandomState(_worker_numpy_seed(self._base_seed, w)),
                ]
                if self.worker_init_fn is not None:
                    self._in_worker(
                        w, lambda w=w: current().call(self.worker_init_fn, [w], {}, None)
                    )
        return self._in_worker(k % n, fetch)

    def _in_worker(self, w: int, fn: Any) -> Any:
        """`fn()` under worker `w`'s random streams and its `get_worker_info()` (the program's
        own left as they were)."""
        from . import pyrandom as P

        R = G.random_module()
        state = self._workers[w]
        saved = (R._default, P._PY_GEN[0], P._NP[0], WORKER[0])
        R._default, P._PY_GEN[0], P._NP[0] = state
        WORKER[0] = WorkerInfo(w, self.num_workers, self._base_seed + w, self.dataset)
        try:
            return fn()
        finally:
            state[:] = [R._default, P._PY_GEN[0], P._NP[0]]
            R._default, P._PY_GEN[0], P._NP[0], WORKER[0] = saved

    def _iterable_workers(self) -> Iterator[Any]:
        """An IterableDataset's batches with workers, as PyTorch's: each worker iterates the
        dataset itself (its `__iter__` sees `get_worker_info()`: a dataset that does not split
        its stream by worker gives every item once per worker) and batches what it draws; the
        batches come from the workers in turn, a worker whose stream ended passed by."""
        from .values import iterate

        n = self.num_workers
        self._fetch(0, lambda: None)  # (every worker seeded and its worker_init_fn run)
        streams = [self._in_worker(w, lambda: iterate(self.dataset, "a dataset")) for w in range(n)]
        ended = [False] * n
        tick = limits.BUDGET.tick
        w = 0
        while not all(ended):
            if not ended[w]:
                batch = self._in_worker(w, lambda s=streams[w]: self._next_batch(s))
                if batch is _ENDED:
                    ended[w] = True
                else:
                    yield batch
            tick()
            w = (w + 1) % n

    def _next_batch(self, stream: Iterator[Any]) -> Any:
        """A worker's next batch of its stream (PyTorch's _IterableDatasetFetcher: a short
        last batch unless drop_last; `_ENDED` once the stream has nothing more to give)."""
        if self.batch_size is None:
            item = next(stream, _ENDED)
            return item if item is _ENDED else self._collate(item, batched=False)
        batch: list = []
        for item in stream:
            limits.BUDGET.tick()
            batch.append(item)
            if len(batch) == self.batch_size:
                return self._collate(batch, batched=True)
        if not batch or self.drop_last:
            return _ENDED
        return self._collate(batch, batched=True)

    def _batches(self) -> Iterator[Any]:
        from .values import iterate

        if self.iterable and self.num_workers:
            yield from self._iterable_workers()
            return
        if self.iterable:
            tick = limits.BUDGET.tick
            batch: list = []
            for item in iterate(self.dataset, "a dataset"):
                tick()
                if self.batch_size is None:
                    yield self._collate(item, batched=False)
                    continue
                batch.append(item)
                if len(batch) == self.batch_size:
                    yield self._collate(batch, batched=True)
                    batch = []
            if batch and not self.drop_last:
                yield self._collate(batch, batched=True)
            return
        keys = self._keys()
        if self.num_workers:
            # PyTorch's workers are sent prefetch_factor batches each when the iterator is
            # made, then one more as each batch comes: the sampler's draws come then.
            ahead = collections.deque(itertools.islice(keys, self._prefetch * self.num_workers))
            yield None  # (made by program_iter: the draws above are the iterator's)
            k = 0
            while ahead:
                key = ahead.popleft()
                ahead.extend(itertools.islice(keys, 1))
                yield self._fetch(k, lambda key=key: self._fetch_key(key))
                k += 1
            return
        for key in keys:
            yield self._fetch_key(key)

    def _keys(self) -> Iterator[Any]:
        """The sampler's index (batch_size=None) or the batch sampler's list of indices, one
        batch at a time."""
        from .values import iterate, seq

        if self.batch_sampler is None:
            yield from iterate(self.sampler, "a sampler")
            return
        for indices in iterate(self.batch_sampler, "a batch sampler"):
            # A batch is a list of samples before it is collated (its indices under the list
            # limit as they come: a batch sampler may yield a range(10**9)).
            yield seq(indices, "a batch of indices")

    def _fetch_key(self, key: Any) -> Any:
        if self.batch_sampler is None:
            return self._collate(_item(self.dataset, key), batched=False)
        tick = limits.BUDGET.tick
        batch = []
        for i in key:
            batch.append(_item(self.dataset, i))
            tick()
        return self._collate(batch, batched=True)

    def _collate(self, batch: Any, batched: bool) -> Any:
        if self.collate_fn is not None:
            return current().call(self.collate_fn, [batch], {}, None)
        from .values import check_structure

        # Samples may nest and share lists and dicts (`x = [x, x]` forty times): the walk is
        # counted first.
        check_structure(batch, "collating a batch")
        return default_collate(batch) if batched else default_convert(batch)

    def __repr__(self) -> str:
        return f"<torch.utils.data.dataloader.DataLoader object at {id(self):#x}>"


_ENDED = object()  # (a worker's stream has ended)


class WorkerInfo:
    """What `torch.utils.data.get_worker_info()` gives in a worker's code (None elsewhere):
    its id, the number of workers, its seed and the dataset."""

    FIELDS = ("id", "num_workers", "seed", "dataset")

    def __init__(self, wid: int, num_workers: int, seed: int, dataset: Any) -> None:
        self.id, self.num_workers, self.seed, self.dataset = wid, num_workers, seed, dataset

    def program_attribute(self, name: str) -> Any:
        if name in self.FIELDS:
            return getattr(self, name)
        raise GradcliError(f"'WorkerInfo' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    @staticmethod
    def program_typename(_: Any = None) -> str:
        return "WorkerInfo"

    def __repr__(self) -> str:
        from .text import to_repr

        shown = [f"{k}={getattr(self, k)}" for k in self.FIELDS[:3]]
        return f"WorkerInfo({', '.join(shown)}, dataset={to_repr(self.dataset)})"


# The worker whose code runs now (gradcli runs the workers' code in the program's process).
WORKER: list[WorkerInfo | None] = [None]


def get_worker_info() -> WorkerInfo | None:
    return WORKER[0]


def _worker_numpy_seed(base_seed: int, worker_id: int) -> list[int]:
    """The NumPy seed PyTorch's worker `worker_id` gives `np.random.seed`: four 32-bit words
    mixed from the worker's id and the base seed (NumPy's SeedSequence hashing, as
    torch.utils.data's `_generate_state` writes it)."""
    mask = 0xFFFFFFFF
    entropy = [worker_id, base_seed & mask, base_seed >> 32, 0]
    mult_a = [0x43B0D7E5]

    def hashed(value: int) -> int:
        value = (value ^ mult_a[0]) & mask
        mult_a[0] = (mult_a[0] * 0x931E8875) & mask
        value = (value * mult_a[0]) & mask
        return (value ^ (value >> 16)) & mask

    def mix(x: int, y: int) -> int:
        r = ((0xCA01F9DD * x) & mask) - ((0x4973F715 * y) & mask)
        r &= mask
        return (r ^ (r >> 16)) & mask

    pool = [hashed(e) for e in entropy]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashed(pool[src]))
    mult_b = 0x8B51F9DD
    state = []
    for dst in range(4):
        v = (pool[dst] ^ mult_b) & mask
        mult_b = (mult_b * 0x58F38DED) & mask
        v = (v * mult_b) & mask
        state.append((v ^ (v >> 16)) & mask)
    return state


def default_convert(v: Any) -> Any:
    """A sample with no batch dimension added (`batch_size=None`): arrays made tensors."""
    if isinstance(v, np.ndarray) and v.dtype.kind in "biuf":
        return Tensor(v)
    if isinstance(v, np.generic) and v.dtype.kind in "biuf":  # np.float32(1.5): a 0-d tensor
        return Tensor(np.asarray(v))
    if isinstance(v, dict):
        return {k: default_convert(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        from .pycollections import Record

        if isinstance(v, Record):
            return Record(v.cls, tuple(default_convert(x) for x in v))
        return [default_convert(x) for x in v]  # a tuple too, as PyTorch's
    return v


def _real(v: Any) -> float:
    """A float sample's batch-mate as a double (`torch.tensor(batch, dtype=torch.float64)`)."""
    if isinstance(v, Tensor):
        if v.numel() != 1:
            raise GradcliError(
                "only one element tensors can be converted to Python scalars"
            ).mirror("ValueError")
        return float(v.data.reshape(()))
    if isinstance(v, str) or not isinstance(v, (int, float, np.number)):
        raise GradcliError(f"must be real number, not {typename(v)}").mirror("TypeError")
    if isinstance(v, int) and abs(v) > 2**1024:
        raise GradcliError("int too large to convert to float").mirror("OverflowError")
    return float(v)


def _key(d: Any, k: Any) -> Any:
    """`d[k]` of a dict sample's batch-mate."""
    if not isinstance(d, dict):
        raise GradcliError(f"'{pytype_name(d)}' object is not subscriptable").mirror("TypeError")
    if k not in d:
        from .exceptions import CLASSES, ProgramError

        raise ProgramError(CLASSES["KeyError"](k))
    return d[k]


def default_collate(batch: list) -> Any:
    """PyTorch's `default_collate` of a list of samples."""
    elem = _item(batch, 0)  # a program's call may pass anything: Python's error, its words
    if isinstance(elem, Tensor):
        return names.FUNCTIONS["stack"](batch, 0)
    if isinstance(elem, np.ndarray):
        return names.FUNCTIONS["stack"]([Tensor(np.asarray(b)) for b in batch], 0)
    if isinstance(elem, np.generic) and elem.dtype.kind in "biuf":
        # NumPy's scalars: torch.as_tensor(batch), of their dtype (np.float32: float32)
        return names.FUNCTIONS["tensor"](batch)
    if isinstance(elem, float):
        return Tensor(np.array([_real(b) for b in batch], dtype=np.float64))  # doubles
    if isinstance(elem, (bool, int)):
        return names.FUNCTIONS["tensor"](batch)
    if isinstance(elem, str):
        return batch  # as it comes: the list of a batch, a tuple of a transposed field
    if isinstance(elem, dict):
        return {k: default_collate([_key(d, k) for d in batch]) for k in elem}
    if isinstance(elem, (tuple, list)):
        if any(not isinstance(b, (tuple, list)) or len(b) != len(elem) for b in batch):
            raise GradcliError("each element in list of batch should be of equal size")
        # (each field's samples are the tuple `zip` makes, as in PyTorch: strings stay in it)
        fields = [default_collate(samples) for samples in zip(*batch)]
        from .pycollections import Record

        if isinstance(elem, Record):  # a named tuple stays one: `Pt(x=tensor(...), y=...)`
            return Record(elem.cls, tuple(fields))
        return fields
    raise GradcliError(
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
        f"found {typename(elem)}"
    ).mirror("TypeError")
