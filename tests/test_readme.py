"""The README is the front door: every `console` example in it is run, and its output must be
what the README shows (so the README stays true)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app

README = Path(__file__).parent.parent / "README.md"


def console_examples(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for each `$ gradcli ...` in ```console blocks."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            cmd = lines[i][2:]
            while cmd.count("'") % 2:  # a multi-line -e '...'
                i += 1
                cmd += "\n" + lines[i]
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith("$ "):
                body.append(lines[i])
                i += 1
            out.append((cmd, "\n".join(body).rstrip("\n")))
    return out


EXAMPLES = console_examples(README.read_text())


def test_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize("cmd, expected", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(cmd: str, expected: str) -> None:
    argv = shlex.split(cmd)
    assert argv[0] == "gradcli"
    if "--compare" in argv:
        pytest.skip("prints timings")
    result = CliRunner().invoke(app, argv[1:])
    got_a = (result.stderr + result.stdout).rstrip("\n")
    got_b = (result.stdout + result.stderr).rstrip("\n")
    assert expected in (got_a, got_b), f"README shows:\n{expected}\n\ngradcli prints:\n{got_a}"
