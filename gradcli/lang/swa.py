"""torch.optim.swa_utils: stochastic weight averaging as training scripts use it.

`AveragedModel(model)` keeps a deep copy of `model` and a running average of its parameters
(`update_parameters(model)`: the first call copies them, each later one moves the average as
PyTorch's CPU path does, `avg + (p - avg) / (n_averaged + 1)`, operation by operation in the
parameters' dtype); a program's `avg_fn(avg, p, n)` or `multi_avg_fn(avgs, ps, n)` replaces
that rule, and `get_ema_multi_avg_fn(decay)` & co. give PyTorch's. `update_bn(loader, model)`
recomputes BatchNorm statistics in one pass (cumulative averages, momentum None). `SWALR`
anneals each group's learning rate to its `swa_lr` (cosine or linear), as PyTorch's does.
"""

from __future__ import annotations

import math
from typing import Any

from ..base import limits
from ..base.errors import GradcliError
from ..core import dtypes
from ..core.tensor import Tensor, no_grad, typename
from ..surface import names as N
from ..surface import nn as surface_nn
from ..surface import optim as O
from ..surface.layers import _BatchNorm
from .copying import deepcopy
from .values import device_words, iterate


def _fn(name: str) -> Any:
    return N.FUNCTIONS[name]


def _floating(t: Tensor) -> bool:
    return t.dtype.kind in "fc" or t.dtype == N.BF16


def _write(target: Tensor, value: Any) -> None:
    """`target.detach().copy_(value)`: the values written in place (the dtype's cast)."""
    surface_nn.rewrite(target, value.data if isinstance(value, Tensor) else value)


def get_swa_avg_fn() -> Any:
    def swa_update(averaged_param: Any, current_param: Any, num_averaged: Any) -> Any:
        with no_grad():
            diff = _fn("sub")(current_param, averaged_param)
            return _fn("add")(averaged_param, _fn("div")(diff, _plus_one(num_averaged)))

    return swa_update


def _plus_one(n: Any) -> Any:
    return _fn("add")(n, 1) if isinstance(n, Tensor) else n + 1


def _decay(decay: Any) -> float:
    if isinstance(decay, bool) or not isinstance(decay, (int, float)):
        raise GradcliError(
            f"decay must be a number, not {typename(decay)}", hint="e.g. decay=0.999"
        ).mirror("TypeError")
    if decay < 0.0 or decay > 1.0:
        raise GradcliError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        ).mirror("ValueError")
    return float(decay)


def get_ema_avg_fn(decay: Any = 0.999) -> Any:
    d = _decay(decay)

    def ema_update(ema_param: Any, current_param: Any, num_averaged: Any) -> Any:
        with no_grad():
            return _fn("add")(_fn("mul")(ema_param, d), _fn("mul")(current_param, 1 - d))

    return ema_update


def get_ema_multi_avg_fn(decay: Any = 0.999) -> Any:
    d = _decay(decay)

    def ema_update(ema_param_list: Any, current_param_list: Any, _: Any) -> None:
        with no_grad():
            for p_ema, p_model in zip(ema_param_list, current_param_list):
                limits.BUDGET.tick()
                if _floating(p_ema):  # (PyTorch's _foreach_lerp_: lerp_ of each)
                    _write(p_ema, _fn("lerp")(p_ema, p_model, 1 - d))
                else:
                    mixed = _fn("add")(_fn("mul")(p_ema, d), _fn("mul")(p_model, 1 - d))
                    _write(p_ema, mixed)

    return ema_update


def get_swa_multi_avg_fn() -> Any:
    def swa_update(averaged_param_list: Any, current_param_list: Any, num_averaged: Any) -> None:
        with no_grad():
            for p_avg, p_model in zip(averaged_param_list, current_param_list):
                limits.BUDGET.tick()
                if _floating(p_avg):
                    n = num_averaged.item() if isinstance(num_averaged, Tensor) else num_averaged
                    _write(p_avg, _fn("lerp")(p_avg, p_model, 1 / (n + 1)))
                else:
                    diff = _fn("sub")(p_model, p_avg)
                    _write(p_avg, _fn("add")(p_avg, _fn("div")(diff, _plus_one(num_averaged))))

    return swa_update


class AveragedModel(surface_nn.Module):
    """torch.optim.swa_utils.AveragedModel: a deep copy of a model whose parameters (and
    buffers, with use_buffers=True) are a running average of the model's."""

    METHODS = surface_nn.Module.METHODS + ("update_parameters",)
    ATTRIBUTES = surface_nn.Module.ATTRIBUTES + ("avg_fn", "multi_avg_fn", "use_buffers")

    def __init__(
        self,
        model: Any,
        device: Any = None,
        avg_fn: Any = None,
        multi_avg_fn: Any = None,
        use_buffers: Any = False,
    ) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise GradcliError("Only one of avg_fn and multi_avg_fn should be provided").mirror(
                "AssertionError"
            )
        if not isinstance(model, surface_nn.Module):
            raise GradcliError(
                f"AveragedModel(): model must be an nn.Module, not {typename(model)}",
                hint="pass the model being trained",
            ).mirror("TypeError")
        for f in (avg_fn, multi_avg_fn):
            if f is not None and not callable(f):
                raise GradcliError(f"'{typename(f)}' object is not callable").mirror("TypeError")
        error = device_words("tensor", device)  # (its `torch.tensor(0, device=device)`)
        copy = deepcopy(model)
        if device is not None:  # (PyTorch's `self.module.to(device)`: its checks and errors)
            copy = copy.to(device)
        if error is not None:
            raise error
        self.add_module("module", copy)
        n_averaged = N.FUNCTIONS["tensor"](0, dtype=dtypes.BY_NAME["long"], device=device)
        self.register_buffer("n_averaged", n_averaged)
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = bool(use_buffers)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._modules["module"](*args, **kwargs)

    def update_parameters(self, model: Any) -> None:
        if not isinstance(model, surface_nn.Module):
            raise GradcliError(
                f"'{typename(model)}' object has no attribute 'parameters'",
                hint="pass the model being trained",
            ).mirror("AttributeError")
        module = self._modules["module"]
        if self.use_buffers:
            mine = [*module.parameters(), *module.buffers()]
            theirs = [*model.parameters(), *model.buffers()]
        else:
            mine, theirs = list(self.parameters()), list(model.parameters())
        pairs = list(zip(mine, theirs))
        n = self._buffers["n_averaged"]
        first = int(n.data) == 0
        with no_grad():
            avg_detached = [p.detach() for p, _ in pairs]
            model_detached = [q.detach() for _, q in pairs]
            if first:
                for p, q in pairs:
                    limits.BUDGET.tick()
                    _write(p, q.data)
            else:
                if self.multi_avg_fn is not None:
                    self.multi_avg_fn(avg_detached, model_detached, n)
                else:
                    rule = self.avg_fn or get_swa_avg_fn()
                    for p, a, q in zip((p for p, _ in pairs), avg_detached, model_detached):
                        limits.BUDGET.tick()
                        out = rule(a, q, n)
                        if not isinstance(out, Tensor):
                            raise GradcliError(
                                f"copy_(): argument 'src' (position 1) must be Tensor, not "
                                f"{typename(out)}",
                                hint="avg_fn(averaged, current, n) must return a tensor",
                            ).mirror("TypeError")
                        _write(p, out)
            if not self.use_buffers:
                mine_b, theirs_b = module.buffers(), model.buffers()
                if len(mine_b) != len(theirs_b):  # (PyTorch's zip(..., strict=True))
                    which = "shorter" if len(theirs_b) < len(mine_b) else "longer"
                    raise GradcliError(
                        f"zip() argument 2 is {which} than argument 1",
                        hint="update_parameters(model) takes the model the copy was made of",
                    ).mirror("ValueError")
                for b_swa, b_model in zip(mine_b, theirs_b):
                    _write(b_swa, b_model.data)
            _write(n, n.data + 1)


def update_bn(loader: Any, model: Any, device: Any = None) -> None:
    """BatchNorm's running statistics recomputed over one pass of `loader` (each batch a
    tensor, or a list/tuple whose first element is the input), as cumulative averages."""
    if not isinstance(model, surface_nn.Module):
        raise GradcliError(
            f"update_bn(): model must be an nn.Module, not {typename(model)}",
            hint="update_bn(loader, swa_model)",
        ).mirror("TypeError")
    momenta = {}
    for m in model.modules():
        if isinstance(m, _BatchNorm):
            m.reset_running_stats()
            momenta[m] = m.momentum
    if not momenta:
        return
    was_training = model.training
    with no_grad():
        model.train()
        for m in momenta:
            m.momentum = None
        for batch in iterate(loader, "update_bn()"):
            limits.BUDGET.tick()
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            model(batch)
        for m, momentum in momenta.items():
            m.momentum = momentum
        model.train(was_training)


class SWALR(O.LRScheduler):
    """Each group's lr annealed from its current value to its `swa_lr` over anneal_epochs
    steps (cosine or linear), then held there."""

    PROGRAM_DATA = O.LRScheduler.PROGRAM_DATA + ("anneal_epochs",)
    OWN = ("anneal_epochs",)

    @staticmethod
    def program_class(v: Any) -> str:
        return "torch.optim.swa_utils.SWALR"

    def __init__(
        self,
        optimizer: Any,
        swa_lr: Any,
        anneal_epochs: Any = 10,
        anneal_strategy: Any = "cos",
        last_epoch: Any = -1,
    ) -> None:
        if not isinstance(optimizer, O.Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
        groups = optimizer.param_groups
        if isinstance(swa_lr, (list, tuple)):
            if len(swa_lr) != len(groups):
                raise GradcliError(
                    f"swa_lr must have the same length as optimizer.param_groups. swa_lr has "
                    f"{len(swa_lr)} values, param_groups has {len(groups)}."
                ).mirror("ValueError")
            lrs = list(swa_lr)
        else:
            lrs = [swa_lr] * len(groups)
        lrs = [O._number(v, "swa_lr", "SWALR()") for v in lrs]
        if anneal_strategy not in ("cos", "linear"):
            raise GradcliError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            ).mirror("ValueError")
        if (
            isinstance(anneal_epochs, bool)
            or not isinstance(anneal_epochs, int)
            or (anneal_epochs < 0)
        ):
            raise GradcliError(
                f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}"
            ).mirror("ValueError")
        for lr, group in zip(lrs, groups):
            group["swa_lr"] = lr
        self._anneal_strategy = anneal_strategy
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def _anneal(self, t: float) -> float:
        return t if self._anneal_strategy == "linear" else (1 - math.cos(math.pi * t)) / 2

    def get_lr(self) -> list[Any]:
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self._anneal(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        groups = self.optimizer.param_groups
        prev = []
        for g in groups:
            lr = O._number(g["lr"], "lr", "SWALR.step()")
            prev.append(
                g["swa_lr"]
                if prev_alpha == 1
                else (lr - prev_alpha * g["swa_lr"]) / (1 - prev_alpha)
            )
        alpha = self._anneal(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev)]


def _constructor(cls: type) -> Any:
    def make(*args: Any, **kwargs: Any) -> Any:
        return cls(*args, **kwargs)

    make.__name__ = cls.__name__
    make.made_class = cls  # type: ignore[attr-defined]
    make.__wrapped__ = cls  # type: ignore[attr-defined]
    return make


def members() -> dict[str, Any]:
    """torch.optim.swa_utils as a program names it."""
    return {
        "AveragedModel": _constructor(AveragedModel),
        "SWALR": _constructor(SWALR),
        "update_bn": update_bn,
        "get_ema_multi_avg_fn": get_ema_multi_avg_fn,
        "get_swa_multi_avg_fn": get_swa_multi_avg_fn,
        "get_ema_avg_fn": get_ema_avg_fn,
        "get_swa_avg_fn": get_swa_avg_fn,
    }
