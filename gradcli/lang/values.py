"""The values a program holds besides tensors and Python scalars (namespaces, dtypes, builtins,
bound methods, user functions, `torch.autograd.Function` classes and their `ctx`), the signals
of `return` / `break` / `continue`, and walking Python values without making more items than
the limits allow."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError
from ..base.record import Record
from ..core.tensor import Tensor, typename
from ..surface import indexing as I


class Namespace:
    """`torch`, `torch.nn`, `F`, `numpy`...: a fixed table of members."""

    def __init__(self, name: str, members: dict[str, Any]):
        self.name = name
        self.members = members

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


class DType(Record):
    _fields = ("name", "np")
    name: str
    np: np.dtype

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class Builtin(Record):
    _fields = ("name", "fn")
    name: str
    fn: Callable[..., Any]

    def __repr__(self) -> str:
        return f"<built-in function {self.name}>"


class BoundMethod(Record):
    _fields = ("name", "fn", "obj")
    name: str
    fn: Callable[..., Any]
    obj: Any

    def __repr__(self) -> str:
        return f"<built-in method {self.name}>"


class UserFunction(Record):
    _fields = ("name", "node", "defaults", "closure")
    _defaults = {"closure": None}
    name: str
    node: ast.FunctionDef
    defaults: dict[str, Any]
    closure: dict[str, Any] | None

    def __repr__(self) -> str:
        return f"<function {self.name}>"


class FunctionClass(Record):
    """`class F(torch.autograd.Function)` with static forward/backward, used as `F.apply`."""

    _fields = ("name", "forward", "backward")
    name: str
    forward: UserFunction
    backward: UserFunction

    def __repr__(self) -> str:
        return f"<class '{self.name}'>"


class Ctx:
    """The `ctx` of a custom `torch.autograd.Function`."""

    def __init__(self) -> None:
        self.saved_tensors: tuple = ()
        self.attrs: dict[str, Any] = {}
        self.needs_input_grad: tuple = ()
        self.non_differentiable: tuple = ()
        self.materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        self.saved_tensors = tuple(tensors)

    def mark_non_differentiable(self, *a: Any) -> None:
        self.non_differentiable = tuple(a)

    def set_materialize_grads(self, v: bool) -> None:
        self.materialize_grads = bool(v)


class GradFn(Record):
    _fields = ("name",)
    name: str

    def __repr__(self) -> str:
        return f"<{self.name} object>"


class Return(Exception):
    def __init__(self, value: Any):
        self.value = value


class Break(Exception):
    pass


class Continue(Exception):
    pass


def range_len(r: range) -> int:
    """len(r), also for a range longer than sys.maxsize (where len() raises)."""
    if r.step > 0:
        n = (r.stop - r.start + r.step - 1) // r.step
    else:
        n = (r.start - r.stop - r.step - 1) // -r.step
    return max(0, n)


def length(v: Any) -> int | None:
    """How many items iterating `v` gives, or None if `v` is not iterable."""
    if isinstance(v, range):
        return range_len(v)
    if isinstance(v, (list, tuple, str)):
        return len(v)
    if isinstance(v, Tensor):
        return v.shape[0] if v.ndim else None
    return None


def seq(v: Any, what: str) -> list:
    """The items of `v` as a list (checked against LIST_ITEMS before they are made)."""
    n = length(v)
    if n is None:
        if isinstance(v, Tensor):
            raise GradcliError("iteration over a 0-d tensor")
        raise GradcliError(f"{what}: '{typename(v)}' object is not iterable")
    limits.LIST_ITEMS.check(n, f"the number of items for {what}")
    if isinstance(v, Tensor):
        return [I.getitem(v, i) for i in range(n)]
    return list(v)


def iterate(v: Any, what: str) -> Any:
    """The items of `v`, one at a time (a `for` loop makes none of them in advance)."""
    if isinstance(v, (range, list, tuple, str)):
        return v
    if isinstance(v, Tensor):
        if v.ndim == 0:
            raise GradcliError("iteration over a 0-d tensor")
        return (I.getitem(v, i) for i in range(v.shape[0]))
    items = getattr(type(v), "program_items", None)  # nn.Sequential, ModuleList, ModuleDict
    if items is not None:
        return items(v)
    raise GradcliError(f"{what}: '{typename(v)}' object is not iterable")


def check_structure(v: Any, what: str, tensor_cost: int = 1) -> None:
    """Lists and tuples can nest and share items, so that walking one (to print it, compare it
    or turn it into a tensor) may visit far more items than were ever made: `l = [l, l]` ten
    times over is 2**10 items. Count the visits (without making them) first."""
    if not isinstance(v, (list, tuple)):
        return
    budget = limits.LIST_ITEMS.value
    depth_limit = limits.NESTING.value
    count = 0
    stack: list[tuple[Any, int]] = [(v, 1)]
    while stack:
        x, depth = stack.pop()
        if depth > depth_limit:
            raise LimitError(
                f"{what}: the list is nested over {depth_limit} levels deep",
                expected=f"at most {depth_limit} levels ({limits.NESTING.name})",
                hint=f"raise it with the environment variable {limits.NESTING.env}=N if you "
                "need more",
            )
        count += len(x)
        for e in x:
            if isinstance(e, (list, tuple)):
                stack.append((e, depth + 1))
            elif isinstance(e, Tensor):
                count += tensor_cost
        if count > budget:
            limits.LIST_ITEMS.check(count, f"the number of items {what} would visit")


def short(text: str, n: int = 200) -> str:
    text = text.strip().splitlines()[0] if text.strip() else text
    return text if len(text) <= n else text[: n - 1] + "…"


def int_check(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        limits.INT_BITS.check(v.bit_length(), "the size of an integer in bits")
    return v
