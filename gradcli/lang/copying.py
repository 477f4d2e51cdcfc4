"""Python's `copy` module for a program's values: `copy.deepcopy(model.state_dict())` (the
"best weights so far" of a training loop), `copy.deepcopy(lst)`, `copy.copy(d)`.

A deep copy walks lists, tuples, dicts (OrderedDicts stay ordered), sets, numbers, strings and
tensors, each object copied once (shared references stay shared, as Python's memo keeps
them); a tensor is copied as PyTorch's `__deepcopy__` copies a graph leaf: its data, its
requires_grad, its `.grad`, an nn.Parameter stays a Parameter. A tensor computed by the graph
is refused in PyTorch's words. A module (`best = copy.deepcopy(model)`, the ensembling
tutorial's base model) and an object of a program's class are copied attribute by attribute, as
Python copies an object's `__dict__`; classes and functions are shared, as Python shares them.
Anything else is not copied: said so, with what to write instead."""

from __future__ import annotations

import collections
from types import BuiltinFunctionType, FunctionType
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported
from ..core.tensor import META, Tensor, on_meta, storage_root, typename
from ..surface import nn as surface_nn
from . import pycollections as PC
from .classes import Instance
from .values import DefaultDict

_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
)


def _tensor(t: Tensor) -> Tensor:
    if t.requires_grad and t.node is not None:
        raise GradcliError(_NON_LEAF).mirror("RuntimeError")
    new = type(t)(np.array(t.data, copy=True), requires_grad=t.requires_grad)
    # PyTorch's Parameter.__deepcopy__ copies the data and requires_grad, not the .grad a
    # tensor's keeps
    if t.grad is not None and not isinstance(t, surface_nn.Parameter):
        new.grad = Tensor(np.array(t.grad.data, copy=True))
    if on_meta(t):  # (a copy of a meta tensor is one, its gradient too)
        META.add(new)
        if new.grad is not None and on_meta(t.grad):
            META.add(new.grad)
    return new


def _saved_tensor(t: Tensor) -> Tensor:
    # torch.save keeps a tensor's data and requires_grad, not its graph nor its .grad: what
    # torch.load gives back is a leaf.
    return type(t)(np.array(t.data, copy=True), requires_grad=t.requires_grad)


def deepcopy(
    value: Any,
    memo: Any = None,
    *,
    tensor: Any = None,
    what: str = "copy.deepcopy()",
    objects: bool = False,
) -> Any:
    # The memo makes the walk linear in the distinct objects (a list that holds itself is
    # copied as Python copies it), so the limits count those and the depth of the recursion
    # itself, not the paths check_structure counts for walks without a memo.
    seen: dict[int, Any] = {}
    visits = 0

    def walk(v: Any, depth: int = 1) -> Any:
        nonlocal visits
        if v is None or isinstance(v, (bool, int, float, complex, str, bytes)):
            return v
        key = id(v)
        if key in seen:
            return seen[key]
        if depth > limits.NESTING.value:
            raise LimitError(
                f"{what}: the value is nested over {limits.NESTING.value} levels deep",
                expected=f"at most {limits.NESTING.value} levels ({limits.NESTING.name})",
                hint=f"raise it with the environment variable {limits.NESTING.env}=N if you "
                "need more",
            )
        visits += len(v) if isinstance(v, (list, tuple, set, frozenset, dict)) else 1
        limits.LIST_ITEMS.check(visits, "the items of the copy")
        if isinstance(v, Tensor):
            out: Any = (tensor or _tensor)(v)
            own = getattr(v, "_attrs", None)
            if own and tensor is None and not isinstance(v, surface_nn.Parameter):
                # a tensor's __deepcopy__ copies its __dict__ (the program's own attributes),
                # deeply, before it enters the memo (PyTorch's order: a tensor its attributes
                # reach again is copied twice, the two sharing the one copied __dict__);
                # Parameter's makes a new Parameter without them
                out._attrs = walk(own, depth + 1)
                seen[key] = out
                return out
        elif isinstance(v, np.ndarray):
            out = v.copy()
        elif isinstance(v, PC.Record):  # a named tuple: of its class
            out = PC.Record(v.cls, tuple(walk(x, depth + 1) for x in v))
        elif isinstance(v, PC.Deque):
            out = PC.Deque((), v.maxlen)
            seen[key] = out
            out.extend(walk(x, depth + 1) for x in v)
            return out
        elif isinstance(v, (list, tuple, set, frozenset)):
            if isinstance(v, list):
                out = []
                seen[key] = out
                out.extend(walk(x, depth + 1) for x in v)
                return out
            out = type(v)(walk(x, depth + 1) for x in v)
        elif isinstance(v, dict):
            if isinstance(v, DefaultDict):
                out = DefaultDict(v.default_factory)  # the factory itself, as Python's
            elif isinstance(v, collections.OrderedDict):
                out = collections.OrderedDict()
                if surface_nn.with_metadata(v):  # (a state dict's saved versions, as deepcopy)
                    out._metadata = walk(v._metadata, depth + 1)  # type: ignore[attr-defined]
            else:
                out = {}
            seen[key] = out
            for k, x in v.items():
                out[walk(k, depth + 1)] = walk(x, depth + 1)
            return out
        elif isinstance(v, surface_nn.Module) and (tensor is None or objects):
            # A module (a program's nn.Module subclass too): a new one of its class, every
            # attribute copied as Python's deepcopy copies an object's __dict__ (parameters
            # stay Parameters, submodules are copied, shared ones stay shared).
            out = object.__new__(type(v))
            seen[key] = out
            for k, x in vars(v).items():
                out.__dict__[k] = walk(x, depth + 1)
            return out
        elif isinstance(v, Instance) and (tensor is None or objects):  # a program's object
            out = Instance(v.cls)
            seen[key] = out
            for k, x in v.attrs.items():
                out.attrs[k] = walk(x, depth + 1)
            return out
        elif _atomic(v) and (tensor is None or (objects and not _program_function(v))):
            # classes, functions and markers: shared, as Python's deepcopy does (torch.save
            # keeps data only: a function there stays refused, as before)
            return v
        else:
            if tensor is not None:
                raise NotSupported(
                    f"{what} of a {typename(v)} is not supported by gradcli",
                    hint="save the weights instead: torch.save(model.state_dict(), path), "
                    "later model.load_state_dict(torch.load(path))",
                )
            if typename(v) == "generator":
                # (Python's own error: deepcopy pickles it; a program's `except` catches it)
                raise GradcliError(
                    "cannot pickle 'generator' object",
                    hint="copy a list of its items instead: copy.deepcopy(list(gen)); for a "
                    "model, copy.deepcopy(model.state_dict())",
                ).mirror("TypeError")
            raise NotSupported(
                f"copy.deepcopy() of a {typename(v)} is not supported by gradcli",
                hint="copy its weights instead: best = copy.deepcopy(model.state_dict()), "
                "later model.load_state_dict(best)",
            )
        seen[key] = out
        return out

    return walk(value)


def _program_function(v: Any) -> bool:
    """A def or lambda of the program (torch.save keeps data and classes, not its code)."""
    from .values import UserFunction

    return isinstance(v, UserFunction)


def _atomic(v: Any) -> bool:
    """What Python's deepcopy returns as it is: classes, functions, dtypes, devices."""
    from .classes import FunctionClass, ModuleClass, OptimClass, PlainClass
    from .exceptions import ExcClass
    from .values import Builtin, Device, DType, PyType, UserFunction

    return isinstance(
        v,
        (
            type,
            FunctionType,
            BuiltinFunctionType,
            np.dtype,
            DType,
            Device,
            PyType,
            ModuleClass,
            OptimClass,
            PlainClass,
            PC.NamedTupleClass,
            FunctionClass,
            ExcClass,
            UserFunction,
            Builtin,
        ),
    )


def _shallow_tensor(t: Tensor) -> Tensor:
    """`copy.copy(t)`: PyTorch rebuilds the tensor on the same storage (`Tensor.__reduce_ex__`),
    so the copy is a new leaf sharing the values (a change in place through either shows in the
    other), requiring grad as `t` does, without `t`'s graph or `.grad`, with a version counter
    of its own; a Parameter stays a Parameter."""
    from ..core.tensor import batched, share

    if batched(t):  # inside vmap: PyTorch's pickling reaches the storage a BatchedTensor lacks
        raise GradcliError("Cannot access storage of BatchedTensorImpl").mirror(
            "NotImplementedError"
        )
    out = share(t, version=False)
    if isinstance(t, surface_nn.Parameter):
        out = surface_nn.Parameter(out, requires_grad=t.requires_grad)
    out.requires_grad = t.requires_grad
    own = getattr(t, "_attrs", None)
    if own:
        out._attrs = dict(own)  # its own attributes, the same values (Python's copy)
    return out


def copy(value: Any) -> Any:
    if isinstance(value, Tensor):
        return _shallow_tensor(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, PC.Deque):
        return PC.Deque(value, value.maxlen)
    if isinstance(value, collections.OrderedDict):
        out = collections.OrderedDict(value)
        if surface_nn.with_metadata(value):  # (a state dict's saved versions, as Python's copy)
            out._metadata = value._metadata  # type: ignore[attr-defined]
        return out
    if isinstance(value, DefaultDict):
        return _dd_copy(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, set):
        return set(value)
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, tuple)):
        return value
    if typename(value) == "generator":  # (Python's own error, which a program can catch)
        raise GradcliError(
            "cannot pickle 'generator' object", hint="copy a list of its items: list(gen)"
        ).mirror("TypeError")
    raise NotSupported(
        f"copy.copy() of a {typename(value)} is not supported by gradcli",
        hint="copy.deepcopy(...) for the weights of a model",
    )


# torch.save / torch.load: a checkpoint kept in memory for the rest of the run, under its
# path, since a program writes no files. What torch.load returns is a fresh copy each time,
# as a file read back is.
_SAVED_NOTE = "torch.save: kept in memory for this run (gradcli programs write no files)"


def _path(f: Any, fn: str) -> str:
    if not isinstance(f, str):
        raise NotSupported(
            f"{fn}(): gradcli names a checkpoint by a path string, not a {typename(f)}",
            hint="torch.save(obj, 'model.pth'), later torch.load('model.pth')",
        )
    return f


class _SharedStorages:
    """torch.save keeps storages, not tensors: tensors of one saved object that share memory
    (a tensor and its slices) come back from torch.load sharing it again, laid out as they
    were (PyTorch serializes each storage once). Only storages two or more of the saved
    tensors use are kept shared; every other tensor is copied alone, as before."""

    def __init__(self, obj: Any) -> None:
        counts: dict[int, int] = {}
        seen: set[int] = set()
        stack = [obj]
        steps = 0
        while stack and steps < limits.LIST_ITEMS.value:
            v = stack.pop()
            steps += 1
            if id(v) in seen:
                continue
            seen.add(id(v))
            if isinstance(v, Tensor):
                root = id(storage_root(v))
                counts[root] = counts.get(root, 0) + 1
            elif isinstance(v, dict):
                stack.extend(v.values())
            elif isinstance(v, (list, tuple)):
                stack.extend(v)
        self.shared = {k for k, n in counts.items() if n > 1}
        self.copies: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def tensor(self, t: Tensor) -> Tensor:
        a = t.data
        root = storage_root(t)
        if id(root) not in self.shared or not root.flags.c_contiguous:
            return _saved_tensor(t)
        if id(root) not in self.copies:
            self.copies[id(root)] = (root, np.array(root, copy=True))
        copied = self.copies[id(root)][1]
        start = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        view = np.ndarray(a.shape, a.dtype, buffer=copied, offset=start, strides=a.strides)
        return type(t)(view, requires_grad=t.requires_grad)


def save(obj: Any, f: Any, *_: Any, **__: Any) -> None:
    from .values import current

    rt = current()
    path = _path(f, "torch.save")
    keeper = _SharedStorages(obj)
    rt.saved_files[path] = deepcopy(obj, tensor=keeper.tensor, what="torch.save()", objects=True)
    # (the first class pickle would name: torch.load's weights_only unpickler refuses it)
    rt.saved_globals[path] = _first_global(obj)
    rt.kernel_warning(_SAVED_NOTE, None, once=True)


def _first_global(obj: Any) -> str | None:
    """The class of the first module or object of a program's class in `obj`, in the order
    pickle writes them (a dict's keys and values, a list's items, in turn), as pickle names
    it (`torch.nn.modules.linear.Linear`, `__main__.Net`); None: only tensors, numbers,
    strings and containers (what torch.load's weights_only unpickler allows)."""
    from .builtins import type_of

    stack = [obj]
    seen: set[int] = set()
    steps = 0
    while stack and steps < limits.LIST_ITEMS.value:
        v = stack.pop()
        steps += 1
        if id(v) in seen or isinstance(v, (Tensor, str, bytes, int, float, complex)):
            continue
        seen.add(id(v))
        if isinstance(v, (surface_nn.Module, Instance)):
            shown = repr(type_of(v))
            return shown[len("<class '") : -2] if shown.startswith("<class '") else shown
        if isinstance(v, dict):
            stack.extend(reversed([x for kv in v.items() for x in kv]))
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(reversed(list(v)))
    return None


def _weights_only_error(name: str) -> GradcliError:
    return GradcliError(
        "Weights only load failed. This file can still be loaded, to do so you have two "
        "options, \x1b[1mdo those steps only if you trust the source of the checkpoint"
        "\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` "
        "argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
        "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
        "execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, "
        "to load with `weights_only=True` please check the recommended steps in the following "
        f"error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL {name} was not "
        "an allowed global by default. Please use `torch.serialization.add_safe_globals"
        f"([{name}])` or the `torch.serialization.safe_globals([{name}])` context manager to "
        "allowlist this global if you trust this class/function.\n\nCheck the documentation "
        "of torch.load to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.",
        hint="torch.load(path, weights_only=False) for a whole module you saved yourself",
    ).mirror("UnpicklingError")


def load(f: Any, map_location: Any = None, *_: Any, weights_only: Any = None, **__: Any) -> Any:
    from .values import current

    path = _path(f, "torch.load")
    files = current().saved_files
    if path not in files:
        raise GradcliError(
            f"[Errno 2] No such file or directory: {path!r}",
            hint="gradcli programs read no files: torch.load finds what torch.save kept "
            "earlier in the same run",
        ).mirror("FileNotFoundError")
    name = current().saved_globals.get(path)
    if name is not None and (weights_only is None or weights_only):
        raise _weights_only_error(name)
    keeper = _SharedStorages(files[path])
    return deepcopy(files[path], tensor=keeper.tensor, what="torch.load()", objects=True)


def _dd_copy(d: DefaultDict) -> DefaultDict:
    out = DefaultDict(d.default_factory)
    out.update(d)
    return out
