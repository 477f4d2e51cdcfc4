"""`torch.nn`: the `Module` base semantics, `nn.Parameter`, and the built-in modules.

A module holds its parameters and submodules in registration order (as PyTorch's
`_parameters` / `_modules`), so that `parameters()`, `named_parameters()`, `children()`,
`modules()`, `state_dict()` and the repr list them as PyTorch does. Built-in modules are
initialised with PyTorch's own random numbers (`random.init_linear`, ...), drawn in PyTorch's
default dtype and widened to gradcli's default (float64 in the analysis commands).

A program reaches a module only through `program_attribute` / `program_getitem` (the
interpreter asks nothing else of it): the public methods in `Module.METHODS`, the parameters,
submodules and the plain attributes a module declares.
"""

from __future__ import annotations

import collections
import functools
import types
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported, call_did_not_fit
from ..core import dtypes
from ..core import hooks as core_hooks
from ..core.sparse import SparseCOO
from ..core.tensor import (
    META,
    MUTATIONS,
    HookHandle,
    Settings,
    Tensor,
    grad_enabled,
    no_grad,
    torch_typename,
    typename,
)
from ..ops.arithmetic import sigmoid, tanh
from .args import cpu_device, device_arg
from .declare import declare
from .functional import (
    f_log_softmax,
    f_softmax,
    gelu,
    inplace_update,
    leaky_relu,
    relu,
    softplus,
)
from .losses import binary_cross_entropy, cross_entropy, mse_loss, nll_loss
from .sampling import R


class Parameter(Tensor):
    """`nn.Parameter`: a leaf tensor that requires grad and that modules register."""

    __slots__ = ()
    # PyTorch formats only a plain Tensor's 0-d values as numbers: f"{p}" of a Parameter is its
    # text, and a format spec is Python's TypeError naming the class
    FORMATS_AS_OBJECT = "Parameter"

    def __init__(self, data: Any = None, requires_grad: bool = True) -> None:
        if data is None:
            data = np.zeros(0, Settings.default_dtype)
        arr = data.data if isinstance(data, Tensor) else np.asarray(data)
        super().__init__(arr, requires_grad=requires_grad)
        if META and isinstance(data, Tensor) and data in META:
            META.add(self)  # (a parameter of a meta tensor is on the meta device)


def parameter(data: Any = None, requires_grad: bool = True) -> Parameter:
    """`nn.Parameter(tensor)` as a program calls it."""
    if data is not None and not isinstance(data, Tensor):
        raise GradcliError(
            f"Parameter(): data must be a Tensor, not {typename(data)}",
            hint="nn.Parameter(torch.randn(3))",
        )
    return Parameter(data, requires_grad)


# The tensors `nn.Buffer(...)` made (by id: a weak reference, and whether persistent): a
# module's attribute assignment of one registers it as a buffer (PyTorch marks the tensor).
_BUFFER_MARKS: dict[int, tuple[Any, bool]] = {}


def buffer(data: Any = None, *, persistent: bool = True) -> Tensor:
    """`nn.Buffer(tensor, persistent=True)`: the tensor detached (sharing its values, requiring
    grad as it does), marked so that `self.name = nn.Buffer(...)` in a module registers it as a
    buffer, as `register_buffer(name, tensor, persistent)` does."""
    from ..core.tensor import share

    if data is None:
        data = Tensor(np.zeros(0, Settings.default_dtype))
    if not isinstance(data, Tensor):
        raise GradcliError(f"'{typename(data)}' object has no attribute 'detach'").mirror(
            "AttributeError"
        )
    t = share(data)
    t.requires_grad = data.requires_grad
    key = id(t)

    def forget(ref: Any) -> None:
        if _BUFFER_MARKS.get(key, (None,))[0] is ref:
            del _BUFFER_MARKS[key]

    _BUFFER_MARKS[key] = (weakref.ref(t, forget), bool(persistent))
    return t


def buffer_persistence(v: Any) -> bool | None:
    """Whether `v` was made by nn.Buffer: its `persistent`, else None."""
    entry = _BUFFER_MARKS.get(id(v))
    return entry[1] if entry is not None and entry[0]() is v else None


def _weights(values: np.ndarray, fills: int = 1, dtype: Any = None) -> Parameter:
    """Freshly drawn weights as a parameter of gradcli's, in the module's `dtype=` when it was
    given one, else in gradcli's default (PyTorch's draws widened in the analysis commands), at
    the version PyTorch's has: its `reset_parameters()` fills the empty tensor in place `fills`
    times (Embedding with a padding_idx twice: the draw, then the padding row's zeros)."""
    target = Settings.default_dtype if dtype is None else np.asarray(values).dtype
    p = Parameter(np.asarray(values).astype(target, copy=False))
    p._vc = [fills]
    # Changes in place as any other: nodes recorded from now on keep the versions they saw
    # (else a later unrelated change in place made backward compare this version with 0).
    MUTATIONS[0] += fills
    return p


# A module's initial values: (parameter name, values or None for no parameter, how many times
# PyTorch's initialisation changes it in place). A module's `_drawn(draw_dtype)` makes them, in
# PyTorch's order of draws, for its constructor (`_register_drawn`: new parameters) and for its
# `reset_parameters()` (`_rewrite_drawn`: the same parameters changed in place).
Drawn = list[tuple[str, Any, int]]


def reset_dtype(params: Any) -> Any:
    """The dtype a module's reset_parameters() draws in: its parameters' (PyTorch's init_
    functions draw in the tensor's dtype), PyTorch's default where they are gradcli's default
    (widened in the analysis commands)."""
    for p in params:
        if p is not None:
            if p.dtype == Settings.default_dtype:
                return Settings.draw_dtype
            return p.dtype
    return Settings.draw_dtype


def rewrite(p: Tensor, values: Any, fills: int = 1) -> None:
    """`values` written into `p` in place as PyTorch's nn.init functions write (under no_grad:
    a parameter stays a leaf that requires grad; an optimizer holding it sees the new values),
    its version going up `fills` times (Embedding's padding row is a second fill)."""
    new = np.asarray(values).astype(p.dtype, copy=False)
    with no_grad():
        for _ in range(fills):
            inplace_update(p, new, "")


# The traversals PyTorch gives as generators (`next(model.parameters())` works; a list does not).
_GENERATORS = (
    "parameters",
    "named_parameters",
    "children",
    "named_children",
    "modules",
    "named_modules",
    "buffers",
    "named_buffers",
)


def _generating(method: Callable[..., list], qualname: str) -> Callable[..., Any]:
    """`method` (which lists the items) as a program calls it: a generator of the items, made
    when it is called (as PyTorch's), named as PyTorch's (`<generator object
    Module.parameters at ...>`)."""

    fn = method.__func__  # type: ignore[attr-defined]

    @functools.wraps(fn)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        items = fn(self, *args, **kwargs)

        def gen() -> Any:
            yield from items

        gen.__qualname__ = qualname
        return gen()

    # bound to the module, as PyTorch's method (`<bound method Module.parameters of ...>`,
    # a call that does not fit in Python's words: `Module.parameters() takes ...`)
    return types.MethodType(call, method.__self__)  # type: ignore[attr-defined]


def _pytype(v: Any) -> str:
    """What `type(v)` prints for a value a program passed (`<class 'list'>`)."""
    if isinstance(v, Tensor):
        return "<class 'torch.Tensor'>"
    return f"<class '{typename(v)}'>"


def _size(shape: tuple[int, ...]) -> str:
    return f"torch.Size({list(shape)})"


def _check_visits(
    root: Module, what: str, per_parent_once: bool = True, doing: str = "its walk"
) -> None:
    """A recursive walk over `_modules` (PyTorch's apply, load_state_dict, a module's text)
    visits a module once for every path to it: a module shared by two parents, nested, doubles
    the visits at every level, and a module inside itself never ends. Count them first (each
    module once, memoised, on an explicit stack), against LIST_ITEMS. apply() goes through
    `children()`, which gives a child registered twice in one parent once; load_state_dict
    and the text through `_modules`, which gives it twice."""
    counts: dict[int, int] = {}
    active: set[int] = set()  # the modules on the path to the one being looked at

    def children(m: Module) -> list[Module]:
        out = [c for c in m._modules.values() if c is not None]
        return list(dict.fromkeys(out)) if per_parent_once else out

    stack: list[tuple[Module, bool]] = [(root, False)]
    while stack:
        m, done = stack.pop()
        key = id(m)
        if done:
            active.discard(key)
            counts[key] = 1 + sum(counts[id(c)] for c in children(m))  # exact: Python's ints
            continue
        if key in counts:
            continue
        if key in active:
            raise LimitError(
                f"the module {m.name} contains itself: {doing} would never end",
                hint="a module cannot be its own submodule",
            )
        active.add(key)
        stack.append((m, True))
        stack.extend((c, False) for c in children(m) if id(c) not in counts)
    limits.LIST_ITEMS.check(counts[id(root)], what)


class IncompatibleKeys(tuple):
    """What `load_state_dict` returns: (missing_keys, unexpected_keys), printed as PyTorch's
    `_IncompatibleKeys` (`<All keys matched successfully>` when both are empty)."""

    def __new__(cls, missing: list[str], unexpected: list[str]) -> IncompatibleKeys:
        return super().__new__(cls, (missing, unexpected))

    def program_attribute(self, name: str) -> Any:
        if name == "missing_keys":
            return self[0]
        if name == "unexpected_keys":
            return self[1]
        raise GradcliError(f"'_IncompatibleKeys' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def __repr__(self) -> str:
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]!r}, unexpected_keys={self[1]!r})"


class ModuleEntries(dict):
    """A module's submodules by name, as `module._modules` gives them to a program: read
    (`.items()`, `.values()`, `[name]`, iteration); written only as `_modules[name] = module`
    and `del _modules[name]` (d2l's MySequential), the language refusing other values and
    the mutating dict methods on it."""

    __slots__ = ()

    @staticmethod
    def program_typename(_: Any) -> str:
        return "dict"  # type(m._modules) is Python's dict in PyTorch


class StateEntries(ModuleEntries):
    """`module._parameters` / `_buffers` as a program reads them: a snapshot, never written
    (a write would not reach the module: refused, as every mutation of it)."""

    __slots__ = ()


class InstanceEntries(StateEntries):
    """`module.__dict__` / `vars(module)` of a program's nn.Module subclass, read: a snapshot
    of PyTorch's instance dictionary (its flag, tables and the program's own attributes, in
    PyTorch's order), never written (a write would not reach the module: refused)."""

    __slots__ = ()


# The entries PyTorch's Module.__init__ puts in every module's __dict__, in its order.
INSTANCE_TABLES = (
    "_parameters",
    "_buffers",
    "_non_persistent_buffers_set",
    "_backward_pre_hooks",
    "_backward_hooks",
    "_is_full_backward_hook",
    "_forward_hooks",
    "_forward_hooks_with_kwargs",
    "_forward_hooks_always_called",
    "_forward_pre_hooks",
    "_forward_pre_hooks_with_kwargs",
    "_state_dict_hooks",
    "_state_dict_pre_hooks",
    "_load_state_dict_pre_hooks",
    "_load_state_dict_post_hooks",
    "_modules",
)


def instance_entries(module: Module) -> InstanceEntries:
    """PyTorch's `module.__dict__` of a program's module (see InstanceEntries)."""
    out = InstanceEntries()
    out["training"] = module.training
    for name in INSTANCE_TABLES:
        value = module.program_attribute(name)
        out[name] = StateEntries(value) if name == "_modules" else value
    for key, value in module.__dict__.items():
        if key.startswith("_attr_"):
            out[key[len("_attr_") :]] = value
    return out


class Entries(dict):
    """A module's `_parameters` / `_buffers` once the program deleted or parametrized one of
    them. A built-in module's own code reads `self._parameters["weight"]` where PyTorch's
    reads `self.weight`: it finds what that would find (a parametrized tensor, the plain
    attribute the program set in the parameter's place) or PyTorch's AttributeError."""

    __slots__ = ("module",)

    def __missing__(self, key: str) -> Any:
        return self.module.replaced_entry(key)

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        try:
            return self.module.replaced_entry(key)
        except GradcliError:
            return default


def entries(module: Module) -> None:
    """Give `module` `Entries` for its parameters and buffers (order kept)."""
    for which in ("_parameters", "_buffers"):
        current = getattr(module, which)
        if not isinstance(current, Entries):
            e = Entries(current)
            e.module = module
            setattr(module, which, e)


# The names beginning with an underscore a program may read of a module (any other is refused
# before the module is asked): its tables (read-only snapshots) and the few private methods and
# settings programs call (`m._get_name()`, MultiheadAttention's `_reset_parameters()`).
PROGRAM_PRIVATE = frozenset(
    (
        "_modules",
        "_parameters",
        "_buffers",
        "_get_name",
        "_reset_parameters",
        "_qkv_same_embed_dim",
    )
)


def _module_cuda(*args: Any, **kwargs: Any) -> Any:
    """`module.cuda()`: PyTorch's error on a machine without CUDA, which a program can catch."""
    from .args import cuda_method

    raise cuda_method(args[0] if args else kwargs.get("device"), keyword=not args)


# A module's hook tables as PyTorch names them, by the kinds `_register_hook` keeps: read as
# snapshots (an OrderedDict of the hooks, numbered in the order they run), what programs print
# or count (`len(m._forward_hooks)`).
HOOK_TABLES = {
    "_forward_hooks": ("forward",),
    "_forward_pre_hooks": ("forward_pre",),
    "_backward_hooks": ("backward", "backward_old"),
    "_backward_pre_hooks": ("backward_pre",),
    "_load_state_dict_pre_hooks": ("load_state_dict_pre",),
}
# PyTorch's other tables and settings of every module, as a module gradcli makes has them
# (hooks gradcli does not register are never there: empty).
EMPTY_TABLES = (
    "_state_dict_hooks",
    "_state_dict_pre_hooks",
    "_load_state_dict_post_hooks",
    "_forward_hooks_with_kwargs",
    "_forward_pre_hooks_with_kwargs",
    "_forward_hooks_always_called",
)
MODULE_SETTINGS = {"_version": 1, "dump_patches": False, "call_super_init": False}


class Module:
    """`nn.Module`: parameters and submodules in registration order, training mode, repr."""

    # Methods a program may call on any module.
    # Whether a missing attribute is surely Python's AttributeError (a program's own class)
    OWN_NAMES_ONLY = False
    METHODS = (
        "forward",
        "parameters",
        "named_parameters",
        "buffers",
        "named_buffers",
        "children",
        "named_children",
        "modules",
        "named_modules",
        "zero_grad",
        "train",
        "eval",
        "requires_grad_",
        "state_dict",
        "load_state_dict",
        "extra_repr",
        "register_parameter",
        "register_buffer",
        "add_module",
        "apply",
        "to",
        "double",
        "float",
        "half",
        "bfloat16",
        "cpu",
        "register_forward_pre_hook",
        "register_forward_hook",
        "register_full_backward_pre_hook",
        "register_full_backward_hook",
        "register_backward_hook",
        "register_state_dict_pre_hook",
        "register_state_dict_post_hook",
        "register_load_state_dict_post_hook",
        "register_load_state_dict_pre_hook",
        "_register_load_state_dict_pre_hook",
        "_get_name",
        "get_submodule",
        "set_submodule",
        "get_parameter",
        "get_buffer",
        "register_module",
        "type",
        "share_memory",
        "to_empty",
    )
    # Plain attributes (besides parameters and submodules) a program may read.
    ATTRIBUTES: tuple[str, ...] = ("training",)
    # PyTorch's class attribute `_version`, saved in a state dict's `_metadata` (2: the norm
    # layers with a batch counter)
    STATE_VERSION = 1

    def __init__(self) -> None:
        self._parameters: dict[str, Parameter | None] = {}
        self._buffers: dict[str, Tensor | None] = {}
        self._non_persistent: set[str] = set()
        self._modules: dict[str, Module] = ModuleEntries()
        self.training = True

    @property
    def name(self) -> str:
        return type(self).__name__

    # -- registration -----------------------------------------------------------------------
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """PyTorch's checks of the name (in its order and words: a name another attribute
        holds, a submodule's or None's in `_modules` too, is taken), then of the value."""
        if not isinstance(name, str):
            raise GradcliError(
                f"parameter name should be a string. Got {torch_typename(name)}"
            ).mirror("TypeError")
        if "." in name:
            raise GradcliError('parameter name can\'t contain "."').mirror("KeyError")
        if name == "":
            raise GradcliError('parameter name can\'t be empty string ""').mirror("KeyError")
        if name not in self._parameters and (
            name in self._modules
            or name in self._buffers
            or "_attr_" + name in self.__dict__
            or name in self.METHODS
            or (name in self.ATTRIBUTES and name in self.__dict__)
        ):
            raise GradcliError(f"attribute '{name}' already exists").mirror("KeyError")
        if param is not None and not isinstance(param, Parameter):
            raise GradcliError(
                f"cannot assign '{torch_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            ).mirror("TypeError")
        self._parameters[name] = param

    def register_buffer(self, name: Any, tensor: Any, persistent: bool = True) -> None:
        """A tensor the module keeps beside its parameters (BatchNorm's running statistics, a
        mask): in `buffers()`, in `state_dict()` unless not `persistent`, read as
        `self.name`, converted by `.double()` / `.to(dtype)`."""
        if not isinstance(name, str):
            raise GradcliError(f"buffer name should be a string. Got {typename(name)}").mirror(
                "TypeError"
            )
        if "." in name:
            raise GradcliError('buffer name can\'t contain "."').mirror("KeyError")
        if name == "":
            raise GradcliError('buffer name can\'t be empty string ""').mirror("KeyError")
        if name not in self._buffers and (
            name in self._parameters
            or name in self._modules
            or hasattr(self, "_attr_" + name)
            or name in self.METHODS
            or name in self.ATTRIBUTES
        ):
            raise GradcliError(f"attribute '{name}' already exists").mirror("KeyError")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise GradcliError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            ).mirror("TypeError")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent.discard(name)
        else:
            self._non_persistent.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise GradcliError(f"{torch_typename(module)} is not a Module subclass").mirror(
                "TypeError"
            )
        # PyTorch's checks of the name, in its order and words
        if not isinstance(name, str):
            raise GradcliError(f"module name should be a string. Got {typename(name)}").mirror(
                "TypeError"
            )
        if name not in self._modules and (
            name in self._parameters or name in self._buffers or "_attr_" + name in self.__dict__
        ):
            raise GradcliError(f"attribute '{name}' already exists").mirror("KeyError")
        if "." in name:
            raise GradcliError(f'module name can\'t contain ".", got: {name}').mirror("KeyError")
        if name == "":
            raise GradcliError('module name can\'t be empty string ""').mirror("KeyError")
        # (None is kept as PyTorch's dict keeps it: `(name): None` in the module's text, the
        # name reading None, every walk over the submodules passing it by)
        self.__dict__.pop("_attr_" + name, None)
        if name not in self._modules:
            limits.LIST_ITEMS.check(len(self._modules) + 1, "the number of submodules")
        self._modules[name] = module

    def _register_drawn(self, drawn: Drawn, dtype: Any) -> None:
        for name, values, fills in drawn:
            self.register_parameter(
                name, None if values is None else _weights(values, fills, dtype=dtype)
            )

    def _rewrite_drawn(self, drawn: Drawn) -> None:
        for name, values, fills in drawn:
            p = self._parameters.get(name)
            if p is not None and values is not None:
                rewrite(p, values, fills)

    def _reset_dtype(self) -> Any:
        return reset_dtype(self._parameters.values())

    def register_module(self, name: str, module: Module | None) -> None:
        """PyTorch's alias of add_module."""
        self.add_module(name, module)

    def set_attribute(self, name: str, value: Any) -> None:
        """`self.name = value` in a module: a Parameter registers, a Module becomes a child
        (what the language's class support calls for an attribute assignment)."""
        access = self.__dict__.get("_parametrized")
        if access is not None and access.has(self, name):
            access.set(self, name, value)
            return
        persistent = None if name in self._parameters else buffer_persistence(value)
        if persistent is not None or isinstance(value, (Parameter, Module)):
            # (PyTorch's __setattr__ removes a plain attribute of the name first: the
            # parameter, buffer or submodule is what the name reads from then on)
            self.__dict__.pop("_attr_" + name, None)
        if persistent is not None:
            if name in self._modules:
                raise GradcliError(
                    f"cannot assign '{dtypes.LEGACY_TYPES.get(value.dtype, 'torch.Tensor')}' "
                    f"as child module '{name}' (torch.nn.Module or None expected)"
                ).mirror("TypeError")
            self.register_buffer(name, value, persistent)
        elif isinstance(value, Parameter):
            self._modules.pop(name, None)
            self._buffers.pop(name, None)
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._parameters.pop(name, None)
            self._buffers.pop(name, None)
            self._modules[name] = value
        elif name in self._modules:
            # `self.downsample = None` over a submodule: the submodule is gone (its parameters
            # and state_dict entries with it), its name kept with None as PyTorch's _modules
            # keeps it (a `(downsample): None` line); anything else is PyTorch's TypeError.
            if value is not None:
                raise GradcliError(
                    f"cannot assign '{torch_typename(value)}' as child module '{name}' "
                    "(torch.nn.Module or None expected)"
                ).mirror("TypeError")
            self._modules[name] = None
        elif name in self._parameters:
            if value is not None:
                # torch.typename: a tensor by its legacy type name (torch.FloatTensor)
                kind = (
                    dtypes.LEGACY_TYPES.get(value.dtype, "torch.Tensor")
                    if isinstance(value, Tensor)
                    else typename(value)
                )
                raise GradcliError(
                    f"cannot assign '{kind}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                ).mirror("TypeError")
            self._parameters[name] = None
        elif name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise GradcliError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(torch.nn.Buffer, torch.Tensor or None expected)"
                ).mirror("TypeError")
            self._buffers[name] = value
        else:
            setattr(self, "_attr_" + name, value)

    def program_set(self, name: str, value: Any) -> None:
        """`module.name = value` in a program on one of gradcli's modules: a parameter, a
        submodule or a buffer replaced, a setting of the module (`momentum`, `training`)
        changed, any other name kept as a plain attribute; the methods stay. A name with an
        underscore (`m.__name__ = name` in a hook tutorial, `m._tag = 1`) is a plain attribute
        too, unless it is one of the module's own tables or Python's own names of an object."""
        if name.startswith("_") and self._reserved_name(name):
            raise NotSupported(
                f"setting `{name}` of a {self.name} is not supported: it is one of the "
                "module's own tables or Python's own names",
                found=f"`.{name}`",
                hint="keep your value under a name of your own (module.tag = value)",
            )
        if name in self.METHODS:
            raise NotSupported(
                f"replacing the method `{name}` of a {self.name} is not supported",
                hint="define a subclass of nn.Module with its own method instead",
            )
        if name in self.ATTRIBUTES and name not in self._parameters:
            if value is not None and not isinstance(value, (bool, int, float, str, tuple)):
                raise NotSupported(
                    f"setting {self.name}.{name} to a {typename(value)} is not supported",
                    hint="give it a number, a bool or a tuple as PyTorch's module has",
                )
            setattr(self, name, value)
            return
        self.set_attribute(name, value)

    def _reserved_name(self, name: str) -> bool:
        """Whether `name` (one with an underscore) is one a program may not set on a built-in
        module: Python's own names of the object (`__class__`, `__dict__`, `__call__`), the
        module's tables (`_parameters`, `_forward_hooks`, `_version`) and nn.Module's methods."""
        if name in ("_modules", "_parameters", "_buffers") or name in dir(type(self)):
            return True
        if name in HOOK_TABLES or name in EMPTY_TABLES or name in MODULE_SETTINGS:
            return True
        if name in ("_non_persistent_buffers_set", "_is_full_backward_hook"):
            return True
        from . import public

        return public.has("Module", name) is True

    @property
    def pyname(self) -> str:
        """The name of the module's class as Python's errors show it (PyTorch gives a
        parametrized module a class of its own)."""
        return "Parametrized" * bool(self.__dict__.get("_parametrized")) + self.name

    def replaced_entry(self, name: str) -> Any:
        """What the module's `self.name` finds for a parameter or buffer no longer registered
        (see `Entries`)."""
        access = self.__dict__.get("_parametrized")
        if access is not None and access.has(self, name):
            return access.get(self, name)
        if "_attr_" + name in self.__dict__:
            return self.__dict__["_attr_" + name]
        raise GradcliError(f"'{self.pyname}' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_delete(self, name: str) -> None:
        """`del module.name` / `delattr(module, name)`, as PyTorch's Module.__delattr__: a
        parameter, a buffer or a submodule unregistered, else a plain attribute removed."""
        access = self.__dict__.get("_parametrized")
        if access is not None and access.has(self, name):
            raise GradcliError(f"property of '{self.pyname}' object has no deleter").mirror(
                "AttributeError"
            )
        if name in self._parameters or name in self._buffers:
            entries(self)
            if name in self._parameters:
                del self._parameters[name]
            else:
                del self._buffers[name]
                self._non_persistent.discard(name)
        elif name in self._modules:
            if type(self).__module__.startswith(_SURFACE) and not isinstance(
                self, (Sequential, ModuleList, ModuleDict)
            ):
                raise NotSupported(
                    f"`del` of the submodule `{name}` of a built-in {self.name} is not "
                    "supported: its forward needs it",
                    hint=f"replace it instead: module.{name} = nn.Identity()",
                )
            del self._modules[name]
        elif "_attr_" + name in self.__dict__:
            del self.__dict__["_attr_" + name]
        elif name in self.ATTRIBUTES or name in self.__dict__:
            raise NotSupported(
                f"`del` of {self.name}.{name} is not supported",
                hint=f"set it instead: module.{name} = ...",
            )
        else:
            raise GradcliError(f"'{self.pyname}' object has no attribute '{name}'").mirror(
                "AttributeError"
            )
        self.__dict__.setdefault("_deleted", set()).add(name)

    def own_method(self, name: str) -> Any:
        """The method `name` the module's class defines beyond nn.Module's (a program's
        `right_inverse`), bound, else None."""
        return None

    def program_attribute(self, name: str) -> Any:
        access = self.__dict__.get("_parametrized")
        if access is not None and access.has(self, name):  # (parametrize's property)
            return access.get(self, name)
        if name == "_modules":
            return self._modules
        if name in ("_parameters", "_buffers"):
            # read (a snapshot, as a dict the language does not write through)
            return StateEntries(getattr(self, name))
        if name in self._parameters:
            return self._parameters[name]
        if name in self._modules:
            return self._modules[name]
        if name in self._buffers:
            return self._buffers[name]
        if name in _GENERATORS:
            return _generating(getattr(self, name), f"Module.{name}")
        if name == "forward" and type(self).__module__.startswith(_SURFACE):
            found = _pytorchs_forward(self)
            if found is not None:
                return found
        if name in self.METHODS or name in self.ATTRIBUTES:
            return getattr(self, name)
        if hasattr(self, "_attr_" + name):
            return getattr(self, "_attr_" + name)
        found = self._internal(name)
        if found is not None:
            return found[0]
        error = GradcliError(f"'{self.pyname}' object has no attribute '{name}'")
        # (catchable where the program deleted it, or of a program's own class, whose names
        # are the program's and nn.Module's: else it may be one gradcli lacks)
        if self.OWN_NAMES_ONLY or name in self.__dict__.get("_deleted", ()):
            raise error.mirror("AttributeError")
        raise error

    def _internal(self, name: str) -> tuple[Any] | None:
        """PyTorch's own tables and settings of a module a program reads (`m._forward_hooks`,
        `m._version`), as a 1-tuple; None for a name PyTorch's Module does not have. One it
        has that gradcli lacks (`_apply`, `to_empty`) is refused as not supported."""
        kinds = HOOK_TABLES.get(name)
        if kinds is not None:
            table = self.__dict__.get("_module_hooks") or {}
            ids = self.__dict__.get("_hook_ids") or {}
            hooks = [
                (ids.get(id(e), i), e[0])
                for kind in kinds
                for i, e in enumerate(table.get(kind, ()))
            ]
            return (collections.OrderedDict(hooks),)
        kwargs_kind = {
            "_forward_pre_hooks_with_kwargs": "forward_pre",
            "_forward_hooks_with_kwargs": "forward",
        }.get(name)
        if kwargs_kind is not None:  # PyTorch's table: the numbers of with_kwargs hooks
            table = self.__dict__.get("_module_hooks") or {}
            ids = self.__dict__.get("_hook_ids") or {}
            marked = [
                (ids.get(id(e), i), True)
                for i, e in enumerate(table.get(kwargs_kind, ()))
                if isinstance(e, _KwargsEntry)
            ]
            return (collections.OrderedDict(marked),)
        if name in EMPTY_TABLES:
            return (collections.OrderedDict(),)
        if name == "_version":
            return (self.STATE_VERSION,)
        if name in MODULE_SETTINGS:
            return (MODULE_SETTINGS[name],)
        if name == "_non_persistent_buffers_set":
            return (set(self._non_persistent),)
        if name == "_is_full_backward_hook":
            table = self.__dict__.get("_module_hooks") or {}
            if table.get("backward"):
                return (True,)
            return (False,) if table.get("backward_old") else (None,)
        if name == "cuda":
            return (_module_cuda,)
        from . import public

        if public.has("Module", name):
            raise NotSupported(
                f"`{self.pyname}.{name}` (nn.Module's) is not supported by gradcli",
                found=f"`.{name}`",
                hint="gradcli modules are on the CPU and have parameters(), named_parameters(), "
                "buffers(), children(), state_dict(), _modules, _parameters and _buffers",
            )
        return None

    # -- reading by name -------------------------------------------------------------------
    def _get_name(self) -> str:
        return self.name

    def _reads(self, name: str) -> tuple[bool, Any]:
        """(whether `self.name` reads, what it reads), as Python's hasattr / getattr answer
        for a program (through the names a program may reach)."""
        try:
            return True, self.program_attribute(name)
        except LimitError:
            raise
        except GradcliError:
            return False, None

    def get_submodule(self, target: Any) -> Module:
        """The submodule at the dotted path `target` ("" is the module itself), as PyTorch's:
        an AttributeError naming the first step that is missing or not a module."""
        if not isinstance(target, str):
            raise GradcliError(f"'{typename(target)}' object has no attribute 'split'").mirror(
                "AttributeError"
            )
        if target == "":
            return self
        mod: Any = self
        for item in target.split("."):
            limits.BUDGET.tick()
            found, value = mod._reads(item) if isinstance(mod, Module) else (False, None)
            if not found:
                raise GradcliError(f"{mod._get_name()} has no attribute `{item}`").mirror(
                    "AttributeError"
                )
            mod = value
            if not isinstance(mod, Module):
                raise GradcliError(f"`{item}` is not an nn.Module").mirror("AttributeError")
        return mod

    def set_submodule(self, target: Any, module: Any, strict: bool = False) -> None:
        """The submodule at the dotted path `target` set to `module` (a new name under an
        existing parent unless `strict`), as PyTorch's."""
        if not isinstance(target, str):
            raise GradcliError(f"'{typename(target)}' object has no attribute 'split'").mirror(
                "AttributeError"
            )
        if target == "":
            raise GradcliError("Cannot set the submodule without a target name!").mirror(
                "ValueError"
            )
        if not isinstance(module, Module):
            raise GradcliError(f"`module` is not an nn.Module, found {_pytype(module)}").mirror(
                "ValueError"
            )
        path, _, name = target.rpartition(".")
        parent = self.get_submodule(path)
        found, value = parent._reads(name)
        if strict and not found:
            raise GradcliError(f"{parent._get_name()} has no attribute `{name}`").mirror(
                "AttributeError"
            )
        if found and not isinstance(value, Module):
            raise GradcliError(f"`{name}` is not an nn.Module").mirror("AttributeError")
        parent.program_set(name, module)

    def _get_leaf(self, target: Any, what: str) -> tuple[Module, str, Any]:
        if not isinstance(target, str):
            raise GradcliError(f"'{typename(target)}' object has no attribute 'rpartition'").mirror(
                "AttributeError"
            )
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        found, value = mod._reads(name)
        if not found:
            raise GradcliError(f"{mod._get_name()} has no attribute `{name}`").mirror(
                "AttributeError"
            )
        return mod, name, value

    def get_parameter(self, target: Any) -> Parameter:
        """The parameter at the dotted path `target` (`"0.weight"`), as PyTorch's."""
        _, name, value = self._get_leaf(target, "parameter")
        if not isinstance(value, Parameter):
            raise GradcliError(f"`{name}` is not an nn.Parameter").mirror("AttributeError")
        return value

    def get_buffer(self, target: Any) -> Tensor:
        """The buffer at the dotted path `target` (`"bn.running_mean"`), as PyTorch's."""
        mod, name, value = self._get_leaf(target, "buffer")
        if name not in mod._buffers:
            raise GradcliError(f"`{name}` is not a buffer").mirror("AttributeError")
        return value

    # -- calling ---------------------------------------------------------------------------
    def forward(self, *inputs: Any) -> Any:
        raise GradcliError(
            f'Module [{self.name}] is missing the required "forward" function',
            hint="define forward(self, x) in the module's class",
        ).mirror("NotImplementedError")

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        # A module's call runs no statement of the program (nn.Sequential of a million
        # Identity modules, or of itself nested sixty times): the clock is checked here.
        limits.BUDGET.tick()
        table = self.__dict__.get("_module_hooks")
        try:
            if (not table or not any(table.values())) and not _any_global_hook():
                return self.forward(*inputs, **_forward_kwargs(self, inputs, kwargs))
            if not table:
                table = {}
            # (the hooks see the keyword inputs under PyTorch's names, `input=`, as given:
            # they are renamed to gradcli's forward's only at its call)
            return _call_hooked(self, table, inputs, kwargs)
        except TypeError as e:
            # Raised by the call of forward itself (nothing ran inside it): the inputs do not
            # fit the module's forward, the program's error.
            if not call_did_not_fit(e, callers=_CALLERS):
                raise
            words = None
            if type(self).__module__.startswith(_SURFACE):
                from .callerrors import forward_error

                words = forward_error(self.name, len(inputs), list(kwargs))
            raise GradcliError(
                words or (f"{self.name}.{str(e)}" if str(e).startswith("forward()") else str(e)),
                hint=f"see the inputs {self.name} takes: {_forward_params(self)}",
            ).mirror("TypeError") from None

    # -- hooks -----------------------------------------------------------------------------
    def _register_hook(
        self, kind: str, hook: Any, prepend: bool, with_kwargs: bool = False, plain: bool = False
    ) -> HookHandle:
        hook = core_hooks.as_callable(hook)
        if not callable(hook):
            raise GradcliError(f"'{typename(hook)}' object is not callable").mirror("TypeError")
        table = self.__dict__.get("_module_hooks")
        if table is None:
            table = self.__dict__["_module_hooks"] = {}
        entries = table.setdefault(kind, [])
        # its own list: the handle removes this registration, not another (a hook registered
        # with_kwargs=True is called with the keyword arguments too: its entry says so)
        # (`plain`: a load_state_dict pre-hook registered without with_module, called without
        # the module)
        entry = _KwargsEntry([hook]) if with_kwargs else _PlainEntry([hook]) if plain else [hook]
        if prepend:
            entries.insert(0, entry)
        else:
            entries.append(entry)
        handle = HookHandle(entries, entry)
        # (the handle's number, the key PyTorch's hook tables show: `m._forward_hooks`)
        ids = self.__dict__.setdefault("_hook_ids", {})
        ids[id(entry)] = handle.id
        if len(ids) > 64:  # (the numbers of removed hooks are forgotten)
            live = {id(e) for kind in table.values() for e in kind}
            for key in [k for k in ids if k not in live]:
                del ids[key]
        return handle

    def register_forward_pre_hook(
        self, hook: Any, *, prepend: bool = False, with_kwargs: bool = False
    ) -> HookHandle:
        """`hook(module, args)` before forward: a value it returns replaces the arguments
        (a tuple, or one argument). with_kwargs=True: `hook(module, args, kwargs)`, returning
        None or a new (args, kwargs) pair."""
        return self._register_hook("forward_pre", hook, prepend, bool(with_kwargs))

    def register_forward_hook(
        self,
        hook: Any,
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> HookHandle:
        """`hook(module, args, output)` after forward: a value it returns replaces the
        output. with_kwargs=True: `hook(module, args, kwargs, output)`."""
        if always_call:
            raise NotSupported(
                "register_forward_hook(..., always_call=True) is not supported by gradcli",
                hint="register the hook without always_call (it runs after every forward that "
                "returns)",
            )
        return self._register_hook("forward", hook, prepend, bool(with_kwargs))

    def register_full_backward_pre_hook(self, hook: Any, prepend: bool = False) -> HookHandle:
        """`hook(module, grad_output)` when the gradients of the outputs are known: a value it
        returns replaces them."""
        return self._register_hook("backward_pre", hook, prepend)

    def register_full_backward_hook(self, hook: Any, prepend: bool = False) -> HookHandle:
        """`hook(module, grad_input, grad_output)` when the gradients of the inputs are known
        (None for inputs that do not require grad): a tuple it returns replaces grad_input."""
        self._no_mixed_backward_hooks("backward_old")
        return self._register_hook("backward", hook, prepend)

    def register_backward_hook(self, hook: Any) -> HookHandle:
        """PyTorch's deprecated form: `hook(module, grad_input, grad_output)` registered on the
        node that computed the forward's (first) output at each call, so grad_input are the
        gradients of that last operation's inputs (not of the module's inputs), as PyTorch's."""
        self._no_mixed_backward_hooks("backward")
        return self._register_hook("backward_old", hook, False)

    def register_state_dict_pre_hook(self, hook: Any) -> HookHandle:
        """`hook(module, prefix, keep_vars)` before state_dict() saves this module's
        entries (and those below it)."""
        return self._register_hook("state_dict_pre", hook, False)

    def register_state_dict_post_hook(self, hook: Any) -> HookHandle:
        """`hook(module, state_dict, prefix, local_metadata)` once this module and those below
        it are saved; it returns None (it changes the dict in place)."""
        return self._register_hook("state_dict_post", hook, False)

    def register_load_state_dict_pre_hook(self, hook: Any) -> HookHandle:
        """`hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)` before load_state_dict() loads this module's entries: the
        dict is the one this module loads from (a copy of the program's, filtered by the
        prefix for a submodule), which the hook may change (rename keys); what it appends to
        the lists is reported as PyTorch reports it."""
        return self._register_hook("load_state_dict_pre", hook, False)

    def _register_load_state_dict_pre_hook(self, hook: Any, with_module: Any = False) -> HookHandle:
        """PyTorch's private form: without with_module the hook is called without the module
        (`hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
        error_msgs)`)."""
        return self._register_hook("load_state_dict_pre", hook, False, plain=not with_module)

    def register_load_state_dict_post_hook(self, hook: Any) -> HookHandle:
        """`hook(module, incompatible_keys)` after load_state_dict() loaded this module and
        those below it (before the strict check: clearing `missing_keys` keeps it quiet)."""
        return self._register_hook("load_state_dict_post", hook, False)

    def _hooks_of(self, kind: str) -> list[Any]:
        table = self.__dict__.get("_module_hooks")
        return [e[0] for e in table.get(kind, ())] if table else []

    def _no_mixed_backward_hooks(self, other: str) -> None:
        table = self.__dict__.get("_module_hooks")
        if table and table.get(other):
            raise GradcliError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them."
            )

    # -- traversal -------------------------------------------------------------------------
    def named_modules(
        self, memo: Any = None, prefix: str = "", remove_duplicate: bool = True
    ) -> list[tuple[str, Module]]:
        """Depth first, in registration order; each module once, or (remove_duplicate=False)
        once for every path to it, as PyTorch's (the visits counted first: a module inside
        itself never ends)."""
        if not remove_duplicate:
            _check_visits(
                self,
                "the number of module visits of named_modules()",
                per_parent_once=False,
                doing="named_modules(remove_duplicate=False)",
            )
        seen: set[int] = set()
        out: list[tuple[str, Module]] = []
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            p, m = stack.pop()
            if remove_duplicate:
                if id(m) in seen:
                    continue
                seen.add(id(m))
            out.append((p, m))
            stack.extend(
                reversed(
                    [(f"{p}.{n}" if p else n, c) for n, c in m._modules.items() if c is not None]
                )
            )
        return out

    def module_list(self) -> list[Module]:
        return [m for _, m in self.named_modules()]

    def named_children(self) -> list[tuple[str, Module]]:
        """Each child once (a module registered under two names is given under the first),
        as PyTorch's."""
        seen: set[int] = set()
        out = []
        for n, c in self._modules.items():
            if c is not None and id(c) not in seen:
                seen.add(id(c))
                out.append((n, c))
        return out

    def children(self) -> list[Module]:
        return [c for _, c in self.named_children()]

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> list[tuple[str, Parameter]]:
        seen: set[int] = set()
        out = []
        mods = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for p, m in mods:
            for n, t in m._parameters.items():
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                out.append((f"{p}.{n}" if p else n, t))
        return out

    def parameters(self, recurse: bool = True) -> list[Parameter]:
        return [t for _, t in self.named_parameters(recurse=recurse)]

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> list[tuple[str, Tensor]]:
        seen: set[int] = set()
        out = []
        mods = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for p, m in mods:
            for n, t in m._buffers.items():
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                out.append((f"{p}.{n}" if p else n, t))
        return out

    def buffers(self, recurse: bool = True) -> list[Tensor]:
        return [t for _, t in self.named_buffers(recurse=recurse)]

    def _state(self) -> dict[str, Tensor]:
        """This module's own entries of a state dict: its parameters, then its persistent
        buffers, as PyTorch saves them."""
        own: dict[str, Tensor] = {k: v for k, v in self._parameters.items() if v is not None}
        for k, v in self._buffers.items():
            if v is not None and k not in self._non_persistent:
                own[k] = v
        return own

    def modules(self) -> list[Module]:
        return self.module_list()

    def state_dict(
        self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> collections.OrderedDict[str, Tensor]:
        """The parameters and persistent buffers by dotted name (under every path to a shared
        module, as PyTorch's recursive walk), detached (sharing their values) unless
        `keep_vars`, in an OrderedDict as PyTorch's; or written into `destination` (a dict),
        which is returned. Positional arguments are destination, prefix, keep_vars, with
        PyTorch's FutureWarning."""
        if args:
            core_hooks.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module."
                "state_dict for details."
            )
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is not None and not isinstance(destination, dict):
            raise NotSupported(
                f"state_dict() into a destination of type {typename(destination)} is not "
                "supported by gradcli",
                hint="pass a dict (or an OrderedDict), or call model.state_dict()",
            )
        if not isinstance(prefix, str):
            raise GradcliError(
                f'can only concatenate str (not "{typename(prefix)}") to str'
            ).mirror("TypeError")

        def shown(t: Tensor) -> Tensor:
            if keep_vars or isinstance(t, UNINITIALIZED):
                return t
            out = Tensor(t.data)
            if META and t in META:
                META.add(out)
            return out

        _check_visits(
            self,
            "the number of module visits of state_dict()",
            per_parent_once=False,
            doing="state_dict()",
        )
        out = destination
        if out is None:
            out = collections.OrderedDict()
            out._metadata = collections.OrderedDict()  # type: ignore[attr-defined]
        meta = getattr(out, "_metadata", None)
        # PyTorch's recursive walk, without recursion: each module's versions and pre-hooks,
        # its own entries, the modules below it, then its post-hooks
        stack: list[tuple[Module, str, bool]] = [(self, prefix, False)]
        while stack:
            m, at, done = stack.pop()
            local = {"version": m.STATE_VERSION}
            if done:
                for hook in m._hooks_of("state_dict_post"):
                    if hook(m, out, at, local) is not None:
                        raise GradcliError("state_dict post-hook must return None").mirror(
                            "RuntimeError"
                        )
                continue
            if isinstance(meta, dict):
                meta[at[:-1]] = local
            for hook in m._hooks_of("state_dict_pre"):
                hook(m, at, keep_vars)
            for n, t in m._state().items():
                out[at + n] = shown(t)
            stack.append((m, at, True))
            stack.extend(
                reversed([(c, f"{at}{n}.", False) for n, c in m._modules.items() if c is not None])
            )
        return out

    def load_state_dict(self, state_dict: Any, strict: Any = True, assign: Any = False) -> Any:
        """Copy the tensors of `state_dict` into the parameters in place (an optimizer holding
        them sees the new values), or with assign=True make them the module's own (a
        Parameter on a plain tensor's storage; its dtype kept), as PyTorch: every module's own
        parameters by their dotted
        key; missing and unexpected keys collected; a shape mismatch or, with strict, any
        missing or unexpected key is an error naming them all; nothing is copied then."""
        if not isinstance(state_dict, dict):
            raise GradcliError(
                f"Expected state_dict to be dict-like, got {_pytype(state_dict)}."
            ).mirror("TypeError")
        _check_visits(
            self,
            "the number of module visits of load_state_dict()",
            per_parent_once=False,
            doing="load_state_dict()",
        )
        missing: list[str] = []
        # A batch norm's count missing from a dict without PyTorch's version metadata (any
        # dict but one state_dict() made) is filled with the module's own, not reported
        unexpected: list[str] = []
        errors: list[str] = []
        copies: list[tuple[Tensor, np.ndarray]] = []
        # assign=True: the checkpoint's tensors themselves become the module's (a tensor for a
        # parameter wrapped in a Parameter on its storage, requiring grad as the old one did)
        assigned: list[tuple[Module, str, Tensor, Tensor]] = []
        # With load_state_dict pre-hooks anywhere, PyTorch's dicts: a copy of the program's
        # (its versions kept), each submodule loading from its parent's filtered by its prefix
        # (made after the parent's hooks ran: a key a hook renamed is found below it)
        hooked = any(m._hooks_of("load_state_dict_pre") for m in self.modules())
        metadata = getattr(state_dict, "_metadata", None)
        root = state_dict
        if hooked:
            root = collections.OrderedDict(state_dict)
            if metadata is not None:
                root._metadata = metadata  # type: ignore[attr-defined]
        walked = 0
        stack: list[tuple[Module, str, Any]] = [(self, "", root)]
        while stack:  # depth first, in registration order, as PyTorch's recursive load
            module, prefix, state_dict = stack.pop()
            # A norm layer's batch counter (version 2 of its state) is taken as its own, not
            # missing, where the dict saved no version 2 for it (PyTorch's _NormBase puts its
            # counter into the dict it loads from, before the pre-hooks)
            old_counter = False
            if module.STATE_VERSION == 2 and module._buffers.get("num_batches_tracked") is not None:
                entry = metadata.get(prefix[:-1]) if isinstance(metadata, dict) else None
                version = entry.get("version") if isinstance(entry, dict) else None
                old_counter = version is None or (isinstance(version, (int, float)) and version < 2)
                counter = prefix + "num_batches_tracked"
                if old_counter and hooked and counter not in state_dict:
                    state_dict[counter] = module._buffers["num_batches_tracked"]
            if hooked:
                limits.BUDGET.tick()
                self._load_pre_hooks(
                    module, state_dict, prefix, metadata, assign, missing, unexpected, errors
                )
            own = module._state()
            for name, param in own.items():
                key = prefix + name
                if key not in state_dict:
                    if name == "num_batches_tracked" and old_counter:
                        # PyTorch's BatchNorm takes a state dict of no saved version (a dict
                        # the program made) as an old one, without the counter: its own kept
                        continue
                    missing.append(key)
                    continue
                value = state_dict[key]
                if not isinstance(value, Tensor):
                    kind = "parameter" if name in module._parameters else "buffer"
                    errors.append(
                        f'While copying the {kind} named "{key}", expected torch.Tensor or '
                        f"Tensor-like object from checkpoint but received {_pytype(value)}"
                    )
                    continue
                data = value.data
                if type(param) in UNINITIALIZED:
                    # a lazy module before its first call takes the checkpoint's shapes
                    # (PyTorch's lazy load hook); an uninitialized value leaves it lazy
                    if type(value) not in UNINITIALIZED:
                        copies.append((param, data))
                    continue
                if type(value) in UNINITIALIZED:  # (its shape, read to compare: refused)
                    raise GradcliError(UNINITIALIZED_SHAPE).mirror("RuntimeError")
                if param.data.ndim == 0 and data.shape == (1,):
                    data = data.reshape(())
                if data.shape != param.data.shape:
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape "
                        f"{_size(data.shape)} from checkpoint, the shape in current model is "
                        f"{_size(param.data.shape)}."
                    )
                    continue
                if assign:
                    if data is not value.data:  # (a 1-element checkpoint for a 0-d entry)
                        value = Tensor(data)
                    assigned.append((module, name, param, value))
                else:
                    copies.append((param, data))
            for key in state_dict:
                if not isinstance(key, str) or not key.startswith(prefix):
                    continue
                head = key[len(prefix) :].split(".", 1)
                if len(head) > 1:
                    if head[0] not in module._modules:
                        unexpected.append(key)
                elif head[0] not in own:
                    unexpected.append(key)
            below = [(m, f"{prefix}{n}.") for n, m in module._modules.items() if m is not None]
            if hooked and below:
                walked += len(state_dict) * len(below)
                limits.LIST_ITEMS.check(walked, "the state dict entries load_state_dict() walks")
                below_dicts = [
                    {k: v for k, v in state_dict.items() if isinstance(k, str) and k.startswith(at)}
                    for _, at in below
                ]
            else:
                below_dicts = [state_dict] * len(below)
            stack.extend(reversed([(m, at, d) for (m, at), d in zip(below, below_dicts)]))
        state_dict = root
        if not errors and self._load_post_hooked():
            # (PyTorch's post-hooks run once the tensors are copied, before the strict check)
            self._copy_loaded(copies, assigned)
            copies, assigned = [], []
            keys = IncompatibleKeys(missing, unexpected)
            for m in _post_order(self):
                for hook in m._hooks_of("load_state_dict_post"):
                    if hook(m, keys) is not None:
                        raise GradcliError(
                            "Hooks registered with ``register_load_state_dict_post_hook`` are "
                            "not expected to return new values, if incompatible_keys need to be "
                            "modified, it should be done inplace."
                        ).mirror("AssertionError")
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise GradcliError(
                f"Error(s) in loading state_dict for {self.name}:\n\t" + "\n\t".join(errors)
            )
        self._copy_loaded(copies, assigned)
        return IncompatibleKeys(missing, unexpected)

    @staticmethod
    def _load_pre_hooks(
        module: Module,
        state_dict: dict,
        prefix: str,
        metadata: Any,
        assign: Any,
        missing: list,
        unexpected: list,
        errors: list,
    ) -> None:
        """A module's load_state_dict pre-hooks, as PyTorch's `_load_from_state_dict` calls
        them: with the dict it loads from, its prefix, its saved versions (`{}` without any),
        strict always True (PyTorch's recursion passes True), and the three lists."""
        table = module.__dict__.get("_module_hooks")
        entries = list(table.get("load_state_dict_pre", ())) if table else []
        if not entries:
            return
        local_metadata = {} if not isinstance(metadata, dict) else metadata.get(prefix[:-1], {})
        if assign:
            local_metadata["assign_to_params_buffers"] = assign
        for entry in entries:
            args = (state_dict, prefix, local_metadata, True, missing, unexpected, errors)
            if isinstance(entry, _PlainEntry):
                entry[0](*args)
            else:
                entry[0](module, *args)

    def _load_post_hooked(self) -> bool:
        return any(m._hooks_of("load_state_dict_post") for m in self.modules())

    @staticmethod
    def _copy_loaded(copies: list[Any], assigned: list[Any]) -> None:
        from ..core.inplace import write

        for param, data in copies:
            if type(param) in UNINITIALIZED:
                param.materialize(data)
            else:
                write(param, data.astype(param.dtype, copy=True))
        for module, name, param, value in assigned:
            if name in module._parameters:
                if isinstance(value, Parameter):
                    value.requires_grad_(param.requires_grad)
                else:
                    value = Parameter(value, requires_grad=param.requires_grad)
                module._parameters[name] = value
            else:
                module._buffers[name] = value

    # -- modes and gradients ---------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        for t in self.parameters():
            if t.grad is None:
                continue
            if set_to_none:
                t.grad = None
            elif type(t.grad) is SparseCOO:
                t.grad.clear()  # (zero_() of a sparse tensor: no entries left)
            else:
                t.grad = Tensor(np.zeros_like(t.grad.data))

    def train(self, mode: bool = True) -> Module:
        """The mode of this module and of those below it; a submodule whose class (the
        program's) defines `train` is switched by calling it, as PyTorch's train calls each
        child's (walked without recursion: a deep nesting is no Python recursion)."""
        if not isinstance(mode, bool):
            raise GradcliError("training mode is expected to be boolean")
        self.training = mode
        seen = {id(self)}
        stack = list(reversed(self._modules.values()))
        while stack:
            m = stack.pop()
            if m is None or id(m) in seen:
                continue
            seen.add(id(m))
            limits.BUDGET.tick()
            own = m.program_train()
            if own is not None:
                own(mode)
                continue
            m.training = mode
            stack.extend(reversed(m._modules.values()))
        return self

    def program_train(self) -> Callable[[bool], Any] | None:
        """A `train` method the module's class (a program's) defines, else None."""
        return None

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for t in self.parameters():
            t.requires_grad_(requires_grad)
        return self

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """`fn` on every submodule, children before their parent, in registration order (as
        PyTorch's recursive `apply`: a module shared by two parents is visited twice)."""
        if not callable(fn):
            raise GradcliError(f"'{typename(fn)}' object is not callable").mirror("TypeError")
        _check_visits(self, "the number of module visits of apply()", doing="apply()")
        order: list[Module] = []
        stack: list[tuple[Module, bool]] = [(self, False)]
        while stack:  # post-order without recursion: a deep model cannot overflow the stack
            m, expanded = stack.pop()
            if expanded:
                order.append(m)
                continue
            stack.append((m, True))
            children = list(dict.fromkeys(c for c in m._modules.values() if c is not None))
            stack.extend((c, False) for c in reversed(children))
        for m in order:
            fn(m)
        return self

    def _cast(self, dtype: np.dtype, kinds: str = "f") -> Module:
        """Every parameter and buffer of a dtype kind in `kinds` cast to `dtype`, as PyTorch's
        `_apply`: a parameter keeps its identity (`param.data = param.to(dtype)`: an optimizer
        or a name holding it before the cast sees the cast parameter, and trains it), its
        gradient is cast in place too; a buffer is replaced by its cast copy. A tensor already
        of the dtype is left as it is (PyTorch's `t.double()` of a float64 tensor is t)."""
        overwrite = Settings.overwrite_module_params and not Settings.swap_module_params
        for m in self.module_list():
            if overwrite:
                _overwrite_params(m, dtype, kinds)
                continue
            for t in m._parameters.values():
                if t is not None and t.dtype.kind in kinds and t.dtype != dtype:
                    t.data = Tensor(t.data.astype(dtype)).data  # (bfloat16 settled, complex noted)
                    g = t.grad
                    if type(g) is SparseCOO and g.dtype.kind in kinds and g.dtype != dtype:
                        g.values = g.values.astype(dtype)
                    elif g is not None and g.dtype.kind in kinds and g.dtype != dtype:
                        g.data = Tensor(g.data.astype(dtype)).data
            for n, b in m._buffers.items():
                if b is not None and b.dtype.kind in kinds and b.dtype != dtype:
                    # (a lazy module's buffer stays uninitialized, of the new dtype)
                    m._buffers[n] = type(b)(b.data.astype(dtype))
        return self

    def double(self) -> Module:
        return self._cast(np.dtype(np.float64))

    def float(self) -> Module:
        return self._cast(np.dtype(np.float32))

    def half(self) -> Module:
        return self._cast(np.dtype(np.float16))

    def bfloat16(self) -> Module:
        return self._cast(dtypes.BF16)

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """`model.to(device)`, `model.to(dtype)`, `model.to(tensor)` (its dtype): PyTorch's
        parser (Tensor.to's), then its own refusals of copy= and of a dtype that is not
        floating."""
        from .args import memory_format_arg, to_bind, to_dtype_of

        bound = to_bind(args, kwargs)
        if "copy" in bound:
            raise GradcliError(".to() does not accept copy argument")
        fmt = memory_format_arg(bound.get("memory_format"), "to")
        dtype = to_dtype_of(bound)
        if dtype is not None:
            dtype = dtypes.check_dtype(dtype)
            if dtype.kind not in "fc" and dtype != dtypes.BF16:
                raise GradcliError(
                    "nn.Module.to only accepts floating point or complex dtypes, but got "
                    f"desired dtype={dtypes.torch_name(dtype)}"
                ).mirror("TypeError")
        meta = False
        a = bound.get("device")
        if isinstance(a, (int, np.integer)):
            from .args import to_device_check

            to_device_check(a)  # (an accelerator's index: none here)
        if a is not None:
            spec = str(a)
            if device_arg(spec)[0] == "meta":
                meta = True
            else:
                cpu_device(spec)
                if self._on_meta():
                    raise GradcliError(
                        "Cannot copy out of meta tensor; no data! Please use "
                        "torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving "
                        "module from meta to a different device."
                    ).mirror("NotImplementedError")
        if dtype is not None and np.dtype(dtype).kind == "c":
            core_hooks.warn(
                "Complex modules are a new feature under active development whose design may "
                "change, and some modules might not work as expected when using complex tensors "
                "as parameters or buffers. Please file an issue at "
                "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml if a "
                "complex module does not work as expected."
            )
        if (
            dtype is not None
            and np.dtype(dtype).kind != "c"
            and any(
                t is not None and t.dtype.kind == "c"
                for m in self.module_list()
                for t in (*m._parameters.values(), *m._buffers.values())
            )
        ):
            # (PyTorch casts the complex tensors too, dropping their imaginary parts)
            raise NotSupported(
                "nn.Module.to() of a module with complex parameters or buffers to the real "
                f"dtype {dtypes.torch_name(np.dtype(dtype))} is not supported by gradcli",
                hint="cast the tensors you need yourself: p.real, p.imag",
            )
        out = self if dtype is None else self._cast(np.dtype(dtype), "fc")
        if meta:
            # PyTorch's parameters and buffers become new meta tensors (shapes without
            # values): a name holding an old one keeps it
            for m in self.module_list():
                for k, p in list(m._parameters.items()):
                    if p is not None and p not in META:
                        new = Parameter(p.data, p.requires_grad)
                        META.add(new)
                        if p.grad is not None:
                            new.grad = Tensor(p.grad.data)
                            META.add(new.grad)
                        m._parameters[k] = new
                for k, b in list(m._buffers.items()):
                    if b is not None and b not in META:
                        m._buffers[k] = new_buffer = Tensor(b.data)
                        META.add(new_buffer)
        if fmt != "preserve":
            self._in_format(fmt)
        return out

    def _in_format(self, fmt: str) -> None:
        """`model.to(memory_format=...)`: every 4-d and 5-d parameter (and its gradient) and
        buffer laid out in the format, as PyTorch's `_apply` (a parameter keeps its
        identity); a tensor of the other rank is PyTorch's RuntimeError."""
        from ..core.layout import in_format
        from .args import MEMORY_FORMATS, memory_format_arg

        def laid(t: Tensor) -> np.ndarray:
            memory_format_arg(
                MEMORY_FORMATS[fmt + "_format" * (fmt == "contiguous")], "to", t.shape
            )
            return in_format(t.data, fmt)

        for m in self.module_list():
            for t in m._parameters.values():
                if t is not None and t.ndim in (4, 5):
                    t.data = laid(t)
                    g = t.grad
                    if isinstance(g, Tensor) and g.ndim == t.ndim:
                        g.data = laid(g)
            for n, b in m._buffers.items():
                if b is not None and b.ndim in (4, 5):
                    m._buffers[n] = Tensor(laid(b))

    def cpu(self) -> Module:
        if self._on_meta():
            raise GradcliError("Cannot copy out of meta tensor; no data!").mirror(
                "NotImplementedError"
            )
        return self

    def _on_meta(self) -> bool:
        """Whether a parameter or buffer of the module's tree is a meta tensor."""
        return bool(META) and any(
            t is not None and t in META
            for m in self.module_list()
            for t in (*m._parameters.values(), *m._buffers.values())
        )

    def to_empty(self, *, device: Any, recurse: bool = True) -> Module:
        """`module.to_empty(device='cpu')` (a module made on the meta device, then given
        storage): every parameter and buffer replaced by a new tensor of its shape and dtype
        on the device, its values unwritten (zeros here: printing one before an
        initialisation warns, as for torch.empty); a parameter stays a Parameter with its
        requires_grad."""
        from ..core.tensor import UNWRITTEN
        from .args import to_device_check

        meta = to_device_check(device)

        def empty(t: Tensor) -> np.ndarray:
            values = np.zeros(t.shape, t.dtype)
            UNWRITTEN[id(values)] = values
            return values

        for m in self.module_list() if recurse else [self]:
            for k, p in list(m._parameters.items()):
                if p is not None:
                    new = Parameter(empty(p), p.requires_grad)
                    m._parameters[k] = new
                    if meta:
                        META.add(new)
            for k, b in list(m._buffers.items()):
                if b is not None:
                    m._buffers[k] = new_buffer = Tensor(empty(b))
                    if meta:
                        META.add(new_buffer)
        return self

    def type(self, dst_type: Any) -> Module:
        """`module.type(torch.float64)`: every floating parameter and buffer cast to the dtype
        (PyTorch casts each tensor, integer ones too: gradcli keeps the integer buffers, as
        .double() / .float() do)."""
        if not isinstance(dst_type, np.dtype):
            raise NotSupported(
                f"Module.type({typename(dst_type)}) is not supported by gradcli",
                hint="give a dtype: model.type(torch.float64), or use model.double()",
            )
        if dst_type.kind != "f":
            raise NotSupported(
                f"Module.type() to the non-float dtype {dtypes.torch_name(dst_type)} is not "
                "supported by gradcli",
                hint="give a floating dtype: model.type(torch.float64)",
            )
        for m in self.module_list():
            lazy = [t for t in (*m._parameters.values(), *m._buffers.values()) if t is not None]
            if any(type(t) in UNINITIALIZED for t in lazy):
                # (Tensor.type is not among the methods PyTorch's uninitialized tensors allow)
                raise uninitialized_use("<method 'type' of 'torch._C.TensorBase' objects>", *lazy)
        self._cast(dst_type)
        for m in self.module_list():
            for n, b in m._buffers.items():
                if b is not None and b.dtype != dst_type:
                    m._buffers[n] = Tensor(b.data.astype(dst_type))
        return self

    def share_memory(self) -> Module:
        """Moves the tensors to shared memory for other processes; a gradcli program has one
        process, so nothing changes (the module itself is returned, as PyTorch's)."""
        return self

    # -- printing --------------------------------------------------------------------------
    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        if not _REPR_DEPTH:
            _check_visits(self, "the number of modules the text would show", False, "its text")
        _REPR_DEPTH.append(self)
        try:
            if self.__dict__.get("_parametrized"):
                return "Parametrized" + self.module_repr()
            return self.module_repr()
        finally:
            _REPR_DEPTH.pop()

    def module_repr(self) -> str:
        limits.BUDGET.tick()
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split("\n")
        children = []
        for key, m in self._modules.items():
            text = repr(m).replace("\n", "\n  ")
            children.append(f"({key}): {text}")
        lines = lines + children
        main = self.name + "("
        if lines:
            if len(extra.split("\n")) == 1 and not children:
                main += extra
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


# The modules whose text is being made (the outermost checks the whole tree first).
_REPR_DEPTH: list[Module] = []


# --- modules of one function ---------------------------------------------------------------------


class Functional(Module):
    """A module that applies one function (activations, losses): `nn.ReLU()(x)`."""

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        kwargs: dict,
        shown: str,
        settings: dict | None = None,
        given: dict | None = None,
    ) -> None:
        super().__init__()
        self._name, self.fn, self.kwargs, self.shown = name, fn, kwargs, shown
        # The module's attributes a program reads (`nn.ReLU().inplace`, `loss_fn.reduction`):
        # `settings` when given, else PyTorch's constructor arguments, worked out from the
        # arguments `given` (or the function's keywords) when first read.
        self.settings, self.given = settings, given

    @property
    def name(self) -> str:
        return self._name

    def _settings(self) -> dict:
        if self.settings is None:
            given = self.kwargs if self.given is None else self.given
            self.settings = constructor_settings(self._name, self.fn, given)
        return self.settings

    def program_attribute(self, name: str) -> Any:
        if not name.startswith("_"):
            settings = self._settings()
            if name in settings:
                return settings[name]
        return super().program_attribute(name)

    def program_set(self, name: str, value: Any) -> None:
        """`act.inplace = False`, `loss_fn.reduction = 'sum'`: a setting changed for the calls
        that follow and for the module's text, as PyTorch's forward and extra_repr read the
        attribute each time. A setting the wrapped function does not take under its own name
        (PairwiseDistance's norm, ReLU6's bounds) cannot be changed: refused, never ignored."""
        settings = self._settings()
        if name not in settings:
            super().program_set(name, value)
            return
        if value is not None and not isinstance(value, (bool, int, float, str, tuple, Tensor)):
            raise NotSupported(
                f"setting {self.name}.{name} to a {typename(value)} is not supported",
                hint="give it a number, a bool, a string or a tensor as PyTorch's module has",
            )
        old = settings[name]
        takes = name in self.kwargs or _takes(self.fn, name)
        if name == "inplace":
            text = self.shown
            for tail in (", inplace=True", "inplace=True"):
                if text.endswith(tail):
                    text = text[: -len(tail)]
                    break
            if value and self._name in INPLACE_SHOWN:
                text = f"{text}, inplace=True" if text else "inplace=True"
        elif not takes:
            text = None
        elif self.shown == "" or old == value:
            text = self.shown
        else:
            text = _reshown(self.shown, name, old, value)
        if text is None or (name == "inplace" and not takes and value):
            raise NotSupported(
                f"changing {self.name}.{name} after the module is made is not supported by gradcli",
                hint=f"make a new module with the setting: nn.{self.name}({name}=...)",
            )
        settings[name] = value
        if takes:
            self.kwargs[name] = bool(value) if name == "inplace" else value
        self.shown = text

    def forward(self, *inputs: Any, **named: Any) -> Any:
        fits = _FORWARD_ARITY.get(self._name)
        if fits is None:
            from .callerrors import forward_params

            got = forward_params(self._name)
            fits = _FORWARD_ARITY[self._name] = (got[0], got[1]) if got else (0, 1 << 30)
        if named or not fits[0] <= len(inputs) <= fits[1]:
            inputs = self._bound(inputs, named)
        try:
            return self.fn(*inputs, **self.kwargs)
        except TypeError as e:
            # Raised by this call itself (fn was never entered): the inputs do not fit the
            # function the module wraps. (Checked after the fact: binding a signature on
            # every call cost a training loop 5%.)
            if not call_did_not_fit(e, here=True, args=inputs):
                raise
            from .callerrors import forward_error

            said = str(e)
            said = said.split(") ", 1)[1] if said.split(" ", 1)[0].endswith(")") else said
            # PyTorch's module is Python: its forward's words (`MSELoss.forward() missing 1
            # required positional argument: 'target'`), the TypeError a program catches
            raise GradcliError(
                forward_error(self.name, len(inputs), []) or f"{self.name}(): {said}",
                found=f"{len(inputs)} input(s)",
            ).mirror("TypeError") from None

    def _bound(self, inputs: tuple, named: dict) -> tuple:
        """The inputs of a call by keyword (`nn.ReLU()(input=x)`), or of one that does not fit
        PyTorch's forward (`nn.ReLU()(x, x)`: its TypeError, in Python's words)."""
        from .callerrors import forward_error, forward_params

        got = forward_params(self._name)
        error = forward_error(self._name, len(inputs), list(named)) if got else None
        if error is not None or got is None:
            raise GradcliError(
                error
                or f"{self.name}.forward() got an unexpected keyword argument "
                f"'{next(iter(named))}'",
                found=f"{len(inputs)} input(s)"
                + (f", keywords {', '.join(named)}" if named else ""),
            ).mirror("TypeError")
        out = list(inputs)
        for name, _, has_default in got[2][len(inputs) :]:
            if name in named:
                out.append(named[name])
            elif not has_default:
                break
            else:
                break  # (later inputs by keyword after a default one: not in these modules)
        return tuple(out)

    def extra_repr(self) -> str:
        return self.shown


# The one-function modules whose text shows `inplace=True` (PyTorch's extra_repr).
INPLACE_SHOWN = frozenset(
    (
        "ReLU",
        "LeakyReLU",
        "ELU",
        "CELU",
        "SELU",
        "SiLU",
        "ReLU6",
        "Hardtanh",
        "Mish",
        "Threshold",
        "RReLU",
    )
)


def _takes(fn: Callable[..., Any], name: str) -> bool:
    import inspect

    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _reshown(text: str, name: str, old: Any, new: Any) -> str | None:
    """The module's text with one setting's shown value replaced (`negative_slope=0.01` ->
    `negative_slope=0.2`, `approximate='none'` -> `approximate='tanh'`, Softshrink's bare
    `0.5`); None when the old value is not found as the text shows it."""
    for shown, fresh in (
        (f"{name}={old!r}", f"{name}={new!r}"),
        (f"{name}={old}", f"{name}={new}"),
    ):
        if text.count(shown) == 1:
            return text.replace(shown, fresh)
    if text == str(old):
        return str(new)
    return None


# Constructor arguments of PyTorch's modules that are not kept as attributes (the legacy
# reduction arguments become `reduction`).
_NOT_KEPT = frozenset(("self", "size_average", "reduce", "device", "dtype"))


def constructor_settings(name: str, fn: Callable[..., Any], given: dict) -> dict:
    """The attributes PyTorch's `nn.<name>` keeps of its constructor's arguments: each named
    argument of its __init__ (from the signature table), valued as the program gave it, else
    as the wrapped function's default for the same keyword (PyTorch's defaults); an argument
    with neither is left out (reading it is refused, never made up)."""
    import inspect

    from .callerrors import _parse
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{name}")
    params = (_parse(text)[2] or []) if text is not None else []
    try:
        own = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        own = {}  # type: ignore[assignment]
    out: dict[str, Any] = {}
    for p, kind, _ in params:
        if p in _NOT_KEPT or kind in ("VP", "VK"):
            continue
        if p in given:
            out[p] = given[p]
        elif p in own and own[p].default is not inspect.Parameter.empty:
            out[p] = own[p].default
    legacy = (given.get("size_average"), given.get("reduce"))
    if "reduction" in out and any(v is not None for v in legacy):
        out["reduction"] = legacy_reduction(*legacy, warn=False)
    return out


def legacy_reduction(size_average: Any, reduce: Any, warn: bool = True) -> str:
    """The reduction PyTorch's loss modules make of the deprecated size_average / reduce
    (None counts as True), with PyTorch's warning (once a run, as Python shows it)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    r = "mean" if size_average and reduce else "sum" if reduce else "none"
    if warn:
        core_hooks.warn(
            f"size_average and reduce args will be deprecated, please use reduction='{r}' instead.",
            once=True,
        )
    return r


class _Loss(Module):
    """torch.nn.modules.loss._Loss, the base a program's own loss builds on (`class
    FocalLoss(_Loss)`): a module keeping `reduction` (made of the deprecated size_average /
    reduce where given, with PyTorch's warning), with no forward of its own."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: Any = "mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = legacy_reduction(size_average, reduce)
        self.set_attribute("reduction", reduction)


class _WeightedLoss(_Loss):
    """torch.nn.modules.loss._WeightedLoss: a `_Loss` whose `weight` (a tensor or None) is a
    buffer of the module, as PyTorch registers it."""

    def __init__(
        self,
        weight: Any = None,
        size_average: Any = None,
        reduce: Any = None,
        reduction: Any = "mean",
    ):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


# The built-in losses PyTorch derives from _WeightedLoss (the other losses derive from _Loss).
WEIGHTED_LOSSES = frozenset(
    (
        "BCELoss",
        "CrossEntropyLoss",
        "LinearCrossEntropyLoss",
        "MultiLabelSoftMarginLoss",
        "MultiMarginLoss",
        "NLLLoss",
        "NLLLoss2d",
    )
)


def _init_shown(name: str) -> str:
    """The name Python's errors give a torch.nn module's constructor: that of the class that
    defines its `__init__` (`_Loss.__init__` for nn.MSELoss), as the signature table has it."""
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get("nn." + name, "")
    if text.startswith("py ") and ".__init__(" in text:
        return text[3 : text.index("(")]
    return f"{name}.__init__"


def _overwrite_params(m: Module, dtype: np.dtype, kinds: str) -> None:
    """A module's parameters converted as PyTorch's `_apply` does under
    `torch.__future__.set_overwrite_module_params_on_conversion(True)`: every one replaced by
    a new Parameter (on the old one's storage where its dtype stays), its gradient converted
    into a new tensor, or kept where it stays; a name holding the old parameter keeps it."""
    for key, t in list(m._parameters.items()):
        if t is None:
            continue
        convert = t.dtype.kind in kinds and t.dtype != dtype
        new = Parameter(t.data.astype(dtype) if convert else t.data, t.requires_grad)
        g = t.grad
        if g is not None:
            if convert and type(g) is not SparseCOO and g.dtype.kind in kinds:
                g = Tensor(g.data.astype(dtype))
            new.grad = g
        m._parameters[key] = new


# A torch.nn module's name -> the least and most inputs PyTorch's forward takes.
_FORWARD_ARITY: dict[str, tuple[int, int]] = {}


def _module(
    name: str,
    fn: Callable[..., Any],
    positional: tuple[str, ...] = (),
    shown: Callable[[dict], str] | None = None,
    defaults: dict | None = None,
) -> Callable[..., Module]:
    """A module class wrapping `fn`: its constructor's arguments (positional ones named by
    `positional`) are passed to `fn` as keywords; `shown` makes the repr's arguments."""

    def make(*args: Any, **kwargs: Any) -> Module:
        names = positional
        if len(args) > len(positional):
            # PyTorch's constructor takes the rest positionally too (`nn.ReLU(True)`)
            names, required = _pytorch_positional(name) or (positional, 0)
            if len(args) > len(names):
                most = len(names) + 1
                takes = f"from {required + 1} to {most}" if required + 1 < most else f"{most}"
                raise GradcliError(
                    f"{_init_shown(name)}() takes {takes} positional argument"
                    f"{'s' if most > 1 else ''} but {len(args) + 1} were given"
                ).mirror("TypeError")
        kw = dict(zip(names, args))
        for k in kw:
            if k in kwargs:
                raise GradcliError(
                    f"{_init_shown(name)}() got multiple values for argument '{k}'"
                ).mirror("TypeError")
        kw.update(kwargs)
        _known_keywords(name, fn, kwargs)
        inplace = bool(kw.pop("inplace", False))
        calls = dict(kw)
        if kw.get("size_average") is not None or kw.get("reduce") is not None:
            # the module keeps the reduction they make (PyTorch's loss warns here, once, and
            # its forward passes `reduction=` alone: no second warning at the call)
            calls["reduction"] = legacy_reduction(kw.get("size_average"), kw.get("reduce"))
            calls.pop("size_average", None)
            calls.pop("reduce", None)
        full = {**(defaults or {}), **kw}
        if inplace and _takes_inplace(fn):
            calls["inplace"] = True  # the input changed in place, as PyTorch's module does
        text = shown(full) if shown is not None else ""
        if shown is not None and inplace and name in INPLACE_SHOWN:
            text = (text + ", " if text else "") + "inplace=True"
        elif name in INPLACE_SHOWN and inplace:
            text = "inplace=True"
        return Functional(name, fn, calls, text, given={**full, "inplace": inplace})

    make.__name__ = name
    return make


def _pytorch_positional(name: str) -> tuple[tuple[str, ...], int] | None:
    """The names of PyTorch's `nn.<name>.__init__` arguments that may be given by position,
    and how many of them are required (from the signature table; None where it has none)."""
    from .callerrors import _parse
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{name}")
    if text is None:
        return None
    params = [p for p in (_parse(text)[2] or []) if p[1] in ("P", "PK") and p[0] != "self"]
    return tuple(p for p, _, _ in params), sum(1 for _, _, d in params if not d)


def _takes_inplace(fn: Callable[..., Any]) -> bool:
    import inspect

    try:
        return "inplace" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _known_keywords(name: str, fn: Callable[..., Any], kwargs: dict) -> None:
    """A keyword the wrapped function does not take is refused when the module is made, as
    PyTorch's constructor refuses it (not at the first call)."""
    if not kwargs:
        return
    import inspect

    from .callerrors import _parse
    from .torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{name}")
    if text is not None:
        # PyTorch's constructor's own parameters (the function may take more: F.mse_loss's
        # weight= is not nn.MSELoss's)
        torch_params = _parse(text)[2] or []
        if not any(kind == "VK" for _, kind, _ in torch_params):
            for k in kwargs:
                if k not in {n for n, _, _ in torch_params} or k == "self":
                    raise GradcliError(
                        f"{_init_shown(name)}() got an unexpected keyword argument '{k}'"
                    ).mirror("TypeError")
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return
    for k in kwargs:
        if k not in params and k != "inplace":
            raise GradcliError(
                f"{_init_shown(name)}() got an unexpected keyword argument '{k}'"
            ).mirror("TypeError")


def _dim_shown(kw: dict) -> str:
    return f"dim={kw.get('dim')}"


def _identity(x: Any, *args: Any, **kwargs: Any) -> Any:
    return x


def _identity_module(*args: Any, **kwargs: Any) -> Module:
    """`nn.Identity(54, unused_argument1=0.1)`: PyTorch's takes and ignores any arguments."""
    return Functional("Identity", _identity, {}, "")


def _softmax2d(x: Any) -> Any:
    # PyTorch's Softmax2d: a softmax over the channels of a (C, H, W) or (N, C, H, W) input.
    nd = getattr(x, "ndim", None)
    if nd not in (3, 4):
        got = f"{nd}D" if nd is not None else typename(x)
        raise GradcliError(f"Softmax2d: expected input to be 3D or 4D, got {got} instead").mirror(
            "ValueError"
        )
    return f_softmax(x, dim=-3)


def _unflatten(x: Any, dim: Any = None, unflattened_size: Any = None) -> Any:
    # the Tensor method (its family loads on first use; nn does not import it)
    if not isinstance(x, Tensor):
        raise GradcliError(f"Unflatten expects a tensor, not {typename(x)}").mirror("TypeError")
    return x.unflatten(dim, unflattened_size)


def _unflatten_shown(kw: dict) -> str:
    size = kw.get("unflattened_size")
    from .printing import Size

    shown = repr(size) if isinstance(size, Size) else repr(tuple(size or ()))
    return f"dim={kw.get('dim')}, unflattened_size={shown}"


class Upsample(Module):
    """nn.Upsample: F.interpolate with the module's size or scale_factor and mode."""

    ATTRIBUTES = (
        "training",
        "name",
        "size",
        "scale_factor",
        "mode",
        "align_corners",
        "recompute_scale_factor",
    )

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: Any = None,
        recompute_scale_factor: Any = None,
    ) -> None:
        super().__init__()
        self.size = tuple(size) if isinstance(size, list) else size
        if isinstance(scale_factor, (list, tuple)):
            self.scale_factor: Any = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, x: Any) -> Tensor:
        from .nnfunctional import interpolate

        return interpolate(
            x,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """nn.UpsamplingNearest2d(size=None, scale_factor=None): nn.Upsample in mode 'nearest'."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """nn.UpsamplingBilinear2d(size=None, scale_factor=None): nn.Upsample in mode 'bilinear'
    with align_corners=True."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "bilinear", True)


def _flatten(x: Any, start_dim: int = 1, end_dim: int = -1) -> Any:
    from .functional import flatten

    return flatten(x, start_dim, end_dim)


class Dropout(Module):
    """nn.Dropout and its family (Dropout1d/2d/3d, AlphaDropout, FeatureAlphaDropout): F's
    function of the same name in training mode, the input itself in eval mode."""

    ATTRIBUTES = ("training", "p", "inplace")
    FUNCTION = "dropout"

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        from .args import parsed_number

        value = parsed_number(p)  # (a 0-dim tensor kept as given, its value checked)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise GradcliError(
                f"dropout probability has to be between 0 and 1, but got {p}"
            ).mirror("ValueError")
        self.p, self.inplace = p, bool(inplace)

    def forward(self, x: Any) -> Tensor:
        from .sampling import DROPOUTS

        if self.FUNCTION in ("alpha_dropout", "feature_alpha_dropout"):
            return DROPOUTS[self.FUNCTION](x, self.p, self.training)  # PyTorch passes no inplace
        return DROPOUTS[self.FUNCTION](x, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(Dropout):
    FUNCTION = "dropout1d"


class Dropout2d(Dropout):
    FUNCTION = "dropout2d"


class Dropout3d(Dropout):
    FUNCTION = "dropout3d"


class AlphaDropout(Dropout):
    FUNCTION = "alpha_dropout"


class FeatureAlphaDropout(Dropout):
    FUNCTION = "feature_alpha_dropout"


# --- modules with parameters ---------------------------------------------------------------------


def _features(v: Any, what: str) -> int:
    """A layer's size argument. A bool is the int it stands for and kept as given (PyTorch's
    module prints `in_features=True`); where it comes first in a parameter's shape, that
    shape's check gives PyTorch's TypeError (`empty_shape`)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, Tensor):
        if v.data.size != 1 or v.dtype.kind not in "iu":
            return v  # (not an index: the parameter's `empty_shape` gives PyTorch's TypeError)
        # an integer tensor of one element (`sum(torch.prod(torch.tensor(s)) for s in
        # shapes)`) is an index, as PyTorch's torch.empty takes it (its __index__)
        v = int(v.data.reshape(()))
    if not isinstance(v, (int, np.integer)):
        raise GradcliError(f"{what} must be a non-negative int, not {v!r}")
    return int(v)  # (negative: the parameter's `empty_shape` gives PyTorch's RuntimeError)


def empty_shape(shape: Any) -> tuple[int, ...]:
    """A parameter's shape (a tuple, or one size) checked as PyTorch's `torch.empty(shape)`
    in the layer's constructor takes it: a bool is an int except first in the tuple or alone
    (`nn.Linear(3, True)`: its parser's TypeError), and the element limit."""
    from .args import shape_arg

    return shape_arg((shape,), fn="empty")


def _draw_dtype(dtype: Any) -> Any:
    from ..core.dtypes import check_dtype

    return Settings.draw_dtype if dtype is None else check_dtype(dtype, fn="nn")


class Linear(Module):
    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "in_features", "out_features")

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in_features = _features(in_features, "in_features")
        self.out_features = _features(out_features, "out_features")
        empty_shape((self.out_features, self.in_features))
        shape = (self.out_features, self.in_features)
        self._register_drawn(self._drawn(shape, bool(bias), _draw_dtype(dtype)), dtype)

    @staticmethod
    def _drawn(shape: tuple[int, ...], bias: bool, draw: Any) -> Drawn:
        """PyTorch's reset_parameters: kaiming_uniform_(weight, a=sqrt(5)), then the bias
        uniform in +-1/sqrt(fan_in)."""
        w, b = R.init_linear(None, shape[1], shape[0], bias, draw)
        return [("weight", w, 1), ("bias", b, 1)]

    def reset_parameters(self) -> None:
        w = self._parameters["weight"]
        if isinstance(w, UninitializedParameter):
            return  # a LazyLinear before its first call: PyTorch's does nothing either
        shape = tuple(w.shape) if w is not None else (self.out_features, self.in_features)
        if len(shape) != 2:
            shape = (self.out_features, self.in_features)
        bias = self._parameters["bias"] is not None
        self._rewrite_drawn(self._drawn(shape, bias, self._reset_dtype()))

    def forward(self, x: Any) -> Tensor:
        # F.linear, as `composite.linear` computes it (and refuses anything but a tensor)
        from ..ops.arithmetic import tensor_param
        from .functional import linear_forward

        return linear_forward(
            tensor_param(x, "linear", "input", 1),
            self._parameters["weight"],
            self._parameters["bias"],
        )

    def extra_repr(self) -> str:
        b = self._parameters["bias"] is not None
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={b}"


# Whether an UninitializedParameter was ever made (the language checks its uses only then).
LAZY = [False]
# What PyTorch's UninitializedParameter lets a program do before the first call (the rest is
# `uninitialized_use`): read its dtype, device, grad, requires_grad and data, size(), these.
UNINITIALIZED_METHODS = frozenset(
    ("size", "is_floating_point", "is_complex", "cpu", "to", "float", "double", "half")
)
UNINITIALIZED_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually "
    "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
    "initialized one. Call `forward` to initialize the parameters before accessing their "
    "attributes."
)


def uninitialized_use(what: str, *values: Any) -> GradcliError:
    """PyTorch's ValueError for a use of a lazy module's parameter (or buffer) before its
    first call (`what`: the function or method used, as PyTorch shows it; `values`: the
    operands, the first uninitialized one named, as PyTorch's __torch_function__ does)."""
    kind = next((type(v).__name__ for v in values if type(v) in UNINITIALIZED), None)
    return GradcliError(
        f"Attempted to use an uninitialized parameter in {what}. This error happens when you "
        "are using a `LazyModule` or explicitly manipulating "
        f"`torch.nn.parameter.{kind or 'UninitializedParameter'}` objects. When using "
        "LazyModules Call "
        "`forward` with a dummy batch to initialize the parameters before calling torch "
        "functions",
        hint="call the lazy module once with a batch first: model(x)",
    ).mirror("ValueError")


def tensor_method_shown(name: str) -> str:
    """How PyTorch shows the method `name` of torch.Tensor (addresses aside)."""
    if name in ("backward", "norm", "register_hook", "split", "unflatten", "unique"):
        return f"<function Tensor.{name} at {id(name):#x}>"
    return f"<method '{name}' of 'torch._C.TensorBase' objects>"


def _post_order(root: Module) -> list[Module]:
    """`root` and the modules below it, each after those below it (every path to a shared
    module, as PyTorch's recursive load visits them)."""
    order: list[Module] = []
    stack: list[tuple[Module, bool]] = [(root, False)]
    while stack:
        m, done = stack.pop()
        if done:
            order.append(m)
            continue
        stack.append((m, True))
        stack.extend(reversed([(c, False) for c in m._modules.values() if c is not None]))
    return order


def with_metadata(state_dict: Any) -> bool:
    """Whether a state dict carries the versions `state_dict()` saves with it (PyTorch's
    `_metadata`: kept by copy.copy and copy.deepcopy, not by dict(sd), sd.copy() or a dict
    comprehension)."""
    return getattr(state_dict, "_metadata", None) is not None


class UninitializedParameter(Parameter):
    """A lazy module's parameter before the module's first call: no shape yet. The call
    gives it its shape and values in place (the same object: an optimizer made before holds
    it), and it becomes a plain Parameter, as PyTorch's `materialize`. Until then a use of
    it is PyTorch's error (`uninitialized_use`), not a computation on an empty tensor."""

    __slots__ = ()

    def __init__(self, data: Any = None, requires_grad: bool = True, dtype: Any = None) -> None:
        if data is None and dtype is not None:
            data = np.zeros(0, _draw_dtype(dtype))
        super().__init__(data, requires_grad)
        LAZY[0] = True

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    def materialize(self, values: np.ndarray) -> None:
        """`values` become the parameter's, in its own dtype: the module's dtype= or the
        default dtype when it was made, or what the module's .double() / .to(dtype) made it
        since (PyTorch's materialize takes the uninitialized tensor's dtype)."""
        self.data = np.asarray(values).astype(self.data.dtype, copy=False)
        self.__class__ = Parameter  # type: ignore[assignment]
        self._vc = [1]
        MUTATIONS[0] += 1


class UninitializedBuffer(Tensor):
    """A lazy module's buffer before the module's first call (LazyBatchNorm's running
    statistics): no shape yet, and every use of it refused as PyTorch refuses it (the
    language checks `UNINITIALIZED`); the first call puts the real buffer in its place."""

    __slots__ = ()

    def __init__(self, data: Any = None, requires_grad: bool = False, dtype: Any = None) -> None:
        if data is None:
            data = np.zeros(0, Settings.default_dtype if dtype is None else _draw_dtype(dtype))
        super().__init__(np.asarray(data), requires_grad=requires_grad)
        LAZY[0] = True

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"

    def materialize(self, values: np.ndarray) -> None:
        """`values` become the buffer's, in its own dtype (a state dict loaded into a lazy
        module before its first call)."""
        self.data = np.asarray(values).astype(self.data.dtype, copy=True)
        self.__class__ = Tensor  # type: ignore[assignment]


def has_uninitialized(module: Any) -> bool:
    """PyTorch's has_uninitialized_params: whether a lazy module has a parameter or buffer
    still to be made by its first call (none once a state dict gave them all)."""
    own = (*module._parameters.values(), *module._buffers.values())
    return any(type(t) in UNINITIALIZED for t in own)


def not_lazy(module: Any, names: tuple[str, ...], assertion: bool) -> None:
    """PyTorch's error at a lazy module's first call when a state dict gave some of its
    parameters and left others to be made: the first given one of `names`."""
    for name in names:
        t = module._parameters.get(name, module._buffers.get(name))
        if t is None or type(t) in UNINITIALIZED:
            continue
        if assertion and name in module._parameters:
            raise GradcliError(f"self.{name} must be an UninitializedParameter").mirror(
                "AssertionError"
            )
        kind = "Parameter" if name in module._parameters else "Tensor"
        raise GradcliError(f"'{kind}' object has no attribute 'materialize'").mirror(
            "AttributeError"
        )


# The lazy modules' values before their first call (PyTorch's UninitializedTensorMixin).
UNINITIALIZED = (UninitializedParameter, UninitializedBuffer)


class LazyLinear(Linear):
    """`nn.LazyLinear(out_features)`: a Linear whose in_features is the last size of its
    first input. Its parameters are drawn at that first call (PyTorch's reset_parameters, so
    the random stream is used then, not at construction), and it then is a Linear."""

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = _features(out_features, "out_features")
        self.register_parameter("weight", UninitializedParameter(dtype=dtype))
        self.register_parameter("bias", UninitializedParameter(dtype=dtype) if bias else None)

    def forward(self, x: Any) -> Tensor:
        from ..ops.arithmetic import tensor_arg

        x = tensor_arg(x, "input")
        if x.ndim == 0:
            raise GradcliError(
                "tuple index out of range", hint="LazyLinear takes an input with a last dimension"
            ).mirror("IndexError")
        in_features = int(x.shape[-1])
        weight, bias = self._parameters["weight"], self._parameters["bias"]
        if not has_uninitialized(self):
            # every parameter given by load_state_dict: PyTorch's first call only learns
            # in_features, checked against the weight's
            if in_features != weight.shape[-1]:
                raise GradcliError(
                    f"The in_features inferred from input: {in_features} is not equal to "
                    f"in_features from self.weight: {weight.shape[-1]}"
                ).mirror("AssertionError")
            self.in_features = in_features
            self.__class__ = Linear  # type: ignore[assignment]
            return Linear.forward(self, x)
        not_lazy(self, ("weight", "bias"), False)
        empty_shape((self.out_features, in_features))
        # drawn in the weight's dtype (PyTorch's reset_parameters after materialize)
        draw = weight.dtype if isinstance(weight, UninitializedParameter) else None
        drawn = dict(
            (n, v)
            for n, v, _ in self._drawn(
                (self.out_features, in_features), bias is not None, _draw_dtype(draw)
            )
        )
        if isinstance(weight, UninitializedParameter):
            weight.materialize(drawn["weight"])
        if isinstance(bias, UninitializedParameter):
            bias.materialize(drawn["bias"])
        self.in_features = in_features
        self.__class__ = Linear  # type: ignore[assignment]  (PyTorch's cls_to_become)
        return Linear.forward(self, x)


def bilinear(input1: Any, input2: Any, weight: Any, bias: Any = None) -> Tensor:
    """`F.bilinear`: y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] (+ b[o]), checked in
    PyTorch's words."""
    from ..ops.arithmetic import add_t, matmul, mul_t, tensor_arg
    from .functional import sum, unsqueeze

    x1, x2 = tensor_arg(input1, "input1"), tensor_arg(input2, "input2")
    w = tensor_arg(weight, "weight")
    named = [("input1", x1), ("input2", x2), ("weight", w)]
    if bias is not None:
        named.append(("bias", tensor_arg(bias, "bias")))
    if len({t.dtype for _, t in named}) > 1:  # (ATen's first check: no promotion)
        got = ", ".join(f"{k}: {dtypes.cpp_type_name(t.dtype)}" for k, t in named)
        raise GradcliError(
            f"All tensors must have the same dtype, got {got}",
            hint="convert the inputs to the layer's dtype first (x.float()), or the layer's "
            "(module.double())",
        )
    if x1.ndim != x2.ndim:
        raise GradcliError(
            f"bilinear(): input dimensions do not match: got {x1.ndim} and {x2.ndim}"
        )
    for i in range(x1.ndim - 1):
        if x1.shape[i] != x2.shape[i]:
            raise GradcliError(
                f"bilinear(): input batch dimensions do not match at dim {i}: got "
                f"{x1.shape[i]} and {x2.shape[i]}"
            )
    if w.ndim != 3:
        raise GradcliError(f"bilinear(): weight must be three-dimensional, got {w.ndim}")
    for k, x in ((1, x1), (2, x2)):
        if x.ndim == 0 or x.shape[-1] != w.shape[k]:
            got = x.shape[-1] if x.ndim else 0
            raise GradcliError(
                f"bilinear(): input{k} size does not match weight size: got {got} but "
                f"expected {w.shape[k]}"
            )
    if bias is not None:
        b = tensor_arg(bias, "bias")
        if b.ndim == 0 or b.shape[-1] != w.shape[0]:
            raise GradcliError(
                f"bilinear(): bias size does not match weight size: got "
                f"{b.shape[-1] if b.ndim else 0} but expected {w.shape[0]}"
            )
    if x1.dtype == x2.dtype == w.dtype and x1.dtype in (np.float32, np.float64) and x1.size:
        # ATen's _trilinear on the flattened inputs, then reshaped to the output (a view)
        from ..core.op import apply
        from ..ops.shape import reshape_to
        from ..ops.trilinear import bilinear_product

        lead = x1.shape[:-1]
        f1 = reshape_to(x1, (-1, x1.shape[-1]))  # (a view even of a matrix, as ATen's)
        f2 = reshape_to(x2, (-1, x2.shape[-1]))
        y = reshape_to(apply(bilinear_product, f1, w, f2), lead + (w.shape[0],))
        return y if bias is None else add_t(y, bias)
    if x1.dtype == np.bool_:  # (ATen's _trilinear multiplies in bmm: no loop for bool)
        raise GradcliError("\"bmm\" not implemented for 'Bool'").mirror("NotImplementedError")
    t = matmul(unsqueeze(unsqueeze(x1, -2), -3), w)  # (..., o, 1, j)
    y = sum(mul_t(t, unsqueeze(unsqueeze(x2, -2), -3)), dim=(-2, -1))
    if y.dtype != x1.dtype and x1.dtype.kind in "iu":
        # ATen's bmm keeps an integer dtype (its sum here went to int64; wrapping alike)
        from .functional import to_dtype

        y = to_dtype(y, x1.dtype)
    if y.node is not None:  # PyTorch's _trilinear result is reshaped to the output: a view
        y.node.label = "ViewBackward0"
    return y if bias is None else add_t(y, bias)


class Bilinear(Module):
    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "in1_features", "in2_features", "out_features")

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in1_features = _features(in1_features, "in1_features")
        self.in2_features = _features(in2_features, "in2_features")
        self.out_features = _features(out_features, "out_features")
        empty_shape((self.out_features, self.in1_features, self.in2_features))
        self._register_drawn(self._drawn(bool(bias), _draw_dtype(dtype)), dtype)

    def _drawn(self, bias: bool, draw: Any) -> Drawn:
        """PyTorch's reset_parameters: weight and bias uniform in +-1/sqrt(in1_features)."""
        w, b = R.init_bilinear(
            None, self.in1_features, self.in2_features, self.out_features, bias, draw
        )
        return [("weight", w, 1), ("bias", b, 1)]

    def reset_parameters(self) -> None:
        bias = self._parameters["bias"] is not None
        self._rewrite_drawn(self._drawn(bias, self._reset_dtype()))

    def forward(self, x1: Any, x2: Any) -> Tensor:
        return bilinear(x1, x2, self._parameters["weight"], self._parameters["bias"])

    def extra_repr(self) -> str:
        b = self._parameters["bias"] is not None
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={b}"
        )


class Embedding(Module):
    METHODS = Module.METHODS + ("reset_parameters", "from_pretrained")
    CLASS_FUNCTIONS = ("from_pretrained",)
    ATTRIBUTES = (
        "training",
        "num_embeddings",
        "embedding_dim",
        "padding_idx",
        "max_norm",
        "norm_type",
        "scale_grad_by_freq",
        "sparse",
    )

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Any = None,
        _freeze: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.num_embeddings = _features(num_embeddings, "num_embeddings")
        self.embedding_dim = _features(embedding_dim, "embedding_dim")
        if padding_idx is not None:
            if not -self.num_embeddings <= padding_idx < self.num_embeddings:
                raise GradcliError("Padding_idx must be within num_embeddings")
            padding_idx = padding_idx % self.num_embeddings
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = bool(scale_grad_by_freq), bool(sparse)
        empty_shape((self.num_embeddings, self.embedding_dim))
        if _weight is not None:
            # PyTorch's `_weight=`: the given tensor as the weight (no draw, its data shared).
            if not isinstance(_weight, Tensor) or tuple(_weight.shape) != (
                self.num_embeddings,
                self.embedding_dim,
            ):
                raise GradcliError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                ).mirror("AssertionError")
            self.register_parameter("weight", Parameter(_weight, not bool(_freeze)))
            return
        rows, cols = self.num_embeddings, self.embedding_dim
        self._register_drawn(embedding_drawn(rows, cols, padding_idx, _draw_dtype(dtype)), dtype)

    def reset_parameters(self) -> None:
        reset_embedding(self)

    @staticmethod
    def from_pretrained(
        embeddings: Any,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """`nn.Embedding.from_pretrained(weight)`: the rows given, frozen unless freeze=False."""
        if not isinstance(embeddings, Tensor):
            raise GradcliError(
                f"from_pretrained(): embeddings must be a Tensor, not {typename(embeddings)}"
            ).mirror("TypeError")
        if embeddings.ndim != 2:
            raise GradcliError("Embeddings parameter is expected to be 2-dimensional").mirror(
                "AssertionError"
            )
        rows, cols = embeddings.shape
        return Embedding(
            rows,
            cols,
            padding_idx=padding_idx,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            sparse=sparse,
            _weight=embeddings,
            _freeze=freeze,
        )

    def forward(self, idx: Any) -> Tensor:
        from .nnfunctional import embedding

        return embedding(
            idx,
            self._parameters["weight"],
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += ", scale_grad_by_freq=True"
        if self.sparse:
            s += ", sparse=True"
        return s


def embedding_drawn(rows: int, cols: int, padding_idx: int | None, draw: Any) -> Drawn:
    """nn.Embedding's (and EmbeddingBag's) reset_parameters: normal_(weight), then the padding
    row zeroed (a second change in place)."""
    w = R.init_embedding(None, rows, cols, padding_idx, draw)
    return [("weight", w, 1 if padding_idx is None else 2)]


def reset_embedding(m: Module) -> None:
    w = m._parameters.get("weight")
    rows, cols = (
        tuple(w.shape) if w is not None and w.ndim == 2 else (m.num_embeddings, m.embedding_dim)
    )
    m._rewrite_drawn(embedding_drawn(rows, cols, m.padding_idx, m._reset_dtype()))


# --- containers ----------------------------------------------------------------------------------


class Sequential(Module):
    METHODS = Module.METHODS + ("append", "extend", "insert", "pop")

    def __init__(self, *modules: Any) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], collections.OrderedDict):
            for k, m in modules[0].items():
                self.add_module(str(k), m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, x: Any) -> Any:
        for m in self._modules.values():
            if m is None:  # (a None entry: Python's error of calling it)
                raise GradcliError("'NoneType' object is not callable").mirror("TypeError")
            x = m(x)
        return x

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self._modules)), module)
        return self

    def extend(self, modules: Any) -> Sequential:
        for m in _members(modules, None, self):
            self.append(m)
        return self

    def program_add(self, other: Sequential) -> Sequential:
        """`seq + other` (the lang layer has refused any `other` not a Sequential, in PyTorch's
        words): a new Sequential of both's modules, renumbered."""
        out = Sequential()
        return out.extend(self).extend(other)

    def program_iadd(self, other: Sequential) -> Sequential:
        """`seq += other`: the modules appended to this Sequential itself."""
        return self.extend(other)

    def program_mul(self, times: int) -> Sequential:
        """`seq * n` / `n * seq` (the lang layer has checked n, a positive int, in PyTorch's
        words): a new Sequential of the same modules n times over (the same objects)."""
        mods = list(self._modules.values())
        limits.LIST_ITEMS.check(len(mods) * times, "the number of items of the Sequential")
        return Sequential(*(mods * times))

    def program_imul(self, times: int) -> Sequential:
        """`seq *= n`: this Sequential's own modules repeated in it n times over."""
        mods = list(self._modules.values())
        limits.LIST_ITEMS.check(len(mods) * times, "the number of items of the Sequential")
        for m in mods * (times - 1):
            self.append(m)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        # PyTorch's: a Module only, an index within [-n, n], the keys renumbered.
        if not isinstance(module, Module):
            raise GradcliError(
                "module should be of type: <class 'torch.nn.modules.module.Module'>"
            ).mirror("AssertionError")
        n = len(self._modules)
        if isinstance(index, bool) or not isinstance(index, int) or not -n <= index <= n:
            raise GradcliError(f"Index out of range: {index}").mirror("IndexError")
        # PyTorch's own loop: each module from the end down to `index` moved up one key
        # (str(i - 1): a name of add_module's, such as 'out', is not found there: KeyError),
        # then the module set at key `index`
        if index < 0:
            index += n
        entries = self._modules
        tick = limits.BUDGET.tick  # (a program's loop of inserts at 0 is quadratic)
        for i in range(n, index, -1):
            tick()
            below = str(i - 1)
            if below not in entries:
                raise GradcliError(
                    below,
                    hint="PyTorch's Sequential.insert moves the modules up by their numbered "
                    f"keys; the keys are {list(entries)}",
                ).mirror("KeyError")
            entries[str(i)] = entries[below]
        entries[str(index)] = module
        return self

    def pop(self, key: Any) -> Any:
        mods = list(self._modules.values())
        taken = _index(mods, key, self.name)
        del mods[key]
        self._renumber(mods)
        return taken

    def _renumber(self, mods: list[Module]) -> None:
        self._modules = ModuleEntries()
        for m in mods:
            self.add_module(str(len(self._modules)), m)

    def program_delitem(self, key: Any) -> None:
        _delete_children(self, key)

    def program_getitem(self, key: Any) -> Any:
        mods = list(self._modules.values())
        if isinstance(key, slice):  # PyTorch's slice keeps the keys: n[1:] starts at (1)
            return Sequential(collections.OrderedDict(list(self._modules.items())[key]))
        return _index(mods, key, self.name)

    def program_setitem(self, key: Any, value: Any) -> None:
        _replace_child(self, key, value)

    def __len__(self) -> int:
        return len(self._modules)

    def program_items(self) -> list[Any]:
        return list(self._modules.values())


class ModuleList(Module):
    METHODS = Module.METHODS + ("append", "extend", "insert", "pop")

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self._modules)), module)
        return self

    def extend(self, modules: Any) -> ModuleList:
        for m in _members(modules, "ModuleList.extend", self):
            self.append(m)
        return self

    def program_add(self, other: Any) -> ModuleList:
        """`mods + other`: a new ModuleList of both's modules (PyTorch's `chain(self, other)`:
        any iterable of modules)."""
        out = ModuleList(self)
        for m in _members(other, None, out):
            out.append(m)
        return out

    def program_iadd(self, other: Any) -> ModuleList:
        """`mods += other`: PyTorch's `__iadd__` is `extend` (the list itself changes)."""
        return self.extend(other)

    def insert(self, index: int, module: Module) -> None:
        """PyTorch's own loop, not a list's insert: each module from the end to `index` moved up
        one key, then the module set at key `index`. A negative index reaches key "-1" and
        fails there (KeyError, the modules already moved up left so, as in PyTorch); one past
        the end sets its own key (`insert(5, m)` on 3 modules: keys 0, 1, 2, 5)."""
        if isinstance(index, np.integer):
            index = int(index)
        if not isinstance(index, int):
            raise GradcliError(
                f"'{typename(index)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        # (PyTorch stores anything, to fail when it is used; None is a None entry, as a dict's)
        if module is not None and not isinstance(module, Module):
            raise GradcliError(f"{torch_typename(module)} is not a Module subclass").mirror(
                "TypeError"
            )
        entries = self._modules
        tick = limits.BUDGET.tick  # (a program's loop of inserts at 0 is quadratic)
        for i in range(len(entries), index, -1):  # at most len + 1 steps: key "-1" ends it
            tick()
            below = str(i - 1)
            if below not in entries:
                raise GradcliError(
                    below, hint="PyTorch's ModuleList.insert takes positions 0 to len(list)"
                ).mirror("KeyError")
            entries[str(i)] = entries[below]
        entries[str(index)] = module

    def program_getitem(self, key: Any) -> Any:
        mods = list(self._modules.values())
        if isinstance(key, slice):
            return ModuleList(mods[key])
        _index(mods, key, self.name)  # (PyTorch's checks and words)
        name = str(int(key) + len(mods) if key < 0 else int(key))  # PyTorch looks up the key
        if name not in self._modules:  # (only after an insert past the end)
            raise GradcliError(
                name,
                hint=f"PyTorch looks the index up as a key; the keys are {list(self._modules)}",
            ).mirror("KeyError")
        return self._modules[name]

    def pop(self, key: Any) -> Any:
        """The module at `key` (an index or a slice) taken out, the rest renumbered, as
        PyTorch's `v = self[key]; del self[key]`."""
        taken = self.program_getitem(key)
        mods = list(self._modules.values())
        del mods[key]
        self._modules = ModuleEntries()
        for m in mods:
            self.append(m)
        return taken

    def program_setitem(self, key: Any, value: Any) -> None:
        _replace_child(self, key, value)

    def program_delitem(self, key: Any) -> None:
        _delete_children(self, key)

    def module_repr(self) -> str:
        # As PyTorch's: a run of modules that print alike is shown once, "(0-2): 3 x ...".
        limits.BUDGET.tick()
        reprs = [repr(m) for m in self._modules.values()]
        if not reprs:
            return self.name + "()"
        runs: list[list[Any]] = []
        for i, r in enumerate(reprs):
            if runs and runs[-1][2] == r:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = []
        for first, last, r in runs:
            head = f"({first})" if first == last else f"({first}-{last}): {last - first + 1} x"
            text = f"{head}: {r}" if first == last else f"{head} {r}"
            lines.append(text.replace("\n", "\n  "))
        return self.name + "(\n  " + "\n  ".join(lines) + "\n)"

    def __len__(self) -> int:
        return len(self._modules)

    def program_items(self) -> list[Any]:
        return list(self._modules.values())


class ModuleDict(Module):
    METHODS = Module.METHODS + ("keys", "values", "items", "pop", "clear", "update")

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:  # PyTorch's: `self.update(modules)` (another ModuleDict too)
            self.update(modules)

    def keys(self) -> list[str]:
        return list(self._modules)

    def values(self) -> list[Module]:
        return list(self._modules.values())

    def pop(self, key: Any) -> Module:
        taken = self.program_getitem(key)
        del self._modules[key]
        return taken

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules: Any) -> None:
        """PyTorch's: a mapping's pairs, or an iterable of (name, module) pairs, each set as
        `self[name] = module`."""
        if isinstance(modules, (dict, ModuleDict)):
            pairs = list(modules.items())
        else:
            pairs = []
            for j, m in enumerate(modules):
                if not isinstance(m, (list, tuple)) or len(m) != 2:
                    raise GradcliError(
                        f"ModuleDict update sequence element #{j} should be Iterable; is "
                        f"{typename(m)}"
                        if not isinstance(m, (list, tuple))
                        else f"ModuleDict update sequence element #{j} has length {len(m)}; "
                        "2 is required"
                    ).mirror("TypeError" if not isinstance(m, (list, tuple)) else "ValueError")
                pairs.append((m[0], m[1]))
        for k, m in pairs:
            self.program_setitem(k, m)

    def items(self) -> list[tuple[str, Module]]:
        return list(self._modules.items())

    def program_getitem(self, key: Any) -> Any:
        if key not in self._modules:
            raise GradcliError(f"{key}", hint=f"the keys are {list(self._modules)}").mirror(
                "KeyError"
            )
        return self._modules[key]

    def program_setitem(self, key: Any, value: Any) -> None:
        if not isinstance(key, str):
            raise GradcliError(f"module name should be a string. Got {typename(key)}").mirror(
                "TypeError"
            )
        if "." in key or not key:
            what = f'contain ".", got: {key}' if key else 'be empty string ""'
            raise GradcliError(f"module name can't {what}").mirror("KeyError")
        if value is not None and not isinstance(value, Module):  # (add_module's words)
            raise GradcliError(f"{torch_typename(value)} is not a Module subclass").mirror(
                "TypeError"
            )
        _set_child(self, key, value)

    def program_delitem(self, key: Any) -> None:
        del self._modules[key]  # KeyError / TypeError as a dict's (the language words them)

    def __len__(self) -> int:
        return len(self._modules)

    def program_items(self) -> list[Any]:
        return list(self._modules)


def _as_parameter(value: Any, what: str) -> Parameter:
    # PyTorch's containers wrap a plain tensor as a Parameter (sharing its data)
    if isinstance(value, Parameter):
        return value
    if not isinstance(value, Tensor):
        # (PyTorch keeps any other object as a plain attribute beside the parameters)
        raise NotSupported(
            f"{what} of a value that is not a tensor ({typename(value)}) is not supported by "
            "gradcli",
            hint="keep tensors in it (nn.ParameterList([nn.Parameter(torch.randn(3)), ...])), "
            "and other values in a plain list or attribute",
        )
    return parameter(value)


def _parameters_repr(name: str, lines: list[str]) -> str:
    """ParameterList / ParameterDict as PyTorch prints them: their lines are its extra_repr
    (each indented by two), so one line stays on the container's line and more are set
    below it, indented by two more."""
    if not lines:
        return name + "()"
    if len(lines) == 1:
        return f"{name}(  {lines[0]})"
    return name + "(\n    " + "\n    ".join(lines) + "\n)"


def _parameter_line(key: str, p: Parameter, type_name: str) -> str:
    size = "x".join(str(n) for n in p.shape)
    return f"({key}): Parameter containing: [{type_name} of size {size}]"


class ParameterList(Module):
    """`nn.ParameterList`: parameters registered as "0", "1", ... (a plain tensor appended is
    made a Parameter), indexed, iterated, appended to."""

    METHODS = Module.METHODS + ("append", "extend")

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        if values is not None:
            self.extend(values)

    def append(self, value: Any) -> ParameterList:
        limits.LIST_ITEMS.check(len(self._parameters) + 1, "the parameters of a ParameterList")
        self._parameters[str(len(self._parameters))] = _as_parameter(value, "nn.ParameterList")
        return self

    def program_iadd(self, values: Any) -> ParameterList:
        """`plist += values`: PyTorch's `__iadd__` is `extend`."""
        return self.extend(values)

    def extend(self, values: Any) -> ParameterList:
        if isinstance(values, Tensor):  # PyTorch's own exception to "any iterable"
            raise GradcliError(
                "ParameterList.extend should be called with an iterable, but got Tensor"
            ).mirror("TypeError")
        for v in _members(values, "ParameterList.extend", self):
            self.append(v)
        return self

    def program_getitem(self, key: Any) -> Any:
        params = list(self._parameters.values())
        if isinstance(key, slice):
            return ParameterList(params[key])
        return _index(params, key, self.name)

    def program_setitem(self, key: Any, value: Any) -> None:
        params = list(self._parameters)
        name = params[_index(list(range(len(params))), key, self.name)]
        self._parameters[name] = _as_parameter(value, "nn.ParameterList")

    def module_repr(self) -> str:
        limits.BUDGET.tick()
        lines = [
            _parameter_line(k, p, dtypes.torch_name(p.dtype))
            for k, p in self._parameters.items()
            if p is not None
        ]
        return _parameters_repr(self.name, lines)

    def __len__(self) -> int:
        return len(self._parameters)

    def program_items(self) -> list[Any]:
        return list(self._parameters.values())


class ParameterDict(Module):
    """`nn.ParameterDict`: parameters by string key, in insertion order."""

    METHODS = Module.METHODS + (
        "keys",
        "values",
        "items",
        "update",
        "get",
        "pop",
        "popitem",
        "clear",
        "setdefault",
        "copy",
    )

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        self.update(values or {})

    def get(self, key: Any, default: Any = None) -> Any:
        return self._parameters[key] if key in self._parameters else default

    def pop(self, key: Any) -> Any:
        taken = self.program_getitem(key)
        del self._parameters[key]
        return taken

    def popitem(self) -> tuple[str, Any]:
        if not self._parameters:
            raise GradcliError("'popitem(): dictionary is empty'").mirror("KeyError")
        key = next(reversed(self._parameters))
        return key, self.pop(key)

    def clear(self) -> None:
        self._parameters.clear()

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self._parameters:
            self.program_setitem(key, default)
        return self._parameters[key]

    def program_or(self, other: Any) -> ParameterDict:
        """`pdict | other`: a copy updated from `other` (PyTorch's `__or__`)."""
        out = self.copy()
        out.update(other)
        return out

    def program_ior(self, other: Any) -> ParameterDict:
        """`pdict |= other`: this ParameterDict itself updated (PyTorch's `__ior__`)."""
        self.update(other)
        return self

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same Parameter objects."""
        return ParameterDict(collections.OrderedDict(self._parameters.items()))

    def update(self, values: Any) -> None:
        """PyTorch's order: an OrderedDict's or a ParameterDict's, a plain dict's sorted by key,
        an iterable's pairs as they come."""
        if isinstance(values, (collections.OrderedDict, ParameterDict)):
            pairs = list(values.items())
        elif isinstance(values, dict):
            try:
                pairs = sorted(values.items())
            except TypeError:
                raise GradcliError(
                    "'<' not supported between the keys of the dict given to ParameterDict"
                ).mirror("TypeError") from None
        else:
            pairs = values
        for k, v in pairs:
            self.program_setitem(k, v)

    def keys(self) -> list[str]:
        return list(self._parameters)

    def values(self) -> list[Any]:
        return list(self._parameters.values())

    def items(self) -> list[tuple[str, Any]]:
        return list(self._parameters.items())

    def program_getitem(self, key: Any) -> Any:
        # PyTorch's reads the key as an attribute name: a missing one is an AttributeError
        if not isinstance(key, str):
            raise GradcliError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{typename(key)}'). Open an issue on github if you need non-string "
                "keys."
            ).mirror("TypeError")
        if key not in self._parameters:
            raise GradcliError(f"'ParameterDict' object has no attribute '{key}'").mirror(
                "AttributeError"
            )
        return self._parameters[key]

    def program_setitem(self, key: Any, value: Any) -> None:
        if not isinstance(key, str):
            raise GradcliError(f"parameter name should be a string. Got {typename(key)}").mirror(
                "TypeError"
            )
        if "." in key or not key:
            what = f'contain ".", got: {key}' if key else 'be empty string ""'
            raise GradcliError(f"parameter name can't {what}").mirror("KeyError")
        limits.LIST_ITEMS.check(len(self._parameters) + 1, "the parameters of a ParameterDict")
        self._parameters[key] = _as_parameter(value, "nn.ParameterDict")

    def module_repr(self) -> str:
        limits.BUDGET.tick()
        lines = [
            _parameter_line(k, p, dtypes.LEGACY_TYPES.get(p.dtype, "torch.Tensor"))
            for k, p in self._parameters.items()
            if p is not None
        ]
        return _parameters_repr(self.name, lines)

    def __len__(self) -> int:
        return len(self._parameters)

    def program_items(self) -> list[Any]:
        return list(self._parameters)


# Hooks on every module's call (`torch.nn.modules.module.register_module_forward_hook`...):
# run before each module's own, as PyTorch runs its global hooks.
GLOBAL_HOOKS: dict[str, list] = {
    "forward_pre": [],
    "forward": [],
    "backward_pre": [],  # register_module_full_backward_pre_hook
    "backward": [],  # register_module_full_backward_hook
}


def register_module_hook(kind: str) -> Any:
    def register(hook: Any) -> HookHandle:
        hook = core_hooks.as_callable(hook)
        if not callable(hook):
            raise GradcliError(f"'{typename(hook)}' object is not callable").mirror("TypeError")
        entry = [hook]
        GLOBAL_HOOKS[kind].append(entry)
        return HookHandle(GLOBAL_HOOKS[kind], entry)

    full = {"backward_pre": "full_backward_pre", "backward": "full_backward"}.get(kind, kind)
    register.__name__ = f"register_module_{full}_hook"
    return register


def _hook_call_arguments(m: Module, args: Any, kwargs: Any) -> tuple[tuple, dict]:
    """The (args, kwargs) a with_kwargs pre-hook returned, as forward(*args, **kwargs) takes
    them: Python's TypeError where they cannot be unpacked."""
    if isinstance(args, (str, dict, set, Tensor)):
        raise NotSupported(
            f"a forward pre-hook returning a {typename(args)} as the new args is not "
            "supported by gradcli",
            hint="return a tuple of the arguments: return (x,), kwargs",
        )
    if not isinstance(args, (tuple, list)):
        raise GradcliError(
            f"{m.name}.forward() argument after * must be an iterable, not {typename(args)}"
        ).mirror("TypeError")
    if not isinstance(kwargs, dict):
        raise GradcliError(
            f"{m.name}.forward() argument after ** must be a mapping, not {typename(kwargs)}"
        ).mirror("TypeError")
    return tuple(args), kwargs


class _KwargsEntry(list):
    """A hook's registration made with with_kwargs=True (called with the keyword arguments)."""


class _PlainEntry(list):
    """A load_state_dict pre-hook registered without with_module (called without it)."""


def _any_global_hook() -> bool:
    return any(GLOBAL_HOOKS.values())


def _call_hooked(m: Module, table: dict, args: tuple, kwargs: dict) -> Any:
    """`m(*args)` with its hooks, in PyTorch's order: forward pre-hooks (the global ones
    first), the inputs wrapped for the backward hooks, forward, forward hooks, the outputs
    wrapped."""
    for entry in [*GLOBAL_HOOKS["forward_pre"], *table.get("forward_pre", ())]:
        (hook,) = entry
        if isinstance(entry, _KwargsEntry):
            r = hook(m, args, kwargs)
            if r is not None:
                if not (isinstance(r, tuple) and len(r) == 2):
                    raise GradcliError(
                        "forward pre-hook must return None or a tuple of (new_args, "
                        f"new_kwargs), but got {r}."
                    ).mirror("RuntimeError")
                args, kwargs = _hook_call_arguments(m, *r)
            continue
        r = hook(m, args)
        if r is not None:
            args = r if isinstance(r, tuple) else (r,)
    state = None
    backward = [*GLOBAL_HOOKS["backward"], *table.get("backward", ())]
    backward_pre = [*GLOBAL_HOOKS["backward_pre"], *table.get("backward_pre", ())]
    if (backward or backward_pre) and grad_enabled():
        # the hooks of this call, the global ones first, as PyTorch gathers them at forward
        state = _BackwardHooks(m, {"backward": backward, "backward_pre": backward_pre}, len(args))
        args = state.wrap_inputs(args)
    out = m.forward(*args, **_forward_kwargs(m, args, kwargs))
    for entry in [*GLOBAL_HOOKS["forward"], *table.get("forward", ())]:
        (hook,) = entry
        if isinstance(entry, _KwargsEntry):
            r = hook(m, args, kwargs, out)
        else:
            r = hook(m, args, out)
        if r is not None:
            out = r
    if state is not None:
        out = state.wrap_outputs(out)
    old_hooks = table.get("backward_old")
    if old_hooks and grad_enabled():
        _register_old_backward_hooks(m, old_hooks, args, out)
    return out


def _register_old_backward_hooks(m: Module, hooks_: list, args: tuple, out: Any) -> None:
    """register_backward_hook's hooks on the node of the forward's first tensor output (the
    first value of a dict, the first item of a tuple or list, as PyTorch looks for it)."""
    var = out
    for _ in range(100):  # nested tuples: PyTorch walks var[0] until a tensor
        if isinstance(var, Tensor):
            break
        if isinstance(var, dict):
            var = next((v for v in var.values() if isinstance(v, Tensor)), None)
        elif isinstance(var, (tuple, list)) and var:
            var = var[0]
        else:
            return
    if not isinstance(var, Tensor) or var.node is None:
        return
    node = var.node
    for (hook,) in list(hooks_):
        node.register_hook(_old_hook_on_node(m, hook))
    message = _old_backward_hook_warning(args, out, node)
    if message is not None:
        core_hooks.warn(
            message,
            hint="register_full_backward_hook gives the gradients of the module's own inputs",
            once=True,
        )


def _old_hook_on_node(m: Module, hook: Any) -> Any:
    """`hook(m, grad_input, grad_output)` as the node's hook, under the hook's own name (PyTorch
    wraps it with functools.update_wrapper: its checks' messages name the program's hook)."""

    def on_node(gi: Any, go: Any) -> Any:
        return hook(m, gi, go)

    name = getattr(hook, "name", None)
    if isinstance(name, str):
        on_node.name = name  # type: ignore[attr-defined]
    return on_node


_OLD_HOOK_DEPRECATED = (
    " is deprecated and will be removed in future versions. This hook will be missing some "
)
_FULL_HOOK = " Please use register_full_backward_hook to get the documented behavior."


def _old_backward_hook_warning(args: tuple, out: Any, node: Any) -> str | None:
    """PyTorch's FutureWarning for register_backward_hook where its hook cannot see the
    module's gradients: an output or input not a tensor (or a tuple of them), outputs of
    several nodes, or a forward of several nodes (the last node's inputs are not the module's
    inputs: a parameter, a None, an intermediate node among them)."""
    from ..core.op import AccumulateGrad

    if isinstance(out, Tensor):
        result: tuple = (out,)
    elif isinstance(out, tuple) and all(isinstance(r, Tensor) for r in out):
        result = out
    else:
        return (
            "Using non-full backward hooks on a Module that does not return a single Tensor or "
            "a tuple of Tensors" + _OLD_HOOK_DEPRECATED + "of the grad_output." + _FULL_HOOK
        )
    if not all(isinstance(a, Tensor) for a in args):
        return (
            "Using non-full backward hooks on a Module that does not take as input a single "
            "Tensor or a tuple of Tensors"
            + _OLD_HOOK_DEPRECATED
            + "of the grad_input."
            + _FULL_HOOK
        )
    outs = {id(r.node.shown()) for r in result if r.node is not None}
    if len(outs) > 1:
        return (
            "Using a non-full backward hook when outputs are generated by different autograd "
            "Nodes" + _OLD_HOOK_DEPRECATED + "grad_output." + _FULL_HOOK
        )
    if id(node.shown()) not in outs:
        return (
            "Using a non-full backward hook when outputs are nested in python data structure"
            + _OLD_HOOK_DEPRECATED
            + "grad_output."
        )
    # The inputs' nodes against the last node's next functions (an AccumulateGrad or a None
    # there is never an input's grad_fn; a node PyTorch has and gradcli shows is a new one).
    ins = {id(a.node.shown()) for a in args if a.node is not None}
    nexts = set()
    for p, _ in node.shown().next_functions:
        if p is None or isinstance(p, AccumulateGrad):
            nexts.add(None)
        else:
            nexts.add(id(p))
    if ins != nexts:
        return (
            "Using a non-full backward hook when the forward contains multiple autograd Nodes"
            + _OLD_HOOK_DEPRECATED
            + "grad_input."
            + _FULL_HOOK
        )
    return None


# The frames that call a module's forward with the program's inputs: a TypeError raised in
# one of them (not below) is a call that does not fit forward.
_CALLERS = frozenset((Module.__call__.__code__, _call_hooked.__code__))


_SURFACE = __name__.rpartition(".")[0] + "."  # (torch.nn's modules: not a program's class)
# (module class, name) -> PyTorch's forward parameter name -> gradcli's forward's
_RENAMES: dict[tuple[type, str], dict[str, str] | None] = {}


# PyTorch's qualified name of a forward (`ReLU.forward`, `_BatchNorm.forward`) -> the function
# `m.forward` binds (one a name: two reads of `m.forward` are equal, as Python's bound methods)
_FORWARDS: dict[str, Any] = {}


def _pytorchs_forward(m: Module) -> Any:
    """`m.forward` read from one of torch.nn's modules (or `super().forward` in a program's
    subclass of one, `class MyLinear(nn.Linear)`), as PyTorch's bound method: shown under
    PyTorch's qualified name (`<bound method ReLU.forward of ReLU()>`, not the name of the
    gradcli class that computes it), taking its inputs under PyTorch's names (`input=`), a
    call that does not fit in Python's words; no hooks run (PyTorch's forward runs none).
    None where PyTorch's forward is not in the table (or m derives from no torch.nn module)."""
    from .callerrors import forward_qualname

    base = _surface_base(type(m))
    if base is None:
        return None
    shown = forward_qualname(_pytorchs_name(m, base))
    if shown is None:
        return None
    fn = _FORWARDS.get(shown)
    if fn is None:

        def forward(self: Module, *inputs: Any, **kwargs: Any) -> Any:
            from .callerrors import forward_error

            cls = _surface_base(type(self))
            name = _pytorchs_name(self, cls)
            _not_traced_through(name, inputs, kwargs)
            error = forward_error(name, len(inputs), list(kwargs))
            if error is not None:
                raise GradcliError(error).mirror("TypeError")
            if kwargs:
                kwargs = _by_pytorchs_names(self, inputs, kwargs, name, cls.forward)
            return cls.forward(self, *inputs, **kwargs)

        forward.__qualname__ = shown
        fn = _FORWARDS[shown] = forward
    return types.MethodType(fn, m)


def _forward_unimplemented(self: Module, *inputs: Any) -> Any:
    return Module.forward(self, *inputs)


def unimplemented_forward(m: Module) -> Any:
    """nn.Module's own forward as a program reads it (`Net().forward` of a class without
    one): PyTorch's `_forward_unimplemented`, bound, which raises when called."""
    return types.MethodType(_forward_unimplemented, m)


def _not_traced_through(name: str, inputs: tuple, kwargs: dict) -> None:
    """`self.lin.forward(x)` while torch.fx traces the program's forward: PyTorch traces the
    Python code of its own forward (F.linear on the proxy...), which gradcli does not have:
    refused in plain words (a module called as `self.lin(x)` is one call_module node)."""
    import sys

    fx = sys.modules.get("gradcli.lang.fx")  # (loaded once a program traces: start-up)
    if fx is None or fx.TRACING[0] is None:
        return
    if any(isinstance(a, fx.Proxy) for a in (*inputs, *kwargs.values())):
        raise NotSupported(
            f"calling {name}.forward directly while torch.fx.symbolic_trace traces is not "
            "supported by gradcli (PyTorch traces the code of its forward)",
            hint="call the module itself, self.layer(x): it is then one call_module node",
        )


def _surface_base(kind: type) -> Any:
    """The first of torch.nn's module classes in `kind`'s method resolution order (itself for
    one of them; nn.Linear's for the instances of a program's `class MyLinear(nn.Linear)`);
    None where it has none but Module (a program's own nn.Module)."""
    for c in kind.__mro__:
        if c.__module__.startswith(_SURFACE):
            return None if c is Module else c
    return None


def _pytorchs_name(m: Module, base: type) -> str:
    """The name of m's torch.nn class as PyTorch's (`Conv2d`, `ReLU`): the base class's own
    `name` (a program's subclass answers with its own name, not the base's)."""
    return base.name.fget(m) if base.name.fget is not Module.name.fget else base.__name__


def _forward_kwargs(m: Module, inputs: tuple, kwargs: dict) -> dict:
    """The keyword inputs of `m(...)` as m's forward takes them: torch.nn's modules' renamed
    from PyTorch's names (checked as PyTorch's forward checks them); the program's own
    modules' as given."""
    if kwargs and type(m).__module__.startswith(_SURFACE):
        return _by_pytorchs_names(m, inputs, kwargs)
    return kwargs


def _by_pytorchs_names(
    m: Module, inputs: tuple, kwargs: dict, name: str | None = None, fwd: Any = None
) -> dict:
    """The keyword inputs of a call of one of torch.nn's modules (`nn.Linear(2, 3)(input=x)`,
    `nn.MSELoss()(input=a, target=b)`) under PyTorch's forward's parameter names: checked
    against PyTorch's forward (a name it does not take, a value given twice: Python's words,
    as PyTorch's module raises them), then renamed to gradcli's forward's parameters, which
    come in PyTorch's order. Modules whose forward is not in the table pass as they are.
    (`name`, `fwd`: PyTorch's name of the module's class and gradcli's forward function, for
    a program's subclass of it; m's own by default.)"""
    from .callerrors import forward_error, forward_params

    name = m.name if name is None else name
    got = forward_params(name)
    if got is None:
        return kwargs
    error = forward_error(name, len(inputs), list(kwargs))
    if error is not None:
        raise GradcliError(error).mirror("TypeError")
    key = (type(m), name)
    if key not in _RENAMES:
        _RENAMES[key] = _renames(m.forward if fwd is None else fwd, got[2], fwd is not None)
    renames = _RENAMES[key]
    if renames is None:
        return kwargs
    out = {}
    for k, v in kwargs.items():
        if k not in renames:
            raise NotSupported(
                f"{m.name}'s input `{k}` is not supported by gradcli",
                hint=f"see the inputs {m.name} takes: {_forward_params(m)}",
            )
        out[renames[k]] = v
    return out


def _renames(fwd: Any, params: list, unbound: bool = False) -> dict[str, str] | None:
    """PyTorch's forward parameter name -> gradcli's (by position; the same name where it is
    gradcli's too); None where gradcli's forward `fwd` (bound, or a class's function taking
    self first: `unbound`) takes `*inputs` (it binds them itself)."""
    import inspect

    try:
        mine = list(inspect.signature(fwd).parameters.values())[1 if unbound else 0 :]
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_POSITIONAL for p in mine):
        return None
    names = [p.name for p in mine if p.kind != p.VAR_KEYWORD]
    out = {}
    for i, (name, _, _) in enumerate(params):
        if name in names:
            out[name] = name
        elif i < len(mine) and mine[i].kind in (
            mine[i].POSITIONAL_OR_KEYWORD,
            mine[i].KEYWORD_ONLY,
        ):
            if mine[i].name not in {p[0] for p in params}:
                out[name] = mine[i].name
    return out


def _forward_params(m: Module) -> str:
    import inspect

    if type(m).__module__.startswith(_SURFACE):  # torch.nn's: PyTorch's names
        from .callerrors import forward_params

        got = forward_params(m.name)
        if got is not None:
            shown = [n + ("=..." if d else "") for n, k, d in got[2] if k in ("P", "PK")]
            return "forward(" + ", ".join(shown) + ")"

    try:
        params = inspect.signature(m.forward).parameters.values()
    except (TypeError, ValueError):
        return "forward(...)"
    shown = [p.replace(annotation=inspect.Parameter.empty) for p in params]
    return "forward(" + ", ".join(str(p) for p in shown) + ")"


class _BackwardHooks:
    """One call's backward hooks, as PyTorch's `BackwardHook`: the tensor inputs and outputs
    pass through an identity node each side (BackwardHookFunctionBackward); the outputs' one
    notes the gradients of the outputs (after the backward pre-hooks), the inputs' one calls
    the full backward hooks with both. When no input requires grad, the outputs' node calls
    them, with None for every input."""

    def __init__(self, m: Module, table: dict, n_args: int) -> None:
        self.m = m
        self.table = table
        self.n_args = n_args
        self.grad_outputs: tuple = ()
        self.input_pos: list[int] | None = None

    def wrap_inputs(self, args: tuple) -> tuple:
        pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in pos]
        if not any(t.requires_grad for t in tensors):
            return args
        self.input_pos = pos
        wrapped = _hook_identity(tensors, self._inputs_vjp)
        new = list(args)
        for i, w in zip(pos, wrapped):
            new[i] = w
        return tuple(new)

    def wrap_outputs(self, out: Any) -> Any:
        items = [out] if isinstance(out, Tensor) else list(out) if isinstance(out, tuple) else []
        pos = [i for i, o in enumerate(items) if isinstance(o, Tensor)]
        tensors = [items[i] for i in pos]
        if not any(t.requires_grad for t in tensors):
            return out
        wrapped = _hook_identity(tensors, self._outputs_vjp)
        for i, w in zip(pos, wrapped):
            items[i] = w
        return items[0] if isinstance(out, Tensor) else tuple(items)

    def _outputs_vjp(self, tensors: list[Tensor], *grads: Any) -> tuple:
        for (hook,) in list(self.table.get("backward_pre", ())):
            r = hook(self.m, tuple(grads))
            if r is not None:
                r = tuple(r) if isinstance(r, (tuple, list)) else (r,)
                if len(r) != len(grads):
                    raise GradcliError(
                        f"Backward pre hook returned an invalid number of grad_output, got "
                        f"{len(r)}, but expected {len(grads)}"
                    )
                grads = r
        self.grad_outputs = tuple(grads)
        if self.input_pos is None:
            none = (None,) * self.n_args
            if self.table.get("backward"):
                core_hooks.warn(
                    "Full backward hook is firing when gradients are computed with respect to "
                    "module outputs since no inputs require gradients. See https://docs."
                    "pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module."
                    "register_full_backward_hook for more details."
                )
            for (hook,) in list(self.table.get("backward", ())):
                r = hook(self.m, none, self.grad_outputs)
                if r is not None and any(g is not None for g in r):
                    raise GradcliError(
                        "Backward hook for Modules where no input requires gradient should "
                        "always return None or None for all gradients."
                    )
        return tuple(grads)

    def _inputs_vjp(self, tensors: list[Tensor], *grads: Any) -> tuple:
        from ..core.autograd import check_hook_value

        grad_input: list[Any] = [None] * self.n_args
        for i, g in zip(self.input_pos or (), grads):
            grad_input[i] = g  # zeros for a tensor that does not require grad, as PyTorch
        for (hook,) in list(self.table.get("backward", ())):
            r = hook(self.m, tuple(grad_input), self.grad_outputs)
            if r is not None:
                r = tuple(r) if isinstance(r, (tuple, list)) else (r,)
                if len(r) != len(grad_input):
                    raise GradcliError(
                        f"Backward hook returned an invalid number of grad_input, got "
                        f"{len(r)}, but expected {len(grad_input)}"
                    )
                for v, g in zip(r, grad_input):
                    if v is not None and isinstance(g, Tensor):
                        # PyTorch's check of what its node hook (a function named `hook`,
                        # which calls the program's) returned: type, then size
                        check_hook_value(_BACKWARD_HOOK_NAME, g, v)
                grad_input = list(r)
        return tuple(grad_input[i] for i in self.input_pos or ())


class _Named:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


_BACKWARD_HOOK_NAME = _Named("hook")


def _hook_identity(tensors: list[Tensor], vjp: Callable[..., tuple]) -> list[Tensor]:
    """`tensors` through one identity node (PyTorch's BackwardHookFunctionBackward) whose
    backward is `vjp(tensors, *grads)`; those that do not require grad pass untouched."""
    from ..ops.custom import custom_apply

    def forward() -> Any:
        return tensors[0] if len(tensors) == 1 else tuple(tensors)

    out = custom_apply(
        "BackwardHookFunction",
        tensors,
        forward,
        lambda *grads: vjp(tensors, *grads),
        label="BackwardHookFunctionBackward",
        non_differentiable=lambda: [t for t in tensors if not t.requires_grad],
    )
    return [out] if isinstance(out, Tensor) else list(out)


def _replace_child(owner: Module, key: Any, module: Any) -> None:
    """`seq[i] = module` (nn.Sequential, nn.ModuleList): the i-th child replaced, under its
    name, as PyTorch's `__setitem__` does."""
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise GradcliError(f"'{typename(key)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    names = list(owner._modules)
    if not -len(names) <= key < len(names):
        raise GradcliError(f"index {key} is out of range").mirror("IndexError")
    _set_child(owner, names[key], module)


def _set_child(owner: Module, name: str, module: Any) -> None:
    if module is not None and not isinstance(module, Module):
        raise GradcliError(
            f"cannot assign '{typename(module)}' as child module '{name}' "
            "(torch.nn.Module or None expected)"
        ).mirror("TypeError")
    owner._modules[name] = module


def _delete_children(owner: Module, key: Any) -> None:
    """`del seq[i]` / `del seq[a:b]` (nn.Sequential, nn.ModuleList): the children removed and
    the rest renumbered from 0, as PyTorch's `__delitem__` does."""
    mods = list(owner._modules.values())
    if isinstance(key, slice):
        del mods[key]
    else:
        _index(mods, key, owner.name)
        del mods[key]
    owner._modules = ModuleEntries()
    for m in mods:
        owner._modules[str(len(owner._modules))] = m


def _members(values: Any, caller: str | None, owner: Module) -> Any:
    """What `for m in values` gives inside PyTorch's container methods (`extend`, `+`, the
    constructors) of `owner`: a container module (ModuleList, Sequential, ParameterList,
    ModuleDict) its items as a program iterates them, their number with the owner's checked
    against the list limit (a ModuleList or Sequential extended by itself fails as PyTorch's
    iteration of its own changing dict, after one item; a ParameterList doubles); any other
    module refused in PyTorch's words (`caller`'s "should be called with an iterable", or
    Python's "not iterable" where PyTorch has no check of its own)."""
    items = getattr(type(values), "program_items", None)
    if items is not None:
        out = items(values)
        if values is owner and out and not isinstance(owner, ParameterList):
            return _changed_while_iterated(out[0])
        held = len(owner._parameters if isinstance(owner, ParameterList) else owner._modules)
        limits.LIST_ITEMS.check(held + len(out), f"the number of items of the {owner.name}")
        return out
    if isinstance(values, Module):
        if caller is None:
            raise GradcliError(f"'{values.name}' object is not iterable").mirror("TypeError")
        raise GradcliError(
            f"{caller} should be called with an iterable, but got {values.name}"
        ).mirror("TypeError")
    return values


def _changed_while_iterated(first: Module) -> Any:
    """Python's iteration of a dict that grows under it: the first item given (and appended by
    the caller), then the error on the next step."""
    yield first
    raise GradcliError("dictionary changed size during iteration").mirror("RuntimeError")


def _index(mods: list[Module], key: Any, name: str) -> Module:
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise GradcliError(f"{name} indices must be integers or slices, not {typename(key)}")
    if not -len(mods) <= key < len(mods):
        raise GradcliError(
            f"index {key} is out of range", hint=f"it has {len(mods)} modules"
        ).mirror("IndexError")  # (what ends an iteration by __getitem__, as in PyTorch)
    return mods[key]


def _float_shown(kw: dict, *names: str) -> str:
    return ", ".join(f"{n}={kw[n]}" for n in names)


def _constructor(cls: type) -> Callable[..., Module]:
    """`nn.Linear(3, 2)` as a program calls it (a program never holds a Python class)."""

    def make(*args: Any, **kwargs: Any) -> Module:
        return cls(*args, **kwargs)

    make.__name__ = cls.__name__
    # The class's signature is the constructor's (a call that does not fit it is the
    # program's error, said before the module is made).
    make.__wrapped__ = cls  # type: ignore[attr-defined]
    # The class's own functions a program reaches through the class (nn.Embedding.from_pretrained).
    make.class_functions = {  # type: ignore[attr-defined]
        n: getattr(cls, n) for n in getattr(cls, "CLASS_FUNCTIONS", ())
    }
    return make


_REDUCTION = ("size_average", "reduce", "reduction")
NAMES = declare(
    # The base class `class Net(nn.Module)` names (the language's class support binds to it).
    ("Module", "nn", Module, ""),
    ("Parameter", "nn", parameter, ""),
    ("Buffer", "nn", buffer, ""),
    ("Linear", "nn", _constructor(Linear), "composition of matmul permute add"),
    ("LazyLinear", "nn", _constructor(LazyLinear), "composition of matmul permute add"),
    ("Bilinear", "nn", _constructor(Bilinear), "composition of reshape bilinear_product add"),
    ("Embedding", "nn", _constructor(Embedding), "composition of index"),
    ("Dropout", "nn", _constructor(Dropout), "composition of mul"),
    ("Dropout1d", "nn", _constructor(Dropout1d), "composition of mul reshape"),
    ("Dropout2d", "nn", _constructor(Dropout2d), "composition of mul"),
    ("Dropout3d", "nn", _constructor(Dropout3d), "composition of mul reshape"),
    ("AlphaDropout", "nn", _constructor(AlphaDropout), "composition of mul add"),
    ("FeatureAlphaDropout", "nn", _constructor(FeatureAlphaDropout), "composition of mul add"),
    ("Sequential", "nn", _constructor(Sequential), ""),
    ("ModuleList", "nn", _constructor(ModuleList), ""),
    ("ModuleDict", "nn", _constructor(ModuleDict), ""),
    ("ParameterList", "nn", _constructor(ParameterList), ""),
    ("ParameterDict", "nn", _constructor(ParameterDict), ""),
    ("Sigmoid", "nn", _module("Sigmoid", sigmoid), "sigmoid"),
    ("Tanh", "nn", _module("Tanh", tanh), "tanh"),
    ("ReLU", "nn", _module("ReLU", relu), "relu"),
    (
        "LeakyReLU",
        "nn",
        _module(
            "LeakyReLU",
            leaky_relu,
            ("negative_slope",),
            lambda kw: f"negative_slope={kw['negative_slope']}",
            {"negative_slope": 0.01},
        ),
        "leaky_relu",
    ),
    (
        "Softplus",
        "nn",
        _module(
            "Softplus",
            softplus,
            ("beta", "threshold"),
            lambda kw: _float_shown(kw, "beta", "threshold"),
            {"beta": 1.0, "threshold": 20.0},
        ),
        "softplus",
    ),
    (
        "GELU",
        "nn",
        _module(
            "GELU",
            gelu,
            ("approximate",),
            lambda kw: f"approximate={kw['approximate']!r}",
            {"approximate": "none"},
        ),
        "gelu",
    ),
    (
        "Softmax",
        "nn",
        _module("Softmax", f_softmax, ("dim",), _dim_shown, {"dim": None}),
        "softmax",
    ),
    (
        "LogSoftmax",
        "nn",
        _module("LogSoftmax", f_log_softmax, ("dim",), _dim_shown, {"dim": None}),
        "log_softmax",
    ),
    ("MSELoss", "nn", _module("MSELoss", mse_loss, _REDUCTION), "mse_loss"),
    (
        "BCELoss",
        "nn",
        _module("BCELoss", binary_cross_entropy, ("weight", *_REDUCTION)),
        "binary_cross_entropy",
    ),
    ("NLLLoss", "nn", _module("NLLLoss", nll_loss, ("weight",)), "nll_loss"),
    (
        "CrossEntropyLoss",
        "nn",
        _module("CrossEntropyLoss", cross_entropy, ("weight",)),
        "composition of log_softmax nll_loss mul neg sum div",
    ),
    ("Identity", "nn", _identity_module, ""),
    ("Softmax2d", "nn", _module("Softmax2d", _softmax2d), "softmax"),
    (
        "Flatten",
        "nn",
        _module(
            "Flatten",
            _flatten,
            ("start_dim", "end_dim"),
            lambda kw: f"start_dim={kw['start_dim']}, end_dim={kw['end_dim']}",
            {"start_dim": 1, "end_dim": -1},
        ),
        "reshape",
    ),
    ("Upsample", "nn", _constructor(Upsample), "upsample_nearest upsample_interp"),
    ("UpsamplingNearest2d", "nn", _constructor(UpsamplingNearest2d), "upsample_nearest"),
    ("UpsamplingBilinear2d", "nn", _constructor(UpsamplingBilinear2d), "upsample_interp"),
    ("bilinear", "torch", bilinear, "composition of reshape bilinear_product add"),
    (
        "Unflatten",
        "nn",
        _module("Unflatten", _unflatten, ("dim", "unflattened_size"), _unflatten_shown),
        "reshape",
    ),
)
