"""Exceptions in programs: the classes a program names (`RuntimeError`, `ValueError`...), the
values it catches (`except RuntimeError as e: print(e)` prints PyTorch's message), and what
`raise` and `assert` raise.

Which errors a program's `except` may catch: a `GradcliError` that mirrors a Python or PyTorch
exception (`python_class`, e.g. PyTorch's `RuntimeError` for a shape mismatch). Never a limit
(time, memory, loop iterations, graph size...), never what gradcli does not support (a program
written for PyTorch would not have met it there), never gradcli's own bugs.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, LimitError
from .values import CLASS_KINDS

# Each class and its base (Python's hierarchy, the part programs name).
BASES: dict[str, str | None] = {
    "BaseException": None,
    "Exception": "BaseException",
    "ArithmeticError": "Exception",
    "ZeroDivisionError": "ArithmeticError",
    "OverflowError": "ArithmeticError",
    "FloatingPointError": "ArithmeticError",
    "AssertionError": "Exception",
    "AttributeError": "Exception",
    "LookupError": "Exception",
    "IndexError": "LookupError",
    "KeyError": "LookupError",
    "NameError": "Exception",
    "UnboundLocalError": "NameError",
    "RuntimeError": "Exception",
    "NotImplementedError": "RuntimeError",
    "StopIteration": "Exception",
    "TypeError": "Exception",
    "ValueError": "Exception",
    "UnicodeError": "ValueError",
    "UnicodeDecodeError": "UnicodeError",  # (bytes.decode, str.encode: `lang.pybytes`)
    "UnicodeEncodeError": "UnicodeError",
    "ImportError": "Exception",
    "ModuleNotFoundError": "ImportError",
    # torch.load of a path nothing was saved under (programs touch no files otherwise)
    "OSError": "Exception",
    "FileNotFoundError": "OSError",
    "UnpicklingError": "Exception",  # torch.load's weights_only refusal of a whole module
    # the categories a program passes to warnings.warn
    "Warning": "Exception",
    "UserWarning": "Warning",
    "DeprecationWarning": "Warning",
    "FutureWarning": "Warning",
    "RuntimeWarning": "Warning",
    "TracerWarning": "Warning",  # torch.jit's
    "Error": "Exception",  # torch.jit's (scripted code calling a @torch.jit.unused method)
    "TraceError": "ValueError",  # torch.fx's (a traced value used as a Python value)
    # PyTorch's own (not builtins: a program imports them from their module).
    "GradcheckError": "RuntimeError",
    "OpCheckError": "Exception",  # torch.library.opcheck's
    "_LinAlgError": "RuntimeError",  # torch.linalg.LinAlgError
    # what torch.compile's tracer refuses under torch.cond and its kin (`lang.controlflow`)
    "TorchDynamoException": "RuntimeError",
    "UncapturedHigherOrderOpError": "TorchDynamoException",
    "TorchRuntimeError": "TorchDynamoException",
    "DimensionBindError": "Exception",  # functorch.dim's (torch.func.rearrange's sizes)
    "FrozenInstanceError": "AttributeError",
    # NumPy's (an in-place array operation whose result the array's dtype cannot hold).
    "UFuncTypeError": "TypeError",
    # NumPy's axis out of range (NumPy's class is also an IndexError; one base here).
    "AxisError": "ValueError",
    # NumPy's np.shares_memory that gave up within its max_work.
    "TooHardError": "RuntimeError",
    # numpy.linalg's (a singular matrix to invert, no convergence)
    "LinAlgError": "ValueError",
    # unittest's: a test raising it (or calling self.skipTest) is skipped.
    "SkipTest": "Exception",
}
# The module of the classes that are not Python's builtins, as `repr(cls)` shows it.
MODULES: dict[str, str] = {
    "GradcheckError": "torch.autograd.gradcheck",
    "OpCheckError": "torch.testing._internal.optests.generate_tests",
    "TracerWarning": "torch.jit",
    "Error": "torch.jit",
    "TraceError": "torch.fx.proxy",
    "_LinAlgError": "torch._C",
    "TorchDynamoException": "torch._dynamo.exc",
    "UncapturedHigherOrderOpError": "torch._dynamo.exc",
    "TorchRuntimeError": "torch._dynamo.exc",
    "DimensionBindError": "functorch.dim",
    "FrozenInstanceError": "dataclasses",
    "UFuncTypeError": "numpy._core._exceptions",
    "AxisError": "numpy.exceptions",
    "TooHardError": "numpy.exceptions",
    "LinAlgError": "numpy.linalg",
    "SkipTest": "unittest.case",
    "UnpicklingError": "_pickle",
}


class ExcClass:
    """An exception class as a program names it."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def is_subclass_of(self, other: ExcClass) -> bool:
        name: str | None = self.name
        while name is not None:
            if name == other.name:
                return True
            name = BASES.get(name)
        return False

    def __call__(self, *args: Any) -> ExcValue:
        return ExcValue(self, args)

    def program_typename(self) -> str:
        return "type"  # a class, as Python's messages name it

    def __repr__(self) -> str:
        module = MODULES.get(self.name)
        return f"<class '{module}.{self.name}'>" if module else f"<class '{self.name}'>"


CLASSES: dict[str, ExcClass] = {name: ExcClass(name) for name in BASES}
# The ones a program names without importing them.
BUILTIN_CLASSES: dict[str, ExcClass] = {n: c for n, c in CLASSES.items() if n not in MODULES}


CLASS_KINDS.append(ExcClass)


class ExcValue:
    """An exception as a value: made by calling a class, or caught by `except ... as e`."""

    __slots__ = ("cls", "args", "error", "inst")

    def __init__(
        self, cls: ExcClass, args: tuple, error: GradcliError | None = None, inst: Any = None
    ):
        self.cls = cls
        self.args = args
        # The error it was caught as (re-raised as it was by a bare `raise` or `raise e`).
        self.error = error
        # An instance of a program's exception class (`class ShapeError(ValueError)`): `cls` is
        # the built-in class it derives from, the instance says what it shows.
        self.inst = inst

    def name(self) -> str:
        return self.cls.name if self.inst is None else self.inst.cls.name

    def text(self) -> str:
        """What `str(e)` / `print(e)` shows."""
        if self.inst is not None:
            return self.inst.program_str()
        return args_text(self.cls.name, self.args)

    def __str__(self) -> str:
        return self.text()

    def program_str(self) -> str:
        return self.text()

    def program_typename(self) -> str:
        return self.cls.name  # as messages name it (`'ZeroDivisionError' object has no ...`)

    def program_attribute(self, name: str) -> Any:
        if name == "args":
            return tuple(self.args)
        if name in ("name", "path", "msg") and self.cls.is_subclass_of(CLASSES["ImportError"]):
            return self._import_attribute(name)
        raise GradcliError(f"'{self.cls.name}' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def _import_attribute(self, name: str) -> Any:
        """ImportError's `name` (the module), `path` (None: gradcli shows no file) and `msg`,
        of an import gradcli refused: read back from Python's own message."""
        import re

        text = self.args[0] if len(self.args) == 1 and isinstance(self.args[0], str) else None
        if name == "msg":
            return text
        if self.error is None or text is None or name == "path":
            return None  # (a program's own `ImportError("...")` has neither)
        m = re.match(r"No module named '([^']+)'", text) or re.match(
            r"cannot import name '[^']+' from '([^']+)'", text
        )
        return m.group(1) if m else None

    def __repr__(self) -> str:
        from .text import to_repr

        inner = ", ".join(to_repr(a) for a in self.args)
        return f"{self.cls.name}({inner})"


def args_text(name: str, args: tuple) -> str:
    """`str(e)` of an exception made with `args` (BaseException's: the one argument as str, several
    as their tuple's repr; KeyError's one argument as its repr)."""
    from .text import to_repr, to_str

    if not args:
        return ""
    if len(args) == 1:
        a = args[0]
        return to_repr(a) if name == "KeyError" else to_str(a)
    return to_repr(tuple(args))


# Whether a value is a program's exception class (`lang.classes` sets it: a plain class that
# derives from one of Python's exception classes).
USER_CLASS: list[Any] = [lambda t: False]
# Whether such a class's instance is an instance of one of Python's classes (`lang.classes`).
USER_INSTANCE_OF: list[Any] = [lambda inst, cls: False]


class ProgramError(GradcliError):
    """An exception the program raised (`raise ValueError("...")`, a failed `assert`)."""

    def __init__(self, value: ExcValue):
        text = value.text()
        super().__init__(f"{value.name()}: {text}" if text else value.name())
        self.python_class = value.cls.name
        self.value = value


def catchable(e: BaseException) -> bool:
    """Whether a program's `except` may catch `e` (see the module's docstring)."""
    if not isinstance(e, GradcliError) or isinstance(e, LimitError):
        return False
    if e.python_class is None:
        return False
    if getattr(e, "pytorch_words", False):
        return True  # PyTorch's own message, even where it says "not supported"
    # Other layers refuse what gradcli lacks in these words; no PyTorch error says them.
    message = e.message
    return "not supported" not in message and "gradcli" not in message


def caught_value(e: GradcliError) -> ExcValue:
    """The value `except ... as e` binds for an error."""
    if isinstance(e, ProgramError):
        return e.value if e.value.inst is None else e.value.inst
    # (an empty message is a bare `raise NotImplementedError` of PyTorch's: no args)
    return ExcValue(exc_class(e), (e.message,) if e.message else (), e)


def exc_class(e: GradcliError) -> ExcClass:
    name = e.python_class or "RuntimeError"
    return CLASSES.get(name) or CLASSES["RuntimeError"]


def matches(e: GradcliError, handler_type: Any) -> bool:
    """Whether `except <handler_type>:` catches `e` (None: a bare `except:`)."""
    if handler_type is None:
        return True
    cls = exc_class(e)
    types = handler_type if isinstance(handler_type, tuple) else (handler_type,)
    for t in types:
        if USER_CLASS[0](t):  # a program's exception class: its own instances and subclasses'
            inst = e.value.inst if isinstance(e, ProgramError) else None
            if inst is not None and inst.cls.is_subclass_of(t):
                return True
            continue
        if not isinstance(t, ExcClass):
            raise GradcliError(
                "catching classes that do not inherit from BaseException is not allowed"
            ).mirror("TypeError")
        inst = e.value.inst if isinstance(e, ProgramError) else None
        if cls.is_subclass_of(t) or (inst is not None and USER_INSTANCE_OF[0](inst, t)):
            return True
    return False
