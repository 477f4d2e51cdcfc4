"""gradcli.surface.optim against PyTorch 2.13: recorded trajectories compared bit for bit.

The cases (data/optim/record.py) hand both implementations the same gradients (NumPy arithmetic
on the parameters' current values) for 30 steps: SGD with momentum, dampening, Nesterov, weight
decay and maximize; Adam and AdamW with amsgrad, weight decay, maximize and other betas; float32
and float64; parameter groups with their own hyperparameters, a parameter that misses its
gradient on some steps, learning rates changed by hand and by StepLR / ExponentialLR.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Settings, Tensor
from gradcli.surface import kernels as K
from gradcli.surface import optim
from gradcli.surface.nn import Parameter

DATA = Path(__file__).resolve().parent / "data" / "optim"


def _load_record() -> Any:
    spec = importlib.util.spec_from_file_location("_optim_record", DATA / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load_record()
EXPECTED = np.load(DATA / "expected.npz")


def run_ours(case: str, step_hook: Any = None) -> tuple[np.ndarray, ...]:
    spec = REC.CASES[case]
    params = [Parameter(v.copy()) for v in REC.initial(case)]
    opt = getattr(optim, spec["opt"])(REC.groups_of(case, params), **spec["kw"])
    sched = None
    if "sched" in spec:
        name, kw = spec["sched"]
        sched = getattr(optim, name)(opt, **kw)
    traj: list[list[np.ndarray]] = [[p.data.copy()] for p in params]
    lrs = []
    for step in range(REC.STEPS):
        for lr_step, new in spec.get("set_lr", {}).items():
            if step == lr_step:
                for g, lr in zip(opt.param_groups, new):
                    g["lr"] = lr
        opt.zero_grad()
        for i, p in enumerate(params):
            g = REC.grad_for(case, step, i, p.data)
            p.grad = None if g is None else Tensor(g)
        if step_hook is not None:
            step_hook(opt, step)
        opt.step()
        if sched is not None:
            sched.step()
            lrs.append(sched.get_last_lr())
        for i, p in enumerate(params):
            traj[i].append(p.data.copy())
    out = tuple(np.stack(t) for t in traj)
    return out + ((np.array(lrs, np.float64),) if sched is not None else ())


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint64 if a.dtype == np.float64 else np.uint32)


@pytest.fixture(autouse=True)
def _pytorchs_default_dtype(monkeypatch: pytest.MonkeyPatch) -> None:
    # PyTorch's default dtype, as the recording ran: the optimizers keep their step counts,
    # NAdam's mu_product and ASGD's eta and mu in it.
    monkeypatch.setattr(Settings, "default_dtype", np.dtype(np.float32))


def test_recorded_sqrt_exceptions_are_gradclis_roots() -> None:
    """The roots the recording found MKL's sqrt to round below the correctly rounded one
    (`sqrt_exceptions_<dtype>`, see record.py) are the ones K.sqrt gives (core.vmlsqrt)."""
    for dt, uint in (("float32", np.uint32), ("float64", np.uint64)):
        table = EXPECTED[f"sqrt_exceptions_{dt}"]
        assert table.size
        x = table[:, 0].astype(uint).view(dt)
        assert np.array_equal(_bits(K.sqrt(x)), table[:, 1].astype(uint))
        assert not np.any(_bits(np.sqrt(x)) == table[:, 1].astype(uint))


@pytest.mark.parametrize("case", list(REC.CASES))
def test_trajectory_is_pytorchs_to_the_bit(case: str) -> None:
    ours = run_ours(case)
    n = len([k for k in EXPECTED.files if k.startswith(case + "/")])
    assert n
    assert len(ours) == n
    for j, got in enumerate(ours):
        want = EXPECTED[f"{case}/{j}"]
        assert got.dtype == want.dtype and got.shape == want.shape
        if not np.array_equal(_bits(got), _bits(want)):
            step = int(
                np.argmax([not np.array_equal(_bits(a), _bits(b)) for a, b in zip(got, want)])
            )
            raise AssertionError(f"{case}: parameter {j} first differs after step {step}")


def test_a_rule_one_ulp_off_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tester tested: Adam's bias correction 1e-7 (relative) off, or the FMA replaced by a
    rounded product, makes the comparison fail."""
    real_lerp = K.lerp

    def unfused_lerp(a: Any, b: Any, w: Any) -> np.ndarray:  # two roundings instead of one
        dt = np.asarray(a).dtype
        return (np.asarray(a) + K.scalar(w, dt) * (np.asarray(b) - np.asarray(a))).astype(dt)

    monkeypatch.setattr(K, "lerp", unfused_lerp)
    with pytest.raises(AssertionError):
        test_trajectory_is_pytorchs_to_the_bit("adam")
    monkeypatch.setattr(K, "lerp", real_lerp)

    def nudged_add(a: Any, b: Any, alpha: Any = 1) -> np.ndarray:
        return real_add(a, b, alpha * (1 + 1e-7) if alpha != 1 else alpha)

    real_add = K.add
    monkeypatch.setattr(K, "add", nudged_add)
    with pytest.raises(AssertionError):
        test_trajectory_is_pytorchs_to_the_bit("sgd")


def test_live_against_torch() -> None:
    pytest.importorskip("torch")
    cases = ("sgd_all", "adam_amsgrad", "adamw_all", "adam_groups", "nadam_decoupled", "rprop_all")
    for case in cases + ("radam_decoupled", "asgd_all", "adadelta_all", "adamax_all"):
        for got, want in zip(run_ours(case), REC.run_torch(case)):
            assert np.array_equal(_bits(got), _bits(want)), case


# --- the optimizer objects -------------------------------------------------------------------


def _p(*values: float) -> Parameter:
    return Parameter(np.array(values, np.float32))


def test_param_groups_are_plain_dicts_read_at_each_step() -> None:
    w = _p(1.0, 2.0)
    opt = optim.SGD([w], lr=0.5)
    assert opt.param_groups[0]["lr"] == 0.5 and opt.param_groups[0]["params"] == [w]
    w.grad = Tensor(np.ones(2, np.float32))
    opt.param_groups[0]["lr"] = 0.25
    opt.step()
    assert w.data.tolist() == [0.75, 1.75]


def test_repr_and_state_dict_are_pytorchs() -> None:
    w = _p(1.0)
    opt = optim.Adam([w], lr=0.1)
    assert repr(opt) == (
        "Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)\n"
        "    capturable: False\n    decoupled_weight_decay: False\n    differentiable: False\n"
        "    eps: 1e-08\n    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
        "    weight_decay: 0\n)"
    )
    w.grad = Tensor(np.ones(1, np.float32))
    opt.step()
    sd = opt.state_dict()
    assert list(sd["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    assert float(sd["state"][0]["step"].data) == 1.0
    assert sd["param_groups"][0]["params"] == [0]
    assert list(sd["param_groups"][0])[-1] == "params"


def test_zero_grad_sets_to_none_or_zeros_in_place() -> None:
    w = _p(1.0, 2.0)
    opt = optim.SGD([w], lr=0.1)
    w.grad = Tensor(np.ones(2, np.float32))
    g = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is g and g.data.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


def test_a_parameter_without_grad_is_skipped() -> None:
    w, b = _p(1.0), _p(2.0)
    opt = optim.Adam([w, b], lr=0.1)
    w.grad = Tensor(np.ones(1, np.float32))
    opt.step()
    assert b.data.tolist() == [2.0] and len(opt.state_dict()["state"]) == 1


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda w: optim.SGD([w], lr=-1), "Invalid learning rate: -1"),
        (lambda w: optim.SGD([w], lr=0.1, momentum=-0.5), "Invalid momentum value: -0.5"),
        (lambda w: optim.SGD([w], weight_decay=-1.0), "Invalid weight_decay value: -1.0"),
        (
            lambda w: optim.SGD([w], lr=0.1, nesterov=True),
            "Nesterov momentum requires a momentum and zero dampening",
        ),
        (lambda w: optim.Adam([w], betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
        (lambda w: optim.Adam([w], betas=(0, 0.9)), "betas must be either both floats or both"),
        (lambda w: optim.Adam([w], eps=-1e-8), "Invalid epsilon value: -1e-08"),
        (lambda w: optim.SGD([], lr=0.1), "optimizer got an empty parameter list"),
        (lambda w: optim.SGD(w, lr=0.1), "but got torch.FloatTensor"),
        (lambda w: optim.SGD([w, 3], lr=0.1), "but one of the params is int"),
        (lambda w: optim.SGD([w * 2], lr=0.1), "can't optimize a non-leaf Tensor"),
        (
            lambda w: optim.SGD([{"params": [w]}, {"params": w}], lr=0.1),
            "some parameters appear in more than one parameter group",
        ),
        (lambda w: optim.SGD([w], lr="fast"), "lr must be a number, not str"),
        (lambda w: optim.SGD([w], lr=0.1, foreach=True), "foreach=True is not supported"),
        (lambda w: optim.StepLR(w, 2), "Tensor is not an Optimizer"),
        (lambda w: optim.Adadelta([w], rho=1.5), "Invalid rho value: 1.5"),
        (lambda w: optim.Adamax([w], betas=(1.2, 0.9)), "Invalid beta parameter at index 0: 1.2"),
        (lambda w: optim.NAdam([w], momentum_decay=-1), "Invalid momentum_decay value: -1"),
        (lambda w: optim.RAdam([w], lr=-0.1), "Invalid learning rate: -0.1"),
        (lambda w: optim.Rprop([w], etas=(1.2, 0.5)), "Invalid eta values: 1.2, 0.5"),
        (lambda w: optim.Rprop([w], step_sizes=3), "step_sizes must be a pair of numbers"),
        (lambda w: optim.ASGD([w], t0="soon"), "t0 must be a number, not str"),
        (lambda w: optim.NAdam([w], foreach=True), "foreach=True is not supported"),
    ],
)
def test_refusals_in_pytorchs_words(make: Any, message: str) -> None:
    w = Parameter(np.ones(2, np.float32))
    with pytest.raises(GradcliError, match=None) as e:
        make(w)
    assert message in e.value.message


def test_a_param_group_spoiled_by_the_program_fails_at_the_step() -> None:
    w = _p(1.0)
    opt = optim.SGD([w], lr=0.1)
    w.grad = Tensor(np.ones(1, np.float32))
    opt.param_groups[0]["lr"] = "slow"
    with pytest.raises(GradcliError, match="lr must be a number, not str"):
        opt.step()
    del opt.param_groups[0]["momentum"]
    opt.param_groups[0]["lr"] = 0.1
    with pytest.raises(GradcliError, match="momentum") as e:
        opt.step()
    assert e.value.python_class == "KeyError"  # a program's `except KeyError` catches it


def test_schedulers_set_lr_and_remember_initial_lr() -> None:
    w = _p(1.0)
    opt = optim.SGD([w], lr=1.0)
    sched = optim.StepLR(opt, step_size=2, gamma=0.5)
    assert opt.param_groups[0]["initial_lr"] == 1.0 and sched.get_last_lr() == [1.0]
    seen = []
    for _ in range(5):
        opt.step()
        sched.step()
        seen.append(sched.get_last_lr()[0])
    assert seen == [1.0, 0.5, 0.5, 0.25, 0.25]


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_a_step_checks_the_clock_between_the_updates(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`SGD([w] * 10**6)`: a step is a million updates; the clock is checked before each one,
    not all at once before the first (the time limit could not stop it half way)."""
    from gradcli.core import hooks

    events: list[str] = []
    w = Parameter(np.ones(2))
    w.grad = Tensor(np.ones(2))
    opt = getattr(optim, name)([w] * 4, lr=0.1)
    real = optim._grad_of
    monkeypatch.setattr(hooks.observer, "tick", lambda: events.append("tick"))
    monkeypatch.setattr(optim, "_grad_of", lambda p: events.append("update") or real(p))
    opt.step()
    assert events == ["tick", "update"] * 4
    events.clear()
    opt.zero_grad()
    assert events == ["tick"] * 4


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda o: optim.CosineAnnealingWarmRestarts(o, T_0=0), "Expected positive integer T_0"),
        (lambda o: optim.CosineAnnealingWarmRestarts(o, 2, T_mult=0), "integer T_mult >= 1"),
        (lambda o: optim.CosineAnnealingWarmRestarts(o, 2).step(-1), "non-negative epoch"),
        (lambda o: optim.CosineAnnealingWarmRestarts(o, 2).step(float("inf")), "cannot convert"),
        (lambda o: optim.CyclicLR(o, 0.01, 0.1, step_size_up=0), "float division by zero"),
        (lambda o: optim.CyclicLR(o, [0.01, 0.02], 0.1), "expected 1 values for base_lr, got 2"),
        (lambda o: optim.CyclicLR(o, 0.01, 0.1, mode="sine"), "mode is invalid"),
        (lambda o: optim.CyclicLR(o, 0.01, 0.1, scale_fn=3), "scale_fn should be a function"),
        (lambda o: optim.SequentialLR(o, [], []), "expects at least one scheduler"),
        (lambda o: optim.SequentialLR(o, [optim.StepLR(o, 2)], [3]), "one more than the number"),
        (lambda o: optim.SequentialLR(o, [3], []), "should have `optimizer` as its attribute"),
        (
            lambda o: optim.ChainedScheduler([optim.ReduceLROnPlateau(o)]),
            "does not support `ReduceLROnPlateau`",
        ),
        (
            lambda o: optim.ChainedScheduler([optim.StepLR(optim.SGD([_p(1.0)]), 2)], o),
            "expects all schedulers to belong to the same optimizer",
        ),
    ],
)
def test_scheduler_refusals_in_pytorchs_words(make: Any, message: str) -> None:
    opt = optim.SGD([_p(1.0, 2.0)], lr=0.1, momentum=0.9)
    with pytest.raises(GradcliError) as e:
        make(opt)
    assert message in e.value.message


def test_sequential_switches_to_the_next_schedule_at_its_closed_form() -> None:
    """Warm-up then cosine: the lrs PyTorch 2.13 prints for this recipe (recorded)."""
    opt = optim.SGD([_p(1.0)], lr=0.1)
    sched = optim.SequentialLR(
        opt,
        [optim.LinearLR(opt, start_factor=0.1, total_iters=3), optim.CosineAnnealingLR(opt, 5)],
        milestones=[3],
    )
    lrs = []
    for _ in range(8):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    want = [0.04, 0.07, 0.1, 0.09045084972, 0.06545084972, 0.03454915028, 0.00954915028, 0.0]
    assert lrs == pytest.approx(want, abs=1e-10)


def test_add_and_sub_with_alpha_round_once_as_atens_kernel() -> None:
    """`x.add_(g, alpha=-lr)`, `torch.add(x, y, alpha=)`, `x.sub(y, alpha=)` and the deprecated
    `x.add_(-lr, g)` of a hand-written update give the fused multiply-add's values (one
    rounding), which differ in the last bit from the rounded product then sum for many inputs."""
    from gradcli.lang.program import parse

    rng = np.random.default_rng(3)
    x = rng.standard_normal(500).astype(np.float32)
    g = rng.standard_normal(500).astype(np.float32)
    fused = K.add(x, g, -0.001)
    two_roundings = (x + np.float32(-0.001) * g).astype(np.float32)
    assert not np.array_equal(_bits(fused), _bits(two_roundings))  # the test can fail
    text = (
        "import torch\nimport numpy as np\n"
        f"x = torch.tensor({x.tolist()})\ng = torch.tensor({g.tolist()})\n"
        "a = torch.add(x, g, alpha=-0.001)\nb = x.clone()\nb.add_(g, alpha=-0.001)\n"
        "c = x.clone()\nc.data.add_(-0.001, g.data)\nd = x.sub(g, alpha=0.001)\n"
    )
    run = parse(text, "t.py").run(dtype="float32")  # as `gradcli run` runs it
    got = {n: run.env[n].data for n in "abcd"}
    for name, values in got.items():
        assert np.array_equal(_bits(values), _bits(fused)), name


def test_add_with_alpha_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    x = rng.standard_normal((7, 9)).astype(np.float32)
    y = rng.standard_normal(9).astype(np.float32)
    want = torch.add(torch.from_numpy(x), torch.from_numpy(y), alpha=0.37).numpy()
    assert np.array_equal(_bits(K.add(x, y, 0.37)), _bits(want))


@pytest.mark.parametrize(
    "make",
    [
        lambda w: optim.SGD([w], lr=-1),
        lambda w: optim.SGD([w], lr=0.1, momentum=-0.5),
        lambda w: optim.Adam([w], betas=(0.9, 1.0)),
        lambda w: optim.Adam([w], eps=-1e-8),
        lambda w: optim.SGD([], lr=0.1),
    ],
)
def test_invalid_settings_are_value_errors_as_pytorchs(make: Any) -> None:
    """PyTorch raises ValueError for a setting out of range: `except ValueError` catches it."""
    with pytest.raises(GradcliError) as e:
        make(_p(1.0))
    assert e.value.python_class == "ValueError"
