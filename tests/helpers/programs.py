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
