"""One run of a program: its state (variables, tensors by name, printed text, warnings,
budgets) and the operations compiled code calls back for: calling a value, reading and
setting attributes and items, printing.

Nothing in a program is ever given to `eval`, `exec` or `compile`. Names resolve only to
gradcli's own values (its tensors, the PyTorch-shaped functions of `surface`, a few Python
builtins) and the program's own variables and functions. Attributes resolve only through
explicit tables (a tensor's methods and properties, a namespace's members, the methods of
Python's containers gradcli allows); there is no `getattr` on a user-chosen name, so dunders
and Python's internals are unreachable.
"""

from __future__ import annotations

import ast
import collections
import math
import sys
from collections.abc import Callable
from sys import getrefcount
from types import FunctionType, MethodType
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import QUALIFIED_MEANING, GradcliError, NotSupported, Span, suggest
from ..core import dtypes, hooks
from ..core.inplace import (
    VIEW_OF_LEAF,
    check_capture,
    check_nograd_setitem,
    check_view_setitem,
    inplace,
)
from ..core.op import Node, ShownNode, complex_casts_fail, complex_refusal, peek_seq
from ..core.sparse import SparseCOO, SparseCSR
from ..core.tensor import (
    FILLED,
    FLUSH_DENORMAL,
    GRAD_DTYPES,
    HOOK_IDS,
    HookHandle,
    Settings,
    Tensor,
    _GradMode,
    bumped,
    grad_dtype_of,
    grad_enabled,
    lend,
    own,
    pytype_name,
    typename,
    wrap,
)
from ..surface import indexing as I
from ..surface import nn as surface_nn
from ..surface import public, sampling
from ..surface.constructors import LegacyTensorType
from ..surface.printing import GradientEdge, MaxMin, Size, reset_printoptions
from ..surface.saved import is_saved_name, saved_attribute
from . import numpy_printing, pyobjects, pyrandom, text
from . import pycollections as PC
from . import pydataclasses as DC
from . import pyenum as EN
from . import pynamespace as PN
from .calls import CONVERTED, INVOKE_CODE, call_name, checked_call, is_argument_error, user_error
from .classes import (
    FunctionClass,
    FunctionInstance,
    Instance,
    LibraryClass,
    ModuleClass,
    ModuleInstance,
    OptimClass,
    PlainClass,
    ProgramObject,
    Super,
    program_index,
)
from .exceptions import ExcClass
from .namespaces import (
    FLAGS,
    JIT_ATTRIBUTES,
    SCRIPTED,
    TENSOR_METHODS,
    TENSOR_PROPERTIES,
    ProgramFunction,
    dtype_value,
    scripted_attribute,
)
from .sparsegrad import csr_attribute, sparse_attribute
from .text import to_str
from .values import (
    CURRENT,
    FUNCTION_BASE,
    FX_HOOKS,
    FX_TRACING,
    GENERIC_ORIGINS,
    PROGRAM_INSTANCES,
    RETURN,
    STDOUT,
    TENSOR_TYPE,
    BoundMethod,
    Builtin,
    Ctx,
    Device,
    DType,
    Frame,
    FunctionCode,
    Generator,
    GenericAlias,
    Missing,
    ModuleType,
    Namespace,
    ProgramExit,
    PyType,
    StdOut,
    UserFunction,
    UserGenerator,
    as_index,
    check_structure,
    short,
)

# The sandbox's run budget watches the kernel: every operation recorded or run, and every
# large tensor, is spent from it while a run (or a CLI command) has it open.
hooks.install(limits.BUDGET)


# What an attribute error calls the interpreter's own values, where it is not their class's
# name (`typename`): a Python method hands a missing attribute to its function ('function'
# object has no attribute ...), a C method (`x.sum`) answers for itself.
_PYTHON_NAMES = {"method": "function"}


class Runtime:
    """One run of a program (`Program.run` makes one and reads what it leaves behind).

    see_through  user functions with a custom gradient run their forward body as ordinary,
                 recorded operations (True: all of them; a predicate: those whose name it
                 accepts), so that the graph holds what `f` computes;
    promote      float32 leaves are promoted to float64 when they are assigned (their names
                 are kept in `promoted`), so that finite differences run in float64.
    """

    MAX_WARNINGS = 5

    def __init__(
        self,
        program: Any,
        overrides: dict[str, np.ndarray],
        dtype: Any,
        seed: int,
        echo: Callable[[str], None] | None,
        *,
        see_through: bool | Callable[[str], bool] = False,
        promote: bool = False,
    ):
        self.program = program
        self.see_through = see_through if callable(see_through) else lambda name: see_through
        self.promote = promote
        self.promoted: list[str] = []
        self.source = program.source
        self.overrides = dict(overrides)
        self.applied: dict[str, bool] = {}
        self.echo = echo
        self.output: list[str] = []
        self.globals: dict[str, Any] = {}
        self.tensors: dict[str, Tensor] = {}
        # Names in the order they were last assigned (a dict: moving one to the end is O(1)).
        self.order: dict[str, None] = {}
        # Where each tensor name was last assigned (for the non-finite warnings at the end).
        self.assigned_at: dict[str, ast.AST] = {}
        self.last_assigned: str | None = None
        self.iterations = 0
        self.call_depth = 0
        self.output_bytes = 0
        self.warnings: list[str] = []
        self.warned: set[str] = set()
        self.warning_filters: list = []  # the program's warnings filters (`pywarnings`)
        # id -> (class, docstring) of the classes the program made (`Cls.__doc__`)
        self.class_docs: dict[int, tuple[Any, str | None]] = {}
        self._warned_at: set[str] = set()  # the warnings shown, with their places
        # `warnings.catch_warnings(record=True)`: the list the innermost one collects into
        self.warning_record: list | None = None
        self._python_warned: set[str] = set()  # Python's registry of warnings shown
        self.call_sites: list[ast.AST | None] = []  # the statements calling the user functions
        self.more_warnings = 0
        # What torch.save kept, by path (a program writes no files; torch.load reads these).
        self.saved_files: dict[str, Any] = {}
        # path -> the class torch.load's weights_only unpickler would refuse in it, or None
        self.saved_globals: dict[str, str | None] = {}
        # `logging`'s loggers and configuration for this run (`pylogging.State`, made on use)
        self.logging: Any = None
        # `sys.argv` (made on use: the program's name) and a line sys.stderr has not ended yet
        self.argv: list | None = None
        # `sys.path` (made on use): the program's own list, so that a notebook's
        # `sys.path.append("..")` runs; no import ever reads it
        self.sys_path: list | None = None
        self.stderr_text = ""
        # The errors the program's `except` blocks are handling (a bare `raise` re-raises).
        self.handling: list[GradcliError] = []
        # The statement running (a warning from below the language points at it).
        self._stmt: ast.AST | None = None
        # (the sequence number of the next recorded node, the statement running from then
        # on): which line recorded each node (`Run.node_line`, for NaN provenance).
        self.marks: list[tuple[int, ast.AST | None]] = []
        # The analysis commands run in float64 unless told otherwise; random draws are made in
        # PyTorch's default (float32) either way, so they are PyTorch's numbers.
        Settings.default_dtype = np.dtype(dtype or np.float64)
        Settings.draw_dtype = np.dtype(np.float32)
        Settings.seed = int(seed) % 2**64
        Settings.overwrite_module_params = Settings.swap_module_params = False
        FLUSH_DENORMAL[0] = False  # (torch.set_flush_denormal lasts for one run)
        Settings.deterministic, Settings.fill_uninitialized_memory = False, True
        Settings.validate_distributions = True  # (set_default_validate_args: for one run)
        sampling.reset(seed)
        pyrandom.reset(seed)  # Python's random and numpy.random: from --seed too
        for flags in FLAGS:
            flags.reset()
        reset_printoptions()  # torch.set_printoptions lasts for one run
        numpy_printing.reset()  # and numpy.set_printoptions
        for hooks_of_kind in surface_nn.GLOBAL_HOOKS.values():  # and the global module hooks
            hooks_of_kind.clear()
        HOOK_IDS[0] = 0  # (the hook handles' numbers: PyTorch's count from 0 in a process)
        if "gradcli.surface.mutation" in sys.modules:  # no allow_mutation_on_saved_tensors
            sys.modules["gradcli.surface.mutation"].reset()
        if "gradcli.surface.attention" in sys.modules:  # the attention backends' switches
            sys.modules["gradcli.surface.attention"].reset_backends()
        if "gradcli.surface.dist_kl" in sys.modules:  # the pairs register_kl added
            sys.modules["gradcli.surface.dist_kl"].reset()
        if "gradcli.lang.amp" in sys.modules:  # the autocast dtypes a block set
            sys.modules["gradcli.lang.amp"].reset()
        if "gradcli.lang.compiling" in sys.modules:  # torch._dynamo.config's settings
            sys.modules["gradcli.lang.compiling"].reset()

    # -- driver --
    def execute(self) -> None:
        import warnings

        from ..core.tensor import _GradMode, grad_enabled
        from .gradmode import set_grad_mode

        mode = grad_enabled()
        CURRENT.append(self)
        previous_sink = hooks.warning_sink
        hooks.warning_sink = self.kernel_warning
        try:
            with limits.BUDGET.run(), warnings.catch_warnings(), np.errstate(all="ignore"):
                # NumPy's RuntimeWarnings (overflow, division by zero) would print to stderr
                # from inside gradcli; non-finite results are reported by `check_finite`.
                warnings.simplefilter("ignore", RuntimeWarning)
                complex_casts_fail()
                try:
                    self.program.code(Frame(self.globals, None, self))
                except ProgramExit:
                    pass  # exit() / exit(0): the run ends here, as at the last line
        finally:
            CURRENT.pop()
            hooks.warning_sink = previous_sink
            # A program may leave grad mode off (`torch.set_grad_enabled(False)`).
            set_grad_mode(mode)
            _GradMode.inference = _GradMode.anomaly = _GradMode.vmap_keep = False
            _GradMode.vmap_quiet = False
            _GradMode.vmapped.clear()
            _GradMode.repeats.clear()
            _GradMode.anomaly_nan = _GradMode.grad_layout = True
            from . import gradmode

            gradmode.COMPILE_USED[0] = False
            if hooks.saved_hooks is not None or hooks.saved_pending:
                from ..surface import saved_hooks

                saved_hooks.reset()  # a run ended inside saved_tensors_hooks
            SCRIPTED.clear()
            library = sys.modules.get("gradcli.lang.library")
            if library is not None:
                library.OPS.clear()  # (the custom operators the run defined)
            parametrize = sys.modules.get("gradcli.surface.parametrize")
            if parametrize is not None:
                parametrize.reset()  # a run ended inside parametrize.cached()
        for name, t in self.tensors.items():
            self.check_finite(f"`{name}`", t, self.assigned_at.get(name))
        self.check_grads()
        for name in self.overrides:
            if name not in self.applied:
                raise GradcliError(
                    f"--set {name}: the program assigns no tensor named `{name}`",
                    found=f"`{name}`",
                    expected="one of: " + ", ".join(f"`{n}`" for n in self.tensors),
                    hint=suggest(name, self.tensors),
                ).mirror(None)

    @property
    def current_stmt(self) -> ast.AST | None:
        """The statement running (innermost); setting it marks where its nodes start."""
        return self._stmt

    @current_stmt.setter
    def current_stmt(self, stmt: ast.AST | None) -> None:
        self._stmt = stmt
        seq, marks = peek_seq(), self.marks
        if marks and marks[-1][0] == seq:  # nothing recorded since the last mark
            marks[-1] = (seq, stmt)
        else:
            marks.append((seq, stmt))

    def span(self, node: ast.AST | None) -> Span | None:
        return None if node is None else self.source.span(node)

    def error(self, node: ast.AST | None, message: str, **kw: Any) -> GradcliError:
        return GradcliError(message, span=self.span(node), **kw)

    # -- top-level tensors --
    def record(self, name: str, t: Tensor, node: ast.AST) -> Tensor:
        """A top-level tensor assignment: apply `--set` (and `promote`), remember the name."""
        if (
            self.promote
            and t.node is None
            and (t.data.dtype == np.float32 or t.data.dtype == dtypes.BF16)
        ):
            t.data = t.data.astype(np.float64)
            if name not in self.promoted:
                self.promoted.append(name)
        if self.overrides and name in self.overrides and name not in self.applied:
            self.override(name, t, node)
        if t.name is None:
            t.name = name
        self.tensors[name] = t
        self.assigned_at[name] = node
        if name != self.last_assigned:  # (the last assigned name is already last in `order`)
            order = self.order
            if name in order:
                del order[name]
            order[name] = None
            self.last_assigned = name
        return t

    def override(self, name: str, t: Tensor, node: ast.AST) -> None:
        new = self.overrides[name]
        if t.node is not None:
            raise self.error(
                node,
                f"--set {name}: `{name}` is computed by the program",
                hint="--set replaces the data of tensors the program creates (leaves)",
            ).mirror(None)
        if callable(new):  # values to read against the tensor's shape and dtype
            new = new(t)
        if new.shape != t.shape:
            if new.size == t.data.size:
                new = new.reshape(t.shape)
            else:
                raise self.error(
                    node,
                    f"--set {name}: {new.size} values given but `{name}` has shape "
                    f"{list(t.shape)} ({t.data.size} elements)",
                ).mirror(None)
        old = t.data
        if (
            type(new) is np.ndarray
            and new.dtype == old.dtype
            and new.shape == old.shape
            and new.flags.c_contiguous
            and new.flags.aligned
            and new.dtype.isnative
            and t._base is None
            and t._vc is None
            and not t._inf
        ):
            # The caller's array lent to the leaf, read-only, copied on the leaf's first write
            # (`core.tensor.lend`): no copy of a large input the program only reads.
            lend(t, new)
        elif (
            type(old) is np.ndarray
            and old.flags.owndata
            and old.flags.writeable
            and old.flags.c_contiguous
            and old.shape == new.shape
            and t._base is None
            and getrefcount(old) == 3  # the tensor, `old`, getrefcount's argument: no alias
        ):
            # the leaf's own fresh array (its constructor's): the values copied into it, no
            # second array of the data's size (its pages are already mapped)
            np.copyto(old, new, casting="unsafe")
        else:
            t.data = np.array(new, dtype=t.dtype)
        self.applied[name] = True

    # -- calls --
    def call(self, callee: Any, args: list, kwargs: dict, node: ast.AST) -> Any:
        if FX_TRACING[0] is not None:  # (torch.fx.symbolic_trace: a node instead of a call)
            out = FX_HOOKS["intercept_call"](self, callee, args, kwargs, node)
            if out is not FX_HOOKS["pass"]:
                return out
        kind = type(callee)
        if kind is BoundMethod:
            return checked_call(
                callee.fn, [callee.obj, *args], kwargs, callee.name, True, callee.raw
            )
        if kind is Builtin:
            return checked_call(callee.fn, args, kwargs, callee.name, False, callee.raw)
        if kind is FunctionType:
            return checked_call(callee, args, kwargs, lambda: call_name(node, callee), False, None)
        if kind is UserFunction:
            return self.call_user(callee, args, kwargs)
        if kind is ExcClass:
            return callee(*args)
        if kind is PyType:
            if callee.convert is None:
                shown = "torch.tensor" if callee.shown == "torch.Tensor" else callee.shown
                raise NotSupported(
                    f"calling the class {callee.shown} that type() gave is not supported",
                    hint=f"call {shown}(...) by its name",
                )
            return checked_call(callee.convert, args, kwargs, callee.name, False, True)
        if kind is ModuleType:
            return checked_call(callee.convert, args, kwargs, callee.name, False, None)
        if kind is ModuleInstance or kind is Instance:
            return callee.call(self, args, kwargs)
        if kind is ModuleClass or kind is PlainClass or kind is LibraryClass:
            return callee.instantiate(self, args, kwargs)
        if kind is FunctionClass or kind is OptimClass:
            return callee.instantiate(self, args, kwargs)
        if isinstance(callee, type) and getattr(callee, "PROGRAM_BASE", None) is not None:
            # `torch.optim.Optimizer(params, defaults)`: the base, as PyTorch allows
            return checked_call(callee, args, kwargs, callee.__name__, False, None)
        if callee is surface_nn.Module:  # `nn.Module()`: an empty container to fill
            return checked_call(surface_nn.Module, args, kwargs, "Module", False, None)
        if isinstance(callee, surface_nn.Module):
            return checked_call(
                type(callee).__call__, [callee, *args], kwargs, callee.name, True, None
            )
        if kind is Namespace:
            raise NotSupported(
                f"`{callee.name}` is not supported by gradcli (a module, or a part of torch "
                "gradcli does not have): it cannot be called",
                hint="see `gradcli ops` and the README for what is supported",
            )
        if callable(callee) and not isinstance(callee, (type, Namespace)):
            if hasattr(callee, "__gradcli_call__"):
                return callee.__gradcli_call__(self, args, kwargs)
            return checked_call(callee, args, kwargs, lambda: call_name(node, callee), False, None)
        if kind is Node:
            if callee.op.kind == "custom":  # a Function's node: its backward (as `.apply`)
                vjp = callee.params["_vjp"]
                return checked_call(
                    getattr(vjp, "raw", vjp), args, kwargs, callee.name(), False, False
                )
            from ..core.autograd import call_node

            return call_node(callee, args, kwargs)
        raise GradcliError(f"'{typename(callee)}' object is not callable").mirror("TypeError")

    def call_user(self, f: UserFunction, args: Any, kwargs: dict) -> Any:
        code = f.code
        if code.owner is None and f.closure is None and not code.expression:
            backward_fn = self.globals.get(f"{code.name}_backward")
            if type(backward_fn) is UserFunction and not code.name.endswith("_backward"):
                return self.custom_gradient(f, backward_fn, list(args), kwargs)
        return self.invoke(f, args, kwargs)

    def invoke(self, f: UserFunction, args: Any, kwargs: dict, prefix: tuple = ()) -> Any:
        """Run a user function (or lambda) with these arguments, under the call-depth limit."""
        code = f.code
        if prefix:
            args = (*prefix, *args)
        if code.simple and not kwargs and len(args) == len(code.positional):
            local = dict(zip(code.positional, args))
        else:
            local = bind_arguments(f, args, kwargs)
        # A tick per call: a lambda's body is an expression, not a statement that ticks, and
        # builtins such as map() call it in a loop the interpreter never sees.
        limits.BUDGET.tick()
        if code.generator:
            # A generator function's call binds its arguments and makes the generator: its
            # body runs as the generator is consumed.
            mode_block = None
            if f.grad_mode is not None:
                from .gradmode import grad_mode_block

                mode = f.grad_mode
                mode_block = lambda: grad_mode_block(mode)  # noqa: E731
            return UserGenerator(f, Frame(local, f.closure, self), self, mode_block)
        pushed = self.enter_call()
        frame = Frame(local, f.closure, self)
        outer = self._stmt
        self.call_sites.append(outer)  # (a warning's stacklevel=2 names the caller's line)
        try:
            if f.grad_mode is not None:
                from .gradmode import grad_mode_block

                if hasattr(f.grad_mode, "returned"):
                    f.grad_mode._args = (args, kwargs)  # (a compiled function's guards)
                with grad_mode_block(f.grad_mode):
                    r = code.body(frame)
            else:
                r = code.body(frame)
        finally:
            self.call_sites.pop()
            self.leave_call(pushed, outer)
        value = r if code.expression else frame.ret if r is RETURN else None
        if f.grad_mode is not None and hasattr(f.grad_mode, "returned"):
            f.grad_mode.returned(
                value, (args, kwargs)
            )  # (a compiled function's outputs: their grad_fn)
        return value

    def enter_call(self) -> bool:
        """A user function's body (or a generator's resumption) starts: one level deeper under
        the call-depth limit, this run the current one; whether it was pushed."""
        self.call_depth += 1
        if self.call_depth > limits.CALL_DEPTH.value:
            self.call_depth = 0
            limits.CALL_DEPTH.check(limits.CALL_DEPTH.value + 1, "the depth of function calls")
        pushed = not CURRENT or CURRENT[-1] is not self
        if pushed:
            CURRENT.append(self)
        return pushed

    def leave_call(self, pushed: bool, outer: Any) -> None:
        """The body `enter_call` began ends: back in the statement that called it."""
        self.call_depth = max(0, self.call_depth - 1)
        if pushed:
            CURRENT.pop()
        if self._stmt is not outer:
            self.current_stmt = outer

    def custom_gradient(self, f: UserFunction, fb: UserFunction, args: list, kwargs: dict) -> Any:
        """`f` with a companion `f_backward(inputs..., grad)`: f's VJP is the user's."""
        if self.see_through(f.name):
            return self.invoke(f, args, kwargs)
        inputs = [a for a in args if isinstance(a, Tensor)]

        def forward() -> Any:
            return self.invoke(f, args, kwargs)

        def vjp(g: Tensor) -> Any:
            return self.invoke(fb, [*args, g], {})

        from ..ops.custom import custom_apply

        return custom_apply(f.name, inputs, forward, vjp)

    # -- attributes --
    def attribute(self, owner: Any, attr: str) -> Any:
        """`owner.attr`, through the tables of what each kind of value exposes."""
        if isinstance(owner, Tensor):
            if surface_nn.LAZY[0] and type(owner) in surface_nn.UNINITIALIZED:
                found = _uninitialized_attribute(owner, attr)
                if found is not None:
                    return found
            prop = TENSOR_PROPERTIES.get(attr)
            if prop is not None:
                return prop(owner)
            own = getattr(owner, "_attrs", None)
            if own is not None and attr in own:  # the program's own (before the methods, as
                return own[attr]  # an instance's __dict__ comes before its class's functions)
            method = dict.get(TENSOR_METHODS, attr) or TENSOR_METHODS.get(attr)  # (as above)
            if method is not None:
                return BoundMethod(attr, method, owner)
            known = bool(public.has("Tensor", attr))  # PyTorch's, not gradcli's
            names = list(TENSOR_METHODS) + list(TENSOR_PROPERTIES)
            hint = QUALIFIED_MEANING.get(f"torch.{attr}") or suggest(
                attr, names, meaning=True, known=known
            )
            if known:
                raise NotSupported(
                    f"`Tensor.{attr}` is not supported by gradcli",
                    found=f"`.{attr}`",
                    expected="a tensor method or property (see `gradcli ops`)",
                    hint=hint,
                )
            raise GradcliError(  # a name PyTorch does not have either: Python's error
                f"'{'Parameter' if isinstance(owner, surface_nn.Parameter) else 'Tensor'}' object "
                f"has no attribute '{attr}'",
                found=f"`.{attr}`",
                hint=hint,
            ).mirror("AttributeError")
        if SCRIPTED and attr in JIT_ATTRIBUTES and id(owner) in SCRIPTED:
            return scripted_attribute(self, owner, attr)  # `m.code` of torch.jit.script(m)
        kind = type(owner)
        if kind is Namespace:
            members = owner.members
            # The table as it is first (a LazyTable's `in` is a Python call), then through
            # its `in`, which imports the family of a name not imported yet.
            if dict.__contains__(members, attr) or attr in members:
                return members[attr]
            if attr == "__name__":  # `lr_scheduler.__name__`: the module's dotted name
                return "Function" if owner is FUNCTION_BASE else owner.name
            if public.has(owner.name, attr) is False and not attr.startswith("_"):
                # torch.autograd.jacobian: no such name in PyTorch either (Python's error)
                raise GradcliError(
                    f"module '{owner.name}' has no attribute '{attr}'",
                    found=f"`{owner.name}.{attr}`",
                    hint=suggest(attr, owner.members, meaning=True),
                ).mirror("AttributeError")
            hint = QUALIFIED_MEANING.get(f"{owner.name}.{attr}") or suggest(
                attr, owner.members, meaning=True, known=True
            )
            raise NotSupported(
                f"`{owner.name}.{attr}` is not supported by gradcli",
                found=f"`{owner.name}.{attr}`",
                expected="a supported operation (see `gradcli ops`)",
                hint=hint,
            )
        if kind is ModuleInstance:
            if FX_TRACING[0] is not None:  # a parameter read while torch.fx traces: get_attr
                return FX_HOOKS["module_attribute"](owner, owner.get(self, attr))
            return owner.get(self, attr)
        if kind is UserFunction and owner.attrs is not None and attr in owner.attrs:
            return owner.attrs[attr]
        handler = _ATTRIBUTES.get(kind) or getattr(kind, "runtime_attribute", None)
        if handler is not None:  # (a class's own: `lang.jit`'s modules, imported when used)
            return handler(self, owner, attr)
        if isinstance(owner, ProgramObject):  # a program's Optimizer subclass's instance
            return owner.get(self, attr)
        if isinstance(owner, (MaxMin, GradientEdge)) and attr in owner.fields:
            return owner[owner.fields.index(attr)]
        if attr == "_metadata" and isinstance(owner, collections.OrderedDict):
            meta = getattr(owner, "_metadata", None)  # (a state dict's saved versions)
            if meta is not None:
                return meta
        method = pyobjects.method(owner, attr)
        if method is not None:
            return method
        # Objects of the PyTorch surface list what a program may reach: a module answers for
        # its own attributes (parameters, submodules, methods, and of the names with an
        # underscore its registered entries (spectral_norm's `_u`), tables and PyTorch's
        # settings), a Generator names its methods.
        if hasattr(type(owner), "program_attribute") and (
            not attr.startswith("_")
            or isinstance(owner, surface_nn.Module)
            # (a PyTorch object's own underscored fields programs read: a scheduler's
            # `_last_lr`; never a dunder. An object listing PROGRAM_ATTRIBUTES reads its
            # fields below: LBFGS's `_params`)
            or (
                attr in getattr(type(owner), "PROGRAM_UNDERSCORED", ())
                and "__" not in attr
                and getattr(type(owner), "PROGRAM_ATTRIBUTES", None) is None
            )
        ):
            if FX_TRACING[0] is not None:  # (torch.fx: a module's parameter read, get_attr)
                return FX_HOOKS["module_attribute"](owner, owner.program_attribute(attr))
            return owner.program_attribute(attr)
        if kind is Node and is_saved_name(attr):
            return saved_attribute(owner, attr)
        if kind is Node and attr == "apply" and owner.op.kind == "custom":
            # A custom Function's node runs the user's backward on the gradients given (as
            # PyTorch's BackwardCFunction.apply), returning what it returns.
            vjp = owner.params["_vjp"]
            return Builtin(f"{owner.name()}.apply", getattr(vjp, "raw", vjp), raw=False)
        allowed = getattr(type(owner), "PROGRAM_ATTRIBUTES", None)
        if allowed is not None and (
            (attr in allowed and not attr.startswith("_"))
            # (a PyTorch object's own underscored fields programs read: a pruning hook's
            # `_tensor_name`; never a dunder)
            or (attr in getattr(type(owner), "PROGRAM_UNDERSCORED", ()) and "__" not in attr)
        ):
            value = getattr(owner, attr)
            if attr == "device" and isinstance(value, str):
                # (surface objects keep their device as text; programs see a torch.device)
                return Device.make(value)
            if attr == "dtype" and getattr(type(owner), "DTYPE_IS_TORCH", False):
                # (a storage's: torch.float32; NumPy objects' stay NumPy's)
                return dtype_value(value)
            if callable(value):
                if hasattr(owner, "next_functions"):
                    # a graph node's method prints as PyTorch's C++ node's, named by the node
                    return BoundMethod(
                        attr,
                        _node_method(attr),  # (one function a name: nothing cached holds
                        owner,  # the node, which a hook on it may need to outlive)
                        shown=owner.name().removeprefix("torch::autograd::"),
                    )
                return Builtin(f"{typename(owner)}.{attr}", value, raw=False)
            return value
        if (
            kind is Builtin
            and (isinstance(owner.fn, type) or hasattr(owner.fn, "program_class_attribute"))
            and not attr.startswith("_")
        ):
            # a class of PyTorch's surface read as a class (`D.Normal.arg_constraints`)
            hook = getattr(owner.fn, "program_class_attribute", None)
            found = None if hook is None else hook(attr)
            if found is not None:
                return found
        if attr == "__name__":
            program_name = getattr(owner, "program_name", None)
            if program_name is not None:
                return program_name()
            name = getattr(owner, "name", None)
            if isinstance(name, str) and isinstance(
                owner,
                (
                    PyType,
                    ExcClass,
                    UserFunction,
                    ModuleClass,
                    OptimClass,
                    FunctionClass,
                    LegacyTensorType,
                ),
            ):
                return name
            found = _public_name(owner)
            if found is not None:
                return found
        if kind is Node and owner.op.kind == "custom" and not attr.startswith("__"):
            # PyTorch's node of a Function is its ctx: `y.grad_fn.saved_tensors`, what forward
            # set on ctx (`y.grad_fn.constant`), `needs_input_grad`
            ctx = getattr(owner.params.get("_vjp"), "ctx", None)
            if ctx is not None:
                if owner.freed and attr in ("saved_tensors", "saved_variables"):
                    from ..core.autograd import SECOND_BACKWARD

                    raise GradcliError(SECOND_BACKWARD).mirror("RuntimeError").pytorch()
                return _ctx_attribute(self, ctx, attr)
        if isinstance(owner, (ExcClass, LegacyTensorType)):  # a class, in Python's words
            cls = owner.name if isinstance(owner, ExcClass) else f"torch.{owner.name}"
            raise GradcliError(
                f"type object '{cls}' has no attribute '{attr}'", found=f"`.{attr}`"
            ).mirror("AttributeError")
        # 'MulBackward0' object (a node shown in `next_functions` too: PyTorch's name)
        shown = owner.name() if kind is Node or kind is ShownNode else typename(owner)
        # The interpreter's own classes by the names Python gives what they stand for.
        shown = _PYTHON_NAMES.get(shown, shown)
        if shown == "GradMode":
            shown = getattr(owner, "name", shown)  # 'no_grad' object
        raise GradcliError(
            f"'{shown}' object has no attribute '{attr}'", found=f"`.{attr}`"
        ).mirror("AttributeError")

    def set_attribute(self, owner: Any, attr: str, value: Any) -> None:
        if isinstance(owner, Tensor):
            set_tensor_attribute(owner, attr, value)
            return
        if _GradMode.repeats:
            pyobjects.repeated_attribute(owner, attr, value)
        kind = type(owner)
        if (
            kind is ModuleInstance
            or kind is Instance
            or kind is PlainClass
            or kind is LibraryClass
            or kind is ModuleClass
            or kind is OptimClass
        ):
            owner.set(self, attr, value)
            return
        if isinstance(owner, ProgramObject):
            owner.set(self, attr, value)
            return
        if kind is Ctx:
            owner.attrs[attr] = value
            return
        if kind is FunctionInstance:  # a legacy Function's __init__: self.lambd = lambd
            owner.set(self, attr, value)
            return
        if kind is UserFunction:  # `add.make_vjp = add_make_vjp`: the function's own attribute
            owner.set_attribute(attr, value)
            return
        if kind is PC.Record:  # a named tuple's fields are read-only (Python 3.11's words)
            raise GradcliError("can't set attribute").mirror("AttributeError")
        if hasattr(type(owner), "program_set") and (
            not attr.startswith("_") or isinstance(owner, surface_nn.Module)
        ):
            # `model.fc = nn.Linear(...)`, `bn.momentum = 0.01`, `cudnn.deterministic = True`
            owner.program_set(attr, value)
            return
        if attr == "_metadata" and kind is collections.OrderedDict:
            owner._metadata = value  # (a state dict's versions: `sd._metadata = metadata`)
            return
        if owner is None or kind in (bool, int, float, complex, str, list, tuple, dict, set):
            # Python's own words for its built-in values (`x.grad.foo = 1` when grad is None)
            raise GradcliError(
                f"'{typename(owner)}' object has no attribute '{attr}'", found=f"`.{attr}`"
            ).mirror("AttributeError")
        raise GradcliError(
            f"cannot set attribute `{attr}` of a {typename(owner)} here",
            expected="attributes of tensors (.grad, .data, .requires_grad), of ctx, and of "
            "the instances of your classes (self.name = value)",
        ).mirror("AttributeError")

    # -- items --
    def getitem(self, owner: Any, key: Any) -> Any:
        if PROGRAM_INSTANCES and isinstance(owner, _INDEXED):
            key = _program_indices(key, isinstance(owner, Tensor))
        if isinstance(owner, Tensor):
            try:
                return I.getitem(owner, I.program_key(key))
            except CONVERTED as e:
                if not is_argument_error(e):
                    raise
                raise user_error(e, None, "invalid index") from e
        if isinstance(owner, (list, tuple, str, range, bytes)):
            if isinstance(key, (Tensor, np.integer, bool)):  # by its __index__, as Python's
                key = int(as_index(key))
            if isinstance(key, bool) or not isinstance(key, (int, slice)):
                raise GradcliError(
                    f"{typename(owner)} indices must be integers or slices, not {typename(key)}"
                ).mirror("TypeError")
            try:
                if type(owner) is Size and isinstance(key, slice):
                    return Size(owner[key])  # torch.Size's slices are torch.Sizes
                return owner[key]
            except IndexError:
                what = "string " if isinstance(owner, str) else f"{typename(owner)} "
                what = "" if isinstance(owner, bytes) else what
                raise GradcliError(
                    f"{what}index out of range", hint=f"it has {len(owner)} items"
                ).mirror("IndexError") from None
        if isinstance(owner, dict):
            try:
                return owner[pyobjects.hashable(key)]
            except KeyError:
                from .exceptions import CLASSES, ProgramError

                raise ProgramError(CLASSES["KeyError"](key)) from None
            except TypeError as e:
                raise GradcliError(str(e)).mirror("TypeError") from None
        if isinstance(owner, np.ndarray):
            return pyobjects.array_item(owner, key)
        if hasattr(type(owner), "program_getitem"):  # nn.Sequential, ModuleList, ModuleDict
            return owner.program_getitem(key)
        if type(owner) is Instance:
            return owner.getitem(key)
        if type(owner) is PyType and owner.name in GENERIC_ORIGINS and owner.convert is not None:
            return GenericAlias(owner, key)  # a type hint: `tuple[torch.Tensor, ...]`
        if isinstance(owner, Missing):  # `from sys import modules; modules[...]`
            raise owner.refuse()
        message = f"'{pytype_name(owner)}' object is not subscriptable"
        raise GradcliError(message).mirror("TypeError")

    def setitem(self, owner: Any, key: Any, value: Any, target: ast.AST, rebind: Any) -> None:
        """`owner[key] = value`. `rebind(new)` rebinds the name `owner` came from (the
        differentiable assignment makes a new tensor), or is None when it is not a name."""
        if PROGRAM_INSTANCES and isinstance(owner, _INDEXED):
            key = _program_indices(key)
        if isinstance(owner, Tensor):
            set_tensor_item(self, owner, I.program_key(key, value), value, rebind)
            return
        if isinstance(owner, np.ndarray):
            pyobjects.set_array_item(owner, key, value)
            return
        if isinstance(owner, (list, dict)):
            pyobjects.vmap_outer_change(owner, "an item assignment")
        if isinstance(owner, list):
            if isinstance(key, (Tensor, np.integer, bool)):  # by its __index__, as Python's
                key = int(as_index(key))
            if isinstance(key, bool) or not isinstance(key, (int, slice)):
                raise GradcliError(
                    f"list indices must be integers or slices, not {typename(key)}"
                ).mirror("TypeError")
            if isinstance(key, slice):
                items = pyobjects.as_list(value, "the slice assignment")
                limits.LIST_ITEMS.check(len(owner) + len(items), "the length of the list")
                value = items
            try:
                owner[key] = value
            except IndexError:
                raise GradcliError("list assignment index out of range").mirror(
                    "IndexError"
                ) from None
            except ValueError as e:
                raise GradcliError(str(e)).mirror("ValueError") from None
            return
        if isinstance(owner, surface_nn.ModuleEntries):
            pyobjects.set_module_entry(owner, key, value)
            return
        if isinstance(owner, dict):
            if pyobjects.hashable(key) not in owner:
                limits.LIST_ITEMS.check(len(owner) + 1, "the number of items in the dict")
            try:
                owner[key] = value
            except TypeError as e:
                raise GradcliError(str(e)).mirror("TypeError") from None
            return
        if hasattr(type(owner), "program_setitem"):  # nn.Sequential, ModuleList, ModuleDict
            owner.program_setitem(key, value)
            return
        if type(owner) is Instance:
            owner.setitem(key, value)
            return
        raise GradcliError(f"'{typename(owner)}' object does not support item assignment").mirror(
            "TypeError"
        )

    # -- printing --
    def do_print(self, *args: Any, sep: Any = " ", end: Any = "\n", file: Any = None,
                 flush: bool = False) -> None:  # fmt: skip
        if file is not None and not isinstance(file, StdOut):  # (sys.stdout: the output)
            raise NotSupported(
                "print(file=...) is not supported: a gradcli program prints "
                "only to standard output",
                hint="drop the file= argument",
            )
        for what, v in (("sep", sep), ("end", end)):
            if v is not None and not isinstance(v, str):
                raise GradcliError(f"{what} must be None or a string, not {typename(v)}").mirror(
                    "TypeError"
                )
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        budget = limits.OUTPUT_BYTES.value - self.output_bytes
        parts = []
        size = len(end) - (len(sep) if args else 0)
        for a in args:
            # Each item shows as at least one character and a separator: refuse a print too
            # large for the budget before making its text.
            least = 3 * check_structure(a, "print()", tensor_cost=100)
            if size + least > budget:
                limits.OUTPUT_BYTES.check(
                    self.output_bytes + size + least,
                    "the output the program prints, in characters,",
                )
            text = to_str(a)
            size += len(text) + len(sep)
            if size > budget:
                limits.OUTPUT_BYTES.check(
                    self.output_bytes + size, "the output the program prints, in characters,"
                )
            parts.append(text)
        if _GradMode.vmap_quiet:
            # A vmapped function's later elements: PyTorch runs it once, it prints once.
            return
        text = sep.join(parts) + end
        if file is not None and file is not STDOUT:  # print(..., file=sys.stderr)
            file.write(text)
            return
        self.output_bytes += len(text)
        limits.OUTPUT_BYTES.check(
            self.output_bytes, "the output the program prints, in characters,"
        )
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate ("\ud800") cannot be written out
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
        self.output.append(text)
        if self.echo is not None:
            self.echo(text)

    # -- warnings --
    def warn(self, message: str, node: ast.AST | None = None, dedup: bool = True) -> None:
        """A warning for the user (the CLI writes them to stderr after the run)."""
        if len(self.warnings) < self.MAX_WARNINGS:
            span = self.span(node)
            where = f"{span.where()}: " if span is not None else ""
            text = f"{where}warning: {message}"
            # Python's default filter: a warning is shown once for each place it comes from
            # (a loop warns on its first pass only)
            if not dedup or span is None or text not in self._warned_at:
                if span is not None:
                    self._warned_at.add(text)
                self.warnings.append(text)
        else:
            self.more_warnings += 1

    def kernel_warning(self, message: str, hint: str | None, once: bool | str = False) -> None:
        """A warning PyTorch gives (from below the language), at the statement running: a
        UserWarning, or the category PyTorch's Python code gives it (`_CATEGORIES`)."""
        category = "UserWarning"
        if message.startswith(_CATEGORY_STARTS):
            category = next(c for start, c in _CATEGORIES if message.startswith(start))
        if self.warning_filters and self.filtered(message, category, "torch"):
            return
        if once:
            key = once if isinstance(once, str) else message
            if key in self.warned:
                return
            self.warned.add(key)
        self.python_warning(message, category, "torch", hint)

    def python_warning(
        self,
        message: str,
        category: str,
        module: str = "__main__",
        hint: str | None = None,
        stacklevel: int = 1,
    ) -> None:
        """A warning of Python's `warnings` machinery (the program's `warnings.warn`, a
        deprecation PyTorch warns of) at the statement running: the program's filters decide
        (an error raises it; "always" shows each one, "once" the first of its text, the
        default the first at each place); shown on stderr, or collected by a
        `catch_warnings(record=True)`."""
        from .pywarnings import action_for

        action = action_for(message, category, module, self.warning_filters)
        if action == "error":
            raise GradcliError(message).mirror(category).pytorch()
        if action == "ignore":
            return
        node = self.current_stmt
        if stacklevel > 1 and self.call_sites:
            # the statement of the caller `stacklevel - 1` calls out (the outermost one where
            # the stack is not that deep)
            node = self.call_sites[-min(stacklevel - 1, len(self.call_sites))]
        span = self.span(node)
        if action != "always" and (span is not None or action != "default"):
            key = {
                "once": f"once:{category}:{message}",
                "module": f"module:{category}:{module}:{message}",
            }.get(action, f"{span.source.name}:{span.line}" if span else "")
            key += f":{category}:{message}"  # (Python's registry: text, category, line)
            if key in self._python_warned:
                return
            self._python_warned.add(key)
        if self.warning_record is not None:
            self.record_warning(message, category, node)
            return
        self.warn(message + (f"\n  hint: {hint}" if hint else ""), node, dedup=False)

    def record_warning(self, message: str, category: str, node: ast.AST | None) -> None:
        from .pywarnings import WarningMessage

        record = self.warning_record
        assert record is not None
        limits.LIST_ITEMS.check(len(record) + 1, "the number of warnings recorded")
        span = self.span(node)
        record.append(
            WarningMessage(
                message,
                category,
                span.source.name if span is not None else "<unknown>",
                span.line if span is not None else 0,
            )
        )

    def filters_changed(self) -> None:
        """Python forgets which warnings it has shown where when the filters change (a
        `catch_warnings()` block shows a warning again)."""
        self._python_warned.clear()

    def filtered(self, message: str, category: str, module: str) -> bool:
        """Whether the program's warnings filters drop this warning; raises it where they
        turn it into an error."""
        from .pywarnings import action_for

        action = action_for(message, category, module, self.warning_filters)
        if action == "error":
            raise GradcliError(message).mirror(category).pytorch()
        return action == "ignore"

    def check_finite(self, label: str, t: Tensor, node: ast.AST | None) -> None:
        """Warn (once per label) when a tensor holds NaN or infinity. They are results, as
        PyTorch computes them (log(0) = -inf, 0/0 = nan, exp(1000) = inf), not errors."""
        if t.dtype.kind != "f" or label in self.warned:
            return
        data = t.data
        if data.size == 1:
            if math.isfinite(data.item()):
                return
        elif data.size >= 4096:
            # A finite sum means finite values (a nan or an infinity makes the sum one): one
            # read of the values, no array of flags; a sum that overflows is checked in full.
            if math.isfinite(np.add.reduce(data, axis=None)) or np.isfinite(data).all():
                return
        elif np.isfinite(data).all():
            return
        nan = int(np.isnan(data).sum())
        inf = int(np.isinf(data).sum())
        if FILLED and FILLED.get(id(data)) is data:
            return  # (torch.empty's memory as deterministic algorithms fill it: PyTorch's NaN)
        if not nan and not t.requires_grad and not (np.isposinf(data).any()):
            # only -inf in a constant: an attention mask (`masked_fill(..., float('-inf'))`,
            # `generate_square_subsequent_mask`), written on purpose
            return
        self.warned.add(label)
        parts = ([f"{nan} nan"] if nan else []) + ([f"{inf} inf"] if inf else [])
        self.warn(
            f"{label} has non-finite values ({', '.join(parts)} of {data.size}): log, sqrt "
            "or division at 0, or an overflow? (PyTorch computes the same)",
            node,
        )

    def check_grads(self) -> None:
        for name, t in self.tensors.items():
            if isinstance(t.grad, Tensor):
                self.check_finite(f"`{name}.grad`", t.grad, None)
        if self.more_warnings:
            self.warnings.append(f"warning: {self.more_warnings} more warning(s) like these")
            self.more_warnings = 0


def bind_arguments(f: UserFunction, args: Any, kwargs: dict) -> dict[str, Any]:
    """Python's binding of a call's arguments to a function's parameters (its errors, in
    Python's words: `_bind_error`)."""
    code: FunctionCode = f.code
    params = code.positional
    local: dict[str, Any] = {}
    n = len(params)
    if len(args) > n and code.vararg is None:
        raise _bind_error(f, args, kwargs)
    for p, v in zip(params, args):
        local[p] = v
    if code.vararg is not None:
        extra = tuple(args[n:])
        local[code.vararg] = extra
    extra_kw: dict[str, Any] = {}
    for k, v in kwargs.items():
        if k in local or (k == code.vararg):
            if k in params:
                raise _bind_error(f, args, kwargs)
        if k in params or k in code.kwonly:
            local[k] = v
        elif code.kwarg is not None:
            extra_kw[k] = v
        else:
            raise _bind_error(f, args, kwargs, hint=suggest(k, params + code.kwonly))
    if code.kwarg is not None:
        local[code.kwarg] = extra_kw
    defaults = f.defaults
    first_default = n - len(defaults)
    missing = False
    for i, p in enumerate(params):
        if p not in local:
            if i >= first_default:
                local[p] = defaults[i - first_default]
            else:
                missing = True
    if missing:
        raise _bind_error(f, args, kwargs)
    for p in code.kwonly:
        if p not in local:
            if p in f.kwdefaults:
                local[p] = f.kwdefaults[p]
            else:
                raise _bind_error(f, args, kwargs)
    return local


def _bind_error(f: UserFunction, args: Any, kwargs: dict, hint: str | None = None) -> GradcliError:
    """The TypeError Python raises for a call of f that does not fit, in its words (CPython
    3.11's: the method's qualified name, `M.forward() takes 2 positional arguments but 3 were
    given`; the first of the keyword, too many, missing checks that fails)."""
    from ..surface.callerrors import python_call_error

    code: FunctionCode = f.code
    owner = code.owner
    qualname = f"{owner.name}.{code.name}" if owner is not None else code.name
    n, defaults = len(code.positional), len(f.defaults)
    params = [(p, "PK", i >= n - defaults) for i, p in enumerate(code.positional)]
    if code.vararg is not None:
        params.append((code.vararg, "VP", False))
    params += [(p, "K", p in f.kwdefaults) for p in code.kwonly]
    if code.kwarg is not None:
        params.append((code.kwarg, "VK", False))
    text = python_call_error(qualname, params, len(args), list(kwargs))
    return GradcliError(text or f"{qualname}() does not take these arguments", hint=hint).mirror(
        "TypeError"
    )


# --- tensors' attributes and items ----------------------------------------------------------


def set_tensor_attribute(owner: Tensor, attr: str, value: Any) -> None:
    if attr == "grad":
        if value is not None and not isinstance(value, Tensor):
            raise GradcliError(
                "assigned grad expected to be a Tensor or None but got grad of type "
                + pytype_name(value)
            ).mirror("TypeError")
        want = grad_dtype_of(owner)
        if value is not None and want is not None and value.dtype != want:
            raise GradcliError(
                f"attempting to assign a gradient with dtype '{dtypes.cpp_type_name(value.dtype)}'"
                f" to a tensor with grad_dtype '{dtypes.scalar_type_name(want)}'. The "
                "gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). "
                "You can set the tensor's grad_dtype attribute with a specific dtype, or None to "
                "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor "
                "and its gradient may break downstream systems that assume they match."
            )
        if value is not None and value.shape != owner.shape:
            raise GradcliError(
                f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                f"size '{list(owner.shape)}'. Please ensure that the gradient and the tensor are "
                "the same size"
            )
        owner.grad = value
    elif attr == "data":
        # PyTorch's set_data: the tensor takes the other's storage, shape and dtype
        if not isinstance(value, Tensor):
            raise GradcliError(
                f"Variable data has to be a tensor, but got {typename(value)}"
            ).mirror("TypeError")
        if owner.requires_grad and value.dtype.kind not in "fc":
            raise GradcliError(
                "data set to a tensor that requires gradients must be floating point or "
                "complex dtype"
            ).mirror("RuntimeError")
        own(value)  # the two share a storage: lent data (`core.tensor.lend`) is copied first
        owner.data = value.data
    elif attr == "requires_grad":
        owner.requires_grad_(value, method=False)  # a bool, or PyTorch's error
    else:
        set_own_tensor_attribute(owner, attr, value)


# Tensor attributes whose assignment PyTorch gives a meaning gradcli does not model
# (`x.volatile = True` warns and is ignored, `x.grad_dtype = ...` changes the gradient's dtype).
_MODELLED_ELSEWHERE = frozenset({"volatile", "grad_dtype"})


def set_own_tensor_attribute(owner: Tensor, attr: str, value: Any) -> None:
    """`x.tag = "input"`, `p.is_bias = True`: an attribute of the program's own on a tensor (a
    PyTorch tensor has a __dict__), read back before the tensor's methods; the tensor's
    properties are not writable (PyTorch's words). Names with an underscore stay refused."""
    if attr == "grad_dtype":
        from .values import DType

        if not owner.is_leaf:
            raise GradcliError("grad_dtype can only be set on leaf tensors.").mirror("RuntimeError")
        if value is not None and not isinstance(value, DType):
            raise GradcliError(
                f"grad_dtype must be a torch.dtype or None, but got {pytype_name(value)}"
            ).mirror("RuntimeError")
        new = value.np if isinstance(value, DType) else None
        grad = owner.grad
        if grad is not None and new is not None and grad.dtype != new:
            raise GradcliError(
                f"Cannot set grad_dtype to '{dtypes.scalar_type_name(new)}' because there is "
                f"already a gradient with dtype '{dtypes.cpp_type_name(grad.dtype)}'. Please "
                "clear the gradient (.grad = None) before changing grad_dtype, or ensure the "
                "new grad_dtype matches the existing gradient's dtype."
            ).mirror("RuntimeError")
        if new is not None and new == owner.dtype:
            GRAD_DTYPES.pop(owner, None)  # (its own: as if never set)
        else:
            GRAD_DTYPES[owner] = new
        return
    if attr in _MODELLED_ELSEWHERE:
        raise NotSupported(
            f"cannot set attribute `{attr}` of a tensor",
            expected="`.grad`, `.data`, `.requires_grad`, or a name of your own not starting "
            "with an underscore",
        )
    if (attr in TENSOR_PROPERTIES and attr not in ("real", "imag", "names")) or attr == "name":
        raise GradcliError(
            f"attribute '{attr}' of 'torch._C.TensorBase' objects is not writable"
        ).mirror("AttributeError")
    if attr.startswith("_") or attr in TENSOR_PROPERTIES:  # (`x.real = y` copies into x)
        raise NotSupported(
            f"cannot set attribute `{attr}` of a tensor",
            expected="`.grad`, `.data`, `.requires_grad`, or a name of your own not starting "
            "with an underscore",
        )
    if _GradMode.repeats:
        pyobjects.repeated_attribute(owner, attr, value)
    own = getattr(owner, "_attrs", None)
    if own is None:
        own = owner._attrs = {}
    if attr not in own:
        limits.LIST_ITEMS.check(len(own) + 1, "the number of attributes of a tensor")
    own[attr] = value


def set_tensor_item(rt: Runtime, owner: Tensor, key: Any, value: Any, rebind: Any) -> None:
    """`y[key] = value`: y changes in place (every name bound to it sees it), recorded on y
    when gradients flow through it (PyTorch's CopySlices; a whole key, `y[:] = v`, is
    y.fill_/copy_ as in PyTorch)."""
    key = I.legacy_key(key)
    if isinstance(value, complex) and owner.dtype.kind != "c":
        # PyTorch's words for a complex number written into a real tensor
        raise GradcliError(
            f"value cannot be converted to type {dtypes.cpp_type_name(owner.dtype)} without "
            "overflow"
        )
    if isinstance(value, Tensor) and value.dtype.kind == "c" and owner.dtype.kind != "c":
        # (PyTorch drops the imaginary parts with a warning: refused here, never in silence)
        raise complex_refusal("an item assignment into a real tensor")
    if not isinstance(value, (Tensor, bool, int, float, complex, np.integer)):
        # PyTorch takes a tensor or a Python number (or a NumPy integer), nothing else: not
        # a list, not an array, not a NumPy float32.
        kind = type(value)
        name = (
            f"numpy.{kind.__name__}"
            if kind.__module__ == "numpy"
            else "NoneType"
            if value is None
            else typename(value)
        )
        raise GradcliError(
            f"can't assign a {name} to a torch.{dtypes.scalar_type_name(owner.dtype)}Tensor",
            hint="make it a tensor first: y[...] = torch.tensor(values)",
        ).mirror("TypeError")
    if type(value) is int and not -(2**63) <= value < 2**63:
        # PyTorch's setitem reads a Python int as a C long long, whatever the tensor's dtype
        raise GradcliError(
            "Overflow when unpacking long long",
            found=f"an integer of {value.bit_length()} bits",
            expected="integers between -2**63 and 2**63 - 1",
            hint="write it as a float (e.g. 1e20) for a float tensor",
        ).mirror("ValueError")
    check_capture(owner, lambda: I.setitem_op(key))
    I.check_put_dtype(owner, key, value)
    value = I.wrap_unsigned(value, owner.dtype)
    if (
        grad_enabled()
        and (owner.requires_grad or (isinstance(value, Tensor) and value.requires_grad))
        and I.whole_key(owner.shape, key)
    ):
        I.assign_whole(owner, value)
        return
    if grad_enabled():
        if owner.requires_grad and owner.node is None:
            check_nograd_setitem(owner, key)
            raise GradcliError(
                VIEW_OF_LEAF,
                hint="assign into a copy (y = x.clone(); y[...] = ...), or into x.data",
            )
        if owner.requires_grad or (isinstance(value, Tensor) and value.requires_grad):
            check_view_setitem(owner, key)
            # (allow_mutation_on_saved_tensors: the change is of the view `owner[key]`)
            address = I.written_address(owner, key) if hooks.before_write is not None else None
            inplace(owner, lambda old: I.index_assign(old, key, value), address)
            return
    # (integers with tensors: `first` selects, a NumPy view, before the rest: PyTorch's order)
    first, idx, region = I.place(owner, key)
    new = value.data if isinstance(value, Tensor) else value
    I.check_value_shape(np.shape(new), region, idx, getattr(new, "dtype", owner.dtype))
    new = I.fit_value(new, region)
    if hooks.before_write is not None:
        hooks.before_write(owner, I.written_address(owner, key))
    own(owner)  # lent data (`core.tensor.lend`) is copied before its first write
    if not first and not owner.data.flags.writeable and _write_through_item(owner, idx, key, new):
        bumped(owner)
        return
    try:
        (owner.data[first] if first else owner.data)[idx] = new
    except ValueError:
        owner.data = np.array(owner.data)
        try:
            (owner.data[first] if first else owner.data)[idx] = new
        except (ValueError, TypeError, IndexError, OverflowError) as e:
            raise GradcliError(f"cannot assign: {short(str(e))}") from None
    except (TypeError, IndexError, OverflowError) as e:
        raise GradcliError(f"cannot assign: {short(str(e))}") from None
    bumped(owner)


def _write_through_item(owner: Tensor, idx: Any, key: Any, new: Any) -> bool:
    """`x[key] = value` on an expanded tensor (its elements share memory places; NumPy's view
    is read-only): as PyTorch, the value is written through to the memory, a basic index
    (ints, slices) only where the places it selects are all distinct (else PyTorch's error),
    an advanced one (a mask, index lists: index_put_) with PyTorch's deprecation warning.
    False where the memory is not the program's to write (the caller's copy stands)."""
    from ..core.inplace import OVERLAP_ERROR, internal_overlap, writable_alias

    alias = writable_alias(owner)
    if alias is None:
        return False
    parts = idx if isinstance(idx, tuple) else (idx,)
    basic = all(p is None or p is Ellipsis or isinstance(p, (int, slice)) for p in parts)
    if basic and internal_overlap(owner.data[idx]):
        raise GradcliError(
            OVERLAP_ERROR, hint="x = x.clone() first (expand() makes elements share memory)"
        )
    if not basic and internal_overlap(owner.data):
        hooks.warn(
            "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor "
            "before performing this operation. This also applies to advanced indexing e.g. "
            "tensor[indices] = tensor"
        )
        mask = isinstance(key, Tensor) and key.dtype == np.bool_
        if mask and np.ndim(new) == 0:
            hooks.warn(
                "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the "
                "tensor before performing this operation. This also applies to advanced "
                "indexing e.g. tensor[mask] = scalar"
            )
    try:
        alias[idx] = new
    except (ValueError, TypeError, IndexError, OverflowError) as e:
        raise GradcliError(f"cannot assign: {short(str(e))}") from None
    return True


def _unpacked(ctx: Ctx) -> tuple:
    """ctx.saved_tensors of a call recorded inside saved_tensors_hooks: unpack_hook of what
    pack_hook gave, on every read (PyTorch's words when it gives back no tensor)."""
    from ..surface import saved_hooks

    unpack, packed = ctx.packed
    out = []
    for p, orig in zip(packed, ctx.saved_tensors):
        if p is None:
            out.append(None)
            continue
        got = saved_hooks.unpacked(unpack(p))
        if got is not orig and (orig.requires_grad or orig.node is not None):
            # its values in the saved tensor's place in the graph (PyTorch's SavedVariable)
            t = wrap(np.array(got.data, copy=True))
            t.requires_grad, t.node = orig.requires_grad, orig.node
            got = t
        out.append(got)
    return tuple(out)


def _ctx_attribute(rt: Runtime, owner: Ctx, attr: str) -> Any:
    if attr == "saved_variables":  # PyTorch's old name, still read, with its warning
        rt.python_warning(
            "'saved_variables' is deprecated; use 'saved_tensors'", "DeprecationWarning"
        )
    if attr in ("saved_tensors", "saved_variables"):
        if owner.clear_on_access:
            if owner.saved_read:
                raise GradcliError(
                    "saved_tensors can only be accessed once when "
                    "clear_saved_tensors_on_access=True is set on the autograd.Function. Either "
                    "access saved_tensors only once, or set clear_saved_tensors_on_access=False."
                ).mirror("RuntimeError")
            owner.saved_read = True
        if owner.packed is not None:
            return _unpacked(owner)
        owner.check_versions()
        return owner.saved_tensors
    if attr == "needs_input_grad":
        return owner.needs_input_grad
    if attr in (
        "save_for_backward",
        "save_for_forward",
        "mark_non_differentiable",
        "set_materialize_grads",
        "mark_dirty",
    ):
        return Builtin(attr, getattr(owner, attr))
    if attr in owner.attrs:
        return owner.attrs[attr]
    raise owner.missing(attr)


# What takes an index by its __index__ (an instance of the program's class that defines it).
_INDEXED = (Tensor, list, tuple, str, range, np.ndarray)


def _program_indices(key: Any, tensor: bool = False) -> Any:
    """`key` (or the items of a tuple key) with each instance of the program's class that
    defines `__index__` replaced by that integer, as Python and PyTorch take it (a tensor's
    index whose __index__ fails is PyTorch's IndexError naming its class)."""
    kinds = PROGRAM_INSTANCES[0]

    def one(k: Any) -> Any:
        if not tensor:
            return program_index(k)
        try:
            return program_index(k)
        except GradcliError as e:
            if "returned non-int" not in e.message:
                raise
            raise GradcliError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                f"Variables are valid indices (got {typename(k)})"
            ).mirror("IndexError") from None

    if isinstance(key, kinds):
        return one(key)
    if type(key) is tuple and any(isinstance(k, kinds) for k in key):
        return tuple(one(k) if isinstance(k, kinds) else k for k in key)
    return key


# The warnings of the surface PyTorch gives in another category than UserWarning (its Python
# code's `category=FutureWarning`): what `w.category` and `simplefilter('error')` see.
_CATEGORIES = (
    ("Converting a tensor to a Python ", "TracerWarning"),
    ("`torch.nn.utils.clip_grad_norm` is now deprecated", "FutureWarning"),
    ("`torch.nn.utils.weight_norm` is deprecated", "FutureWarning"),
    ("Positional args are being deprecated", "FutureWarning"),
    ("Using non-full backward hooks on a Module", "FutureWarning"),
    ("Using a non-full backward hook", "FutureWarning"),
)
_CATEGORY_STARTS = tuple(start for start, _ in _CATEGORIES)

_NODE_METHODS: dict[str, Any] = {}


def _node_method(attr: str) -> Any:
    """`node.attr(...)` as a function of the node (the same one for every node)."""
    got = _NODE_METHODS.get(attr)
    if got is None:
        got = _NODE_METHODS[attr] = lambda _o, *a, **k: getattr(_o, attr)(*a, **k)
    return got


def _dtype_attribute(rt: Runtime, owner: DType, attr: str) -> Any:
    if attr == "is_floating_point":
        return dtypes.is_float(owner.np)
    if attr == "is_complex":
        return dtypes.is_complex(owner.np)
    if attr == "is_signed":  # (bool and the unsigned integers are not)
        return owner.np != np.bool_ and owner.np.kind != "u"
    if attr == "itemsize":
        return dtypes.itemsize(owner.np)
    if attr in ("to_complex", "to_real"):
        return Builtin(attr, lambda: _dtype_partner(owner.np, attr == "to_complex"))
    raise GradcliError(f"'torch.dtype' object has no attribute '{attr}'").mirror("AttributeError")


def _dtype_partner(dt: np.dtype, complex_one: bool) -> DType:
    """`torch.float32.to_complex()` (complex64; bfloat16's too) and `.to_real()` (a complex
    dtype's real part's, any other dtype itself), as c10 pairs them."""
    if not complex_one:
        return dtype_value(np.dtype(dt.char.lower()) if dtypes.is_complex(dt) else dt)
    if dtypes.is_complex(dt):
        return dtype_value(dt)
    if dt == dtypes.BF16 or dt == np.float32:
        return dtype_value(np.complex64)
    if dt == np.float64:
        return dtype_value(np.complex128)
    if dt == np.float16:
        raise NotSupported(
            "torch.complex32 (float16.to_complex()) is not supported by gradcli",
            hint="use torch.float32.to_complex() (complex64)",
        )
    raise GradcliError(f"Unknown Complex ScalarType for {dtypes.scalar_type_name(dt)}").mirror(
        "RuntimeError"
    )


def _pytype_attribute(rt: Runtime, owner: PyType, attr: str) -> Any:
    if attr in owner.members:
        return owner.members[attr]
    # Python's name of the class is the last part of its qualified one (torch.Tensor: Tensor,
    # torch.dtype: dtype, builtin_function_or_method), not gradcli's own
    name = owner.shown.rpartition(".")[2]
    if attr == "__name__":
        return name
    if owner is TENSOR_TYPE and attr in TENSOR_METHODS:
        # `torch.Tensor.tanh(x)`: the method, unbound.
        return Builtin(f"torch.Tensor.{attr}", TENSOR_METHODS[attr])
    raise GradcliError(f"type object '{name}' has no attribute '{attr}'").mirror("AttributeError")


def _device_attribute(rt: Runtime, owner: Device, attr: str) -> Any:
    if attr == "type":
        return owner.type
    if attr == "index":
        return owner.index
    raise GradcliError(f"'torch.device' object has no attribute '{attr}'").mirror("AttributeError")


def _class_attribute(rt: Runtime, owner: Any, attr: str) -> Any:
    return owner.get(rt, attr)


def _super_attribute(rt: Runtime, owner: Super, attr: str) -> Any:
    return owner.get(rt, attr)


def _generator_attribute(rt: Runtime, owner: Generator, attr: str) -> Any:
    if attr in ("send", "throw", "close"):
        raise NotSupported(
            f"generator.{attr}() is not supported in gradcli programs",
            hint="iterate a generator (for, next(), list()); pass values as its arguments",
        )
    if attr.startswith("gi_"):
        raise NotSupported(
            f"`.{attr}` of a generator is not accessible in gradcli programs",
            hint="gradcli programs cannot reach Python's frames and code objects",
        )
    raise GradcliError(f"'generator' object has no attribute '{attr}'").mirror("AttributeError")


def _hook_handle_attribute(rt: Runtime, owner: HookHandle, attr: str) -> Any:
    if attr == "remove":
        return Builtin("RemovableHandle.remove", owner.remove)
    if attr == "id":
        return owner.id
    raise GradcliError(f"'RemovableHandle' object has no attribute '{attr}'").mirror(
        "AttributeError"
    )


def _int_enum_attribute(rt: Any, m: Any, attr: str) -> Any:
    """An IntEnum member's attribute: its own names, else int's (`Level.HIGH.bit_length()`);
    a name neither has is Python's AttributeError naming the enum class."""
    if m.knows(attr) or attr.startswith("_"):
        return m.get(attr)
    try:
        return rt.attribute(int(m), attr)
    except GradcliError as e:
        if e.python_class != "AttributeError":
            raise
        return m.get(attr)


_ATTRIBUTES: dict[type, Callable[[Runtime, Any, str], Any]] = {
    PC.Deque: lambda rt, q, attr: PC.deque_attribute(q, attr),
    PC.Record: lambda rt, r, attr: r.attribute(attr),
    PC.NamedTupleClass: _class_attribute,
    EN.EnumClass: _class_attribute,
    EN.EnumMember: lambda rt, m, attr: m.get(attr),
    EN.IntEnumMember: lambda rt, m, attr: _int_enum_attribute(rt, m, attr),
    DC.Field: lambda rt, f, attr: DC.field_attribute(f, attr),
    HookHandle: _hook_handle_attribute,
    Ctx: _ctx_attribute,
    DType: _dtype_attribute,
    PyType: _pytype_attribute,
    ModuleType: _pytype_attribute,
    FunctionClass: _class_attribute,
    ModuleClass: _class_attribute,
    OptimClass: _class_attribute,
    Super: _super_attribute,
    Device: _device_attribute,
    FunctionInstance: _class_attribute,
    PlainClass: _class_attribute,
    LibraryClass: _class_attribute,
    Instance: _class_attribute,
    UserGenerator: _generator_attribute,
    Generator: _generator_attribute,
    PN.SimpleNamespace: lambda rt, ns, attr: ns.get(attr),
    PN.ArgNamespace: lambda rt, ns, attr: ns.get(attr),
    SparseCOO: sparse_attribute,
    SparseCSR: csr_attribute,
}


def _uninitialized_attribute(owner: Tensor, attr: str) -> Any:
    """`w.attr` of a lazy module's parameter before its first call: `.shape` refused, a
    method PyTorch refuses on it refused when called; None: the usual attribute."""
    if attr == "shape":
        raise GradcliError(surface_nn.UNINITIALIZED_SHAPE).mirror("RuntimeError")
    if attr in surface_nn.UNINITIALIZED_METHODS or attr not in TENSOR_METHODS:
        return None

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise surface_nn.uninitialized_use(surface_nn.tensor_method_shown(attr), owner)

    return BoundMethod(attr, lambda obj, *a, **k: refused(), owner)


def _function_shown(v: Any) -> str | None:
    from .torch_reprs import function_shown

    return function_shown(v)


text.FUNCTION_SHOWN.append(_function_shown)


def _torch_function_names(value: Any) -> tuple[str, str] | None:
    """(__name__, __qualname__) of PyTorch's function the program passed (to a transform)."""
    from .torch_reprs import entry

    if isinstance(value, ProgramFunction):
        value = value.value
    e = entry(value)
    return None if e is None else (e[3], e[2])


hooks.python_names = _torch_function_names


def _public_name(f: Any) -> str | None:
    """`torch.sigmoid.__name__`, `F.relu.__name__`, `optim.SGD.__name__`: the name PyTorch's
    function or class has, found in the tables the program reaches it through (a gradcli
    function's own Python name may be an internal one); None for anything else."""
    from .torch_reprs import dunder

    found = dunder(f, "__name__")
    if found is not None:
        return found
    if isinstance(f, BoundMethod):  # x.add.__name__
        return f.user.code.name if f.user is not None else f.name
    if isinstance(f, MethodType) and (
        isinstance(f.__self__, surface_nn.Module)
        or getattr(type(f.__self__), "PROGRAM_BASE", None) is not None  # opt.zero_grad
    ):
        name = f.__func__.__name__  # m.named_parameters.__name__ (the surface's, PyTorch's)
        return None if name.startswith("_") else name
    if isinstance(f, Builtin):
        return f.name.rpartition(".")[2]
    if not callable(f):
        return None
    from ..surface import names

    for table in (names.FUNCTIONS, names.NN_FUNCTIONAL, names.MODULES, names.LINALG):
        for key, value in dict.items(table):
            if value is f and key.isidentifier():
                return key
    from .namespaces import Namespace, build_namespaces

    # the modules and their submodules (torch.optim, torch.nn.init...), each once
    todo, seen = list(build_namespaces().values()), set()
    while todo:
        ns = todo.pop()
        if id(ns) in seen:
            continue
        seen.add(id(ns))
        members = getattr(ns, "members", None)
        if not isinstance(members, dict):
            continue
        for key, value in members.items():
            if value is f and key.isidentifier() and not key.startswith("_"):
                return key
            if isinstance(value, Namespace):
                todo.append(value)
    return None


INVOKE_CODE.append(Runtime.invoke.__code__)  # (`calls.checked_call`: program code ran)
