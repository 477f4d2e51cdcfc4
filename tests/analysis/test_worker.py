"""The bounded worker: work gradcli cannot interrupt from inside (sympy) runs in a forked process
killed at its deadline, however it treats signals and exceptions."""

from __future__ import annotations

import time

import pytest

from gradcli.analysis.symbolic import SymbolicUnavailable
from gradcli.analysis.worker import Expired, Partial, bounded, expired_error
from gradcli.base import limits
from gradcli.base.errors import GradcliError, LimitError


def test_the_result_comes_back():
    assert bounded(lambda send: send({"a": [1, 2]})) == {"a": [1, 2]}


def test_the_last_result_sent_is_the_answer():
    def work(send):
        send(1)
        send(2)

    assert bounded(work) == 2


def test_errors_come_back_as_themselves():
    def limit(send):
        limits.SYMPY_ELEMENTS.check(10**6, "the elements")

    with pytest.raises(LimitError) as info:
        bounded(limit)
    assert info.value.limit == "sympy_elements" and "GRADCLI_SYMPY_ELEMENTS" in info.value.hint

    def unavailable(send):
        raise SymbolicUnavailable("no symbolic form", hint="h")

    with pytest.raises(SymbolicUnavailable, match="no symbolic form"):
        bounded(unavailable)

    def bug(send):
        raise KeyError("x")

    with pytest.raises(RuntimeError, match="KeyError"):  # a gradcli bug stays one (exit 70)
        bounded(bug)


def _stubborn(send=None):
    """A loop that swallows every exception a signal could raise in it (as sympy may)."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        try:
            sum(range(1000))
        except BaseException:  # noqa: BLE001, S112 - the point of the test
            continue


def test_a_stubborn_loop_is_killed_at_the_deadline(monkeypatch):
    monkeypatch.setenv("GRADCLI_SYMPY_SECONDS", "1")
    t = time.monotonic()
    with pytest.raises(Expired) as info:
        bounded(_stubborn, limit=limits.SYMPY_SECONDS)
    assert time.monotonic() - t < 5
    e = expired_error(info.value, "sympy")
    assert e.limit == "sympy_seconds" and "over the limit" in e.message


def test_what_was_sent_before_the_deadline_is_kept(monkeypatch):
    monkeypatch.setenv("GRADCLI_SYMPY_SECONDS", "1")

    def work(send):
        send("rough")
        _stubborn()

    got = bounded(work, limit=limits.SYMPY_SECONDS)
    assert isinstance(got, Partial) and got.value == "rough"


def test_the_commands_time_limit_binds_first(monkeypatch):
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "1")
    t = time.monotonic()
    with limits.BUDGET.run(), pytest.raises(Expired) as info:
        bounded(_stubborn, limit=limits.SYMPY_SECONDS)
    assert time.monotonic() - t < 5
    e = expired_error(info.value, "sympy")
    assert e.limit == "time_seconds" and "time limit" in e.message
    assert isinstance(e, GradcliError)


def test_symbolic_simplification_is_cut_at_the_deadline(monkeypatch):
    """A program whose simplification would take long: the formulas come back unsimplified,
    with a note, within the bound."""
    from gradcli.analysis.symbolic import symbolic

    monkeypatch.setenv("GRADCLI_SYMPY_SECONDS", "2")
    prog = (
        "x = torch.ones(6, requires_grad=True)\nW = torch.ones(6, 6) / 7\nh = x\n"
        "for i in range(3):\n    h = torch.tanh(W @ h) * torch.sigmoid(h)\ns = h.sum()\n"
    )
    t = time.monotonic()
    try:
        r = symbolic(prog, of="s")
    except LimitError as e:  # the unsimplified formulas were not ready in time either
        assert e.limit == "sympy_seconds"
    else:
        assert r.output.size == 1
    assert time.monotonic() - t < 8
