"""`torch.optim`: SGD, Adam, AdamW and the learning-rate schedulers StepLR, ExponentialLR.

Each `step()` computes what PyTorch's single-tensor implementation (`foreach=False`, the CPU
default) computes, kernel by kernel, in the parameters' dtype: `grad.add(param, alpha=wd)`,
`buf.mul_(momentum).add_(grad, alpha=1 - dampening)`, `exp_avg.lerp_(grad, 1 - beta1)`,
`exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)`, `param.addcdiv_(exp_avg,
denom, value=-step_size)`, with ATen's rounding (`kernels`: fused multiply-adds, Python numbers
rounded to float32 for float32 parameters); the bias corrections are Python floats, as in
PyTorch. So a float32 training loop follows PyTorch's trajectory bit for bit when its gradients
are PyTorch's.

A program reaches an optimizer through `program_attribute` only: its methods (`step`,
`zero_grad`, `add_param_group`, `state_dict`) and `param_groups` / `defaults` / `state`.
`param_groups` is a list of plain dicts, read again at every step, so `opt.param_groups[0]['lr']
= 0.01` changes the next step as in PyTorch; its values are checked when a step uses them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core import hooks
from ..core.dtypes import LEGACY_TYPES
from ..core.inplace import write
from ..core.tensor import Settings, Tensor, enable_grad, typename
from . import kernels as K


def _number(v: Any, what: str, fn: str) -> float:
    """A hyperparameter: a Python number (bool included, as in Python) or a 1-element tensor."""
    if isinstance(v, Tensor):
        if v.data.size != 1:
            raise GradcliError(f"Tensor {what} must be 1-element", found=f"shape {list(v.shape)}")
        return float(v.data.reshape(()))
    if not isinstance(v, (int, float, np.integer, np.floating)):
        raise GradcliError(
            f"{fn}: {what} must be a number, not {typename(v)}",
            found=repr(v) if isinstance(v, str) and len(v) < 40 else typename(v),
            hint=f"e.g. {what}=0.01",
        )
    return float(v) if isinstance(v, (np.integer, np.floating)) else v


def _flag(v: Any, what: str, fn: str) -> bool:
    if isinstance(v, (bool, np.bool_)) or v is None:
        return bool(v)
    if isinstance(v, (int, float)):  # Python's truth, as `if nesterov:` in PyTorch's code
        return bool(v)
    raise GradcliError(f"{fn}: {what} must be True or False, not {typename(v)}")


def _torch_typename(v: Any) -> str:
    if isinstance(v, Tensor):
        return LEGACY_TYPES.get(v.dtype, "torch.Tensor")
    return typename(v)


def _write(p: Tensor, values: np.ndarray) -> None:
    """Update a tensor in place, as PyTorch's step does under no_grad: its storage is written
    (aliases see it) and its version counter goes up, so that a backward pass through a graph
    that saved the old value refuses, in PyTorch's words, instead of using the new one."""
    write(p, values)


def _grad_of(p: Tensor) -> np.ndarray:
    g = p.grad.data
    return g if g.dtype == p.dtype else g.astype(p.dtype)


def _ticking(params: Any) -> Iterator[Any]:
    """The parameters, the clock checked before each one's update: a step costs as much as
    a pass over them, and a list can hold one tensor a million times."""
    for p in params:
        hooks.observer.tick()
        yield p


class Optimizer:
    """`torch.optim.Optimizer`: parameter groups, per-parameter state, zero_grad, repr."""

    PROGRAM_METHODS = ("step", "zero_grad", "add_param_group", "state_dict")
    PROGRAM_DATA = ("param_groups", "defaults", "state")
    DEFAULTS: dict[str, Any] = {}

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.param_groups: list[dict[str, Any]] = []
        self._state: dict[int, dict[str, Any]] = {}
        self._stepped = False  # for the scheduler's "step() before optimizer.step()" warning
        if isinstance(params, Tensor):
            raise GradcliError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_torch_typename(params)}",
                hint="pass a list: [w] or model.parameters()",
            )
        groups = _listed(params, "params argument given to the optimizer")
        if not groups:
            raise GradcliError(
                "optimizer got an empty parameter list",
                hint="pass the tensors to optimise: model.parameters() or [w, b]",
            )
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    @property
    def name(self) -> str:
        return type(self).__name__

    # -- what a program reaches ------------------------------------------------------------
    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_METHODS:
            return getattr(self, attr)
        if attr in self.PROGRAM_DATA:
            return self.state if attr == "state" else getattr(self, attr)
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'", found=f"`.{attr}`")

    @property
    def state(self) -> dict[Tensor, dict[str, Any]]:
        """The per-parameter state, keyed by parameter (as PyTorch's `optimizer.state`:
        `opt.state[w]['momentum_buffer']`; a parameter without state has an empty dict)."""
        out: dict[Any, dict[str, Any]] = _State()
        for group in self.param_groups:
            for p in group["params"]:
                if id(p) in self._state:
                    out[_Key(p)] = self._state[id(p)]
        return out

    # -- parameter groups ------------------------------------------------------------------
    def add_param_group(self, param_group: Any) -> None:
        if not isinstance(param_group, dict):
            raise GradcliError(f"param_group must be a dict, but got {typename(param_group)}")
        if "params" not in param_group:
            raise GradcliError("KeyError: 'params'", hint="a param group is {'params': [w, b]}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            items = [params]
        else:
            items = _listed(params, "params")
        tensors, names = [], []
        for item in items:
            if isinstance(item, tuple) and len(item) == 2:  # model.named_parameters()
                names.append(item[0])
                tensors.append(item[1])
            else:
                tensors.append(item)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise GradcliError(
                    "all optimizer params should be with/without names. Some param names are "
                    "missing"
                )
            param_group["param_names"] = names
        for p in tensors:
            if not isinstance(p, Tensor):
                raise GradcliError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _torch_typename(p)
                )
            if p.node is not None and not p.retains_grad:
                raise GradcliError(
                    "can't optimize a non-leaf Tensor",
                    hint="optimise the leaves (the tensors made with requires_grad=True)",
                )
        for key, default in self.defaults.items():
            param_group.setdefault(key, default)
        ids = [id(p) for p in tensors]
        if len(ids) != len(set(ids)):
            hooks.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information"
            )
        taken: set[int] = set()
        for group in self.param_groups:
            taken.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise GradcliError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {which} to the optimizer"
                )
        if taken & set(ids):
            raise GradcliError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # -- gradients ---------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for p in _ticking(group["params"]):
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    # In place, as PyTorch: a tensor holding the old grad sees the zeros.
                    p.grad.node = None
                    p.grad.requires_grad = False
                    _write(p.grad, 0)

    def step(self, closure: Any = None) -> Any:
        loss = None
        if closure is not None:
            if not callable(closure):
                raise GradcliError(
                    f"step(): the closure must be a function, not {typename(closure)}"
                )
            with enable_grad():
                loss = closure()
        for i, group in enumerate(self.param_groups):
            self._step_group(group, _Hyper(group, f"{self.name}.step() (param_groups[{i}])"))
        self._stepped = True
        return loss

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        raise NotImplementedError

    def _with_grads(self, group: dict[str, Any]) -> Iterator[Tensor]:
        params = group["params"]
        if not isinstance(params, list) or not all(isinstance(p, Tensor) for p in params):
            raise GradcliError(
                f"{self.name}.step(): a param group's 'params' must stay a list of tensors",
                found=typename(params),
            )
        return _ticking([p for p in params if p.grad is not None])

    def state_dict(self) -> dict[str, Any]:
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[k]: v for k, v in self._state.items() if k in index}
        return {"state": state, "param_groups": groups}

    def __repr__(self) -> str:
        text = self.name + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {_shown(group[key])}\n"
        return text + ")"


class _Key:
    """A parameter as a key of `optimizer.state` (tensors hash by identity in PyTorch)."""

    __slots__ = ("t",)

    def __init__(self, t: Tensor) -> None:
        self.t = t

    def __hash__(self) -> int:
        return id(self.t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and other.t is self.t

    def __repr__(self) -> str:
        return repr(self.t)


class _State(dict):
    """`optimizer.state`: a dict keyed by parameters (looked up by identity, as PyTorch's
    tensors hash), which gives `{}` for a parameter without state (PyTorch's is a
    defaultdict(dict))."""

    def __getitem__(self, key: Any) -> Any:
        return super().__getitem__(_Key(key) if isinstance(key, Tensor) else key)

    def __missing__(self, key: Any) -> Any:
        return {}

    def __contains__(self, key: object) -> bool:
        return super().__contains__(_Key(key) if isinstance(key, Tensor) else key)

    def __repr__(self) -> str:
        return "defaultdict(<class 'dict'>, " + _shown(dict(self)) + ")"


def _shown(v: Any) -> str:
    from .printing import format_value

    return format_value(v)


def _listed(v: Any, what: str) -> list[Any]:
    if isinstance(v, (list, tuple)):
        return list(v)
    if isinstance(v, Iterator):  # model.parameters(), a generator expression, iter([...])
        out: list[Any] = []
        for item in v:
            if len(out) >= limits.LIST_ITEMS.value:
                limits.LIST_ITEMS.check(len(out) + 1, f"the number of items in the {what}")
            out.append(item)
        return out
    items = getattr(type(v), "program_items", None)
    if items is not None:
        return list(v.program_items())
    if isinstance(v, dict):
        raise GradcliError(
            f"{what} should be an iterable of Tensors or dicts, but got dict",
            hint="pass a list of dicts: [{'params': [w]}, ...]",
        )
    if isinstance(v, set):
        raise GradcliError(
            "optimizer parameters need to be organized in ordered collections, but the ordering "
            "of tensors in sets will change between runs. Please use a list instead."
        )
    raise GradcliError(
        f"{what} should be an iterable of Tensors or dicts, but got {_torch_typename(v)}",
        hint="pass a list: [w] or model.parameters()",
    )


class _Hyper:
    """A param group's hyperparameters, checked as a step reads them."""

    def __init__(self, group: dict[str, Any], fn: str) -> None:
        self.group, self.fn = group, fn

    def num(self, key: str) -> float:
        if key not in self.group:
            raise GradcliError(f"KeyError: {key!r}", hint=f"the param group lost its {key!r}")
        return _number(self.group[key], key, self.fn)

    def flag(self, key: str) -> bool:
        return _flag(self.group.get(key, False), key, self.fn)

    def pair(self, key: str) -> tuple[float, float]:
        v = self.group.get(key)
        if not isinstance(v, (tuple, list)) or len(v) != 2:
            raise GradcliError(f"{self.fn}: {key} must be a pair of numbers", found=typename(v))
        return _number(v[0], key, self.fn), _number(v[1], key, self.fn)


def _check_lr(lr: Any, fn: str) -> None:
    value = _number(lr, "lr", fn)
    if not 0.0 <= value:
        raise GradcliError(f"Invalid learning rate: {_py(lr)}")


def _py(v: Any) -> str:
    return repr(v.data.reshape(()).item()) if isinstance(v, Tensor) else repr(v)


def _nonnegative(v: Any, what: str, message: str, fn: str) -> None:
    if not 0.0 <= _number(v, what, fn):
        raise GradcliError(f"{message}: {_py(v)}")


# --- SGD -------------------------------------------------------------------------------------


class SGD(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: Any = 1e-3,
        momentum: Any = 0,
        dampening: Any = 0,
        weight_decay: Any = 0,
        nesterov: Any = False,
        *,
        maximize: Any = False,
        foreach: Any = None,
        differentiable: Any = False,
        fused: Any = None,
    ) -> None:
        fn = "SGD()"
        _check_lr(lr, fn)
        _nonnegative(momentum, "momentum", "Invalid momentum value", fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _number(dampening, "dampening", fn)
        _refuse_engines(foreach, differentiable, fused, fn)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if _flag(nesterov, "nesterov", fn) and (
            _number(momentum, "momentum", fn) <= 0 or _number(dampening, "dampening", fn) != 0
        ):
            raise GradcliError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, momentum, dampening = h.num("lr"), h.num("momentum"), h.num("dampening")
        weight_decay = h.num("weight_decay")
        nesterov, maximize = h.flag("nesterov"), h.flag("maximize")
        for p in params:
            grad = _grad_of(p)
            if maximize:
                grad = -grad
            if weight_decay != 0:
                grad = K.add(grad, p.data, weight_decay)
            if momentum != 0:
                state = self._state.setdefault(id(p), {})
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = Tensor(np.array(grad, dtype=p.dtype))
                    state["momentum_buffer"] = buf
                else:
                    _write(buf, K.add(K.mul(buf.data, momentum), grad, 1 - dampening))
                grad = K.add(grad, buf.data, momentum) if nesterov else buf.data
            _write(p, K.add(p.data, grad, -lr))


# --- Adam, AdamW -----------------------------------------------------------------------------


class Adam(Optimizer):
    DECOUPLED = False

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-3,
        betas: Any = (0.9, 0.999),
        eps: Any = 1e-8,
        weight_decay: Any = 0,
        amsgrad: Any = False,
        *,
        foreach: Any = None,
        maximize: Any = False,
        capturable: Any = False,
        differentiable: Any = False,
        fused: Any = None,
        decoupled_weight_decay: Any = False,
    ) -> None:
        fn = f"{type(self).__name__}()"
        _check_lr(lr, fn)
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        if not isinstance(betas, (tuple, list)) or len(betas) != 2:
            raise GradcliError(
                f"{fn}: betas must be a pair of numbers", found=typename(betas), hint="(0.9, 0.999)"
            )
        for i, b in enumerate(betas):
            if not 0.0 <= _number(b, "betas", fn) < 1.0:
                raise GradcliError(f"Invalid beta parameter at index {i}: {_py(b)}")
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        if not (
            all(isinstance(b, float) for b in betas) or all(isinstance(b, Tensor) for b in betas)
        ):
            raise GradcliError(
                "betas must be either both floats or both Tensors",
                hint="write them as floats: betas=(0.9, 0.999)",
            )
        _refuse_engines(foreach, differentiable, fused, fn)
        if capturable:
            raise GradcliError(
                f"{fn}: capturable=True is for CUDA graphs; gradcli runs on the CPU",
                hint="leave capturable out",
            )
        betas = tuple(_number(b, "betas", fn) for b in betas)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": bool(decoupled_weight_decay) or self.DECOUPLED,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, eps, weight_decay = h.num("lr"), h.num("eps"), h.num("weight_decay")
        beta1, beta2 = h.pair("betas")
        amsgrad, maximize = h.flag("amsgrad"), h.flag("maximize")
        decoupled = h.flag("decoupled_weight_decay")
        for p in params:
            grad = _grad_of(p)
            if maximize:
                grad = -grad
            state = self._state.get(id(p))
            if not state:
                # The step count is a tensor of the default float dtype (PyTorch's
                # _get_scalar_dtype), the moments zeros like the parameter.
                state = {
                    "step": Tensor(np.zeros((), Settings.default_dtype)),
                    "exp_avg": Tensor(np.zeros_like(p.data)),
                    "exp_avg_sq": Tensor(np.zeros_like(p.data)),
                }
                if amsgrad:
                    state["max_exp_avg_sq"] = Tensor(np.zeros_like(p.data))
                self._state[id(p)] = state
            step_t = state["step"]
            _write(step_t, step_t.data + step_t.dtype.type(1))  # in place: `step_t += 1`
            if weight_decay != 0:
                if decoupled:
                    _write(p, K.mul(p.data, 1 - lr * weight_decay))
                else:
                    grad = K.add(grad, p.data, weight_decay)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            _write(exp_avg, K.lerp(exp_avg.data, grad, 1 - beta1))
            _write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq.data, beta2), grad, grad, 1 - beta2))
            step = float(step_t.data)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            if bias_correction1 == 0:  # beta1 == 1 put into a param group after the check
                raise GradcliError("float division by zero", hint="betas must be below 1")
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5
            second = exp_avg_sq.data
            if amsgrad:
                if "max_exp_avg_sq" not in state:  # amsgrad switched on after a step
                    state["max_exp_avg_sq"] = Tensor(np.zeros_like(p.data))
                peak = state["max_exp_avg_sq"]
                _write(peak, np.maximum(peak.data, exp_avg_sq.data))
                second = peak.data
            with np.errstate(divide="ignore", invalid="ignore"):
                denom = K.add(K.div(K.sqrt(second), bias_correction2_sqrt), eps)
            _write(p, K.addcdiv(p.data, exp_avg.data, denom, -step_size))


class AdamW(Adam):
    DECOUPLED = True

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-3,
        betas: Any = (0.9, 0.999),
        eps: Any = 1e-8,
        weight_decay: Any = 1e-2,
        amsgrad: Any = False,
        *,
        maximize: Any = False,
        foreach: Any = None,
        capturable: Any = False,
        differentiable: Any = False,
        fused: Any = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )


def _refuse_engines(foreach: Any, differentiable: Any, fused: Any, fn: str) -> None:
    """foreach/fused select other kernels (other roundings) and differentiable a graph through
    the step: gradcli computes the CPU default only, and says so rather than differ silently."""
    for name, v in (("foreach", foreach), ("fused", fused), ("differentiable", differentiable)):
        if v:
            raise GradcliError(
                f"{fn}: {name}=True is not supported by gradcli",
                expected=f"{name}=False or None (PyTorch's default on the CPU)",
                hint=f"leave {name} out: gradcli computes the single-tensor implementation",
            )


# --- learning-rate schedulers ----------------------------------------------------------------


class LRScheduler:
    """`torch.optim.lr_scheduler.LRScheduler`: sets each group's 'lr' at every `step()`."""

    PROGRAM_METHODS = ("step", "get_last_lr", "state_dict")
    PROGRAM_DATA = ("optimizer", "last_epoch", "base_lrs")

    def __init__(self, optimizer: Any, last_epoch: Any = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer")
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise GradcliError(f"last_epoch must be an int, not {typename(last_epoch)}")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise GradcliError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                        "scheduler with last_epoch >= 0.",
                        hint="leave last_epoch out for a fresh run",
                    )
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self._initial = True
        self.step()
        self._initial = False

    @property
    def name(self) -> str:
        return type(self).__name__

    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_METHODS or attr in self.PROGRAM_DATA:
            return getattr(self, attr)
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'", found=f"`.{attr}`")

    def get_last_lr(self) -> list[Any]:
        return list(self._last_lr)

    def _lrs(self) -> list[float]:
        return [
            _number(g.get("lr"), "lr", f"{self.name}.step()") for g in self.optimizer.param_groups
        ]

    def get_lr(self) -> list[Any]:
        raise NotImplementedError

    def step(self, epoch: Any = None) -> None:
        if self._step_count == 1 and not self.optimizer._stepped:
            hooks.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                "1.1.0 and later, you should call them in the opposite order: "
                "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                "result in PyTorch skipping the first value of the learning rate schedule. See "
                "more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
            )
        self._step_count += 1
        if epoch is not None:
            raise GradcliError(
                f"{self.name}.step(epoch) is deprecated in PyTorch and not supported by gradcli",
                hint="call step() once per epoch, without an argument",
            )
        self.last_epoch += 1
        values = self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        return {
            k: v
            for k, v in vars(self).items()
            if k != "optimizer" and not k.startswith("_") or k in ("_step_count", "_last_lr")
        }


class StepLR(LRScheduler):
    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("step_size", "gamma")

    def __init__(self, optimizer: Any, step_size: Any, gamma: Any = 0.1, last_epoch: Any = -1):
        if isinstance(step_size, bool) or not isinstance(step_size, int):
            raise GradcliError(f"StepLR(): step_size must be an int, not {typename(step_size)}")
        if step_size == 0:
            raise GradcliError("integer division or modulo by zero", hint="step_size >= 1")
        self.step_size = step_size
        self.gamma = _number(gamma, "gamma", "StepLR()")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return lrs
        return [lr * self.gamma for lr in lrs]


class ExponentialLR(LRScheduler):
    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("gamma",)

    def __init__(self, optimizer: Any, gamma: Any, last_epoch: Any = -1):
        self.gamma = _number(gamma, "gamma", "ExponentialLR()")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self._initial:
            return lrs
        return [lr * self.gamma for lr in lrs]


def _constructor(cls: type) -> Callable[..., Any]:
    """`optim.SGD(...)` as a program calls it (a program never holds a Python class)."""

    def make(*args: Any, **kwargs: Any) -> Any:
        return cls(*args, **kwargs)

    make.__name__ = cls.__name__
    # The class's own parameters, so that a call that does not fit them is the program's error
    # in Python's words (lang.calls binds the signature before calling).
    make.__signature__ = inspect.signature(cls)  # type: ignore[attr-defined]
    return make


# torch.optim.X and torch.optim.lr_scheduler.X as a program names them.
OPTIMIZERS: dict[str, Callable[..., Any]] = {
    c.__name__: _constructor(c) for c in (SGD, Adam, AdamW)
}
SCHEDULERS: dict[str, Callable[..., Any]] = {
    c.__name__: _constructor(c) for c in (StepLR, ExponentialLR)
}
