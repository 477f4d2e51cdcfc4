"""Every test is bounded: CI can never hang.

A watchdog (`faulthandler.dump_traceback_later`, a C thread that Python code cannot block or
swallow, unlike a SIGALRM that sympy's own exception handling can eat) dumps every thread's
stack and ends the test process if one test runs past TEST_SECONDS: the run fails, with the
place it hung, instead of waiting forever. It does not touch SIGALRM, which gradcli's own
bounds (the simplifier, PyTorch's run under `check --against torch`) use.
"""

from __future__ import annotations

import compileall
import faulthandler
import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# One BLAS thread in each test process, as gradcli's command line runs (two test processes
# share CI's two cores: a threaded product waits for a busy core, 0.1 ms becoming 5-50 ms).
# Set before a test imports NumPy (the processes xdist starts read it at their first import).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# The suite keeps a 10-second bound on each program (the default is 60: pasted training loops),
# so that a case that runs away ends soon; the cases about the time limit set their own.
os.environ.setdefault("GRADCLI_TIME_SECONDS", "10")
# the recorded PyTorch outputs come from AVX-512 machines: emulate those kernels on any machine
# (tests of another family set it themselves)
os.environ.setdefault("GRADCLI_KERNELS", "avx512")
# NumPy's own kernels the same on every machine, as gradcli's command line has them: gradcli's
# package sets them up before NumPy's first import (gradcli/base/numpyhost.py)
import gradcli  # noqa: E402, F401

# The slowest single test (a corpus case under a loaded machine) takes well under a minute.
TEST_SECONDS = float(os.environ.get("GRADCLI_TEST_SECONDS", "600"))
_ERR: list = []  # the terminal's stderr as it was before pytest captured it


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist's loadfile hands the files out in the order the workers collected them
    # (longest first: `_file_order`), not reordered by their number of tests
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    # Many tests run gradcli in a fresh process from the source tree; where the environment
    # sets PYTHONDONTWRITEBYTECODE each would compile every module it imports (0.3-0.6 s).
    # Compiled once here, as an installed package has it.
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "gradcli", quiet=1)
    # The dump must be seen: pytest's capture replaces fd 2 during a test (and is lost when
    # the watchdog ends the process), so it goes to the descriptor pytest saved.
    capman = config.pluginmanager.getplugin("capturemanager")
    fd = getattr(
        getattr(getattr(capman, "_global_capturing", None), "err", None), "targetfd_save", None
    )
    try:
        _ERR.append(os.fdopen(os.dup(fd if isinstance(fd, int) else 2), "w"))
    except OSError:
        pass


# This process is one of pytest-xdist's workers (`pytest -n 2`, the README's command).
XDIST_WORKER = bool(os.environ.get("PYTEST_XDIST_WORKER"))


def _hostile2(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    return module is not None and module.__name__.endswith("test_hostile2")


# The files that take the longest, in thousandths of the suite's time (measured in session 37
# under `-n 2`); any other file is counted at its number of tests times PER_TEST.
HEAVY = {
    "corpus/test_hostile2.py": 263,
    "corpus/test_tutorials.py": 132,
    "corpus/test_hostile.py": 95,
    "analysis/test_symbolic.py": 91,
    "test_layers.py": 29,
    "cli/test_check_verdict_cli.py": 28,
    "corpus/test_fuzz.py": 24,
    "surface/test_vmap_products.py": 18,
    "corpus/test_torch_diff.py": 16,
    "surface/test_attention.py": 15,
    "cli/test_cli_verify.py": 15,
    "surface/test_type_probe.py": 15,
    "core/test_graph.py": 14,
    "surface/test_recurrent.py": 13,
    "analysis/test_check.py": 9,
    "cli/test_terminal.py": 9,
    "lang/test_unittest.py": 9,
    "cli/test_matrix.py": 8,
    "base/test_limits.py": 8,
    "ops/test_product_hessians.py": 7,
    "cli/test_cli_errors.py": 7,
    "core/test_detach_inplace.py": 7,
    "ops/test_ops.py": 6,
    "lang/test_collections_abc.py": 6,
    "analysis/test_jacobian.py": 6,
    "cli/test_output.py": 6,
    "ops/test_matmul_layouts.py": 6,
    "core/test_stale_views.py": 6,
    "surface/test_jacrev_rows.py": 6,
    "cli/test_values.py": 5,
    "surface/test_random.py": 4,
    "cli/test_startup_collector.py": 3,
    "ops/test_gemm64_avx2.py": 2,
}
PER_TEST = 0.0066
TESTS = Path(__file__).resolve().parent


def _file_order(items: list[pytest.Item]) -> None:
    """Sort the items a file at a time, the longest files first (each file's items keep their
    order). pytest-xdist's --dist loadfile hands the files out in this order (its reordering by
    number of tests is switched off: `pytest_configure`), so the files that take long but hold
    few tests (test_layers' 12, test_fuzz's 6, the type probe's 3: 15-30 s each) no longer come
    last, where one of them kept a worker busy while the other had nothing left to run."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item.nodeid.split("::")[0]] = counts.get(item.nodeid.split("::")[0], 0) + 1

    def weight(item: pytest.Item) -> float:
        path = item.nodeid.split("::")[0]
        rel = path.removeprefix("tests/")
        return HEAVY.get(rel, counts[path] * PER_TEST)

    items.sort(key=lambda item: (not _hostile2(item), -weight(item)))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if XDIST_WORKER:
        # Two workers: the hostile command-line cases first. --dist loadfile (pyproject.toml)
        # gives their file to one worker, which runs them one case at a time while the other
        # runs the in-process tests, and joins those when they are done; then the other
        # files, the longest first.
        _file_order(items)
        return
    # One process: the hostile command-line cases last. They start when collected (below)
    # and run beside every in-process test before them.
    items.sort(key=_hostile2)  # stable: each part keeps its order


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    # The cyclic collector held off while the tests are collected, as gradcli's console script
    # holds it off while it starts (gradcli/__main__.py): importing the test modules and making
    # some 30,000 items (none of them garbage) had the collector walk them again and again, a
    # quarter of each xdist worker's collection time. What collection made is then frozen
    # (moved out of the collector's walks: it lives as long as the session), and the tests run
    # with the collector as usual.
    held = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if held:
            gc.freeze()
            gc.enable()


def pytest_collection_finish(session: pytest.Session) -> None:
    # The hostile command-line cases (subprocesses, tests/corpus/test_hostile2.py) start now,
    # beside the in-process tests, on the core those leave idle: CI has two.
    module = sys.modules.get("tests.corpus.test_hostile2")
    if module is None or session.config.option.collectonly or XDIST_WORKER:
        return
    sched = module.start(session.items)
    if sched is not None:
        session.config.stash[module.EARLY] = sched


def pytest_unconfigure(config: pytest.Config) -> None:
    module = sys.modules.get("tests.corpus.test_hostile2")
    sched = config.stash.get(module.EARLY, None) if module is not None else None
    if sched is not None:
        sched.close()  # (when its tests were deselected or did not run: no case keeps going)


@pytest.fixture(autouse=True)
def _bounded_test() -> Iterator[None]:
    faulthandler.dump_traceback_later(TEST_SECONDS, exit=True, file=_ERR[0] if _ERR else sys.stderr)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(autouse=True)
def _process_defaults() -> Iterator[None]:
    """The process-wide defaults a run sets (`--dtype`, `--seed`, set_default_dtype) are put
    back after each test: no test depends on the order tests run in."""
    from gradcli.core.tensor import Settings

    saved = dict(vars(Settings))
    try:
        yield
    finally:
        for key in ("default_dtype", "draw_dtype", "seed"):
            setattr(Settings, key, saved[key])
