"""`collections.Counter` as a program counts with it (a vocabulary's word counts, the labels of a
dataset): Python's own Counter (`Counter`, a subclass that only marks it), with its counting
methods in a fixed table and every count of items bounded before it is made.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import typename
from .values import hashable, seq

# --- Counter ----------------------------------------------------------------------------------


class Counter(collections.Counter):
    """A program's `collections.Counter` (Python's, marked): a missing key counts 0; counting an
    iterable reads its items through `seq` (bounded), and `elements()` is sized before it is
    made (a count of 10**18 is a refusal, not a hang)."""

    __slots__ = ()

    def program_typename(self) -> str:
        return "Counter"  # (a Python class: its name, not collections.Counter)

    @staticmethod
    def program_repr(c: Counter, item: Callable[[Any], str]) -> str:
        if not c:
            return "Counter()"
        try:
            pairs = c.most_common()
        except TypeError:  # counts that do not compare: Python shows them in dict order
            pairs = list(c.items())
        return "Counter({" + ", ".join(f"{item(k)}: {item(v)}" for k, v in pairs) + "})"


def _count_into(c: Counter, iterable: Any, sign: int, what: str) -> None:
    if isinstance(iterable, dict):
        limits.LIST_ITEMS.check(len(c) + len(iterable), f"the number of keys of {what}")
        for k, v in iterable.items():
            c[k] = c.get(k, 0) + sign * v if sign > 0 else c.get(k, 0) - v
        return
    items = seq(iterable, what)
    limits.LIST_ITEMS.check(len(c) + len(items), f"the number of keys of {what}")
    for v in items:
        k = hashable(v)
        c[k] = c.get(k, 0) + sign


def make_counter(iterable: Any = None, **kwargs: Any) -> Counter:
    """`Counter(words)`, `Counter({'a': 2})`, `Counter(a=2, b=1)`."""
    out = Counter()
    if iterable is not None:
        _count_into(out, iterable, 1, "Counter()")
    if kwargs:
        _count_into(out, kwargs, 1, "Counter()")
    return out


def _c_update(c: Counter, iterable: Any = None, **kwargs: Any) -> None:
    if iterable is not None:
        _count_into(c, iterable, 1, "Counter.update()")
    if kwargs:
        _count_into(c, kwargs, 1, "Counter.update()")


def _c_subtract(c: Counter, iterable: Any = None, **kwargs: Any) -> None:
    if iterable is not None:
        _count_into(c, iterable, -1, "Counter.subtract()")
    if kwargs:
        _count_into(c, kwargs, -1, "Counter.subtract()")


def _c_most_common(c: Counter, n: Any = None) -> list:
    if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
        # (Python's compares n with 0 first)
        raise (
            GradcliError(f"'>=' not supported between instances of '{typename(n)}' and 'int'")
            .mirror("TypeError")
            .pytorch()
        )  # (Python's words: catchable though they say "not supported")
    return c.most_common(n)


def _c_elements(c: Counter) -> Any:
    total = 0
    for v in c.values():
        if isinstance(v, bool) or not isinstance(v, int):
            raise GradcliError(
                f"'{typename(v)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        total += max(v, 0)
    limits.LIST_ITEMS.check(total, "the items of Counter.elements()")
    return iter(list(c.elements()))


def _c_copy(c: Counter) -> Counter:
    out = Counter()
    out.update(dict(c))
    return out


def counter_methods(dict_methods: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """A Counter's methods: a dict's, with Counter's own counting ones."""
    return {
        **dict_methods,
        "update": _c_update,
        "subtract": _c_subtract,
        "most_common": _c_most_common,
        "elements": _c_elements,
        "total": lambda c: c.total(),
        "copy": _c_copy,
    }


def counter_binop(symbol: str, a: Counter, b: Counter) -> Counter:
    """`a + b`, `a - b`, `a | b`, `a & b` of two Counters (positive counts kept), as Python's,
    of number counts only."""
    for c in (a, b):
        for v in c.values():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise GradcliError(
                    f"Counter {symbol} Counter with counts of {typename(v)} is not supported by "
                    "gradcli",
                    hint="count with numbers (int(t.item()) for a tensor)",
                )
    limits.LIST_ITEMS.check(len(a) + len(b), "the size of the Counter")
    plain_a, plain_b = collections.Counter(dict(a)), collections.Counter(dict(b))
    made = {"+": plain_a + plain_b, "-": plain_a - plain_b, "|": plain_a | plain_b}.get(symbol)
    if made is None:
        made = plain_a & plain_b
    out = Counter()
    dict.update(out, made)
    return out
