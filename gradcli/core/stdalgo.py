"""libstdc++'s sorting and selection algorithms on positions, as PyTorch's CPU kernels run
them (which of several equal elements ends where): used by sort, topk, mode, nanmedian and
multinomial.
Imports only the standard library."""

from __future__ import annotations

from typing import Any


class _StdAlgorithms:
    """libstdc++'s std::sort (introsort, then insertion sort) and std::nth_element
    (introselect) on the positions 0..n-1 under a comparator `less(i, j)`: which of several
    equivalent elements ends where depends on them, and PyTorch's CPU kernels use them (mode
    sorts (value, index) pairs by value, not stably past 16 elements; nanmedian selects among
    equivalent NaNs)."""

    def __init__(self, n: int, less: Any) -> None:
        self.a = list(range(n))
        self.less = less

    def _lt(self, i: int, j: int) -> bool:
        return self.less(self.a[i], self.a[j])

    def _adjust_heap(self, first: int, hole: int, length: int, value: int) -> None:
        a, less = self.a, self.less
        top = child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if less(a[first + child], a[first + child - 1]):
                child -= 1
            a[first + hole] = a[first + child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole] = a[first + child - 1]
            hole = child - 1
        parent = int((hole - 1) / 2)
        while hole > top and less(a[first + parent], value):
            a[first + hole] = a[first + parent]
            hole = parent
            parent = int((hole - 1) / 2)
        a[first + hole] = value

    def _make_heap(self, first: int, last: int) -> None:
        length = last - first
        if length < 2:
            return
        parent = (length - 2) // 2
        while True:
            self._adjust_heap(first, parent, length, self.a[first + parent])
            if parent == 0:
                return
            parent -= 1

    def _pop_heap(self, first: int, last: int, result: int) -> None:
        a = self.a
        value = a[result]
        a[result] = a[first]
        self._adjust_heap(first, 0, last - first, value)

    def _heap_select(self, first: int, middle: int, last: int) -> None:
        self._make_heap(first, middle)
        for i in range(middle, last):
            if self._lt(i, first):
                self._pop_heap(first, middle, i)

    def _partition_pivot(self, first: int, last: int) -> int:
        a, lt = self.a, self._lt
        x, y, z = first + 1, first + (last - first) // 2, last - 1
        if lt(x, y):
            k = y if lt(y, z) else (z if lt(x, z) else x)
        elif lt(x, z):
            k = x
        else:
            k = z if lt(y, z) else y
        a[first], a[k] = a[k], a[first]
        lo, hi = first + 1, last
        while True:
            while lt(lo, first):
                lo += 1
            hi -= 1
            while lt(first, hi):
                hi -= 1
            if not lo < hi:
                return lo
            a[lo], a[hi] = a[hi], a[lo]
            lo += 1

    def _linear_insert(self, last: int) -> None:
        a, less = self.a, self.less
        val = a[last]
        nxt = last - 1
        while less(val, a[nxt]):
            a[last] = a[nxt]
            last = nxt
            nxt -= 1
        a[last] = val

    def _insertion_sort(self, first: int, last: int) -> None:
        a = self.a
        for i in range(first + 1, last):
            if self._lt(i, first):
                val = a[i]
                a[first + 1 : i + 1] = a[first:i]
                a[first] = val
            else:
                self._linear_insert(i)

    def _introsort(self, first: int, last: int, depth: int) -> None:
        while last - first > 16:
            if depth == 0:
                self._heap_select(first, last, last)
                while last - first > 1:
                    last -= 1
                    self._pop_heap(first, last, last)
                return
            depth -= 1
            cut = self._partition_pivot(first, last)
            self._introsort(cut, last, depth)
            last = cut

    def sort(self) -> list[int]:
        n = len(self.a)
        if n:
            self._introsort(0, n, 2 * (n.bit_length() - 1))
            if n > 16:
                self._insertion_sort(0, 16)
                for i in range(16, n):
                    self._linear_insert(i)
            else:
                self._insertion_sort(0, n)
        return self.a

    def nth_element(self, nth: int) -> list[int]:
        first, last = 0, len(self.a)
        if first == last or nth == last:
            return self.a
        depth = 2 * (last.bit_length() - 1)
        while last - first > 3:
            if depth == 0:
                self._heap_select(first, nth + 1, last)
                self.a[first], self.a[nth] = self.a[nth], self.a[first]
                return self.a
            depth -= 1
            cut = self._partition_pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        self._insertion_sort(first, last)
        return self.a


def _comparator(v: list, first_large: bool) -> Any:
    """PyTorch's comparators on positions: largest first (NaN before everything) or smallest
    first (NaN after everything)."""
    if first_large:

        def less(i: int, j: int) -> bool:
            a, b = v[i], v[j]
            return (a != a and b == b) or a > b
    else:

        def less(i: int, j: int) -> bool:
            a, b = v[i], v[j]
            return (a == a and b != b) or a < b

    return less


def sort_order(values: Any, descending: bool) -> list[int]:
    """The positions of `values` in the order PyTorch's CPU sort (stable=False) leaves them:
    std::sort of (value, index) pairs under its comparator, so equal values are not in index
    order past 16 elements."""
    v = list(values)
    return _StdAlgorithms(len(v), _comparator(v, descending)).sort()


def topk_order(values: Any, k: int, largest: bool = True, sorted: bool = True) -> list[int]:  # noqa: A002
    """The positions of the k largest (or smallest) of `values` in the order PyTorch's CPU topk
    leaves them: with k * 64 <= n a partial_sort, else an nth_element at k - 1 and (sorted) a
    sort of the k - 1 before it; NaN counts as the largest. Equal values end in the order these
    algorithms move them, not in index order."""
    v = list(values)
    n = len(v)
    algo = _StdAlgorithms(n, _comparator(v, largest))
    if k <= 0 or n == 0:
        return []
    if k * 64 <= n:
        algo._heap_select(0, k, n)
        last = k
        while last > 1:  # sort_heap
            last -= 1
            algo._pop_heap(0, last, last)
        return algo.a[:k]
    algo.nth_element(k - 1)
    m = k - 1
    if m > 1 and sorted:
        algo._introsort(0, m, 2 * (m.bit_length() - 1))
        if m > 16:
            algo._insertion_sort(0, 16)
            for i in range(16, m):
                algo._linear_insert(i)
        else:
            algo._insertion_sort(0, m)
    return algo.a[:k]


def quick_select(values: Any, k: int) -> int:
    """The position ATen's own quickselect (`quick_select_template`, what CPU kthvalue and
    median run) leaves at k: median-of-three pivots on (value, index) pairs, NaN as the
    largest; which of several equal values it picks is its own."""
    arr = list(values)
    pos = list(range(len(arr)))

    def gt(x: Any, y: Any) -> bool:
        return (x != x and y == y) or x > y

    def swap(i: int, j: int) -> None:
        arr[i], arr[j] = arr[j], arr[i]
        pos[i], pos[j] = pos[j], pos[i]

    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while gt(pivot, arr[i]):
                i += 1
            j -= 1
            while gt(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return pos[k]
