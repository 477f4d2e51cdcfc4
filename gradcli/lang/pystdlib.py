"""Three small modules of Python's standard library that notebooks use around their tensors:
`statistics` (the mean and spread of a list of losses or timings), `heapq` (a beam search's or
a top-k's heap of `(score, index)` tuples) and `bisect` (a learning-rate schedule's milestone,
a bucket of sorted lengths).

statistics runs Python's own module, but on numbers and strings only (a tensor is refused with
what to write instead: `.item()` or `.tolist()`), the items counted against the list limit
first. heapq and bisect work on the program's own list in place, as Python's do; their items
compare as `sorted()` compares them (a one-element tensor by its value), so nothing of a
program's object is reached but its comparison (a nested item's size checked first), and every
step is counted by the run's clock.
"""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import Tensor, typename
from .pyobjects import _Key, call_value, sort_items, vmap_outer_change
from .values import Builtin, as_index, check_structure, seq

# --- statistics ---------------------------------------------------------------------------

_NUMBER = (int, float)


def _data(fn: str, data: Any, text: bool = False) -> list:
    items = seq(data, f"statistics.{fn}()")
    for v in items:
        if isinstance(v, _NUMBER) or (text and isinstance(v, (str, tuple))):
            if isinstance(v, tuple):
                check_structure(v, f"statistics.{fn}()")
            continue
        hint = (
            "pass Python numbers: `[t.item() for t in losses]`, or `tensor.tolist()`"
            if isinstance(v, Tensor)
            else "pass a list of Python numbers"
        )
        raise GradcliError(
            f"statistics.{fn}() of a '{typename(v)}' item is not supported in gradcli programs",
            hint=hint,
        )
    return items


def _stat(fn: str, text: bool = False) -> Builtin:
    import statistics

    host = getattr(statistics, fn)

    def run(data: Any, *args: Any, **kwargs: Any) -> Any:
        for a in list(args) + list(kwargs.values()):
            if a is not None and not isinstance(a, (_NUMBER, str)):
                raise GradcliError(
                    f"statistics.{fn}() with a '{typename(a)}' argument is not supported in "
                    "gradcli programs",
                    hint="pass Python numbers",
                )
        items = _data(fn, data, text)
        limits.BUDGET.tick()
        try:
            return host(items, *args, **kwargs)
        except statistics.StatisticsError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
        except (TypeError, ValueError) as e:
            raise GradcliError(str(e)).mirror(type(e).__name__).pytorch() from None

    return Builtin(f"statistics.{fn}", run)


_STAT_NUMBERS = (
    "mean",
    "fmean",
    "geometric_mean",
    "harmonic_mean",
    "median",
    "median_low",
    "median_high",
    "median_grouped",
    "stdev",
    "pstdev",
    "variance",
    "pvariance",
    "quantiles",
)


def statistics_members() -> dict[str, Any]:
    out: dict[str, Any] = {n: _stat(n) for n in _STAT_NUMBERS}
    out["mode"] = _stat("mode", text=True)
    out["multimode"] = _stat("multimode", text=True)
    return out


# --- heapq --------------------------------------------------------------------------------


def _heap(fn: str, heap: Any) -> list:
    if type(heap) is not list:
        raise GradcliError(f"{fn}() argument 1 must be list, not {typename(heap)}").mirror(
            "TypeError"
        )
    limits.BUDGET.tick()
    vmap_outer_change(heap, f"heapq.{fn}()")
    return heap


def _less(a: Any, b: Any) -> bool:
    try:
        return _Key(a) < _Key(b)
    except TypeError as e:
        raise GradcliError(str(e)).mirror("TypeError").pytorch() from None
    except RecursionError:
        raise GradcliError(
            "comparing items nested this deeply is not supported in gradcli programs",
            hint="keep a heap's items flat: (score, index) tuples",
        ) from None


# The heap steps of Python's heapq, written out so that every comparison is one of sorted()'s
# (`_Key`) and made in the same order as Python's (the same ties, the same final list).


def _toward_root(heap: list, start: int, pos: int) -> None:
    """The item at `pos` moved up while it is less than its parent."""
    item = heap[pos]
    while pos > start:
        parent = (pos - 1) >> 1
        if not _less(item, heap[parent]):
            break
        heap[pos] = heap[parent]
        pos = parent
    heap[pos] = item


def _toward_leaves(heap: list, pos: int) -> None:
    """The item at `pos` sunk to a leaf along the smaller children, then moved back up."""
    end, start, item = len(heap), pos, heap[pos]
    child = 2 * pos + 1
    while child < end:
        if child + 1 < end and not _less(heap[child], heap[child + 1]):
            child += 1
        heap[pos] = heap[child]
        pos, child = child, 2 * child + 1
    heap[pos] = item
    _toward_root(heap, start, pos)


def _checked(item: Any, fn: str) -> Any:
    check_structure(item, f"heapq.{fn}()")
    return item


def _heappush(heap: Any, item: Any) -> None:
    heap = _heap("heappush", heap)
    limits.LIST_ITEMS.check(len(heap) + 1, "the number of items of a list")
    heap.append(_checked(item, "heappush"))
    _toward_root(heap, 0, len(heap) - 1)


def _heappop(heap: Any) -> Any:
    heap = _heap("heappop", heap)
    if not heap:
        raise GradcliError("index out of range").mirror("IndexError")
    last = heap.pop()
    if not heap:
        return last
    out, heap[0] = heap[0], last
    _toward_leaves(heap, 0)
    return out


def _heapify(heap: Any) -> None:
    heap = _heap("heapify", heap)
    check_structure(heap, "heapq.heapify()")
    for i in reversed(range(len(heap) // 2)):
        limits.BUDGET.tick()
        _toward_leaves(heap, i)


def _heappushpop(heap: Any, item: Any) -> Any:
    heap = _heap("heappushpop", heap)
    _checked(item, "heappushpop")
    if heap and _less(heap[0], item):
        item, heap[0] = heap[0], item
        _toward_leaves(heap, 0)
    return item


def _heapreplace(heap: Any, item: Any) -> Any:
    heap = _heap("heapreplace", heap)
    if not heap:
        raise GradcliError("index out of range").mirror("IndexError")
    out, heap[0] = heap[0], _checked(item, "heapreplace")
    _toward_leaves(heap, 0)
    return out


def _top(fn: str, reverse: bool) -> Builtin:
    # Python documents nlargest(n, it, key) as sorted(it, key=key, reverse=True)[:n] and
    # nsmallest as sorted(it, key=key)[:n]: the same items in the same order (ties kept stable).
    def run(n: Any, iterable: Any, key: Any = None) -> list:
        n = as_index(n)
        if isinstance(n, bool) or not isinstance(n, int):
            raise GradcliError(
                f"'{typename(n)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        items = seq(iterable, f"heapq.{fn}()")
        if n <= 0:
            return []
        return sort_items(items, key, reverse)[:n]

    return Builtin(f"heapq.{fn}", run)


def heapq_members() -> dict[str, Any]:
    return {
        "heappush": Builtin("heapq.heappush", _heappush),
        "heappop": Builtin("heapq.heappop", _heappop),
        "heapify": Builtin("heapq.heapify", _heapify),
        "heappushpop": Builtin("heapq.heappushpop", _heappushpop),
        "heapreplace": Builtin("heapq.heapreplace", _heapreplace),
        "nlargest": _top("nlargest", True),
        "nsmallest": _top("nsmallest", False),
    }


# --- bisect -------------------------------------------------------------------------------


def _bounds(a: Any, lo: Any, hi: Any) -> tuple[int, int]:
    lo = as_index(lo)
    if isinstance(lo, bool) or not isinstance(lo, int):
        raise GradcliError(f"'{typename(lo)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    if lo < 0:
        raise GradcliError("lo must be non-negative").mirror("ValueError")
    if hi is None:
        hi = len(a)
    else:
        hi = as_index(hi)
        if isinstance(hi, bool) or not isinstance(hi, int):
            raise GradcliError(
                f"'{typename(hi)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
    return lo, hi


def _search(fn: str, right: bool, a: Any, x: Any, lo: Any, hi: Any, key: Any) -> int:
    """The binary search of Python's bisect (the same items compared in the same order, so a
    key that prints prints as often), on a list, a tuple or a range."""
    if not isinstance(a, (list, tuple, range)):
        raise GradcliError(
            f"bisect.{fn}() of a '{typename(a)}' is not supported in gradcli programs",
            hint="pass a sorted list (`sorted(values)` or `tensor.tolist()`)",
        )
    lo, hi = _bounds(a, lo, hi)
    check_structure(x, f"bisect.{fn}()")
    while lo < hi:
        limits.BUDGET.tick()
        mid = (lo + hi) // 2
        item = a[mid] if key is None else call_value(key, a[mid])
        check_structure(item, f"bisect.{fn}()")
        if right:
            if _less(x, item):
                hi = mid
            else:
                lo = mid + 1
        elif _less(item, x):
            lo = mid + 1
        else:
            hi = mid
    return lo


def _bisector(fn: str, right: bool) -> Builtin:
    def run(a: Any, x: Any, lo: Any = 0, hi: Any = None, *, key: Any = None) -> int:
        return _search(fn, right, a, x, lo, hi, key)

    return Builtin(f"bisect.{fn}", run)


def _insorter(fn: str, right: bool) -> Builtin:
    def run(a: Any, x: Any, lo: Any = 0, hi: Any = None, *, key: Any = None) -> None:
        if type(a) is not list:
            raise GradcliError(
                f"bisect.{fn}() of a '{typename(a)}' is not supported in gradcli programs",
                hint="insert into a list",
            )
        limits.LIST_ITEMS.check(len(a) + 1, "the number of items of a list")
        vmap_outer_change(a, f"bisect.{fn}()")
        kx = x if key is None else call_value(key, x)
        a.insert(_search(fn, right, a, kx, lo, hi, key), x)

    return Builtin(f"bisect.{fn}", run)


def bisect_members() -> dict[str, Any]:
    return {
        "bisect_left": _bisector("bisect_left", False),
        "bisect_right": _bisector("bisect_right", True),
        "bisect": _bisector("bisect", True),
        "insort_left": _insorter("insort_left", False),
        "insort_right": _insorter("insort_right", True),
        "insort": _insorter("insort", True),
    }


# --- operator.itemgetter / attrgetter ------------------------------------------------------


def _getter(kind: str, read: Any, args: tuple) -> Builtin:
    if not args:
        raise GradcliError(f"{kind} expected 1 argument, got 0").mirror("TypeError")
    shown = f"operator.{kind}({', '.join(repr(a) for a in args)})"

    def run(obj: Any) -> Any:
        if len(args) == 1:
            return read(obj, args[0])
        return tuple(read(obj, a) for a in args)

    return Builtin(kind, run, shown=shown)


def _itemgetter(*items: Any) -> Builtin:
    from .fx import GETITEM

    return _getter("itemgetter", lambda obj, i: call_value(GETITEM, obj, i), items)


def _attrgetter(*names: Any) -> Builtin:
    from .builtins import _getattr

    for n in names:
        if not isinstance(n, str):
            raise GradcliError("attribute name must be a string").mirror("TypeError")

    def read(obj: Any, name: str) -> Any:
        for part in name.split("."):
            obj = _getattr(obj, part)
        return obj

    return _getter("attrgetter", read, names)


def operator_members() -> dict[str, Any]:
    """Python's `operator` module: its functions of the operators (`lang.fx`'s, what fx graphs
    name) with `itemgetter` and `attrgetter` (a sort key: `sorted(pairs, key=itemgetter(1))`),
    each read made as the program's own `obj[i]` / `getattr(obj, name)`."""
    from .fx import operator_members as operators

    return {
        **operators(),
        "itemgetter": Builtin("operator.itemgetter", _itemgetter),
        "attrgetter": Builtin("operator.attrgetter", _attrgetter),
    }
