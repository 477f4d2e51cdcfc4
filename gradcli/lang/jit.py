"""What `torch.jit.trace` and `torch.jit.script` give: a module of TorchScript's classes that
prints, is named and behaves as PyTorch's, run by gradcli's interpreter as any module.

PyTorch's result is a new module object (not the program's class: `isinstance(t, MyCell)` is
False) sharing the original's parameters and buffers, its submodules made over in the same
way. Its text shows `original_name=` and nothing of the original's `extra_repr`:

* `torch.jit.trace(m, example)`: `TopLevelTracedModule`, its submodules `TracedModule`,
  printed under their classes' names (`Linear(original_name=Linear)`). Tracing runs the
  module on the example three times (the trace and `check_trace`'s two runs; once with
  `check_trace=False`), and a module's `self.training` is read once, at trace time: a traced
  dropout stays as it was traced, whatever `.eval()` says later. A traced module keeps only
  its parameters, buffers and submodules (other attributes are PyTorch's AttributeError).
* `torch.jit.script(m)`: `RecursiveScriptModule` at every level, which keeps the module's
  attributes and methods; its `.train()` / `.eval()` switch the modes its code reads.
* a traced (or scripted) function: a `ScriptFunction` named by `.name`.

A traced call runs the recorded graph, not the Python code: the forward's `print`s show
during tracing only (three times, as PyTorch's runs), not in later calls; and what the code
decided from a tensor's value at trace time (`if x.sum() > 0:`, `n = int(x.max())`,
`x.item()`, `x.tolist()`) is a constant of the graph. gradcli runs the Python code again with
each such conversion answered by the value the trace saw, in order (`core.tensor.
PYTHON_VALUE_HOOK`): the branch taken at trace time is taken again, whatever the new input
says; tracing warns of each conversion with PyTorch's TracerWarning.

TorchScript's own program (`.code`, `.graph`) is refused in plain words
(`namespaces.scripted_attribute`).

A program's subclass of `torch.jit.ScriptModule` (TorchScript's older way: methods marked
`@torch.jit.script_method`, constants named in `__constants__`, lists typed with
`torch.jit.annotate`) is an nn.Module subclass whose submodules are made over as a script's
when its `__init__` has run (`script_children`: PyTorch's `init_then_script`), a submodule of
such a class of the program's kept as it is; it prints under its own class's name, and
`isinstance(m, torch.jit.ScriptModule)` holds. Its methods run as Python's code: what
TorchScript would refuse to compile runs all the same."""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core import hooks
from ..core import tensor as tensor_module
from ..core.tensor import _GradMode
from ..surface import nn as surface_nn
from .values import PyType, UserFunction

_SHOWN = {
    ("trace", True): ("TopLevelTracedModule", "torch.jit._trace.TopLevelTracedModule"),
    ("trace", False): ("TracedModule", "torch.jit._trace.TracedModule"),
    ("script", True): ("RecursiveScriptModule", "torch.jit._script.RecursiveScriptModule"),
    ("script", False): ("RecursiveScriptModule", "torch.jit._script.RecursiveScriptModule"),
}


_TRACER_WARNING = (
    "Converting a tensor to a Python {} might cause the trace to be incorrect. We can't record "
    "the data flow of Python values, so this value will be treated as a constant in the "
    "future. This means that the trace might not generalize to other inputs!"
)


def _recorder(seen: list) -> Any:
    """The hook while tracing: each conversion's value kept (in order), with the warning."""

    def hook(kind: str, value: Any) -> Any:
        hooks.warn(_TRACER_WARNING.format(kind))
        limits.LIST_ITEMS.check(len(seen) + 1, "the number of values a trace keeps")
        seen.append((kind, value))
        return value

    return hook


def _replayer(frozen: list) -> Any:
    """The hook while a traced module or function runs: the trace's values, in order."""
    at = [0]

    def hook(kind: str, value: Any) -> Any:
        i = at[0]
        if i < len(frozen) and frozen[i][0] == kind:
            at[0] = i + 1
            return frozen[i][1]
        return value  # (past what the trace saw: cannot happen on the trace's own path)

    return hook


def _frozen_call(frozen: list | None, call: Any) -> Any:
    """`call()` with the conversions the trace saw answered as they were then."""
    if frozen is None:
        return call()
    before = tensor_module.PYTHON_VALUE_HOOK
    tensor_module.PYTHON_VALUE_HOOK = _replayer(frozen)
    try:
        return call()
    finally:
        tensor_module.PYTHON_VALUE_HOOK = before


# How many scripted calls (a script's module or function) are running: inside one,
# torch.jit.is_scripting() is True, as in TorchScript's compiled code.
_SCRIPTING = [0]


def is_scripting() -> bool:
    """`torch.jit.is_scripting()`: whether the code runs inside what torch.jit.script gave."""
    return _SCRIPTING[0] > 0


class JitScope:
    """The run scope (`UserFunction.grad_mode`) of a method TorchScript's markers decorate,
    wrapping the mode the function had: a `@torch.jit.script_method` runs as compiled code
    (torch.jit.is_scripting() True), a `@torch.jit.ignore`d function as Python's (False,
    even when scripted code calls it), and a `@torch.jit.unused` one (or `ignore(drop=True)`)
    raises PyTorch's torch.jit.Error when scripted code calls it (Python's code may)."""

    def __init__(self, kind: str, inner: Any) -> None:
        self.kind = kind  # "script", "python" or "unused"
        self.inner = inner
        self._saved: list[tuple[int, Any]] = []

    def enter(self) -> None:
        if self.kind == "unused" and _SCRIPTING[0] > 0:
            raise GradcliError(
                "The following operation failed in the TorchScript interpreter.\n"
                "Traceback of TorchScript (most recent call last):\n"
                "RuntimeError: This Python function is annotated to be ignored and cannot be "
                "run"
            ).mirror("Error")
        block = None
        if self.inner is not None:
            from .gradmode import grad_mode_block

            block = grad_mode_block(self.inner)
            block.__enter__()
        self._saved.append((_SCRIPTING[0], block))
        if self.kind == "script":
            _SCRIPTING[0] += 1
        elif self.kind == "python":
            _SCRIPTING[0] = 0

    def exit(self) -> None:
        if self._saved:
            count, block = self._saved.pop()
            _SCRIPTING[0] = count
            if block is not None:
                block.__exit__(None, None, None)


def jit_scoped(fn: Any, kind: str) -> Any:
    """The program's function `fn` run in a `JitScope` of that kind (a copy of it; anything
    else as it is)."""
    if not isinstance(fn, UserFunction):
        return fn
    g = fn.copy()
    g.grad_mode = JitScope(kind, fn.grad_mode)
    return g


class JitModule(surface_nn.Module):
    """A traced or scripted module over `original` (its tables shared, not copied)."""

    OWN_NAMES_ONLY = True

    def __init__(self, original: surface_nn.Module, kind: str, top: bool, made: dict) -> None:
        made[id(original)] = self
        self._frozen: list | None = None  # a top-level trace's values (`_replayer`)
        self._original = original
        self._kind = kind
        self._top = top
        self._parameters = original._parameters
        self._buffers = original._buffers
        self._non_persistent = original._non_persistent
        self.training = original.training
        # the mode each module's code reads when the result runs: a trace's, frozen now
        self._traced_mode = original.training
        self._modules = surface_nn.ModuleEntries()
        for key, child in original._modules.items():
            if child is None:
                # (TorchScript keeps no None submodule: a script's reads None as a constant
                # of the module, a trace's has no such name)
                if kind == "script":
                    self.__dict__["_attr_" + key] = None
                continue
            limits.BUDGET.tick()
            seen = made.get(id(child))
            self._modules[key] = seen or JitModule(child, kind, False, made)

    @property
    def name(self) -> str:
        if self._kind == "script":
            return "RecursiveScriptModule"
        return self._original.name

    @property
    def pyname(self) -> str:
        return "RecursiveScriptModule"  # (PyTorch's AttributeError names it so for both)

    def program_typename(self) -> str:
        return _SHOWN[self._kind, self._top][0]

    def program_class(self) -> str:
        return _SHOWN[self._kind, self._top][1]

    def extra_repr(self) -> str:
        return f"original_name={self._original.name}"

    def _pairs(self) -> list[tuple[JitModule, surface_nn.Module]]:
        out, seen, stack = [], set(), [self]
        while stack:
            m = stack.pop()
            if id(m) in seen:
                continue
            seen.add(id(m))
            limits.BUDGET.tick()
            out.append((m, m._original))
            stack.extend(c for c in m._modules.values() if isinstance(c, JitModule))
        return out

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """The original's forward, each module reading the mode TorchScript's code reads (a
        trace's frozen at trace time, a script's its own), restored afterwards."""
        pairs = self._pairs()
        before = [o.training for _, o in pairs]
        for j, o in pairs:
            o.training = j._traced_mode if j._kind == "trace" else j.training
        quiet = _GradMode.vmap_quiet
        if self._kind == "trace":  # (the traced graph runs no print of the forward's)
            _GradMode.vmap_quiet = True
        scripted = self._kind == "script"
        _SCRIPTING[0] += scripted
        try:
            return _frozen_call(self._frozen, lambda: self._original(*inputs, **kwargs))
        finally:
            _SCRIPTING[0] -= scripted
            _GradMode.vmap_quiet = quiet
            for (_, o), mode in zip(pairs, before):
                o.training = mode

    def program_attribute(self, name: str) -> Any:
        if name == "original_name":
            return self._original.name
        if name == "forward":
            return self.forward
        return super().program_attribute(name)


def jit_attribute(rt: Any, owner: JitModule, attr: str) -> Any:
    """`t.attr` of a traced or scripted module: its own tables and nn.Module's methods; a
    scripted module also the original's attributes and methods (PyTorch's script keeps
    them); else PyTorch's AttributeError."""
    try:
        return owner.program_attribute(attr)
    except GradcliError as e:
        if e.python_class != "AttributeError" or owner._kind != "script":
            raise
    return rt.attribute(owner._original, attr)


# (the runtime's handler of `t.attr` for these modules: `Runtime.attribute`)
JitModule.runtime_attribute = staticmethod(jit_attribute)  # type: ignore[attr-defined]


class JitFunction:
    """A traced (or scripted) function: PyTorch's `ScriptFunction`, called as the function."""

    __slots__ = ("fn", "traced", "frozen")

    def __init__(self, fn: Any, traced: bool) -> None:
        self.fn = fn
        self.traced = traced
        self.frozen: list | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        quiet = _GradMode.vmap_quiet
        if self.traced:  # (the traced graph runs no print of the function's)
            _GradMode.vmap_quiet = True
        _SCRIPTING[0] += not self.traced
        try:
            return _frozen_call(self.frozen, lambda: self.fn(*args, **kwargs))
        finally:
            _SCRIPTING[0] -= not self.traced
            _GradMode.vmap_quiet = quiet

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        return self(*args, **kwargs)

    def program_typename(self) -> str:
        return "ScriptFunction"

    def program_class(self) -> str:
        return "torch.jit.torch.jit.ScriptFunction"  # (PyTorch's qualified name)

    def program_attribute(self, name: str) -> Any:
        if name == "name":
            return getattr(self.fn, "name", None) or getattr(self.fn, "__name__", "")
        raise GradcliError(f"'ScriptFunction' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def __repr__(self) -> str:
        return f"<torch.jit.ScriptFunction object at {id(self):#x}>"


class _ScriptModuleType(PyType):
    """`torch.jit.ScriptModule`: what script/trace gave, and the instances of a program's
    subclass of it (`class Cell(torch.jit.ScriptModule)`, `script_children`)."""

    __slots__ = ()

    def instance(self, v: Any) -> bool:
        return isinstance(v, JitModule) or bool(getattr(getattr(v, "cls", None), "scripted", 0))


SCRIPT_MODULE = _ScriptModuleType(
    "ScriptModule", (JitModule,), None, shown="torch.jit._script.ScriptModule"
)


def script_children(owner: surface_nn.Module) -> None:
    """What PyTorch does when the __init__ of a program's subclass of torch.jit.ScriptModule
    has run: its submodules become TorchScript's (`RecursiveScriptModule`, printed with
    `original_name=`, their parameters shared), but for those of such a class of the program's,
    which did so themselves. Its methods (`@torch.jit.script_method`) run as Python's code,
    with TorchScript's results for a program TorchScript compiles."""
    made: dict = {}
    for key, child in list(owner._modules.items()):
        limits.BUDGET.tick()
        if child is None or isinstance(child, JitModule) or SCRIPT_MODULE.instance(child):
            continue
        owner._modules[key] = made.get(id(child)) or JitModule(child, "script", False, made)


SCRIPT_FUNCTION = PyType(
    "ScriptFunction", (JitFunction,), None, shown="torch.jit.torch.jit.ScriptFunction"
)


def made_over(obj: Any, kind: str) -> Any:
    """`obj` as torch.jit.trace / script give it: a module made over, a function wrapped,
    anything else (a class's method, what script() already gave) itself."""
    if isinstance(obj, JitModule):
        return obj
    if isinstance(obj, surface_nn.Module):
        surface_nn._check_visits(obj, "the number of modules torch.jit would make over", False)
        return JitModule(obj, kind, True, {})
    if type(obj) is UserFunction and obj.code.owner is None:  # (a function, not a method)
        return JitFunction(obj, kind == "trace")
    return obj


def run_example(obj: Any, example: Any, kwargs_example: Any, times: int) -> list:
    """The runs of the original on the example inputs that PyTorch's trace makes (their
    results dropped): a tensor is one input, a tuple the inputs. Returns the values of the
    tensors the first run converted to Python values (the trace's constants)."""
    args = example if isinstance(example, tuple) else (() if example is None else (example,))
    kwargs = kwargs_example if isinstance(kwargs_example, dict) else {}
    runs: list[list] = []
    before = tensor_module.PYTHON_VALUE_HOOK
    try:
        for _ in range(times):
            runs.append([])
            tensor_module.PYTHON_VALUE_HOOK = _recorder(runs[-1])
            obj(*args, **kwargs)
    finally:
        tensor_module.PYTHON_VALUE_HOOK = before
    return runs[0]


def freeze(made: Any, frozen: list) -> Any:
    """What torch.jit.trace gave, its later calls answered with the trace's values."""
    if isinstance(made, JitModule):
        made._frozen = frozen
    elif isinstance(made, JitFunction):
        made.frozen = frozen
    return made
