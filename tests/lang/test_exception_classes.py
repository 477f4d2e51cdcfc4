"""A program's own exception classes, against Python itself.

Each program is run by gradcli and by the Python running the tests; what they print must be
the same, and an uncaught exception must end gradcli's run with the line Python's traceback
ends with (`Name: message`).
"""

from __future__ import annotations

import contextlib
import io
import traceback

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

CLASSES = """
class AppError(Exception):
    pass
class ConfigError(AppError, KeyError):
    def __init__(self, key, hint=None):
        super().__init__(key)
        self.hint = hint
class Quiet(ValueError):
    def __init__(self, a, b):
        self.total = a + b
class Shown(RuntimeError):
    def __str__(self):
        return 'shown: ' + ', '.join(map(str, self.args))
    def __repr__(self):
        return 'Shown!'
class Deeper(Shown):
    pass
"""

RAISES = [
    "AppError()",
    "AppError",
    "AppError('a', 2)",
    "ConfigError('lr')",
    "ConfigError('lr', hint='set it')",
    "Quiet(1, 2)",
    "Shown(1, 'x')",
    "Deeper()",
    "Deeper('d')",
]
HANDLERS = [
    "Exception",
    "AppError",
    "KeyError",
    "LookupError",
    "ValueError",
    "RuntimeError",
    "(Quiet, Shown)",
    "Deeper",
    "ConfigError",
]


def program(raised: str) -> str:
    lines = [CLASSES, "for h in [" + ", ".join(HANDLERS) + "]:"]
    lines.append(f"    try:\n        raise {raised}\n    except h as e:")
    lines.append("        print(h, type(e).__name__, str(e), repr(e), e.args)")
    lines.append("        print(isinstance(e, Exception), isinstance(e, LookupError))")
    lines.append("        print(getattr(e, 'hint', None), getattr(e, 'total', None))")
    lines.append("    except BaseException as other:")
    lines.append("        print('passed', h, type(other).__name__)")
    return "\n".join(lines) + "\n"


def python_run(text: str) -> tuple[str, str | None]:
    out = io.StringIO()
    last = None
    with contextlib.redirect_stdout(out):
        try:
            exec(text, {"__name__": "__main__"})  # noqa: S102 - test code: Python's own answer
        except Exception as e:  # noqa: BLE001
            last = traceback.format_exception_only(e)[-1].strip()
    return out.getvalue(), last


def gradcli_run(text: str) -> tuple[str, str | None]:
    try:
        run = parse(text, "t.py").run(dtype="float32")
    except GradcliError as e:
        return "", e.message
    return "".join(run.output), None


@pytest.mark.parametrize("raised", RAISES)
def test_caught_as_python_catches(raised: str) -> None:
    text = program(raised)
    assert gradcli_run(text) == python_run(text)


@pytest.mark.parametrize("raised", RAISES)
def test_uncaught_ends_with_pythons_line(raised: str) -> None:
    text = CLASSES + f"print('before')\nraise {raised}\n"
    py_out, py_last = python_run(text)
    gc_out, gc_last = gradcli_run(text)
    assert py_last is not None and gc_last is not None
    assert gc_last.strip() == py_last.replace("__main__.", "")


@pytest.mark.parametrize(
    "expr",
    [
        "issubclass(ConfigError, KeyError)",
        "issubclass(ConfigError, ValueError)",
        "issubclass(Deeper, Shown)",
        "issubclass(Quiet, Exception)",
        "[c.__name__ for c in (AppError, ConfigError)]",
    ],
)
def test_class_relations(expr: str) -> None:
    text = CLASSES + f"print({expr})\n"
    assert gradcli_run(text) == python_run(text)
