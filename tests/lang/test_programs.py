"""Programs that exercise the language with tensors (classes, grad modes, PyTorch's exceptions,
formatting, functions): each prints exactly what PyTorch 2.13 prints, recorded beside it in
`programs/NAME.out` (regenerate with `python -m tests.lang.test_programs` under torch); where
torch is installed, the recording is checked live too."""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
from pathlib import Path

import pytest

from gradcli.lang.program import parse

HERE = Path(__file__).resolve().parent / "programs"
PROGRAMS = sorted(HERE.glob("*.py"))


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_prints_what_pytorch_prints(path: Path) -> None:
    expected = path.with_suffix(".out").read_text(encoding="utf-8")
    run = parse(path.read_text(encoding="utf-8"), path.name).run(dtype="float32")
    assert "".join(run.output) == expected


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_the_recording_is_pytorchs(path: Path) -> None:
    pytest.importorskip("torch")
    assert _under_torch(path) == path.with_suffix(".out").read_text(encoding="utf-8")


def test_module_classes_are_where_pytorch_has_them() -> None:
    # `type(m)` prints the file of torch/nn/modules that holds the class: every module the
    # surface has (including ones added after this test was written) against PyTorch's.
    torch = pytest.importorskip("torch")
    from gradcli.lang.values import MODULE_TYPES

    assert len(MODULE_TYPES) > 20
    for name, t in MODULE_TYPES.items():
        cls = getattr(torch.nn, name)
        assert t.shown == f"{cls.__module__}.{cls.__name__}", name


def _under_torch(path: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


if __name__ == "__main__":  # record: python -m tests.lang.test_programs
    for p in PROGRAMS:
        p.with_suffix(".out").write_text(_under_torch(p), encoding="utf-8")
        print("recorded", p.name, file=sys.stderr)


def test_overridden_leaf_never_writes_into_the_callers_array() -> None:
    # `--set` / `run(overrides=)` lends the caller's array to the leaf (a read-only view,
    # `core.tensor.lend`) and copies it at the leaf's first write: the caller's array is never
    # written, and an alias the program made of the leaf's old array keeps its values.
    import numpy as np

    from gradcli.analysis import api
    from gradcli.core.tensor import lent

    given = np.arange(4.0)
    text = (
        "import numpy as np\nx = torch.zeros(4, dtype=torch.float64)\nx.add_(1)\n"
        "a = np.zeros(4)\ny = torch.from_numpy(a)\n"
    )
    r = api.load(text, overrides={"x": given, "y": given})
    assert given.tolist() == [0.0, 1.0, 2.0, 3.0]  # the program's add_ wrote its own copy
    assert r.tensors["x"].data.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert r.tensors["y"].data.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert r.env["a"].tolist() == [0.0, 0.0, 0.0, 0.0]  # from_numpy's array: untouched
    assert not np.shares_memory(r.tensors["x"].data, given)
    # y, only read, is still the lent view: no copy, and no way to write through it
    assert lent(r.tensors["y"]) and np.shares_memory(r.tensors["y"].data, given)
    assert not r.tensors["y"].data.flags.writeable
