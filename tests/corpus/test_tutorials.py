"""The tutorial corpus: every program prints exactly what PyTorch 2.13 prints.

`tutorials/NNN_name.py` are programs written the way PyTorch tutorials, docs and forum
answers write them; `tutorials/NNN_name.out` is PyTorch's standard output for each
(`tutorials/record.py` regenerates them under torch). Each program runs with
`gradcli run NNN_name.py`: it must exit 0 and print the same text.

Programs gradcli does not run yet are listed in `tutorials/KNOWN_FAILING.txt` (one file name
a line, then a short reason) and are strict xfails: once one passes, the test fails until
its line is removed.

gradcli runs in-process through typer's CliRunner when its CLI app imports (fast), else as
`python -m gradcli run FILE` in a subprocess (60 s timeout). Set
GRADCLI_CORPUS_MODE=subprocess to force the subprocess (as a user runs it).
"""

from __future__ import annotations

import difflib
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import machine

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "tutorials"
ROOT = HERE.parent.parent
# Numbered NNN_ or NNNN_ (the three-digit numbers ran out).
PROGRAMS = sorted(p for p in CORPUS.glob("*.py") if re.match(r"\d{3,4}_", p.name))
# Programs whose PyTorch output on an AVX2 machine without AVX-512 (gradcli's avx2 kernel
# family, gradcli.core.cpu) differs from the AVX-512 machine's `.out`: `NNN_name.avx2.out`,
# recorded there with `record.py --family avx2`; they run again under GRADCLI_KERNELS=avx2.
# (A program recorded only there has no `.out`.)
FAMILY = "avx2"
FAMILY_PROGRAMS = [p for p in PROGRAMS if p.with_suffix(f".{FAMILY}.out").exists()]
# On an AMD processor with AVX-512 (the zen4 family: MKL's AVX2 code, ATen's AVX-512 loops) a
# program prints most often the avx2 text or the AVX-512 one: `NNN_name.zen4.out` (`record.py
# --family zen4`) only where it differs from both; only those run again, under zen4.
ZEN4 = "zen4"
ZEN4_PROGRAMS = [p for p in PROGRAMS if p.with_suffix(f".{ZEN4}.out").exists()]
KNOWN_FAILING_FILE = CORPUS / "KNOWN_FAILING.txt"
TIMEOUT = 60
# Where the typer app lives, with every command registered on it.
CLI_MODULES = ("gradcli.cli.main",)


def known_failing() -> dict[str, str]:
    """KNOWN_FAILING.txt: `NNN_name.py  category: reason`; blank lines and # comments skipped."""
    entries: dict[str, str] = {}
    if not KNOWN_FAILING_FILE.exists():
        return entries
    for line in KNOWN_FAILING_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        entries[name] = reason.strip() or "known failing"
    return entries


KNOWN_FAILING = known_failing()


def _cli_app() -> Any:
    """gradcli's typer app, or None (then the subprocess runs it)."""
    if os.environ.get("GRADCLI_CORPUS_MODE", "").lower() == "subprocess":
        return None
    for name in CLI_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        app = getattr(module, "app", None)
        if app is not None:
            return app
    return None


def run_gradcli(path: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """`gradcli run PATH` (with `env` added to the environment): (exit status, standard
    output, standard error)."""
    app = _cli_app()
    if app is None:
        return _run_subprocess(path, env)
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["run", str(path)], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        import traceback

        tb = "".join(traceback.format_exception(result.exception))
        return 70, result.stdout, f"{_stderr(result)}{tb}"
    return result.exit_code, result.stdout, _stderr(result)


def _run_subprocess(path: Path, extra: dict[str, str] | None = None) -> tuple[int, str, str]:
    env = dict(os.environ, **(extra or {}))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "gradcli", "run", str(path)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            cwd=str(path.parent),
            env=env,
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else e.stdout or ""
        return -1, out, f"timed out after {TIMEOUT} s"
    return proc.returncode, proc.stdout, proc.stderr


def _stderr(result: Any) -> str:
    try:
        return result.stderr or ""
    except ValueError:  # an older click that mixes standard error into the output
        return ""


# Programs whose results gradcli leaves to NumPy's BLAS (tests/helpers/machine.py): PyTorch's
# bits where NumPy's BLAS is an AVX-512 one, as where the outputs were recorded; elsewhere
# OpenBLAS's kernels add in another order (PyTorch's own bits differ between CPUs as well).
BLAS_DEPENDENT = {
    "816_addmm_dtypes_and_complex.py": "complex matrix products",
    "993_docs_transformer_decoder_size.py": "float32 products past the emulated sizes",
}


def _param(path: Path) -> Any:
    if not path.with_suffix(".out").exists() and (path in FAMILY_PROGRAMS or path in ZEN4_PROGRAMS):
        mark = pytest.mark.skip(reason="recorded on an AMD machine only")
        return pytest.param(path, marks=mark, id=path.name)
    if path.name in BLAS_DEPENDENT and not machine.blas_as_recorded():
        mark = pytest.mark.skip(reason=f"{BLAS_DEPENDENT[path.name]}: {machine.BLAS_REASON}")
        return pytest.param(path, marks=mark, id=path.name)
    if path.name in KNOWN_FAILING:
        mark = pytest.mark.xfail(strict=True, reason=KNOWN_FAILING[path.name])
        return pytest.param(path, marks=mark, id=path.name)
    return pytest.param(path, id=path.name)


def _diff(expected: str, actual: str, limit: int = 60) -> str:
    lines = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            "pytorch",
            "gradcli",
            lineterm="",
        )
    )
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


@pytest.fixture(scope="session")
def prefetched(request: pytest.FixtureRequest) -> dict[Path, tuple[int, str, str]]:
    """In subprocess mode, run the selected programs a few at a time, up front."""
    if _cli_app() is not None:
        return {}
    from concurrent.futures import ThreadPoolExecutor

    paths = [
        item.callspec.params["path"]
        for item in request.session.items
        if getattr(item, "callspec", None) is not None
        and "path" in item.callspec.params
        and item.originalname == "test_program_prints_what_pytorch_prints"
    ]
    with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        return dict(zip(paths, pool.map(_run_subprocess, paths)))


@pytest.mark.parametrize("path", [_param(p) for p in PROGRAMS])
def test_program_prints_what_pytorch_prints(
    path: Path, prefetched: dict[Path, tuple[int, str, str]]
) -> None:
    expected = path.with_suffix(".out").read_text(encoding="utf-8")
    code, out, err = prefetched.get(path) or run_gradcli(path)
    assert code == 0, f"gradcli exited {code}\nstderr:\n{err}\nstdout so far:\n{out}"
    assert out == expected, f"stdout differs from PyTorch's:\n{_diff(expected, out)}\n{err}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in FAMILY_PROGRAMS])
def test_program_prints_what_pytorch_prints_on_avx2(path: Path) -> None:
    """The programs whose PyTorch output depends on the CPU print, under the avx2 kernel
    family, what PyTorch printed on an AVX2 machine."""
    expected = path.with_suffix(f".{FAMILY}.out").read_text(encoding="utf-8")
    code, out, err = run_gradcli(path, {"GRADCLI_KERNELS": FAMILY})
    assert code == 0, f"gradcli exited {code}\nstderr:\n{err}\nstdout so far:\n{out}"
    assert out == expected, f"stdout differs from PyTorch's (avx2):\n{_diff(expected, out)}\n{err}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in ZEN4_PROGRAMS])
def test_program_prints_what_pytorch_prints_on_zen4(path: Path) -> None:
    """The programs whose PyTorch output on a Zen 4 machine matches neither the AVX-512 text
    nor the avx2 one print, under the zen4 kernel family, what PyTorch printed there."""
    expected = path.with_suffix(f".{ZEN4}.out").read_text(encoding="utf-8")
    code, out, err = run_gradcli(path, {"GRADCLI_KERNELS": ZEN4})
    assert code == 0, f"gradcli exited {code}\nstderr:\n{err}\nstdout so far:\n{out}"
    assert out == expected, f"stdout differs from PyTorch's (zen4):\n{_diff(expected, out)}\n{err}"


def test_corpus_is_complete() -> None:
    """Every program has PyTorch's output recorded; KNOWN_FAILING names only programs."""
    assert len(PROGRAMS) >= 120
    missing = [
        p.name
        for p in PROGRAMS
        if not any(p.with_suffix(s).exists() for s in (".out", f".{FAMILY}.out", f".{ZEN4}.out"))
    ]
    assert not missing, f"run tutorials/record.py under torch for: {missing}"
    names = {p.name for p in PROGRAMS}
    stale = sorted(set(KNOWN_FAILING) - names)
    assert not stale, f"KNOWN_FAILING.txt names programs that do not exist: {stale}"
