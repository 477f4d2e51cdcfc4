"""What torch.compile tutorials write around compiling, as eager PyTorch answers it: the
compiler's settings modules (`torch._dynamo.config`, `torch._inductor.config`,
`torch._functorch.config`, `torch.compiler.config`), read and set by name and checked as PyTorch
checks them, and the small functions of `torch._dynamo` / `torch.compiler` (reset, disable,
mark_dynamic, list_backends...). gradcli compiles nothing (a compiled function is interpreted as
every other), so a setting changes no result: it is kept for the run, to be read back."""

from __future__ import annotations

import ast
from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core.op import peek_seq
from ..core.tensor import Tensor
from .values import Builtin, Missing, Namespace

# The module each alias target names (`name->dynamo:target` in surface.compile_config).
_MODULES = {
    "dynamo": "torch._dynamo.config",
    "inductor": "torch._inductor.config",
    "functorch": "torch._functorch.config",
    "compiler": "torch.compiler.config",
}
_UNREADABLE = object()  # a setting whose default is an object, or depends on the machine


def _literal(text: str) -> Any:
    """A default as surface.compile_config writes it: a Python literal of a plain value."""
    if text in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[text]
    if text[:1] in "'\"":
        return text[1:-1].encode().decode("unicode_escape")
    try:
        return int(text)
    except ValueError:
        return float(text)


_TABLES: dict[str, dict[str, Any]] = {}


def _table(module: str) -> dict[str, Any]:
    """`module`'s settings: name -> default (or _UNREADABLE, or ("alias", module, name))."""
    if not _TABLES:
        from ..surface.compile_config import CONFIG

        for mod, text in CONFIG.items():
            table: dict[str, Any] = {}
            for row in text.split("\n"):
                if not row:
                    continue
                if "->" in row:
                    name, target = row.split("->")
                    where, target = target.split(":")
                    table[name] = ("alias", _MODULES[where], target)
                elif "=" in row:
                    name, value = row.split("=", 1)
                    table[name] = _literal(value)
                else:
                    table[row] = _UNREADABLE
            _TABLES[mod] = table
    return _TABLES[module]


# The values the program set in this run, by (module, dotted name): shared by a module and its
# sections, and by an alias and its target.
_SET: dict[tuple[str, str], Any] = {}


class CompileConfig:
    """One of the compiler's settings modules, or a section of one (`config.triton`): a name
    PyTorch's module lacks is its AttributeError, whether read or set; a set value is read
    back; a default that is a plain value is PyTorch's."""

    settings_module = True  # importable by its dotted name, as namespaces.Flags

    def __init__(self, module: str, prefix: str = "") -> None:
        self.module = module
        self.prefix = prefix  # "" or "triton." (a section's names, dotted in the table)
        self.name = module + (f".{prefix[:-1]}" if prefix else "")

    def reset(self) -> None:
        """A new run: every compiler setting back to PyTorch's default (all modules at once:
        an alias may reach from one to another)."""
        _SET.clear()

    def _resolve(self, name: str) -> tuple[str, str]:
        module, full = self.module, self.prefix + name
        entry = _table(module).get(full)
        while isinstance(entry, tuple):  # an alias: the setting it stands for
            module, full = entry[1], entry[2]
            entry = _table(module).get(full)
        if full not in _table(module):
            raise GradcliError(f"{self.name}.{name} does not exist").mirror("AttributeError")
        return module, full

    def _section(self, name: str) -> bool:
        dotted = self.prefix + name + "."
        return any(k.startswith(dotted) for k in _table(self.module))

    def program_attribute(self, name: str) -> Any:
        if name == "patch" and not self.prefix:
            return Builtin(f"{self.name}.patch", self._patch)
        if name in _METHODS:
            raise NotSupported(
                f"`{self.name}.{name}` is not supported by gradcli (it compiles nothing: its "
                "compiler settings change no result)",
                hint=f"set the setting itself: {self.name}.NAME = value",
            )
        if self._section(name):
            return CompileConfig(self.module, self.prefix + name + ".")
        module, full = self._resolve(name)
        if (module, full) in _SET:
            return _SET[(module, full)]
        value = _table(module)[full]
        if value is _UNREADABLE:
            raise NotSupported(
                f"reading `{self.name}.{name}` is not supported by gradcli (its default is "
                "an object of PyTorch's compiler, or depends on the machine)",
                hint="set it before reading it, or leave it out: gradcli compiles nothing",
            )
        return value

    def program_set(self, name: str, value: Any) -> None:
        if self._section(name):
            raise NotSupported(
                f"replacing the section `{self.name}.{name}` is not supported",
                hint=f"set its settings one by one: {self.name}.{name}.NAME = value",
            )
        _SET[self._resolve(name)] = value

    def _patch(self, arg1: Any = None, arg2: Any = None, **changes: Any) -> _Patch:
        """`config.patch(name=value, ...)`, `patch("name", value)`, `patch({...})`: the
        settings changed inside a `with` block (or a decorated function's calls: gradcli's
        compiler settings change no result, so the function is left as it is)."""
        if isinstance(arg1, str):
            changes = {arg1: arg2, **changes}
        elif isinstance(arg1, dict):
            changes = {**arg1, **changes}
        elif arg1 is not None:
            raise GradcliError(f"expected `dict` got {type(arg1).__name__}").mirror(
                "AssertionError"
            )
        return _Patch(self, changes)

    def __repr__(self) -> str:
        if self.prefix:
            return "<torch.utils._config_module.SubConfigProxy object>"
        return f"<module '{self.name}'>"


class _Patch:
    """What `config.patch(...)` gives: a context manager setting the changes on entry (a
    name the module lacks is its AttributeError then) and restoring them on exit; as a
    decorator, the function itself."""

    program_context = True
    as_value = None

    def __init__(self, config: CompileConfig, changes: dict[str, Any]) -> None:
        self.config, self.changes = config, changes
        self.saved: list[tuple[tuple[str, str], Any, bool]] = []

    def enter(self) -> None:
        keys = [(self.config._resolve(name), value) for name, value in self.changes.items()]
        self.saved = [(key, _SET.get(key), key in _SET) for key, _ in keys]
        for key, value in keys:
            _SET[key] = value

    def exit(self) -> None:
        for key, old, was_set in reversed(self.saved):
            if was_set:
                _SET[key] = old
            else:
                _SET.pop(key, None)
        self.saved = []

    def __call__(self, fn: Any) -> Any:
        return fn

    def __repr__(self) -> str:
        return "<torch.utils._config_module.ConfigModule.patch.<locals>.ConfigPatch object>"


# The config module's own functions (patch, save_config...): not settings.
_METHODS = frozenset(
    {"patch", "save_config", "save_config_portable", "load_config", "get_config_copy"}
    | {
        "codegen_config",
        "to_dict",
        "shallow_copy_dict",
        "get_hash",
        "get_type",
        "get_serializable_config_copy",
    }
)

DYNAMO_CONFIG = CompileConfig("torch._dynamo.config")
INDUCTOR_CONFIG = CompileConfig("torch._inductor.config")
FUNCTORCH_CONFIG = CompileConfig("torch._functorch.config")
COMPILER_CONFIG = CompileConfig("torch.compiler.config")
CONFIGS = (DYNAMO_CONFIG, INDUCTOR_CONFIG, FUNCTORCH_CONFIG, COMPILER_CONFIG)

# torch._dynamo.list_backends(): the backends PyTorch 2.13 lists (those without the "debug" or
# "experimental" tags), and all of them with exclude_tags=() (or None).
_BACKENDS = ["cudagraphs", "inductor", "openxla", "tvm"]
_ALL_BACKENDS = sorted(
    _BACKENDS
    + ["aot_eager", "aot_eager_decomp_partition", "aot_eager_decomp_partition_crossref"]
    + ["aot_eager_decomp_partition_with_mode", "aot_eager_default_partitioner", "aot_ts"]
    + ["dynamo_accuracy_minifier_backend", "dynamo_minifier_backend", "eager", "eager_debug"]
    + ["eager_noexcept", "invoke_subgraph", "non_leaf_compile_error_TESTING_ONLY"]
    + ["openxla_eval", "pre_dispatch_eager", "relu_accuracy_error_TESTING_ONLY"]
    + ["relu_compile_error_TESTING_ONLY", "relu_runtime_error_TESTING_ONLY", "ts"]
)


def _list_backends(exclude_tags: Any = ("debug", "experimental")) -> list[str]:
    if not exclude_tags:
        return list(_ALL_BACKENDS)
    return list(_BACKENDS)


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _is_compiling(name: str) -> Any:
    """`torch.compiler.is_compiling()`: True while a function torch.compile returned runs (as
    PyTorch's tracer answers inside it), unless the stance is force_eager."""
    return Builtin(name, lambda: COMPILING[0] > 0 and STANCE[0] != "force_eager")


# How deep the run is in functions torch.compile returned, and torch.compiler's stance.
COMPILING = [0]
# How deep in those of them Dynamo traces without AOTAutograd (backend="eager" or a callable
# backend): there a custom Function's node is Dynamo's own (`function_node_name`).
TRACED = [0]
STANCE = ["default"]
_STANCES = (
    "default",
    "force_eager",
    "eager_on_recompile",
    "fail_on_recompile",
    "eager_then_compile",
)


def function_node_name(name: str, methods: tuple) -> str:
    """The node name of the custom Function `name` applied now: inside a function Dynamo
    traces without AOTAutograd, Dynamo's own Function (`ApplyTemplate`) that replays the
    traced forward and backward, unless a method calls what Dynamo cannot trace (`print`,
    `.item()`, `.tolist()`, `.numpy()`: a graph break, the Function then runs as it is)."""
    if not TRACED[0] or any(_breaks(m) for m in methods):
        return f"{name}Backward"
    return "ApplyTemplateBackward"


_BREAKING = frozenset({"item", "tolist", "numpy"})


def _breaks(method: Any) -> bool:
    node = getattr(getattr(method, "code", None), "node", None)
    if node is None:
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name) and f.id == "print":
                return True
            if isinstance(f, ast.Attribute) and f.attr in _BREAKING:
                return True
    return False


def reset() -> None:
    """A run's start: the settings modules' defaults, nothing compiling, the default stance."""
    DYNAMO_CONFIG.reset()
    COMPILING[0] = 0
    TRACED[0] = 0
    STANCE[0] = "default"
    _forget_compiled()


def _forget_compiled(*args: Any, **kwargs: Any) -> None:
    """`torch._dynamo.reset()` / `torch.compiler.reset()`: every compiled graph forgotten."""
    FRAMES[0] = 0
    FRAMES[1] += 1


class _Scope:
    """A function's run scope (`UserFunction.grad_mode`) that wraps the mode it had: a grad
    mode or autocast block entered inside it (a stack: the function may recurse)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self._blocks: list[Any] = []

    def enter(self) -> None:
        if self.inner is not None:
            from .gradmode import grad_mode_block

            block = grad_mode_block(self.inner)
            block.__enter__()
            self._blocks.append(block)

    def exit(self) -> None:
        if self.inner is not None and self._blocks:
            self._blocks.pop().__exit__(None, None, None)


# The run's compiled frames: how many got a frame id (PyTorch numbers each function's code
# the first time it compiles), and a generation torch._dynamo.reset() moves on (every cache
# emptied).
FRAMES = [0, 0]


class CompiledScope(_Scope):
    """The scope of a function torch.compile returned: while it runs, is_compiling() answers
    True, and its calls follow PyTorch's cache of compiled graphs as far as the stances
    eager_on_recompile and fail_on_recompile show it (`_guards`): each call's tensor
    arguments (dtype, rank, requires_grad, sizes) either fit a graph compiled before or
    compile one more (refused under fail_on_recompile in PyTorch's words; run eagerly under
    eager_on_recompile)."""

    def enter(self) -> None:
        stance = STANCE[0]
        eager = stance == "force_eager" or (stance == "eager_then_compile" and not self._called)
        self._called = True
        if not eager and self.function is not None and stance != "force_eager":
            eager = not self._guards(stance)
        elif stance not in ("default", "force_eager", "eager_then_compile"):
            raise NotSupported(
                f'a compiled module under torch.compiler.set_stance("{stance}") is not '
                "supported by gradcli (it follows PyTorch's recompilations for functions)",
                hint='use set_stance("force_eager") or the default stance',
            )
        COMPILING[0] += 1
        # (run eagerly, PyTorch's outputs have the function's own nodes)
        self._starts.append(peek_seq() if self.aot and not eager else -1)
        self._traced.append(not self.aot and not eager)
        TRACED[0] += self._traced[-1]
        super().enter()

    def _guards(self, stance: str) -> bool:
        """Whether this call runs a compiled graph (False: eagerly); a new graph is kept."""
        if self._generation != FRAMES[1]:
            self._entries, self._frame, self._generation = [], None, FRAMES[1]
        guards = self._call_guards()
        if guards is None:
            if stance in ("eager_on_recompile", "fail_on_recompile"):
                raise NotSupported(
                    f'torch.compiler.set_stance("{stance}") on a call with arguments other '
                    "than tensors is not supported by gradcli (PyTorch's guards on them)",
                    hint="pass tensors only, or use the default stance",
                )
            return True
        failures = []
        for k in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[k]
            why = _mismatch(entry, guards)
            if why is None:
                return True
            failures.append((k, why))
        if self._entries and stance == "eager_on_recompile":
            return False
        if self._entries and stance == "fail_on_recompile":
            if any(why is _DYNAMIC for _, why in failures):
                raise NotSupported(
                    "fail_on_recompile after a recompilation that made sizes dynamic is not "
                    "supported by gradcli (PyTorch's symbolic guards)",
                    hint="call with the sizes compiled first, or use the default stance",
                )
            lines = "\n".join(f"    - {self._frame}/{k}: {why}" for k, why in failures)
            code = self.function.code
            node = code.node
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            import os

            from .values import current

            path = os.path.abspath(current().source.name)
            raise GradcliError(
                "Detected recompile when torch.compile stance is 'fail_on_recompile'. "
                f"filename: '{path}', function name: '{code.name}', line number: {first}\n"
                f"    triggered by the following guard failure(s):\n{lines}",
                hint="call it with arguments of the dtypes, ranks and sizes compiled before",
            ).mirror("RuntimeError")
        if len(self._entries) >= 8:
            return False  # (PyTorch's recompile_limit: the function runs eagerly from then on)
        if self._frame is None:
            self._frame = FRAMES[0]
            FRAMES[0] += 1
        dynamic = bool(self._entries) and all(
            a[:3] == b[:3] for a, b in zip(self._entries[-1], guards)
        )
        previous = self._entries[-1] if dynamic else None
        self._entries.append(
            [
                (*g, None if previous is None else _changed(p[4], g[4]))
                for p, g in zip(previous or guards, guards)
            ]
        )
        return True

    def _call_guards(self) -> list[tuple] | None:
        args = self._args
        code = self.function.code
        if args is None or args[1] or len(args[0]) > len(code.positional):
            return None
        out = []
        for name, v in zip(code.positional, args[0]):
            if not isinstance(v, Tensor) or type(v).__name__ != "Tensor":
                return None
            out.append((name, v.dtype, v.ndim, bool(v.requires_grad), tuple(v.shape)))
        return out

    def __init__(self, inner: Any, aot: bool = True, function: Any = None) -> None:
        super().__init__(inner)
        self.aot = aot
        self.function = function
        self._starts: list[int] = []
        self._last = -1
        self._called = False
        self._entries: list[list[tuple]] = []
        self._frame: int | None = None
        self._generation = FRAMES[1]
        self._args: Any = None
        self._traced: list[bool] = []

    def exit(self) -> None:
        COMPILING[0] -= 1
        TRACED[0] -= self._traced.pop() if self._traced else False
        self._last = self._starts.pop() if self._starts else -1
        super().exit()

    def returned(self, value: Any, args: Any) -> None:
        """The call's value: its tensors made by the call show PyTorch's node of the compiled
        graph as their grad_fn."""
        if self._last >= 0:
            show_compiled(value, self._last, args)


_DYNAMIC = "dynamic"  # (an entry compiled with dynamic sizes: PyTorch's symbolic guards)


def _changed(before: tuple, now: tuple) -> frozenset:
    """The dims whose sizes differ between two calls (PyTorch's automatic dynamic shapes)."""
    return frozenset(i for i, (a, b) in enumerate(zip(before, now)) if a != b)


def _mismatch(entry: list[tuple], guards: list[tuple]) -> str | None:
    """The first of a compiled entry's guards the call's tensors fail, in PyTorch's words
    (None: it fits; `_DYNAMIC`: an entry with dynamic sizes that does not: PyTorch's words
    there are its symbolic guards')."""
    from ..core.dtypes import scalar_type_name

    for (name, dt, nd, rg, _, _), (_, dt2, nd2, rg2, _) in zip(entry, guards):
        if dt != dt2:
            return (
                f"tensor '{name}' dtype mismatch. expected {scalar_type_name(dt)}, actual "
                f"{scalar_type_name(dt2)}"
            )
        if rg != rg2:
            return f"tensor '{name}' requires_grad mismatch. expected requires_grad={int(rg)}"
        if nd != nd2:
            return f"tensor '{name}' rank mismatch. expected {nd}, actual {nd2}"
    sizes: dict[int, int] = {}  # (a dynamic size of the compile call -> this call's)
    for (name, _, _, _, shape, dyn), (_, _, _, _, shape2) in zip(entry, guards):
        for i, (a, b) in enumerate(zip(shape, shape2)):
            if dyn is not None and i in dyn:
                if b < 2 or sizes.setdefault(a, b) != b:
                    return _DYNAMIC
            elif a != b:
                if dyn is not None:
                    return _DYNAMIC
                return f"tensor '{name}' size mismatch at index {i}. expected {a}, actual {b}"
    return None


def show_compiled(value: Any, start: int, args: Any) -> None:
    """The tensors of `value` (a tensor, or a tuple / list / dict of them) that a compiled
    call computed since node `start` share one CompiledFunctionBackward node (PyTorch's
    AOTAutograd graph), numbered in output order. A tensor the call returned unchanged or as
    a view of an input keeps its own node (PyTorch's views are replayed outside the graph)."""
    from ..core.op import COMPILED, CompiledFunctionBackward, graph_inputs

    found = _tensors(value)
    outs = [
        t
        for t in found
        if t.node is not None and t.node.seq >= start and not _view_of_input(t, start)
    ]
    if not outs:
        return
    node = CompiledFunctionBackward(graph_inputs(outs, start, _tensors(args)), peek_seq())
    for k, t in enumerate(outs):
        if t.node not in COMPILED:
            COMPILED[t.node] = (node, k)


def _tensors(value: Any) -> list[Tensor]:
    """The tensors of a value (nested tuples, lists and dicts, a few levels deep), a module's
    parameters and buffers."""
    from ..surface.nn import Module

    found: list[Tensor] = []

    def walk(v: Any, depth: int = 0) -> None:
        if isinstance(v, Tensor):
            found.append(v)
        elif isinstance(v, Module):
            found.extend(v.parameters())
            found.extend(v.buffers())
        elif depth < 4 and isinstance(v, (tuple, list)):
            for item in v:
                walk(item, depth + 1)
        elif depth < 4 and isinstance(v, dict):
            for item in v.values():
                walk(item, depth + 1)

    walk(value)
    return found


def _view_of_input(t: Tensor, start: int) -> bool:
    base = getattr(t, "_base", None)
    return base is not None and (base.node is None or base.node.seq < start)


class StanceScope(_Scope):
    """The scope of a function `@torch.compiler.set_stance(...)` decorates: the stance while
    it runs."""

    def __init__(self, stance: str, inner: Any) -> None:
        super().__init__(inner)
        self.stance = stance
        self._previous: list[str] = []

    def enter(self) -> None:
        self._previous.append(STANCE[0])
        STANCE[0] = self.stance
        super().enter()

    def exit(self) -> None:
        STANCE[0] = self._previous.pop()
        super().exit()


def compiled_function(fn: Any, aot: bool = True) -> Any:
    """What torch.compile returns for a program's function: a copy that runs in a
    CompiledScope (the function itself stays eager, as PyTorch's original does)."""
    g = fn.copy()
    g.grad_mode = CompiledScope(fn.grad_mode, aot, fn)
    return g


def _disable(
    fn: Any = None, recursive: Any = True, *, reason: Any = None, wrapping: Any = True
) -> Any:
    """`torch._dynamo.disable(f)` / `@torch.compiler.disable`: the function itself (it runs
    eagerly, as every function of a gradcli program does)."""
    if fn is None:
        return Builtin("torch.compiler.disable", lambda f: f)
    return fn


def _identity(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return fn


def _optimize(*args: Any, **kwargs: Any) -> Any:
    """`torch._dynamo.optimize("eager")`: a decorator that leaves the function as it is."""
    return Builtin("torch._dynamo.optimize", _identity)


def _refused(name: str, hint: str) -> Builtin:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NotSupported(
            f"`{name}` is not supported by gradcli (it compiles nothing: there is no graph of "
            "the compiler's to show)",
            hint=hint,
        )

    return Builtin(name, refuse)


def _common(ns: str) -> dict[str, Any]:
    """The functions torch._dynamo and torch.compiler have alike."""
    return {
        "reset": Builtin(f"{ns}.reset", _forget_compiled),
        "disable": Builtin(f"{ns}.disable", _disable),
        "allow_in_graph": Builtin(f"{ns}.allow_in_graph", _identity),
        "assume_constant_result": Builtin(f"{ns}.assume_constant_result", _identity),
        "list_backends": Builtin(f"{ns}.list_backends", _list_backends),
    }


def dynamo_members() -> dict[str, Any]:
    return {
        **_common("torch._dynamo"),
        "config": DYNAMO_CONFIG,
        "is_compiling": _is_compiling("torch._dynamo.is_compiling"),
        **{
            n: Builtin(f"torch._dynamo.{n}", _nothing)
            for n in ("mark_dynamic", "mark_static", "maybe_mark_dynamic", "mark_unbacked")
        },
        "optimize": Builtin("torch._dynamo.optimize", _optimize),
        "explain": _refused("torch._dynamo.explain", "call the function itself"),
        "utils": Namespace("torch._dynamo.utils", {"counters": _Counters()}),
    }


class _Counters(Missing):
    """`torch._dynamo.utils.counters` (what tutorials print after a compiled call: captured
    calls, graphs, graph breaks): it imports, as a pasted script's header does; reading it is
    refused, as gradcli compiles nothing and has no counts to give."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("torch._dynamo.utils.counters")

    def refuse(self) -> NotSupported:
        return NotSupported(
            "`torch._dynamo.utils.counters` is not supported by gradcli (it compiles nothing: "
            "no graphs, captured calls or graph breaks to count)",
            hint="leave the counters out: the compiled function's results are PyTorch's",
        )

    def program_attribute(self, name: str) -> Any:
        if name == "clear":  # (`counters.clear()` before a run: nothing to clear)
            return Builtin("torch._dynamo.utils.counters.clear", lambda: None)
        raise self.refuse()

    def program_typename(self) -> str:
        return "collections.defaultdict"

    def program_getitem(self, key: Any) -> Any:
        raise self.refuse()

    def program_iter(self) -> Any:
        raise self.refuse()

    def program_len(self) -> int:
        raise self.refuse()


class _Stance:
    """`torch.compiler.set_stance(stance)`: set at once (as PyTorch's constructor does); in
    `with`, set on entering and the previous one restored on leaving; on a def, the stance
    while the function runs (and the previous one kept meanwhile)."""

    program_context = True
    as_value = None

    def __init__(self, stance: str) -> None:
        self.stance = stance
        self.previous = STANCE[0]
        STANCE[0] = stance

    def enter(self) -> None:
        STANCE[0] = self.stance

    def exit(self) -> None:
        STANCE[0] = self.previous

    def __repr__(self) -> str:
        return "<torch._dynamo.decorators.set_stance object>"

    def __call__(self, fn: Any) -> Any:
        STANCE[0] = self.previous
        from .values import UserFunction

        if not isinstance(fn, UserFunction):
            raise NotSupported(
                "torch.compiler.set_stance(...) on something other than a def of the program "
                "is not supported by gradcli",
                hint="decorate a def, or use `with torch.compiler.set_stance(...):`",
            )
        g = fn.copy()
        g.grad_mode = StanceScope(self.stance, fn.grad_mode)
        return g


def _set_stance(
    stance: Any = "default", *, skip_guard_eval_unsafe: Any = False, force_backend: Any = None
) -> _Stance:
    if stance not in _STANCES:
        raise GradcliError(f"invalid stance {stance!r}", hint=f"one of {', '.join(_STANCES)}")
    return _Stance(stance)


def compiler_members() -> dict[str, Any]:
    return {
        **_common("torch.compiler"),
        "config": COMPILER_CONFIG,
        **{
            n: _is_compiling(f"torch.compiler.{n}") for n in ("is_compiling", "is_dynamo_compiling")
        },
        "is_exporting": Builtin("torch.compiler.is_exporting", _false),
        "cudagraph_mark_step_begin": Builtin("torch.compiler.cudagraph_mark_step_begin", _nothing),
        "set_stance": Builtin("torch.compiler.set_stance", _set_stance),
        "get_default_backend": Builtin("torch.compiler.get_default_backend", lambda: "inductor"),
    }


def inductor_members() -> dict[str, Any]:
    return {"config": INDUCTOR_CONFIG}


def functorch_members() -> dict[str, Any]:
    return {"config": FUNCTORCH_CONFIG}


def optimized_module(module: Any, aot: bool = True) -> Any:
    """`torch.compile(module)`: PyTorch's OptimizedModule around it (its text, its
    `_orig_mod`, state_dict keys under `_orig_mod.`); every other name is the module's."""
    from ..surface.nn import Module

    class OptimizedModule(Module):
        """PyTorch's wrapper: the module as its one child `_orig_mod`, called in a compiled
        scope; a name it lacks read from and written to the module."""

        METHODS = Module.METHODS

        @staticmethod
        def program_class(module: Any) -> str:  # (type(m), as `builtins.type_of` asks)
            return "torch._dynamo.eval_frame.OptimizedModule"

        def __init__(self, mod: Module) -> None:
            self.__dict__["_orig"] = mod
            super().__init__()
            self._modules["_orig_mod"] = mod

        @property
        def training(self) -> bool:
            return self.__dict__["_orig"].training

        @training.setter
        def training(self, value: bool) -> None:
            if "_modules" in self.__dict__:
                self.__dict__["_orig"].training = value

        def forward(self, *inputs: Any, **kwargs: Any) -> Any:
            mod = self.__dict__["_orig"]
            scope = CompiledScope(None, aot)
            scope.enter()
            try:
                out = mod(*inputs, **kwargs)
            finally:
                scope.exit()
            scope.returned(out, (inputs, kwargs, mod))
            return out

        def program_attribute(self, name: str) -> Any:
            if name in ("_orig_mod", "_modules", "_parameters", "_buffers", "forward"):
                return super().program_attribute(name)
            if name in self.METHODS or name in self.ATTRIBUTES:
                return super().program_attribute(name)
            return self.__dict__["_orig"].program_attribute(name)

        def program_set(self, name: str, value: Any) -> None:
            if name in self.ATTRIBUTES:
                super().program_set(name, value)
            else:
                self.__dict__["_orig"].program_set(name, value)

        def __len__(self) -> int:
            mod = self.__dict__["_orig"]
            if not hasattr(mod, "__len__"):
                raise GradcliError(f"{mod.name} does not support len()").mirror("TypeError")
            return len(mod)

    return OptimizedModule(module)
