"""The modules a program can name (`torch`, `torch.nn`, `F`, `torch.autograd`, `numpy`,
`math`) as fixed tables of members, and a tensor's properties and methods as a program sees
them (the surface's, and the few that hand the program a value of the language: `.numpy()`,
`.to(device)`)."""

from __future__ import annotations

import ast
import functools
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import autograd
from ..core import dtypes as D
from ..core.op import Node, current
from ..core.tensor import (
    VMAP_STORAGE,
    Settings,
    Tensor,
    _GradMode,
    batched,
    grad_dtype_of,
    grad_enabled,
    no_meta_data,
    on_meta,
    python_value,
    read_grad,
    share,
    typename,
)
from ..surface import constructors as K
from ..surface import functional as F
from ..surface import names
from ..surface.args import MEMORY_FORMATS
from ..surface.printing import GradientEdge, Size, set_printoptions
from ..surface.saved import grad_fn as saved_grad_fn
from . import builtins as _builtins_module
from . import progress
from . import pycollections as PC
from .builtins import (
    COUNTER_TYPE,
    DEFAULT_DICT,
    DEQUE_TYPE,
    NONE_TYPE,
    ORDERED_DICT,
    UNINITIALIZED_BUFFER_TYPE,
    UNINITIALIZED_TYPE,
)
from .values import (
    ABSTRACT_BASES,
    FUNCTION_BASE,
    HINT_TYPES,
    MODULE_TYPES,
    PARAMETER_TYPE,
    PROGRAM_INSTANCES,
    SPARSE_COO,
    SPARSE_CSR,
    STRIDED,
    TENSOR_TYPE,
    Builtin,
    Ctx,
    Device,
    DType,
    GenericAlias,
    Namespace,
    PyType,
    UserFunction,
    abstract_bases,
    check_structure,
    loss_bases,
    seq,
    short,
)


def _new_ctx(*args: Any, **kwargs: Any) -> Any:
    raise NotSupported(
        "creating a torch.autograd.function.FunctionCtx is not supported: gradcli makes the "
        "ctx of each call of a Function itself",
        hint="use the ctx that forward (or setup_context) and backward receive",
    )


def _hooks_members() -> dict[str, Any]:
    """torch.utils.hooks: the class of the handles `register_hook` and the modules' hook
    registrations return (for `isinstance` and annotations; `handle.remove()` is the
    handle's own)."""
    from ..core.tensor import HookHandle

    return {
        "RemovableHandle": PyType(
            "RemovableHandle", (HookHandle,), None, shown="torch.utils.hooks.RemovableHandle"
        )
    }


def _module_tracker_members() -> dict[str, Any]:
    """torch.utils.module_tracker: its ModuleTracker (`surface.module_tracker`)."""
    from ..surface.module_tracker import ModuleTracker

    return {
        "ModuleTracker": PyType(
            "ModuleTracker",
            (ModuleTracker,),
            ModuleTracker,
            shown="torch.utils.module_tracker.ModuleTracker",
        )
    }


_UNSET = object()


def _swap_views_refusal(name: str, t: Any) -> None:
    """PyTorch refuses to swap a tensor that other tensors (its views) hold: they would keep
    its old storage. Its words: a leaf not requiring grad fails in get_gradient_edge, others in
    the use-count check (their count: the tensor, its views, an AccumulateGrad)."""
    import gc

    from ..core.tensor import Tensor

    views = sum(
        1
        for r in gc.get_referrers(t)
        if isinstance(r, Tensor) and r is not t and (r._base is t or (r._view or (None,))[0] is t)
    )
    if not views:
        return
    if views == 1 and not t.requires_grad:
        raise GradcliError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients",
            hint="a tensor with views cannot be swapped: swap a .clone() of it",
        ).mirror("RuntimeError")
    raise GradcliError(
        f"Expected use_count of {name} to be 1 or 2 with an AccumulateGrad node but got "
        f"{views + 1 + bool(t.requires_grad)} make sure you are not holding references to the "
        "tensor in other places.",
        hint="a tensor with views cannot be swapped: swap a .clone() of it",
    ).mirror("RuntimeError")


def swap_tensors(t1: Any, t2: Any) -> None:
    """`torch.utils.swap_tensors(t1, t2)`: each object keeps its identity (every name, module
    and optimizer holding it sees the change) and takes the other's contents: class (Parameter
    or Tensor), data, shape, dtype, grad, flags and the program's own attributes."""
    from ..core.tensor import Tensor

    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, Tensor):
            raise GradcliError(
                f"'{typename(t)}' object has no attribute '_use_count'",
                hint="torch.utils.swap_tensors(a, b) swaps two tensors",
            ).mirror("AttributeError")
        if t.node is not None:
            raise NotSupported(
                f"torch.utils.swap_tensors of a tensor computed by an operation ({name} has a "
                "grad_fn) is not supported by gradcli",
                hint="swap leaf tensors or Parameters (made by torch.tensor, torch.randn, "
                "nn.Parameter, .detach().clone())",
            )
    if t1 is t2:
        return
    for name, t in (("t1", t1), ("t2", t2)):
        _swap_views_refusal(name, t)
    import weakref

    from ..core.autograd import SWAPPED
    from ..core.op import SEQ

    for t in (t1, t2):
        k = id(t)

        def gone(r: Any, k: int = k) -> None:  # the tensor freed: its entry goes with it
            if SWAPPED.get(k, (None,))[0] is r:
                del SWAPPED[k]

        SWAPPED[k] = (weakref.ref(t, gone), SEQ[0])
    cls1, cls2 = type(t1), type(t2)
    if cls1 is not cls2:
        t1.__class__, t2.__class__ = cls2, cls1
    for slot in Tensor.__slots__:
        if slot != "__weakref__":
            a, b = getattr(t1, slot, _UNSET), getattr(t2, slot, _UNSET)
            for t, v in ((t1, b), (t2, a)):
                if v is _UNSET:
                    if hasattr(t, slot):
                        delattr(t, slot)
                else:
                    setattr(t, slot, v)


def size_builtin(s: Any = ()) -> Size:
    """`torch.Size(...)`."""
    items = [int(i) if isinstance(i, np.integer) else i for i in seq(s, "torch.Size()")]
    for i in items:
        if isinstance(i, bool) or not isinstance(i, int):
            raise GradcliError(f"torch.Size() takes integers, not {typename(i)}").mirror(
                "TypeError"
            )
    return Size(tuple(items))


_NAMESPACES: dict[str, Namespace] | None = None


class _Lazy:
    """A surface function imported when a program first calls it (start-up stays lean), with
    its signature, so that a call that does not fit it is the program's error."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def target(self) -> Any:
        import importlib

        return getattr(importlib.import_module(self.module, __package__), self.name)

    @property
    def __signature__(self) -> Any:
        import inspect

        return inspect.signature(self.target())

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<function {self.name}>"


class _Transform(_Lazy):
    """A function of `torch.autograd.functional` / `torch.func` / `gradcheck` (lazily
    imported): the program function it is given (a def, a lambda, torch.sin, a module,
    another transform's result) is called back through the interpreter, as the program would
    call it."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args:
            args = (ProgramFunction.of(args[0]), *args[1:])
        elif "func" in kwargs:
            kwargs = {**kwargs, "func": ProgramFunction.of(kwargs["func"])}
        return self.target()(*args, **kwargs)


class _Deprecated(_Transform):
    """`functorch.grad` and the other transforms of the old name: torch.func's, after
    PyTorch's FutureWarning."""

    def __init__(self, name: str, new_api: str | None = None):
        super().__init__("..surface.func", name)
        self.new_api = new_api

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .functorch import deprecated

        deprecated(self.name, self.new_api)
        return super().__call__(*args, **kwargs)


def _functorch_members() -> dict[str, Any]:
    from .functorch import MODULE_FUNCTIONS

    # (functorch has no linearize; its functionalize is functorch.experimental's)
    transforms = [n for n in _FUNC if n not in ("linearize", "functionalize")]
    rearrange = _Lazy("..surface.einops", "rearrange")
    return {
        **{n: _Deprecated(n, "torch.vmap" if n == "vmap" else None) for n in transforms},
        **MODULE_FUNCTIONS,
        "einops": Namespace("functorch.einops", {"rearrange": rearrange}),
    }


class ProgramFunction:
    """A value of the program called from gradcli's code: through the running interpreter's
    calls (its signature check, its limits, its error positions)."""

    __slots__ = ("value", "__name__")

    def __init__(self, value: Any):
        self.value = value
        self.__name__ = _function_name(value)

    @staticmethod
    def of(value: Any) -> Any:
        return value if isinstance(value, ProgramFunction) else ProgramFunction(value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .values import current

        return current().call(self.value, list(args), kwargs, None)

    def __repr__(self) -> str:
        return repr(self.value)


def _function_name(f: Any) -> str:
    """The name PyTorch's messages give a function (`__name__`: `<lambda>`, `dot`)."""
    from .values import BoundMethod, Partial, UserFunction

    if isinstance(f, UserFunction):
        return f.name
    if isinstance(f, Partial):
        return "partial"  # (no __name__; its repr would show the tensors it holds)
    if isinstance(f, (Builtin, BoundMethod)):
        return f.name.rsplit(".", 1)[-1]
    name = getattr(f, "__name__", None)
    return name if isinstance(name, str) else repr(f)


MIRRORED_TORCH = "2.13.0+cpu"  # the PyTorch release (CPU build) whose output gradcli mirrors

_FUNCTIONAL = ("vjp", "jvp", "jacobian", "hessian", "vhp", "hvp")
_FUNC = (
    "grad",
    "grad_and_value",
    "vjp",
    "jvp",
    "jacrev",
    "jacfwd",
    "hessian",
    "vmap",
    "linearize",
    "functionalize",
)


def _nothing_on_the_cpu(*args: Any, **kwargs: Any) -> None:
    return None


def _zero_bytes(device: Any = None) -> int:
    """`torch.cuda.memory_allocated()` and its kin: 0 without a GPU, as PyTorch answers."""
    return 0


def _no_cuda(*args: Any, **kwargs: Any) -> Any:
    """A `torch.cuda` function that needs a GPU: PyTorch's AssertionError without one."""
    from ..surface.args import no_accelerator

    raise no_accelerator()


def _set_flush_denormal(mode: Any) -> bool:
    """torch.set_flush_denormal: PyTorch's x86 build can (True); on, no float tensor value is
    subnormal from then on (`core.tensor.FLUSH_DENORMAL`)."""
    from ..core.tensor import FLUSH_DENORMAL, pytype_name

    if not isinstance(mode, bool):
        raise GradcliError(f"flush_denormal expects a bool, but got {pytype_name(mode)}").mirror(
            "RuntimeError"
        )
    FLUSH_DENORMAL[0] = mode
    return True


class _Threads:
    """The thread counts a program sets (`torch.set_num_threads(4)`): gradcli computes on one
    thread whatever they are (its numbers are PyTorch's one-thread numbers), and remembers them
    so that `torch.get_num_threads()` answers what PyTorch answers after the call; PyTorch's
    one-time rule for the inter-op pool is kept. Reset when a run starts (`FLAGS`)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        # (the inter-op pool's size before a program sets it: PyTorch's, one thread a
        # physical core, `core.cpu.physical_cores`, read when first asked)
        self.counts: dict[str, int | None] = {
            "set_num_threads": 1,
            "set_num_interop_threads": None,
        }
        self.interop_set = False

    def get(self, fn: str) -> int:
        count = self.counts[fn]
        if count is None:
            from ..core.cpu import physical_cores

            count = physical_cores()
        return count


THREADS = _Threads()


def _set_threads(fn: str) -> Callable[[Any], None]:
    """`torch.set_num_threads(n)` / `set_num_interop_threads(n)`: n checked with PyTorch's
    words, then remembered (`THREADS`)."""

    def set_threads(num: Any) -> None:  # (PyTorch's parameter name: set_num_threads(num=4))
        if isinstance(num, bool) or not isinstance(num, int):
            raise GradcliError(f"{fn} expects an int, but got {typename(num)}")
        if not -(2**63) <= num < 2**63:  # (PyTorch unpacks a C long long, then an int)
            raise GradcliError("Overflow when unpacking long long").mirror("ValueError")
        if not -(2**31) <= num < 2**31:
            raise GradcliError("Overflow when unpacking long").mirror("ValueError")
        if num <= 0:
            raise GradcliError(f"{fn} expects a positive integer")
        if fn == "set_num_interop_threads":
            if THREADS.interop_set:
                raise GradcliError(
                    "Error: cannot set number of interop threads after parallel work has "
                    "started or set_num_interop_threads called"
                )
            THREADS.interop_set = True
        THREADS.counts[fn] = num
        return None

    return set_threads


def _string_members() -> dict[str, Any]:
    """string's constants (a char-RNN tutorial's `all_letters = string.ascii_letters`), loaded
    when a program imports string."""
    import string

    names = ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits")
    names += ("octdigits", "punctuation", "printable", "whitespace")
    return {name: getattr(string, name) for name in names}


def _unicodedata_members() -> dict[str, Any]:
    """unicodedata's functions of characters and strings (the char-RNN tutorials'
    unicodeToAscii: `unicodedata.normalize('NFD', s)` and `unicodedata.category(c)`), run by
    Python's own module on the program's text, a result longer than the string limit refused."""
    import unicodedata

    plain = (str, int, float, bool, type(None))

    def wrap(name: str) -> Builtin:
        fn = getattr(unicodedata, name)

        def call(*args: Any) -> Any:
            for i, a in enumerate(args):
                if not isinstance(a, plain):  # (Python's words for a character's functions)
                    which = (
                        f"argument {i + 1}"
                        if name in ("normalize", "is_normalized")
                        else ("argument")
                    )
                    what = (
                        "str"
                        if name in ("normalize", "is_normalized", "lookup")
                        else ("a unicode character")
                    )
                    raise GradcliError(
                        f"{name}() {which} must be {what}, not {typename(a)}"
                    ).mirror("TypeError")
            if name == "normalize" and len(args) == 2 and isinstance(args[1], str):
                # (NFKD and NFKC make at most 18 characters of one)
                limits.STRING_CHARS.check(len(args[1]), "the length of the string")
            try:
                out = fn(*args)
            except (TypeError, ValueError, KeyError) as e:
                words = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
                raise GradcliError(str(words)).mirror(type(e).__name__) from None
            if isinstance(out, str):
                limits.STRING_CHARS.check(len(out), "the length of the string")
            return out

        call.__name__ = name
        return Builtin(f"unicodedata.{name}", call)

    names = "normalize is_normalized category name lookup combining decimal digit numeric "
    names += "bidirectional east_asian_width mirrored decomposition"
    return {
        **{n: wrap(n) for n in names.split()},
        "unidata_version": unicodedata.unidata_version,
    }


def _set_default_device(device: Any) -> None:
    """`torch.set_default_device('cpu')`: the CPU is gradcli's one device (None too)."""
    from ..core.tensor import pytype_name
    from ..surface.args import cpu_device, parser_typename

    if device is None:
        return
    if isinstance(device, int) and not isinstance(device, bool):  # an accelerator's index
        raise GradcliError("Cannot access accelerator device when none is available.")
    if not isinstance(device, (str, Device)):  # torch.device(x)'s parser words
        raise GradcliError(
            f"device() received an invalid combination of arguments - got ({pytype_name(device)}"
            "), but expected one of:\n * (torch.device device)\n      didn't match because "
            f"some of the arguments have invalid types: (!{parser_typename(device)}!)\n"
            " * (str type, int index = -1)\n"
        ).mirror("TypeError")
    cpu_device(str(device) if isinstance(device, Device) else device)


def _typename(obj: Any) -> str:
    """`torch.typename(x)`: a tensor's type string (torch.FloatTensor), else the qualified
    name of the value's class as Python gives it."""
    if isinstance(obj, Tensor):
        from ..surface.names import _type

        return _type(obj)
    from ..core.tensor import torch_typename

    return torch_typename(obj)


_WARN_ALWAYS = [False]


def _set_warn_always(b: Any) -> None:
    _WARN_ALWAYS[0] = bool(b)


_COMPILE_MODES = (
    "default",
    "lite",
    "reduce-overhead",
    "max-autotune-no-cudagraphs",
    "max-autotune",
)


def _as_compiled(model: Any, what: str) -> Any:
    if isinstance(model, (bool, int, float, str, bytes, list, tuple, dict, Tensor)):
        if what == "torch.jit.trace":  # (PyTorch's trace reads its missing example inputs)
            raise GradcliError("'NoneType' object is not iterable").mirror("TypeError")
        if isinstance(model, Tensor):  # the class as PyTorch's Python names it
            param = type(model).__name__ == "Parameter"
            shown = "torch.nn.parameter.Parameter" if param else "torch.Tensor"
        else:
            shown = type(model).__name__
        raise GradcliError(
            f"A callable function is expected, but <class '{shown}'> is provided."
        ).mirror("AssertionError")
    return model


def _compile(
    model: Any = None,
    *,
    fullgraph: Any = False,
    dynamic: Any = None,
    backend: Any = "inductor",
    mode: Any = None,
    options: Any = None,
    disable: Any = False,
) -> Any:
    """`torch.compile(f)` / `@torch.compile(...)`: the function or module itself. gradcli
    interprets every program the same way; compiling changes how PyTorch runs it, not what it
    computes (a module is not wrapped in PyTorch's OptimizedModule)."""
    if mode is not None and options is not None:
        raise GradcliError(
            "Either mode or options can be specified, but both can't be specified at the same time."
        ).mirror("RuntimeError")
    if mode is not None and mode not in _COMPILE_MODES:
        raise GradcliError(
            f"Unrecognized mode={mode}, should be one of: {', '.join(_COMPILE_MODES)}"
        ).mirror("RuntimeError")
    from .gradmode import COMPILE_USED

    COMPILE_USED[0] = True
    # AOTAutograd (every named backend but "eager") gives the outputs its own grad_fn
    aot = backend != "eager" and isinstance(backend, str) and not disable
    if model is None:
        return Builtin("torch.compile", lambda m: _compiled_function(m, aot))
    return _compiled_function(model, aot)


def _compiled_function(model: Any, aot: bool = True) -> Any:
    made = _as_compiled(model, "torch.compile")
    if isinstance(made, UserFunction):  # (is_compiling() answers True while it runs)
        from .compiling import compiled_function

        return compiled_function(made, aot)
    from ..surface.nn import Module

    if isinstance(made, Module):
        from .compiling import optimized_module

        return optimized_module(made, aot)
    return made


def _jit_script(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """`torch.jit.script(f)`, `@torch.jit.script`, `torch.jit.trace(f, example)`: the
    function or module itself, run by gradcli's interpreter as every program is (noted in
    SCRIPTED: reading TorchScript's own attributes of it is refused as not supported)."""
    _script_refusal(obj)
    from .jit import made_over

    return _jit_register(made_over(_as_compiled(obj, "torch.jit"), "script"))


def _script_refusal(obj: Any) -> None:
    """PyTorch's own errors of `torch.jit.script(value)` for values that are not code (its
    frontend asks `inspect` for the source: Python's TypeError), a list or dict (TorchScript's
    ScriptList/ScriptDict, not gradcli's) refused in plain words."""
    if isinstance(obj, Tensor) and type(obj).__name__ != "Parameter":
        raise GradcliError(
            "module, class, method, function, traceback, frame, or code object was expected, "
            "got method_descriptor",
            hint="torch.jit.script takes a function or an nn.Module, not a tensor",
        ).mirror("TypeError")
    if isinstance(obj, Tensor):
        # (a Parameter: TorchScript compiles its class's Python methods and stops at a name
        # they use; PyTorch's message then names the file in its install)
        raise GradcliError(
            "\nundefined value has_torch_function_unary:\n"
            '  File "torch/_tensor.py", line 1287\n'
            "        if has_torch_function_unary(self):\n"
            "           ~~~~~~~~~~~~~~~~~~~~~~~~ <--- HERE\n",
            hint="torch.jit.script takes a function or an nn.Module, not a parameter",
        ).mirror("RuntimeError")
    if isinstance(obj, (bool, int, float, str, bytes, tuple)):
        raise GradcliError(
            f"<class '{type(obj).__name__}'> is a built-in class",
            hint="torch.jit.script takes a function or an nn.Module",
        ).mirror("TypeError")
    if isinstance(obj, (list, dict)):
        raise NotSupported(
            "torch.jit.script of a list or dict (TorchScript's ScriptList/ScriptDict) is not "
            "supported by gradcli",
            hint="use the list or dict itself",
        )


def _jit_register(obj: Any, *args: Any, **kwargs: Any) -> Any:
    obj = _as_compiled(obj, "torch.jit")
    if id(obj) not in SCRIPTED:
        limits.LIST_ITEMS.check(len(SCRIPTED) + 1, "the number of torch.jit.script results")
        SCRIPTED[id(obj)] = obj
    return obj


def _jit_trace(
    obj: Any,
    example_inputs: Any = None,
    optimize: Any = None,
    check_trace: Any = True,
    *args: Any,
    **kwargs: Any,
) -> Any:
    """`torch.jit.trace(f, example)`: the module or function made over as PyTorch's
    (`lang.jit`), after the runs of `f` on the example that tracing makes."""
    from .jit import freeze, made_over, run_example

    example_kwargs = kwargs.get("example_kwarg_inputs")
    if example_inputs is None and example_kwargs is None:
        _as_compiled(obj, "torch.jit.trace")
    obj = _as_compiled(obj, "torch.jit")
    frozen = run_example(obj, example_inputs, example_kwargs, 3 if check_trace else 1)
    return _jit_register(freeze(made_over(obj, "trace"), frozen))


def _library_members() -> dict[str, Any]:
    from . import library

    return library.members()


class _TorchOps:
    """`torch.ops` (`lang.library.Ops`), whose module is imported when a program reads one of
    its names (start-up)."""

    __slots__ = ()

    def program_attribute(self, name: str) -> Any:
        from .library import Ops

        return Ops().program_attribute(name)

    def program_typename(self) -> str:
        return "_Ops"

    def __repr__(self) -> str:
        return "<module 'torch.ops' from 'torch._ops.py'>"


def _jit_members() -> dict[str, Any]:
    """`torch.jit`'s names, made when a program first reads one (`lang.jit` imported then)."""
    from . import jit
    from .exceptions import CLASSES

    return {
        "script": Builtin("torch.jit.script", _jit_script),
        "trace": Builtin("torch.jit.trace", _jit_trace),
        "ScriptModule": jit.SCRIPT_MODULE,
        "ScriptFunction": jit.SCRIPT_FUNCTION,
        "ignore": Builtin("torch.jit.ignore", _jit_ignore),
        # TorchScript's markers on a module's methods (gradcli runs them as Python's code)
        "script_method": Builtin("torch.jit.script_method", _jit_script_method),
        "unused": Builtin("torch.jit.unused", _jit_unused),
        "export": Builtin("torch.jit.export", _jit_marker),
        "annotate": Builtin("torch.jit.annotate", _jit_annotate),
        "is_scripting": Builtin("torch.jit.is_scripting", jit.is_scripting),
        "Final": TypingName("Final"),  # (typing's: `scale: torch.jit.Final[float]`)
        "Error": CLASSES["Error"],  # (what scripted code calling an unused method raises)
    }


def _jit_marker(fn: Any) -> Any:
    """`@torch.jit.export`: the function."""
    return fn


def _jit_script_method(fn: Any) -> Any:
    """`@torch.jit.script_method`: the function, run as TorchScript's (`jit.JitScope`)."""
    from . import jit

    return jit.jit_scoped(fn, "script")


def _jit_unused(fn: Any) -> Any:
    """`@torch.jit.unused`: the function, refused when scripted code calls it."""
    from . import jit

    return jit.jit_scoped(fn, "unused")


def _jit_ignored(fn: Any) -> Any:
    """`@torch.jit.ignore`: the function, run as Python's code even from scripted code."""
    from . import jit

    return jit.jit_scoped(fn, "python")


def _jit_annotate(the_type: Any, the_value: Any) -> Any:
    """`torch.jit.annotate(List[Tensor], [])`: the value (the type is TorchScript's)."""
    return the_value


def _jit_ignore(drop: Any = False, **kwargs: Any) -> Any:
    """`@torch.jit.ignore` (the function itself) or `@torch.jit.ignore(drop=True)`, which
    makes the decorator, as PyTorch's (with its FutureWarning for `drop`)."""
    if not isinstance(drop, bool):
        if callable(drop):
            return _jit_ignored(_as_compiled(drop, "torch.jit"))
        shown = (
            short(str(drop))
            if drop is None or isinstance(drop, (str, int, float))
            else f"<{typename(drop)} object>"
        )
        raise GradcliError(
            f"Argument to @torch.jit.ignore must be a bool or a function but got {shown}"
        ).mirror("RuntimeError")
    drop_on_export = kwargs.pop("drop_on_export", None)  # (other keywords: ignored, as PyTorch)
    which = "drop_on_export=True" if drop_on_export else "True" if drop else None
    if which is not None:
        from .values import current

        current().python_warning(
            f"ignore({which}) has been deprecated. TorchScript will now drop the function "
            "call on compilation. Use torch.jit.unused now. {}",
            "FutureWarning",
            "__main__",
        )
    return Builtin("ignore.<locals>.decorator", _jit_unused if which else _jit_ignored)


# What torch.jit.script/trace gave in this run, by id (the objects kept: ids stay theirs),
# and the attributes of PyTorch's ScriptModule/ScriptFunction that are TorchScript's own.
SCRIPTED: dict[int, Any] = {}
JIT_ATTRIBUTES = frozenset(
    {"code", "code_with_constants", "graph", "inlined_graph", "graph_for", "original_name"}
    | {"save", "schema", "qualified_name", "_c", "forward_magic_method", "define"}
)


def scripted_attribute(rt: Any, owner: Any, attr: str) -> Any:
    """`m.code` (`.graph`, `.inlined_graph`...) of what torch.jit.script/trace gave: the
    object's own attribute when it has one, else refused in plain words (gradcli runs the
    Python code itself; it has no TorchScript program to show)."""
    del SCRIPTED[id(owner)]
    try:
        return rt.attribute(owner, attr)
    except GradcliError as e:
        if e.python_class != "AttributeError":
            raise
        raise NotSupported(
            f"`.{attr}` of a torch.jit.script/trace result is not supported: gradcli runs "
            "the scripted function or module as Python code and has no TorchScript "
            "program (its code, graph or schema) to show",
            found=f"`.{attr}`",
            hint="print the module itself (print(model)) or the function's source; call the "
            "scripted object as before",
        ) from None
    finally:
        SCRIPTED[id(owner)] = owner


_HIGHER_ORDER_OPS = Namespace(
    "torch._higher_order_ops",
    {
        "cond": _Lazy(".controlflow", "cond"),
        "while_loop": _Lazy(".controlflow", "while_loop"),
        "scan": _Lazy(".controlflow", "scan"),
        "map": _Lazy(".controlflow", "map_"),
    },
)


def _compiling(members: str) -> dict[str, Any]:
    from . import compiling

    return getattr(compiling, members)()


# What a decorator of these names (called or not) does to a function: nothing gradcli needs.
PASS_THROUGH_DECORATORS = ("torch.compile", "torch.jit.script", "torch.jit.ignore")


def _amp_members(cuda: bool) -> dict[str, Any]:
    """`torch.amp` and `torch.cuda.amp` (`lang.amp`): autocast, GradScaler, custom_fwd and
    custom_bwd as PyTorch on a machine without CUDA has them."""
    from . import amp

    if cuda:
        return {
            "autocast": amp.AmpClass("autocast", "torch.cuda.amp.autocast_mode.autocast", True),
            "GradScaler": amp.AmpClass("GradScaler", "torch.cuda.amp.grad_scaler.GradScaler", True),
            "custom_fwd": amp.CUDA_CUSTOM_FWD,
            "custom_bwd": amp.CUDA_CUSTOM_BWD,
        }
    return {
        "autocast": amp.AUTOCAST,
        "GradScaler": amp.GRAD_SCALER,
        "custom_fwd": amp.CUSTOM_FWD,
        "custom_bwd": amp.CUSTOM_BWD,
        "is_autocast_available": Builtin(
            "torch.amp.is_autocast_available", amp.is_autocast_available
        ),
    }


def _cpu_amp_members() -> dict[str, Any]:
    """`torch.cpu.amp`: its deprecated autocast (torch.autocast('cpu') after a warning)."""
    from . import amp

    return {"autocast": amp.CpuAmpClass()}


def _collect(generation: Any = 2) -> int:
    """`gc.collect()`: gradcli frees a run's memory itself (what programs call it for after
    `del`); nothing is collected at the program's request, and 0 unreachable objects are
    reported."""
    return 0


def _clock(fn: Callable[[], float]) -> Callable[[], float]:
    def read() -> float:
        return fn()

    return read


# `time` as programs use it to time a loop (the numbers differ on every run, as in Python);
# no sleep: a program cannot wait.
_CLOCKS: dict[str, Callable[[], float]] = {
    "time": _clock(time.time),
    "perf_counter": _clock(time.perf_counter),
    "monotonic": _clock(time.monotonic),
    "process_time": _clock(time.process_time),
}


def _time_strftime(fmt: Any, t: Any = None) -> str:
    """`time.strftime('%Y%m%d-%H%M%S')`: the local time now as text (a run's name)."""
    import datetime

    from .formatting import strftime

    if t is not None:
        raise NotSupported(
            "time.strftime() of a time tuple is not supported by gradcli",
            hint="time.strftime(format) formats the time now",
        )
    return strftime(datetime.datetime.now(), fmt)


def _warn(message: Any, category: Any = None, stacklevel: Any = 1, source: Any = None) -> None:
    """`warnings.warn(message)`: the program's own warning, on stderr with gradcli's (once for
    each place, as Python's default filter shows it), unless the program's filters drop it or
    make it an error."""
    from . import pywarnings
    from .builtins import builtin_str
    from .exceptions import CLASSES, ExcValue
    from .values import current

    rt = current()
    if isinstance(message, ExcValue) and message.cls.is_subclass_of(CLASSES["Warning"]):
        # `warnings.warn(UserWarning("..."))`: the instance's class is the category
        category, message = message.cls, message.text()
    text = builtin_str(message)
    kind = "UserWarning" if category is None else pywarnings.warning_category(category, "warn")
    level = stacklevel if isinstance(stacklevel, int) and not isinstance(stacklevel, bool) else 1
    rt.python_warning(text, kind, "__main__", stacklevel=level)


def _warnings_namespace() -> Namespace:
    from . import pywarnings as W

    names = ("filterwarnings", "simplefilter", "resetwarnings", "catch_warnings")
    return Namespace(
        "warnings",
        {
            **{n: Builtin(f"warnings.{n}", getattr(W, n)) for n in names},
            "warn": Builtin("warnings.warn", _warn),
        },
    )


def _numpy_more_linalg() -> dict[str, Any]:
    from . import numpy_more

    return numpy_more.linalg_functions()


def _numpy_more() -> dict[str, Any]:
    from . import numpy_more
    from .values import PyType

    return {
        **numpy_more.functions(),
        # `np.dtype('float32')`, `isinstance(a.dtype, np.dtype)`
        "dtype": PyType("dtype", (np.dtype,), numpy_more._make_dtype, shown="numpy.dtype"),
        **numpy_more.abstract_types(),
        "ufunc": _ufunc_type(),
    }


def _ufunc_type() -> Any:
    from .numpy_ufuncs import Ufunc
    from .values import PyType

    return PyType("ufunc", (Ufunc,), None, shown="numpy.ufunc")


def _emath() -> dict[str, Any]:
    from . import numpy_more

    return numpy_more.emath_functions()


def _stride_tricks() -> dict[str, Any]:
    from . import numpy_more

    return numpy_more.stride_tricks()


def _numpy_fft() -> dict[str, Any]:
    from . import numpy_fft

    return numpy_fft.functions()


def _sdpa(table: str) -> dict[str, Any]:
    """torch.nn.attention's members or torch.backends.cuda's attention switches
    (`lang.sdpa`, imported when a program first reaches into either)."""
    from . import sdpa

    return getattr(sdpa, table)()


class Flags:
    """Settings a program reads and sets that change nothing in gradcli (its CPU kernels are
    deterministic; there is no cuDNN, CUDA or TF32): `torch.backends.cudnn` (`deterministic`,
    `benchmark`, `enabled`, `allow_tf32`), `torch.backends.cuda.matmul` (`allow_tf32`...), with
    their `is_available()` / `is_built()`; reset when a run starts (`FLAGS`)."""

    def __init__(self, name: str, defaults: dict[str, Any], answers: dict[str, bool]) -> None:
        self.name = name
        self.DEFAULTS = defaults
        self.answers = answers  # is_available(), is_built()...: PyTorch's CPU build's answers
        self.values: dict[str, Any] = {}
        self.reset()

    def reset(self) -> None:
        self.values = {
            **self.DEFAULTS,
            "deterministic_algorithms": False,
            "deterministic_warn_only": False,
            "float32_matmul_precision": "highest",
        }

    def program_attribute(self, name: str) -> Any:
        if name in self.DEFAULTS:
            return self.values[name]
        place = _FP32_PLACES.get((self.name, name))
        if place is not None:  # torch.backends.mkldnn.matmul (an object), .fp32_precision
            if name == "fp32_precision":
                return FP32.get(*place)
            return _FP32_OBJECTS.setdefault(place, FP32Precision(*place))
        if name in self.answers:
            answer = self.answers[name]
            return Builtin(f"{self.name}.{name}", lambda: answer)
        raise GradcliError(f"module '{self.name}' has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_set(self, name: str, value: Any) -> None:
        if name == "fp32_precision" and (self.name, name) in _FP32_PLACES:
            # (mkldnn's sets the generic precision, as PyTorch's property does)
            place = ("generic", "all") if self.name == "torch.backends.mkldnn" else None
            FP32.set(*(place or _FP32_PLACES[self.name, name]), value)
            return
        if name not in self.DEFAULTS:
            raise NotSupported(
                f"setting {self.name}.{name} is not supported",
                hint=f"gradcli knows {', '.join(self.DEFAULTS)}",
            )
        if type(value) is not bool:
            if name.endswith("reduced_precision_reduction"):
                raise GradcliError(
                    f"{name} expects a bool or a tuple/list of bools, but got "
                    f"<class '{typename(value)}'>"
                ).mirror("TypeError")
            setter = _SETTERS.get((self.name, name), f"set_{name}")
            raise GradcliError(f"{setter} expects a bool, but got {typename(value)}").mirror(
                "RuntimeError"
            )
        self.values[name] = value

    def set_float32_matmul_precision(self, precision: Any) -> None:
        """`torch.set_float32_matmul_precision`: 'highest' and 'high' leave CPU products in
        float32 (as PyTorch: TF32 is a GPU format); 'medium' lets PyTorch multiply in
        bfloat16 on CPUs that have it, which gradcli does not."""
        if not isinstance(precision, str):
            raise GradcliError(
                "set_float32_matmul_precision(): argument 'precision' must be str, not "
                f"{typename(precision)}"
            ).mirror("TypeError")
        if precision == "medium":
            raise NotSupported(
                "torch.set_float32_matmul_precision('medium') is not supported by gradcli "
                "(PyTorch then multiplies float32 in bfloat16 on CPUs that have it)",
                hint="'highest' (the default) or 'high', which compute as 'highest' on a CPU",
            )
        if precision not in ("highest", "high"):
            from ..core import hooks

            hooks.warn(
                f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                "setFloat32MatmulPrecision call has no effect."
            )
            return
        self.values["float32_matmul_precision"] = precision

    def use_deterministic_algorithms(self, mode: Any, *, warn_only: Any = False) -> None:
        for name, value in (("mode' (position 1)", mode), ("warn_only'", warn_only)):
            if not isinstance(value, bool):
                raise GradcliError(
                    f"_set_deterministic_algorithms(): argument '{name} must be bool, not "
                    + typename(value)
                ).mirror("TypeError")
        self.values["deterministic_algorithms"] = mode
        self.values["deterministic_warn_only"] = mode and warn_only
        from ..core.tensor import Settings

        Settings.deterministic = mode

    def set_deterministic_debug_mode(self, debug_mode: Any) -> None:
        """`torch.set_deterministic_debug_mode`: "default"/0, "warn"/1, "error"/2."""
        if not isinstance(debug_mode, (int, str)):
            raise GradcliError(
                f"debug_mode must be str or int, but got <class '{typename(debug_mode)}'>"
            ).mirror("TypeError")
        if isinstance(debug_mode, str):
            if debug_mode not in ("default", "warn", "error"):
                raise GradcliError(
                    "invalid value of debug_mode, expected one of `default`, `warn`, `error`, "
                    f"but got {debug_mode}"
                ).mirror("RuntimeError")
            debug_mode = ("default", "warn", "error").index(debug_mode)
        if debug_mode not in (0, 1, 2):
            raise GradcliError(
                f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
            ).mirror("RuntimeError")
        self.use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)

    def deterministic_debug_mode(self) -> int:
        if not self.values["deterministic_algorithms"]:
            return 0
        return 1 if self.values["deterministic_warn_only"] else 2

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


# PyTorch's C++ setters behind the flags, as its errors name them (2.13: cudnn.allow_tf32's
# too is "set_allow_tf32_cublas").
_SETTERS = {
    ("torch.backends.cudnn", "deterministic"): "set_deterministic_cudnn",
    ("torch.backends.cudnn", "benchmark"): "set_benchmark_cudnn",
    ("torch.backends.cudnn", "enabled"): "set_enabled_cudnn",
    ("torch.backends.cudnn", "allow_tf32"): "set_allow_tf32_cublas",
    ("torch.backends.cuda.matmul", "allow_tf32"): "set_allow_tf32_cublas",
    ("torch.backends.mkldnn", "enabled"): "set_enabled_mkldnn",
}
CUDNN = Flags(
    "torch.backends.cudnn",
    {"deterministic": False, "benchmark": False, "enabled": True, "allow_tf32": True},
    {"is_available": False},
)
CUDA_MATMUL = Flags(
    "torch.backends.cuda.matmul",
    {
        "allow_tf32": False,
        "allow_fp16_reduced_precision_reduction": True,
        "allow_bf16_reduced_precision_reduction": True,
    },
    {},
)
MKLDNN = Flags("torch.backends.mkldnn", {"enabled": True}, {"is_available": True})


class Deterministic:
    """`torch.utils.deterministic`: its one setting, `fill_uninitialized_memory` (on by
    default): while `torch.use_deterministic_algorithms(True)` is on too, torch.empty and its
    kin fill their memory as PyTorch's (`Settings.fill_uninitialized_memory`)."""

    name = "torch.utils.deterministic"

    def program_attribute(self, name: str) -> Any:
        from ..core.tensor import Settings

        if name == "fill_uninitialized_memory":
            return Settings.fill_uninitialized_memory
        raise GradcliError(f"module '{self.name}' has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_set(self, name: str, value: Any) -> None:
        from ..core.tensor import Settings

        if name != "fill_uninitialized_memory":
            raise NotSupported(
                f"setting {self.name}.{name} is not supported",
                hint="gradcli knows fill_uninitialized_memory",
            )
        if type(value) is not bool:
            raise GradcliError(f"expected a bool, but got {typename(value)}").mirror("RuntimeError")
        Settings.fill_uninitialized_memory = value

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


DETERMINISTIC = Deterministic()


class Fp32Precisions:
    """PyTorch 2.13's float32 precision settings (`torch.backends.fp32_precision`,
    `torch.backends.mkldnn.matmul.fp32_precision`...): one word per backend ("generic",
    "mkldnn", "cuda") and operation ("all", "matmul", "conv", "rnn"), read through its
    parents while it is "none" (the operation's, its backend's "all", the generic one; a word
    the backend does not take reads "none"). gradcli's CPU kernels compute in float32
    whatever is set (PyTorch's CPU build too, where oneDNN has no TF32/bf16 path for them)."""

    WORDS = {
        "generic": ("ieee", "tf32", "bf16", "none"),
        "mkldnn": ("ieee", "tf32", "bf16", "none"),
    }
    WORDS["cuda"] = ("ieee", "tf32", "none")

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    def reset(self) -> None:
        self.values = {}

    def get(self, backend: str, op: str) -> str:
        word = "none"
        for place in ((backend, op), (backend, "all"), ("generic", "all")):
            word = self.values.get(place, "none")
            if word != "none":
                break
        return word if word in self.WORDS[backend] else "none"

    def set(self, backend: str, op: str, value: Any) -> None:
        if not isinstance(value, str):
            raise GradcliError(
                "_set_fp32_precision_setter(): incompatible function arguments. The following "
                "argument types are supported:\n    1. (arg0: str, arg1: str, arg2: str) -> str"
                f"\n\nInvoked with: '{backend}', '{op}', {_shown(value)}"
            ).mirror("TypeError")
        if value not in self.WORDS["generic"]:
            raise GradcliError(f"Unknown precision: {value}").mirror("RuntimeError")
        if value not in self.WORDS[backend]:
            raise GradcliError(f"backend '{backend}' does not support precision '{value}'").mirror(
                "RuntimeError"
            )
        self.values[backend, op] = value


def _shown(v: Any) -> str:
    from .text import to_repr

    return to_repr(v, 1000)


class FP32Precision:
    """`torch.backends.mkldnn.matmul` (PyTorch's `_FP32Precision`): one operation's
    `fp32_precision`, read and set."""

    def __init__(self, backend: str, op: str) -> None:
        self.backend, self.op = backend, op

    def program_attribute(self, name: str) -> Any:
        if name == "fp32_precision":
            return FP32.get(self.backend, self.op)
        if name in ("backend", "op"):
            return getattr(self, name)
        raise GradcliError(f"'_FP32Precision' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_set(self, name: str, value: Any) -> None:
        if name != "fp32_precision":
            raise NotSupported(
                f"setting torch.backends' {self.backend} {self.op}.{name} is not supported",
                hint="gradcli knows fp32_precision",
            )
        FP32.set(self.backend, self.op, value)

    def program_typename(self) -> str:
        return "_FP32Precision"

    def __repr__(self) -> str:
        return f"<torch.backends._FP32Precision object at {id(self):#x}>"


FP32 = Fp32Precisions()
# Where a settings module names a precision: (module, attribute) -> (backend, operation).
_FP32_PLACES = {
    ("torch.backends.mkldnn", "matmul"): ("mkldnn", "matmul"),
    ("torch.backends.mkldnn", "conv"): ("mkldnn", "conv"),
    ("torch.backends.mkldnn", "rnn"): ("mkldnn", "rnn"),
    ("torch.backends.mkldnn", "fp32_precision"): ("mkldnn", "all"),
    ("torch.backends.cuda.matmul", "fp32_precision"): ("cuda", "matmul"),
}
_FP32_OBJECTS: dict[tuple[str, str], FP32Precision] = {}


class BackendsModule(Namespace):
    """`torch.backends`: its modules, and its own setting `torch.backends.fp32_precision`
    (the generic float32 precision, read and set)."""

    __slots__ = ()

    def program_attribute(self, name: str) -> Any:
        if name == "fp32_precision":
            return FP32.get("generic", "all")
        if name in self.members:
            return self.members[name]
        from ..surface import public

        if public.has(self.name, name) is False or name.startswith("_"):
            raise GradcliError(f"module '{self.name}' has no attribute '{name}'").mirror(
                "AttributeError"
            )
        raise NotSupported(f"`{self.name}.{name}` is not supported by gradcli")

    def program_set(self, name: str, value: Any) -> None:
        if name != "fp32_precision":
            raise NotSupported(
                f"setting {self.name}.{name} is not supported",
                hint="gradcli knows torch.backends.fp32_precision and the backends' settings",
            )
        FP32.set("generic", "all", value)


FLAGS = (CUDNN, CUDA_MATMUL, MKLDNN, FP32, THREADS)


def build_namespaces() -> dict[str, Namespace]:
    """The modules a program can name (made once: they are fixed tables)."""
    global _NAMESPACES
    if _NAMESPACES is None:
        _NAMESPACES = _build()
    return _NAMESPACES


# The modules only some programs use: imported when a program first reaches into them.
def _logging_members() -> dict[str, Any]:
    from . import pylogging

    return pylogging.members()


def _optim_members() -> dict[str, Any]:
    from ..surface import optim as O

    # torch.optim.Optimizer: the base class of the program's own optimizers
    table = {**O.OPTIMIZERS, "Optimizer": O.Optimizer}
    subs = {
        sub: Namespace(f"torch.optim.{sub}", _classes_of(table, name))
        for sub, name in _OPTIM_SUBMODULES.items()
    }
    subs["optimizer"].members["required"] = O.REQUIRED  # (older optimizer code's default)
    return {
        **table,
        "lr_scheduler": Namespace(
            "torch.optim.lr_scheduler",
            {**O.SCHEDULERS, "LRScheduler": O.LRScheduler, "_LRScheduler": O.LRScheduler},
        ),
        "swa_utils": Namespace("torch.optim.swa_utils", load=_swa_members),
        **subs,
    }


def _swa_members() -> dict[str, Any]:
    from . import swa

    return swa.members()


# PyTorch 2.13's torch.nn.modules submodules and the classes each defines (read off its
# `__all__`): `torch.nn.modules.linear.Linear`, `from torch.nn.modules.loss import MSELoss`,
# as scripts and stack traces spell them, are torch.nn's classes.
_NN_SUBMODULES = {
    "activation": (
        "CELU ELU GELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh LeakyReLU LogSigmoid "
        "LogSoftmax Mish MultiheadAttention PReLU RReLU ReLU ReLU6 SELU SiLU Sigmoid Softmax "
        "Softmax2d Softmin Softplus Softshrink Softsign Tanh Tanhshrink Threshold"
    ),
    "adaptive": "AdaptiveLogSoftmaxWithLoss",
    "batchnorm": (
        "BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d "
        "SyncBatchNorm"
    ),
    "channelshuffle": "ChannelShuffle",
    "container": "Container ModuleDict ModuleList ParameterDict ParameterList Sequential",
    "conv": (
        "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d LazyConv1d "
        "LazyConv2d LazyConv3d LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d"
    ),
    "distance": "CosineSimilarity PairwiseDistance",
    "dropout": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d FeatureAlphaDropout",
    "flatten": "Flatten Unflatten",
    "fold": "Fold Unfold",
    "instancenorm": (
        "InstanceNorm1d InstanceNorm2d InstanceNorm3d LazyInstanceNorm1d LazyInstanceNorm2d "
        "LazyInstanceNorm3d"
    ),
    "lazy": "LazyModuleMixin",
    "linear": "Bilinear Identity LazyLinear Linear",
    "linear_cross_entropy_options": "LinearCrossEntropyOptions",
    "loss": (
        "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss GaussianNLLLoss "
        "HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss LinearCrossEntropyLoss MSELoss "
        "MarginRankingLoss MultiLabelMarginLoss MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss "
        "NLLLoss2d PoissonNLLLoss SmoothL1Loss SoftMarginLoss TripletMarginLoss "
        "TripletMarginWithDistanceLoss"
    ),
    "module": "Module",
    "normalization": "CrossMapLRN2d GroupNorm LayerNorm LocalResponseNorm RMSNorm",
    "padding": (
        "CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d ConstantPad3d "
        "ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d "
        "ReplicationPad3d ZeroPad1d ZeroPad2d ZeroPad3d"
    ),
    "pixelshuffle": "PixelShuffle PixelUnshuffle",
    "pooling": (
        "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
        "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d FractionalMaxPool2d "
        "FractionalMaxPool3d LPPool1d LPPool2d LPPool3d MaxPool1d MaxPool2d MaxPool3d MaxUnpool1d "
        "MaxUnpool2d MaxUnpool3d"
    ),
    "rnn": "GRU GRUCell LSTM LSTMCell RNN RNNBase RNNCell RNNCellBase",
    "sparse": "Embedding EmbeddingBag",
    "transformer": (
        "Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder "
        "TransformerEncoderLayer"
    ),
    "upsampling": "Upsample UpsamplingBilinear2d UpsamplingNearest2d",
}
# torch.optim's submodules by the optimizer class each defines (`torch.optim.adam.Adam`).
_OPTIM_SUBMODULES = {
    "_adafactor": "Adafactor",
    "_muon": "Muon",
    "adadelta": "Adadelta",
    "adagrad": "Adagrad",
    "adam": "Adam",
    "adamax": "Adamax",
    "adamw": "AdamW",
    "asgd": "ASGD",
    "lbfgs": "LBFGS",
    "nadam": "NAdam",
    "optimizer": "Optimizer",
    "radam": "RAdam",
    "rmsprop": "RMSprop",
    "rprop": "Rprop",
    "sgd": "SGD",
    "sparse_adam": "SparseAdam",
}


def _classes_of(table: dict[str, Any], names: str) -> dict[str, Any]:
    return {n: table[n] for n in names.split() if n in table}


def _ntuple(n: Any, name: str) -> Callable[[Any], tuple]:
    """torch.nn.modules.utils' `_ntuple(n)` (`_pair` is n = 2): a list, tuple, range or
    string as a tuple of its items, any other value repeated n times (layers' kernel sizes)."""
    if type(n) is not int or isinstance(n, bool):
        raise GradcliError(f"_ntuple(): n must be an int, not {type(n).__name__}").mirror(
            "TypeError"
        )
    limits.LIST_ITEMS.check(max(n, 0), "the items _ntuple would repeat")

    def parse(x: Any) -> tuple:
        if isinstance(x, (list, tuple, range, str)):
            return tuple(x)
        if isinstance(x, Tensor) or hasattr(x, "__iter__"):
            raise NotSupported(
                f"{name}() of a {type(x).__name__} is not supported",
                hint="give it a number or a tuple of numbers",
            )
        return (x,) * max(n, 0)

    parse.__name__ = parse.__qualname__ = name
    return parse


def _nn_modules_members(nn: Namespace) -> dict[str, Any]:
    table = nn.members
    classes = _classes_of(table, " ".join(_NN_SUBMODULES.values()))
    subs = {
        sub: Namespace(
            f"torch.nn.modules.{sub}", load=lambda names=names: _classes_of(table, names)
        )
        for sub, names in _NN_SUBMODULES.items()
    }
    subs["loss"] = Namespace(
        "torch.nn.modules.loss",
        load=lambda: {**_classes_of(table, _NN_SUBMODULES["loss"]), **loss_bases()},
    )
    for sub in ABSTRACT_BASES:  # (`from torch.nn.modules.batchnorm import _BatchNorm`)
        subs[sub] = Namespace(
            f"torch.nn.modules.{sub}",
            load=lambda sub=sub: {
                **_classes_of(table, _NN_SUBMODULES[sub]),
                **abstract_bases(sub),
            },
        )
    subs["utils"] = Namespace(
        "torch.nn.modules.utils",
        {
            "_single": _ntuple(1, "_single"),
            "_pair": _ntuple(2, "_pair"),
            "_triple": _ntuple(3, "_triple"),
            "_quadruple": _ntuple(4, "_quadruple"),
            "_ntuple": lambda n, name="parse": _ntuple(n, name),
        },
    )
    from ..surface.nn import register_module_hook

    subs["module"] = Namespace(
        "torch.nn.modules.module",
        {
            **_classes_of(table, _NN_SUBMODULES["module"]),
            **{
                f"register_module_{name}_hook": Builtin(
                    f"torch.nn.modules.module.register_module_{name}_hook",
                    register_module_hook(k),
                )
                for k, name in (
                    ("forward_pre", "forward_pre"),
                    ("forward", "forward"),
                    ("backward_pre", "full_backward_pre"),
                    ("backward", "full_backward"),
                )
            },
        },
    )
    return {**classes, **subs}


# torch.functional, the module of torch.einsum, torch.norm, torch.split... (its __all__ in
# PyTorch 2.13), which imports torch.nn.functional as F: tutorials write
# `import torch.functional as F`. The functions are torch's own (those gradcli has).
# (A table on torch's index: a name's family is imported at its first lookup, as torch.X's.)
_TORCH_FUNCTIONAL = frozenset(
    "atleast_1d atleast_2d atleast_3d broadcast_shapes broadcast_tensors cartesian_prod "
    "block_diag cdist chain_matmul einsum istft lu norm meshgrid pca_lowrank split stft "
    "svd_lowrank tensordot unique unique_consecutive unravel_index".split()
)


def _torch_functional_members(nn_functional: Any) -> dict[str, Any]:
    functions = names.raw(names.FUNCTIONS)
    members = {n: f for n, f in functions.items() if n in _TORCH_FUNCTIONAL}
    members["F"] = nn_functional
    return members


def _signal_windows() -> dict[str, Any]:
    from ..surface.signal_windows import WINDOWS

    return {n: Builtin(f"torch.signal.windows.{n}", f, raw=False) for n, f in WINDOWS.items()}


def _nn_init_members() -> dict[str, Any]:
    from ..surface import init as I

    members = dict(I.FUNCTIONS)
    # The names of PyTorch before 0.4 (`nn.init.xavier_uniform(w)`), kept with a warning:
    # older tutorials and repositories call them.
    for old in (
        "uniform normal constant xavier_uniform xavier_normal kaiming_uniform kaiming_normal "
        "orthogonal sparse"
    ).split():
        members[old] = Builtin(
            f"torch.nn.init.{old}", _init_deprecated(old, I.FUNCTIONS[old + "_"])
        )
    return members


def _init_deprecated(old: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        from .values import current

        current().python_warning(
            f"`nn.init.{old}` is now deprecated in favor of `nn.init.{old}_`.", "FutureWarning"
        )
        return fn(*args, **kwargs)

    return call


_STATELESS_WARNING = (
    "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
    "removed in a future version of PyTorch. Please use `torch.func.functional_call` instead "
    "which is a drop-in replacement."
)


class _StatelessCall(_Lazy):
    """`torch.nn.utils.stateless.functional_call`: torch.func's, after PyTorch's FutureWarning
    (at the caller's line)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .values import current

        current().python_warning(_STATELESS_WARNING, "FutureWarning")
        return self.target()(*args, **kwargs)


def _nn_grad_members() -> dict[str, Any]:
    from ..surface import convgrad

    return dict(convgrad.FUNCTIONS)


def _type_before_parametrizations(module: Any) -> Any:
    """`parametrize.type_before_parametrizations(module)`: the module's class as it was before
    PyTorch swapped in its Parametrized<Name> class (type(module) when not parametrized)."""
    from ..surface import nn as surface_nn
    from .builtins import type_of

    flag = module.__dict__.get("_parametrized") if isinstance(module, surface_nn.Module) else None
    if flag is None:
        return type_of(module)
    del module.__dict__["_parametrized"]
    try:
        return type_of(module)
    finally:
        module.__dict__["_parametrized"] = flag


def _nn_utils_members() -> dict[str, Any]:
    from ..surface import fusion as FU
    from ..surface import nnutils as NU
    from ..surface import packed as P
    from ..surface import parametrizations as PS
    from ..surface import parametrize as PZ
    from ..surface import prune as PR
    from . import copying
    from .skipinit import skip_init

    packed_type = PyType(
        "PackedSequence",
        (P.PackedSequence,),
        P.packed_sequence,
        shown="torch.nn.utils.rnn.PackedSequence",
    )
    rnn = {**NU.RNN, **P.FUNCTIONS, "PackedSequence": packed_type}
    fusion = FU.functions(lambda m: copying.deepcopy(m))
    return {
        **NU.FUNCTIONS,
        **fusion,
        "fusion": Namespace("torch.nn.utils.fusion", dict(fusion)),
        "skip_init": Builtin("torch.nn.utils.skip_init", skip_init, raw=False),
        **{n: Builtin(f"torch.nn.utils.{n}", f) for n, f in PS.LEGACY.items()},
        "clip_grad": Namespace("torch.nn.utils.clip_grad", dict(NU.CLIP_GRAD)),
        "rnn": Namespace("torch.nn.utils.rnn", rnn),
        "parametrize": Namespace(
            "torch.nn.utils.parametrize",
            {**PZ.FUNCTIONS, "type_before_parametrizations": _type_before_parametrizations},
        ),
        "parametrizations": Namespace("torch.nn.utils.parametrizations", dict(PS.FUNCTIONS)),
        "prune": Namespace("torch.nn.utils.prune", _prune_members(PR)),
        "stateless": Namespace(
            "torch.nn.utils.stateless",
            {"functional_call": _StatelessCall("..surface.func", "functional_call")},
        ),
    }


def _prune_members(PR: Any) -> dict[str, Any]:
    """`torch.nn.utils.prune`: its functions, and its classes (isinstance of a module's hook,
    `prune.L1Unstructured(amount=0.3)`, `prune.L1Unstructured.apply(module, name, ...)`)."""

    def class_of(name: str, cls: type) -> PyType:
        def apply(module: Any, tensor_name: Any, *args: Any, **kwargs: Any) -> Any:
            return PR._apply(cls, module, tensor_name, *args, **kwargs)

        members = (
            {}
            if cls in (PR.BasePruningMethod, PR.PruningContainer)
            else {
                "apply": Builtin(f"{name}.apply", apply),
                "PRUNING_TYPE": cls.PRUNING_TYPE,
            }
        )
        abstract = cls is PR.BasePruningMethod
        return PyType(
            name, (cls,), None if abstract else cls, f"torch.nn.utils.prune.{name}", members
        )

    return {
        **PR.FUNCTIONS,
        **{name: class_of(name, cls) for name, cls in PR.CLASSES.items()},
    }


def _testing_members() -> dict[str, Any]:
    from . import pytesting

    return pytesting.members()


def _pytree_members() -> dict[str, Any]:
    from . import pytree

    return pytree.members()


def _enum_members() -> dict[str, Any]:
    from . import pyenum

    return {"Enum": pyenum.ENUM_BASE, "IntEnum": pyenum.INT_ENUM_BASE, "auto": pyenum.AUTO}


def _dataclasses_members() -> dict[str, Any]:
    from . import pydataclasses as DC
    from .exceptions import CLASSES

    return {
        "dataclass": DC.DATACLASS,
        "FrozenInstanceError": CLASSES["FrozenInstanceError"],
        **{
            n: Builtin(f"dataclasses.{n}", getattr(DC, n))
            for n in ("field", "asdict", "astuple", "replace", "fields", "is_dataclass")
        },
    }


def _build() -> dict[str, Namespace]:
    from . import arrays, gradmode, numpy_extra, pyitertools, pyrandom
    from .exceptions import CLASSES

    dtypes = {k: dtype_value(v) for k, v in D.BY_NAME.items()}
    np_types = numpy_scalar_types()
    nn_grad = Namespace("torch.nn.grad", load=_nn_grad_members)
    nn_functional = Namespace(
        "torch.nn.functional",
        names.LazyTable(
            "NN_FUNCTIONAL", lambda: {**names.raw(names.NN_FUNCTIONAL), "grad": nn_grad}
        ),
    )
    nn_init = Namespace("torch.nn.init", load=_nn_init_members)
    nn_extra = {
        "functional": nn_functional,
        "init": nn_init,
        "grad": nn_grad,
        "utils": Namespace("torch.nn.utils", load=_nn_utils_members),
        "Parameter": PARAMETER_TYPE,
        "UninitializedParameter": UNINITIALIZED_TYPE,
        "UninitializedBuffer": UNINITIALIZED_BUFFER_TYPE,
        "parameter": Namespace(
            "torch.nn.parameter",
            {
                "Parameter": PARAMETER_TYPE,
                "UninitializedParameter": UNINITIALIZED_TYPE,
                "UninitializedBuffer": UNINITIALIZED_BUFFER_TYPE,
            },
        ),
        "modules": Namespace("torch.nn.modules", load=lambda: _nn_modules_members(nn)),
        "attention": Namespace("torch.nn.attention", load=lambda: _sdpa("attention_members")),
    }
    nn = Namespace(
        "torch.nn",
        names.LazyTable(
            "MODULES",
            lambda: {**names.raw(names.MODULES), **names.raw(MODULE_TYPES), **nn_extra},
        ),
    )
    optim = Namespace("torch.optim", load=_optim_members)
    function_ns = Namespace(
        "torch.autograd.function",
        {
            "Function": FUNCTION_BASE,
            "once_differentiable": ONCE_DIFFERENTIABLE,
            # the class of every Function's ctx (for isinstance and annotations)
            "FunctionCtx": PyType(
                "FunctionCtx", (Ctx,), _new_ctx, shown="torch.autograd.function.FunctionCtx"
            ),
        },
    )
    autograd = Namespace(
        "torch.autograd",
        {
            "Variable": K.Variable,
            # `from torch.autograd.variable import Variable`, as old tutorials import it.
            "variable": Namespace("torch.autograd.variable", {"Variable": K.Variable}),
            "grad": _autograd_grad,
            "backward": _autograd_backward,
            "Function": FUNCTION_BASE,
            "function": function_ns,
            "graph": Namespace(
                "torch.autograd.graph",
                {
                    "Node": PyType("Node", (Node,), None, shown="torch.autograd.graph.Node"),
                    "register_multi_grad_hook": Builtin(
                        "torch.autograd.graph.register_multi_grad_hook", _multi_grad_hook
                    ),
                    "get_gradient_edge": Builtin(
                        "torch.autograd.graph.get_gradient_edge", _get_gradient_edge
                    ),
                    "GradientEdge": PyType(
                        "GradientEdge",
                        (GradientEdge,),
                        _gradient_edge_by_hand,
                        shown="torch.autograd.graph.GradientEdge",
                    ),
                    "increment_version": Builtin(
                        "torch.autograd.graph.increment_version", _increment_version
                    ),
                    **{
                        n: Builtin(f"torch.autograd.graph.{n}", getattr(gradmode, n))
                        for n in (
                            "saved_tensors_hooks",
                            "save_on_cpu",
                            "disable_saved_tensors_hooks",
                            "allow_mutation_on_saved_tensors",
                            "region_activation_memory_budget",
                        )
                    },
                },
            ),
            "functional": Namespace(
                "torch.autograd.functional",
                {n: _Transform("..surface.functional_ad", n) for n in _FUNCTIONAL},
            ),
            "forward_ad": Namespace(
                "torch.autograd.forward_ad",
                {
                    "dual_level": Builtin(
                        "torch.autograd.forward_ad.dual_level", gradmode.dual_level
                    ),
                    **{
                        n: _Lazy("..surface.forward_ad", n)
                        for n in ("make_dual", "unpack_dual", "enter_dual_level", "exit_dual_level")
                    },
                },
            ),
            "gradcheck": _Transform("..surface.gradcheck", "gradcheck"),
            "gradgradcheck": _Transform("..surface.gradcheck", "gradgradcheck"),
            "no_grad": gradmode.NO_GRAD,
            "enable_grad": gradmode.ENABLE_GRAD,
            "set_grad_enabled": Builtin("torch.set_grad_enabled", gradmode.set_grad_enabled),
            "inference_mode": gradmode.INFERENCE_MODE,
            "set_detect_anomaly": Builtin(
                "torch.autograd.set_detect_anomaly", gradmode.set_detect_anomaly
            ),
            "detect_anomaly": Builtin("torch.autograd.detect_anomaly", gradmode.detect_anomaly),
            "enforce_grad_layout_policy": Builtin(
                "torch.autograd.enforce_grad_layout_policy", gradmode.enforce_grad_layout_policy
            ),
        },
    )
    func = Namespace(
        "torch.func",
        {
            **{n: _Transform("..surface.func", n) for n in _FUNC},
            # The module is called as gradcli calls modules (its forward runs in the program).
            "functional_call": _Lazy("..surface.func", "functional_call"),
            "stack_module_state": _Lazy("..surface.func", "stack_module_state"),
            "rearrange": _Lazy("..surface.einops", "rearrange"),
            "replace_all_batch_norm_modules_": _Lazy(
                "..surface.func", "replace_all_batch_norm_modules_"
            ),
        },
    )
    cuda = Namespace(
        "torch.cuda",
        {
            "amp": Namespace("torch.cuda.amp", load=lambda: _amp_members(cuda=True)),
            "is_available": Builtin("torch.cuda.is_available", lambda: False),
            "device_count": Builtin("torch.cuda.device_count", lambda: 0),
            # What seed-setting and memory-freeing code calls: without a GPU PyTorch does
            # nothing either.
            **{
                n: Builtin(f"torch.cuda.{n}", _nothing_on_the_cpu)
                for n in ("manual_seed", "manual_seed_all", "empty_cache", "seed", "seed_all")
            },
            # Memory counters read 0 without a GPU, as in PyTorch.
            **{
                n: Builtin(f"torch.cuda.{n}", _zero_bytes)
                for n in (
                    "memory_allocated",
                    "max_memory_allocated",
                    "memory_reserved",
                    "max_memory_reserved",
                )
            },
            **{
                n: Builtin(f"torch.cuda.{n}", lambda: False)
                for n in ("is_initialized", "is_bf16_supported")
            },
            # What needs a GPU fails with PyTorch's AssertionError, which a program can catch.
            **{
                n: Builtin(f"torch.cuda.{n}", _no_cuda)
                for n in (
                    "synchronize",
                    "current_device",
                    "get_device_name",
                    "get_device_properties",
                    "get_device_capability",
                    "init",
                    "get_rng_state",
                    "mem_get_info",
                    "ipc_collect",
                )
            },
        },
    )
    backends = BackendsModule(
        "torch.backends",
        {
            "cudnn": CUDNN,
            "mps": Namespace(
                "torch.backends.mps",
                {
                    n: Builtin(f"torch.backends.mps.{n}", lambda: False)
                    for n in ("is_available", "is_built")
                },
            ),
            "cuda": Namespace(
                "torch.backends.cuda",
                load=lambda: {
                    "matmul": CUDA_MATMUL,
                    "is_built": Builtin("torch.backends.cuda.is_built", lambda: False),
                    **_sdpa("cuda_members"),  # the attention backends' switches
                },
            ),
            "mkldnn": MKLDNN,
            "openmp": Namespace(
                "torch.backends.openmp",
                {"is_available": Builtin("torch.backends.openmp.is_available", lambda: True)},
            ),
        },
    )
    from ..surface import sampling
    from . import amp

    random = Namespace(
        "torch.random",
        {
            **{
                n: names.FUNCTIONS[n]
                for n in ("manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state")
            },
            "fork_rng": Builtin("torch.random.fork_rng", gradmode.fork_rng),
        },
    )
    data = Namespace("torch.utils.data", load=_data_members)
    torch_extra = {
        "random": random,
        "default_generator": sampling.DEFAULT,
        **dtypes,
        "Tensor": TENSOR_TYPE,
        "nn": nn,
        "autograd": autograd,
        "optim": optim,
        "func": func,
        "vmap": func.members["vmap"],
        "linalg": Namespace(
            "torch.linalg",
            names.LazyTable(
                "LINALG", lambda: {**names.raw(names.LINALG), "LinAlgError": _linalg_error()}
            ),
        ),
        "special": Namespace(
            "torch.special", names.LazyTable("SPECIAL", lambda: names.raw(names.SPECIAL))
        ),
        "fft": Namespace("torch.fft", names.LazyTable("FFT", lambda: names.raw(names.FFT))),
        "signal": Namespace(
            "torch.signal", {"windows": Namespace("torch.signal.windows", load=_signal_windows)}
        ),
        "utils": Namespace(
            "torch.utils",
            {
                "data": data,
                "checkpoint": Namespace("torch.utils.checkpoint", load=_checkpoint_members),
                "_pytree": Namespace("torch.utils._pytree", load=_pytree_members),
                "hooks": Namespace("torch.utils.hooks", load=_hooks_members),
                "module_tracker": Namespace(
                    "torch.utils.module_tracker", load=_module_tracker_members
                ),
                "swap_tensors": Builtin("torch.utils.swap_tensors", swap_tensors),
                "deterministic": DETERMINISTIC,
            },
        ),
        "cuda": cuda,
        "cpu": Namespace(
            "torch.cpu",
            {
                "amp": Namespace("torch.cpu.amp", load=_cpu_amp_members),
                "is_available": Builtin("torch.cpu.is_available", lambda: True),
                "device_count": Builtin("torch.cpu.device_count", lambda: 1),
                "synchronize": Builtin("torch.cpu.synchronize", _nothing_on_the_cpu),
            },
        ),
        "testing": Namespace("torch.testing", load=_testing_members),
        "amp": Namespace("torch.amp", load=lambda: _amp_members(cuda=False)),
        "autocast": amp.AUTOCAST,
        "GradScaler": amp.GRAD_SCALER,
        "is_autocast_enabled": Builtin("torch.is_autocast_enabled", amp.is_autocast_enabled),
        "get_autocast_dtype": Builtin(
            "torch.get_autocast_dtype",
            lambda device_type: dtype_value(amp.get_autocast_dtype(device_type)),
        ),
        **amp.deprecated_getters(dtype_value),
        # torch.accelerator (PyTorch 2.6's device-neutral API, the quickstart tutorial's
        # `torch.accelerator.is_available()`): no accelerator, as PyTorch on a CPU answers
        "accelerator": Namespace(
            "torch.accelerator",
            {
                "is_available": Builtin("torch.accelerator.is_available", lambda: False),
                "current_accelerator": Builtin(
                    "torch.accelerator.current_accelerator",
                    lambda check_available=False: None,
                ),
                "device_count": Builtin("torch.accelerator.device_count", lambda: 0),
                **{
                    n: Builtin(f"torch.accelerator.{n}", _nothing_on_the_cpu)
                    for n in ("synchronize", "empty_cache")
                },
            },
        ),
        "backends": backends,
        "compile": Builtin("torch.compile", _compile),
        # what torch.compile tutorials call between experiments: nothing is cached here
        # what torch.compile tutorials call and set around compiling (`lang.compiling`):
        # nothing is cached or compiled here; settings are kept, to be read back
        "_dynamo": Namespace("torch._dynamo", load=lambda: _compiling("dynamo_members")),
        "compiler": Namespace("torch.compiler", load=lambda: _compiling("compiler_members")),
        "_inductor": Namespace("torch._inductor", load=lambda: _compiling("inductor_members")),
        "_functorch": Namespace("torch._functorch", load=lambda: _compiling("functorch_members")),
        # control flow as eager PyTorch runs it (`lang.controlflow`)
        "cond": _Lazy(".controlflow", "cond"),
        "while_loop": _Lazy(".controlflow", "while_loop"),
        "_higher_order_ops": _HIGHER_ORDER_OPS,
        "jit": Namespace("torch.jit", load=_jit_members),
        "fx": Namespace("torch.fx", load=_Lazy(".fx", "members")),
        "export": Namespace("torch.export", load=_Lazy(".fx", "export_members")),
        "set_num_threads": Builtin("torch.set_num_threads", _set_threads("set_num_threads")),
        "set_num_interop_threads": Builtin(
            "torch.set_num_interop_threads", _set_threads("set_num_interop_threads")
        ),
        "get_num_threads": Builtin("torch.get_num_threads", lambda: THREADS.get("set_num_threads")),
        "get_num_interop_threads": Builtin(
            "torch.get_num_interop_threads", lambda: THREADS.get("set_num_interop_threads")
        ),
        "set_flush_denormal": Builtin("torch.set_flush_denormal", _set_flush_denormal),
        "set_default_device": Builtin("torch.set_default_device", _set_default_device),
        "get_default_device": Builtin("torch.get_default_device", lambda: Device("cpu")),
        "set_warn_always": Builtin("torch.set_warn_always", _set_warn_always),
        "is_warn_always_enabled": Builtin("torch.is_warn_always_enabled", lambda: _WARN_ALWAYS[0]),
        "typename": Builtin("torch.typename", _typename),
        "use_deterministic_algorithms": Builtin(
            "torch.use_deterministic_algorithms", CUDNN.use_deterministic_algorithms
        ),
        "set_float32_matmul_precision": Builtin(
            "torch.set_float32_matmul_precision", CUDNN.set_float32_matmul_precision
        ),
        "get_float32_matmul_precision": Builtin(
            "torch.get_float32_matmul_precision",
            lambda: CUDNN.values["float32_matmul_precision"],
        ),
        "are_deterministic_algorithms_enabled": Builtin(
            "torch.are_deterministic_algorithms_enabled",
            lambda: CUDNN.values["deterministic_algorithms"],
        ),
        "is_deterministic_algorithms_warn_only_enabled": Builtin(
            "torch.is_deterministic_algorithms_warn_only_enabled",
            lambda: CUDNN.values["deterministic_warn_only"],
        ),
        "set_deterministic_debug_mode": Builtin(
            "torch.set_deterministic_debug_mode", CUDNN.set_deterministic_debug_mode
        ),
        "get_deterministic_debug_mode": Builtin(
            "torch.get_deterministic_debug_mode", CUDNN.deterministic_debug_mode
        ),
        "no_grad": gradmode.NO_GRAD,
        "enable_grad": gradmode.ENABLE_GRAD,
        "inference_mode": gradmode.INFERENCE_MODE,
        "set_grad_enabled": Builtin("torch.set_grad_enabled", gradmode.set_grad_enabled),
        "is_grad_enabled": Builtin("torch.is_grad_enabled", grad_enabled),
        "is_anomaly_enabled": Builtin("torch.is_anomaly_enabled", gradmode.is_anomaly_enabled),
        "is_anomaly_check_nan_enabled": Builtin(
            "torch.is_anomaly_check_nan_enabled", gradmode.is_anomaly_check_nan_enabled
        ),
        "is_inference_mode_enabled": Builtin(
            "torch.is_inference_mode_enabled", gradmode.is_inference_mode_enabled
        ),
        "device": Builtin("torch.device", Device.make),
        "strided": STRIDED,
        "sparse_coo": SPARSE_COO,
        "sparse_csr": SPARSE_CSR,
        "sparse_csr_tensor": Builtin("torch.sparse_csr_tensor", _sparse_csr_tensor, raw=False),
        "sparse_coo_tensor": Builtin("torch.sparse_coo_tensor", _sparse_coo_tensor, raw=False),
        "sparse": Namespace("torch.sparse", load=_sparse_members),
        "spmm": _Lazy("..surface.sparse", "spmm"),
        **MEMORY_FORMATS,  # torch.preserve_format, torch.contiguous_format, ...
        "Size": Builtin("torch.Size", size_builtin),
        "pi": math.pi,
        "e": math.e,
        "inf": math.inf,
        "nan": math.nan,
        "newaxis": None,  # (x[:, torch.newaxis], as NumPy's)
        "set_default_dtype": _set_default_dtype,
        "set_default_tensor_type": _set_default_tensor_type,
        "set_printoptions": set_printoptions,
        "get_default_dtype": lambda: dtype_value(Settings.default_dtype),
        "result_type": _result_type,
        "promote_types": _promote_types,
        # The release gradcli mirrors (its printing, its kernels' rounding, its errors):
        # `print(torch.__version__)` opens many notebooks.
        "__version__": MIRRORED_TORCH,
        "__future__": Namespace("torch.__future__", _future_members()),
        # torch.version of that CPU build: no CUDA, ROCm or XPU (`print(torch.version.cuda)`)
        "version": Namespace(
            "torch.version",
            {
                "__version__": MIRRORED_TORCH,
                "cuda": None,
                "hip": None,
                "rocm": None,
                "xpu": None,
                "debug": False,
            },
        ),
        "distributions": Namespace("torch.distributions", load=_distributions_members),
        "library": Namespace("torch.library", load=_library_members),
        "ops": _TorchOps(),
        "functional": Namespace(
            "torch.functional",
            names.LazyTable("FUNCTIONS", lambda: _torch_functional_members(nn_functional)),
        ),
        "save": Builtin("torch.save", _save),
        "load": Builtin("torch.load", _load),
    }
    torch = Namespace(
        "torch",
        names.LazyTable("FUNCTIONS", lambda: {**names.raw(names.FUNCTIONS), **torch_extra}),
    )
    # The package is its own attribute in PyTorch (`torch.torch is torch`), which is what
    # `from torch import torch, nn` in pasted scripts imports. (In the table as it is, and
    # in `torch_extra` for the table's rebuilds when a family of names is imported.)
    torch_extra["torch"] = torch
    torch.members["torch"] = torch
    py_random, numpy_random = pyrandom.namespaces(Namespace)

    def numpy_members() -> dict[str, Any]:
        # (built at the first use of `numpy`: most programs never name it)
        members = {
            "random": numpy_random,
            "linalg": Namespace(
                "numpy.linalg", {**numpy_extra.linalg_functions(), **_numpy_more_linalg()}
            ),
            "testing": Namespace("numpy.testing", load=numpy_extra.testing_functions),
            "fft": Namespace("numpy.fft", load=_numpy_fft),
            "emath": Namespace("numpy.emath", load=_emath),
            "lib": Namespace(
                "numpy.lib",
                {"stride_tricks": Namespace("numpy.lib.stride_tricks", load=_stride_tricks)},
            ),
            **numpy_extra.functions(),
            **_numpy_more(),
            **arrays.functions(names.FUNCTIONS),
            **np_types,
            # NumPy's other names of the same scalar types (`np.double is np.float64`)
            **{
                alias: np_types[k]
                for alias, k in (
                    ("double", "float64"),
                    ("single", "float32"),
                    ("half", "float16"),
                    ("cdouble", "complex128"),
                    ("csingle", "complex64"),
                    ("byte", "int8"),
                    ("ubyte", "uint8"),
                    ("short", "int16"),
                    ("ushort", "uint16"),
                    ("intc", "int32"),
                    ("uintc", "uint32"),
                    ("int_", "int64"),
                    ("intp", "int64"),
                    ("uintp", "uint64"),
                    ("long", "int64"),
                    ("ulong", "uint64"),
                    ("bool", "bool_"),
                )
            },
            "pi": math.pi,
            "e": math.e,
            "inf": math.inf,
            "nan": math.nan,
            "euler_gamma": 0.5772156649015329,  # (NumPy's constant, a Python float)
            "newaxis": None,
            "ndarray": arrays.ARRAY_TYPE,
            "__version__": np.__version__,
        }
        from .numpy_ufuncs import ALIASES, wrap_ufuncs

        wrap_ufuncs(members)  # (np.add: a ufunc object, with .reduce, .outer, .at...)
        for alias, name in ALIASES.items():  # (NumPy 2's names: np.acos is np.arccos)
            members[alias] = members[name]
        return members

    numpy = Namespace("numpy", load=numpy_members)
    # `torch.autograd.gradcheck` is the function (as in PyTorch, whose package attribute
    # shadows the module); its module is reached by `from torch.autograd.gradcheck import`.
    gradcheck_module = Namespace(
        "torch.autograd.gradcheck",
        {
            "gradcheck": autograd.members["gradcheck"],
            "gradgradcheck": autograd.members["gradgradcheck"],
            "GradcheckError": CLASSES["GradcheckError"],
        },
    )
    return {
        "torch.autograd.gradcheck": gradcheck_module,
        # the modules of torch._higher_order_ops whose names the package's functions shadow
        **{
            f"torch._higher_order_ops.{n}": Namespace(
                f"torch._higher_order_ops.{n}", {n: _HIGHER_ORDER_OPS.members[n]}
            )
            for n in ("cond", "while_loop", "scan", "map")
        },
        "torch": torch,
        "nn": nn,
        "F": nn_functional,
        "autograd": autograd,
        "numpy": numpy,
        "math": Namespace("math", _MATH),
        "cmath": Namespace("cmath", load=_cmath_members),
        "random": py_random,
        "gc": Namespace("gc", {"collect": Builtin("gc.collect", _collect)}),
        # Python's operators as functions (`lang.fx`: what torch.fx's graphs name them by)
        "operator": Namespace("operator", load=_Lazy(".pystdlib", "operator_members")),
        "logging": Namespace("logging", load=_logging_members),
        "time": Namespace(
            "time",
            {
                **{n: Builtin(f"time.{n}", f) for n, f in _CLOCKS.items()},
                "strftime": Builtin("time.strftime", _time_strftime),
            },
        ),
        "warnings": _warnings_namespace(),
        "typing": Namespace("typing", _typing_members("typing")),
        # typing's backport, imported for the same hints (and `assert_type`, which is new)
        "typing_extensions": Namespace("typing_extensions", _typing_members("typing_extensions")),
        "copy": Namespace("copy", load=_copy_members),
        "pprint": Namespace("pprint", load=_pprint_members),
        "datetime": Namespace("datetime", load=_datetime_members),
        "tqdm": _tqdm_namespace(),
        "matplotlib": Namespace("matplotlib", load=_matplotlib_members),
        "collections": Namespace(
            "collections",
            {
                "OrderedDict": ORDERED_DICT,
                "defaultdict": DEFAULT_DICT,
                "deque": DEQUE_TYPE,
                "Counter": COUNTER_TYPE,
                "namedtuple": Builtin("collections.namedtuple", PC.namedtuple),
                "abc": Namespace("collections.abc", load=_abc_members),
            },
        ),
        "itertools": Namespace("itertools", dict(pyitertools.FUNCTIONS)),
        "numbers": Namespace("numbers", load=_numbers_members),
        # string's constants (a char-RNN tutorial's `all_letters = string.ascii_letters`)
        "string": Namespace("string", load=_string_members),
        "unicodedata": Namespace("unicodedata", load=_unicodedata_members),
        # statistics, heapq and bisect on the program's numbers and lists (lang/pystdlib.py)
        "statistics": Namespace("statistics", load=_Lazy(".pystdlib", "statistics_members")),
        "heapq": Namespace("heapq", load=_Lazy(".pystdlib", "heapq_members")),
        "bisect": Namespace("bisect", load=_Lazy(".pystdlib", "bisect_members")),
        "types": Namespace("types", load=_types_members),
        "argparse": Namespace("argparse", load=_argparse_members),
        "unittest": Namespace("unittest", load=_unittest_members),
        "dataclasses": Namespace("dataclasses", load=_dataclasses_members),
        "enum": Namespace("enum", load=_enum_members),
        # `from functorch import vmap, grad`: the library's old name, whose functions are
        # torch.func's (PyTorch's functorch forwards them, with a FutureWarning).
        "functorch": Namespace("functorch", load=_functorch_members),
    }


def _linalg_error() -> Any:
    from .exceptions import CLASSES

    return CLASSES["_LinAlgError"]


def _argparse_members() -> dict[str, Any]:
    from . import pyargparse

    return pyargparse.members()


def _unittest_members() -> dict[str, Any]:
    from . import pyunittest

    return pyunittest.members()


def _abc_members() -> dict[str, Any]:
    from . import pyabc

    return pyabc.members()


def _numbers_members() -> dict[str, Any]:
    from . import pyabc

    return pyabc.numbers_members()


def _types_members() -> dict[str, Any]:
    from . import pynamespace

    return pynamespace.members()


def _increment_version(tensor: Any) -> None:
    """torch.autograd.graph.increment_version(t or an iterable of tensors): count one change in
    place of each tensor's storage without changing it (what a custom kernel writing into a
    tensor tells autograd), so that a graph that saved it refuses its backward as after any
    change in place. PyTorch's RuntimeErrors for a value that is not a tensor or an iterable of
    them; an inference tensor (it has no counter) is passed over, as PyTorch passes it."""
    from ..core.tensor import MUTATIONS, counter
    from .values import seq

    if isinstance(tensor, Tensor):
        items = [tensor]
    else:
        try:
            items = seq(tensor, "increment_version()")
        except GradcliError as e:
            if "not iterable" not in str(e):  # (a limit stays a limit)
                raise
            raise GradcliError("increment_version expect a Iterable[Tensor] as input").mirror(
                "RuntimeError"
            ) from None
    for t in items:
        if not isinstance(t, Tensor):
            raise GradcliError(
                "increment_version expects each element of the iterable to be a tensor"
            ).mirror("RuntimeError")
    for t in items:
        if not t._inf:
            counter(t)[0] += 1
            MUTATIONS[0] += 1


def _get_gradient_edge(tensor: Any) -> Any:
    """torch.autograd.graph.get_gradient_edge(t): (t's grad_fn, or its AccumulateGrad for a
    leaf, t.output_nr, None), which autograd.grad and backward take as an input."""
    from ..core.op import accumulator
    from ..core.tensor import pytype_name

    if not isinstance(tensor, Tensor):
        raise GradcliError(f"'{pytype_name(tensor)}' object has no attribute 'requires_grad'")
    if not tensor.requires_grad:
        raise GradcliError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients",
            hint="get the edge of a tensor that requires grad",
        ).mirror("RuntimeError")
    t = current(tensor)
    if t.node is None:
        return GradientEdge(accumulator(t), 0, tensor, None)
    return GradientEdge(saved_grad_fn(t), _output_nr(t), tensor, t.node)


def _edge_outputs(v: Any) -> Any:
    """The outputs of autograd.grad / backward with each GradientEdge among them taken as the
    tensor it was taken from (PyTorch starts the pass at the edge's node)."""
    if isinstance(v, GradientEdge):
        return _edge_tensor(v)
    if type(v) in (list, tuple) and any(isinstance(o, GradientEdge) for o in v):
        return type(v)(_edge_tensor(o) if isinstance(o, GradientEdge) else o for o in v)
    return v


def _gradient_edge_by_hand(*args: Any, **kwargs: Any) -> Any:
    raise NotSupported(
        "making a torch.autograd.graph.GradientEdge from a node is not supported by gradcli",
        hint="take the edge of the tensor: torch.autograd.graph.get_gradient_edge(t)",
    )


def _edge_tensor(edge: Any) -> Tensor:
    """The tensor a GradientEdge stands for in autograd.grad / backward: its tensor, while the
    tensor's node is still the edge's (after a change in place it is another node)."""
    t = current(edge.tensor)
    if t.node is not edge.held:
        raise NotSupported(
            "a GradientEdge of a tensor changed in place since get_gradient_edge is not "
            "supported by gradcli",
            hint="take the edge after the change, or pass the tensor itself",
        )
    return edge.tensor


def _multi_grad_hook(tensors: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
    from ..surface.multihook import register_multi_grad_hook

    return register_multi_grad_hook(tensors, ProgramFunction.of(fn), *args, **kwargs)


def _checkpoint_members() -> dict[str, Any]:
    """torch.utils.checkpoint: the program's function (or module) called back through the
    interpreter; checkpoint_sequential's modules listed as PyTorch lists a Sequential's."""

    def checkpoint_sequential(functions: Any, segments: Any, input: Any, *a: Any, **k: Any) -> Any:
        from ..surface import checkpoint as CP
        from ..surface.nn import Module, Sequential

        if isinstance(functions, Sequential):
            items = list(functions._modules.values())
        elif isinstance(functions, (list, tuple)) or (
            isinstance(functions, Module) and hasattr(functions, "__len__")
        ):
            items = list(functions)
        else:
            raise GradcliError(f"object of type '{typename(functions)}' has no len()").mirror(
                "TypeError"
            )
        fns = [ProgramFunction.of(f) for f in items]
        return CP.checkpoint_sequential(fns, segments, input, *a, **k)

    return {
        "checkpoint": _Transform("..surface.checkpoint", "checkpoint"),
        "checkpoint_sequential": Builtin(
            "torch.utils.checkpoint.checkpoint_sequential", checkpoint_sequential
        ),
    }


def _data_members() -> dict[str, Any]:
    """torch.utils.data, loaded when a program first names it (its Dataset is the program's)."""
    from . import data as D_

    dataset = D_.dataset_base()
    members = {
        "Dataset": dataset,
        "IterableDataset": D_.iterable_dataset_base(dataset),
        "default_convert": Builtin("torch.utils.data.default_convert", D_.default_convert),
        # (a worker's in its code, None elsewhere: the workers run in the program's process)
        "get_worker_info": Builtin("torch.utils.data.get_worker_info", D_.get_worker_info),
        "TensorDataset": Builtin("torch.utils.data.TensorDataset", D_.TensorDataset),
        "DataLoader": Builtin("torch.utils.data.DataLoader", D_.DataLoader),
        "Subset": Builtin("torch.utils.data.Subset", D_.Subset),
        "random_split": Builtin("torch.utils.data.random_split", D_.random_split),
        "default_collate": Builtin("torch.utils.data.default_collate", D_.default_collate),
        "Sampler": D_.sampler_base(),
        **{
            n: Builtin(f"torch.utils.data.{n}", getattr(D_, n))
            for n in (
                "ConcatDataset",
                "ChainDataset",
                "StackDataset",
                "SequentialSampler",
                "RandomSampler",
                "SubsetRandomSampler",
                "WeightedRandomSampler",
                "BatchSampler",
            )
        },
    }
    # Its submodules (`torch.utils.data.sampler.WeightedRandomSampler`): the same objects,
    # each module holding the names of its `__all__` that gradcli has.
    for sub, held in (
        (
            "sampler",
            "BatchSampler RandomSampler Sampler SequentialSampler SubsetRandomSampler "
            "WeightedRandomSampler",
        ),
        (
            "dataset",
            "Dataset IterableDataset TensorDataset ConcatDataset ChainDataset StackDataset "
            "Subset random_split",
        ),
        ("dataloader", "DataLoader default_collate"),
    ):
        members[sub] = Namespace(f"torch.utils.data.{sub}", _classes_of(members, held))
    return members


def _matplotlib_members() -> dict[str, Any]:
    from . import plotting

    return plotting.members()


def _save(obj: Any, f: Any, *args: Any, **kwargs: Any) -> None:
    from . import copying

    copying.save(obj, f, *args, **kwargs)


def _load(f: Any, *args: Any, **kwargs: Any) -> Any:
    from . import copying

    return copying.load(f, *args, **kwargs)


def _distributions_members() -> dict[str, Any]:
    """torch.distributions, loaded when a program first names it (its classes, in
    `surface.distributions` and `dist_extra`; KL in `dist_kl`; constraints)."""
    from ..surface import dist_constraints as DC
    from ..surface import (
        dist_extra,  # (its classes join DS.CLASSES)
        dist_kl,
    )
    from ..surface import distributions as DS

    classes = {n: Builtin(f"torch.distributions.{n}", c) for n, c in DS.CLASSES.items()}
    transforms = {
        n: Builtin(f"torch.distributions.transforms.{n}", c) for n, c in DS.TRANSFORMS.items()
    }
    kl = Builtin("torch.distributions.kl_divergence", dist_kl.kl_divergence)
    register_kl = Builtin("torch.distributions.kl.register_kl", _register_kl)

    constraints = Namespace(
        "torch.distributions.constraints",
        {
            n: Builtin(f"torch.distributions.constraints.{n}", c) if callable(c) else c
            for n, c in DC.PUBLIC.items()
        },
    )

    # the base class, for isinstance (a program makes distributions of the classes above)
    def base_distribution(*args: Any, **kwargs: Any) -> Any:
        raise NotSupported(
            "torch.distributions.Distribution itself is not supported (an abstract class)",
            hint="make one of its classes: Normal(loc, scale), Categorical(probs)...",
        )

    base_distribution.distribution_class = DS.Distribution  # type: ignore[attr-defined]
    setter = Builtin(
        "torch.distributions.Distribution.set_default_validate_args",
        DS.set_default_validate_args,
    )
    DS.SET_DEFAULT_VALIDATE_ARGS[0] = setter
    base_distribution.program_class_attribute = (  # type: ignore[attr-defined]
        lambda attr: setter if attr == "set_default_validate_args" else None
    )
    base = Builtin("torch.distributions.Distribution", base_distribution)
    members = {
        **classes,
        **transforms,
        "transforms": Namespace("torch.distributions.transforms", transforms),
        "kl_divergence": kl,
        "register_kl": register_kl,
        "kl": Namespace(
            "torch.distributions.kl", {"kl_divergence": kl, "register_kl": register_kl}
        ),
        "constraints": constraints,
        "biject_to": Builtin("torch.distributions.biject_to", dist_extra.biject_to),
        "transform_to": Builtin("torch.distributions.transform_to", dist_extra.transform_to),
        "identity_transform": DS.ComposeTransform([]),
        "Distribution": base,
        "utils": Namespace(
            "torch.distributions.utils",
            {
                n: Builtin(f"torch.distributions.utils.{n}", fn)
                for n, fn in dist_extra.UTILS.items()
            },
        ),
    }
    # Its submodules (`torch.distributions.one_hot_categorical`): the names each shares with
    # torch.distributions (PyTorch's recorded table), as gradcli has them.
    from ..surface.torch_submodules import SUBMODULES

    for dotted, (shared, _) in SUBMODULES.items():
        package, _, sub = dotted.rpartition(".")
        if package == "torch.distributions" and sub not in members:
            held = shared.get(package, "").split()
            members[sub] = Namespace(
                dotted, load=lambda held=held: {n: members[n] for n in held if n in members}
            )
    return members


def _kl_class_key(c: Any) -> Any:
    """What `register_kl` keys a class by: a class of torch.distributions by its name (as
    `dist_kl` keys PyTorch's pairs), a program's class by itself. PyTorch checks nothing more
    than that it is a class (a pair of other classes is registered and never used)."""
    from .builtins import _distribution_class
    from .classes import ModuleClass, OptimClass, PlainClass

    if isinstance(c, Builtin) and _distribution_class(c.fn) is not None:
        cls = getattr(c.fn, "distribution_class", c.fn)
        return cls.NAME
    if isinstance(c, (OptimClass, PlainClass, ModuleClass, PyType)) or (
        isinstance(c, Builtin) and isinstance(c.fn, type)
    ):
        return c
    raise GradcliError(
        "issubclass() arg 1 must be a class",
        hint="register_kl takes two classes of torch.distributions: register_kl(Normal, Laplace)",
    ).mirror("TypeError")


def _register_kl(type_p: Any, type_q: Any) -> Builtin:
    """torch.distributions.register_kl(type_p, type_q): a decorator registering the program's
    function as KL(p || q) for this pair (`surface.dist_kl`: for this run)."""
    from ..surface import dist_kl

    key_p, key_q = _kl_class_key(type_p), _kl_class_key(type_q)

    def decorator(fun: Any) -> Any:
        dist_kl.register(key_p, key_q, fun)
        return fun

    return Builtin("register_kl.<locals>.decorator", decorator)


def _datetime_members() -> dict[str, Any]:
    from . import pydatetime

    return pydatetime.members()


def _pprint_members() -> dict[str, Any]:
    from . import pyprint

    return pyprint.members()


def _copy_members() -> dict[str, Any]:
    from . import copying

    return {
        "deepcopy": Builtin("copy.deepcopy", copying.deepcopy),
        "copy": Builtin("copy.copy", copying.copy),
    }


def _tqdm_namespace() -> Namespace:
    """`tqdm` and its `tqdm.auto` / `tqdm.notebook` / `tqdm.std` flavours: one progress bar
    (`progress.Progress`), drawn nowhere (tqdm draws on standard error)."""
    bar = progress.members()
    flavours = {n: Namespace(f"tqdm.{n}", dict(bar)) for n in ("notebook", "std", "autonotebook")}
    for n in ("auto", "asyncio"):
        flavours[n] = Namespace(f"tqdm.{n}", progress.members(eager=True))
    return Namespace("tqdm", {**bar, **flavours})


def _math_fn(f: Callable[..., float], name: str) -> Builtin:
    """A `math` function on Python numbers (or one-element tensors, as Python converts them)."""

    def call(*args: Any) -> float:
        vals = []
        for a in args:
            if isinstance(a, Tensor) or (isinstance(a, np.generic) and a.dtype.kind in "biuf"):
                a = a.item()
            elif PROGRAM_INSTANCES and isinstance(a, PROGRAM_INSTANCES[0]):
                from .classes import program_number  # (its __float__, else its __index__)

                got = program_number(a, ("__float__", "__index__"))
                a = a if got is None else got
            if isinstance(a, bool) or not isinstance(a, (int, float)):
                raise GradcliError(
                    f"math.{name}() takes numbers, not {typename(a)}",
                    hint=f"for tensors use torch.{name}(x)",
                )
            vals.append(a)
        try:
            r = f(*vals)
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
        except OverflowError as e:
            raise GradcliError(str(e)).mirror("OverflowError") from None
        if isinstance(r, int) and not isinstance(r, bool):
            # math.floor(1e308) is an integer of 1024 bits: the integer-size limit holds.
            limits.INT_BITS.check(r.bit_length(), "the size of an integer in bits")
        return r

    return Builtin(f"math.{name}", call)


def _math_prod(iterable: Any, *, start: Any = 1) -> Any:
    """`math.prod(items, start=1)`: start times each item, left to right, with the program's
    `*` (tensors multiply as tensors, integers stay within the integer-size limit)."""
    from .operators import binop
    from .values import int_check, iterate

    total = start
    tick = limits.BUDGET.tick
    for v in iterate(iterable, "math.prod()"):
        tick()
        total = int_check(binop(ast.Mult(), total, v))
    return total


_ISCLOSE = _math_fn(lambda a, b, r, t: math.isclose(a, b, rel_tol=r, abs_tol=t), "isclose")


def _math_isclose(a: Any, b: Any, *, rel_tol: Any = 1e-09, abs_tol: Any = 0.0) -> bool:
    """`math.isclose(a, b, rel_tol=..., abs_tol=...)` on numbers, as Python's."""
    return _ISCLOSE.fn(a, b, rel_tol, abs_tol)


def _int_args(name: str, args: tuple) -> list[int]:
    out = []
    for a in args:
        if isinstance(a, np.generic) and a.dtype.kind in "biu":
            a = int(a)
        if isinstance(a, Tensor) and a.data.size == 1 and a.data.dtype.kind in "biu":
            a = int(a.data.reshape(()))
        if not isinstance(a, int):
            raise GradcliError(
                f"'{typename(a)}' object cannot be interpreted as an integer"
            ).mirror("TypeError")
        out.append(int(a))
    return out


def _bits_bound(bits: float) -> None:
    """Refuses an integer result past the integer-size limit before it is computed."""
    if bits > limits.INT_BITS.value + 1:
        limits.INT_BITS.check(int(min(bits, 2**62)), "the size of an integer in bits")


def _log2_factorial(n: int) -> float:
    return math.lgamma(n + 1) / math.log(2) if n > 1 else 0.0


def _math_comb(n: Any, k: Any) -> int:
    """`math.comb(n, k)`, its size bounded (by the log of the factorials) before it is made."""
    n, k = _int_args("comb", (n, k))
    if n < 0 or k < 0:
        raise GradcliError(f"{'n' if n < 0 else 'k'} must be a non-negative integer").mirror(
            "ValueError"
        )
    if k <= n:
        _bits_bound(_log2_factorial(n) - _log2_factorial(k) - _log2_factorial(n - k) - 1)
    return math.comb(n, k)


def _math_perm(n: Any, k: Any = None) -> int:
    n = _int_args("perm", (n,))[0]
    k = n if k is None else _int_args("perm", (k,))[0]
    if n < 0 or k < 0:
        raise GradcliError(f"{'n' if n < 0 else 'k'} must be a non-negative integer").mirror(
            "ValueError"
        )
    if k <= n:
        _bits_bound(_log2_factorial(n) - _log2_factorial(n - k) - 1)
    return math.perm(n, k)


def _math_factorial(n: Any) -> int:
    if isinstance(n, float):
        raise GradcliError("'float' object cannot be interpreted as an integer").mirror("TypeError")
    n = _int_args("factorial", (n,))[0]
    if n < 0:
        raise GradcliError("factorial() not defined for negative values").mirror("ValueError")
    _bits_bound(_log2_factorial(n) - 1)
    return math.factorial(n)


def _math_gcd_lcm(name: str) -> Builtin:
    f = getattr(math, name)

    def call(*args: Any) -> int:
        vals = _int_args(name, args)
        if name == "lcm":
            _bits_bound(sum(v.bit_length() for v in vals))
        return f(*vals)

    return Builtin(f"math.{name}", call)


def _math_isqrt(n: Any) -> int:
    n = _int_args("isqrt", (n,))[0]
    if n < 0:
        raise GradcliError("isqrt() argument must be nonnegative").mirror("ValueError")
    return math.isqrt(n)


def _floats(v: Any, what: str) -> list[float]:
    from .values import iterate

    out = []
    for a in iterate(v, what):
        limits.BUDGET.tick()
        if isinstance(a, Tensor) or (isinstance(a, np.generic) and a.dtype.kind in "biuf"):
            a = a.item()
        if isinstance(a, bool) or not isinstance(a, (int, float)):
            raise GradcliError(f"must be real number, not {typename(a)}").mirror("TypeError")
        out.append(a)
    return out


def _math_fsum(items: Any) -> float:
    """`math.fsum(items)`: the exactly rounded sum of the numbers."""
    try:
        return math.fsum(_floats(items, "math.fsum()"))
    except (ValueError, OverflowError) as e:
        raise GradcliError(str(e)).mirror(type(e).__name__) from None


def _math_dist(p: Any, q: Any) -> float:
    a, b = _floats(p, "math.dist()"), _floats(q, "math.dist()")
    if len(a) != len(b):
        raise GradcliError("both points must have the same number of dimensions").mirror(
            "ValueError"
        )
    return math.dist(a, b)


def _math_ldexp(x: Any, i: Any) -> float:
    i = _int_args("ldexp", (i,))[0]
    return _LDEXP.fn(x, max(min(i, 1 << 20), -(1 << 20)))


_LDEXP = _math_fn(math.ldexp, "ldexp")


_MATH: dict[str, Any] = {
    "comb": Builtin("math.comb", _math_comb),
    "perm": Builtin("math.perm", _math_perm),
    "factorial": Builtin("math.factorial", _math_factorial),
    "gcd": _math_gcd_lcm("gcd"),
    "lcm": _math_gcd_lcm("lcm"),
    "isqrt": Builtin("math.isqrt", _math_isqrt),
    "fsum": Builtin("math.fsum", _math_fsum),
    "dist": Builtin("math.dist", _math_dist),
    "ldexp": Builtin("math.ldexp", _math_ldexp),
    "pi": math.pi,
    "isclose": Builtin("math.isclose", _math_isclose),
    "prod": Builtin("math.prod", _math_prod),
    "e": math.e,
    "tau": math.tau,
    "inf": math.inf,
    "nan": math.nan,
    **{
        n: _math_fn(getattr(math, n), n)
        for n in (
            "sqrt",
            "exp",
            "log",
            "log10",
            "log2",
            "log1p",
            "sin",
            "cos",
            "tan",
            "tanh",
            "atan",
            "asin",
            "acos",
            "sinh",
            "cosh",
            "floor",
            "ceil",
            "fabs",
            "erf",
            "isfinite",
            "isnan",
            # explore16: more of what notebooks call (every one a float of bounded cost)
            "atan2",
            "pow",
            "hypot",
            "degrees",
            "radians",
            "isinf",
            "copysign",
            "fmod",
            "trunc",
            "expm1",
            "erfc",
            "gamma",
            "lgamma",
            "asinh",
            "acosh",
            "atanh",
            "frexp",
            "modf",
            "remainder",
            "nextafter",
            "ulp",
            "cbrt",
            "exp2",
        )
    },
}


def _cmath_fn(f: Callable[..., Any], name: str) -> Builtin:
    """A `cmath` function on Python numbers, complex ones too (or one-element tensors, as
    Python converts them): each of bounded cost."""

    def call(*args: Any, **kwargs: Any) -> Any:
        vals = []
        for a in (*args, *kwargs.values()):
            if isinstance(a, Tensor) or (isinstance(a, np.generic) and a.dtype.kind in "biufc"):
                a = a.item()
            if isinstance(a, bool) or not isinstance(a, (int, float, complex)):
                raise GradcliError(
                    f"must be real number, not {typename(a)}", hint=f"cmath.{name}() takes numbers"
                ).mirror("TypeError")
            vals.append(a)
        try:
            return f(*vals[: len(args)], **dict(zip(kwargs, vals[len(args) :])))
        except ValueError as e:
            raise GradcliError(str(e)).mirror("ValueError") from None
        except OverflowError as e:
            raise GradcliError(str(e)).mirror("OverflowError") from None
        except TypeError as e:
            raise GradcliError(str(e)).mirror("TypeError") from None

    return Builtin(f"cmath.{name}", call)


def _cmath_members() -> dict[str, Any]:
    """`import cmath`: its constants and functions (imported when a program asks)."""
    import cmath

    return {
        **{n: getattr(cmath, n) for n in ("pi", "e", "tau", "inf", "infj", "nan", "nanj")},
        **{
            n: _cmath_fn(getattr(cmath, n), n)
            for n in (
                "exp log log10 sqrt sin cos tan asin acos atan sinh cosh tanh asinh acosh "
                "atanh phase polar rect isfinite isinf isnan isclose"
            ).split()
        },
    }


def _once_differentiable(f: Any) -> Any:
    """`@once_differentiable` on a Function's backward: it runs without recording a graph
    (its results do not require grad), as PyTorch's wrapper runs it under no_grad."""
    from .values import UserFunction

    if not isinstance(f, UserFunction):
        raise GradcliError("once_differentiable decorates a backward method").mirror("TypeError")
    g = f.copy()
    g.grad_mode = False
    g.once = True  # (with a graph asked, its gradients pass through an Error node)
    return g


ONCE_DIFFERENTIABLE = Builtin("once_differentiable", _once_differentiable)


_DTYPE_VALUES: dict[np.dtype, DType] = {}


def dtype_value(dt: np.dtype) -> DType:
    """The program's value of a dtype: prints as `torch.float32`; one value a dtype, as in
    PyTorch (`x.dtype is torch.float32`, `torch.float is torch.float32`)."""
    dt = np.dtype(dt)
    value = _DTYPE_VALUES.get(dt)
    if value is None:
        value = _DTYPE_VALUES[dt] = DType(D.TORCH_NAMES.get(dt, dt.name), dt)
    return value


def numpy_scalar_types() -> dict[str, NumpyScalarType]:
    """`np.float32`, `np.int64`, `np.bool_`...: one object each, what `type()` of a NumPy
    number gives too (`type(n) is np.int64`)."""
    if not _NUMPY_SCALAR_TYPES:
        for k in (
            "float16", "float32", "float64",
            "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "complex64", "complex128",
        ):  # fmt: skip
            _NUMPY_SCALAR_TYPES[k] = NumpyScalarType(k, np.dtype(k))
        _NUMPY_SCALAR_TYPES["bool_"] = NumpyScalarType("bool_", np.dtype(bool))
    return _NUMPY_SCALAR_TYPES


_NUMPY_SCALAR_TYPES: dict[str, NumpyScalarType] = {}


def numpy_scalar_type(v: Any) -> NumpyScalarType | None:
    """The type of a NumPy number as a program names it (np.int64), None for another value."""
    if not isinstance(v, np.generic):
        return None
    for t in numpy_scalar_types().values():
        if t.np == v.dtype:
            return t
    return None


_builtins_module.numpy_scalar_type = numpy_scalar_type  # (builtins' type() asks it)


class NumpyScalarType(DType):
    """`np.float64`, `np.int32`...: a dtype (where gradcli takes one) and NumPy's scalar type
    (`np.float64(1.5)` makes the number, which torch.tensor keeps the dtype of)."""

    __slots__ = ()
    NUMPY_SCALAR = True  # (how `operators` knows it without importing this module)

    def __call__(self, value: Any = 0) -> Any:
        if isinstance(value, Tensor):  # (NumPy reads it as an array, 0-d as its number)
            value = _numpy(value) if value.ndim else value.data.reshape(()).item()
        if isinstance(value, (list, tuple)):
            from .arrays import to_array

            value = to_array(list(value))
        if isinstance(value, np.ndarray):
            if value.ndim:  # an array of the type, as NumPy's astype (a copy)
                if value.dtype.kind not in "biufc":
                    raise GradcliError(
                        f"numpy.{self.np.name}() of an array of {value.dtype} is not "
                        "supported by gradcli",
                        hint="convert an array of numbers",
                    )
                with np.errstate(all="ignore"):
                    return value.astype(self.np)
            value = value.reshape(()).item()
        if isinstance(value, np.generic):
            value = value.item()
        if not isinstance(value, (bool, int, float, complex)):
            raise GradcliError(
                f"numpy.{self.np.name}() takes a number, not {typename(value)}"
            ).mirror("TypeError")
        if isinstance(value, complex) and self.np.kind in "iuf":
            raise GradcliError(
                "float() argument must be a string or a real number, not 'complex'"
                if self.np.kind == "f"
                else "int() argument must be a string, a bytes-like object or a real number, "
                "not 'complex'"
            ).mirror("TypeError")
        with np.errstate(over="ignore", invalid="ignore"):
            if self.np.kind in "iu" and isinstance(value, float):
                if not math.isfinite(value):
                    raise GradcliError(
                        "cannot convert float infinity to integer"
                        if math.isinf(value)
                        else "cannot convert float NaN to integer"
                    ).mirror("OverflowError" if math.isinf(value) else "ValueError")
                value = int(value)
            if self.np.kind in "iu":
                info = np.iinfo(self.np)
                if not info.min <= value <= info.max:
                    raise GradcliError(
                        f"Python integer {value} out of bounds for {self.np.name}"
                    ).mirror("OverflowError")
            return self.np.type(value)

    def __repr__(self) -> str:
        return f"<class 'numpy.{self.np.name}'>"

    def instance(self, v: Any) -> bool:
        """isinstance(v, np.float64): a NumPy number of the type (a Python float is none)."""
        return isinstance(v, np.generic) and bool(v.dtype == self.np)


def _result_type(tensor: Any, other: Any) -> DType:
    """`torch.result_type(a, b)`: the dtype of an operation on them, as a torch dtype."""
    from ..surface import basics

    return dtype_value(basics.result_type(tensor, other))


def _promote_types(type1: Any, type2: Any) -> DType:
    from ..surface import basics

    return dtype_value(basics.promote_types(type1, type2))


def _future_members() -> dict[str, Any]:
    """torch.__future__: whether a module's conversion (`model.double()`, `.to(dtype)`) makes
    new Parameter objects or exchanges the old ones' contents (`Settings`; one run long)."""

    def setter(field: str) -> Callable[[Any], None]:
        def set_it(value: Any) -> None:
            setattr(Settings, field, bool(value))

        return set_it

    out: dict[str, Any] = {}
    for name, field in (
        ("overwrite_module_params_on_conversion", "overwrite_module_params"),
        ("swap_module_params_on_conversion", "swap_module_params"),
    ):
        out["set_" + name] = setter(field)
        out["get_" + name] = functools.partial(getattr, Settings, field)
    return out


def _set_default_dtype(d: Any) -> None:
    d = d.np if isinstance(d, DType) else d  # calls pass torch dtypes as NumPy ones
    if not isinstance(d, np.dtype) or d.kind != "f":
        raise GradcliError(
            "only floating-point types are supported as the default type",
            expected="torch.float32 or torch.float64",
        )
    K.set_default_dtype(d)


def _set_default_tensor_type(t: Any) -> None:
    """`torch.set_default_tensor_type`, deprecated since PyTorch 2.1 (it warns): a legacy type
    or its name ("torch.DoubleTensor") sets the default dtype; CPU floating types only."""
    from ..core import hooks

    hooks.warn(
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
        "torch.set_default_dtype(torch.float64) says the same",
        once="set_default_tensor_type",
    )
    if isinstance(t, str):
        found = K.LEGACY_TYPES_BY_NAME.get(t[len("torch.") :]) if t.startswith("torch.") else None
        if found is None:
            if t.startswith("torch.cuda."):
                raise GradcliError(
                    f"type {t} not available. Torch not compiled with CUDA enabled.",
                    hint="gradcli runs on the CPU: torch.set_default_dtype(torch.float32)",
                ).mirror("TypeError")
            raise NotSupported(
                f"torch.set_default_tensor_type({t!r}) is not supported by gradcli",
                hint="name a CPU floating type: 'torch.FloatTensor' or 'torch.DoubleTensor'",
            )
        t = found
    if not isinstance(t, K.LegacyTensorType):
        raise GradcliError(
            "invalid type object: only floating-point types are supported as the default type",
            found=f"{typename(t)}",
            hint="pass torch.FloatTensor or torch.DoubleTensor (or use torch.set_default_dtype)",
        ).mirror("TypeError")
    if t.dtype.kind != "f":
        raise GradcliError(
            "only floating-point types are supported as the default type",
            hint="pass torch.FloatTensor or torch.DoubleTensor",
        ).mirror("TypeError")
    K.set_default_dtype(t.dtype)


def _sparse_members() -> dict[str, Any]:
    """torch.sparse: the product of a sparse and a dense matrix, and the sum of a sparse
    tensor (`surface.sparse`); its other functions are refused as gradcli's sparse tensors'."""
    return {
        "mm": _Lazy("..surface.sparse", "sparse_mm"),
        "addmm": _Lazy("..surface.sparse", "sparse_addmm"),
        "sum": _Lazy("..surface.sparse", "sparse_sum"),
        "softmax": _Lazy("..surface.sparse", "sparse_softmax"),
        "log_softmax": _Lazy("..surface.sparse", "sparse_log_softmax"),
    }


def _sparse_csr_tensor(*args: Any, **kwargs: Any) -> Any:
    from ..surface.sparse import sparse_csr_tensor

    return sparse_csr_tensor(*args, **kwargs)


def _sparse_mask(t: Tensor, mask: Any) -> Any:
    from ..surface.sparse import sparse_mask

    return sparse_mask(t, mask)


def _to_sparse_csr(t: Tensor, *args: Any, **kwargs: Any) -> Any:
    from ..surface.sparse import to_sparse_csr

    return to_sparse_csr(t, *args, **kwargs)


def _sparse_coo_tensor(*args: Any, **kwargs: Any) -> Any:
    from ..surface.sparse import sparse_coo_tensor

    return sparse_coo_tensor(*args, **kwargs)


def _autograd_grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: Any = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: Any = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> Any:
    items, keys = _inputs_arg(inputs, "grad")
    outputs = _edge_outputs(outputs)
    if not is_grads_batched:
        n = 1 if isinstance(outputs, Tensor) else _count(outputs)
        grad_outputs = _gradients_arg(grad_outputs, n)
    hidden = None
    if _GradMode.transforms:
        from ..surface.func import vmap_hidden

        hidden = vmap_hidden()
    got = autograd.grad(
        outputs,
        items,
        grad_outputs,
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=allow_unused,
        materialize_grads=materialize_grads,
        is_grads_batched=bool(is_grads_batched),
        hidden=hidden,
        sparse=True,
    )
    # (inputs given as a dict: the gradients by its keys, as PyTorch 2.13 answers them)
    return got if keys is None else dict(zip(keys, got))


def _autograd_backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: Any = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    _not_in_a_transform("backward")
    tensors = _edge_outputs(tensors)
    n = 1 if isinstance(tensors, Tensor) else _count(tensors)
    autograd.backward(
        tensors,
        _gradients_arg(grad_tensors, n),
        retain_graph=retain_graph,
        create_graph=create_graph,
        inputs=_tensors_arg(inputs, "backward"),
    )


def _gradients_arg(grads: Any, n: int | None) -> list | None:
    """The gradients given to backward() / autograd.grad(), as PyTorch 2.13 takes them: None,
    a Tensor, or any iterable of Tensors and Nones (`n`: the outputs, when known: past them the
    extra gradients are dropped, as PyTorch's zip drops them); a number, a list of numbers are
    PyTorch's TypeErrors, never a gradient made of them."""
    from ..core.tensor import pytype_name

    if grads is None:
        return None
    if isinstance(grads, Tensor):
        return [grads]
    items = seq(grads, "the gradients")  # (Python's "'float' object is not iterable")
    if n is not None and len(items) < n:
        raise GradcliError(f"got {n} tensors and {len(items)} gradients")
    items = items if n is None else items[:n]
    for g in items:
        if g is not None and not isinstance(g, Tensor):
            raise GradcliError(
                f"gradients can be either Tensors or None, but got {pytype_name(g)}",
                hint="give each gradient as a tensor: torch.tensor(...) of its output's shape",
            ).mirror("TypeError")
    return items


def _count(outputs: Any) -> int | None:
    return len(outputs) if isinstance(outputs, (list, tuple)) else None


def _not_in_a_transform(what: str) -> None:
    """What PyTorch refuses inside a function a torch.func transform runs."""
    if _GradMode.transforms:
        from ..surface.func import check_not_transforming

        check_not_transforming(what)


def _requires_grad_(t: Tensor, requires_grad: bool = True) -> Tensor:
    _not_in_a_transform("requires_grad_")
    return t.requires_grad_(requires_grad)


def _tensors_arg(v: Any, api: str) -> list[Tensor] | None:
    """`inputs=` of backward() (None: not given)."""
    return None if v is None else _inputs_arg(v, api)[0]


def _inputs_arg(v: Any, api: str) -> tuple[list[Tensor], list | None]:
    """`inputs` of backward() and autograd.grad(), taken as PyTorch 2.13 takes them: a Tensor,
    a dict (its values, and its keys for grad() to answer by) or any iterable of Tensors
    (`model.parameters()`, a tuple, a generator); with PyTorch's errors for another mapping, an
    empty one and an item that is not a Tensor."""
    from ..core.tensor import pytype_name

    if isinstance(v, Tensor):
        return [v], None
    if isinstance(v, GradientEdge):
        return [_edge_tensor(v)], None
    keys = None
    if type(v) is dict:
        keys = list(v.keys())
        items = list(v.values())
    elif isinstance(v, Mapping):
        raise (
            GradcliError(
                f"`inputs` argument to `{api}()` must be a dict, not {pytype_name(v)}. Other "
                "Mapping types are not supported."
            )
            .mirror("TypeError")
            .pytorch()
        )
    else:
        items = seq(v, f"the inputs of {api}()")
    if not items:
        raise GradcliError(f"`inputs` argument to `{api}()` cannot be empty.")
    items = [_edge_tensor(t) if isinstance(t, GradientEdge) else t for t in items]
    for t in items:
        if not isinstance(t, Tensor):
            raise GradcliError(
                f"all inputs have to be Tensors or GradientEdges, but got {pytype_name(t)}"
            )
    return items, keys


def _tensor_backward(
    t: Tensor,
    gradient: Any = None,
    retain_graph: Any = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    # (PyTorch 0.3's `retain_variables=` is refused as PyTorch 2.13 refuses it: a TypeError)
    _not_in_a_transform("backward")
    grads = _gradients_arg(gradient, 1)
    autograd.backward(
        [t],
        grads if grads is not None else [None],
        retain_graph=retain_graph,
        create_graph=create_graph,
        inputs=_tensors_arg(inputs, "backward"),
    )


def _tolist(t: Tensor) -> Any:
    if _GradMode.vmapped and batched(t):
        raise GradcliError(VMAP_STORAGE)
    no_meta_data(t)
    limits.LIST_ITEMS.check(t.data.size, "the number of items tolist() would make")
    return python_value("list", t.data.tolist())


# Tensor properties a program may read (and the few it may assign).
def _grad_fn(t: Tensor) -> Any:
    # The engine's node (name(), next_functions, PyTorch's repr), as PyTorch shows it.
    return None if current(t).grad_fn is None else saved_grad_fn(t)


def data_alias(t: Tensor) -> Tensor:
    """`x.data`: a tensor sharing x's memory, outside the graph (as PyTorch)."""
    return share(t, version=False)


def _persistent(t: Tensor) -> bool:
    """`b.persistent` of a tensor made by nn.Buffer (another tensor has no such attribute)."""
    from ..surface.nn import buffer_persistence

    persistent = buffer_persistence(t)
    if persistent is None:
        raise GradcliError("'Tensor' object has no attribute 'persistent'").mirror("AttributeError")
    return persistent


def _output_nr(t: Tensor) -> int:
    """`t.output_nr`: which of its grad_fn's outputs the tensor is (`a, b = x.unbind()`: 0 and
    1); 0 for a leaf or a tensor outside the graph."""
    from ..core.op import OUTPUT_NR

    node = current(t).node
    if node is None:
        return 0
    return int(node.params["k"]) if node.op.part else OUTPUT_NR.get(node, 0)


def _vmap_batched(t: Tensor) -> bool:
    """A BatchedTensor of the vmap running innermost: autograd runs beneath it, so the program
    sees no grad_fn there (requires_grad False, a leaf), as in PyTorch."""
    if not _GradMode.transforms:
        return False
    from ..surface.func import vmap_hidden

    hidden = vmap_hidden()
    return bool(hidden and hidden(t))


def _volatile(t: Tensor) -> bool:
    """`x.volatile` (PyTorch 0.3's): always False, with PyTorch's warning."""
    from ..core import hooks

    hooks.warn("volatile was removed (Variable.volatile is always False)")
    return False


def _grad_dtype(t: Tensor) -> Any:
    """`x.grad_dtype`: the dtype a leaf's gradients take, its own unless the program set
    another (None: any, `core.tensor.GRAD_DTYPES`)."""
    if not current(t).is_leaf:
        raise GradcliError("grad_dtype can only be accessed on leaf tensors.").mirror(
            "RuntimeError"
        )
    dtype = grad_dtype_of(current(t))
    return None if dtype is None else dtype_value(dtype)


TENSOR_PROPERTIES: dict[str, Callable[[Tensor], Any]] = {
    "shape": lambda t: Size(t.shape),
    "volatile": _volatile,
    "grad": read_grad,
    "_grad": lambda t: t.grad,  # (PyTorch's own field: the same gradient, without the warning)
    "data": data_alias,
    "requires_grad": lambda t: current(t).requires_grad and not _vmap_batched(t),
    # (the property: a changed no_grad view refuses)
    "is_leaf": lambda t: current(t).is_leaf or _vmap_batched(t),
    "grad_fn": lambda t: None if _vmap_batched(t) else _grad_fn(t),
    "T": F.T,
    "mT": F.mT,
    "H": F.H,
    "mH": F.mH,
    "real": F.real,
    "imag": F.imag,
    "ndim": lambda t: t.ndim,
    "dtype": lambda t: dtype_value(t.dtype),
    "grad_dtype": _grad_dtype,
    "device": lambda t: META_DEVICE if on_meta(t) else CPU,
    "is_cuda": lambda t: False,
    "is_cpu": lambda t: not on_meta(t),
    "is_meta": on_meta,
    # dense CPU tensors of real numbers: none of the other kinds PyTorch has
    **dict.fromkeys(
        (
            "is_sparse is_sparse_csr is_quantized is_mkldnn is_nested is_xla is_mps "
            "is_xpu is_ipu is_vulkan is_maia is_mtia"
        ).split(),
        lambda t: False,
    ),
    "layout": lambda t: STRIDED,
    # PyTorch's nbytes and itemsize are the elements' (not the storage's) at the dtype's size
    "nbytes": lambda t: int(t.data.size * D.itemsize(t.data.dtype)),
    "itemsize": lambda t: D.itemsize(t.data.dtype),
    "persistent": _persistent,
    "retains_grad": lambda t: t.retains_grad,
    "_version": lambda t: t._version,
    "output_nr": _output_nr,
    # the tensor a view shares its storage with (None for one that owns it): forum answers
    # test `v._base is x` to tell a view from a copy
    "_base": lambda t: t._base,
}
_builtins_module.TENSOR_PROPERTY_NAMES.update(TENSOR_PROPERTIES)  # (for `del x.name`)


IMPORTABLE = (
    "torch",
    "logging",
    "dataclasses",
    "enum",
    "copy",
    "pprint",
    "tqdm",
    "matplotlib",
    "numpy",
    "math",
    "cmath",
    "random",
    "typing",
    "typing_extensions",
    "collections",
    "gc",
    "time",
    "datetime",
    "warnings",
    "functorch",
    "itertools",
    "types",
    "argparse",
    "unittest",
    "numbers",
    "string",
    "unicodedata",
    "operator",
    "statistics",
    "heapq",
    "bisect",
)

# `from typing import List, Optional`: type hints, which gradcli (like Python) never checks.
TYPING_NAMES = (
    "Any",
    "Callable",
    "Dict",
    "Final",
    "Iterable",
    "Iterator",
    "List",
    "Mapping",
    "Optional",
    "Sequence",
    "Set",
    "Tuple",
    "Type",
    "Union",
)


def _typing_members(module: str) -> dict[str, Any]:
    """typing's names (or typing_extensions', which has them too): type hints that are never
    checked, `NamedTuple`, and `assert_type(value, type)`, which gives back its value
    unchecked at run time (as Python's: a static checker's assertion)."""
    return {
        **{n: TypingName(n) for n in TYPING_NAMES},  # (typing_extensions' are typing's)
        "NamedTuple": NAMED_TUPLE,
        "assert_type": Builtin(f"{module}.assert_type", _assert_type),
    }


def _assert_type(value: Any, typ: Any, /) -> Any:
    return value


class NamedTupleBase:
    """`typing.NamedTuple`: the base of `class P(NamedTuple): x: int` (a named tuple class,
    made by the class statement) or called as `NamedTuple('P', [('x', int)])`."""

    __slots__ = ()

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        if len(args) != 2 or kwargs:
            raise NotSupported(
                "typing.NamedTuple is supported as a base class or as NamedTuple(name, "
                "[(field, type), ...])",
                hint="class P(NamedTuple):\n    x: int",
            )
        pairs = seq(args[1], "NamedTuple()")
        names = []
        for p in pairs:
            if not isinstance(p, tuple) or len(p) != 2:
                raise GradcliError(
                    "NamedTuple('Name', [(f0, t0), (f1, t1), ...]); each t must be a type"
                ).mirror("TypeError")
            names.append(p[0])
        return PC.namedtuple(args[0], names)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        return "<function NamedTuple>"


NAMED_TUPLE = NamedTupleBase()


class TypingName:
    """A name from `typing` (`List`, `Optional`...): it can be imported, subscripted
    (`List[Tensor]`) and printed, as type hints are; nothing else."""

    __slots__ = ("name", "shown", "args")

    def __init__(self, name: str, shown: str | None = None, args: tuple = ()):
        self.name = name
        self.shown = shown or f"typing.{name}"
        self.args = args

    def program_getitem(self, key: Any) -> TypingName:
        check_structure(key, "a type hint")  # lists may nest and share items: count first
        args = key if isinstance(key, tuple) else (key,)
        shown = short(f"{self.shown}[{', '.join(map(_hint, args))}]")
        return TypingName(self.name, shown, args)

    def _refuse(self) -> GradcliError:
        if self.name in ("List", "Dict", "Set", "Tuple"):
            what = f"Type {self.name} cannot be instantiated; use {self.name.lower()}() instead"
        else:
            what = f"Cannot instantiate {self.shown}"
        return GradcliError(what).mirror("TypeError")

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise self._refuse()

    def union_members(self) -> list:
        """An `Optional[...]`/`Union[...]` hint's classes, nested unions flattened (as Python
        flattens them: `Optional[Optional[int]]` is `int | None`), each once; walked with a
        list, not recursion, so no depth of nesting a program builds reaches Python's stack."""
        out: list = []
        todo = [self]
        seen: set[int] = set()  # each union once (`t = Union[t, t]` shares them)
        while todo:
            limits.BUDGET.tick()
            hint = todo.pop()
            if isinstance(hint, TypingName) and hint.args and hint.name in ("Optional", "Union"):
                if id(hint) not in seen:
                    seen.add(id(hint))
                    todo.extend(reversed(hint.args + (None,) * (hint.name == "Optional")))
            elif not any(m is hint for m in out):
                out.append(hint)
        return out

    def program_instance(self, v: Any) -> bool:
        """`isinstance(v, Iterable)` of typing's name, as Python answers it: the abstract
        class or the built-in type the name stands for; a subscripted hint and the names
        that stand for no class refused in Python's words."""
        if self.args and self.name in ("Optional", "Union"):  # a union of its classes
            return any(
                _builtins_module.BUILTINS["isinstance"](v, NONE_TYPE if m is None else m)
                for m in self.union_members()
            )
        if "[" in self.shown:
            raise GradcliError(
                "Subscripted generics cannot be used with class and instance checks"
            ).mirror("TypeError")
        if self.name in _TYPING_BUILTINS:
            return isinstance(v, _TYPING_BUILTINS[self.name])
        from . import pyabc

        test = pyabc.TESTS.get(self.name)
        if test is not None:
            return test(v)
        if self.name == "Type":
            raise NotSupported(
                f"isinstance() with {self.shown} is not supported",
                hint="test with isinstance(v, type)",
            )
        raise GradcliError(f"{self.shown} cannot be used with isinstance()").mirror("TypeError")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise self._refuse()

    def __repr__(self) -> str:
        return self.shown


HINT_TYPES.append(TypingName)
_TYPING_BUILTINS = {"List": list, "Dict": dict, "Set": set, "Tuple": tuple}


def _hint(v: Any) -> str:
    """A type hint's argument as Python shows it inside `typing.List[...]`."""
    if isinstance(v, list):
        return "[" + ", ".join(map(_hint, v)) + "]"
    if isinstance(v, (TypingName, PyType)):
        return v.shown if isinstance(v, PyType) else repr(v)
    if isinstance(v, GenericAlias):  # `Optional[Iterable[int]]`, `List[list[int]]`
        return v.shown
    if v is None:
        return "NoneType"
    return "..." if v is Ellipsis else short(typename(v))


CPU = Device("cpu")
META_DEVICE = Device("meta")


def _numpy(t: Tensor, force: bool = False) -> np.ndarray:
    """`x.numpy()`: `arrays.tensor_array` (a NumPy view sharing the tensor's memory)."""
    from .ndinterop import tensor_array

    return tensor_array(t, force)


def _to(t: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """`x.to(...)`: the surface's, which takes a `torch.device` value as well as its string
    (and names it `torch.device` in PyTorch's TypeError for arguments it does not take)."""
    return _SURFACE_TO(t, *args, **kwargs)


_SURFACE_TO = names.METHODS["to"]


def _cpu(t: Tensor, *a: Any, **k: Any) -> Tensor:
    no_meta_data(t)
    return t


def _cuda(t: Tensor, *a: Any, **k: Any) -> Tensor:
    """`x.cuda()`: PyTorch's error on a machine without CUDA, which a program can catch."""
    from ..surface.args import cuda_method

    raise cuda_method(a[0] if a else k.get("device"), keyword=not a)


def _to_sparse(t: Tensor, *args: Any, **kwargs: Any) -> Any:
    from ..surface.sparse import to_sparse

    return to_sparse(t, *args, **kwargs)


# The surface's methods, and the few that hand the program a value of the language.
_TENSOR_METHODS_OWN: dict[str, Callable[..., Any]] = {
    "backward": _tensor_backward,
    "requires_grad_": _requires_grad_,
    "tolist": _tolist,
    "numpy": _numpy,
    "to": _to,
    "cpu": _cpu,
    "cuda": _cuda,
    "to_sparse": _to_sparse,
    "to_sparse_coo": _to_sparse,
    "to_sparse_csr": _to_sparse_csr,
    "sparse_mask": _sparse_mask,
}
TENSOR_METHODS: dict[str, Callable[..., Any]] = names.LazyTable(
    "METHODS", lambda: {**names.raw(names.METHODS), **_TENSOR_METHODS_OWN}
)
