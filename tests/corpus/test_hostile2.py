"""The second hostile corpus of issue 9, run against the real command line.

Each case runs gradcli's console script in a fresh process (a fork of a warm process that
imported the command line once: see hostile2/runner.py), in a fresh temporary directory, under
an address-space cap, a CPU-time cap and a wall-clock timeout, with stdin from /dev/null
unless the case says otherwise, and GRADCLI_TIME_SECONDS=1. It must end with the expected
exit status, without a traceback, in one clear message (with `prog.py:LINE:COL:` and a caret
where it has a position), within its time and 1 GiB of peak resident memory (measured per
child with wait4), without creating, changing or removing any file but its named outputs;
what `gradcli export` writes must parse with `ast.parse` and be inert.

The cases are data in `hostile2/cases.py`; running and judging are in `hostile2/runner.py`
and `hostile2/judge.py`. Cases that fail today are listed in `hostile2/failing.py` and run as
xfails, strict where the symptom is an exit status or a message (a fix turns them red until
their entry is removed), not strict where it is memory or time, which vary by machine.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile2.cases import CASES, FAMILIES, TIME, Case  # noqa: E402
from hostile2.failing import FAILING  # noqa: E402
from hostile2.judge import inert_problems  # noqa: E402
from hostile2.runner import Scheduler  # noqa: E402

RESOURCE_SYMPTOMS = ("memory:", "hang:", "time:")
EARLY: pytest.StashKey[Scheduler] = pytest.StashKey()  # set by tests/conftest.py


def _params() -> list:
    # In the order the scheduler runs them (the time-limit cases last): a test waits for its
    # own case only, never for the whole queue (listed in CASES' order, the first time-limit
    # case waited for every later case, past the watchdog's 600 s on a loaded machine, and the
    # run hung when xdist replaced the worker the watchdog ended).
    out = []
    for case in sorted(CASES, key=lambda c: c.family == TIME):
        marks = []
        reason = FAILING.get(case.id)
        if reason is not None:
            # A case that fails by its exit status or its message fails the same way on every
            # machine: strict, so a fix turns it red until failing.py forgets it. One that fails
            # only by its peak memory or its time can pass on a machine with another allocator
            # or fewer neighbours (CI saw 1.5 GiB here pass there): not strict; the report tool
            # (`--write-failing`) is what notices those fixed.
            strict = not reason.startswith(RESOURCE_SYMPTOMS)
            marks.append(pytest.mark.xfail(strict=strict, reason=f"{case.family}: {reason}"))
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


def test_corpus_shape() -> None:
    ids = [c.id for c in CASES]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"case ids must be unique: {dupes}"
    assert len(CASES) >= 260
    assert {c.family for c in CASES} == set(FAMILIES)
    stale = set(FAILING) - set(ids)
    assert not stale, f"failing.py names cases that do not exist: {sorted(stale)}"


def test_inert_checker_catches_injection() -> None:
    """The export check itself: an injected statement, a bare `inf`, a rebinding of `torch`
    and a lone carriage return are each caught."""
    good = (
        "# header\nimport torch\nimport torch.nn.functional as F\n\n"
        "x = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)\n"
        "y = torch.sum(x * 2)  # SumBackward0\n\ny.backward()\nprint('x', x.grad)\n"
    )
    assert inert_problems(good) == []
    assert inert_problems(good.replace("# header", "# a\nimport os\nos.system('x')"))
    assert inert_problems(good.replace("[1.0]", "[inf]"))
    assert inert_problems(good.replace("x = torch.tensor", "torch = torch.tensor"))
    assert inert_problems(good.replace("# header", "# a\rimport os"))
    assert inert_problems(good + "y.backward()\n")


# Cases run two at a time (the machine has 2 cores; each case is one single-threaded
# process) in collection order; the time-limit cases, which measure wall-clock time against a
# tight bound, after the others. tests/conftest.py starts them once the tests are collected,
# one at a time beside the in-process tests (see Scheduler).
# Under pytest-xdist (`-n 2`) the other core runs the other worker's tests: one at a time.
WORKERS = int(
    os.environ.get("HOSTILE2_WORKERS", "1" if os.environ.get("PYTEST_XDIST_WORKER") else "2")
)


def selected_cases(items: list[pytest.Item]) -> list[Case]:
    """The hostile2 cases among the collected tests (not tests/test_hostile.py's `case`s)."""
    return [
        item.callspec.params["case"]
        for item in items
        if getattr(item, "callspec", None) is not None
        and isinstance(item.callspec.params.get("case"), Case)
    ]


def start(items: list[pytest.Item]) -> Scheduler | None:
    """The scheduler of the collected cases, started early (None when none is collected)."""
    cases = selected_cases(items)
    return Scheduler(cases, WORKERS, early=True) if cases else None


@pytest.fixture(scope="session")
def scheduler(request: pytest.FixtureRequest):
    sched = request.config.stash.get(EARLY, None)
    if sched is None:
        sched = Scheduler(selected_cases(request.session.items), WORKERS)
    yield sched
    sched.close()


@pytest.mark.parametrize("case", _params())
def test_hostile2(case: Case, scheduler: Scheduler) -> None:
    problems, summary = scheduler.result(case.id)
    assert not problems, "\n".join([summary, *problems])
