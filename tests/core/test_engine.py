"""The engine's autograd semantics, which mirror PyTorch's (DESIGN.md, section 1).

Where a behaviour is PyTorch's, the test that pins gradcli's side has a twin that checks the
same case on torch itself (skipped when torch is not installed).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.autograd import SECOND_BACKWARD, grad, run_backward
from gradcli.core.tensor import Tensor
from gradcli.surface import functional as F
from gradcli.surface.constructors import tensor
from tests.helpers import ROOT


def leaf(values, dtype=np.float64) -> Tensor:
    return Tensor(np.array(values, dtype=dtype), requires_grad=True)


def torch_leaf(torch, values, dtype=None):
    return torch.tensor(values, dtype=dtype or torch.float64, requires_grad=True)


# --- the upstream gradient -----------------------------------------------------------------


@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
def test_one_element_output_gets_an_implicit_gradient_of_ones(shape) -> None:
    x = leaf(np.full(shape, 3.0))
    (x * 2).backward()
    np.testing.assert_array_equal(x.grad.data, np.full(shape, 2.0))


@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
def test_one_element_output_implicit_gradient_is_torchs(shape) -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, np.full(shape, 3.0))
    (x * 2).backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full(shape, 2.0))


def test_larger_output_needs_a_gradient() -> None:
    x = leaf([1.0, 2.0])
    with pytest.raises(
        GradcliError, match="grad can be implicitly created only for scalar outputs"
    ):
        (x * 2).backward()
    with pytest.raises(
        GradcliError, match="grad can be implicitly created only for scalar outputs"
    ):
        grad(x * 2, x)


def test_larger_output_needs_a_gradient_in_torch() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, [1.0, 2.0])
    with pytest.raises(
        RuntimeError, match="grad can be implicitly created only for scalar outputs"
    ):
        (x * 2).backward()


def test_gradient_of_the_wrong_shape() -> None:
    x = leaf([[1.0, 2.0, 3.0]])
    with pytest.raises(
        GradcliError,
        match=r"Mismatch in shape: grad_output\[0\] has a shape of "
        r"torch.Size\(\[3\]\) and output\[0\] has a shape of "
        r"torch.Size\(\[1, 3\]\)",
    ):
        (x * 2).backward(Tensor(np.ones(3)))


def test_gradient_of_the_wrong_shape_in_torch() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, [[1.0, 2.0, 3.0]])
    with pytest.raises(
        RuntimeError,
        match=r"Mismatch in shape: grad_output\[0\] has a shape of "
        r"torch.Size\(\[3\]\) and output\[0\] has a shape of "
        r"torch.Size\(\[1, 3\]\)",
    ):
        (x * 2).backward(torch.ones(3, dtype=torch.float64))


@pytest.mark.parametrize(("out_shape", "g_shape"), [((), (1,)), ((1,), ()), ((1, 1), (1,))])
def test_one_element_gradient_of_another_shape_is_refused(out_shape, g_shape) -> None:
    # A 0-d loss with a [1] gradient: PyTorch refuses it (it was taken silently here).
    x = leaf(np.ones(out_shape))
    with pytest.raises(GradcliError, match="Mismatch in shape"):
        (x * 2).backward(Tensor(np.ones(g_shape)))


def test_one_element_gradient_of_another_shape_is_refused_in_torch() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, 1.0)
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (x * 2).backward(torch.ones(1, dtype=torch.float64))


def test_retained_gradients_are_copies() -> None:
    a = leaf(3.0)
    c = a * 2
    e = c + 1
    c.retain_grad()
    e.retain_grad()
    e.backward()
    e.grad.data *= 7  # what e.grad.mul_(7) does to the array
    assert float(c.grad.data) == 1.0 and float(e.grad.data) == 7.0
    assert not np.shares_memory(c.grad.data, e.grad.data)


def test_retained_root_gradient_has_no_history() -> None:
    x = leaf([1.0, 2.0])
    y = x * 3
    y.retain_grad()
    y.backward(y)
    assert y.grad.node is None and not y.grad.requires_grad
    np.testing.assert_array_equal(y.grad.data, [3.0, 6.0])


def test_grad_takes_any_iterable_of_inputs() -> None:
    a, b = leaf(2.0), leaf(5.0)
    y = a * b
    ga, gb = grad(y, (t for t in (a, b)))
    assert float(ga.data) == 5.0 and float(gb.data) == 2.0


def test_gradient_weights_the_vjp() -> None:
    # The first seed: z = 2x, z.backward([[1, 0, 0, 0]]) gives x.grad = [[2, 0, 0, 0]].
    x = leaf([[1.0, 2.0, 3.0, 4.0]])
    (2 * x).backward(Tensor(np.array([[1.0, 0.0, 0.0, 0.0]])))
    np.testing.assert_array_equal(x.grad.data, [[2.0, 0.0, 0.0, 0.0]])


# --- .grad bookkeeping ---------------------------------------------------------------------


def test_leaf_grad_accumulates_and_resets() -> None:
    x = leaf([1.0, 2.0])
    (x * x).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [4.0, 8.0])
    x.grad.zero_()
    np.testing.assert_array_equal(x.grad.data, [0.0, 0.0])
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [3.0, 3.0])
    x.grad = None
    (x * 5).sum().backward()
    np.testing.assert_array_equal(x.grad.data, [5.0, 5.0])


def test_leaf_grad_accumulates_in_torch() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, [1.0, 2.0])
    (x * x).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])
    x.grad.zero_()
    (x * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_non_leaf_grad_is_none_unless_retained() -> None:
    x = leaf([1.0, 2.0])
    h = x * 2
    r = x * 3
    r.retain_grad()
    (h * r).sum().backward()
    assert h.grad is None
    assert not h.is_leaf and x.is_leaf
    np.testing.assert_array_equal(r.grad.data, h.data)
    np.testing.assert_array_equal(x.grad.data, 2 * r.data + 3 * h.data)


def test_non_leaf_grad_in_torch() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, [1.0, 2.0])
    h, r = x * 2, x * 3
    r.retain_grad()
    (h * r).sum().backward()
    with pytest.warns(UserWarning):
        assert h.grad is None
    np.testing.assert_array_equal(r.grad.numpy(), h.detach().numpy())


def test_backward_inputs_accumulates_only_there() -> None:
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (x * y).sum().backward(inputs=[y])
    assert x.grad is None
    np.testing.assert_array_equal(y.grad.data, [1.0, 2.0])


# --- a second backward through the same graph ----------------------------------------------

SECOND: list[tuple[str, Callable, bool]] = [
    ("(x*x).sum()", lambda x: (x * x).sum(), True),
    ("x.exp().sum()", lambda x: x.exp().sum(), True),
    ("x.sum()", lambda x: x.sum(), False),
    ("(x+1).sum()", lambda x: (x + 1).sum(), False),
    ("x.mean()", lambda x: x.mean(), False),
    ("x[0]", lambda x: x[0], False),
    ("(-x).reshape(2, 1).sum()", lambda x: (-x).reshape(2, 1).sum(), False),
]


@pytest.mark.parametrize("expr, fn, fails", [pytest.param(*c, id=c[0]) for c in SECOND])
def test_second_backward(expr: str, fn: Callable, fails: bool) -> None:
    x = leaf([1.0, 2.0])
    y = fn(x)
    y.backward()
    if fails:
        with pytest.raises(GradcliError, match="Trying to backward through the graph a second"):
            y.backward()
    else:
        y.backward()
    # retain_graph=True keeps it usable.
    z = fn(x)
    z.backward(retain_graph=True)
    z.backward()


@pytest.mark.parametrize("expr, fn, fails", [pytest.param(*c, id=c[0]) for c in SECOND])
def test_second_backward_is_torchs(expr: str, fn: Callable, fails: bool) -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, [1.0, 2.0])
    y = fn(x)
    y.backward()
    if fails:
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
            y.backward()
    else:
        y.backward()


def test_second_backward_message_is_torchs() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, [1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as e:
        y.backward()
    assert SECOND_BACKWARD in str(e.value)


def test_grad_frees_the_graph_too() -> None:
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    grad(y, x)
    with pytest.raises(GradcliError, match="second time"):
        grad(y, x)


# --- higher order ----------------------------------------------------------------------------


def test_create_graph_second_and_third_derivative_of_a_cube() -> None:
    x = leaf(2.0)
    (d1,) = grad(x**3, x, create_graph=True)
    (d2,) = grad(d1, x, create_graph=True)
    (d3,) = grad(d2, x)
    assert d1.item() == 12.0  # 3x^2
    assert d2.item() == 12.0  # 6x
    assert d3.item() == 6.0


def test_create_graph_through_backward() -> None:
    x = leaf([1.0, 2.0, 3.0])
    (x**3).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    np.testing.assert_array_equal(x.grad.data, 3 * x.data**2)
    (h,) = grad(x.grad.sum(), x)
    np.testing.assert_array_equal(h.data, 6 * x.data)


def test_create_graph_grad_is_a_recorded_copy_then_summed_in_place() -> None:
    # PyTorch's AccumulateGrad: with create_graph the first .grad is a copy of the gradient
    # (CopyBackwards); a later pass without create_graph adds into that same tensor in place.
    x = leaf([1.0, -2.0])
    (x * x).sum().backward(create_graph=True)
    g = x.grad
    assert (
        g.requires_grad and g.node is not None and g.node.label == "torch::autograd::CopyBackwards"
    )
    (x * 5).sum().backward()
    assert x.grad is g
    np.testing.assert_array_equal(g.data, [7.0, 1.0])
    x.grad = None
    (x * 3).sum().backward(create_graph=True)  # a constant gradient: a plain copy
    assert not x.grad.requires_grad
    (x * x).sum().backward(create_graph=True)  # out of place: the sum is recorded
    assert x.grad.requires_grad
    np.testing.assert_array_equal(x.grad.data, [5.0, -1.0])


def test_create_graph_is_torchs() -> None:
    torch = pytest.importorskip("torch")
    x = torch_leaf(torch, 2.0)
    (d1,) = torch.autograd.grad(x**3, x, create_graph=True)
    (d2,) = torch.autograd.grad(d1, x)
    assert (d1.item(), d2.item()) == (12.0, 12.0)


def test_hessian_of_a_two_input_function() -> None:
    # f = x^2 y + sin(x y): mixed partials from grad of grad.
    x, y = leaf(0.7), leaf(-1.3)
    f = x * x * y + (x * y).sin()
    gx, gy = grad(f, [x, y], create_graph=True)
    hxx, hxy = grad(gx, [x, y], retain_graph=True)
    hyx, hyy = grad(gy, [x, y])
    a, b = 0.7, -1.3
    s, c = np.sin(a * b), np.cos(a * b)
    np.testing.assert_allclose(hxx.item(), 2 * b - b * b * s, rtol=1e-14)
    np.testing.assert_allclose(hxy.item(), 2 * a + c - a * b * s, rtol=1e-14)
    np.testing.assert_allclose(hyx.item(), hxy.item(), rtol=1e-14)
    np.testing.assert_allclose(hyy.item(), -a * a * s, rtol=1e-14)


# --- torch.autograd.grad -----------------------------------------------------------------------


def test_grad_allow_unused() -> None:
    x, z = leaf([1.0, 2.0]), leaf([3.0])
    y = (x * 2).sum()
    with pytest.raises(GradcliError, match="appears to not have been used in the graph"):
        grad(y, [x, z], retain_graph=True)
    gx, gz = grad(y, [x, z], allow_unused=True, retain_graph=True)
    np.testing.assert_array_equal(gx.data, [2.0, 2.0])
    assert gz is None
    gx, gz = grad(y, [x, z], allow_unused=True, materialize_grads=True)
    np.testing.assert_array_equal(gz.data, [0.0])
    assert x.grad is None and z.grad is None  # grad() touches no .grad


def test_grad_allow_unused_is_torchs() -> None:
    torch = pytest.importorskip("torch")
    x, z = torch_leaf(torch, [1.0, 2.0]), torch_leaf(torch, [3.0])
    y = (x * 2).sum()
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad(y, [x, z], retain_graph=True)
    _, gz = torch.autograd.grad(y, [x, z], allow_unused=True)
    assert gz is None


def test_grad_with_respect_to_an_intermediate() -> None:
    x = leaf([1.0, -2.0])
    h = x * 3
    y = (h * h).sum()
    gh, gx = grad(y, [h, x])
    np.testing.assert_array_equal(gh.data, 2 * h.data)
    np.testing.assert_array_equal(gx.data, 6 * h.data)
    assert x.grad is None


def test_grad_outputs_and_several_outputs() -> None:
    x = leaf([1.0, 2.0])
    a, b = x * 2, x * x
    (g,) = grad([a, b], x, grad_outputs=[Tensor(np.array([1.0, 0.0])), Tensor(np.ones(2))])
    np.testing.assert_array_equal(g.data, [2.0 + 2.0, 4.0])


def test_grad_of_an_input_that_does_not_require_grad() -> None:
    x = leaf([1.0])
    c = Tensor(np.array([2.0]))
    with pytest.raises(GradcliError, match="does not require grad"):
        grad((x * c).sum(), c)
    with pytest.raises(GradcliError, match="does not require grad and does not have a grad_fn"):
        (c * 2).sum().backward()


# --- the user's upstream gradient is theirs --------------------------------------------------

UPSTREAM: list[tuple[str, Callable]] = [
    ("x*2", lambda x: x * 2),
    ("x+0", lambda x: x + 0.0),
    ("x+x", lambda x: x + x),
    ("x.reshape", lambda x: x.reshape(3, 1)),
    ("x[...]", lambda x: x[...]),
    ("softmax", lambda x: F.softmax(x, dim=0)),
    ("float32", lambda x: x.float()),
]


@pytest.mark.parametrize("expr, fn", [pytest.param(*c, id=c[0]) for c in UPSTREAM])
def test_upstream_gradient_is_not_mutated(expr: str, fn: Callable) -> None:
    x = leaf([1.0, 2.0, 3.0])
    y = fn(x)
    g = np.arange(1.0, y.numel() + 1).reshape(y.shape).astype(y.dtype)
    keep = g.copy()
    y.backward(Tensor(g), retain_graph=True)
    y.backward(Tensor(g), retain_graph=True)  # accumulating into .grad
    grad(y, x, grad_outputs=Tensor(g), retain_graph=True)
    run_backward([y], [Tensor(g[None].repeat(2, axis=0))], nb=1)
    np.testing.assert_array_equal(g, keep)


def test_leaf_grad_does_not_alias_the_upstream_gradient() -> None:
    x = leaf([1.0, 2.0])
    g = np.array([5.0, 6.0])
    (x + 0.0).backward(Tensor(g))
    x.grad.zero_()
    np.testing.assert_array_equal(g, [5.0, 6.0])


def test_leaf_grads_do_not_alias_each_other() -> None:
    a, b = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    (a + b).backward(Tensor(np.array([1.0, 1.0])))
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.data, [1.0, 1.0])


def test_backward_accepts_a_numpy_gradient() -> None:
    x = leaf([1.0, 2.0])
    (x * 2).backward(np.array([1.0, 1.0]))
    np.testing.assert_array_equal(x.grad.data, [2.0, 2.0])


# --- dtypes ---------------------------------------------------------------------------------------


def test_float32_stays_float32() -> None:
    x = leaf([0.5, -1.0, 2.0], dtype=np.float32)
    y = ((x * 2.5 + 1).exp() / 3 - x**2).sigmoid().sum()
    assert y.dtype == np.float32
    y.backward()
    assert x.grad.dtype == np.float32
    (g,) = grad((x * x).sum(), x, create_graph=True)
    assert g.dtype == np.float32
    (h,) = grad(g.sum(), x)
    assert h.dtype == np.float32
    # A float64 upstream gradient for a float32 output is cast, as PyTorch requires equal dtypes.
    z = x * 2
    x.grad = None
    z.backward(Tensor(np.ones(3)))
    assert x.grad.dtype == np.float32


def test_float64_is_the_default() -> None:
    x = tensor([1.0, 2.0], requires_grad=True)
    assert x.dtype == np.float64
    (x * 2).sum().backward()
    assert x.grad.dtype == np.float64


# --- deep graphs ------------------------------------------------------------------------------


def test_a_100000_node_chain_backwards_without_recursion() -> None:
    x = leaf(1.0)
    y = x
    for _ in range(100_000):
        y = y + x
    y.backward()
    assert x.grad.item() == 100_001.0


def test_a_deep_chain_second_order() -> None:
    x = leaf(0.3)
    y = x
    for _ in range(2_000):
        y = y + x * x  # y = x + 2000 x^2
    (g,) = grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.item(), 1 + 4000 * 0.3, rtol=1e-12)
    (h,) = grad(g, x)
    np.testing.assert_allclose(h.item(), 4000.0, rtol=1e-12)


# --- imports ------------------------------------------------------------------------------------


def test_ops_imports_on_its_own() -> None:
    r = subprocess.run(
        [sys.executable, "-c", "import gradcli.ops.elementwise"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr


# --- the kernel's observer ----------------------------------------------------------------------


def test_the_kernel_reports_its_work_to_the_installed_observer() -> None:
    from gradcli.core import hooks

    class Count(hooks.Observer):
        def __init__(self) -> None:
            self.ticks, self.nodes, self.sizes = 0, 0, []

        def tick(self) -> None:
            self.ticks += 1

        def node(self, op: object = None) -> None:
            self.nodes += 1

        def allocated(self, nbytes: int) -> None:
            self.sizes.append(nbytes)

    seen, before = Count(), hooks.observer
    hooks.install(seen)
    try:
        x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
        y = (x * x).sum()  # two operations recorded
        ticks_forward = seen.ticks
        y.backward()
        Tensor(np.zeros(hooks.REPORT_BYTES // 8))  # exactly the size that is reported
        Tensor(np.zeros(hooks.REPORT_BYTES // 8 - 1))  # one element less: not reported
    finally:
        hooks.install(before)
    assert seen.nodes == 2
    assert ticks_forward == 2 and seen.ticks > ticks_forward  # backward ticks too
    assert seen.sizes == [hooks.REPORT_BYTES]


def test_recording_holds_the_collector_and_errstate_only_while_it_lasts() -> None:
    """A program's run raises the collector's first threshold, holds off its older
    generations (they would walk the whole recorded graph again and again), and holds NumPy's
    errstate once (no per-op errstate); all are as they were afterwards, also after an error."""
    import gc

    from gradcli.core.tensor import _GradMode, recording

    before, errs = gc.get_threshold(), np.geterr()
    with recording():
        now = gc.get_threshold()
        assert (now[0] >= recording.THRESHOLD and min(now[1:]) >= recording.HOLD) or before[0] == 0
        assert _GradMode.in_pass and np.geterr()["divide"] == "ignore"
    with pytest.raises(ZeroDivisionError), recording():
        1 / 0  # noqa: B018
    assert gc.get_threshold() == before and np.geterr() == errs and not _GradMode.in_pass


# --- chains of linked ops (`Op.link`) run on arrays -----------------------------------------


def _chain_program(x: Tensor, n: int, watch: Callable[[int, Tensor], None] | None = None):
    h = x
    for i in range(n):
        if i % 4 == 0:
            h = h.sin()
        elif i % 4 == 1:
            h = h * 1.0001
        elif i % 4 == 2:
            h = h.tanh()
        else:
            h = 0.7 * h.exp()
        if watch is not None:
            watch(i, h)
    return h


def _by_rules(out: Tensor, x: Tensor, g: np.ndarray) -> np.ndarray:
    # A trace turns the chains off: every node through its rule.
    got = run_backward([out], [Tensor(g)], trace=lambda *a: None)
    return got[id(x)][1].data


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_chain_gives_the_rules_gradient_to_the_bit(dtype) -> None:
    x = leaf(np.linspace(-2, 2, 37), dtype)
    out = _chain_program(x, 203)
    g = np.random.default_rng(1).standard_normal(out.shape).astype(dtype)
    got = run_backward([out], [Tensor(g)])[id(x)][1].data
    assert got.dtype == dtype
    assert got.tobytes() == _by_rules(out, x, g).tobytes()


def test_chains_stop_at_branches_hooks_and_retained_gradients() -> None:
    x = leaf(np.linspace(-1, 1, 9))
    seen: dict[int, Tensor] = {}
    calls = []

    def watch(i: int, h: Tensor) -> None:
        if i in (5, 17):
            seen[i] = h
        if i == 9:
            h.retain_grad()
        if i == 30:
            h.register_hook(lambda g: calls.append(1) or g * 2)

    h = _chain_program(x, 60, watch)
    out = h * seen[5] + seen[17].sin()  # two more consumers in the middle of the chain
    g = np.ones(out.shape)
    want = _by_rules(out, x, g)
    calls.clear()
    out.backward(Tensor(g))
    assert calls == [1]
    assert x.grad.data.tobytes() == want.tobytes()
    assert not np.array_equal(want, 0)


def test_a_chain_frees_its_nodes_without_retain_graph() -> None:
    x = leaf([0.5, 1.5])
    y = _chain_program(x, 12).sum()
    y.backward()
    with pytest.raises(GradcliError, match="second time"):
        y.backward()


# --- autograd.grad / backward(inputs=...) run only the nodes that lead to an input ----------


def _grad_then_backward_through_the_rest(grad_fn, make_leaf) -> list:
    """grad(out, mid) and backward(inputs=[leaf]) leave the rest of the graph runnable (PyTorch
    runs only the nodes on a path to an input: the others keep their saved values)."""
    x = make_leaf([0.5, 1.5])
    w = make_leaf([2.0, -1.0])
    mid = x.sin() * 3  # SinBackward saves x: not on the path from `out` to `mid`
    out = (mid * mid).sum()
    g_mid = grad_fn(out, mid)
    e = x.exp()
    y = (e * w.cos()).sum()
    y.backward(inputs=[w])  # ExpBackward leads to no input: not run, not freed
    before = x.grad
    (mid.sum() + e.sum()).backward()
    return [g_mid, before, x.grad, w.grad]


def test_grad_and_backward_inputs_leave_the_rest_of_the_graph() -> None:
    got = _grad_then_backward_through_the_rest(lambda o, i: grad(o, i)[0], leaf)
    assert got[1] is None
    x = np.array([0.5, 1.5])
    w = np.array([2.0, -1.0])
    np.testing.assert_allclose(got[0].data, 2 * 3 * np.sin(x))
    np.testing.assert_allclose(got[2].data, 3 * np.cos(x) + np.exp(x))
    np.testing.assert_allclose(got[3].data, -np.exp(x) * np.sin(w))


def test_grad_and_backward_inputs_leave_the_rest_of_the_graph_in_torch() -> None:
    torch = pytest.importorskip("torch")
    got = _grad_then_backward_through_the_rest(
        lambda o, i: torch.autograd.grad(o, i)[0], lambda v: torch_leaf(torch, v)
    )
    assert got[1] is None
    x = np.array([0.5, 1.5])
    np.testing.assert_allclose(got[2].detach().numpy(), 3 * np.cos(x) + np.exp(x))


def test_hooks_on_a_branch_that_leads_to_no_input_do_not_fire() -> None:
    seen = []
    p = leaf([0.5, -1.5])
    q = leaf([2.0, 3.0])
    u = p.sin()
    u.register_hook(lambda g: seen.append("u"))
    v = q * q
    v.register_hook(lambda g: seen.append("v"))
    (g,) = grad((u * v).sum(), [q], retain_graph=True)
    assert seen == ["v"]
    np.testing.assert_allclose(g.data, np.sin([0.5, -1.5]) * 2 * np.array([2.0, 3.0]))


def test_backward_inputs_non_leaf_runs_and_frees_its_node() -> None:
    r = leaf([1.0, 2.0])
    m = r.exp()
    (m * 3).sum().backward(inputs=[m])
    assert r.grad is None
    with pytest.raises(GradcliError, match="second time"):
        m.sum().backward()
