"""The classes a program may define: plain classes (`class Accumulator:`, a config holder, a
small data structure: `PlainClass`, its instances `Instance`), `torch.nn.Module` subclasses
(`ModuleClass`) and `torch.autograd.Function` subclasses (static `forward` and `backward`, used
through `.apply`). A class is never a Python class: it is a table of the values its body made
(methods, class attributes), and an instance is a table of attributes, read and written only
through the interpreter, so that `class` is not a way into Python's object model.

A class body holds methods, class attributes (`name = value`) and a docstring; decorators
`@staticmethod`, `@classmethod`, `@property` (and `@name.setter`), `@torch.no_grad()` and its
kin, and `@once_differentiable` on a Function's backward. The dunder methods a program may
define are `PLAIN_DUNDERS` (in a plain class; `__init__` only in the others): the interpreter
calls them where Python would (`obj(x)`, `obj[i]`, `len(obj)`, `print(obj)`, `for v in obj`,
`if obj:`, `x in obj`, `a + b`, `-a`). An instance of a program's nn.Module subclass is the
surface's `nn.Module` base with the program's methods (`ModuleInstance`)."""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.tensor import Tensor, _GradMode, grad_enabled, typename
from ..surface import nn as surface_nn
from . import exceptions as X
from .values import (
    CLASS_KINDS,
    PROGRAM_INDEX,
    PROGRAM_INSTANCE,
    PROGRAM_INSTANCES,
    BoundMethod,
    Builtin,
    Ctx,
    DType,
    Generator,
    ModuleType,
    Namespace,
    UserFunction,
    is_iterator,
)

# The dunder methods a plain class may define (what the interpreter calls them for is in
# `Instance`); any other name with dunders is refused where it is defined.
PLAIN_DUNDERS = frozenset(
    (
        "__init__",
        "__call__",
        "__getitem__",
        "__setitem__",
        "__len__",
        "__repr__",
        "__str__",
        "__iter__",
        "__next__",
        "__bool__",
        "__contains__",
        "__post_init__",  # a dataclass's, called by its generated __init__
        # attribute access: __setattr__ for every store (`Instance.set`), __getattr__ where
        # the usual lookup fails; the base's through super() (`_base_attribute_method`)
        "__setattr__",
        "__getattr__",
        # the number protocol: int(), float(), an index (`xs[k]`, `range(k)`, slices, hex())
        "__index__",
        "__int__",
        "__float__",
    )
)
# Python's arithmetic operators (a small autograd engine's `Value`, a vector class): the
# interpreter calls them as Python does, `a + b` by a.__add__(b), then b.__radd__(a)
# (`operators.instance_binop`); `-a`, `+a`, `~a`, `abs(a)` by __neg__, __pos__, __invert__,
# __abs__. Comparisons stay identity (no __eq__, __lt__, __hash__). Only the interpreter calls
# them: `a.__add__` is not read (the dunder audit).
OPERATOR_DUNDERS = frozenset(
    f"__{r}{name}__"
    for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul")
    for r in ("", "r")
) | frozenset(("__neg__", "__pos__", "__invert__", "__abs__"))
PLAIN_DUNDERS = PLAIN_DUNDERS | OPERATOR_DUNDERS
# The protocol methods an nn.Module subclass may define besides __init__ (`len(model)`,
# `model[i]`, `for layer in model`, `print(model)`): the interpreter calls them as Python
# does (`ModuleInstance`), PyTorch's Module defining none of them but __call__ and __repr__.
MODULE_DUNDERS = frozenset(
    (
        "__setattr__",
        "__getattr__",
        "__call__",
        "__getitem__",
        "__setitem__",
        "__len__",
        "__iter__",
        "__contains__",
        "__bool__",
        "__repr__",
        "__str__",
        "__index__",
        "__int__",
        "__float__",
    )
)


def program_number(v: Any, names: tuple[str, ...]) -> Any:
    """The value of the first of `names` (`__index__`, `__int__`, `__float__`) an instance of
    the program's class defines, checked as Python checks it; None when `v` is not such an
    instance or its class defines none of them."""
    if not isinstance(v, (Instance, ModuleInstance)):
        return None
    for name in names:
        fn = v.special(name)
        if fn is None:
            continue
        r = v.call_special(fn)
        if name == "__float__":
            if type(r) is not float:
                raise GradcliError(
                    f"{v.cls.name}.__float__ returned non-float (type {typename(r)})"
                ).mirror("TypeError")
        elif not isinstance(r, int):
            raise GradcliError(f"{name} returned non-int (type {typename(r)})").mirror("TypeError")
        return r
    return None


def _install_program_number() -> None:
    from . import operators

    operators.PROGRAM_NUMBER[0] = program_number


_install_program_number()


def program_index(v: Any) -> Any:
    """`v` as an index where Python takes one: its `__index__`'s value for an instance of the
    program's class that defines it, else `v` itself."""
    r = program_number(v, ("__index__",))
    return v if r is None else r


def _python_names() -> frozenset[str]:
    """Every name with two underscores on both sides Python (or NumPy and PyTorch's
    protocols) gives a meaning: those of its built-in types, functions, modules and
    exceptions, and the data model's that no built-in type carries."""
    import types

    kinds: tuple = (
        object,
        type,
        int,
        float,
        complex,
        bool,
        str,
        bytes,
        list,
        tuple,
        dict,
        set,
        frozenset,
        range,
        slice,
        property,
        staticmethod,
        classmethod,
        super,
        memoryview,
        BaseException,
        types.FunctionType,
        types.MethodType,
        types.ModuleType,
        types.GeneratorType,
        types.CodeType,
        types.FrameType,
        types.TracebackType,
        types.SimpleNamespace,
    )
    names = {n for k in kinds for n in dir(k) if n.startswith("__") and n.endswith("__")}
    names.update(
        "__" + n + "__"
        for n in (
            "getattr setattr delattr getattribute get set delete set_name init_subclass "
            "class_getitem prepare instancecheck subclasscheck missing enter exit aenter aexit "
            "await aiter anext index int float complex round trunc floor ceil fspath buffer "
            "release_buffer length_hint reversed del slots dict weakref module qualname "
            "annotations globals code closure defaults kwdefaults func self wrapped builtins "
            "loader spec path file cached package all name doc mro bases base subclasses "
            "reduce reduce_ex getstate setstate getnewargs getnewargs_ex copy deepcopy sizeof "
            "format hash eq ne lt le gt ge bool len iter next contains getitem setitem delitem "
            "call repr str bytes init new post_init match_args dataclass_fields "
            "dataclass_params torch_function torch_dispatch array array_ufunc array_function "
            "array_interface array_struct array_wrap array_prepare array_priority dlpack "
            "dlpack_device cuda_array_interface version debug import iadd isub imul itruediv "
            "ifloordiv imod ipow imatmul iand ior ixor ilshift irshift and or xor lshift "
            "rshift rand ror rxor rlshift rrshift divmod rdivmod abstractmethods type_params "
            "orig_bases orig_class parameters notes traceback cause context suppress_context "
            "objclass text_signature signature"
        ).split()
    )
    return frozenset(names)


_PYTHON_NAMES: list[frozenset[str]] = []


def own_dunder(name: str) -> bool:
    """Whether `name` looks like a dunder but means nothing to Python (`__init_state__`): a
    plain method of the program's class that only the program calls, by its name."""
    if not (len(name) > 4 and name.startswith("__") and name.endswith("__")):
        return False
    if not _PYTHON_NAMES:
        _PYTHON_NAMES.append(_python_names())
    return name not in _PYTHON_NAMES[0]


class ClassMethod:
    """`@classmethod`: a method bound to the class (`cls`), from the class or an instance."""

    __slots__ = ("fn",)

    def __init__(self, fn: UserFunction):
        self.fn = fn

    def __repr__(self) -> str:
        return f"<classmethod({self.fn!r})>"


class Property:
    """`@property` (and `@name.setter`): read (and written) as an attribute of an instance."""

    __slots__ = ("fget", "fset")

    def __init__(self, fget: UserFunction, fset: UserFunction | None = None):
        self.fget = fget
        self.fset = fset

    def setter(self, fn: UserFunction) -> Property:
        return Property(self.fget, fn)

    def __repr__(self) -> str:
        return "<property object>"


class NativeMethod:
    """A method of a library class a program derives from (`unittest.TestCase`'s
    `assertEqual`): gradcli's code taking the instance first, bound as a program's method is
    (`self.assertEqual`), or called through the class with the instance (`Base.m(self, ...)`)."""

    __slots__ = ("name", "fn")

    def __init__(self, name: str, fn: Any):
        self.name = name
        self.fn = fn

    def __repr__(self) -> str:
        return f"<function {self.name}>"


def class_value(value: Any, obj: Any, cls: Any) -> Any:
    """A value found in a class's table, as `obj.name` gives it (`obj` None: `Class.name`)."""
    if type(value) is NativeMethod:
        if obj is None:
            return Builtin(value.name, value.fn)
        return BoundMethod(value.name.rpartition(".")[2], value.fn, obj, raw=True)
    if isinstance(value, UserFunction):
        if obj is None or value.static:
            return value
        return _bound(value, obj)
    if isinstance(value, ClassMethod):
        return _bound(value.fn, cls)
    if isinstance(value, Property):
        if obj is None:
            return value
        return value.fget.runtime.invoke(value.fget, (), {}, prefix=(obj,))
    return value


def _method(value: Any) -> UserFunction | None:
    """A class table's entry as a method the interpreter calls (`__init__`, `forward`...)."""
    return value if isinstance(value, UserFunction) and not value.static else None


# The class attributes of an autograd.Function that are PyTorch's flags (True or False):
# generate_vmap_rule (torch.func makes the vmap rule), boxed_grads_call (backward receives the
# output gradients as one list it may clear) and clear_saved_tensors_on_access (ctx's
# saved_tensors can be read once).
FUNCTION_FLAGS = ("generate_vmap_rule", "boxed_grads_call", "clear_saved_tensors_on_access")


class FunctionClass:
    """`class F(torch.autograd.Function)` with static forward/backward, used as `F.apply`."""

    __slots__ = (
        "name",
        "forward",
        "backward",
        "setup_context",
        "once_differentiable",
        "vmap_rule",
        "jvp_rule",
        "jvp",
        "boxed_grads",
        "clear_saved",
        "init",
        "base",
        "methods",
        "both_vjp",
        "vjp_fn",
    )

    def __init__(
        self,
        name: str,
        forward: UserFunction | None,
        backward: UserFunction | None,
        setup_context: UserFunction | None = None,
    ):
        self.name = name
        self.forward = forward
        self.backward = backward
        # its other methods (static helpers the forward calls as `F.helper(x)`), by name
        self.methods: dict[str, Any] = {}
        # PyTorch 2's other form: forward(*args) without ctx, then setup_context(ctx, inputs,
        # output) fills the ctx.
        self.setup_context = setup_context
        self.once_differentiable = False
        # Whether the class has a vmap staticmethod (or generate_vmap_rule = True) and a jvp
        # staticmethod: what torch.func's checks ask of it.
        self.vmap_rule = False
        self.jvp_rule = False
        self.jvp: UserFunction | None = None  # the jvp staticmethod (forward-mode AD)
        self.boxed_grads = False  # boxed_grads_call = True
        self.clear_saved = False  # clear_saved_tensors_on_access = True
        # A legacy Function's own __init__ (`GradReverse(lambd)` sets self.lambd): run when
        # the class is instantiated; calling the instance is then refused, as in PyTorch.
        self.init: UserFunction | None = None
        # The program's Function class it derives from (None: torch.autograd.Function).
        self.base: FunctionClass | None = None
        # Both backward and its other name vjp defined: PyTorch's error when backward runs.
        self.both_vjp = False
        self.vjp_fn: UserFunction | None = None  # a `vjp` staticmethod (backward's other name)

    def is_subclass_of(self, other: Any) -> bool:
        """`issubclass(self, other)`: torch.autograd.Function, itself or one of its bases."""
        from .values import FUNCTION_BASE

        c: FunctionClass | None = self
        while c is not None:
            if c is other:
                return True
            c = c.base
        return other is FUNCTION_BASE

    def get(self, rt: Any, attr: str) -> Any:
        if attr == "apply":
            return Builtin(
                f"{self.name}.apply",
                lambda *a, **k: self.apply(rt, self.bind(a, k)),
                shown=f"<bound method Function.apply of {self!r}>",
            )
        if attr == "forward":
            return self.forward
        if attr == "backward":
            return self.backward
        if attr == "setup_context" and self.setup_context is not None:
            return self.setup_context
        if attr == "__name__":
            return self.name
        if attr == "boxed_grads_call":
            return self.boxed_grads
        if attr == "clear_saved_tensors_on_access":
            return self.clear_saved
        cls: Any = self
        while isinstance(cls, FunctionClass):  # (the program's own bases' too)
            if attr in cls.methods:
                return class_value(cls.methods[attr], None, self)
            cls = cls.base
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def call_backward(self, rt: Any, ctx: Any, gs: tuple) -> Any:
        """The program's backward with the output gradients: one argument each, or (with
        boxed_grads_call) one list of them, which backward may change."""
        if self.both_vjp:
            raise GradcliError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                "You should only implement one of them.",
                hint="keep one of the two methods",
            ).mirror("RuntimeError")
        if self.backward is None:  # (Function's own backward, which raises)
            raise GradcliError(
                "You must implement either the backward or vjp method for your custom "
                "autograd.Function to use it with backward mode AD.",
                hint="define @staticmethod def backward(ctx, grad_output) in the class",
            ).mirror("NotImplementedError")
        if self.boxed_grads:
            return _run(rt, self.backward, [list(gs)], ctx)
        return _run(rt, self.backward, list(gs), ctx)

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> Any:
        """`Exp()`: PyTorch warns and allows it (its `.apply` is the class's; Function's
        __init__ takes any arguments). A class with its own __init__ (the legacy form) runs
        it instead, without the warning (Function's __init__ is not called)."""
        if self.init is not None:
            instance = FunctionInstance(self)
            rt.invoke(self.init, list(args), dict(kwargs), prefix=(instance,))
            return instance
        rt.warn(
            f"DeprecationWarning: <class '__main__.{self.name}'> should not be instantiated. "
            "Methods on autograd functions are all static, so you should invoke them on the "
            "class itself. Instantiating an autograd function will raise an error in a future "
            "version of PyTorch.",
            rt.current_stmt,
        )
        return FunctionInstance(self)

    def bind(self, args: tuple, kwargs: dict) -> tuple:
        """`F.apply(x, scale=3.0)`: the arguments forward's inputs are, as PyTorch 2.13 binds
        them. With setup_context, Python's binding to forward's signature, its defaults
        applied (`inspect.Signature.bind`: a defaulted parameter is an input too); a keyword
        left over is then refused by the ctx form's binding below. Without setup_context,
        each keyword goes to the place of forward's parameter of that name (after ctx), and
        every place up to the last one filled must have been given."""
        fwd = self.forward
        if type(fwd) is not UserFunction or (not kwargs and self.setup_context is None):
            if kwargs:
                raise GradcliError(
                    f"forward() got an unexpected keyword argument '{next(iter(kwargs))}'"
                ).mirror("TypeError")
            return args
        code = fwd.code
        if self.setup_context is not None:
            args, kwargs = _signature_bind(fwd, args, kwargs)
            names: list[str] = []  # (forward without ctx: a keyword left over is refused)
        else:
            names = list(code.positional[1:])
        places: dict[int, Any] = {}
        for name, value in kwargs.items():
            if name not in names:
                raise GradcliError(f"forward() got an unexpected keyword argument '{name}'").mirror(
                    "TypeError"
                )
            i = names.index(name)
            if i < len(args):
                raise GradcliError(f"forward() got multiple values for argument '{name}'").mirror(
                    "TypeError"
                )
            places[i] = value
        if not places:
            return args
        filled = list(args)
        for i in range(len(args), max(places) + 1):
            if i not in places:
                raise GradcliError(
                    f"forward() missing required argument: '{names[i]}' (position {i})"
                ).mirror("TypeError")
            filled.append(places[i])
        return tuple(filled)

    def apply(self, rt: Any, args: tuple) -> Any:
        if self.forward is None:  # (Function's own forward, which raises)
            raise GradcliError(
                "You must implement the forward function for custom autograd.Function.",
                hint="define @staticmethod def forward(ctx, ...) in the class",
            ).mirror("NotImplementedError")
        from .compiling import function_node_name

        ctx = Ctx()
        ctx.shown = function_node_name(self.name, (self.forward, self.backward, self.setup_context))
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        ctx.clear_on_access = self.clear_saved
        # whether this call records a node (forward itself runs with grad off)
        records = grad_enabled() and any(ctx.needs_input_grad)
        # inside torch.func transforms, PyTorch's earlier setup_context calls (the base
        # level's, then each enclosing level's), each with its own ctx: `function_needs`
        earlier: list[tuple] = []
        if _GradMode.transforms:
            from ..surface import func as _func

            if self.setup_context is None:
                _func.check_not_transforming("Function")  # the ctx-in-forward form: refused
            _func.check_function_in_transform(self.name, self.vmap_rule, self.jvp_rule)
            *earlier, ctx.needs_input_grad = _func.function_needs(args)

        def forward() -> Any:
            if self.setup_context is None:
                out = _run(rt, self.forward, list(args), ctx)
            else:
                out = _run(rt, self.forward, list(args))
                for needs in earlier:
                    level_ctx = Ctx()
                    level_ctx.shown = ctx.shown
                    level_ctx.needs_input_grad = needs
                    _run(rt, self.setup_context, [level_ctx, tuple(args), out])
                _run(rt, self.setup_context, [ctx, tuple(args), out])
            # PyTorch checks what ctx marked once forward has returned (its messages end
            # where they would name the argument: mirrored as they are)
            _only_tensors(ctx.dirty, "mark_dirty can only accept variables, but argument ")
            if any(not any(d is a for a in args) for d in ctx.dirty):
                raise GradcliError(
                    "ctx.mark_dirty() received a tensor that was not an input. Only input "
                    "Tensors that have been mutated should be passed to ctx.mark_dirty().",
                    hint="mark the input you changed in place (x.add_(1); ctx.mark_dirty(x))",
                ).mirror("RuntimeError")
            _only_tensors(
                ctx.non_differentiable,
                "mark_non_differentiable only accepts variable arguments, but got ",
            )
            if records:
                ctx.check_saved()  # (a call that records nothing saves nothing: unchecked)
                ctx.forward_out = out
            return out

        if rt.see_through(self.name):
            return forward()
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs = [args[i] for i in tensor_pos]

        def vjp(*gs: Tensor) -> Any:
            grads = self.call_backward(rt, ctx, gs)
            grads = grads if isinstance(grads, tuple) else (grads,)
            if len(grads) > len(args) and all(g is None for g in grads[len(args) :]):
                grads = grads[: len(args)]  # extra Nones are allowed, as PyTorch
            if len(grads) != len(args):
                raise GradcliError(
                    f"function {self.name}Backward returned an incorrect "
                    f"number of gradients (expected {len(args)}, got "
                    f"{len(grads)})"
                )
            for i, g in enumerate(grads):  # PyTorch's checks, position by position
                if g is None:
                    continue
                if not isinstance(args[i], Tensor):
                    raise GradcliError(
                        f"function {self.name}Backward returned a gradient different than "
                        f"None at position {i + 1}, but the corresponding forward input was "
                        "not a Variable",
                        hint="return None for an argument that is not a tensor",
                    )
                if not isinstance(g, Tensor):
                    raise GradcliError(
                        f"expected Variable or None (got {_pytype(g)})",
                        hint="backward returns one Tensor (or None) per forward argument",
                    )
            return tuple(grads[i] for i in tensor_pos)

        # `z.grad_fn.apply(g)`: the user's backward as it returns (a gradient per argument).
        vjp.raw = lambda *gs: self.call_backward(rt, ctx, gs)  # type: ignore[attr-defined]
        vjp.ctx = ctx  # type: ignore[attr-defined]  # (the node is the ctx: `grad_fn.constant`)

        def jvp(tangents: list[Tensor]) -> Any:
            """The program's jvp with one tangent per forward argument (zeros for a tensor
            without one, None for another value), reading what save_for_forward kept: there
            ctx.saved_tensors is that alone (empty without it, as PyTorch: what
            save_for_backward kept is backward's)."""
            at = dict(zip(tensor_pos, tangents))
            per_arg = [at.get(i) for i in range(len(args))]
            saved = ctx.saved_tensors
            ctx.saved_tensors = ctx.saved_forward if ctx.saved_forward is not None else ()
            try:
                return rt.invoke(self.jvp, per_arg, {}, prefix=(ctx,))
            finally:
                ctx.saved_tensors = saved

        from ..ops.custom import custom_apply

        result = custom_apply(
            self.name,
            inputs,
            forward,
            vjp,
            label=ctx.shown,
            non_differentiable=lambda: ctx.non_differentiable,
            materialize=lambda: ctx.materialize_grads,
            once_differentiable=getattr(self.backward, "once", False),
            dirty=lambda: ctx.dirty,
            jvp=jvp if self.jvp is not None else None,
        )
        if records:
            # PyTorch makes its SavedVariables once the outputs are wrapped (a dirty one's
            # version bumped): the versions backward expects
            ctx.note_versions()
        if records and hooks.saved_hooks is not None and ctx.saved_tensors:
            _pack_saved(ctx)
        return result

    def program_typename(self) -> str:
        return "FunctionMeta"  # its metaclass, as Python's messages name it

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


def _signature_bind(fn: UserFunction, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """Python's `inspect.signature(fn).bind(*args, **kwargs)` then `apply_defaults()`, with
    its words for a call that does not fit: the positional arguments (defaults filled in,
    `*args`' extras after them) and the keyword ones (keyword-only defaults, `**kwargs`)."""
    code = fn.code
    names = code.positional
    if len(args) > len(names) and code.vararg is None:
        raise GradcliError("too many positional arguments").mirror("TypeError")
    given = dict(zip(names, args))
    keywords: dict[str, Any] = {}
    for name, value in kwargs.items():
        if name in names:
            if name in given:
                raise GradcliError(f"multiple values for argument '{name}'").mirror("TypeError")
            given[name] = value
        elif name in code.kwonly or code.kwarg is not None:
            keywords[name] = value
        else:
            raise GradcliError(f"got an unexpected keyword argument '{name}'").mirror("TypeError")
    first_default = len(names) - len(fn.defaults)
    for i, name in enumerate(names):
        if name not in given:
            if i < first_default:
                raise GradcliError(f"missing a required argument: '{name}'").mirror("TypeError")
            given[name] = fn.defaults[i - first_default]
    for name in code.kwonly:
        if name not in keywords:
            if name not in fn.kwdefaults:
                raise GradcliError(f"missing a required argument: '{name}'").mirror("TypeError")
            keywords[name] = fn.kwdefaults[name]
    extra = tuple(args[len(names) :])
    return tuple(given[name] for name in names) + extra, keywords


def _run(rt: Any, fn: Any, args: list, ctx: Any = None) -> Any:
    """A Function's method called: the program's (`rt.invoke`, ctx first when given), or
    one of gradcli's (torch.library.custom_op's made-up backward and setup_context)."""
    prefix = () if ctx is None else (ctx,)
    if type(fn) is UserFunction:
        return rt.invoke(fn, args, {}, prefix=prefix)
    return fn(*prefix, *args)


def _pack_saved(ctx: Any) -> None:
    """Inside saved_tensors_hooks: pack_hook for each tensor the recorded call's
    ctx.save_for_backward saved, once forward has returned and after the nodes recorded before
    it (as PyTorch's SavedVariables); ctx.saved_tensors then gives what unpack_hook returns."""
    from ..surface import saved_hooks

    saved_hooks.flush()
    pack, unpack = hooks.saved_hooks
    before = hooks.saved_hooks
    hooks.saved_hooks = None  # what pack_hook computes is not hooked itself
    try:
        ctx.packed = (unpack, [None if t is None else pack(t) for t in ctx.saved_tensors])
    finally:
        hooks.saved_hooks = before


def _pytype(v: Any) -> str:
    """A value's type as PyTorch's C++ messages name it (`tuple`, `float`, `numpy.ndarray`)."""
    import numpy as np

    return "numpy.ndarray" if isinstance(v, np.ndarray) else typename(v)


def _only_tensors(marked: tuple, message: str) -> None:
    if not all(isinstance(t, Tensor) for t in marked):
        bad = next(t for t in marked if not isinstance(t, Tensor))
        raise GradcliError(
            message,
            found=typename(bad),
            hint="mark only tensors forward received or returned",
        ).pytorch()


class FunctionInstance:
    """An instance of a program's autograd Function (`e = Exp()`): `e.apply(x)` works;
    calling it is PyTorch's legacy form, refused in PyTorch's words."""

    __slots__ = ("cls", "attrs")

    def __init__(self, cls: FunctionClass):
        self.cls = cls
        self.attrs: dict[str, Any] = {}  # what a legacy __init__ sets: self.lambd = lambd

    def get(self, rt: Any, attr: str) -> Any:
        if attr in self.attrs:
            return self.attrs[attr]
        return self.cls.get(rt, attr)

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if attr not in self.attrs:
            limits.LIST_ITEMS.check(len(self.attrs) + 1, f"the number of attributes of {self}")
        self.attrs[attr] = value

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise GradcliError(
            "Legacy autograd function with non-static forward method is deprecated. Please "
            "use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        return f"<__main__.{self.cls.name} object>"


class _Derived:
    """What the program's classes (`ModuleClass`, `OptimClass`, `PlainClass`) share: their
    bases, Python's method resolution order over them, lookups along it."""

    __slots__ = ()

    def _derive(self, bases: Any) -> None:
        self.bases = tuple(bases) if isinstance(bases, (tuple, list)) else (bases,)
        self.mro = linearize(self, self.bases)

    def lookup(self, attr: str) -> Any:
        """The entry `attr` of this class or of a class it derives from (in Python's method
        resolution order), or None."""
        return _lookup(self.mro, attr)

    def is_subclass_of(self, other: Any) -> bool:
        return any(c is other for c in self.mro)

    def program_typename(self) -> str:
        return "type"  # a class, as Python's messages name it


def _set_class_entry(cls: Any, table: dict[str, Any], attr: str, value: Any) -> None:
    """`Cls.name = value` / `setattr(Cls, name, fn)` on a program's class (d2l's
    `add_to_class` adds methods after the class body): one more entry of its table, which
    its instances, made before or after, look up as the body's own."""
    if attr not in table:
        limits.LIST_ITEMS.check(len(table) + 1, f"the number of attributes of {cls.name}")
    table[attr] = value


class ModuleClass(_Derived):
    """`class Net(nn.Module)` (or a subclass of another such class, with plain classes as
    mixins: `class Net(LoggingMixin, nn.Module)`): its methods; calling it makes an instance
    (`ModuleInstance`), whose `__init__` is the program's."""

    __slots__ = ("name", "methods", "bases", "mro", "library", "scripted")

    def __init__(self, name: str, methods: dict[str, Any], bases: Any):
        self.name = name
        self.methods = methods  # what the class body made: methods and class attributes
        # the surface's nn.Module, other ModuleClasses, plain classes (mixins); a lookup is
        # None also where nn.Module's own method or attribute comes first
        self._derive(bases)
        # one of torch's modules the class builds on (`class MaskedLinear(nn.Linear)`): its
        # __init__, forward, parameters and repr are the base's where the program's class
        # defines none (None: nn.Module itself)
        self.library = next(
            (c for c in self.mro if library_module(c)),
            None,
        )
        # a subclass of torch.jit.ScriptModule (or of such a class of the program's): its
        # submodules become TorchScript's when its __init__ has run (`lang.jit`)
        self.scripted = any(
            isinstance(c, ModuleClass) and c is not self and c.scripted for c in self.mro
        )

    def get(self, rt: Any, attr: str) -> Any:
        method = self.lookup(attr)
        if method is not None:
            return class_value(method, None, self)
        if attr == "__name__":
            return self.name
        if attr in surface_nn.Module.METHODS:
            # `Net.parameters` / `Net.forward`: nn.Module's function, called with the module
            return Builtin(f"Module.{attr}", _module_function(attr))
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        _set_class_entry(self, self.methods, attr, value)

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> ModuleInstance:
        obj = ModuleInstance(self) if self.library is None else _on_library(self.library)(self)
        init = _method(self.lookup("__init__"))
        if init is None:  # nn.Module's
            _module_init_of(obj)(*args, **kwargs)
        else:
            result = rt.invoke(init, list(args), kwargs, prefix=(obj,))
            if result is not None:
                raise GradcliError(
                    f"__init__() should return None, not '{typename(result)}'"
                ).mirror("TypeError")
        if self.scripted:
            from .jit import script_children

            script_children(obj)
        return obj

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


def library_module(c: Any) -> bool:
    """Whether `c` is one of torch's module classes (not nn.Module itself) a program's class
    may build on."""
    return (
        isinstance(c, type)
        and issubclass(c, surface_nn.Module)
        and c is not surface_nn.Module
        and not issubclass(c, ModuleInstance)
    )


_ON_LIBRARY: dict[type, type] = {}


def _on_library(library: type) -> type:
    """The instance class of a program's module built on `library`: the program's instance
    first, then the torch module's own methods (made once per library class)."""
    made = _ON_LIBRARY.get(library)
    if made is None:
        made = type(f"ModuleInstance_{library.__name__}", (ModuleInstance, library), {})
        _ON_LIBRARY[library] = made
    return made


def _module_function(attr: str) -> Any:
    def call(obj: Any = None, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(obj, surface_nn.Module):
            raise GradcliError(
                f"Module.{attr}() needs a module as its first argument, not '{typename(obj)}'"
            ).mirror("TypeError")
        return getattr(surface_nn.Module, attr)(obj, *args, **kwargs)

    return call


def _bound(fn: UserFunction, obj: Any) -> BoundMethod:
    """A program's method bound to its instance: calling it runs the method's body."""

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        return fn.runtime.invoke(fn, args, kwargs, prefix=(self,))

    return BoundMethod(fn.code.name, call, obj, raw=True, user=fn)


class ModuleInstance(surface_nn.Module):
    """An instance of a program's nn.Module subclass: the surface's Module base (parameters
    and submodules registered by assignment, parameters(), zero_grad(), train(), repr...)
    with the program's methods. `super().__init__()` initialises the base, as in PyTorch."""

    # Its attributes are the program's and nn.Module's (whose names gradcli lacks are refused
    # as not supported): any other name missing is Python's AttributeError, as in PyTorch.
    OWN_NAMES_ONLY = True

    def __init__(self, cls: ModuleClass):
        # The base is initialised by the program's `super().__init__()`; until then there is
        # nothing to register into (and PyTorch refuses parameters and submodules).
        self._parameters = {}
        self._modules = surface_nn.ModuleEntries()
        self.training = True
        self.cls = cls
        self.initialized = False

    @property
    def name(self) -> str:
        return self.cls.name

    def program_typename(self) -> str:
        return self.cls.name  # the program's class, as Python names an instance's type

    def base_init(self, *args: Any, **kwargs: Any) -> None:
        library = self.cls.library
        if library is None:
            surface_nn.Module.__init__(self)
            self.initialized = True
            return
        # `super().__init__(in_features, out_features)` of `class L(nn.Linear)`. PyTorch's
        # __init__ ends in self.reset_parameters(): a subclass's own is called in place of the
        # base's, whose draws then never happen (the generator is put back after gradcli's).
        own_reset = _method(self.cls.lookup("reset_parameters"))
        from ..surface.sampling import R

        state = R.get_rng_state() if own_reset is not None else None
        # the torch dtypes a subclass's __init__ hands on (`dtype=dtype`) as the library's
        # __init__ takes them (NumPy dtypes), as a direct call's arguments are
        args = tuple(a.np if isinstance(a, DType) else a for a in args)
        kwargs = {k: v.np if isinstance(v, DType) else v for k, v in kwargs.items()}
        make = getattr(library, "MAKE", None)
        if make is None:
            library.__init__(self, *args, **kwargs)
        else:
            # `class MyConv(nn.Conv2d)`: nn.Conv2d is a function making a module of a class
            # shared with others (Conv of 2 dimensions): made, then this instance takes its class
            # (the program's first) and its state
            made = make(*args, **kwargs)
            self.__class__ = _on_library(type(made))
            vars(self).update(vars(made))
        self.initialized = True
        if own_reset is not None and "reset_parameters" in type(self).METHODS:
            if any(
                isinstance(p, surface_nn.UninitializedParameter) for p in self._parameters.values()
            ):
                raise NotSupported(
                    f"a reset_parameters method in a subclass of nn.{library.__name__} is not "
                    "supported by gradcli",
                    hint="initialise the parameters after the module's first call",
                )
            R.set_rng_state(state)
            for p in self._parameters.values():
                if p is not None:
                    p._vc = [0]  # (torch.empty's, changed in place by the program's own)
            self.own_method("reset_parameters")()

    # -- what the language asks of it -------------------------------------------------------
    def program_attribute(self, name: str) -> Any:
        # Plain attributes first (they shadow methods in Python), then the program's methods,
        # then the base's parameters, submodules and methods; a parametrized tensor (a
        # property of PyTorch's injected class) before all.
        access = self.__dict__.get("_parametrized")
        if access is not None and access.has(self, name):
            return access.get(self, name)
        if "_attr_" + name in self.__dict__:
            return self.__dict__["_attr_" + name]
        method = self.cls.lookup(name)
        if method is not None:
            return class_value(method, self, self.cls)
        if name == "original_name" and self.cls.scripted:  # (a torch.jit.ScriptModule's)
            return self.cls.name
        if name == "forward":
            # the torch module's forward, not overridden (`class MyLinear(nn.Linear): pass`),
            # or nn.Module's, which raises (shown as PyTorch's _forward_unimplemented)
            found = (
                surface_nn._pytorchs_forward(self)
                if self.cls.library is not None
                else surface_nn.unimplemented_forward(self)
            )
            if found is not None:
                return found
        return super().program_attribute(name)

    def get(self, rt: Any, attr: str) -> Any:
        fallback = _method(self.cls.lookup("__getattr__"))
        if fallback is None:
            return self.program_attribute(attr)
        try:
            return self.program_attribute(attr)
        except GradcliError as e:  # (Python calls the class's own when the lookup fails)
            if e.python_class != "AttributeError":
                raise
        return rt.invoke(fallback, [attr], {}, prefix=(self,))

    def own_method(self, name: str) -> Any:
        fn = _method(self.cls.lookup(name))
        return None if fn is None else _bound(fn, self)

    def set(self, rt: Any, attr: str, value: Any) -> None:
        own = _method(self.cls.lookup("__setattr__"))
        if own is not None:  # the class's own `__setattr__` (Python calls it for every store)
            rt.invoke(own, [attr, value], {}, prefix=(self,))
            return
        self.base_set(rt, attr, value)

    def base_set(self, rt: Any, attr: str, value: Any) -> None:
        """nn.Module.__setattr__: parameters, submodules and buffers registered, the rest
        the instance's own."""
        if not self.initialized:
            if isinstance(value, surface_nn.Parameter):
                raise GradcliError(
                    "cannot assign parameters before Module.__init__() call",
                    hint="call super().__init__() first in __init__",
                ).mirror("AttributeError")
            if isinstance(value, surface_nn.Module):
                raise GradcliError(
                    "cannot assign module before Module.__init__() call",
                    hint="call super().__init__() first in __init__",
                ).mirror("AttributeError")
        if attr == "training":
            self.training = bool(value)
            return
        self.set_attribute(attr, value)

    def call(self, rt: Any, args: list, kwargs: dict) -> Any:
        return self(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # A class that defines `__call__` itself (fast.ai's lessons write modules so) is
        # called through it, as Python does, also by containers (nn.Sequential): no hooks,
        # no forward, unless it calls super().__call__.
        own = _method(self.cls.lookup("__call__"))
        if own is not None:
            return own.runtime.invoke(own, args, kwargs, prefix=(self,))
        # Through the base's __call__: the module's hooks run around forward.
        return surface_nn.Module.__call__(self, *args, **kwargs)

    # -- the base's hooks, answered by the program's methods ----------------------------------
    def program_train(self) -> Any:
        fn = _method(self.cls.lookup("train"))
        if fn is None:
            return None
        return lambda mode: fn.runtime.invoke(fn, (mode,), {}, prefix=(self,))

    def train(self, mode: Any = True) -> Any:
        # `eval()` (the base's) and a parent's train() reach the program's own train
        own = self.program_train()
        if own is not None:
            return own(mode)
        return surface_nn.Module.train(self, mode)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        entry = self.cls.lookup("forward")
        if isinstance(entry, UserFunction) and entry.static:
            # `@staticmethod def forward(a, b)`: Python calls it without the instance.
            return entry.runtime.invoke(entry, args, kwargs)
        fn = _method(entry)
        if fn is None:
            if isinstance(entry, (bool, int, float, complex, str, tuple, list, dict, Tensor)):
                # (`Net.forward = 5` set on the class: Python calls what it finds)
                raise GradcliError(f"'{typename(entry)}' object is not callable").mirror(
                    "TypeError"
                )
            if self.cls.library is not None:  # the torch module's own forward
                if kwargs:  # (its inputs by PyTorch's names: `MyLinear(2, 3)(input=x)`)
                    found = surface_nn._pytorchs_forward(self)
                    if found is not None:
                        return found(*args, **kwargs)
                return super().forward(*args, **kwargs)
            return surface_nn.Module.forward(self, *args)
        return fn.runtime.invoke(fn, args, kwargs, prefix=(self,))

    # -- the protocol methods the program's class may define (MODULE_DUNDERS), called as
    # Python calls them; without them, Python's errors as for PyTorch's Module ------------
    def special(self, name: str) -> UserFunction | None:
        return _method(self.cls.lookup(name))

    def call_special(self, fn: UserFunction, *args: Any) -> Any:
        return fn.runtime.invoke(fn, args, {}, prefix=(self,))

    def _library_has(self, dunder: str, own: str) -> bool:
        """Whether the torch module the class builds on answers `own` where the program's
        class defines no `dunder` (`len(mlp)` of `class MLP(nn.Sequential)`)."""
        library = self.cls.library
        return library is not None and self.special(dunder) is None and hasattr(library, own)

    def program_len(self) -> int:
        if self._library_has("__len__", "__len__"):
            return super().__len__()  # type: ignore[misc]
        return Instance.program_len(self)  # type: ignore[arg-type]

    def program_iter(self) -> Any:
        if self._library_has("__iter__", "__iter__"):
            return super().__iter__()  # type: ignore[misc]
        return Instance.program_iter(self)  # type: ignore[arg-type]

    def program_contains(self, item: Any) -> bool:
        return Instance.program_contains(self, item)  # type: ignore[arg-type]

    def program_getitem(self, key: Any) -> Any:
        if self._library_has("__getitem__", "program_getitem"):
            return super().program_getitem(key)  # type: ignore[misc]
        return Instance.getitem(self, key)  # type: ignore[arg-type]

    def program_setitem(self, key: Any, value: Any) -> None:
        Instance.setitem(self, key, value)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return Instance.__bool__(self)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        if self.special("__repr__") is None:
            return surface_nn.Module.__repr__(self)
        return Instance.__repr__(self)  # type: ignore[arg-type]

    def program_str(self) -> str:
        return Instance.program_str(self)  # type: ignore[arg-type]

    def extra_repr(self) -> str:
        fn = _method(self.cls.lookup("extra_repr"))
        if fn is None:
            return super().extra_repr() if self.cls.library is not None else ""
        text = fn.runtime.invoke(fn, (), {}, prefix=(self,))
        if not isinstance(text, str):
            raise GradcliError(f"extra_repr() must return a string, not {typename(text)}").mirror(
                "TypeError"
            )
        return text


class ProgramObject:
    """An instance of a program's class built on one of torch's classes other than nn.Module
    (`class MySGD(torch.optim.Optimizer)`: `optimizers.OptimizerInstance`), marked so that
    the language's checks (isinstance, type(), super()) know it without importing it."""

    __slots__ = ()
    cls: Any
    attrs: dict[str, Any]

    def own_attribute(self, attr: str) -> Any:
        """The instance's own attribute, else its class's (a method bound to the instance), in
        Python's order; `ABSENT` when neither has it (each kind then asks its torch base)."""
        if attr in self.attrs:
            return self.attrs[attr]
        entry = self.cls.lookup(attr)
        if entry is not None:
            return class_value(entry, self, self.cls)
        return ABSENT


# What `ProgramObject.own_attribute` answers for a name it lacks (None is a value).
ABSENT = object()


# The instances of OptimClass by their base's kind ("optimizer", "scheduler"): set by
# `lang.optimizers` (which builds on this module), imported where such a class is made.
INSTANCE_KINDS: dict[str, Any] = {}
# What such a class answers for a name it and its bases' tables lack (a pruning method's
# classmethod `apply`), by kind; None when it has none. Set by `lang.pruning`.
CLASS_ATTRIBUTES: dict[str, Any] = {}


class OptimClass(_Derived):
    """`class MySGD(torch.optim.Optimizer)` or `class Warmup(torch.optim.lr_scheduler.
    LRScheduler)` (or a subclass of another such class): its methods and class attributes;
    calling it makes an instance (`optimizers`), the surface's Optimizer (param_groups, state,
    zero_grad, state_dict, repr) or LRScheduler (base_lrs, last_epoch, step, get_last_lr)
    with the program's methods, whose `__init__` calls `super().__init__(...)`."""

    __slots__ = ("name", "methods", "bases", "mro", "base")

    def __init__(self, name: str, methods: dict[str, Any], bases: Any, base: type):
        self.name = name
        self.methods = methods
        self.base = base  # the surface's Optimizer class
        self._derive(bases)

    def get(self, rt: Any, attr: str) -> Any:
        method = self.lookup(attr)
        if method is not None:
            return class_value(method, None, self)
        if attr == "__name__":
            return self.name
        more = CLASS_ATTRIBUTES.get(self.base.PROGRAM_BASE)  # `FooBar.apply(module, name)`
        found = more(self, attr) if more is not None else None
        if found is not None:
            return found
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        _set_class_entry(self, self.methods, attr, value)

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> Any:
        obj = INSTANCE_KINDS[self.base.PROGRAM_BASE](self)
        init = _method(self.lookup("__init__"))
        if init is None:  # the base's own: (params, defaults), (optimizer, last_epoch)
            obj.base_init(*args, **kwargs)
        else:
            result = rt.invoke(init, list(args), kwargs, prefix=(obj,))
            if result is not None:
                raise GradcliError(
                    f"__init__() should return None, not '{typename(result)}'"
                ).mirror("TypeError")
        return obj

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


class Super:
    """`super()` inside a method of a program's class (or `super(Net, self)`)."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls: Any, obj: Any):
        self.cls = cls
        self.obj = obj

    def get(self, rt: Any, attr: str) -> Any:
        """The entry `attr` of the class after `cls` in the method resolution order of the
        instance's class (a cooperative `super().__init__(**kwargs)` goes on to the next
        base, a mixin's to the class after it), as Python's super() finds it."""
        cls, obj = self.cls, self.obj
        if isinstance(cls, FunctionClass) and isinstance(obj, FunctionInstance):
            return _function_super(rt, cls, obj, attr)
        if not isinstance(cls, (PlainClass, ModuleClass, OptimClass)) or not isinstance(
            obj, (Instance, ModuleInstance, ProgramObject)
        ):
            raise NotSupported(
                "super() is only supported in the methods of the program's classes",
                hint="call the base class's method by its name: Base.method(self, ...)",
            )
        mro = obj.cls.mro
        at = next((i for i, c in enumerate(mro) if c is cls), None)
        if at is None:
            raise GradcliError(
                "super(type, obj): obj must be an instance or subtype of type"
            ).mirror("TypeError")
        for c in mro[at + 1 :]:
            table = _table(c)
            if table is None and isinstance(obj, ProgramObject):  # torch's base class
                # (the base's own, not the program's override, where a kind tells them apart)
                found = getattr(obj, "super_attribute", obj.base_attribute)(attr)
                if found is not None:
                    return found
            elif table is None:  # the surface's nn.Module (its __init__ calls no further)
                if attr == "__init__":
                    return Builtin("Module.__init__", _module_init_of(obj))
                if attr in ("__setattr__", "__getattr__") and isinstance(obj, ModuleInstance):
                    return _base_attribute_method(rt, obj, attr, "Module")
                if attr == "__call__" and isinstance(obj, ModuleInstance):
                    # the base's call (hooks around forward), from a class's own __call__
                    return Builtin(
                        "Module.__call__",
                        lambda *a, **k: surface_nn.Module.__call__(obj, *a, **k),
                    )
                if attr == "forward" and isinstance(obj, ModuleInstance):
                    # the torch module's forward of `class MyLinear(nn.Linear)`, as PyTorch's
                    # bound method (its inputs by PyTorch's names: `input=`)
                    found = surface_nn._pytorchs_forward(obj)
                    if found is not None:
                        return found
                if attr in surface_nn.Module.METHODS or (
                    isinstance(obj, ModuleInstance)
                    and obj.cls.library is not None
                    and attr in (*type(obj).METHODS, "extra_repr")
                ):
                    return getattr(super(ModuleInstance, obj), attr)  # type: ignore[arg-type]
            elif attr in table:
                return class_value(table[attr], obj, obj.cls)
        if attr == "__init__":  # object's: takes nothing more
            return Builtin("object.__init__", _object_init_rest)
        if attr == "__setattr__" and isinstance(obj, Instance):
            return _base_attribute_method(rt, obj, attr, "object")
        raise GradcliError(f"'super' object has no attribute '{attr}'").mirror("AttributeError")


def _base_attribute_method(rt: Any, obj: Any, attr: str, base: str) -> Builtin:
    """`super().__setattr__(name, value)` (object's or nn.Module's: what a store does without
    the class's own) and nn.Module's `super().__getattr__(name)` (its parameters, buffers and
    submodules), from the class's own __setattr__ / __getattr__."""

    def name_of(name: Any) -> str:
        # (a string, never a dunder name: as setattr() and getattr() check theirs)
        if not isinstance(name, str):
            raise GradcliError(f"attribute name must be string, not '{typename(name)}'").mirror(
                "TypeError"
            )
        if name.startswith("__"):
            raise GradcliError(
                f"super().{attr}({name[:40]!r}) is not accessible in gradcli programs",
                hint="gradcli programs cannot reach Python's internals",
            ).mirror(None)
        return name

    if attr == "__setattr__":

        def setattr_(name: Any, value: Any) -> None:
            obj.base_set(rt, name_of(name), value)

        return Builtin(f"{base}.__setattr__", setattr_)

    def getattr_(name: Any) -> Any:
        return obj.program_attribute(name_of(name))

    return Builtin(f"{base}.__getattr__", getattr_)


def _function_super(rt: Any, cls: FunctionClass, obj: FunctionInstance, attr: str) -> Any:
    """`super().__init__(...)` in the __init__ of a legacy autograd Function (code written for
    PyTorch 0.3): Function's __init__, which takes any arguments and warns that the class should
    not be instantiated, as PyTorch's does."""
    if obj.cls is not cls:
        raise GradcliError("super(type, obj): obj must be an instance or subtype of type").mirror(
            "TypeError"
        )
    if attr != "__init__":
        raise NotSupported(
            f"super().{attr} in an autograd Function is not supported by gradcli",
            hint="write the class's methods as @staticmethod forward(ctx, ...) and "
            "backward(ctx, grad_output), called through Class.apply(...)",
        )

    def init(*args: Any, **kwargs: Any) -> None:
        rt.warn(
            f"DeprecationWarning: <class '__main__.{cls.name}'> should not be instantiated. "
            "Methods on autograd functions are all static, so you should invoke them on the "
            "class itself. Instantiating an autograd function will raise an error in a future "
            "version of PyTorch.",
            rt.current_stmt,
        )

    return Builtin("Function.__init__", init)


def _object_init_rest(*args: Any, **kwargs: Any) -> None:
    if args or kwargs:
        raise GradcliError(
            "object.__init__() takes exactly one argument (the instance to initialize)"
        ).mirror("TypeError")


# --- plain classes ------------------------------------------------------------------------------


# A dataclass field's missing default (dataclasses.MISSING).
MISSING = object()


class PlainClass(_Derived):
    """`class Accumulator:` (or `class B(A):`, `class C(A, B):` of other plain classes): the
    table its body made (methods, static and class methods, properties, class attributes);
    calling it makes an `Instance` and runs its `__init__`. `annotations` are the body's
    annotated names in order, with their annotations' text; `dataclass` the spec `@dataclass`
    gave it (`pydataclasses`), whose generated methods `Instance` answers for."""

    __slots__ = ("name", "attrs", "bases", "mro", "annotations", "dataclass")

    def __init__(
        self,
        name: str,
        attrs: dict[str, Any],
        bases: Any,
        annotations: tuple[tuple[str, str], ...] = (),
    ):
        self.name = name
        self.attrs = attrs
        self.annotations = annotations
        self.dataclass: Any = None
        self._derive(() if bases is None else bases)

    def get(self, rt: Any, attr: str) -> Any:
        value = self.lookup(attr)
        if value is not None or _defines(self, attr):
            return class_value(value, None, self)
        if attr == "__name__":
            return self.name
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        _set_class_entry(self, self.attrs, attr, value)

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> Instance:
        obj = Instance(self)
        if exception_base(self) is not None:
            obj.attrs["args"] = tuple(args)  # (BaseException.__new__'s, whatever __init__ does)
        for c in self.mro:  # a dataclass's generated __init__, where it comes first
            if isinstance(c, PlainClass) and "__init__" in c.attrs:
                break
            spec = getattr(c, "dataclass", None)
            if spec is not None and spec.init:
                generated_init(rt, c, spec, obj, list(args), kwargs)
                return obj
        found = self.lookup("__init__")
        if type(found) is NativeMethod:  # a library base's (TestCase(methodName))
            found.fn(obj, *args, **kwargs)
            return obj
        init = _method(found)
        if init is None:
            if args or kwargs:
                raise GradcliError(f"{self.name}() takes no arguments").mirror("TypeError")
            return obj
        result = rt.invoke(init, list(args), kwargs, prefix=(obj,))
        if result is not None:
            raise GradcliError(f"__init__() should return None, not '{typename(result)}'").mirror(
                "TypeError"
            )
        return obj

    def __repr__(self) -> str:
        return f"<class '{getattr(self, 'module', '__main__')}.{self.name}'>"


class LibraryClass(PlainClass):
    """A library's class a program derives from as from its own plain classes
    (`unittest.TestCase`): a table of `NativeMethod`s and values, shown with its `module`
    (`<class 'unittest.case.TestCase'>`)."""

    __slots__ = ("module",)

    def __init__(self, module: str, name: str, attrs: dict[str, Any]):
        super().__init__(name, attrs, ())
        self.module = module

    def set(self, rt: Any, attr: str, value: Any) -> None:
        # (one table for every run in the process: a program changes its own subclasses)
        raise NotSupported(
            f"changing the attributes of {self.module}.{self.name} is not supported by gradcli",
            hint=f"set it on your subclass of {self.name}, or on self",
        )


def generated_init(rt: Any, cls: Any, spec: Any, obj: Any, args: list, kw: dict) -> None:
    """Python's generated `__init__`: the arguments bound to the fields, then __post_init__."""
    params = [f for f in spec.fields if f.init]
    name = f"{cls.name}.__init__()"
    if len(args) > len(params):
        required = sum(1 for f in params if f.default is MISSING and f.default_factory is MISSING)
        takes = (
            f"{len(params) + 1}"
            if required == len(params)
            else f"from {required + 1} to {len(params) + 1}"
        )
        raise GradcliError(
            f"{name} takes {takes} positional argument{'s' * (len(params) != 0)} but "
            f"{len(args) + 1} were given"
        ).mirror("TypeError")
    values: dict[str, Any] = {f.name: v for f, v in zip(params, args, strict=False)}
    names = {f.name for f in params}
    for k, v in kw.items():
        if k not in names:
            raise GradcliError(f"{name} got an unexpected keyword argument '{k}'").mirror(
                "TypeError"
            )
        if k in values:
            raise GradcliError(f"{name} got multiple values for argument '{k}'").mirror("TypeError")
        values[k] = v
    missing = [
        f.name
        for f in params
        if f.name not in values and f.default is MISSING and f.default_factory is MISSING
    ]
    if missing:
        quoted = [f"'{m}'" for m in missing]
        if len(quoted) == 1:
            listed = quoted[0]
        elif len(quoted) == 2:
            listed = " and ".join(quoted)
        else:
            listed = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
        raise GradcliError(
            f"{name} missing {len(missing)} required positional argument"
            f"{'s' * (len(missing) > 1)}: {listed}"
        ).mirror("TypeError")
    own_setattr = not spec.frozen and _method(obj.cls.lookup("__setattr__")) is not None
    for f in spec.fields:
        if f.name in values:
            v = values[f.name]
        elif f.default_factory is not MISSING:
            v = rt.call(f.default_factory, [], {}, None)
        elif f.default is not MISSING:
            v = f.default
        else:
            continue  # field(init=False) with no default: not set, as Python's
        if own_setattr:  # (Python's generated __init__ stores `self.name = value`)
            obj.set(rt, f.name, v)
        else:
            obj.attrs[f.name] = v
    post = obj.special("__post_init__")
    if post is not None:
        obj.call_special(post)


def frozen_error(action: str, name: str) -> GradcliError:
    return GradcliError(f"cannot {action} field '{name}'").mirror("FrozenInstanceError")


def _dataclass_of(obj: Instance) -> Any:
    for c in obj.cls.mro:
        spec = getattr(c, "dataclass", None)
        if spec is not None:
            return spec
    return None


def _defines(cls: PlainClass, attr: str) -> bool:
    """Whether the class (or a base) has the entry `attr` (whose value may be None)."""
    return any(isinstance(c, PlainClass) and attr in c.attrs for c in cls.mro)


def _table(c: Any) -> dict[str, Any] | None:
    if isinstance(c, PlainClass):
        return c.attrs
    if isinstance(c, (ModuleClass, OptimClass)):
        return c.methods
    if isinstance(c, X.ExcClass):
        return _EXCEPTION_TABLE
    return None


# --- the program's exception classes (`class ShapeError(ValueError):`) ---------------------------
# A plain class with one of Python's exception classes among its bases; its instances are plain
# instances whose `args` are the arguments they were made with (as BaseException.__new__ sets
# them), printed as Python prints exceptions unless the class defines __str__ / __repr__.
# `raise` carries such an instance as an `ExcValue` of the built-in class it derives from, so an
# `except ValueError:` catches it and an `except ShapeError as e:` binds the instance itself.


def _exception_init(obj: Any, *args: Any, **kwargs: Any) -> None:
    if kwargs:
        raise GradcliError(f"{obj.cls.name}() takes no keyword arguments").mirror("TypeError")
    obj.attrs["args"] = tuple(args)


_EXCEPTION_TABLE: dict[str, Any] = {
    "__init__": NativeMethod("BaseException.__init__", _exception_init),
}


def exception_bases(cls: Any) -> list[Any]:
    """Python's exception classes in a plain class's resolution order (none: the class is not
    an exception class)."""
    if not isinstance(cls, PlainClass):
        return []
    return [c for c in cls.mro if isinstance(c, X.ExcClass)]


def exception_base(cls: Any) -> Any:
    """The most derived of Python's exception classes a plain class derives from (ValueError of
    `class E(MyError, ValueError)` where MyError derives from Exception), None for none."""
    found = exception_bases(cls)
    for c in found:
        if all(c.is_subclass_of(o) for o in found):
            return c
    return found[0] if found else None


def exception_of(inst: Any, cls: Any) -> bool:
    """Whether a program's exception instance is an instance of `cls`, one of Python's
    exception classes (through any of its class's bases)."""
    return any(c.is_subclass_of(cls) for c in exception_bases(inst.cls))


def as_exception(rt: Any, v: Any) -> Any:
    """What `raise v` raises for a program's exception class or its instance (an `ExcValue` of
    the built-in class it derives from, carrying the instance); other values as they are."""
    if isinstance(v, PlainClass) and exception_base(v) is not None:
        v = v.instantiate(rt, [], {})
    if isinstance(v, Instance):
        base = exception_base(v.cls)
        if base is not None:
            args = v.attrs.get("args", ())
            return X.ExcValue(base, args if isinstance(args, tuple) else (args,), inst=v)
    return v


X.USER_CLASS[0] = lambda t: exception_base(t) is not None
X.USER_INSTANCE_OF[0] = exception_of


_MODULE_OWN = frozenset(surface_nn.Module.METHODS) | frozenset(surface_nn.Module.ATTRIBUTES)


def _lookup(mro: tuple, attr: str) -> Any:
    for c in mro:
        table = _table(c)
        if table is None:  # torch's base: its own names come before later mixins'
            if c is surface_nn.Module:
                if attr in _MODULE_OWN:
                    return None
            elif attr in getattr(c, "PROGRAM_METHODS", ()) or attr in getattr(
                c, "PROGRAM_DATA", ()
            ):
                return None
        elif attr in table:
            return table[attr]
    return None


def _mro_names(classes: Any) -> str:
    return ", ".join(
        getattr(c, "name", None)
        if isinstance(getattr(c, "name", None), str)
        else getattr(c, "__name__", "Module")
        for c in classes
    )


def linearize(cls: Any, bases: tuple) -> tuple:
    """Python's method resolution order (C3) of a program class: itself, then its bases'
    orders merged so that each class comes before its bases and the bases keep their order
    (the surface's nn.Module stands for itself; `object` is left out, last in Python)."""
    for i, b in enumerate(bases):
        if any(b is c for c in bases[:i]):
            raise GradcliError(f"duplicate base class {_mro_names([b])}").mirror("TypeError")
    seqs = [
        list(b.mro if isinstance(b, (PlainClass, ModuleClass, OptimClass)) else (b,)) for b in bases
    ]
    seqs.append(list(bases))
    out = [cls]
    while True:
        seqs = [q for q in seqs if q]
        if not seqs:
            break
        for q in seqs:
            head = q[0]
            if not any(any(head is c for c in t[1:]) for t in seqs):
                break
        else:
            raise GradcliError(
                "Cannot create a consistent method resolution\norder (MRO) for bases "
                + _mro_names(bases)
            ).mirror("TypeError")
        out.append(head)
        limits.NESTING.check(len(out), f"the number of classes {cls.name} derives from")
        for q in seqs:
            if q[0] is head:
                del q[0]
    return tuple(out)


class Instance:
    """An instance of a program's plain class: its attributes in a table (`obj.x = v`), its
    class's entries behind them. Python never sees it as anything but this one type: the
    dunder methods the program defines are called by the interpreter where Python would, and
    none of Python's own (`__class__`, `__dict__`...) is reachable."""

    __slots__ = ("cls", "attrs", "__weakref__")

    def __init__(self, cls: PlainClass):
        self.cls = cls
        self.attrs: dict[str, Any] = {}

    def program_typename(self) -> str:
        return self.cls.name

    # -- attributes ----------------------------------------------------------------------------
    def get(self, rt: Any, attr: str) -> Any:
        attrs = self.attrs
        if attr in attrs:
            value = self.cls.lookup(attr)
            if not isinstance(value, Property):  # a property wins over the instance's table
                return attrs[attr]
        value = self.cls.lookup(attr)
        if value is not None or _defines(self.cls, attr):
            return class_value(value, self, self.cls)
        fallback = _method(self.cls.lookup("__getattr__"))
        if fallback is not None:  # (Python calls it when the usual lookup fails)
            return rt.invoke(fallback, [attr], {}, prefix=(self,))
        raise GradcliError(f"'{self.cls.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        own = _method(self.cls.lookup("__setattr__"))
        if own is not None:  # the class's own `__setattr__` (Python calls it for every store)
            rt.invoke(own, [attr, value], {}, prefix=(self,))
            return
        self.base_set(rt, attr, value)

    def base_set(self, rt: Any, attr: str, value: Any) -> None:
        """object.__setattr__: a property's setter, or the instance's own table."""
        prop = self.cls.lookup(attr)
        if isinstance(prop, Property):
            if prop.fset is None:
                raise GradcliError(
                    f"property '{attr}' of '{self.cls.name}' object has no setter"
                ).mirror("AttributeError")
            rt.invoke(prop.fset, [value], {}, prefix=(self,))
            return
        spec = _dataclass_of(self)
        if spec is not None and spec.frozen:
            raise frozen_error("assign to", attr)
        if attr not in self.attrs:
            limits.LIST_ITEMS.check(
                len(self.attrs) + 1, f"the number of attributes of a {self.cls.name}"
            )
        self.attrs[attr] = value

    def delete(self, attr: str) -> None:
        """`del obj.attr`: the instance's own attribute removed (a frozen dataclass's
        refused, as Python's)."""
        spec = _dataclass_of(self)
        if spec is not None and spec.frozen:
            raise frozen_error("delete", attr)
        if attr not in self.attrs:
            raise GradcliError(f"'{self.cls.name}' object has no attribute '{attr}'").mirror(
                "AttributeError"
            )
        del self.attrs[attr]

    def program_eq(self, other: Any) -> Any:
        """`a == b` by a dataclass's generated __eq__: the compared fields as tuples, for two
        instances of one class; NotImplemented otherwise (identity)."""
        spec = _dataclass_of(self)
        if spec is None or not spec.eq or not isinstance(other, Instance):
            return NotImplemented
        if other.cls is not self.cls:
            return NotImplemented
        from .operators import equal

        names = [f.name for f in spec.fields if f.compare]
        mine = tuple(self.attrs.get(n) for n in names)
        theirs = tuple(other.attrs.get(n) for n in names)
        return equal(mine, theirs)

    # -- the dunder methods, as the interpreter calls them -----------------------------------------
    def special(self, name: str) -> UserFunction | None:
        """The program's method `name` (looked up on the class, as Python looks up dunders)."""
        return _method(self.cls.lookup(name))

    def operator_method(self, name: str) -> UserFunction | None:
        """The class's operator method `name` (`__add__`...): None where it has none; a class
        attribute of that name that is not a function (`__mul__ = None`) called as Python
        would call it."""
        fn = self.special(name)
        if fn is None and _defines(self.cls, name):
            value = self.cls.lookup(name)
            raise GradcliError(f"'{typename(value)}' object is not callable").mirror("TypeError")
        return fn

    def call_special(self, fn: UserFunction, *args: Any) -> Any:
        return fn.runtime.invoke(fn, args, {}, prefix=(self,))

    def call(self, rt: Any, args: list, kwargs: dict) -> Any:
        fn = self.special("__call__")
        if fn is None:
            raise GradcliError(f"'{self.cls.name}' object is not callable").mirror("TypeError")
        return rt.invoke(fn, list(args), kwargs, prefix=(self,))

    def getitem(self, key: Any) -> Any:
        fn = self.special("__getitem__")
        if fn is None:
            raise GradcliError(f"'{self.cls.name}' object is not subscriptable").mirror("TypeError")
        return self.call_special(fn, key)

    def setitem(self, key: Any, value: Any) -> None:
        fn = self.special("__setitem__")
        if fn is None:
            raise GradcliError(f"'{self.cls.name}' object does not support item assignment").mirror(
                "TypeError"
            )
        self.call_special(fn, key, value)

    def program_len(self) -> int:
        fn = self.special("__len__")
        if fn is None:
            raise GradcliError(f"object of type '{self.cls.name}' has no len()").mirror("TypeError")
        n = self.call_special(fn)
        if isinstance(n, bool) or not isinstance(n, int):
            raise GradcliError(
                f"'{typename(n)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        if n < 0:
            raise GradcliError("__len__() should return >= 0").mirror("ValueError")
        return n

    def program_iter(self) -> Any:
        """`iter(obj)`: its `__iter__`'s iterator (a generator method's generator, iter() of a
        list, or an instance with `__next__`), else the old protocol of `__getitem__` with
        0, 1, 2... until IndexError, as Python."""
        fn = self.special("__iter__")
        if fn is not None:
            it = self.call_special(fn)
            if is_iterator(it):
                return it
            if isinstance(it, Instance) and it.special("__next__") is not None:
                return Generator(_next_calls(it))
            raise GradcliError(f"iter() returned non-iterator of type '{typename(it)}'").mirror(
                "TypeError"
            )
        if self.special("__getitem__") is not None:
            return Generator(_item_calls(self))
        raise GradcliError(f"'{self.cls.name}' object is not iterable").mirror("TypeError")

    def program_next(self) -> Any:
        fn = self.special("__next__")
        if fn is None:
            raise GradcliError(f"'{self.cls.name}' object is not an iterator").mirror("TypeError")
        return self.call_special(fn)

    def program_contains(self, item: Any) -> bool:
        fn = self.special("__contains__")
        if fn is not None:
            return bool(self.call_special(fn, item))
        from .operators import equal

        return any(x is item or equal(x, item) for x in self.program_iter())

    def __bool__(self) -> bool:
        fn = self.special("__bool__")
        if fn is not None:
            v = self.call_special(fn)
            if not isinstance(v, bool):
                raise GradcliError(f"__bool__ should return bool, returned {typename(v)}").mirror(
                    "TypeError"
                )
            return v
        if self.special("__len__") is not None:
            return self.program_len() != 0
        return True

    def __repr__(self) -> str:
        fn = self.special("__repr__")
        if fn is None:
            spec = _dataclass_of(self)
            if spec is not None and spec.repr:
                from .text import to_repr

                shown = ", ".join(
                    f"{f.name}={to_repr(self.attrs[f.name])}"
                    for f in spec.fields
                    if f.repr and f.name in self.attrs
                )
                return f"{self.cls.name}({shown})"
            if exception_base(self.cls) is not None:
                from .text import to_repr

                args = self.attrs.get("args", ())
                inner = ", ".join(map(to_repr, args)) if isinstance(args, tuple) else to_repr(args)
                return f"{self.cls.name}({inner})"
            return f"<__main__.{self.cls.name} object at {id(self):#x}>"
        text = self.call_special(fn)
        if not isinstance(text, str):
            raise GradcliError(f"__repr__ returned non-string (type {typename(text)})").mirror(
                "TypeError"
            )
        return text

    def program_str(self) -> str:
        fn = self.special("__str__")
        if fn is None:
            base = exception_base(self.cls)
            if base is not None:
                args = self.attrs.get("args", ())
                return X.args_text(base.name, args if isinstance(args, tuple) else (args,))
            return repr(self)
        text = self.call_special(fn)
        if not isinstance(text, str):
            raise GradcliError(f"__str__ returned non-string (type {typename(text)})").mirror(
                "TypeError"
            )
        return text


PROGRAM_INSTANCE.append(Instance)
PROGRAM_INSTANCES.append((Instance, ModuleInstance))
PROGRAM_INDEX.append(program_index)


class CallableInstance:
    """An instance of a program's class that defines `__call__`, given to gradcli's code as a
    hook (PyTorch takes any callable): calling it calls its `__call__` through the
    interpreter."""

    __slots__ = ("obj",)

    def __init__(self, obj: Instance) -> None:
        self.obj = obj

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .values import current

        return self.obj.call(current(), list(args), kwargs)

    def __repr__(self) -> str:
        return repr(self.obj)


def _as_callable(value: Any) -> Any:
    if isinstance(value, Instance) and value.special("__call__") is not None:
        return CallableInstance(value)
    return value


hooks.as_callable = _as_callable


def _next_calls(it: Instance) -> Any:
    """An iterator instance's values: its `__next__` until it raises StopIteration."""
    from . import exceptions as X

    fn = it.special("__next__")
    while True:
        try:
            v = it.call_special(fn)
        except X.ProgramError as e:
            if X.matches(e, X.CLASSES["StopIteration"]):
                return
            raise
        yield v


def _item_calls(obj: Instance) -> Any:
    """The old iteration protocol: obj[0], obj[1]... until IndexError."""
    from . import exceptions as X

    fn = obj.special("__getitem__")
    i = 0
    while True:
        try:
            v = obj.call_special(fn, i)
        except GradcliError as e:
            if X.catchable(e) and X.matches(e, X.CLASSES["IndexError"]):
                return
            raise
        yield v
        i += 1


# --- a dunder method named explicitly --------------------------------------------------------

# What a program writes in place of a dunder method (of a value whose class is not the
# program's, or a program's class that does not define it).
DUNDER_EQUIVALENT = {
    "__init__": "the class's constructor, Class(...)",
    "__call__": "obj(...)",
    "__getitem__": "obj[i]",
    "__setitem__": "obj[i] = v",
    "__len__": "len(obj)",
    "__repr__": "repr(obj)",
    "__str__": "str(obj)",
    "__iter__": "iter(obj)",
    "__next__": "next(obj)",
    "__bool__": "bool(obj)",
    "__contains__": "v in obj",
    "__index__": "operator.index(obj) or use it as an index (xs[obj])",
    "__int__": "int(obj)",
    "__float__": "float(obj)",
}


def program_dunder(rt: Any, owner: Any, attr: str, type_of: Any) -> Any:
    """`obj.__len__`, `ds.__getitem__`, `Base.__init__` (one of `PLAIN_DUNDERS`, named in the
    source): the method the program's class body defined, as `obj.name` gives it (bound to
    an instance, plain from the class). A tensor's `__len__` and `__getitem__` are `len(t)`
    and `t[i]`. Anything else is refused, naming what to write: no method of Python's own
    object model is reachable."""
    if isinstance(owner, Namespace) and attr in owner.members:
        return owner.members[attr]  # (gradcli's own table: torch.__future__)
    if isinstance(owner, (Instance, ModuleInstance, ProgramObject, FunctionInstance)):
        cls = owner.cls
        entry = cls.lookup(attr) if isinstance(cls, _Derived) else None
        if entry is not None:
            return class_value(entry, owner, cls)
        if attr == "__setattr__" and isinstance(owner, (Instance, ModuleInstance)):
            # (`obj.__setattr__(name, value)` of a class without its own: a plain store)
            base = "Module" if isinstance(owner, ModuleInstance) else "object"
            return _base_attribute_method(rt, owner, attr, base)
    elif isinstance(owner, (PlainClass, ModuleClass, OptimClass)):
        entry = owner.lookup(attr)
        if entry is not None:
            return class_value(entry, None, owner)
        if attr == "__init__":  # `Dataset.__init__(self)`: the base's, which does nothing more
            if isinstance(owner, PlainClass):
                return Builtin(f"{owner.name}.__init__", _object_init)
            if isinstance(owner, OptimClass):
                return Builtin(f"{owner.base.__name__}.__init__", _base_init_of(owner.base))
            return Builtin("Module.__init__", _module_init)
    elif isinstance(owner, Super):
        return owner.get(rt, attr)
    elif owner is surface_nn.Module and attr == "__init__":  # `nn.Module.__init__(self)`
        return Builtin("Module.__init__", _module_init)
    elif attr == "__init__" and isinstance(owner, ModuleType) and owner.library() is not None:
        # `nn.Linear.__init__(self, 2, 3)` in the __init__ of `class L(nn.Linear)`
        return Builtin(f"{owner.name}.__init__", _library_init_of(owner.name, owner.library()))
    elif attr == "__init__" and _distribution_base(owner) is not None:
        # `OneHotCategorical.__init__(self, probs=p)` in the __init__ of a program's subclass
        base = _distribution_base(owner)
        return Builtin(f"{base.__name__}.__init__", _base_init_of(base))
    elif getattr(owner, "PROGRAM_BASE", None) is not None and attr == "__init__":
        # `Optimizer.__init__(self, params, defaults)`, `LRScheduler.__init__(self, opt)`
        return Builtin(f"{owner.__name__}.__init__", _base_init_of(owner))
    elif isinstance(owner, Tensor) and attr in ("__len__", "__getitem__"):
        if attr == "__len__":
            return Builtin("Tensor.__len__", lambda: len(owner))
        return Builtin("Tensor.__getitem__", lambda key: rt.getitem(owner, key))
    if isinstance(owner, FunctionClass) and own_dunder(attr):  # `F.__helper__(x)`
        return owner.get(rt, attr)
    if own_dunder(attr):  # a name Python gives no meaning, not defined by the class
        # (a program may write a name of any length: its messages quote it cut)
        name = attr if len(attr) <= 60 else attr[:57] + "..."
        if isinstance(owner, (Instance, ModuleInstance, ProgramObject, FunctionInstance)):
            raise GradcliError(f"'{owner.cls.name}' object has no attribute '{name}'").mirror(
                "AttributeError"
            )
        if isinstance(owner, (PlainClass, ModuleClass, OptimClass)):
            raise GradcliError(f"type object '{owner.name}' has no attribute '{name}'").mirror(
                "AttributeError"
            )
        raise NotSupported(
            f"`.{name}` is not accessible in gradcli programs",
            found=f"`.{name}`",
            expected="a method the program's own class defines",
            hint="gradcli programs cannot reach Python's internals",
        )
    if isinstance(owner, Instance) and attr not in ("__init__", "__repr__", "__str__"):
        # Python's object has none of the others: its AttributeError
        raise GradcliError(f"'{owner.cls.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )
    cls = type_of(owner)  # the builtin type(): the class its message names
    shown = getattr(cls, "shown", None) or getattr(cls, "name", None) or typename(owner)
    raise NotSupported(
        f"`.{attr}` of a value of class '{shown}' is not supported in gradcli programs",
        found=f"`.{attr}`",
        expected="a dunder method the program's own class defines (`ds.__len__()` of "
        "`class Points(Dataset)` with `def __len__(self)`)",
        hint=f"write {DUNDER_EQUIVALENT.get(attr, 'the operator or builtin it stands for')}",
    )


def _object_init(obj: Any) -> None:
    if not isinstance(obj, (Instance, ModuleInstance)):
        raise GradcliError(
            f"descriptor '__init__' requires an instance of the class, not '{typename(obj)}'"
        ).mirror("TypeError")


def _distribution_base(owner: Any) -> type | None:
    """The class of torch.distributions a program names (`OneHotCategorical`, held as its
    constructor), when it is one a program's class may derive from; else None."""
    fn = getattr(owner, "fn", None)
    if not (isinstance(owner, Builtin) and isinstance(fn, type)):
        return None
    if not owner.name.startswith("torch.distributions."):
        return None
    from ..surface import distributions as DS

    return fn if fn in DS.CLASSES.values() else None


def _base_init_of(base: type) -> Any:
    def init(obj: Any = None, *args: Any, **kwargs: Any) -> None:
        if not (isinstance(obj, ProgramObject) and obj.cls.is_subclass_of(base)):
            raise GradcliError(
                f"descriptor '__init__' requires a '{base.__name__}' object but received a "
                f"'{typename(obj)}'"
            ).mirror("TypeError")
        obj.base_init(*args, **kwargs)  # type: ignore[attr-defined]

    return init


def _library_init_of(name: str, library: type) -> Any:
    """A built-in layer's __init__ called on an instance of a program's subclass of it, as
    super().__init__ would (`base_init`); anything else, Python's descriptor TypeError."""

    def init(obj: Any = None, *args: Any, **kwargs: Any) -> None:
        own = getattr(getattr(obj, "cls", None), "library", None)
        if not (isinstance(obj, ModuleInstance) and own is library):
            raise GradcliError(
                f"descriptor '__init__' requires a '{name}' object but received a '{typename(obj)}'"
            ).mirror("TypeError")
        obj.base_init(*args, **kwargs)

    return init


def _module_init(obj: Any = None, *args: Any, **kwargs: Any) -> None:
    if not isinstance(obj, ModuleInstance):
        raise GradcliError(
            f"descriptor '__init__' of 'Module' object needs an argument of a Module "
            f"subclass, not '{typename(obj)}'"
        ).mirror("TypeError")
    _module_init_of(obj)(*args, **kwargs)


def _module_init_of(obj: Any) -> Any:
    """nn.Module's __init__ for `obj` (a program's module): it takes nothing more, in
    PyTorch's words (`M.__init__() got an unexpected keyword argument 'foo'`: what a mixin's
    cooperative `super().__init__(**kwargs)` meets at the end of the chain)."""

    def init(*args: Any, **kwargs: Any) -> None:
        if isinstance(obj, ModuleInstance) and obj.cls.library is not None:
            obj.base_init(*args, **kwargs)  # the torch module's own __init__ and its checks
            return
        if kwargs:
            raise GradcliError(
                f"{obj.name}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
            ).mirror("TypeError")
        if args:
            raise GradcliError(
                f"{obj.name}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            ).mirror("TypeError")
        obj.base_init()

    return init


CLASS_KINDS.extend((ModuleClass, OptimClass, PlainClass, FunctionClass))
