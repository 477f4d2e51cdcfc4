"""The optimizer trajectory cases, and their recording under PyTorch 2.13.

Each case: parameters of some shapes and a dtype, an optimizer (and maybe a scheduler), and
`STEPS` steps whose gradients come from `grad_for` -- NumPy arithmetic on the parameters' current
values, so gradcli and PyTorch are handed the same gradient bits whenever their parameters agree.
The test replays the cases through gradcli's `optim` and compares every parameter after every
step bit for bit, and the learning rates the schedulers set.

PyTorch's `sqrt` on x86 is MKL's (VML, high-accuracy mode), which is not correctly rounded: for
about 0.6% of inputs it gives the float below. The recording keeps, for every second moment
Adam took the root of, the inputs where MKL's root differs from the correctly rounded one
(`sqrt_exceptions_<dtype>`: pairs of bit patterns); the test checks that gradcli's root
(`core.vmlsqrt`, MKL's steps) gives them.

    /work/torchenv/bin/python tests/surface/data/optim/record.py   # writes expected.npz
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

STEPS = 30
HERE = Path(__file__).resolve().parent

# Sizes: 1 and 7 run only ATen's scalar loop, 33 and 40 its vectorised loop (32 float32 a
# chunk with AVX512, 16 with AVX2) and then the scalar tail.
SHAPES = [(7,), (2, 3), (33,), (), (40,), (1,)]

CASES: dict[str, dict[str, Any]] = {
    "sgd": {"opt": "SGD", "kw": {"lr": 0.1}},
    "sgd_momentum": {"opt": "SGD", "kw": {"lr": 0.05, "momentum": 0.9}},
    "sgd_dampening": {"opt": "SGD", "kw": {"lr": 0.05, "momentum": 0.8, "dampening": 0.3}},
    "sgd_nesterov": {"opt": "SGD", "kw": {"lr": 0.03, "momentum": 0.9, "nesterov": True}},
    "sgd_weight_decay": {"opt": "SGD", "kw": {"lr": 0.07, "weight_decay": 0.013}},
    "sgd_all": {
        "opt": "SGD",
        "kw": {"lr": 0.02, "momentum": 0.7, "weight_decay": 0.1, "nesterov": True},
    },
    "sgd_maximize": {"opt": "SGD", "kw": {"lr": 0.01, "momentum": 0.5, "maximize": True}},
    "sgd_default_lr": {"opt": "SGD", "kw": {}},
    "adam": {"opt": "Adam", "kw": {}},
    "adam_lr": {"opt": "Adam", "kw": {"lr": 0.01}},
    "adam_betas_eps": {"opt": "Adam", "kw": {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-6}},
    "adam_weight_decay": {"opt": "Adam", "kw": {"lr": 0.01, "weight_decay": 0.1}},
    "adam_amsgrad": {"opt": "Adam", "kw": {"lr": 0.05, "amsgrad": True}},
    "adam_maximize": {"opt": "Adam", "kw": {"lr": 0.003, "maximize": True}},
    "adamw": {"opt": "AdamW", "kw": {}},
    "adamw_all": {"opt": "AdamW", "kw": {"lr": 0.02, "weight_decay": 0.1, "amsgrad": True}},
    "sgd_f64": {"opt": "SGD", "kw": {"lr": 0.05, "momentum": 0.9}, "dtype": "float64"},
    "adam_f64": {"opt": "Adam", "kw": {"lr": 0.01}, "dtype": "float64"},
    "adamw_f64": {"opt": "AdamW", "kw": {"lr": 0.01, "amsgrad": True}, "dtype": "float64"},
    # Two groups, the second with its own lr and momentum; one parameter has no gradient on
    # every third step (skipped, its state untouched); lr changed by hand at step 10.
    "sgd_groups": {
        "opt": "SGD",
        "kw": {"lr": 0.05, "momentum": 0.9},
        "groups": [[0, 1, 2], [3, 4, 5]],
        "group_kw": [{}, {"lr": 0.01, "momentum": 0.5}],
        "set_lr": {10: [0.02, 0.005]},
    },
    "adam_groups": {
        "opt": "Adam",
        "kw": {"lr": 0.01},
        "groups": [[0, 2, 4], [1, 3, 5]],
        "group_kw": [{}, {"lr": 0.05, "betas": (0.5, 0.9)}],
        "set_lr": {5: [0.001, 0.002]},
    },
    "sgd_steplr": {
        "opt": "SGD",
        "kw": {"lr": 0.1, "momentum": 0.9},
        "sched": ("StepLR", {"step_size": 4, "gamma": 0.5}),
    },
    "adam_exponentiallr": {
        "opt": "Adam",
        "kw": {"lr": 0.05},
        "sched": ("ExponentialLR", {"gamma": 0.9}),
    },
    "rmsprop": {"opt": "RMSprop", "kw": {}},
    "rmsprop_momentum": {"opt": "RMSprop", "kw": {"lr": 0.005, "momentum": 0.9}},
    "rmsprop_centered": {"opt": "RMSprop", "kw": {"lr": 0.003, "centered": True, "alpha": 0.9}},
    "rmsprop_all": {
        "opt": "RMSprop",
        "kw": {
            "lr": 0.002,
            "alpha": 0.95,
            "eps": 1e-6,
            "weight_decay": 0.05,
            "momentum": 0.5,
            "centered": True,
            "maximize": True,
        },
    },
    "rmsprop_f64": {"opt": "RMSprop", "kw": {"lr": 0.01, "momentum": 0.3}, "dtype": "float64"},
    "adagrad": {"opt": "Adagrad", "kw": {}},
    "adagrad_all": {
        "opt": "Adagrad",
        "kw": {
            "lr": 0.1,
            "lr_decay": 0.01,
            "weight_decay": 0.02,
            "initial_accumulator_value": 0.1,
            "eps": 1e-8,
        },
    },
    "adagrad_maximize": {"opt": "Adagrad", "kw": {"lr": 0.05, "maximize": True}},
    "adagrad_f64": {"opt": "Adagrad", "kw": {"lr": 0.1, "lr_decay": 0.1}, "dtype": "float64"},
    "adagrad_groups": {
        "opt": "Adagrad",
        "kw": {"lr": 0.05},
        "groups": [[0, 1, 2], [3, 4, 5]],
        "group_kw": [{}, {"lr": 0.2, "lr_decay": 0.05}],
    },
    "adadelta": {"opt": "Adadelta", "kw": {}},
    "adadelta_all": {
        "opt": "Adadelta",
        "kw": {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.05, "maximize": True},
    },
    "adadelta_f64": {"opt": "Adadelta", "kw": {"lr": 0.3}, "dtype": "float64"},
    "adamax": {"opt": "Adamax", "kw": {}},
    "adamax_all": {
        "opt": "Adamax",
        "kw": {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1},
    },
    "adamax_f64": {"opt": "Adamax", "kw": {"maximize": True}, "dtype": "float64"},
    "nadam": {"opt": "NAdam", "kw": {}},
    "nadam_weight_decay": {"opt": "NAdam", "kw": {"lr": 0.01, "weight_decay": 0.1}},
    "nadam_decoupled": {
        "opt": "NAdam",
        "kw": {
            "lr": 0.01,
            "weight_decay": 0.1,
            "decoupled_weight_decay": True,
            "momentum_decay": 0.01,
            "maximize": True,
        },
    },
    "nadam_f64": {"opt": "NAdam", "kw": {"lr": 0.005}, "dtype": "float64"},
    "radam": {"opt": "RAdam", "kw": {}},
    "radam_weight_decay": {"opt": "RAdam", "kw": {"lr": 0.01, "weight_decay": 0.1}},
    "radam_decoupled": {
        "opt": "RAdam",
        "kw": {"lr": 0.02, "weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True},
    },
    "radam_f64": {"opt": "RAdam", "kw": {"lr": 0.01, "betas": (0.8, 0.9)}, "dtype": "float64"},
    "rprop": {"opt": "Rprop", "kw": {}},
    "rprop_all": {
        "opt": "Rprop",
        "kw": {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-4, 0.1), "maximize": True},
    },
    "rprop_f64": {"opt": "Rprop", "kw": {"lr": 0.02}, "dtype": "float64"},
    "asgd": {"opt": "ASGD", "kw": {}},
    "asgd_all": {
        "opt": "ASGD",
        "kw": {"lr": 0.05, "lambd": 0.01, "alpha": 0.6, "t0": 5, "weight_decay": 0.01},
    },
    "asgd_f64": {"opt": "ASGD", "kw": {"lr": 0.03, "t0": 3}, "dtype": "float64"},
    "nadam_groups": {
        "opt": "NAdam",
        "kw": {"lr": 0.01},
        "groups": [[0, 1, 2], [3, 4, 5]],
        "group_kw": [{}, {"lr": 0.02, "betas": (0.5, 0.9)}],
    },
    "sgd_multisteplr": {
        "opt": "SGD",
        "kw": {"lr": 0.1, "momentum": 0.9},
        "sched": ("MultiStepLR", {"milestones": [3, 7, 7, 20], "gamma": 0.5}),
    },
    "sgd_cosine": {
        "opt": "SGD",
        "kw": {"lr": 0.1},
        "sched": ("CosineAnnealingLR", {"T_max": 7, "eta_min": 0.001}),
    },
    "adam_lambdalr": {
        "opt": "Adam",
        "kw": {"lr": 0.03},
        "sched": ("LambdaLR", {"lr_lambda": lambda e: 1.0 / (1 + e) if e > 2 else (e + 1) / 3}),
    },
    "sgd_multiplicative": {
        "opt": "SGD",
        "kw": {"lr": 0.2},
        "sched": ("MultiplicativeLR", {"lr_lambda": lambda e: 0.9 if e % 2 else 0.97}),
    },
    "rmsprop_constantlr": {
        "opt": "RMSprop",
        "kw": {"lr": 0.01},
        "sched": ("ConstantLR", {"factor": 0.3, "total_iters": 6}),
    },
    "adagrad_linearlr": {
        "opt": "Adagrad",
        "kw": {"lr": 0.1},
        "sched": ("LinearLR", {"start_factor": 0.2, "end_factor": 0.9, "total_iters": 11}),
    },
    "sgd_groups_cosine": {
        "opt": "SGD",
        "kw": {"lr": 0.05, "momentum": 0.9},
        "groups": [[0, 1, 2], [3, 4, 5]],
        "group_kw": [{}, {"lr": 0.3}],
        "sched": ("CosineAnnealingLR", {"T_max": 5}),
    },
}


def initial(case: str) -> list[np.ndarray]:
    """The parameters' starting values (various magnitudes, so that roundings vary)."""
    dtype = np.dtype(CASES[case].get("dtype", "float32"))
    rng = np.random.default_rng(abs(hash_name(case)))
    out = []
    for shape in SHAPES:
        v = rng.standard_normal(shape) * 10.0 ** rng.integers(-2, 2, shape)
        out.append(np.asarray(v, dtype))
    return out


def hash_name(name: str) -> int:
    h = 0
    for ch in name.encode():
        h = (h * 131 + ch) % 2**31
    return h


def grad_for(case: str, step: int, i: int, p: np.ndarray) -> np.ndarray | None:
    """The gradient of parameter i at a step: a fixed noise plus a pull of the current value
    (computed in the parameter's dtype by NumPy). None: the parameter gets no gradient."""
    if "groups" in CASES[case] and i == 1 and step % 3 == 2:
        return None
    rng = np.random.default_rng(hash_name(case) * 1000 + step * 10 + i)
    noise = (rng.standard_normal(p.shape) * 0.1).astype(p.dtype)
    pull = (p * p.dtype.type(0.3) - p.dtype.type(0.05)).astype(p.dtype)
    return np.asarray(noise + pull, dtype=p.dtype)


def groups_of(case: str, params: list[Any]) -> list[dict[str, Any]] | list[Any]:
    spec = CASES[case]
    if "groups" not in spec:
        return params
    return [
        {"params": [params[i] for i in idx], **kw}
        for idx, kw in zip(spec["groups"], spec["group_kw"])
    ]


def run_torch(case: str) -> tuple[np.ndarray, ...]:
    import torch

    spec = CASES[case]
    params = [torch.nn.Parameter(torch.from_numpy(v.copy())) for v in initial(case)]
    opt = getattr(torch.optim, spec["opt"])(groups_of(case, params), **spec["kw"])
    sched = None
    if "sched" in spec:
        name, kw = spec["sched"]
        sched = getattr(torch.optim.lr_scheduler, name)(opt, **kw)
    traj: list[list[np.ndarray]] = [[p.detach().numpy().copy()] for p in params]
    lrs = []
    with _noting_sqrt_exceptions():
        for step in range(STEPS):
            for lr_step, new in spec.get("set_lr", {}).items():
                if step == lr_step:
                    for g, lr in zip(opt.param_groups, new):
                        g["lr"] = lr
            opt.zero_grad()
            for i, p in enumerate(params):
                g = grad_for(case, step, i, p.detach().numpy())
                p.grad = None if g is None else torch.from_numpy(g)
            opt.step()
            if sched is not None:
                sched.step()
                lrs.append(sched.get_last_lr())
            for i, p in enumerate(params):
                traj[i].append(p.detach().numpy().copy())
    out = tuple(np.stack(t) for t in traj)
    return out + ((np.array(lrs, np.float64),) if sched is not None else ())


SQRT_EXCEPTIONS: dict[str, dict[int, int]] = {"float32": {}, "float64": {}}


@contextlib.contextmanager
def _noting_sqrt_exceptions() -> Iterator[None]:
    """Every root an optimizer step takes (`t.sqrt()`, `t.sqrt_()`, as PyTorch's optimizers
    write them) is compared with the correctly rounded one; the inputs where they differ go to
    the table."""
    import torch

    real = {name: getattr(torch.Tensor, name) for name in ("sqrt", "sqrt_")}

    def noting(name: str) -> Any:
        def root(t: Any) -> Any:
            v = t.detach().numpy().reshape(-1).copy()
            out = real[name](t)
            got = out.detach().numpy().reshape(-1)
            exact = np.sqrt(v)
            uint = np.uint64 if v.dtype == np.float64 else np.uint32
            table = SQRT_EXCEPTIONS[v.dtype.name]
            differ = got.view(uint) != exact.view(uint)
            for x, r in zip(v[differ].view(uint), got[differ].view(uint)):
                table[int(x)] = int(r)
            return out

        return root

    for name in real:
        setattr(torch.Tensor, name, noting(name))
    try:
        yield
    finally:
        for name, fn in real.items():
            setattr(torch.Tensor, name, fn)


def main() -> None:
    import torch

    assert torch.__version__.startswith("2.13"), torch.__version__
    arrays = {}
    for case in CASES:
        for j, a in enumerate(run_torch(case)):
            arrays[f"{case}/{j}"] = a
    for name, table in SQRT_EXCEPTIONS.items():
        uint = np.uint64 if name == "float64" else np.uint32
        arrays[f"sqrt_exceptions_{name}"] = np.array(sorted(table.items()), uint).reshape(-1, 2)
    np.savez_compressed(HERE / "expected.npz", **arrays)
    print(
        f"recorded {len(CASES)} cases ({torch.__version__}, "
        f"{torch.backends.cpu.get_cpu_capability()})"
    )


if __name__ == "__main__":
    main()
