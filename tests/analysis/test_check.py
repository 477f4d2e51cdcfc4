"""`gradcli.check`: the engine against finite differences, sympy and PyTorch; custom gradients
caught when wrong; random programs from the registry checked three ways (hypothesis)."""

from __future__ import annotations

import glob
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradcli.analysis.check import check
from gradcli.analysis.compare import compare, compare_methods
from gradcli.analysis.jacobian import engine_jacobian
from gradcli.base.errors import GradcliError
from gradcli.core.autograd import run_backward
from gradcli.core.differences import differences, relative
from gradcli.core.tensor import Tensor
from gradcli.ops import REGISTRY

EXAMPLES = sorted(glob.glob("examples/*.py"))


def _src(text: str) -> str:
    return textwrap.dedent(text).strip() + "\n"


# --- the examples and programs not in the repository -----------------------------------------


@pytest.mark.parametrize("path", EXAMPLES)
def test_examples_check(path):
    r = check(open(path).read())
    assert r.ok, r.summary()
    for p in r.results:
        assert {"engine", "numeric", "sympy"} <= set(p.methods)


PROGRAMS = {
    "polynomial": """
        x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
        y = (3 * x ** 3 - 2 * x ** 2 + x - 7).sum()
    """,
    "broadcast": """
        a = torch.tensor([[0.3, -0.2, 0.9], [1.1, 0.4, -0.7]], requires_grad=True)
        b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
        c = torch.tensor([[2.0], [0.25]], requires_grad=True)
        y = (a * b + c / (b.abs() + 1)) ** 2
    """,
    "attention": """
        q = torch.tensor([[0.1, 0.4], [0.3, -0.2], [0.5, 0.6]], requires_grad=True)
        k = torch.tensor([[0.2, -0.1], [0.7, 0.3], [-0.4, 0.9]], requires_grad=True)
        v = torch.tensor([[1.0, 0.0], [0.5, -0.5], [0.2, 0.8]], requires_grad=True)
        att = torch.softmax(q @ k.T / 2 ** 0.5, dim=-1)
        out = (att @ v).sum(dim=0)
    """,
    "losses": """
        import torch
        import torch.nn.functional as F
        logits = torch.tensor([[1.0, -0.5, 0.3], [0.2, 0.8, -1.2]], requires_grad=True)
        p = torch.sigmoid(logits)
        t = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
        loss = F.binary_cross_entropy(p, t) + F.cross_entropy(logits, torch.tensor([0, 2])) \
            + F.mse_loss(p, t, reduction='sum') + F.nll_loss(F.log_softmax(logits, dim=1),
                                                              torch.tensor([1, 1]))
    """,
    "reductions": """
        x = torch.tensor([[0.5, 1.5, -0.25], [2.0, -1.0, 0.75]], requires_grad=True)
        y = torch.stack([x.norm(), x.var(), x.std(dim=1).sum(), x.prod(), x.max(),
                         x.min(dim=0).values.sum(), torch.logsumexp(x, dim=1).mean(),
                         x.norm(p=1), x.norm(p=3, dim=0).sum()])
    """,
    "shapes": """
        x = torch.arange(1., 7., requires_grad=True)
        m = x.reshape(2, 3)
        y = torch.cat([m.T.flatten(), m[1, 1:], m[:, 0].unsqueeze(0).expand(2, 2).flatten(),
                       m.permute(1, 0)[2]]) * torch.linspace(0.5, 2.0, 14)
    """,
    "loop": """
        w = torch.tensor([0.5, -0.3], requires_grad=True)
        h = torch.tensor([1.0, 2.0])
        for i in range(4):
            h = torch.tanh(h * w + 0.1)
        y = h.sum()
    """,
    "elementwise": """
        import torch
        import torch.nn.functional as F
        x = torch.tensor([0.3, -0.8, 1.7, -2.2], requires_grad=True)
        y = (x.exp() + x.sin() * x.cos() + x.tan() + F.softplus(x) + F.gelu(x)
             + F.leaky_relu(x, 0.2) + x.relu() + x.abs() + torch.erf(x) + x.clamp(-1, 1)
             + torch.log1p(x.abs()) + (x * x + 1).sqrt() + (x.abs() + 1).log() + 2 ** x
             + F.gelu(x, approximate='tanh') + torch.maximum(x, -x * 0.5)
             + torch.where(x > 0, x * 2, x ** 2)).sum()
    """,
    "user function (no custom gradient)": """
        def layer(v, W):
            return torch.tanh(W @ v)
        W = torch.tensor([[0.2, -0.4], [0.6, 0.1]], requires_grad=True)
        x = torch.tensor([1.0, -1.0])
        y = layer(layer(x, W), W).sum()
    """,
    "right custom gradient": """
        def swish(x):
            return x * torch.sigmoid(x)
        def swish_backward(x, grad):
            s = torch.sigmoid(x)
            return grad * (s + x * s * (1 - s))
        x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
        y = swish(x * 2).sum()
    """,
    "second derivative graph": """
        x = torch.tensor([0.5, 1.5], requires_grad=True)
        y = (x ** 3).sum()
        g, = torch.autograd.grad(y, x, create_graph=True)
        z = (g * g).sum()
    """,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_correct_programs_check(name):
    r = check(_src(PROGRAMS[name]))
    assert r.ok, r.summary()


def test_kinks_are_compared_with_one_sided_derivatives():
    prog = _src("""
        x = torch.tensor([0.0, -1.0, 2.0, 2.0, 0.5], requires_grad=True)
        y = x.relu().sum() + x.abs().sum() + x.max() + x.clamp(min=0.5).sum()
    """)
    r = check(prog)
    assert r.ok, r.summary()
    assert r.results[0].kinks.sum() >= 3
    w = check(prog).to_json()["results"][0]
    assert w["kinks"] >= 3


def test_float32_program_is_promoted_with_a_warning():
    r = check("x = torch.FloatTensor([1, 2, 3])\nx.requires_grad_()\ny = (x * x).sum()")
    assert r.ok
    assert any("float32" in w for w in r.warnings)


def test_intermediate_wrt_is_differenced_through_the_recorded_operations():
    r = check(
        "x = torch.tensor([1., 2.], requires_grad=True)\nh = x * 3\ny = (h * h).sum()", wrt=["h"]
    )
    assert r.ok
    pair = r.results[0]
    assert pair.numeric_of == "graph" and "numeric" in pair.jacobians
    assert "`h` is computed by the program" in pair.notes[0]
    np.testing.assert_allclose(pair.jacobians["numeric"], [[6.0, 12.0]], rtol=1e-8)


def test_default_output_skips_a_trailing_constant():
    r = check(open("examples/sigmoid_net.py").read())
    assert r.of == "avg_loss"
    assert any("does not require grad" in w for w in r.warnings)


def test_sympy_is_skipped_when_too_large(monkeypatch):
    monkeypatch.setenv("GRADCLI_SYMPY_ELEMENTS", "4")
    r = check("x = torch.linspace(0.1, 1, 10, requires_grad=True)\ny = (x.sin()).sum()")
    assert r.ok
    assert "too large for sympy" in r.results[0].skipped["sympy"]


def test_no_sympy():
    r = check("x = torch.tensor([1., 2.], requires_grad=True)\ny = x.exp()", use_sympy=False)
    assert r.ok and "sympy" not in r.results[0].methods


def test_set_values_reach_finite_differences():
    from gradcli.lang.program import parse

    prog = parse("x = torch.tensor([1., 2.], requires_grad=True)\ny = (x ** 3).sum()")
    r = check(prog, overrides={"x": np.array([3.0, -1.0])})
    assert r.ok
    assert np.allclose(r.results[0].jacobians["engine"], [[27.0, 3.0]])


def test_bad_arguments():
    with pytest.raises(GradcliError, match="step must be positive"):
        check("x = torch.tensor([1.], requires_grad=True)\ny = x * 2", eps=0)
    with pytest.raises(GradcliError, match="cannot check against"):
        check("x = torch.tensor([1.], requires_grad=True)\ny = x * 2", against="jax")


def test_finite_differences_step_and_accuracy():
    x0 = np.array([1.0, 200.0])
    d = differences(np.sin, x0, step=relative(1e-6))
    np.testing.assert_allclose(np.diag(d.central), np.cos(x0), rtol=1e-8)
    # the step is relative: 1e-6 * max(1, |x|), and the steps actually taken are used
    np.testing.assert_allclose(np.diag(d.left), np.cos(x0), rtol=1e-3)
    assert not d.kinks().any()


def test_compare_tolerances():
    a = np.array([[1.0, 0.0, np.nan]])
    b = np.array([[1.0 + 1e-7, 1e-9, 0.5]])
    c = compare("engine", a, "sympy", b, atol=1e-6, rtol=1e-5)
    assert not c.ok  # the engine's nan is never excused
    (c,) = compare_methods({"numeric": a, "sympy": b}, None, atol=1e-6, rtol=1e-5)
    assert c.ok and c.skipped == 1  # finite differences may lack a column
    # Two exact methods are held to 1e-8 relative: 1e-7 apart disagree.
    (c,) = compare_methods({"engine": b[:, :1], "sympy": a[:, :1]}, None, atol=1e-6, rtol=1e-5)
    assert not c.ok and c.worst == (0, 0)


# --- custom gradients ------------------------------------------------------------------------


WRONG_F = """
    import torch
    def f(x):
        return x * x.sin()
    def f_backward(x, grad):
        return grad * (x.sin() + x.cos())      # forgot the factor x
    x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
    y = f(x).sum()
"""

WRONG_CLASS = """
    import torch
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.pow(2)
        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return 3 * x * grad_output         # should be 2 * x
    x = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    y = Square.apply(x)
"""


def test_wrong_f_backward_is_caught_and_named():
    r = check(_src(WRONG_F))
    assert not r.ok
    assert r.results[0].culprits == ["f"]
    assert "`f`" in r.summary()
    worst = r.results[0].worst()
    assert set(worst["values"]) >= {"engine", "numeric", "sympy"}


def test_wrong_function_backward_is_caught_and_named():
    r = check(_src(WRONG_CLASS))
    assert not r.ok
    assert r.results[0].culprits == ["Square"]


def test_only_the_wrong_one_of_two_custom_functions_is_blamed():
    prog = _src("""
        def good(x):
            return x.exp()
        def good_backward(x, grad):
            return grad * x.exp()
        def bad(x):
            return x * x
        def bad_backward(x, grad):
            return grad * x * 2.01
        x = torch.tensor([0.1, 0.2], requires_grad=True)
        y = bad(good(x)).sum()
    """)
    r = check(prog)
    assert not r.ok
    assert r.results[0].custom == ["good", "bad"] or set(r.results[0].custom) == {"good", "bad"}
    assert r.results[0].culprits == ["bad"]


def test_the_seeds_function_snippet_checks():
    r = check(open("examples/gradient_argument.py").read())
    assert r.ok
    assert r.results[0].custom == ["MyFunction"]


# --- a deliberately wrong rule ---------------------------------------------------------------


def _patched(name, factor):
    op = REGISTRY[name]
    real = op.vjp

    def wrong(g, out, *inputs, **params):
        return tuple(None if r is None else r * factor for r in real(g, out, *inputs, **params))

    return op, real, wrong


@pytest.mark.parametrize(
    "name,program",
    [
        ("sin", "x = torch.tensor([0.3, 1.2], requires_grad=True)\ny = x.sin().sum()"),
        (
            "matmul",
            "A = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\n"
            "v = torch.tensor([0.5, -1.])\ny = A @ v",
        ),
        (
            "softmax",
            "x = torch.tensor([0.3, 1.2, -0.4], requires_grad=True)\ny = torch.softmax(x, dim=0)",
        ),
        ("mean", "x = torch.tensor([[0.3, 1.2], [2., 3.]], requires_grad=True)\ny = x.mean(dim=1)"),
    ],
)
def test_a_rule_off_by_a_tenth_of_a_percent_is_caught(name, program):
    op, real, wrong = _patched(name, 1.001)
    object.__setattr__(op, "vjp", wrong)
    try:
        r = check(program)
    finally:
        object.__setattr__(op, "vjp", real)
    assert not r.ok
    assert name in r.results[0].rules
    assert check(program).ok


# --- PyTorch ---------------------------------------------------------------------------------


def _has_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _has_torch(), reason="PyTorch is not installed")
@pytest.mark.parametrize("path", EXAMPLES)
def test_examples_agree_with_torch(path):
    r = check(open(path).read(), against="torch")
    assert r.ok, r.summary()
    assert all("torch" in p.methods for p in r.results)


@pytest.mark.skipif(not _has_torch(), reason="PyTorch is not installed")
def test_torch_sees_the_wrong_custom_backward_too():
    r = check(_src(WRONG_CLASS), against="torch")
    c = [c for c in r.results[0].comparisons if {c.a, c.b} == {"engine", "torch"}][0]
    assert c.ok  # PyTorch runs the same (wrong) backward
    assert not r.ok


@pytest.mark.skipif(not _has_torch(), reason="PyTorch is not installed")
def test_torch_gets_gradclis_random_values():
    # gradcli's run with seed 4, PyTorch's with its own (0): other numbers, replaced.
    r = check("x = torch.randn(3, requires_grad=True)\ny = (x * x).sum()", against="torch", seed=4)
    assert r.ok, r.summary()
    assert "torch" in r.results[0].methods
    assert any("`x`" in w and "gradcli's values" in w for w in r.warnings)


def test_torch_with_random_inputs_agrees():
    # gradcli draws PyTorch's numbers (in float32, widened for the float64 analysis).
    pytest.importorskip("torch")
    r = check(
        "torch.manual_seed(3)\nx = torch.randn(3, requires_grad=True)\ny = x.sin()", against="torch"
    )
    assert r.ok


def test_torch_with_other_inputs_gets_gradclis():
    # Another seed: PyTorch's run draws other numbers; they are replaced by gradcli's.
    pytest.importorskip("torch")
    r = check("x = torch.rand(3, requires_grad=True)\ny = (x * x).sum()", against="torch", seed=5)
    assert r.ok and any("`x`" in w for w in r.warnings)


def test_torch_missing_is_a_clear_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(GradcliError, match="needs PyTorch"):
        check("x = tensor([1.], requires_grad=True)\ny = x * 2", against="torch")


def _masked_passes(out: Tensor, targets: list[tuple[str, Tensor]]) -> dict[str, np.ndarray]:
    """The minimal reverse mode: one backward pass per output element, a one-hot mask each
    (an independent reference for `engine_jacobian`)."""
    n_out = int(out.data.size)
    caps = [t for _, t in targets]
    result = {name: np.zeros((n_out, int(t.data.size))) for name, t in targets}
    for i in range(n_out):
        mask = np.zeros(n_out, dtype=out.dtype)
        mask[i] = 1
        got = run_backward(
            [out], [Tensor(mask.reshape(out.shape))], capture=caps, check_freed=False
        )
        for name, t in targets:
            if id(t) in got:
                result[name][i] = np.asarray(got[id(t)][1].data, dtype=np.float64).reshape(-1)
    return result


def test_engine_jacobian_matches_masked_passes():
    x = Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    y = (x * x).sin()
    a = engine_jacobian(y, [("x", x)])["x"]
    b = _masked_passes(y, [("x", x)])["x"]
    np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(a, np.diag(2 * x.data * np.cos(x.data**2)))


# --- random programs from the registry (hypothesis) ------------------------------------------

UNARY = [
    "torch.tanh({x})",
    "{x}.sin()",
    "{x}.cos()",
    "torch.sigmoid({x})",
    "({x} * 0.5).exp()",
    "({x}.abs() + 0.5).log()",
    "({x} * {x} + 0.25).sqrt()",
    "{x}.abs()",
    "F.softplus({x})",
    "F.gelu({x})",
    "F.leaky_relu({x}, 0.1)",
    "{x}.relu()",
    "torch.erf({x})",
    "{x} ** 2",
    "{x}.pow(3)",
    "2.0 ** {x}",
    "-{x}",
    "{x}.clamp(-0.8, 0.8)",
    "torch.log1p({x}.abs())",
    "({x} * 0.3).tan()",
    "F.gelu({x}, approximate='tanh')",
    "F.softplus({x}, beta=2.0, threshold=1.0)",
]
BINARY = [
    "{x} + {y}",
    "{x} - {y}",
    "{x} * {y}",
    "{x} / ({y}.abs() + 0.5)",
    "torch.maximum({x}, {y})",
    "torch.minimum({x}, {y})",
    "({x}.abs() + 0.5) ** {y}",
    "torch.where({x} > {y}, {x}, {y} * 2)",
]


def _reductions(shape):
    nd = len(shape)
    out = ["{x}.sum()", "{x}.mean()", "{x}.max()", "{x}.norm()", "{x}.amin()"]
    if int(np.prod(shape)) <= 6:
        out.append("{x}.prod()")
    if int(np.prod(shape)) >= 2:
        out += ["{x}.var()", "{x}.std()"]
    if nd >= 1:
        out += [
            "{x}.sum(dim=-1)",
            "{x}.mean(dim=0, keepdim=True)",
            "{x}.min(dim=-1).values",
            "torch.logsumexp({x}, dim=-1)",
            "torch.softmax({x}, dim=-1)",
            "F.log_softmax({x}, dim=0)",
            "{x}.norm(p=1, dim=-1)",
        ]
    if nd >= 1 and shape[-1] >= 2:
        out.append("{x}.std(dim=-1)")
    return out


def _shape_ops(shape):
    nd = len(shape)
    out = ["{x}.reshape(-1)", "{x}.unsqueeze(0)", "{x}.flatten()"]
    if nd == 2:
        out += ["{x}.T", "{x}.t()"]
    if nd >= 2:
        out += ["{x}.transpose(0, 1)", "{x}.permute(*reversed(range({x}.dim())))"]
    if nd >= 1:
        out += ["{x}[0]", "{x}[..., -1]"]
    if nd >= 1 and shape[-1] >= 2:
        out.append("{x}[..., 1:]")
    return out


SHAPES = [(), (3,), (2, 3), (2, 1, 3), (1,), (4,)]


def _result_shape(expr: str, env: dict[str, tuple]) -> tuple | None:
    """The shape `expr` has in gradcli (by running it on ones), or None if it fails."""
    from gradcli.analysis.api import load

    lines = [
        f"{n} = torch.ones({list(s)}, requires_grad=True)"
        if s
        else f"{n} = torch.tensor(1.0, requires_grad=True)"
        for n, s in env.items()
    ]
    try:
        r = load(
            "import torch\nimport torch.nn.functional as F\n"
            + "\n".join(lines)
            + f"\n_r = {expr}\n"
        )
    except GradcliError:
        return None
    return tuple(r.tensors["_r"].shape)


@st.composite
def programs(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a_shape = draw(st.sampled_from(SHAPES))
    b_shape = tuple(draw(st.sampled_from([s, 1])) for s in a_shape)[
        draw(st.integers(0, len(a_shape))) :
    ]
    env = {"a": a_shape, "b": b_shape}
    n = int(np.prod(a_shape)) + int(np.prod(b_shape))
    grid = np.round(np.linspace(-1.6, 1.6, 33), 3)
    grid = grid[np.abs(grid) >= 0.2]
    vals = rng.choice(grid, size=n, replace=False) + rng.uniform(-0.02, 0.02, size=n).round(4)
    va = vals[: int(np.prod(a_shape))].reshape(a_shape).tolist()
    vb = vals[int(np.prod(a_shape)) :].reshape(b_shape).tolist()
    lines = [
        "import torch",
        "import torch.nn.functional as F",
        f"a = torch.tensor({va!r}, requires_grad=True)",
        f"b = torch.tensor({vb!r}, requires_grad=True)",
    ]
    steps = draw(st.integers(1, 4))
    for k in range(steps):
        names = list(env)
        x = draw(st.sampled_from(names))
        kind = draw(st.sampled_from(["unary", "binary", "reduction", "shape", "matmul"]))
        if kind == "unary":
            expr = draw(st.sampled_from(UNARY)).format(x=x)
        elif kind == "binary":
            y = draw(st.sampled_from([m for m in names if m != x] or names))
            expr = draw(st.sampled_from(BINARY)).format(x=x, y=y)
        elif kind == "reduction":
            expr = draw(st.sampled_from(_reductions(env[x]))).format(x=x)
        elif kind == "shape":
            expr = draw(st.sampled_from(_shape_ops(env[x]))).format(x=x)
        else:
            y = draw(st.sampled_from(names))
            expr = f"{x}.reshape(1, -1) @ {y}.reshape(-1, 1).expand(-1, 2)"
            if int(np.prod(env[x])) != int(np.prod(env[y])) or int(np.prod(env[x])) == 0:
                expr = f"torch.outer({x}.flatten(), {y}.flatten())"
        shape = _result_shape(expr, env)
        if shape is None:
            continue
        name = f"t{k}"
        lines.append(f"{name} = {expr}")
        env[name] = shape
    last = list(env)[-1]
    if draw(st.booleans()):
        lines.append(f"y = ({last} * {last}).sum()")
    else:
        lines.append(f"y = {last} * 1.5")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(programs())
def test_random_programs_agree_three_ways(program):
    r = check(program)
    assert r.ok, program + "\n" + r.summary()
    for p in r.results:
        if p.jacobians["engine"].any():
            assert "sympy" in p.methods, (program, p.skipped)


def test_a_point_outside_the_domain_is_explained_not_blamed_on_the_rule():
    r = check("x = torch.tensor([0.0, 1.0], requires_grad=True)\ny = x.sqrt()")
    assert not r.ok  # the engine's nan (as PyTorch's) is not the derivative
    assert r.results[0].rules == []
    assert any("sqrt of a value <= 0" in d for d in r.results[0].domain)
    assert "not differentiable" in r.summary()


def test_too_many_runs_difference_the_recorded_operations(monkeypatch):
    import gradcli.analysis.check as check_mod

    monkeypatch.setattr(check_mod, "MAX_NUMERIC_RUNS", 10)
    r = check("x = torch.linspace(0.1, 1, 6, requires_grad=True)\ny = x.exp().sum()")
    assert r.ok
    assert r.results[0].numeric_of == "graph"
    assert "12 times" in r.results[0].notes[0]


def test_numeric_is_skipped_when_every_perturbed_run_fails() -> None:
    # Any change of x makes the program fail: there are no finite differences to compare.
    src = (
        "x = torch.tensor([1.0], requires_grad=True)\n"
        "if x.item() != 1.0:\n    bad = torch.ones(2) + torch.ones(3)\n"
        "y = (x * x).sum()\n"
    )
    r = check(src)
    res = r.results[0]
    assert "numeric" not in res.methods
    assert "every perturbed run" in str(res.skipped)
