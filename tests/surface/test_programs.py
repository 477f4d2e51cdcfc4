"""Programs of the numerics surface as users write them: training loops (torch.optim.SGD /
Adam / AdamW, the schedulers, param_groups read and written) and nn.init: each prints exactly
what PyTorch 2.13 prints, recorded beside it in `programs/NAME.out` (regenerate with
`python -m tests.surface.test_programs` under torch); where torch is installed, the recording
is checked live too.

The losses are elementwise and their reductions have at most 4 terms, so that gradcli's
gradients are PyTorch's bits (longer float32 sums and matrix products are added in another
order than PyTorch's kernels add them: see the README's "where gradcli differs")."""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
from pathlib import Path
from typing import Any

import pytest

from gradcli.core.tensor import Settings
from gradcli.lang.program import parse

HERE = Path(__file__).resolve().parent / "programs"
PROGRAMS = sorted(HERE.glob("*.py"))


@pytest.fixture(autouse=True)
def _settings_restored() -> Any:
    """A run sets the process's default dtype (float32 here): later tests expect theirs."""
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_prints_what_pytorch_prints(path: Path) -> None:
    expected = path.with_suffix(".out").read_text(encoding="utf-8")
    run = parse(path.read_text(encoding="utf-8"), path.name).run(dtype="float32")
    assert "".join(run.output) == expected


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_the_recording_is_pytorchs(path: Path) -> None:
    pytest.importorskip("torch")
    assert _under_torch(path) == path.with_suffix(".out").read_text(encoding="utf-8")


def _under_torch(path: Path) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


if __name__ == "__main__":  # record: python -m tests.surface.test_programs
    for p in PROGRAMS:
        p.with_suffix(".out").write_text(_under_torch(p), encoding="utf-8")
        print("recorded", p.name, file=sys.stderr)
