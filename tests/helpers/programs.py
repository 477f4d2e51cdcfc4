"""Running a program in this process, as the language tests do."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    """What the program prints (float32, as `gradcli run`)."""
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def error(text: str) -> GradcliError:
    """The error the program stops with (the test fails if it runs)."""
    with pytest.raises(GradcliError) as info:
        parse(text, "t.py").run(dtype="float32")
    return info.value


def python_out(text: str) -> str:
    """What Python itself prints for the same program (test code: a fixed program of the test's
    own, run as a script's `__main__`, its print collected): the language tests' reference."""
    lines: list[str] = []
    scope = {"print": lambda *a: lines.append(" ".join(map(str, a)) + "\n"), "__name__": "__main__"}
    exec(text, scope)  # noqa: S102
    return "".join(lines)
