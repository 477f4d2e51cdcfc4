"""The README is the front door: every `console` example in it is run, and its output must be
what the README shows (so the README stays true)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app
from tests.helpers import ROOT

README = ROOT / "README.md"


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


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the examples run: `examples/` as in the repository, and room for the files the
    examples write (`-o h.csv`), which later examples read (`--grad @h.csv`, `cat h.csv`)."""
    d = tmp_path_factory.mktemp("readme")
    (d / "examples").symlink_to(ROOT / "examples")
    return d


@pytest.mark.parametrize("cmd, expected", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(
    cmd: str, expected: str, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = shlex.split(cmd)
    assert argv[0] in ("gradcli", "cat"), cmd
    if "--compare" in argv:
        pytest.skip("prints timings")
    monkeypatch.chdir(workdir)
    got_a, got_b = run_example(argv)
    assert expected in (got_a, got_b), f"README shows:\n{expected}\n\ngradcli prints:\n{got_a}"


# The README's tables are drawn at 100 columns, without colour.
ENV = {"COLUMNS": "100", "NO_COLOR": "1", "FORCE_COLOR": ""}


def run_example(argv: list[str]) -> tuple[str, str]:
    """What the example prints: stderr then stdout, and stdout then stderr (`cat FILE`: the
    file an earlier example wrote)."""
    if argv[0] == "cat":
        text = "".join(Path(a).read_text() for a in argv[1:]).rstrip("\n")
        return text, text
    result = CliRunner(env=ENV).invoke(app, argv[1:])
    return (
        (result.stderr + result.stdout).rstrip("\n"),
        (result.stdout + result.stderr).rstrip("\n"),
    )


def rewrite_readme() -> int:
    """Replace each example's output in the README with what gradcli prints now (stderr
    first): `python -m tests.corpus.test_readme`. Review the diff before committing."""
    import os
    import tempfile

    text = README.read_text()
    work = tempfile.mkdtemp(prefix="gradcli-readme-")
    os.symlink(ROOT / "examples", os.path.join(work, "examples"))
    os.chdir(work)
    changed = 0
    for cmd, expected in console_examples(text):
        argv = shlex.split(cmd)
        if "--compare" in argv:
            continue
        got, other = run_example(argv)
        if expected in (got, other):
            continue
        old = f"$ {cmd}\n{expected}\n" if expected else f"$ {cmd}\n"
        assert text.count(old) == 1, cmd
        text = text.replace(old, f"$ {cmd}\n{got}\n")
        changed += 1
    README.write_text(text)
    return changed


if __name__ == "__main__":
    print(f"{rewrite_readme()} examples rewritten")


def _library_block() -> str:
    text = README.read_text()
    start = text.index("## The library")
    return re.findall(r"```python\n(.*?)```", text[start:], re.S)[0]


def test_readme_library_example_runs_on_public_names(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    import gradcli

    code = _library_block()
    used = set(re.findall(r"\bgradcli\.(\w+)", code))
    assert used <= set(gradcli.__all__), used - set(gradcli.__all__)
    monkeypatch.chdir(README.parent)
    env: dict = {}
    exec(compile(code, "README.md", "exec"), env)  # noqa: S102 - the README's own example
    np.testing.assert_allclose(env["res"].grads["b"], [[0.14808161, -0.10381576]], rtol=1e-6)
    np.testing.assert_array_equal(env["r"].tensors["x"].grad.data, [3.0, 12.0])
    np.testing.assert_array_equal(env["g"].data, [3.0, 12.0])


def test_the_public_names() -> None:
    import gradcli

    for name in gradcli.__all__:
        assert getattr(gradcli, name) is not None
    assert callable(gradcli.jacobian) and not isinstance(gradcli.jacobian, type(gradcli))
    x = gradcli.Tensor([1.0, 2.0], requires_grad=True)
    assert repr(x * 2) == "tensor([2., 4.], grad_fn=<MulBackward0>)"
    with pytest.raises(AttributeError):
        gradcli.engine  # noqa: B018 - module paths are not public names
