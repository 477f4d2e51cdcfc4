"""The checker checked: `check` (and `jacobian --compare`) give the right verdict and the right
culprit on programs that mutate leaves, use random constants, have kinks or none, and on rules
and custom gradients made wrong on purpose by 0.1%, 1% and 90%. A verdict is "ok" only when the
methods agree; two methods that disagree beyond the tolerance are never "ok"."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from gradcli.analysis.check import check
from gradcli.analysis.jacobian import compare
from gradcli.base import limits
from gradcli.base.errors import LimitError
from gradcli.ops import REGISTRY


def _src(text: str) -> str:
    return textwrap.dedent(text).strip() + "\n"


def _has_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


needs_torch = pytest.mark.skipif(not _has_torch(), reason="PyTorch is not installed")


class wrong_rule:
    """A registry record's VJP made wrong by `factor` for the duration (its forward, and so
    finite differences and sympy, unchanged)."""

    def __init__(self, name: str, factor: float):
        self.op = REGISTRY[name]
        self.real = self.op.vjp
        self.factor = factor

    def __enter__(self) -> None:
        real, factor = self.real, self.factor

        def wrong(g, result, /, *inputs, **params):  # (conv's params hold an `out`)
            rs = real(g, result, *inputs, **params)
            return tuple(None if r is None else r * factor for r in rs)

        object.__setattr__(self.op, "vjp", wrong)

    def __exit__(self, *exc: object) -> None:
        object.__setattr__(self.op, "vjp", self.real)


# --- programs that change a leaf after creating it ----------------------------------------------

DATA_SCALED = """
    import torch
    w = torch.tensor([1., 2., 3.], requires_grad=True)
    w.data = w.data * 3
    loss = (w ** 2).sum()
"""

DATA_REPLACED = """
    import torch
    w = torch.tensor([1., 2., 3.], requires_grad=True)
    w.data = torch.tensor([0.5, -1., 2.])
    loss = (w ** 2).sum()
"""

TRAINING_STEP = """
    import torch
    w = torch.tensor([1., -2., 0.5], requires_grad=True)
    x = torch.tensor([0.3, 0.1, -0.7])
    loss = ((w * x).sum() - 1.0) ** 2
    loss.backward()
    w.data -= 0.1 * w.grad
    loss2 = ((w * x).tanh().sum() - 1.0) ** 2
"""


@pytest.mark.parametrize(
    "program,of,value",
    [
        (DATA_SCALED, "loss", [3.0, 6.0, 9.0]),
        (DATA_REPLACED, "loss", [0.5, -1.0, 2.0]),
        (TRAINING_STEP, "loss2", None),
    ],
    ids=["data-scaled", "data-replaced", "training-step"],
)
def test_a_leaf_changed_through_data_is_checked_at_the_value_the_graph_uses(program, of, value):
    r = check(_src(program), of=of, wrt=["w"])
    pair = r.results[0]
    assert r.ok and pair.status == "ok", r.summary()
    # The methods measure the same function: the recorded operations, at w as changed.
    assert pair.numeric_of == "graph"
    assert "changes `w` after creating it" in pair.notes[0]
    # No kink is invented (the old re-run differenced from the wrong point).
    assert pair.kinks is not None and not pair.kinks.any()
    if value is not None:
        np.testing.assert_allclose(pair.jacobians["engine"][0], 2 * np.array(value))
        np.testing.assert_allclose(pair.jacobians["numeric"][0], 2 * np.array(value), rtol=1e-8)


def test_a_dependence_the_graph_does_not_record_is_a_disagreement_with_its_cause():
    r = check("x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x.detach()).sum()")
    pair = r.results[0]
    assert pair.status == "disagree" and not r.ok
    assert pair.numeric_of == "program"
    assert pair.rules == [] and pair.culprits == []
    assert any("does not record" in c for c in pair.causes)
    assert "does not record" in r.summary()


def test_item_is_outside_the_graph_too():
    r = check("x = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x.sum().item()).sum()")
    pair = r.results[0]
    assert pair.status == "disagree" and pair.rules == []
    assert any("does not record" in c for c in pair.causes)


# --- kinks present and absent -------------------------------------------------------------------


@pytest.mark.parametrize(
    "program",
    [
        "x = torch.tensor([0., 1., -1.], requires_grad=True)\ny = torch.relu(x).sum()",
        "x = torch.tensor([0., 1., -2.], requires_grad=True)\ny = x.abs().sum()",
        "x = torch.tensor([1., 3., 3.], requires_grad=True)\ny = x.max()",
        "x = torch.tensor([-1., 0.5, 1.], requires_grad=True)\ny = x.clamp(-1, 1).sum()",
    ],
    ids=["relu-at-0", "abs-at-0", "max-tie", "clamp-bounds"],
)
def test_kinks_are_found_and_pass(program):
    r = check(program)
    assert r.ok, r.summary()
    assert r.results[0].kinks.any()


def test_a_smooth_program_has_no_kinks():
    r = check("x = torch.tensor([0.3, -1.2, 2.], requires_grad=True)\ny = (x.tanh() * x).sum()")
    assert r.ok and not r.results[0].kinks.any()


def test_a_wrong_value_at_a_kink_is_caught():
    # relu at 0: anything between the one-sided derivatives (0 and 1) passes; 1.9 does not.
    prog = "x = torch.tensor([0., 1., -1.], requires_grad=True)\ny = torch.relu(x).sum()"
    with wrong_rule("relu", 1.9):
        r = check(prog)
    assert r.results[0].status == "disagree"
    assert "relu" in r.results[0].rules


# --- rules and custom gradients made wrong -------------------------------------------------------

SMOOTH = "x = torch.tensor([0.3, -1.2, 2.], requires_grad=True)\ny = torch.tanh(x * 1.5).sum()"


@pytest.mark.parametrize("factor", [1.001, 1.01, 1.9, 0.1])
def test_a_wrong_rule_is_caught_and_named(factor):
    with wrong_rule("tanh", factor):
        r = check(SMOOTH)
    pair = r.results[0]
    assert pair.status == "disagree" and r.status == "disagree"
    assert pair.rules == ["tanh"]
    assert pair.culprits == [] and pair.causes == []
    assert check(SMOOTH).ok


@pytest.mark.parametrize("factor", [1.001, 1.01, 1.9])
def test_a_wrong_rule_is_caught_without_sympy(factor):
    with wrong_rule("tanh", factor):
        r = check(SMOOTH, use_sympy=False)
    assert r.results[0].status == "disagree" and r.results[0].rules == ["tanh"]


WRONG_BY = """
    import torch
    def f(x):
        return x * x
    def f_backward(x, grad):
        return grad * 2 * x * FACTOR
    x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
    y = f(x).sin().sum()
"""


@pytest.mark.parametrize("factor", ["1.001", "1.01", "1.9"])
def test_a_wrong_custom_backward_is_caught_and_named(factor):
    r = check(_src(WRONG_BY.replace("FACTOR", factor)))
    pair = r.results[0]
    assert pair.status == "disagree"
    assert pair.culprits == ["f"] and pair.rules == []


def test_a_right_custom_backward_passes():
    r = check(_src(WRONG_BY.replace("FACTOR", "1.0")))
    assert r.ok, r.summary()


# --- PyTorch -------------------------------------------------------------------------------------

RANDOM = """
    import torch
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    W = torch.randn(2, 3)
    b = torch.rand(2)
    y = torch.tanh(W @ x + b)
"""


@needs_torch
def test_random_constants_are_given_gradclis_values_in_pytorchs_run():
    # With the same seed both draw PyTorch's numbers; another seed stands for any generator
    # that differs: the constants are detected and replaced.
    assert not check(_src(RANDOM), against="torch").warnings
    r = check(_src(RANDOM), against="torch", seed=7)
    assert r.ok, r.summary()
    assert "torch" in r.results[0].methods
    w = [w for w in r.warnings if "gradcli's values" in w]
    assert w and "`W`" in w[0] and "`b`" in w[0]


@needs_torch
def test_random_constants_that_cannot_be_replaced_are_the_reason_not_a_rule():
    prog = _src(RANDOM).replace(
        "W = torch.randn(2, 3)", "for i in range(2):\n    W = torch.randn(2, 3)"
    )
    r = check(prog, against="torch", seed=7)
    pair = r.results[0]
    assert pair.status == "unchecked" and not r.ok
    assert "`W`" in pair.unchecked and pair.rules == []
    # engine, numeric and sympy still agree
    assert all(c.ok for c in pair.comparisons)


@needs_torch
def test_a_wrong_rule_disagrees_with_pytorch_and_is_blamed():
    with wrong_rule("tanh", 1.01):
        r = check(_src(RANDOM), against="torch", seed=7)
    pair = r.results[0]
    assert pair.status == "disagree" and pair.rules == ["tanh"]
    torch_numeric = [c for c in pair.comparisons if {c.a, c.b} == {"numeric", "torch"}][0]
    assert torch_numeric.ok


# --- the verdict is never "ok" when something is missing or over a limit -------------------------


def test_nothing_independent_is_unchecked_not_ok():
    src = (
        "x = torch.tensor([1.0], requires_grad=True)\n"
        "if x.item() != 1.0:\n    bad = torch.ones(2) + torch.ones(3)\n"
        "y = (x * x).sum()\n"
    )
    r = check(src, use_sympy=False)
    pair = r.results[0]
    assert pair.status == "unchecked" and r.status == "unchecked" and not r.ok
    assert "independent" in pair.unchecked
    assert "UNCHECKED" in r.summary()


SLOW = """
    import torch
    x = torch.linspace(-1, 1, 300, requires_grad=True)
    W = torch.ones(300, 300) / 300
    h = x
    for i in range(30):
        h = torch.tanh(W @ h)
    y = h
"""


def test_the_time_limit_stops_check_and_is_never_a_skipped_method(monkeypatch):
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "1")
    with limits.BUDGET.run():
        with pytest.raises(LimitError, match="time limit"):
            check(_src(SLOW), use_sympy=False)
        # The budget stays spent: a caller that caught the error cannot go on unbounded.
        with pytest.raises(LimitError, match="time limit"):
            limits.BUDGET.tick()


def test_a_check_too_large_for_memory_is_refused_before_the_work(monkeypatch):
    monkeypatch.setenv("GRADCLI_MEMORY_MB", "10")
    with pytest.raises(LimitError, match="memory") as info:
        check("x = torch.linspace(0, 1, 600, requires_grad=True)\ny = x * 2", use_sympy=False)
    assert info.value.limit == "memory_mb" and "(memory_mb)" in info.value.format()


# --- jacobian --compare: the same rule ---------------------------------------------------------


def test_compare_passes_at_a_kink_and_fails_on_a_wrong_rule():
    prog = "x = torch.tensor([0., 1., -1.], requires_grad=True)\ny = torch.relu(x * 2)"
    c = compare(prog)
    assert c.ok and c.kinks > 0
    with wrong_rule("mul_scalar" if "mul_scalar" in REGISTRY else "mul", 1.001):
        bad = compare(prog)
    assert not bad.ok
    assert not bad.comparisons["numeric"].ok
    assert bad.to_json()["ok"] is False


# --- the new operations' rules made wrong: caught and named, by check and by --compare ---------

NEW_OP_PROGRAMS = {
    "einsum": "x = torch.tensor([[0.3, -1.2], [2., 0.5]], requires_grad=True)\n"
    "y = torch.einsum('ij,jk->ik', x, x).tanh()",
    "inv": "x = torch.tensor([[2., 0.3], [0.1, 1.5]], requires_grad=True)\n"
    "y = torch.linalg.inv(x).sum()",
    "det": "x = torch.tensor([[2., 0.3], [0.1, 1.5]], requires_grad=True)\ny = torch.det(x)",
    "slogdet": "x = torch.tensor([[2., 0.3], [0.1, 1.5]], requires_grad=True)\n"
    "y = torch.linalg.slogdet(x)[1]",
    "conv": "x = torch.tensor([[[0.3, -1.2, 2., 0.5, 0.7]]], requires_grad=True)\n"
    "y = torch.nn.functional.conv1d(x, torch.tensor([[[0.5, -1., 0.25]]])).sum()",
    "max_pool": "x = torch.tensor([[[0.3, -1.2, 2., 0.5]]], requires_grad=True)\n"
    "y = (torch.nn.functional.max_pool1d(x, 2) * 3).sum()",
    "scatter_add": "x = torch.tensor([0.3, -1.2, 2.], requires_grad=True)\n"
    "y = (torch.zeros(2).scatter_add(0, torch.tensor([0, 1, 1]), x) ** 2).sum()",
    "cdist": "x = torch.tensor([[0.3, -1.2], [2., 0.5]], requires_grad=True)\n"
    "y = torch.cdist(x, x + 1.0).sum()",
}


@pytest.mark.parametrize("factor", [1.001, 1.01, 1.9])
@pytest.mark.parametrize("op", sorted(NEW_OP_PROGRAMS))
def test_a_wrong_rule_of_a_new_operation_is_caught_and_named(op, factor):
    prog = NEW_OP_PROGRAMS[op]
    assert check(prog, use_sympy=False).ok
    with wrong_rule(op, factor):
        r = check(prog, use_sympy=False)
        c = compare(prog)
    pair = r.results[0]
    assert pair.status == "disagree" and op in pair.rules, r.summary()
    assert not c.ok and not c.comparisons["numeric"].ok
