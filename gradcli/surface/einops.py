"""`torch.func.rearrange` (also `functorch.einops.rearrange`): einops' reader-friendly
rearrangement of a tensor's dimensions ("b h w c -> b (c h w)"), as PyTorch 2.13 computes it.

PyTorch binds each axis of the left side to a first-class dimension (numbered d0, d1, ... in
the order of the left side, an ellipsis taking as many as it covers), orders them as the right
side says and sums the unit axes (`1`, `()`) of the left side away. gradcli does the same with
three recorded operations: a reshape that splits the left side's groups into their axes, a
permute into the right side's order (the left side's unit axes last), a reshape that merges the
right side's groups, then the sum over the unit axes; the last node is PyTorch's
(ViewBackward0, ReshapeAliasBackward0 or UnsafeViewBackward0, SumBackward1). The pattern's
errors are PyTorch's words; the sizes that do not fit are functorch.dim's DimensionBindError.
(Where PyTorch names a set of identifiers, gradcli lists them sorted: PyTorch's order is that
of a Python set of strings, which changes from one process to the next.)"""

from __future__ import annotations

import keyword
import math
from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import Tensor
from . import names as N

_ELLIPSIS = "\u2026"  # (PyTorch's stand-in for "..." while parsing)


def _error(message: str, kind: str = "ValueError") -> GradcliError:
    return GradcliError(message).mirror(kind)


def _set(items: Any) -> str:
    return "{" + ", ".join(repr(v) for v in sorted(items)) + "}"


class _Side:
    """One side of the pattern: `groups` in order, each a list of names (a unit axis an empty
    list) or the ellipsis; `names` the set of names (with the ellipsis)."""

    def __init__(self, text: str) -> None:
        self.groups: list[Any] = []
        self.names: set[str] = set()
        self.ellipsis = False
        self.ellipsis_grouped = False
        self.numbered = False  # an anonymous axis other than 1 (refused by rearrange)
        if "." in text:
            if "..." not in text:
                raise _error("Expression may contain dots only inside ellipsis (...)")
            if text.count("...") != 1 or text.count(".") != 3:
                raise _error(
                    "Expression may contain dots only inside ellipsis (...); only one ellipsis "
                    "for tensor "
                )
            text = text.replace("...", _ELLIPSIS)
            self.ellipsis = True
        group: list[str] | None = None
        word: str | None = None
        for ch in text:
            if ch in "() ":
                if word is not None:
                    self._add(word, group)
                word = None
                if ch == "(":
                    if group is not None:
                        raise _error(
                            "Axis composition is one-level (brackets inside brackets not allowed)"
                        )
                    group = []
                elif ch == ")":
                    if group is None:
                        raise _error("Brackets are not balanced")
                    self.groups.append(group)
                    group = None
            elif ch.isalnum() or ch in ("_", _ELLIPSIS):
                word = ch if word is None else word + ch
            else:
                raise _error(f"Unknown character '{ch}'")
        if group is not None:
            raise _error(f"Imbalanced parentheses in expression: '{text}'")
        if word is not None:
            self._add(word, group)

    def _add(self, word: str, group: list[str] | None) -> None:
        if word in self.names:
            raise _error(f"Indexing expression contains duplicate dimension '{word}'")
        if word == _ELLIPSIS:
            self.names.add(word)
            if group is None:
                self.groups.append(word)
            else:
                group.append(word)
                self.ellipsis_grouped = True
            return
        if word.isdecimal():
            if int(word) == 1:
                if group is None:
                    self.groups.append([])
                return
            if int(word) < 1:
                raise _error(f"Anonymous axis should have positive length, not {int(word)}")
            self.numbered = True
            word = f"{word}-axis#{len(self.names)}"  # (each anonymous axis its own)
        elif not word.isidentifier():
            raise _error(f"Invalid axis identifier: {word}\nnot a valid python identifier")
        elif word[0] == "_" or word[-1] == "_":
            raise _error(
                f"Invalid axis identifier: {word}\naxis name should should not start or end "
                "with underscore"
            )
        elif keyword.iskeyword(word):
            pass  # (PyTorch warns, and takes it)
        self.names.add(word)
        if group is None:
            self.groups.append([word])
        else:
            group.append(word)


def _pack(names: tuple[str, ...]) -> str:
    return "(" + ", ".join(names) + ("," if len(names) == 1 else "") + ")"


def rearrange(tensor: Any, pattern: Any, **axes_lengths: Any) -> Tensor:
    """`torch.func.rearrange(tensor, pattern, **axes_lengths)`; a list or tuple of tensors is
    stacked first."""
    if not isinstance(tensor, Tensor):
        tensor = N.FUNCTIONS["stack"](tensor)
    if not isinstance(pattern, str):
        raise _error(f"pattern must be a str, not {type(pattern).__name__}", "TypeError")
    limits.LIST_ITEMS.check(len(pattern), "the length of a rearrange pattern")
    parts = pattern.split("->")
    if len(parts) != 2:
        raise _error("Pattern must contain a single '->' separator")
    if _ELLIPSIS in axes_lengths:
        raise _error(f"'{_ELLIPSIS}' is not an allowed axis identifier")
    left, right = _Side(parts[0]), _Side(parts[1])
    if not left.ellipsis and right.ellipsis:
        raise _error(f"Ellipsis found in right side, but not left side of a pattern {pattern}")
    if left.ellipsis and left.ellipsis_grouped:
        raise _error(f"Ellipsis is parenthesis in the left side is not allowed: {pattern}")
    for length in axes_lengths.values():
        if type(length) is not int:
            raise _error(
                f"rearrange axis lengths must be integers, got: <class '{type(length).__name__}'>",
                "TypeError",
            )
    if left.numbered or right.numbered:
        raise _error("rearrange only supports unnamed axes of size 1")
    only = left.names ^ right.names
    if only:
        raise _error(
            f"Identifiers only on one side of rearrange expression (should be on both): "
            f"{_set(only)}"
        )
    unmatched = set(axes_lengths) - left.names
    if unmatched:
        raise _error(f"Identifiers not found in rearrange expression: {_set(unmatched)}")
    return _rearranged(tensor, left, right, axes_lengths)


def _rearranged(x: Tensor, left: _Side, right: _Side, lengths: dict[str, int]) -> Tensor:
    ndim = x.ndim
    named = len(left.names) - (1 if left.ellipsis else 0)
    units = sum(1 for g in left.groups if g == [])
    if left.ellipsis:
        covered = ndim - (len(left.groups) - 1)
        if named + units > ndim:
            raise _error(
                f"Number of dimensions in pattern ({named + units}) must be less than or equal "
                f"to the number of dimensions in the tensor ({ndim})"
            )
    else:
        covered = 0
        if len(left.groups) != ndim:
            raise _error(
                f"Number of dimensions in pattern ({len(left.groups)}) must be equal to the "
                f"number of dimensions in the tensor ({ndim})"
            )
    if named + covered + units == 0:
        return x  # (a 0-d tensor: itself)
    # each left axis: its first-class dim's number and size, group by group
    sizes: dict[str, int] = {}
    number: dict[str, str] = {}
    axes: list[str] = []  # the elementary axes of the left side, in order
    unit_axes: list[str] = []
    split: list[int] = []
    at = 0  # the tensor's dimension
    for g in left.groups:
        if g == _ELLIPSIS:
            for j in range(covered):
                key = f"{_ELLIPSIS}{j}"
                number[key] = f"d{len(axes)}"
                sizes[key] = x.shape[at]
                axes.append(key)
                split.append(x.shape[at])
                at += 1
            continue
        keys = list(g) if g else [f"1#{len(axes)}"]
        if not g:
            unit_axes.append(keys[0])
        for k in keys:
            number[k] = f"d{len(axes)}"
            axes.append(k)
        _bind(keys, [number[k] for k in keys], x.shape[at], lengths, sizes)
        split.extend(sizes[k] for k in keys)
        at += 1
    # the right side: its groups of elementary axes (the ellipsis its axes, one each)
    order: list[str] = []
    merged: list[int] = []
    for g in right.groups:
        if g == _ELLIPSIS:
            for j in range(covered):
                order.append(f"{_ELLIPSIS}{j}")
                merged.append(sizes[order[-1]])
            continue
        keys = []
        for name in g:
            if name == _ELLIPSIS:
                keys.extend(f"{_ELLIPSIS}{j}" for j in range(covered))
            else:
                keys.append(name)
        order.extend(keys)
        merged.append(math.prod(sizes[k] for k in keys))
    perm = [axes.index(k) for k in order] + [axes.index(k) for k in unit_axes]
    F = N.FUNCTIONS
    y = x
    if tuple(split) != tuple(x.shape):
        y = F["reshape"](y, tuple(split))
    if perm != list(range(len(perm))):
        y = F["permute"](y, tuple(perm))
    y = F["reshape"](y, tuple(merged) + tuple(sizes[k] for k in unit_axes))
    if unit_axes:
        y = F["sum"](y, tuple(range(len(merged), len(merged) + len(unit_axes))))
    return y


def _bind(
    keys: list[str], numbers: list[str], size: int, lengths: dict[str, int], sizes: dict
) -> None:
    """The sizes of one group of the left side (functorch.dim's binding of a dimension pack):
    the given lengths, at most one inferred from the dimension's size."""
    known = [lengths.get(k) for k in keys]
    unknown = [i for i, v in enumerate(known) if v is None]
    if len(unknown) > 1:
        a, b = unknown[0], unknown[1]
        raise _error(
            f"cannot infer the sizes of two dimensions at once {numbers[a]} and {numbers[b]}",
            "DimensionBindError",
        )
    if unknown:
        rest = math.prod(v for v in known if v is not None)
        if rest == 0 or size % rest:
            shown = "(" + ", ".join("'?'" if v is None else str(v) for v in known)
            shown += ",)" if len(known) == 1 else ")"
            raise _error(
                f"inferred dimension does not evenly fit into larger dimension: {size} vs {shown}",
                "DimensionBindError",
            )
        known[unknown[0]] = size // rest
    total = math.prod(known)  # type: ignore[arg-type]
    if total != size:
        raise _error(
            f"Dimension sizes to do not match ({size} != {total}) when matching dimension "
            f"pack {_pack(tuple(numbers))}",
            "DimensionBindError",
        )
    for k, v in zip(keys, known):
        sizes[k] = v
