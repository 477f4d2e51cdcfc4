"""The values a program holds besides tensors and Python's own numbers, strings and containers:
namespaces, dtypes, builtins, bound methods, user functions, classes and their instances,
exceptions; and walking Python values without making more items than the limits allow.

User functions, lambdas, builtins and bound methods are callable from Python: calling one
runs it in the interpreter, under the run's limits (see `UserFunction`). That is the seam
the rest of gradcli uses to call a program's functions (`torch.func.grad(f)`,
`autograd.functional.jacobian(f, x)`, `gradcheck(f, ...)`, hooks, `sorted(key=f)`).
"""

from __future__ import annotations

import collections
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported
from ..core import tensor as _tensor_module
from ..core.sparse import SparseCOO
from ..core.tensor import Tensor, pytype_name, typename
from ..surface import nn as surface_nn
from ..surface.args import device_arg, meta_or_cpu
from ..surface.nn import Parameter, parameter


class Namespace:
    """`torch`, `torch.nn`, `F`, `numpy`...: a fixed table of members. `load` instead of
    `members`: a function that makes the table when a program first reaches into the module
    (`torch.optim`: its code is imported only by the programs that use it)."""

    __slots__ = ("name", "_members", "_load")

    def __init__(
        self,
        name: str,
        members: dict[str, Any] | None = None,
        load: Callable[[], dict[str, Any]] | None = None,
    ):
        self.name = name
        self._members = members
        self._load = load

    @property
    def members(self) -> dict[str, Any]:
        members = self._members
        if members is None:
            members = self._members = self._load()  # type: ignore[misc]
        return members

    def __repr__(self) -> str:
        if self is FUNCTION_BASE:  # a class of torch's, kept as a table of no members
            return "<class 'torch.autograd.function.Function'>"
        return f"<module '{self.name}'>"

    def program_typename(self) -> str:
        """The class as Python's messages name it (`object of type 'module' has no len()`);
        torch.autograd.Function's is its metaclass."""
        return "FunctionMeta" if self is FUNCTION_BASE else "module"


class Missing:
    """A name imported from a torch module gradcli does not have (`from torch.optim import
    SGD`): the import works, as in a pasted script that may never use it; using it says that
    gradcli does not support it."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def refuse(self) -> NotSupported:
        return NotSupported(
            f"`{self.name}` is not supported by gradcli",
            hint="see `gradcli ops` and the README for what is supported",
        )

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise self.refuse()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise self.refuse()

    def program_attribute(self, name: str) -> Any:
        raise self.refuse()

    def __repr__(self) -> str:
        return f"<{self.name}: not supported by gradcli>"


class UnusedModule(Missing):
    """A standard-library module that scripts import and gradcli does not run (`import re`,
    `from functools import partial`): the import works, so a pasted script that never uses it
    runs; any use of it (an attribute, a call) is refused, and says so. Nothing of the real
    module is ever reached."""

    __slots__ = ("environ",)

    def refuse(self, attr: str | None = None) -> NotSupported:
        root = self.name.split(".")[0]
        used = f"{self.name}.{attr}" if attr else self.name
        return NotSupported(
            f"`{used}` is not supported: gradcli programs cannot use the module `{root}` "
            "(importing it is allowed, so that a script that never uses it runs)",
            hint=UNUSED_MODULE_HINTS.get(root, "compute with torch, numpy, math or plain Python"),
        )

    def program_attribute(self, name: str) -> Any:
        if self.name == "functools" and name in FUNCTOOLS:
            return FUNCTOOLS[name]
        if self.name == "sys":
            found = _sys_member(name)
            if found is not _NO_MEMBER:
                return found
        if self.name == "os" and name == "path":
            return OS_PATH_MODULE
        if self.name == "os" and name == "cpu_count":
            return OS_CPU_COUNT
        if self.name == "os.path" and name in OS_PATH:
            return OS_PATH[name]
        if self.name == "os" and name == "environ":
            # `os.environ["KMP_DUPLICATE_LIB_OK"] = "True"` at a script's top: the program's
            # own empty dict (the process's environment is never read nor written)
            env = getattr(self, "environ", None)
            if env is None:
                env = self.environ = {}
            return env
        raise self.refuse(name)

    def program_set(self, name: str, value: Any) -> None:
        if self.name == "sys" and name == "argv":
            # a notebook's `sys.argv = ["train.py", "--lr", "0.1"]` before its parse_args()
            current().argv = seq(value, "sys.argv")
            return
        raise self.refuse(name)


_NO_MEMBER = object()

# The type of an instance of a program's plain class (`classes.Instance`, registered there):
# the operators dispatch `a + b` to its methods without importing `classes` (no import cycle).
PROGRAM_INSTANCE: list[type] = []
# (Instance, ModuleInstance): the objects whose class may define the number protocol.
PROGRAM_INSTANCES: list[tuple] = []
# `classes.program_index` (registered there): an instance's `__index__`.
PROGRAM_INDEX: list[Callable[[Any], Any]] = []


def tensor_index(t: Tensor) -> int:
    """PyTorch's Tensor.__index__: the integer of an integer (or bool) tensor of one element,
    of any shape; any other tensor is refused with PyTorch's words (Python asks a value for its
    index wherever it wants an int: `xs[t]`, `xs[a:t]`, `range(t)`, `[0] * t`, `round(x, t)`)."""
    if t.data.size != 1 or t.data.dtype.kind not in "biu":
        raise GradcliError(
            "only integer tensors of a single element can be converted to an index"
        ).mirror("TypeError")
    return int(t.data.reshape(()))


def as_index(v: Any) -> Any:
    """`v` by its `__index__` where it has one (a tensor as PyTorch gives it, a NumPy integer,
    an instance of the program's class that defines it): an int; any other value unchanged,
    for the caller to refuse in its own words."""
    if isinstance(v, Tensor):
        return tensor_index(v)
    if isinstance(v, np.integer):
        return int(v)
    if PROGRAM_INSTANCES and isinstance(v, PROGRAM_INSTANCES[0]):
        return PROGRAM_INDEX[0](v)
    return v


def int_index(v: Any) -> int:
    """`v` where Python wants an integer (`operator.index`): Python's TypeError for a value
    that has no index."""
    v = as_index(v)
    if isinstance(v, bool):
        return int(v)
    if not isinstance(v, int):
        raise GradcliError(f"'{typename(v)}' object cannot be interpreted as an integer").mirror(
            "TypeError"
        )
    return v


def _exit(code: Any = None) -> None:
    """`exit()`, `quit()`, `sys.exit(main())`: the run ends here, successfully for None or 0."""
    if code is None or (type(code) in (int, bool) and code == 0):
        raise ProgramExit()
    if isinstance(code, str):
        raise GradcliError(f"the program stopped: {code}").mirror(None)
    raise GradcliError(
        f"the program stopped with exit status {code!r}",
        hint="exit() and exit(0) end the program successfully",
    ).mirror(None)


def _sys_member(name: str) -> Any:
    """What a script reaches of `sys`: its own output, its command line (the program's name,
    as a script run without arguments has: argparse's defaults), the end of the run, and the
    constants it tests against; nothing of the interpreter's state."""
    if name == "stdout":
        return STDOUT  # `sys.stdout.write(s)`: the program's own output
    if name == "stderr":
        return STDERR
    if name == "exit":
        return EXIT
    if name == "argv":
        rt = current()
        if rt.argv is None:
            rt.argv = [rt.source.name]
        return rt.argv
    if name == "path":
        rt = current()
        if rt.sys_path is None:
            rt.sys_path = [""]  # (a script's own directory, as the interpreter's first entry)
        return rt.sys_path
    if name == "maxsize":
        return 2**63 - 1
    if name == "setrecursionlimit":  # gradcli's own call-depth limit applies either way
        return Builtin("sys.setrecursionlimit", lambda n: None)
    if name == "getrecursionlimit":
        return Builtin("sys.getrecursionlimit", lambda: 1000)
    return _NO_MEMBER


class Partial:
    """`functools.partial(f, *args, **keywords)`: calling it calls f with those arguments
    first (a partial of a partial is flattened, as Python's: no chain to recurse through)."""

    __slots__ = ("func", "args", "keywords")

    def __init__(self, func: Any, args: tuple, keywords: dict) -> None:
        if isinstance(func, Partial):
            args, keywords = func.args + args, {**func.keywords, **keywords}
            func = func.func
        self.func, self.args, self.keywords = func, args, keywords

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        return rt.call(self.func, [*self.args, *args], {**self.keywords, **kwargs}, None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(current(), list(args), kwargs)

    def program_attribute(self, name: str) -> Any:
        if name in ("func", "args", "keywords"):
            return getattr(self, name)
        raise GradcliError(f"'functools.partial' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_typename(self) -> str:
        return "functools.partial"

    def __repr__(self) -> str:
        shown = [repr(self.func), *map(repr, self.args)]
        shown += [f"{k}={v!r}" for k, v in self.keywords.items()]
        return f"functools.partial({', '.join(shown)})"


def _partial(func: Any, /, *args: Any, **keywords: Any) -> Partial:
    if not callable(func):
        raise GradcliError("the first argument must be callable").mirror("TypeError")
    return Partial(func, args, keywords)


# The standard-library modules a pasted script may import without gradcli running them, with
# what to write instead where there is one. The module is inert: any use of it is refused (so
# `pickle` may be imported by a script whose data loading was replaced, never used); the ones
# that run processes (subprocess, multiprocessing, ctypes, importlib...) stay refused at the
# import.
UNUSED_MODULE_HINTS = {
    "os": "gradcli programs reach no files, processes or environment: write the values in "
    "the program",
    "sys": "gradcli programs have no command line or interpreter state: write the values in "
    "the program",
    "functools": "write a lambda or a def instead (functools.partial, reduce and wraps are "
    "supported)",
    "re": "use str methods (split, replace, startswith...)",
    "json": "write the values in the program (a dict or a list)",
    "pandas": "make the data with torch (torch.tensor of the rows, torch.randn...)",
    "sklearn": "make the data with torch (torch.randn, torch.rand...) and the metrics by hand",
    "torchvision": "make the images with torch (torch.rand(N, C, H, W)) and the model from "
    "torch.nn",
    "scipy": "compute with torch, numpy or math",
    "PIL": "make the images with torch (torch.rand(C, H, W))",
    "IPython": "use print()",
    "tkinter": "gradcli programs have no windows: use print()",
    "seaborn": "gradcli prints what the program prints; plot the numbers with PyTorch itself",
    "pickle": "make the data in the program (torch.randn, torch.tensor of the values)",
    "requests": "gradcli programs reach no network: write the data in the program",
    "urllib": "gradcli programs reach no network: write the data in the program",
}
UNUSED_MODULES = (
    "re",
    "functools",
    "json",
    "timeit",
    "abc",
    "contextlib",
    # third-party and display modules that pasted notebooks import (often for a plot, a
    # dataset or a summary gradcli's output does not need): inert until used
    "pandas",
    "seaborn",
    "sklearn",
    "scipy",
    "PIL",
    "torchvision",
    "IPython",
    "tkinter",
    "torchsummary",
    "torchviz",
    "graphviz",
    "plotly",
    "tensorboard",
    "pathlib",
    "glob",
    "csv",
    "tempfile",
    "traceback",
    "inspect",
    "textwrap",
    "platform",
    # debugging, profiling and housekeeping modules left in pasted scripts
    "pdb",
    "ipdb",
    "cProfile",
    "pstats",
    "uuid",
    "hashlib",
    "fractions",
    "decimal",
    "struct",
    "yaml",
    "h5py",
    "wandb",
    "tensorflow",
    "jax",
    "lightning",
    "pytorch_lightning",
    "transformers",
    "einops",
    "torchaudio",
    "torchtext",
    "pytest",
    # data loading replaced by made-up tensors when a script is pasted
    "pickle",
    "gzip",
    "zipfile",
    "shutil",
    "urllib",
    "requests",
    "cv2",
    "skimage",
    "imageio",
    "datasets",
    "torchmetrics",
)
# `import os`, `import os.path` and `import sys` alone, as scripts put at their top and often
# never use: bound as an unused module (every use refused but os.path's string functions),
# while `from os import ...` stays refused at the import.
BARE_UNUSED_MODULES = ("os", "os.path", "sys")


class ProgramExit(BaseException):  # noqa: N818  (as Python's SystemExit: no Exception)
    """`exit()` / `quit()` / `exit(0)`: the program stops here, successfully (the run ends as
    at its last line); no `except` of the program catches it."""


class DType:
    __slots__ = ("name", "np")

    def __init__(self, name: str, np_dtype: np.dtype):
        self.name = name
        self.np = np_dtype

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def program_typename(self) -> str:
        return "torch.dtype"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DType) and self.np == other.np

    def __hash__(self) -> int:
        return hash(self.np)


class Device:
    """`torch.device('cpu')`: gradcli computes on the CPU.

    `with torch.device('cpu'):` makes it the default device of the tensors and modules made in
    the block, which it already is. Another device fails where PyTorch's CPU build fails at
    the block's first tensor (CUDA's catchable AssertionError; meta, mps... refused), here on
    entering the block, before anything of it runs."""

    __slots__ = ("type", "index")

    program_context = True

    def __init__(self, type: str, index: int | None = None):  # noqa: A002
        self.type = type
        self.index = index

    @staticmethod
    def make(spec: Any = "cpu", index: Any = None) -> Device:
        if isinstance(spec, Device):
            return spec
        if isinstance(spec, int) and not isinstance(spec, bool):
            from ..surface.args import cuda_method

            if spec < 0:
                raise GradcliError("Device index must not be negative").mirror("RuntimeError")
            raise cuda_method(spec)  # `torch.device(0)`: an accelerator's index, as in PyTorch
        if not isinstance(spec, str):
            from ..core.tensor import pytype_name
            from ..surface.args import parser_typename

            raise GradcliError(
                "device() received an invalid combination of arguments - got "
                f"({pytype_name(spec)}), but expected one of:\n * (torch.device device)\n"
                "      didn't match because some of the arguments have invalid types: "
                f"(!{parser_typename(spec)}!)\n * (str type, int index = -1)\n"
            ).mirror("TypeError")
        kind, number = device_arg(spec)
        return Device(kind, index if number is None else number)

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def enter(self) -> None:
        if meta_or_cpu(str(self)):
            block = meta_block()
            block.__enter__()
            _META_BLOCKS.append(block)
        else:
            _META_BLOCKS.append(None)

    def exit(self) -> None:
        block = _META_BLOCKS.pop() if _META_BLOCKS else None
        if block is not None:
            block.__exit__(None, None, None)

    @property
    def as_value(self) -> Device:  # (`with torch.device('cpu') as d:` binds the device)
        return self

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other: object) -> bool:
        # (a device equals a device only: PyTorch's `x.device == 'cpu'` is False)
        return isinstance(other, Device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


# The `with torch.device(...)` blocks open, innermost last (None: the CPU's).
_META_BLOCKS: list[Any] = []


class Layout:
    """`torch.strided`, the layout of every tensor gradcli makes (`x.layout`), and
    `torch.sparse_coo`, an embedding's sparse gradient's (`core.sparse`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    __str__ = __repr__


STRIDED = Layout("strided")
SPARSE_COO = Layout("sparse_coo")
SPARSE_CSR = Layout("sparse_csr")


class Builtin:
    """A function of gradcli's a program calls by name (`len`, `torch.Size`, `F.apply`...).

    raw: it takes the program's values as they are (torch dtypes as `DType`); otherwise they
    are converted for the surface (a `DType` becomes its NumPy dtype).
    """

    __slots__ = ("name", "fn", "raw", "shown")

    def __init__(
        self, name: str, fn: Callable[..., Any], raw: bool = True, shown: str | None = None
    ):
        self.name = name
        self.fn = fn
        self.raw = raw
        # Python's text for one that is a method in Python (`F.apply`: a bound classmethod)
        self.shown = shown

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def program_typename(self) -> str:
        if self.shown is not None and self.shown.startswith("<bound method"):
            return "method"
        return "builtin_function_or_method"  # Python's name in its messages (`len`'s class)

    def __repr__(self) -> str:
        return self.shown or f"<built-in function {self.name}>"


EXIT = Builtin("exit", _exit)


class BoundMethod:
    """`x.sum` or `l.append` as a value: the method with its object (`raw` as `Builtin`'s)."""

    __slots__ = ("name", "fn", "obj", "raw", "user", "shown")

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        obj: Any,
        raw: bool = False,
        user: Any = None,
        shown: str | None = None,
    ):
        self.name = name
        self.fn = fn
        self.obj = obj
        self.raw = raw
        self.user = user  # the program's function, for a program's method
        self.shown = shown  # the object's class as Python names it, when not its typename

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(self.obj, *args, **kwargs)

    def program_typename(self) -> str:
        """Python's name of the method's class: a C method of a tensor, array or builtin value
        (`x.sum`, `l.append`) is a 'builtin_function_or_method'; the method of a program's
        class or of a Python class of PyTorch's (`model.forward`, `opt.step`) a 'method'."""
        if self.user is None and isinstance(self.obj, _C_METHOD_OWNERS):
            return "builtin_function_or_method"
        return "method"

    def __repr__(self) -> str:
        # Python's own form, with the object's address (`<built-in method size of Tensor
        # object at 0x7f...>`): addresses differ from run to run, as in Python.
        if self.user is not None:  # a program's method: Python's bound method
            return f"<bound method {self.user.qualname} of {self.obj!r}>"
        kind = self.shown or typename(self.obj)
        return f"<built-in method {self.name} of {kind} object at {id(self.obj):#x}>"


# The values whose methods are C functions in Python and PyTorch.
_C_METHOD_OWNERS = (Tensor, list, dict, set, frozenset, tuple, str, bytes, int, float, np.ndarray)


class FunctionCode:
    """A `def` or `lambda` compiled once (per program): its parameters and its body.

    positional  names of the positional parameters, in order
    kwonly      names of the keyword-only parameters
    vararg      the `*args` name, kwarg the `**kwargs` name (or None)
    body        the compiled body: called with the new frame, returns a control signal
    expression  a lambda: `body` returns the value itself
    simple      only positional parameters (the fast path of a call)
    """

    __slots__ = (
        "name",
        "node",
        "positional",
        "kwonly",
        "vararg",
        "kwarg",
        "body",
        "expression",
        "simple",
        "owner",
        "generator",
    )

    def __init__(
        self,
        name: str,
        node: Any,
        positional: list[str],
        kwonly: list[str],
        vararg: str | None,
        kwarg: str | None,
        expression: bool,
    ):
        self.name = name
        self.node = node
        self.positional = positional
        self.kwonly = kwonly
        self.vararg = vararg
        self.kwarg = kwarg
        self.body: Callable[[Any], Any] = _unset
        self.expression = expression
        self.simple = not kwonly and vararg is None and kwarg is None
        # The class whose body defines this method (`super()` needs it), set when it is made.
        self.owner: Any = None
        # A generator function (its body holds `yield`): `body` makes a Python generator of
        # the values it yields (see `UserGenerator`).
        self.generator = False


def _unset(frame: Any) -> Any:  # pragma: no cover - replaced as soon as the body compiles
    raise AssertionError("function body not compiled")


class UserFunction:
    """A function or lambda the program defined, with its defaults and its closure.

    Calling it from Python (`f(x)`) runs its body in the interpreter of the run that made it,
    under that run's limits (call depth, loop iterations, time, memory): what surface and
    analysis code does with the functions a program passes it.
    """

    __slots__ = (
        "code",
        "defaults",
        "kwdefaults",
        "closure",
        "runtime",
        "grad_mode",
        "once",
        "static",
        "attrs",
        "shown",
        "__weakref__",
    )

    def __init__(
        self,
        code: FunctionCode,
        defaults: tuple,
        kwdefaults: dict[str, Any],
        closure: Any,
        runtime: Any,
    ):
        self.code = code
        self.defaults = defaults
        self.kwdefaults = kwdefaults
        self.closure = closure  # the frame of the enclosing function, or None
        self.runtime = runtime
        # None, or the grad mode `@torch.enable_grad()` / `@torch.no_grad()` sets (a bool;
        # (grad, inference) for inference_mode), or the autocast block `@torch.autocast(...)`
        # runs the calls in (an object with enter() / exit()).
        self.grad_mode: Any = None
        # `@once_differentiable` (a Function's backward, run under no_grad; with a graph
        # asked, its gradients pass through PyTorch's Error node: `ops.custom`).
        self.once = False
        # `@staticmethod` in a class: not bound to the instance.
        self.static = False
        # The attributes the program gave the function (`f.make_vjp = vjp_of_f`, a counter
        # `f.calls = 0`), Python's function `__dict__`: None until the first one.
        self.attrs: dict[str, Any] | None = None
        # What `functools.wraps` gave it: the program's function it wraps (named as that one
        # is, its qualified name known once its class is made), a (name, qualname) pair, or
        # None.
        self.shown: Any = None

    def copy(self) -> UserFunction:
        g = UserFunction(self.code, self.defaults, self.kwdefaults, self.closure, self.runtime)
        g.grad_mode = self.grad_mode
        g.once = self.once
        g.static = self.static
        g.attrs = None if self.attrs is None else dict(self.attrs)
        g.shown = self.shown
        return g

    def set_attribute(self, attr: str, value: Any) -> None:
        """`f.name = value` in a program: kept as Python keeps a function's attribute; the
        names with dunders (Python's own of a function) are refused."""
        if attr.startswith("__"):
            raise NotSupported(
                f"setting `{attr}` of a function is not supported in gradcli programs",
                found=f"`.{attr}`",
                hint="keep your value under a name of your own (f.tag = value)",
            )
        if self.attrs is None:
            self.attrs = {}
        if attr not in self.attrs:
            limits.LIST_ITEMS.check(
                len(self.attrs) + 1, f"the number of attributes of the function {self.name}"
            )
        self.attrs[attr] = value

    @property
    def name(self) -> str:
        shown = self.shown
        if shown is None:
            return self.code.name
        return shown.name if isinstance(shown, UserFunction) else shown[0]

    def program_typename(self) -> str:
        return "function"  # a def or lambda, as Python's messages name its class

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.runtime.invoke(self, args, kwargs)

    def __repr__(self) -> str:
        # Python's form, with the function's address (it differs from run to run, as Python's)
        return f"<function {self.qualname} at {id(self):#x}>"

    @property
    def qualname(self) -> str:
        """`M.forward` for a method of a program class, the name otherwise (Python's
        `__qualname__`, but for the `<locals>` of nested functions)."""
        shown = self.shown
        if shown is not None:
            return shown.qualname if isinstance(shown, UserFunction) else shown[1]
        owner = self.code.owner
        name = getattr(owner, "name", None) if owner is not None else None
        return f"{name}.{self.code.name}" if isinstance(name, str) else self.code.name


# ctx's own members (PyTorch's FunctionCtx and _FunctionBase): `del ctx.<one of them>` is
# refused (PyTorch crashes on some of them)
_CTX_OWN = frozenset(
    "needs_input_grad save_for_backward save_for_forward mark_non_differentiable "
    "set_materialize_grads mark_dirty materialize_grads to_save saved_for_forward "
    "non_differentiable dirty_tensors next_functions metadata name".split()
)


class Ctx:
    """The `ctx` of a custom `torch.autograd.Function`."""

    def __init__(self) -> None:
        self.saved_tensors: tuple = ()
        self.attrs: dict[str, Any] = {}
        self.needs_input_grad: tuple = ()
        self.non_differentiable: tuple = ()
        self.dirty: tuple = ()
        self.materialize_grads = True
        # clear_saved_tensors_on_access on the Function: saved_tensors is read once
        self.clear_on_access = False
        self.saved_read = False
        self.saved_forward: tuple | None = None  # ctx.save_for_forward's, for jvp
        self.save_error: GradcliError | None = None  # a non-tensor save_for_backward was given
        # inside saved_tensors_hooks: (unpack_hook, what pack_hook gave for each saved tensor)
        self.packed: tuple | None = None
        self.shown = "FunctionCtx"  # its class's name in Python's messages: "NameBackward"
        # Once forward has returned (a call that records a node): each saved tensor's version
        # then, and its number among forward's outputs (None: not an output). Reading
        # ctx.saved_tensors in backward refuses a tensor changed in place since, as PyTorch's
        # SavedVariable does (`check_versions`).
        self.saved_versions: tuple | None = None
        self.saved_output_nrs: tuple = ()
        self.forward_out: Any = None  # what forward returned (dropped once versions are kept)

    def __repr__(self) -> str:
        # what `print(ctx)` shows: PyTorch's ctx is the node object, of its backward class
        return f"<torch.autograd.function.{self.shown} object at {id(self):#x}>"

    def save_for_backward(self, *tensors: Any) -> None:
        # PyTorch checks what was saved once forward has returned, and only when the call
        # records a node (grad mode on, a tensor argument requiring grad): `check_saved`
        self.save_error = None
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                self.save_error = GradcliError(
                    "save_for_backward can only save variables, but argument "
                    f"{i} is of type {typename(t)}",
                    hint="keep other values as ctx attributes: ctx.name = value",
                ).mirror("TypeError")
                break
        self.saved_tensors = tuple(tensors)
        self.packed = None

    def check_saved(self) -> None:
        """Raise what save_for_backward was given that is not a tensor (or None)."""
        if self.save_error is not None:
            raise self.save_error

    def note_versions(self) -> None:
        """Keep the saved tensors' versions once the call's outputs are made (PyTorch makes
        its SavedVariables then), and which of them forward returned."""
        out, self.forward_out = self.forward_out, None
        outs = out if isinstance(out, tuple) else (out,)
        versions, nrs = [], []
        for t in self.saved_tensors:
            if not isinstance(t, Tensor) or t.is_inference():
                versions.append(None)
                nrs.append(None)
                continue
            versions.append(t._version)
            nrs.append(next((i for i, o in enumerate(outs) if o is t), None))
        self.saved_versions = tuple(versions)
        self.saved_output_nrs = tuple(nrs)

    def check_versions(self) -> None:
        """Refuse, in PyTorch's words, to give backward a saved tensor changed in place since
        forward returned. PyTorch names the node that made it: its current grad_fn for one the
        Function was given (none for a leaf), the Function's own node for one of its outputs."""
        if self.saved_versions is None:
            return
        from ..core.autograd import modified_error
        from ..core.op import current

        for t, then, nr in zip(self.saved_tensors, self.saved_versions, self.saved_output_nrs):
            if then is None or t._version == then:
                continue
            if nr is not None:
                producer, output_nr = self.shown, nr
            else:
                current(t, changed=True)  # a changed view's regenerated node, as PyTorch names
                producer, output_nr = (t.node.name() if t.node is not None else None), 0
            raise modified_error(t, producer, t._version, then, output_nr)

    def save_for_forward(self, *tensors: Any) -> None:
        """What the Function's jvp reads as ctx.saved_tensors (forward-mode AD)."""
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise GradcliError(
                    "save_for_forward expects all arguments to be tensors; you should save "
                    "non-tensors as attributes on ctx.",
                    hint="keep other values as ctx attributes: ctx.name = value",
                ).mirror("AssertionError")
        self.saved_forward = tuple(tensors)

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self.non_differentiable = tuple(tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)

    def mark_dirty(self, *tensors: Any) -> None:
        self.dirty = tuple(tensors)

    def missing(self, attr: str) -> GradcliError:
        """Python's AttributeError for an attribute the program never set (or deleted)."""
        return GradcliError(
            f"'{self.shown}' object has no attribute '{attr}'",
            hint="set it in forward first (ctx.name = value)",
        ).mirror("AttributeError")

    def delete(self, attr: str) -> None:
        """`del ctx.name` of an attribute the program set (the extending notes free a tensor
        kept for jvp this way)."""
        if attr in ("saved_tensors", "saved_variables"):
            raise GradcliError(
                f"attribute '{attr}' of 'torch._C._FunctionBase' objects is not writable"
            ).mirror("AttributeError")
        if attr in _CTX_OWN:
            raise NotSupported(
                f"`del ctx.{attr}` is not supported by gradcli (ctx's own attribute)",
                hint="delete only the attributes the Function set on ctx itself",
            )
        if attr not in self.attrs:
            raise self.missing(attr)
        del self.attrs[attr]


class PyType:
    """A Python type a program names: `int`, `float`, `str`, `list`... (calling it converts;
    `isinstance` and `type(v)` use it), and `torch.Tensor`-like classes of gradcli's."""

    __slots__ = ("name", "shown", "types", "convert", "members")

    def __init__(
        self,
        name: str,
        types: tuple[type, ...],
        convert: Callable[..., Any] | None,
        shown: str | None = None,
        members: dict[str, Any] | None = None,
    ):
        self.name = name
        self.types = types
        self.convert = convert
        self.shown = shown or name
        self.members = members or {}

    def program_typename(self) -> str:
        return "type"  # a class is a 'type' in Python's messages

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.convert is None:
            raise GradcliError(f"cannot create '{self.shown}' instances").mirror("TypeError")
        return self.convert(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<class '{self.shown}'>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PyType) and (self.shown, self.types) == (other.shown, other.types)

    def __hash__(self) -> int:
        return hash((self.shown, self.types))

    def inert(self) -> PyType:
        """The same class as `type(v)` gives it: compared and printed, never called (a class
        from `type()` is not a way to make values)."""
        return PyType(self.name, self.types, None, self.shown, self.members)

    def instance(self, v: Any) -> bool:
        """`isinstance(v, self)`."""
        return isinstance(v, self.types)


# Type hints a program builds at run time, as Python 3.11 has them: `tuple[torch.Tensor, ...]`
# (a generic alias of a built-in collection) and `torch.Tensor | None` (a union of types). They
# are printed, compared, used in isinstance (a union) and called (an alias makes its origin's
# value); nothing else. Other kinds of hint values (typing's names) register their class here.
GENERIC_ORIGINS = ("list", "tuple", "dict", "set", "frozenset")
HINT_TYPES: list[type] = []
# The kinds of class a program defines (`lang.classes` and `lang.exceptions` register them).
CLASS_KINDS: list[type] = []


def type_text(v: Any) -> str | None:
    """How Python shows `v` inside `list[...]` or `X | Y` when v is a type (None: it is not)."""
    if v is None:
        return "None"
    if isinstance(v, (GenericAlias, TypeUnion)):
        return v.shown
    if isinstance(v, PyType):
        return v.shown
    if HINT_TYPES and isinstance(v, tuple(HINT_TYPES)):
        return repr(v)
    if isinstance(v, tuple(CLASS_KINDS)):  # a program's class: `<class '__main__.Net'>`
        r = repr(v)
        if r.startswith("<class '") and r.endswith("'>"):
            return r[8:-2]
    return None


def _alias_argument(v: Any) -> str:
    text = type_text(v)
    if text is not None:
        return text
    if v is Ellipsis:
        return "..."
    if v == () and type(v) is tuple:
        return "()"
    if type(v) in (int, str, bool):
        return repr(v)
    if isinstance(v, list):  # (Callable's arguments: the list's own repr)
        return "[" + ", ".join(map(_listed_argument, v)) + "]"
    raise NotSupported(
        f"a {typename(v)} as an argument of a type hint is not supported by gradcli",
        hint="write types there: tuple[torch.Tensor, ...], dict[str, float]",
    )


def _listed_argument(v: Any) -> str:
    if isinstance(v, PyType) or isinstance(v, tuple(CLASS_KINDS)):
        return repr(v)
    return _alias_argument(v)


class GenericAlias:
    """`list[int]`, `tuple[torch.Tensor, ...]`, `dict[str, float]` (Python's
    types.GenericAlias)."""

    __slots__ = ("origin", "shown")

    def __init__(self, origin: PyType, key: Any):
        args = key if type(key) is tuple and key != () else (key,)
        limits.LIST_ITEMS.check(len(args), "the arguments of a type hint")
        self.origin = origin
        self.shown = f"{origin.shown}[{', '.join(map(_alias_argument, args))}]"
        limits.STRING_CHARS.check(len(self.shown), "the text of a type hint")

    def program_typename(self) -> str:
        return "types.GenericAlias"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.origin(*args, **kwargs)

    def __repr__(self) -> str:
        return self.shown

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GenericAlias) and self.shown == other.shown

    def __hash__(self) -> int:
        return hash(self.shown)


class TypeUnion:
    """`int | None`, `torch.Tensor | tuple[torch.Tensor, ...]` (Python's types.UnionType): its
    members in order, each once."""

    __slots__ = ("members", "shown")

    def __init__(self, members: tuple):
        self.members = members
        self.shown = " | ".join(type_text(m) or "?" for m in members)
        limits.STRING_CHARS.check(len(self.shown), "the text of a type hint")

    def program_typename(self) -> str:
        return "types.UnionType"

    def __repr__(self) -> str:
        return self.shown

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypeUnion) and set(map(type_text, self.members)) == set(
            map(type_text, other.members)
        )

    def __hash__(self) -> int:
        return hash(frozenset(map(type_text, self.members)))


def type_union(a: Any, b: Any) -> Any:
    """`a | b` of two types (None stands for its class, as in a hint), or None when one of them
    is not a type (or both are None: Python's TypeError then)."""
    if (a is None and b is None) or type_text(a) is None or type_text(b) is None:
        return None
    if any(type(v) in HINT_TYPES for v in (a, b)):
        raise NotSupported(
            "`|` with typing's names (typing.Optional[...] | ...) is not supported by gradcli",
            hint="write typing.Union[...], or X | None with built-in types",
        )
    members: list[Any] = []
    seen: set[str] = set()
    for v in (a, b):
        for m in v.members if isinstance(v, TypeUnion) else (v,):
            text = type_text(m)
            if text not in seen:
                seen.add(text)  # type: ignore[arg-type]
                members.append(m)
    return members[0] if len(members) == 1 else TypeUnion(tuple(members))


# Built-in module classes that subclass another built-in one (isinstance sees the base), as
# PyTorch's classes do.
_SUBCLASS_OF = {
    "NonDynamicallyQuantizableLinear": "Linear",
    "LazyLinear": "Linear",
    "ReLU6": "Hardtanh",
    "UpsamplingNearest2d": "Upsample",
    "UpsamplingBilinear2d": "Upsample",
    "ZeroPad1d": "ConstantPad1d",
    "ZeroPad2d": "ConstantPad2d",
    "ZeroPad3d": "ConstantPad3d",
    "NLLLoss2d": "NLLLoss",
    **dict.fromkeys(("RNN", "LSTM", "GRU"), "RNNBase"),
    **dict.fromkeys(("RNNCell", "LSTMCell", "GRUCell"), "RNNCellBase"),
}


class MadeModule(surface_nn.Module):
    """The base of the classes standing for torch's module classes whose constructors are
    functions in gradcli (`ModuleType.library`): a program's class builds on one as on
    nn.Linear; its `super().__init__(...)` makes the module with MAKE and the instance takes
    that module's class and state (`classes.ModuleInstance.base_init`)."""

    MAKE: Callable[..., Any]


class ModuleType(PyType):
    """A built-in module class as a program holds it (`nn.Linear`, `nn.ReLU`): calling it makes
    the module; `type(m)` of such a module is this very object (so `type(m) is nn.Linear`,
    `isinstance(m, nn.ReLU)`), printed as PyTorch prints the class:
    `<class 'torch.nn.modules.activation.ReLU'>`."""

    __slots__ = ()

    def __init__(self, name: str, make: Callable[..., Any], module_file: str, base: type):
        members = {
            k: Builtin(f"{name}.{k}", f, raw=False)
            for k, f in getattr(make, "class_functions", {}).items()
        }
        where = (
            module_file if module_file.startswith("torch.") else f"torch.nn.modules.{module_file}"
        )
        super().__init__(name, (base,), make, f"{where}.{name}", members)

    def inert(self) -> PyType:
        # Calling the class that type() gave makes a module, as in PyTorch: no harm in it.
        return self

    def library(self) -> type | None:
        """The class a program's `class MyConv(nn.Conv2d)` builds on: the module's own class
        where its constructor is one (`nn.Linear`), else a class standing for the constructor
        (`nn.Conv2d` makes a Conv of 2 dimensions, `nn.ReLU` a module applying relu), made once
        per name; None for nn.Module, nn.Parameter and nn.Buffer."""
        if self.name in ("Module", "Parameter", "Buffer"):
            return None
        wrapped = getattr(self.convert, "__wrapped__", None)
        if isinstance(wrapped, type) and wrapped.__name__ == self.name:
            return wrapped if issubclass(wrapped, surface_nn.Module) else None
        made = _MADE_LIBRARIES.get(self.name)
        if made is None:
            made = type(
                self.name,
                (MadeModule,),
                {"MAKE": staticmethod(self.convert), "__module__": self.shown.rpartition(".")[0]},
            )
            _MADE_LIBRARIES[self.name] = made
        return made

    def instance(self, v: Any) -> bool:
        # The surface's modules that apply one function share one Python class and differ by
        # name; a program's own nn.Module subclasses are not the surface's (whatever their name).
        surface = self.types[0].__module__.rpartition(".")[0] + "."
        library = getattr(getattr(v, "cls", None), "library", None)
        if library is not None and library is self.library():
            return True  # a program's `class MaskedLinear(nn.Linear)`: an nn.Linear too
        return (
            isinstance(v, self.types)
            and type(v).__module__.startswith(surface)
            and (v.name == self.name or _SUBCLASS_OF.get(v.name) == self.name)
        )


class LossBaseType(ModuleType):
    """`_Loss` / `_WeightedLoss` of torch.nn.modules.loss as a program holds them: the bases
    of its own losses (`class LabelSmoothingLoss(_WeightedLoss)`), whose instances they are,
    as are the built-in losses PyTorch derives from them (`isinstance(nn.MSELoss(), _Loss)`)."""

    __slots__ = ()

    def __init__(self, cls: type):
        super().__init__(cls.__name__, cls, "loss", surface_nn.Module)

    def library(self) -> type | None:
        return self.convert  # type: ignore[no-any-return]

    def instance(self, v: Any) -> bool:
        if isinstance(v, self.convert):
            return True
        return isinstance(v, surface_nn.Functional) and self._derived(v.name)

    def subclass(self, cls: ModuleType) -> bool:
        """Whether one of nn's classes derives from this one (`issubclass(nn.NLLLoss,
        _WeightedLoss)`, `issubclass(_WeightedLoss, _Loss)`)."""
        if isinstance(cls, LossBaseType):
            return issubclass(cls.convert, self.convert)  # type: ignore[arg-type]
        return self._derived(cls.name)

    def _derived(self, name: str) -> bool:
        if _module_file(name) != "loss" or name == "AdaptiveLogSoftmaxWithLoss":
            return False
        return self.name == "_Loss" or name in surface_nn.WEIGHTED_LOSSES


class AbstractBaseType(ModuleType):
    """A base class torch.nn.modules keeps private (`conv._ConvNd`, `batchnorm._BatchNorm`):
    programs hold it to ask `isinstance(m, _BatchNorm)` (weight-decay groups, freezing the
    norm layers); it answers for the built-in modules PyTorch derives from it. Making one or
    building a class on it is refused in plain words."""

    __slots__ = ("derived",)

    def __init__(self, name: str, module_file: str, derived: str):
        def refused(*_a: Any, **_k: Any) -> Any:
            raise NotSupported(
                f"making a torch.nn.modules.{module_file}.{name} is not supported",
                hint="use one of the modules built on it: " + ", ".join(derived.split()[:3]),
            )

        super().__init__(name, refused, module_file, surface_nn.Module)
        self.derived = frozenset(derived.split())

    def library(self) -> type | None:
        raise NotSupported(
            f"a class built on {self.shown} is not supported",
            hint="build it on one of the modules that derive from it (nn.Conv2d, "
            "nn.BatchNorm2d...) or on nn.Module",
        )

    def instance(self, v: Any) -> bool:
        derived = self.derived
        library = getattr(getattr(v, "cls", None), "library", None)
        if isinstance(library, type) and library.__name__ in derived:
            return True  # a program's `class MyConv(nn.Conv2d)`
        return (
            isinstance(v, surface_nn.Module)
            and type(v).__module__.startswith("gradcli.surface.")
            and v.name in derived
        )

    def subclass(self, cls: ModuleType) -> bool:
        """`issubclass(nn.BatchNorm2d, _BatchNorm)`."""
        return cls is self or cls.name in self.derived


# torch.nn.modules' private bases (PyTorch 2.13) and the nn classes derived from each.
ABSTRACT_BASES = {
    "conv": {
        "_ConvNd": "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d "
        "LazyConv1d LazyConv2d LazyConv3d LazyConvTranspose1d LazyConvTranspose2d "
        "LazyConvTranspose3d",
        "_ConvTransposeNd": "ConvTranspose1d ConvTranspose2d ConvTranspose3d "
        "LazyConvTranspose1d LazyConvTranspose2d LazyConvTranspose3d",
    },
    "batchnorm": {
        "_NormBase": "BatchNorm1d BatchNorm2d BatchNorm3d InstanceNorm1d InstanceNorm2d "
        "InstanceNorm3d LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d LazyInstanceNorm1d "
        "LazyInstanceNorm2d LazyInstanceNorm3d SyncBatchNorm",
        "_BatchNorm": "BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d LazyBatchNorm2d "
        "LazyBatchNorm3d SyncBatchNorm",
    },
    "instancenorm": {
        "_InstanceNorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d LazyInstanceNorm1d "
        "LazyInstanceNorm2d LazyInstanceNorm3d",
    },
    "pooling": {
        "_MaxPoolNd": "MaxPool1d MaxPool2d MaxPool3d",
        "_AvgPoolNd": "AvgPool1d AvgPool2d AvgPool3d",
        "_AdaptiveAvgPoolNd": "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d",
        "_AdaptiveMaxPoolNd": "AdaptiveMaxPool1d AdaptiveMaxPool2d AdaptiveMaxPool3d",
    },
    "dropout": {
        "_DropoutNd": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d FeatureAlphaDropout",
    },
}


def abstract_bases(module_file: str) -> dict[str, AbstractBaseType]:
    """The private bases of torch.nn.modules.<module_file>, made once."""
    got = _ABSTRACT.get(module_file)
    if got is None:
        got = {
            name: AbstractBaseType(name, module_file, derived)
            for name, derived in ABSTRACT_BASES.get(module_file, {}).items()
        }
        _ABSTRACT[module_file] = got
    return got


_ABSTRACT: dict[str, dict[str, AbstractBaseType]] = {}


def loss_bases() -> dict[str, LossBaseType]:
    """`_Loss` and `_WeightedLoss`, made once."""
    if not _LOSS_BASES:
        for cls in (surface_nn._Loss, surface_nn._WeightedLoss):
            _LOSS_BASES[cls.__name__] = LossBaseType(cls)
    return _LOSS_BASES


_LOSS_BASES: dict[str, LossBaseType] = {}


@contextmanager
def meta_block() -> Any:
    """Inside `with torch.device('meta'):` (or a call given device='meta'): every tensor made
    is a meta tensor, and the random draws of the CPU's generator are undone at the end (a
    meta tensor's initialisation draws nothing in PyTorch)."""
    from ..surface.sampling import R

    state = R.get_rng_state()
    from ..core.tensor import DEFAULT_META

    DEFAULT_META[0] += 1
    try:
        yield
    finally:
        DEFAULT_META[0] -= 1
        R.set_rng_state(state)


class Generator:
    """A generator expression's value: items made one at a time as something iterates it."""

    __slots__ = ("it",)

    def __init__(self, it: Iterator[Any]):
        self.it = it

    def __iter__(self) -> Iterator[Any]:
        return self.it

    def __next__(self) -> Any:
        return next(self.it)

    def __repr__(self) -> str:
        return "<generator object <genexpr>>"

    def program_typename(self) -> str:
        return "generator"


class UserGenerator(Generator):
    """What calling a generator function returns: its body runs when something asks for the
    next value (a `for` loop, next(), list()...), up to its next `yield`, interleaved with the
    code that consumes it, as Python runs it.

    The compiled body of a generator function is a Python generator of the interpreter (its
    statements written so that `yield` suspends them: `Compiler.gen_block`), so the program's
    generator is suspended and resumed by Python's own machinery: no thread, no copy of the
    interpreter's state. Each resumption is a call: it counts in the call depth while it runs,
    ticks the run's budget, runs in the grad mode a decorator gave the function (as PyTorch's
    decorators wrap a generator: each resumption in the mode), and the statement it was
    suspended in is current again (for errors and for the line of what it records)."""

    __slots__ = ("fn", "rt", "running", "done", "stmt", "handling", "mode_block")

    def __init__(
        self, fn: UserFunction, frame: Frame, rt: Any, mode_block: Callable[[], Any] | None
    ):
        super().__init__(fn.code.body(frame))  # made, not started: nothing runs yet
        self.fn = fn
        # The grad mode a decorator gave the function, as a context manager of each resumption.
        self.mode_block = mode_block
        self.rt = rt
        self.running = False
        self.done = False
        self.stmt: Any = None
        # The exceptions its `except` blocks were handling when it suspended: its own, as
        # Python keeps them with the generator (a bare `raise` in the consumer does not see
        # them).
        self.handling: list[Any] = []

    def __iter__(self) -> UserGenerator:
        return self

    def __next__(self) -> Any:
        if self.done:
            raise StopIteration
        if self.running:
            raise GradcliError("generator already executing").mirror("ValueError")
        rt = self.rt
        limits.BUDGET.tick()
        pushed = rt.enter_call()
        outer = rt._stmt
        if self.stmt is not None:
            rt.current_stmt = self.stmt
        handling = len(rt.handling)
        rt.handling.extend(self.handling)
        self.running = True
        try:
            if self.mode_block is not None:
                with self.mode_block():
                    return next(self.it)
            return next(self.it)
        except BaseException:
            # Exhausted (StopIteration), or an error in its body: a generator that raised is
            # finished, as in Python.
            self.done = True
            raise
        finally:
            self.running = False
            self.stmt = rt._stmt
            self.handling = rt.handling[handling:]
            del rt.handling[handling:]
            rt.leave_call(pushed, outer)

    def __repr__(self) -> str:
        return f"<generator object {self.fn.code.name} at {id(self):#x}>"


# --- control signals of compiled statements (returned, never raised) ---------------------------


class Signal:
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


BREAK = Signal("break")
CONTINUE = Signal("continue")
RETURN = Signal("return")  # the value is in the frame's `ret`


class Frame:
    """The variables of one running scope: the module (its `vars` are the globals), a function
    call, or a comprehension; `up` is the frame of the enclosing function (closures)."""

    __slots__ = ("vars", "up", "rt", "ret")

    def __init__(self, vars: dict[str, Any], up: Frame | None, rt: Any):  # noqa: A002
        self.vars = vars
        self.up = up
        self.rt = rt
        self.ret: Any = None


# --- walking Python values within the limits --------------------------------------------------


def range_len(r: range) -> int:
    """len(r), also for a range longer than sys.maxsize (where len() raises)."""
    if r.step > 0:
        n = (r.stop - r.start + r.step - 1) // r.step
    else:
        n = (r.start - r.stop - r.step - 1) // -r.step
    return max(0, n)


SIZED = (list, tuple, str, bytes, dict, set, frozenset, type({}.keys()), type({}.values()))
SIZED += (type({}.items()), collections.deque)


def length(v: Any) -> int | None:
    """How many items iterating `v` gives, or None if that is not known in advance (an
    iterator) or `v` is not iterable."""
    if isinstance(v, range):
        return range_len(v)
    if isinstance(v, SIZED):
        return len(v)
    if isinstance(v, (Tensor, np.ndarray)):
        return v.shape[0] if v.ndim else None
    items = getattr(type(v), "program_items", None)  # nn.Sequential, ModuleList, ModuleDict
    if items is not None:
        return len(items(v))
    return None


def is_iterator(v: Any) -> bool:
    return isinstance(v, (Generator, *ITERATOR_TYPES))


ITERATOR_TYPES: tuple[type, ...] = (
    type(iter([])),
    type(iter(())),
    type(iter(range(0))),
    type(iter("")),
    type(iter(b"")),
    type(iter({})),
    type(iter({}.values())),
    type(iter({}.items())),
    type(iter(set())),
    type(zip()),
    type(enumerate([])),
    type(map(len, [])),
    type(filter(None, [])),
    type(reversed([])),
    type(reversed(range(0))),
    types.GeneratorType,  # the surface's generators (`model.parameters()`)
)


def seq(v: Any, what: str) -> list:
    """The items of `v` as a list (checked against LIST_ITEMS before they are made, or as they
    are made for an iterator)."""
    n = length(v)
    if n is None:
        if isinstance(v, Tensor):
            raise GradcliError("iteration over a 0-d tensor").mirror("TypeError")
        if isinstance(v, np.ndarray):
            raise GradcliError("iteration over a 0-d array").mirror("TypeError")
        if is_iterator(v) or hasattr(type(v), "program_iter"):
            out = []
            cap = limits.LIST_ITEMS.value
            tick = limits.BUDGET.tick  # an iterator of gradcli's own may not tick by itself
            for item in iterate(v, what):
                if len(out) >= cap:
                    limits.LIST_ITEMS.check(len(out) + 1, f"the number of items for {what}")
                out.append(item)
                tick()
            return out
        raise GradcliError(f"'{pytype_name(v)}' object is not iterable").mirror("TypeError")
    limits.LIST_ITEMS.check(n, f"the number of items for {what}")
    if isinstance(v, Tensor):
        return list(_rows(v))
    return list(iterate(v, what))


def _rows(t: Tensor) -> tuple[Tensor, ...]:
    """A tensor's items as Python iterates it: PyTorch's `Tensor.__iter__` is `unbind(0)`
    (each item a view, its grad_fn UnbindBackward0, and not to be changed in place while
    gradients are recorded)."""
    from ..surface.composite import unbind

    limits.LIST_ITEMS.check(t.shape[0], "the number of items of the tensor iterated")
    return unbind(t, 0)


def truth(v: Any) -> bool:
    """`if v:` / `not v` / `v and w`: Python's truth value, with NumPy's refusal for an array of
    several elements in its words (a program's error, not an internal one)."""
    if type(v) is bool:
        return v
    if isinstance(v, np.ndarray) and v.size > 1:
        raise GradcliError(
            "The truth value of an array with more than one element is ambiguous. Use a.any() "
            "or a.all()"
        ).mirror("ValueError")
    if isinstance(v, Tensor) and _tensor_module.PYTHON_VALUE_HOOK is not None:
        return bool(_tensor_module.python_value("boolean", bool(v)))
    return bool(v)


def iterate(v: Any, what: str) -> Any:
    """The items of `v`, one at a time (a `for` loop makes none of them in advance)."""
    if isinstance(v, (range, list, tuple, str, bytes)) or is_iterator(v):
        return v if type(v) is not bytes else iter(v)
    if isinstance(v, Tensor):
        if v.ndim == 0:
            raise GradcliError("iteration over a 0-d tensor").mirror("TypeError")
        return iter(_rows(v))
    items = getattr(type(v), "program_items", None)  # nn.Sequential, ModuleList, ModuleDict
    if items is not None:
        return items(v)
    own = getattr(type(v), "program_iter", None)  # an instance of a program's class
    if own is not None:
        return own(v)
    if isinstance(v, SIZED):
        return v
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            raise GradcliError("iteration over a 0-d array").mirror("TypeError")
        return iter(v)
    raise GradcliError(f"'{pytype_name(v)}' object is not iterable").mirror("TypeError")


# The containers whose walks are counted (a deque nests and shares items as a list does).
_WALKED = (list, tuple, dict, set, frozenset, collections.deque)


def check_structure(v: Any, what: str, tensor_cost: int = 1) -> int:
    """Lists and tuples can nest and share items, so that walking one (to print it, compare it
    or turn it into a tensor) may visit far more items than were ever made: `l = [l, l]` ten
    times over is 2**10 items. Count the visits (without making them) first, and return the
    count."""
    if not isinstance(v, _WALKED):
        return 0
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
        items = x.values() if isinstance(x, dict) else x
        for e in items:
            if isinstance(e, _WALKED):
                stack.append((e, depth + 1))
            elif isinstance(e, Tensor):
                count += tensor_cost
            elif isinstance(e, (str, bytes)):
                count += len(e) // 64
        if isinstance(x, dict):
            for k in x:
                if isinstance(k, (tuple, frozenset)):
                    stack.append((k, depth + 1))
        if count > budget:
            limits.LIST_ITEMS.check(count, f"the number of items {what} would visit")
    return count


def hashable(key: Any) -> Any:
    """`key` as a dict key or set member: Python hashes a tuple by walking all of it, every
    time, and shared tuples (`t = (t, t)` sixty times) make that walk 2**60 items long: the
    walk is counted first (`check_structure`), then Python hashes it."""
    if isinstance(key, (tuple, frozenset)):
        check_structure(key, "hashing")
    try:
        hash(key)
    except TypeError:
        raise GradcliError(f"unhashable type: '{typename(key)}'").mirror("TypeError") from None
    return key


def short(text: str, n: int = 200) -> str:
    text = text.strip().splitlines()[0] if text.strip() else text
    return text if len(text) <= n else text[: n - 1] + "…"


def numpy_call(fn: Callable[[], Any]) -> Any:
    """NumPy's result, its errors as the program's (catchable) errors."""
    try:
        with np.errstate(all="ignore"):
            out = fn()
    except np.exceptions.AxisError as e:  # a ValueError (and IndexError) in NumPy
        raise GradcliError(str(e)).mirror("AxisError").pytorch() from None
    except (ValueError, TypeError, IndexError, OverflowError) as e:  # `axis=10**30`: Overflow
        raise GradcliError(str(e)).mirror(type(e).__name__).pytorch() from None
    if isinstance(out, tuple):
        return tuple(numpy_number(o) if isinstance(o, np.ndarray) else o for o in out)
    return numpy_number(out) if isinstance(out, (np.ndarray, np.generic)) else out


def numpy_number(out: Any) -> Any:
    """A NumPy result as a program's value: a 0-d array or NumPy scalar of a bool, integer or
    float dtype stays that NumPy scalar, as NumPy gives it (a float32 prints with float32's
    shortest digits, `1.0986123`, and computes in float32 with Python numbers; inside a list
    or with repr() each shows as NumPy 2 shows it: `np.int64(2)`, `np.True_`,
    `np.float64(0.5)`); any other (complex) is the Python number of its value."""
    if isinstance(out, np.ndarray):
        if out.ndim:
            return out
        out = out[()]
    if isinstance(out, np.generic):
        return out if out.dtype.kind in "biufc" else out.item()
    return out


def is_numpy_number(v: Any) -> bool:
    return isinstance(v, np.generic) and v.dtype.kind in "biufc"


def int_check(v: Any) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        limits.INT_BITS.check(v.bit_length(), "the size of an integer in bits")
    return v


# --- the running program, and the class values of gradcli's own types ------------------------

# The run whose program is running (print writes to it, builtins call back into it); a user
# function called from Python makes its own run current while it runs.
CURRENT: list[Any] = []
# torch.fx (`lang.fx`, imported when a program reads torch.fx): the tracer while
# symbolic_trace runs, and the class of its proxies, which the interpreter's hooks look for.
FX_TRACING: list[Any] = [None]
FX_PROXY: list[Any] = [None]
# ... and its functions the interpreter calls back (set when `lang.fx` is imported):
# `intercept_call`, `proxy_operator`, `module_attribute` and the value meaning "not mine".
FX_HOOKS: dict[str, Any] = {}
# The higher-order operators (torch.cond, while_loop, scan, map) whose functions are running,
# innermost last: PyTorch traces their bodies, where `print` is a graph break (its error).
HOP_TRACING: list[str] = []


def current() -> Any:
    if not CURRENT:
        raise GradcliError("no program is running").mirror(None)
    return CURRENT[-1]


def _legacy_tensor(*args: Any, **kwargs: Any) -> Tensor:
    from ..surface.constructors import legacy_tensor

    return legacy_tensor(*args, **kwargs)


# `torch.Tensor`: `isinstance(y, torch.Tensor)`, `type(y)`, `torch.Tensor(data)` and unbound
# methods `torch.Tensor.tanh(x)`.
# (a sparse gradient is a torch.Tensor too: `isinstance(w.grad, torch.Tensor)`)
TENSOR_TYPE = PyType("Tensor", (Tensor, SparseCOO), _legacy_tensor, shown="torch.Tensor")
# `torch.autograd.Function` as a program's base class. (`nn.Module` is the surface's class.)
FUNCTION_BASE = Namespace("torch.autograd.Function", {})


# `nn.Parameter`: makes parameters, and is their class for `isinstance` and `type()`.
PARAMETER_TYPE = PyType("Parameter", (Parameter,), parameter, shown="torch.nn.parameter.Parameter")


# The file of torch/nn/modules/ that holds each built-in module class (what `type(m)` prints).
MODULE_FILES: dict[str, str] = {
    **dict.fromkeys(
        ("Linear", "Bilinear", "Identity", "LazyLinear", "NonDynamicallyQuantizableLinear"),
        "linear",
    ),
    **dict.fromkeys(("Sequential", "ModuleList", "ModuleDict", "ParameterList"), "container"),
    **dict.fromkeys(("ParameterDict",), "container"),
    "Module": "module",  # an empty nn.Module() to fill
    **dict.fromkeys(("Embedding", "EmbeddingBag"), "sparse"),
    **dict.fromkeys(("LayerNorm", "GroupNorm", "RMSNorm"), "normalization"),
    **dict.fromkeys(("Dropout", "Dropout1d", "Dropout2d", "AlphaDropout"), "dropout"),
    **dict.fromkeys(("Flatten", "Unflatten"), "flatten"),
    **dict.fromkeys(("Conv1d", "Conv2d", "LazyConv1d", "LazyConv2d", "LazyConv3d"), "conv"),
    **dict.fromkeys(("MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d"), "pooling"),
    **dict.fromkeys(("AdaptiveAvgPool1d", "AdaptiveAvgPool2d"), "pooling"),
    **dict.fromkeys(
        ("BatchNorm1d", "BatchNorm2d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d"),
        "batchnorm",
    ),
    **dict.fromkeys(("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"), "upsampling"),
    **dict.fromkeys(("CosineSimilarity", "PairwiseDistance"), "distance"),
    **{
        f"{kind}Pad{d}d": "padding"
        for d in (1, 2)
        for kind in ("Constant", "Zero", "Reflection", "Replication", "Circular")
    },
    **dict.fromkeys(
        ("RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNNCellBase"), "rnn"
    ),
    **dict.fromkeys(("Dropout3d", "FeatureAlphaDropout"), "dropout"),
    **dict.fromkeys(
        (
            "Conv3d",
            *(f"{lazy}ConvTranspose{d}d" for lazy in ("", "Lazy") for d in (1, 2, 3)),
        ),
        "conv",
    ),
    **dict.fromkeys(
        (
            "AvgPool3d",
            "MaxPool3d",
            "AdaptiveAvgPool3d",
            *(
                f"{kind}{d}d"
                for kind in ("AdaptiveMaxPool", "MaxUnpool", "LPPool")
                for d in (1, 2, 3)
            ),
        ),
        "pooling",
    ),
    **{
        f"{kind}Pad3d": "padding"
        for kind in ("Constant", "Zero", "Reflection", "Replication", "Circular")
    },
    "BatchNorm3d": "batchnorm",
    **dict.fromkeys(
        (f"{lazy}InstanceNorm{d}d" for lazy in ("", "Lazy") for d in (1, 2, 3)), "instancenorm"
    ),
    "LocalResponseNorm": "normalization",
    **dict.fromkeys(("PixelShuffle", "PixelUnshuffle"), "pixelshuffle"),
    "ChannelShuffle": "channelshuffle",
    "AdaptiveLogSoftmaxWithLoss": "adaptive",
    **dict.fromkeys(("Unfold", "Fold"), "fold"),
    "DataParallel": "torch.nn.parallel.data_parallel",  # (not in torch/nn/modules)
    **dict.fromkeys(
        (
            "Transformer",
            "TransformerEncoder",
            "TransformerDecoder",
            "TransformerEncoderLayer",
            "TransformerDecoderLayer",
        ),
        "transformer",
    ),
}


def _module_file(name: str) -> str:
    # Every loss is in loss.py and the remaining one-function modules in activation.py
    # (tests/lang check the table against PyTorch's classes).
    return MODULE_FILES.get(name, "loss" if name.endswith("Loss") else "activation")


def _module_types() -> dict[str, ModuleType]:
    """The types of nn's modules, by name; made once each (remade tables keep them: a
    family of modules, `layers`, is imported when a program first names one)."""
    from ..surface import names

    made = _MODULE_TYPES_MADE
    for name, make in names.raw(names.MODULES).items():
        if name not in ("Module", "Parameter", "Buffer") and name not in made:
            made[name] = ModuleType(name, make, _module_file(name), surface_nn.Module)
    return {name: made[name] for name in names.raw(names.MODULES) if name in made}


_MODULE_TYPES_MADE: dict[str, ModuleType] = {}
# The classes standing for module constructors that are functions (`ModuleType.library`).
_MADE_LIBRARIES: dict[str, type] = {}


def _lazy_module_types() -> dict[str, ModuleType]:
    from ..surface import names

    return names.LazyTable("MODULES", _module_types)


MODULE_TYPES: dict[str, ModuleType] = _lazy_module_types()


PARTIAL = Builtin("functools.partial", _partial)


def _reduce(function: Any, iterable: Any, *initial: Any) -> Any:
    """`functools.reduce(f, items[, initial])`: f applied left to right, as Python's (a
    program's function is called through the interpreter, each call counted)."""
    if len(initial) > 1:
        raise GradcliError(f"reduce expected at most 3 arguments, got {2 + len(initial)}").mirror(
            "TypeError"
        )
    it = iter(iterate(iterable, "reduce()"))
    if initial:
        acc = initial[0]
    else:
        try:
            acc = next(it)
        except StopIteration:
            raise GradcliError("reduce() of empty iterable with no initial value").mirror(
                "TypeError"
            ) from None
    tick = limits.BUDGET.tick
    rt = current()
    for v in it:
        tick()
        acc = rt.call(function, [acc, v], {}, None)
    return acc


class DefaultDict(dict):
    """`collections.defaultdict(factory)`: a dict whose missing key is given `factory()`
    (called as the program's call, counted as one) when it is read, as Python's."""

    __slots__ = ("default_factory",)

    def __init__(self, factory: Any = None) -> None:
        super().__init__()
        self.default_factory = factory

    def __missing__(self, key: Any) -> Any:
        if self.default_factory is None:
            raise KeyError(key)
        value = current().call(self.default_factory, [], {}, None)
        self[key] = value
        return value

    def program_typename(self) -> str:
        return "collections.defaultdict"


def _wraps(wrapped: Any, assigned: Any = None, updated: Any = None) -> Builtin:
    """`functools.wraps(fn)`, the decorator a program's decorator puts on its wrapper: the
    wrapper takes the name of the function it wraps (its `__name__`, what it prints as) and
    the attributes the program gave that function (Python's `__dict__` update). Nothing else
    of Python's is copied: `__wrapped__`, `__doc__`... are not readable in a program."""
    if assigned is not None or updated is not None:
        raise NotSupported(
            "functools.wraps(..., assigned=..., updated=...) is not supported",
            hint="use functools.wraps(fn)",
        )

    def apply(wrapper: Any) -> Any:
        if isinstance(wrapper, (Builtin, types.FunctionType)):
            raise GradcliError(
                "attribute '__name__' of 'builtin_function_or_method' objects is not writable"
            ).mirror("AttributeError")
        if not isinstance(wrapper, UserFunction):
            return wrapper
        if isinstance(wrapped, UserFunction):
            wrapper.shown = wrapped
            for k, v in (wrapped.attrs or {}).items():
                wrapper.set_attribute(k, v)
            return wrapper
        try:  # another callable: its `__name__` as the program reads it (torch.sin: sin)
            name = current().attribute(wrapped, "__name__")
        except GradcliError:
            return wrapper  # (Python's wraps skips what the wrapped object lacks)
        if isinstance(name, str):
            wrapper.shown = (name, name)
        return wrapper

    return Builtin("functools.update_wrapper", apply)


# The names of `functools` a program may use (the rest of the module is refused).
FUNCTOOLS = {
    "partial": PARTIAL,
    "reduce": Builtin("functools.reduce", _reduce),
    "wraps": Builtin("functools.wraps", _wraps),
}


def _path_function(name: str) -> Builtin:
    """One of os.path's functions that only rewrite the text of a path (`os.path.join(d, f)`,
    `os.path.splitext(name)[0]`): POSIX's rules, as PyTorch's Linux runs have them. Only str
    arguments reach posixpath: an object's `__fspath__` is never called."""
    import posixpath

    fn = getattr(posixpath, name)

    def call(*args: Any) -> Any:
        for a in args:
            if not isinstance(a, (str, bytes, int, float, type(None))):
                raise GradcliError(
                    f"expected str, bytes or os.PathLike object, not {typename(a)}"
                ).mirror("TypeError")
        # a join of long paths is a string as long as them all: bounded before it is made
        limits.STRING_CHARS.check(
            sum(len(a) for a in args if isinstance(a, str)) + len(args),
            "the length of the path",
        )
        try:
            return fn(*args)
        except (TypeError, ValueError) as e:  # Python's own words for a wrong argument
            raise GradcliError(str(e)).mirror(type(e).__name__) from None

    return Builtin(f"os.path.{name}", call)


# os.path's functions that compute on the text alone; the ones that read the file system
# (exists, isfile, getsize, abspath...) stay refused with the module's hint.
OS_PATH = {
    name: _path_function(name)
    for name in ("join", "split", "basename", "dirname", "splitext", "normpath", "isabs")
}
OS_PATH_MODULE = UnusedModule("os.path")


def _cpu_count() -> int | None:
    """`os.cpu_count()`: the number of CPUs Python reports (a script's
    `torch.set_num_threads(os.cpu_count())`); it reads no file and no environment the program
    could name, and changes nothing."""
    import os

    return os.cpu_count()


OS_CPU_COUNT = Builtin("os.cpu_count", _cpu_count)


def imported_member(module: str, name: str) -> Any:
    """`from sys import stderr`, `from os import path`, `from os.path import join`: the member
    gradcli gives a program of that module (as `sys.stderr` reaches it), else an unused one
    whose every use is refused. Run when the import runs (sys.argv is the run's)."""
    if module == "sys":
        found = _sys_member(name)
        if found is not _NO_MEMBER:
            return found
    elif module == "os" and name == "path":
        return OS_PATH_MODULE
    elif module == "os" and name == "cpu_count":
        return OS_CPU_COUNT
    elif module == "os.path" and name in OS_PATH:
        return OS_PATH[name]
    return UnusedModule(f"{module}.{name}")


# The modules whose `from M import name` binds what gradcli gives of them.
FROM_IMPORT_MODULES = ("sys", "os", "os.path")


def device_words(
    label: str, device: Any, bound: bool = False, args: Any = (), kwargs: Any = None
) -> GradcliError | None:
    """PyTorch's TypeError for a `device=` that is not a device (None for `.to` and other
    methods, whose checks are their own): a function of several overloads lists them."""
    if device is None or isinstance(device, (Device, str)):
        return None
    if isinstance(device, int) and not isinstance(device, bool):
        return None
    last = label.rpartition(".")[2]
    if (bound and not last.startswith("new_")) or last in ("to", "cuda"):
        return None  # (their own checks and words)
    if last[:1].isupper() and last != "Generator":
        last = "empty"  # (a module's parameters are made by torch.empty(..., device=device))
    from ..surface import callerrors
    from ..surface.torch_signatures import PARSER

    recorded = PARSER.get(f"torch.{last}", "")
    if "|" in recorded and kwargs is not None:
        options = recorded.split("|")[1:]
        words = callerrors._invalid_combination(last, options, list(args), dict(kwargs))
        if words is not None:
            return GradcliError(words).mirror("TypeError")
    return GradcliError(
        f"{last}(): argument 'device' must be torch.device, not {callerrors._display_type(device)}",
        hint="device= takes a torch.device or a string such as 'cpu'",
    ).mirror("TypeError")


class StdOut:
    """`sys.stdout` as scripts use it to print a line in pieces (`sys.stdout.write(s)`,
    `sys.stdout.flush()`, `print(..., file=sys.stdout)`): the program's standard output, the
    one `print` writes to; nothing else of the interpreter's streams is reached."""

    PROGRAM_ATTRIBUTES = ("write", "flush")

    def write(self, s: Any) -> int:
        if not isinstance(s, str):
            raise GradcliError(f"write() argument must be str, not {typename(s)}").mirror(
                "TypeError"
            )
        current().do_print(s, end="")
        return len(s)

    def flush(self) -> None:
        return None

    def program_attribute(self, name: str) -> Any:
        if name in self.PROGRAM_ATTRIBUTES:
            return Builtin(f"TextIOWrapper.{name}", getattr(self, name), raw=False)
        raise NotSupported(
            f"`sys.stdout.{name}` is not supported: a gradcli program writes text to its "
            "output and nothing else of the stream",
            found=f"`.{name}`",
            hint="write with print(...) or sys.stdout.write(text)",
        )

    def program_typename(self) -> str:
        return "TextIOWrapper"


class StdErr(StdOut):
    """`sys.stderr`: what a script writes there (`print(..., file=sys.stderr)`, progress lines)
    is shown on gradcli's standard error with the warnings, never on standard output."""

    def write(self, s: Any) -> int:
        if not isinstance(s, str):
            raise GradcliError(f"write() argument must be str, not {typename(s)}").mirror(
                "TypeError"
            )
        rt = current()
        rt.output_bytes += len(s)
        limits.OUTPUT_BYTES.check(rt.output_bytes, "the text the program writes, in characters,")
        rt.stderr_text += s
        while "\n" in rt.stderr_text:
            line, _, rt.stderr_text = rt.stderr_text.partition("\n")
            rt.warn(f"stderr: {line}", rt.current_stmt, dedup=False)
        return len(s)

    def __repr__(self) -> str:
        return "<_io.TextIOWrapper name='<stdout>' mode='w' encoding='utf-8'>"


STDOUT = StdOut()
STDERR = StdErr()
