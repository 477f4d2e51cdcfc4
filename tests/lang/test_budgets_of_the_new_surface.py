"""Budgets of what the language grew, at the boundary of their limits: hashing a tuple whose
items are shared (a dict key, a set member, `in`), `sum()` of lists, the text and the calls of
nn modules built of shared or self-containing submodules, and the place of a time limit found
at a statement's tick.

The limits are lowered with their environment variables; past the boundary, the work the
program asks for (2**60 visits, a text without end) could only be refused before it is done.
"""

from __future__ import annotations

import time

import pytest

from gradcli.analysis import api
from gradcli.base import limits
from gradcli.base.errors import LimitError


def shared_tuple(depth: int) -> str:
    # Walking it visits 2 + 4 + ... + 2**depth = 2**(depth + 1) - 2 items.
    return f"a = ()\nfor i in range({depth}):\n    a = (a, a)\n"


def module_dag(depth: int) -> str:
    # Its text shows 1 + 2 + ... + 2**depth = 2**(depth + 1) - 1 modules.
    return f"m = torch.nn.Identity()\nfor i in range({depth}):\n    m = torch.nn.Sequential(m, m)\n"


USES_OF_A_KEY = [
    "s = {a}",
    "d = {a: 1}",
    "d = {}\nd[a] = 1",
    "d = {(): 1}\nv = d.get(a)",
    "v = a in {1, 2}",
    "s = set()\ns.add(a)",
    "d = {}\nd.setdefault(a, 1)",
]


@pytest.mark.parametrize("use", USES_OF_A_KEY)
def test_a_shared_tuple_is_hashed_up_to_the_item_limit(
    use: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADCLI_LIST_ITEMS", "62")
    api.load(shared_tuple(5) + use)
    with pytest.raises(LimitError) as info:
        api.load(shared_tuple(6) + use)
    # (the count stops as soon as it is over)
    assert "the number of items hashing would visit is" in info.value.format()
    assert info.value.limit == "list_items" and int(info.value.found.replace(",", "")) > 62


def test_a_missing_shared_key_is_refused_before_its_key_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Python hashes the key (2**60 items) before it can say the key is missing.
    with pytest.raises(LimitError, match="hashing"):
        api.load(shared_tuple(60) + "d = {}\nv = d[a]")


def _ticks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    real = limits.BUDGET.tick

    def tick() -> None:
        count[0] += 1
        real()

    monkeypatch.setattr(limits.BUDGET, "tick", tick)
    return count


def test_sum_checks_the_clock_for_every_item(monkeypatch: pytest.MonkeyPatch) -> None:
    # `sum([[0]] * n, [])` copies ever longer lists: each item a step of the clock.
    count = _ticks(monkeypatch)
    api.load("s = sum([[0]] * 10, [])")
    few = count[0]
    count[0] = 0
    run = api.load("s = sum([[0]] * 1010, [])")
    assert count[0] - few >= 1000
    assert run.env["s"] == [0] * 1010


def test_a_module_text_shows_up_to_the_item_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_LIST_ITEMS", "63")
    run = api.load(module_dag(5) + "s = str(m)")
    assert run.env["s"].count("Identity()") == 32
    with pytest.raises(LimitError) as info:
        api.load(module_dag(6) + "s = str(m)")
    assert "modules the text would show is" in info.value.message
    assert info.value.limit == "list_items" and int(info.value.found.replace(",", "")) > 63


@pytest.mark.parametrize(
    "setup",
    [
        "class M(torch.nn.Module):\n    pass\nm = M()\nm.sub = m\n",
        "m = torch.nn.ModuleList()\nm.append(m)\n",
        "m = torch.nn.Sequential(torch.nn.ReLU())\nk = torch.nn.ModuleList([m])\n"
        "m.add_module('k', k)\n",
    ],
)
def test_a_module_that_contains_itself_has_no_text(setup: str) -> None:
    with pytest.raises(LimitError, match="contains itself"):
        api.load(setup + "s = f'{m}'")


def test_every_module_call_checks_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    count = _ticks(monkeypatch)
    api.load(module_dag(2) + "y = m(torch.ones(1))")
    small = count[0]
    count[0] = 0
    api.load(module_dag(8) + "y = m(torch.ones(1))")
    # 2**9 - 1 calls against 7, and a dozen more statements' ticks.
    assert count[0] - small >= 2**9 - 1 - 7


def test_a_time_limit_found_at_a_statement_is_placed_there() -> None:
    with limits.BUDGET.run():
        limits.BUDGET.deadline = time.process_time() - 1.0
        limits.BUDGET.countdown = 0
        with pytest.raises(LimitError, match="time limit") as info:
            api.load("x = 1\ny = 2\n")
    span = info.value.span
    assert span is not None and span.line == 1
