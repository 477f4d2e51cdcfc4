"""Python's `itertools`, the part programs use beside torch: `chain` (one optimizer for the
parameters of several modules: `Adam(itertools.chain(enc.parameters(), dec.parameters()))`),
`chain.from_iterable`, `product` (a grid of settings), `combinations`,
`combinations_with_replacement`, `permutations`, `islice`, `count`, `repeat`, `zip_longest`
and `accumulate`.

Each is an iterator made lazily, as Python's: its items are made as a loop asks for them, so
an endless `count()` is consumed in part and a loop over it is bounded by the run's limits.
What Python's own functions would store before the first item (the pools of `product`,
`combinations` and `permutations`, the widths of their tuples) is counted against the list
limit first, so `product(range(10**9))` or `product(x, repeat=10**8)` is refused before
anything is made. The items of the arguments are read through the interpreter's iteration
(a program's generator runs as Python runs it); nothing else of Python's is reached.
"""

from __future__ import annotations

import ast
import itertools as _it
from collections.abc import Iterator
from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import typename
from .values import Builtin, Generator, as_index, int_check, int_index, iterate, seq


class Iterated(Generator):
    """An itertools iterator: a generator of gradcli's that prints and names itself as
    Python's (`<itertools.chain object at 0x...>`, `type(...)` is `itertools.chain`)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str, it: Iterator[Any]):
        super().__init__(it)
        self.kind = kind

    def __repr__(self) -> str:
        return f"<itertools.{self.kind} object at {id(self):#x}>"

    def program_typename(self) -> str:
        return f"itertools.{self.kind}"


def _ticked(it: Iterator[Any]) -> Iterator[Any]:
    """Items of `it`, the run's clock checked at each (an item can be cheap to ask for and
    long to make: a tuple of a permutation)."""
    tick = limits.BUDGET.tick
    for v in it:
        tick()
        yield v


def _int(v: Any, what: str) -> int:
    v = as_index(v)  # (its __index__, as Python takes it)
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradcliError(f"'{typename(v)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    return v


def _pool(v: Any, what: str) -> tuple:
    """The items of one argument, stored as Python stores them (checked against the list
    limit before and while they are made)."""
    return tuple(seq(v, what))


def _chain(*iterables: Any) -> Iterated:
    def gen() -> Iterator[Any]:
        for v in iterables:
            yield from iterate(v, "chain()")

    return Iterated("chain", _ticked(gen()))


def _from_iterable(iterables: Any) -> Iterated:
    def gen() -> Iterator[Any]:
        for v in iterate(iterables, "chain.from_iterable()"):
            yield from iterate(v, "chain.from_iterable()")

    return Iterated("chain", _ticked(gen()))


class Chain(Builtin):
    """`itertools.chain`, with its `chain.from_iterable`."""

    __slots__ = ()

    def program_attribute(self, name: str) -> Any:
        if name == "from_iterable":
            return FROM_ITERABLE
        raise GradcliError(f"type object 'itertools.chain' has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def __repr__(self) -> str:
        return "<class 'itertools.chain'>"


FROM_ITERABLE = Builtin("chain.from_iterable", _from_iterable)


def _product(*iterables: Any, repeat: Any = 1) -> Iterated:
    repeat = _int(repeat, "repeat")
    if repeat < 0:
        raise GradcliError("repeat argument cannot be negative").mirror("ValueError")
    pools = [_pool(v, "product()") for v in iterables]
    width = len(pools) * repeat
    # Python keeps `repeat` copies of the pools and makes tuples `width` long.
    limits.LIST_ITEMS.check(width, "the length of each tuple product() would make")
    limits.LIST_ITEMS.check(
        sum(len(p) for p in pools) * repeat, "the number of items product() would keep"
    )
    return Iterated("product", _ticked(_it.product(*pools, repeat=repeat)))


def _r(r: Any, n: int, what: str, default: int | None = None) -> int:
    if r is None and default is not None:
        return default
    r = _int(r, what)
    if r < 0:
        raise GradcliError("r must be non-negative").mirror("ValueError")
    return r


def _combinations(iterable: Any, r: Any) -> Iterated:
    pool = _pool(iterable, "combinations()")
    r = _r(r, len(pool), "combinations()")
    return Iterated("combinations", _ticked(_it.combinations(pool, min(r, len(pool) + 1))))


def _combinations_with_replacement(iterable: Any, r: Any) -> Iterated:
    pool = _pool(iterable, "combinations_with_replacement()")
    r = _r(r, len(pool), "combinations_with_replacement()")
    if pool:
        limits.LIST_ITEMS.check(
            r, "the length of each tuple combinations_with_replacement() would make"
        )
    else:
        r = min(r, 1)
    return Iterated(
        "combinations_with_replacement", _ticked(_it.combinations_with_replacement(pool, r))
    )


def _permutations(iterable: Any, r: Any = None) -> Iterated:
    pool = _pool(iterable, "permutations()")
    r = _r(r, len(pool), "permutations()", default=len(pool))
    return Iterated("permutations", _ticked(_it.permutations(pool, min(r, len(pool) + 1))))


def _islice(iterable: Any, *args: Any) -> Iterated:
    if not 1 <= len(args) <= 3:
        raise GradcliError(
            f"islice expected at most 4 arguments, got {len(args) + 1}"
            if args
            else "islice expected at least 2 arguments, got 1"
        ).mirror("TypeError")
    taken = []
    for a in args:
        try:  # (its __index__; a value that has none is refused in islice's words)
            a = a if a is None else int_index(a)
        except GradcliError:
            a = -1
        taken.append(a)
        if a is not None and a < 0:
            which = "Stop argument" if len(args) == 1 else "Indices"
            raise GradcliError(
                f"{which} for islice() must be None or an integer: 0 <= x <= sys.maxsize."
            ).mirror("ValueError")
    if len(taken) == 3 and taken[2] == 0:
        raise GradcliError("Step for islice() must be a positive integer or None.").mirror(
            "ValueError"
        )
    return Iterated("islice", _ticked(_it.islice(iterate(iterable, "islice()"), *taken)))


def _count(start: Any = 0, step: Any = 1) -> Iterated:
    for v in (start, step):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise GradcliError("a number is required").mirror("TypeError")

    def gen() -> Iterator[Any]:
        v = start
        while True:
            yield int_check(v)
            v = v + step

    return Iterated("count", _ticked(gen()))


def _repeat(obj: Any, times: Any = None) -> Iterated:
    if times is None:
        return Iterated("repeat", _ticked(_it.repeat(obj)))
    return Iterated("repeat", _ticked(_it.repeat(obj, max(0, _int(times, "times")))))


def _zip_longest(*iterables: Any, fillvalue: Any = None) -> Iterated:
    its = [iterate(v, "zip_longest()") for v in iterables]
    return Iterated("zip_longest", _ticked(_it.zip_longest(*its, fillvalue=fillvalue)))


def _accumulate(iterable: Any, func: Any = None, *, initial: Any = None) -> Iterated:
    from .operators import binop
    from .pyobjects import call_value

    def step(a: Any, b: Any) -> Any:
        return binop(ast.Add(), a, b) if func is None else call_value(func, a, b)

    def gen() -> Iterator[Any]:
        it = iter(iterate(iterable, "accumulate()"))
        if initial is not None:
            total = initial
        else:
            try:
                total = next(it)
            except StopIteration:
                return
        yield total
        for v in it:
            total = step(total, v)
            yield total

    return Iterated("accumulate", _ticked(gen()))


FUNCTIONS: dict[str, Any] = {
    "chain": Chain("itertools.chain", _chain),
    "product": Builtin("itertools.product", _product),
    "combinations": Builtin("itertools.combinations", _combinations),
    "combinations_with_replacement": Builtin(
        "itertools.combinations_with_replacement", _combinations_with_replacement
    ),
    "permutations": Builtin("itertools.permutations", _permutations),
    "islice": Builtin("itertools.islice", _islice),
    "count": Builtin("itertools.count", _count),
    "repeat": Builtin("itertools.repeat", _repeat),
    "zip_longest": Builtin("itertools.zip_longest", _zip_longest),
    "accumulate": Builtin("itertools.accumulate", _accumulate),
}
