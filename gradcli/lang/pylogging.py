"""Python's `logging` as research scripts use it: `logger = logging.getLogger(__name__)`,
`logging.basicConfig(level=logging.INFO)`, `logger.info("epoch %d", e)`, `logger.setLevel`.

A record is emitted as Python's logging decides (a logger's level, else its nearest ancestor's,
else the root's WARNING; without `basicConfig`, Python's last-resort handler shows WARNING and
above only), and it goes where Python sends it, to standard error: gradcli shows it there with
the warnings, as `LEVEL:name:message` (Python's default format). Nothing goes to standard
output, which is what the harness compares, so a log never changes a program's printed text.
Handlers, files and streams are not supported (said so): `basicConfig(stream=sys.stdout)` would
print to standard output."""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported

LEVELS = {
    "CRITICAL": 50,
    "FATAL": 50,
    "ERROR": 40,
    "WARNING": 30,
    "WARN": 30,
    "INFO": 20,
    "DEBUG": 10,
    "NOTSET": 0,
}
_NAMES = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}


def _level(value: Any) -> int:
    """A level as Python's `_checkLevel` takes it: an int, or a level's name."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise GradcliError(f"Level not an integer or a valid string: {value!r}").mirror("TypeError")
    if isinstance(value, str):
        if value not in LEVELS:
            raise GradcliError(f"Unknown level: {value!r}").mirror("ValueError")
        return LEVELS[value]
    return value


class State:
    """A run's loggers and whether `basicConfig` gave the root a handler."""

    def __init__(self) -> None:
        self.configured = False
        self.loggers: dict[str, Logger] = {}
        self.root = Logger(self, "root", 30)


def _state() -> State:
    from .values import current

    rt = current()
    if rt.logging is None:
        rt.logging = State()
    return rt.logging


class Logger:
    PROGRAM_ATTRIBUTES = (
        "name",
        "level",
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "critical",
        "exception",
        "log",
        "setLevel",
        "getEffectiveLevel",
        "isEnabledFor",
    )

    def __init__(self, state: State, name: str, level: int = 0) -> None:
        self._state = state
        self.name = name
        self.level = level

    def program_typename(self) -> str:
        return "Logger" if self.name != "root" else "RootLogger"

    def __repr__(self) -> str:
        level = self.getEffectiveLevel()
        return f"<{self.program_typename()} {self.name} ({_NAMES.get(level, f'Level {level}')})>"

    def setLevel(self, level: Any) -> None:  # noqa: N802 - Python's name
        self.level = _level(level)

    def getEffectiveLevel(self) -> int:  # noqa: N802
        name = self.name
        while True:
            logger = self._state.root if name == "root" else self._state.loggers.get(name)
            if logger is not None and logger.level:
                return logger.level
            if name == "root":
                return 0
            name = name.rpartition(".")[0] or "root"

    def isEnabledFor(self, level: Any) -> bool:  # noqa: N802
        return _level(level) >= self.getEffectiveLevel()

    def log(self, level: Any, msg: Any, *args: Any, **kwargs: Any) -> None:
        level = _level(level)
        if not self.isEnabledFor(level):
            return
        if not self._state.configured and level < 30:
            return  # Python's last-resort handler shows WARNING and above only
        from .values import current

        rt = current()
        try:
            text = _message(msg, args)
        except LimitError:
            raise  # a limit ends the program
        except GradcliError as e:
            # Python's handler reports a record it cannot format and the program goes on
            from .exceptions import catchable

            told = "--- Logging error ---" if catchable(e) else "gradcli cannot format it:"
            rt.warn(f"logging: {told} {e.message}", rt.current_stmt, dedup=False)
            return
        if self._state.configured:  # basicConfig's format; the last resort shows the message
            text = f"{_NAMES.get(level, f'Level {level}')}:{self.name}:{text}"
        rt.warn(f"logging: {text}", rt.current_stmt, dedup=False)

    def debug(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(10, msg, *args, **kwargs)

    def info(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(20, msg, *args, **kwargs)

    def warning(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(30, msg, *args, **kwargs)

    warn = warning

    def error(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(40, msg, *args, **kwargs)

    exception = error

    def critical(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        self.log(50, msg, *args, **kwargs)


def _message(msg: Any, args: tuple) -> str:
    """`msg % args` as a record's getMessage makes it (one mapping argument: by its keys)."""
    import ast

    from .operators import binop
    from .text import to_str

    text = to_str(msg)
    if args:
        one = len(args) == 1 and isinstance(args[0], dict) and args[0]
        text = binop(ast.Mod(), text, args[0] if one else tuple(args))
    limits.STRING_CHARS.check(len(text), "the length of the log message")
    return text


def get_logger(name: Any = None) -> Logger:
    state = _state()
    if name is None or name == "root":
        return state.root
    if not isinstance(name, str):
        raise GradcliError("A logger name must be a string").mirror("TypeError")
    logger = state.loggers.get(name)
    if logger is None:
        limits.LIST_ITEMS.check(len(state.loggers) + 1, "the number of loggers")
        logger = state.loggers[name] = Logger(state, name)
    return logger


_BASIC_KEYS = ("level", "format", "datefmt", "style", "force", "encoding", "errors")


def basic_config(**kwargs: Any) -> None:
    for key in kwargs:
        if key not in _BASIC_KEYS:
            if key in ("stream", "filename", "filemode", "handlers"):
                raise NotSupported(
                    f"logging.basicConfig({key}=...) is not supported by gradcli",
                    hint="gradcli shows log records on standard error; print() what the "
                    "program's output should hold",
                )
            raise GradcliError(f"Unrecognised argument(s): {key}").mirror("ValueError")
    state = _state()
    if state.configured and not kwargs.get("force"):
        return  # Python's: a second call does nothing once the root has a handler
    state.configured = True
    if "level" in kwargs:
        state.root.setLevel(kwargs["level"])


def members() -> dict[str, Any]:
    from .values import Builtin

    def root_call(level: int) -> Any:
        return lambda msg, *a, **k: get_logger().log(level, msg, *a, **k)

    return {
        **{k: v for k, v in LEVELS.items() if k != "FATAL"},
        "getLogger": Builtin("logging.getLogger", get_logger),
        "basicConfig": Builtin("logging.basicConfig", basic_config),
        "debug": Builtin("logging.debug", root_call(10)),
        "info": Builtin("logging.info", root_call(20)),
        "warning": Builtin("logging.warning", root_call(30)),
        "error": Builtin("logging.error", root_call(40)),
        "critical": Builtin("logging.critical", root_call(50)),
    }
