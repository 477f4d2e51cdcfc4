"""`torch.optim`: SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam, Rprop,
ASGD, LBFGS and the learning-rate schedulers (StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR,
LambdaLR, MultiplicativeLR, ConstantLR, LinearLR, PolynomialLR, OneCycleLR, ReduceLROnPlateau,
CosineAnnealingWarmRestarts, CyclicLR, SequentialLR, ChainedScheduler).

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
import math
from collections.abc import Callable, Iterator, ValuesView
from fractions import Fraction
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import dtypes, hooks
from ..core.dtypes import LEGACY_TYPES
from ..core.inplace import check_capture, write
from ..core.op import complex_refusal
from ..core.sparse import SparseCOO, add_rows
from ..core.sparse import add as sparse_add
from ..core.tensor import (
    HookHandle,
    Settings,
    Tensor,
    bumped,
    enable_grad,
    own,
    pytype_name,
    typename,
)
from . import kernels as K


def _number(v: Any, what: str, fn: str, keep: bool = False) -> float:
    """A hyperparameter: a Python number (bool included, as in Python) or a 1-element tensor.
    `keep`: a NumPy scalar stays one (a scheduler's rates and factors: PyTorch's Python
    arithmetic keeps np.float64, which prints as such in get_last_lr())."""
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
    if keep:
        return v
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


def _write(p: Tensor, values: np.ndarray, op: str = "aten::add_.Tensor") -> None:
    """Update a tensor in place, as PyTorch's step does under no_grad: its storage is written
    (aliases see it) and its version counter goes up, so that a backward pass through a graph
    that saved the old value refuses, in PyTorch's words, instead of using the new one.
    (`op`: the ATen name of PyTorch's first change in place of that tensor, which a torch.func
    transform refuses on a tensor it captured.)"""
    check_capture(p, op)
    write(p, values)


def _as_real(a: np.ndarray) -> np.ndarray:
    """A complex array's real view (`torch.view_as_real`): its storage as pairs of reals."""
    return np.ascontiguousarray(a).view(a.real.dtype).reshape(*a.shape, 2)


def _as_complex(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The complex array whose real view is `a` (its storage, where it can)."""
    a = np.ascontiguousarray(a, dtype=np.dtype(dtype).type(0).real.dtype)
    return a.view(dtype).reshape(a.shape[:-1])


def _grad_of(p: Tensor) -> np.ndarray:
    g = p.grad.data
    return g if g.dtype == p.dtype else g.astype(p.dtype)


def _ticking(params: Any) -> Iterator[Any]:
    """The parameters, the clock checked before each one's update: a step costs as much as
    a pass over them, and a list can hold one tensor a million times."""
    for p in params:
        hooks.observer.tick()
        yield p


class _Required:
    """`torch.optim.optimizer.required`: the default of a hyperparameter every param group
    must give (`def __init__(self, params, lr=required)`, as older optimizer code writes)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<required parameter>"

    def program_typename(self) -> str:
        return "_RequiredParameter"


REQUIRED = _Required()


# torch.optim's optimizers whose step a program reads as a value (`print(opt.step)`), by the
# class that defines it in PyTorch 2.13 (AdamW's is Adam's) -> that step's function (made once
# a class: two reads of `opt.step` are equal, as Python's bound methods)
_STEPS: dict[str, Any] = dict.fromkeys(
    "ASGD Adadelta Adafactor Adagrad Adam AdamW Adamax LBFGS Muon NAdam RAdam RMSprop Rprop SGD "
    "SparseAdam".split()
)


def _pytorchs_step(opt: Any) -> Any:
    """`opt.step` of one of torch.optim's optimizers as PyTorch's bound method: shown under its
    qualified name (`<bound method SGD.step of SGD (...)>`), a call that does not fit
    `step(self, closure=None)` (LBFGS: closure required) in Python's words."""
    import types

    name = type(opt).__name__
    fn = _STEPS.get(name)
    if fn is None:
        from .callerrors import python_call_error

        owner = "Adam" if name == "AdamW" else name
        params = [("self", "PK", False), ("closure", "PK", name != "LBFGS")]

        def step(self: Any, *args: Any, **kwargs: Any) -> Any:
            words = python_call_error(f"{owner}.step", params, len(args) + 1, list(kwargs))
            if words is not None:
                raise GradcliError(words).mirror("TypeError")
            return type(self).step(self, *args, **kwargs)

        step.__qualname__ = f"{owner}.step"
        fn = _STEPS[name] = step
    return types.MethodType(fn, opt)


class Optimizer:
    """`torch.optim.Optimizer`: parameter groups, per-parameter state, zero_grad, repr."""

    PROGRAM_METHODS = (
        "step",
        "zero_grad",
        "add_param_group",
        "state_dict",
        "load_state_dict",
        "register_step_pre_hook",
        "register_step_post_hook",
        "register_state_dict_pre_hook",
        "register_state_dict_post_hook",
        "register_load_state_dict_pre_hook",
        "register_load_state_dict_post_hook",
    )
    # `torch.optim.Optimizer` as a program names it: a base for the program's own optimizers
    # (`class MySGD(torch.optim.Optimizer)`), and constructed directly as PyTorch allows
    PROGRAM_BASE = "optimizer"
    PROGRAM_DATA = ("param_groups", "defaults", "state")
    DEFAULTS: dict[str, Any] = {}

    @staticmethod
    def program_class(v: Any) -> str:
        """The class as PyTorch names it (`type(opt)`): each optimizer in its own file,
        `torch.optim.sgd.SGD`, `torch.optim.adamw.AdamW`, `torch.optim.optimizer.Optimizer`."""
        name = type(v).__name__
        return f"torch.optim.{name.lower()}.{name}"

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.param_groups: list[dict[str, Any]] = []
        # The per-parameter state, keyed by parameter (tensors hash by identity, as in
        # PyTorch), reading a parameter without state makes its empty dict (a defaultdict).
        self._state: _State = _State()
        # For the scheduler's "step() before optimizer.step()" warning: PyTorch's first
        # scheduler wraps the optimizer's step, and only steps through that wrapper count
        # (steps taken before any scheduler was made do not).
        self._watched = False
        self._stepped = False
        if isinstance(params, Tensor):
            raise GradcliError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {_torch_typename(params)}",
                hint="pass a list: [w] or model.parameters()",
            ).mirror("TypeError")
        groups = _listed(params, "params argument given to the optimizer")
        if not groups:
            raise GradcliError(
                "optimizer got an empty parameter list",
                hint="pass the tensors to optimise: model.parameters() or [w, b]",
            ).mirror("ValueError")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    @property
    def name(self) -> str:
        return type(self).__name__

    # -- what a program reaches ------------------------------------------------------------
    def program_attribute(self, attr: str) -> Any:
        if attr == "step" and self.step_hooked():
            return self.hooked_step(type(self).step)
        if attr == "step" and type(self).__name__ in _STEPS:
            return _pytorchs_step(self)
        if attr in self.PROGRAM_METHODS:
            return getattr(self, attr)
        if attr in self.PROGRAM_DATA:
            return self.state if attr == "state" else getattr(self, attr)
        own = getattr(self, "_program_attrs", None)
        if own is not None and attr in own:
            return own[attr]
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'", found=f"`.{attr}`")

    def program_set(self, attr: str, value: Any) -> None:
        """Assigning an attribute of torch's own optimizer, a Python attribute in PyTorch:
        `base.param_groups = self.param_groups` (SAM's wrapper shares its groups),
        `opt.state = collections.defaultdict(dict)` (a reset of the moments), `opt.defaults`,
        read again at the next step; any other name is kept for the program to read back
        (`opt.lr = 0.1` changes no step, as in PyTorch)."""
        if attr == "param_groups":
            self.param_groups = assigned_groups(value)
        elif attr == "state":
            self._state = assigned_state(value)
        elif attr == "defaults":
            if not isinstance(value, dict):
                raise NotSupported(
                    f"assigning an optimizer's `defaults` a {typename(value)} is not supported: "
                    "it is a dict",
                    hint="change an entry: opt.defaults['lr'] = 0.01",
                )
            self.defaults = value
        elif attr in self.PROGRAM_METHODS:
            raise NotSupported(
                f"replacing the method `{attr}` of a {self.name} is not supported",
                hint=f"subclass it: class My{self.name}(torch.optim.{self.name}) with your own "
                f"def {attr}(self, ...)",
            )
        else:
            own = getattr(self, "_program_attrs", None)
            if own is None:
                own = self._program_attrs = {}
            limits.LIST_ITEMS.check(len(own) + 1, f"the number of attributes set on a {self.name}")
            own[attr] = value

    @property
    def state(self) -> _State:
        """The per-parameter state, as PyTorch's `optimizer.state` (`opt.state[w]
        ['momentum_buffer']`; `opt.state[w]` of a parameter without state makes its `{}`)."""
        return self._state

    # -- hooks (PyTorch's `_optimizer_step_pre_hooks` and the others) -------------------------
    def _hooks(self, kind: str) -> list[Any]:
        table = self.__dict__.get("_hook_table")
        if table is None:
            table = self.__dict__["_hook_table"] = {}
        return table.setdefault(kind, [])

    def _register(self, kind: str, hook: Any, prepend: Any = False) -> HookHandle:
        hook = hooks.as_callable(hook)
        if not callable(hook):
            raise GradcliError(f"'{pytype_name(hook)}' object is not callable").mirror("TypeError")
        entries = self._hooks(kind)
        limits.LIST_ITEMS.check(len(entries) + 1, f"the number of a {self.name}'s {kind} hooks")
        # its own one-item list: the handle removes this registration, not another of the
        # same function
        entry = [hook]
        entries.insert(0, entry) if prepend else entries.append(entry)
        return HookHandle(entries, entry)

    def register_step_pre_hook(self, hook: Any) -> HookHandle:
        """`hook(optimizer, args, kwargs)` before each step (args: the optimizer first, as
        PyTorch's wrapper of `step` sees them); None, or a new (args, kwargs) pair."""
        return self._register("step_pre", hook)

    def register_step_post_hook(self, hook: Any) -> HookHandle:
        """`hook(optimizer, args, kwargs)` after each step."""
        return self._register("step_post", hook)

    def register_state_dict_pre_hook(self, hook: Any, prepend: Any = False) -> HookHandle:
        """`hook(optimizer)` before state_dict() packs the state."""
        return self._register("state_dict_pre", hook, prepend)

    def register_state_dict_post_hook(self, hook: Any, prepend: Any = False) -> HookHandle:
        """`hook(optimizer, state_dict)` after: a value it returns replaces the dict."""
        return self._register("state_dict_post", hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Any, prepend: Any = False) -> HookHandle:
        """`hook(optimizer, state_dict)` before loading (a shallow copy of the given dict): a
        value it returns is loaded instead."""
        return self._register("load_state_dict_pre", hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Any, prepend: Any = False) -> HookHandle:
        """`hook(optimizer)` after loading."""
        return self._register("load_state_dict_post", hook, prepend)

    def _run_hooks(self, kind: str, *args: Any) -> list[Any]:
        """Each hook of `kind` called with `args` in order (a copy of the table: a hook that
        removes itself does not skip the next); what they return."""
        table = self.__dict__.get("_hook_table")
        if not table or not table.get(kind):
            return []
        return [entry[0](*args) for entry in list(table[kind])]

    def step_hooked(self) -> bool:
        table = self.__dict__.get("_hook_table")
        return bool(table and (table.get("step_pre") or table.get("step_post")))

    def hooked_step(self, step: Any) -> Any:
        """`step` (called with the optimizer first) as PyTorch's patched step runs it: the
        step pre-hooks, which may replace the arguments, then the step, then the post-hooks."""

        def call(*given: Any, **kwargs: Any) -> Any:
            args: Any = (self, *given)
            for entry in list(self._hooks("step_pre")):
                result = entry[0](self, args, kwargs)
                if result is None:
                    continue
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise GradcliError(
                        f"<function {self.name}.step at {id(step):#x}> must return None or a "
                        f"tuple of (new_args, new_kwargs), but got {result}.",
                        hint="return None, or (args, kwargs) with the optimizer first in args",
                    ).mirror("RuntimeError")
                args, kwargs = result
                if (
                    not isinstance(args, (tuple, list))
                    or not args
                    or args[0] is not self
                    or not isinstance(kwargs, dict)
                ):
                    raise NotSupported(
                        "a step pre-hook's new (args, kwargs) other than a tuple starting with "
                        "the optimizer and a dict is not supported",
                        hint="return (args, kwargs) as the hook was given them: args[0] is the "
                        "optimizer",
                    )
            out = step(*args, **kwargs)
            for entry in list(self._hooks("step_post")):
                entry[0](self, args, kwargs)
            return out

        return call

    # -- parameter groups ------------------------------------------------------------------
    def add_param_group(self, param_group: Any) -> None:
        if not isinstance(param_group, dict):
            raise GradcliError(
                f"param_group must be a dict, but got <class '{typename(param_group)}'>"
            ).mirror("TypeError")
        if "params" not in param_group:
            raise GradcliError("params", hint="a param group is {'params': [w, b]}").mirror(
                "KeyError"
            )
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
                ).mirror("TypeError")
            if p.node is not None and not p.retains_grad:
                raise GradcliError(
                    "can't optimize a non-leaf Tensor",
                    hint="optimise the leaves (the tensors made with requires_grad=True)",
                ).mirror("ValueError")
        for key, default in self.defaults.items():
            if default is REQUIRED and key not in param_group:
                raise GradcliError(
                    "parameter group didn't specify a value of required optimization parameter "
                    f"{key}",
                    hint=f"give it: {key}=... (in the optimizer's call or the group's dict)",
                ).mirror("ValueError")
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
            raise GradcliError("some parameters appear in more than one parameter group").mirror(
                "ValueError"
            )
        self.param_groups.append(param_group)

    # -- gradients ---------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for p in _ticking(group["params"]):
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                elif type(p.grad) is SparseCOO:
                    p.grad.clear()  # (zero_() of a sparse tensor: no entries left)
                else:
                    # In place, as PyTorch: a tensor holding the old grad sees the zeros.
                    p.grad.node = None
                    p.grad.requires_grad = False
                    _write(p.grad, 0)

    def step(self, closure: Any = None) -> Any:
        if type(self)._step_group is Optimizer._step_group:  # torch.optim.Optimizer's own
            raise GradcliError(
                "Optimizer.step() is not implemented: torch.optim.Optimizer is a base class",
                hint="define step(self, closure=None) in a subclass of it",
            ).mirror("NotImplementedError")
        if self.READS_DIFFERENTIABLE and "differentiable" not in self.defaults:
            # PyTorch's step first sets grad mode from defaults['differentiable'] (a program
            # may have assigned its own `opt.defaults`)
            raise GradcliError(
                "differentiable", hint="keep the optimizer's defaults: opt.defaults['lr'] = ..."
            ).mirror("KeyError")
        loss = None
        if closure is not None:
            if not callable(closure):
                raise GradcliError(
                    f"step(): the closure must be a function, not {typename(closure)}"
                )
            with enable_grad():
                loss = closure()
        for i, group in enumerate(self.param_groups):
            h = _Hyper(group, f"{self.name}.step() (param_groups[{i}])")
            params = group["params"]
            if isinstance(params, list) and any(
                isinstance(p, Tensor) and p.data.dtype.kind == "c" and p.grad is not None
                for p in params
            ):
                self._complex_step(group, h)
            else:
                self._step_group(group, h)
        self._stepped = self._stepped or self._watched
        return loss

    # The optimizers whose step on a complex parameter is the step on its real view (PyTorch's
    # `torch.view_as_real` of the parameter, its gradient and its state; SGD's complex
    # arithmetic by real numbers is the same sums on each part).
    COMPLEX_AS_REAL = False

    def _complex_step(self, group: dict[str, Any], h: _Hyper) -> None:
        """A step on a group with complex parameters, as PyTorch's: each complex parameter,
        its gradient and its state tensors stepped as their real views (pairs of real
        numbers, last axis 2); the state stays complex tensors keyed by the parameter."""
        if not self.COMPLEX_AS_REAL:
            raise complex_refusal(f"torch.optim.{self.name}.step()")
        proxies: list[tuple[Tensor, Tensor, int]] = []
        params = []
        for p in group["params"]:
            if not (isinstance(p, Tensor) and p.data.dtype.kind == "c" and p.grad is not None):
                params.append(p)
                continue
            if type(p.grad) is SparseCOO:
                raise complex_refusal(f"torch.optim.{self.name}.step() of a sparse gradient")
            own(p)
            proxy = Tensor(_as_real(p.data))
            grad = p.grad.data
            proxy.grad = Tensor(_as_real(np.ascontiguousarray(grad)))
            state = self._state.get(p)
            if state:
                self._state[proxy] = {
                    k: Tensor(_as_real(v.data))
                    if isinstance(v, Tensor) and v.data.dtype.kind == "c"
                    else v
                    for k, v in state.items()
                }
            proxies.append((p, proxy, proxy._vc[0] if proxy._vc else 0))
            params.append(proxy)
        try:
            self._step_group({**group, "params": params}, h)
        finally:
            for p, proxy, start in proxies:
                made = self._state.pop(proxy, None)
                if made is not None:
                    self._state[p] = {
                        k: Tensor(_as_complex(v.data, p.data.dtype))
                        if isinstance(v, Tensor)
                        and v.data.shape == proxy.data.shape
                        and v.data.dtype.kind == "f"
                        else v
                        for k, v in made.items()
                    }
                for _ in range((proxy._vc[0] if proxy._vc else 0) - start):
                    bumped(p)  # (the writes through its real view count on the parameter)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        raise NotImplementedError

    # PyTorch's step reads `self.defaults['differentiable']` first (`_use_grad_for_
    # differentiable`); Adafactor's and SparseAdam's are plain `torch.no_grad()` steps
    READS_DIFFERENTIABLE = True

    # Whether the step on bfloat16 parameters is PyTorch's to the bit (measured, 2.13: its
    # array arithmetic, `kernels`, rounds to bfloat16 at each of PyTorch's ops)
    BF16_EXACT = False

    def _with_grads(self, group: dict[str, Any]) -> Iterator[Tensor]:
        params = group["params"]
        if not isinstance(params, list) or not all(isinstance(p, Tensor) for p in params):
            raise GradcliError(
                f"{self.name}.step(): a param group's 'params' must stay a list of tensors",
                found=typename(params),
            )
        if not self.BF16_EXACT and any(p.dtype == dtypes.BF16 for p in params):
            raise NotSupported(
                f"{self.name}.step() on bfloat16 parameters is not supported by gradcli (its "
                "steps are PyTorch's to the bit in bfloat16 for SGD, Adam, AdamW, RMSprop, "
                "Adagrad, Adamax, NAdam, RAdam and ASGD only)",
                hint="keep the parameters in float32: model.float()",
            )
        with_grads = [p for p in params if p.grad is not None]
        if not self.SPARSE_GRADS:
            for p in with_grads:
                if type(p.grad) is SparseCOO:
                    raise self._sparse_refused()
        return _ticking(with_grads)

    # Whether the step takes sparse gradients (an embedding's, sparse=True): SGD and
    # SparseAdam do; the others refuse them in PyTorch's words (`SPARSE_WORDS`), or plainly
    # where PyTorch takes them and gradcli does not (Adagrad, LBFGS).
    SPARSE_GRADS = False
    SPARSE_WORDS: str | None = "{} does not support sparse gradients"

    def _sparse_refused(self) -> GradcliError:
        if self.SPARSE_WORDS is None:
            return NotSupported(
                f"{self.name}.step() with sparse gradients (an embedding's, sparse=True) is not "
                "supported by gradcli (SGD and SparseAdam are)",
                hint="write sparse=False for a dense gradient, or use SGD or SparseAdam",
            )
        return GradcliError(
            self.SPARSE_WORDS.format(self.name),
            hint="write sparse=False for a dense gradient, or use SGD or SparseAdam",
        ).pytorch()

    def state_dict(self) -> dict[str, Any]:
        self._run_hooks("state_dict_pre", self)
        made = self._packed_state()
        for entry in list(self._hooks("state_dict_post")):
            result = entry[0](self, made)
            if result is not None:
                made = result
        return made

    def _packed_state(self) -> dict[str, Any]:
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        # (a key that is no parameter stays itself, as PyTorch packs it: the program's own
        # `self.state = dict()` may hold one)
        state = {
            (index[id(k)] if isinstance(k, Tensor) else k): v
            for k, v in self._state.items()
            if id(k) in index or not isinstance(k, Tensor)
        }
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: Any) -> None:
        """As PyTorch's: the saved groups replace the hyperparameters of the groups, in order
        (each keeps its own parameters); the saved state goes to the parameters in the order
        `state_dict()` numbered them, its tensors copied (in the parameter's dtype, but
        'step'); the load hooks before and after."""
        if isinstance(state_dict, dict):
            state_dict = dict(state_dict)  # (PyTorch's shallow copy, which the hooks see)
        for entry in list(self._hooks("load_state_dict_pre")):
            result = entry[0](self, state_dict)
            if result is not None:
                state_dict = result
        self._load_packed(state_dict)
        self._run_hooks("load_state_dict_post", self)

    def _load_packed(self, state_dict: Any) -> None:
        if not isinstance(state_dict, dict) or not {"state", "param_groups"} <= set(state_dict):
            raise GradcliError(
                f"{self.name}.load_state_dict() expects a dict with 'state' and 'param_groups', "
                "as optimizer.state_dict() makes",
                found=typename(state_dict),
            ).mirror("TypeError")
        saved = state_dict["param_groups"]
        if not isinstance(saved, (list, tuple)) or len(saved) != len(self.param_groups):
            raise GradcliError(
                "loaded state dict has a different number of parameter groups"
            ).mirror("ValueError")
        for group, new in zip(self.param_groups, saved):
            if not isinstance(new, dict) or not isinstance(new.get("params"), list):
                raise GradcliError(
                    "a saved parameter group must be a dict with a 'params' list"
                ).mirror("TypeError")
            if len(new["params"]) != len(group["params"]):
                raise GradcliError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                ).mirror("ValueError")
        by_index = {}
        for new, group in zip(saved, self.param_groups):
            for i, p in zip(new["params"], group["params"]):
                by_index[i] = p
        state = _State()
        saved_state = state_dict["state"]
        if not isinstance(saved_state, dict):
            raise GradcliError("the saved 'state' must be a dict").mirror("TypeError")
        for i, values in saved_state.items():
            p = by_index.get(i)
            if p is None:
                continue
            if not isinstance(values, dict):
                raise GradcliError("a saved parameter state must be a dict").mirror("TypeError")
            state[p] = {k: _loaded_state_value(k, v, p) for k, v in values.items()}
        groups = [
            {**{k: v for k, v in new.items() if k != "params"}, "params": group["params"]}
            for group, new in zip(self.param_groups, saved)
        ]
        self._set_loaded(state, groups)

    def _set_loaded(self, state: Any, groups: list[dict[str, Any]]) -> None:
        """The loaded state and groups take the place of the optimizer's (what PyTorch's
        `__setstate__` does, which a program's own optimizer may define)."""
        if not isinstance(groups, list):
            raise GradcliError(
                f"an optimizer's param_groups must be a list, not {typename(groups)}"
            ).mirror("TypeError")
        self.param_groups[:] = groups
        if not isinstance(state, _State):
            state = _State(state)
        self._state = state

    def __repr__(self) -> str:
        text = self.name + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {_shown(group[key])}\n"
        return text + ")"


def assigned_groups(value: Any) -> list[dict[str, Any]]:
    """What `opt.param_groups = value` may hold: a list (its groups' contents are checked when a
    step reads them, as they are after `opt.param_groups[0]['lr'] = ...`)."""
    if not isinstance(value, list):
        raise NotSupported(
            f"assigning an optimizer's `param_groups` a {typename(value)} is not supported: it "
            "is a list of dicts",
            hint="opt.param_groups = other.param_groups, or change a group: "
            "opt.param_groups[0]['lr'] = 0.01",
        )
    return value


def assigned_state(value: Any) -> dict[Any, Any]:
    """What `opt.state = value` may hold: a dict (`dict()`, `collections.defaultdict(dict)`),
    keyed by the parameters as the steps fill it."""
    if not isinstance(value, dict):
        raise NotSupported(
            f"assigning an optimizer's `state` a {typename(value)} is not supported: it is a dict",
            hint="opt.state = collections.defaultdict(dict), or change its entries: "
            "opt.state[p]['name'] = v",
        )
    return value


def _loaded_state_value(key: str, v: Any, p: Tensor) -> Any:
    """A saved state value as PyTorch's load_state_dict takes it: a tensor as it is ('step',
    and a tensor already of a float parameter's dtype: `.to()` makes no copy, so the two
    optimizers share it), else converted to the parameter's dtype; lists and dicts rebuilt
    around their values."""
    if isinstance(v, (list, tuple)):
        return type(v)(_loaded_state_value(key, item, p) for item in v)
    if isinstance(v, dict):
        return {k: _loaded_state_value(k, item, p) for k, item in v.items()}
    if not isinstance(v, Tensor):
        return v
    if key == "step" or p.dtype.kind != "f" or v.dtype == p.dtype:
        return v
    return Tensor(np.array(v.data, copy=True).astype(p.dtype))


class _State(dict):
    """`optimizer.state`: a dict keyed by parameters (tensors hash by identity, as PyTorch's)
    whose missing key is given an empty dict when it is read (PyTorch's defaultdict(dict)):
    `state = self.state[p]; state['buf'] = ...` in a program's own optimizer keeps it."""

    PROGRAM_DICT = True  # a program reaches it with a dict's methods

    def __missing__(self, key: Any) -> Any:
        limits.LIST_ITEMS.check(len(self) + 1, "the number of entries in optimizer.state")
        value: dict[str, Any] = {}
        self[key] = value
        return value

    def __repr__(self) -> str:
        return "defaultdict(<class 'dict'>, " + _shown(dict(self)) + ")"

    def program_typename(self) -> str:  # type(opt.state): PyTorch's is a defaultdict
        return "collections.defaultdict"


def _shown(v: Any) -> str:
    """A group's value as PyTorch's repr puts it in an f-string: a plain 0-d tensor (a tensor
    lr) formats as its Python number, 0.009999999776482582 for float32's 0.01."""
    from .printing import format_value

    if isinstance(v, Tensor) and v.ndim == 0 and not hasattr(type(v), "FORMATS_AS_OBJECT"):
        return format_value(v.data.reshape(()).item())
    return format_value(v)


def _listed(v: Any, what: str) -> list[Any]:
    if isinstance(v, (list, tuple, ValuesView)):  # ValuesView: stack_module_state's .values()
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
            # PyTorch's step reads group[key]: the program's `except KeyError` catches it
            raise GradcliError(key, hint=f"the param group lost its {key!r}").mirror("KeyError")
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
        raise GradcliError(f"Invalid learning rate: {_py(lr)}").mirror("ValueError")


def _py(v: Any) -> str:
    return repr(v.data.reshape(()).item()) if isinstance(v, Tensor) else repr(v)


def _nonnegative(v: Any, what: str, message: str, fn: str) -> None:
    if not 0.0 <= _number(v, what, fn):
        raise GradcliError(f"{message}: {_py(v)}").mirror("ValueError")


# --- SGD -------------------------------------------------------------------------------------


class SGD(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True

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

    SPARSE_GRADS = True

    def _sparse_step(
        self, p: Tensor, h: _Hyper, lr: float, momentum: float, dampening: float
    ) -> None:
        """A step on a sparse gradient, as PyTorch's single-tensor SGD runs it on sparse
        tensors: the momentum buffer a sparse copy of the gradient, then buffer * momentum +
        (1 - dampening) * gradient (ATen's sparse sum, `core.sparse.add`); the parameter
        updated entry by entry (`add_rows`)."""
        grad = p.grad
        if h.flag("maximize") or h.num("weight_decay") != 0:
            raise NotSupported(
                "SGD.step() with maximize=True or weight_decay on a sparse gradient is not "
                "supported by gradcli",
                hint="write sparse=False for a dense gradient",
            )
        if grad.dtype != p.dtype:
            raise NotSupported("SGD.step(): a sparse gradient of another dtype than its tensor")
        if momentum != 0:
            state = self._state.setdefault(p, {})
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.clone()
            elif type(buf) is not SparseCOO:
                raise NotSupported("SGD.step(): a dense momentum buffer and a sparse gradient")
            else:
                buf.set(sparse_add(buf.scaled(momentum), grad, 1 - dampening))
            grad = sparse_add(grad, buf, momentum) if h.flag("nesterov") else buf
        new = np.array(p.data)
        add_rows(new, grad, -lr)
        _write(p, new)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, momentum, dampening = h.num("lr"), h.num("momentum"), h.num("dampening")
        weight_decay = h.num("weight_decay")
        nesterov, maximize = h.flag("nesterov"), h.flag("maximize")
        for p in params:
            if type(p.grad) is SparseCOO:
                self._sparse_step(p, h, lr, momentum, dampening)
                continue
            grad = _grad_of(p)
            if maximize:
                grad = -grad
            if weight_decay != 0:
                grad = K.add(grad, p.data, weight_decay)
            new_buf = None
            if momentum != 0:
                state = self._state.setdefault(p, {})
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = new_buf = Tensor(np.array(grad, dtype=p.dtype))
                else:
                    new = K.add(K.mul(buf.data, momentum), grad, 1 - dampening)
                    _write(buf, new, op="aten::mul_.Tensor")
                grad = K.add(grad, buf.data, momentum) if nesterov else buf.data
            _write(p, K.add(p.data, grad, -lr))
            if new_buf is not None:  # (kept once the step has changed the parameter, as PyTorch)
                state["momentum_buffer"] = new_buf


# --- Adam, AdamW -----------------------------------------------------------------------------


class Adam(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True
    SPARSE_WORDS = "Adam does not support sparse gradients, please consider SparseAdam instead"

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
        betas = _betas(betas, fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        if not (
            all(isinstance(b, float) for b in betas) or all(isinstance(b, Tensor) for b in betas)
        ):
            raise GradcliError(
                "betas must be either both floats or both Tensors",
                hint="write them as floats: betas=(0.9, 0.999)",
            ).mirror("ValueError")
        _refuse_engines(foreach, differentiable, fused, fn)
        if capturable:
            raise GradcliError(
                f"{fn}: capturable=True is for CUDA graphs; gradcli runs on the CPU",
                hint="leave capturable out",
            )
        if not isinstance(betas[0], Tensor):
            betas = tuple(_number(b, "betas", fn) for b in betas)
        else:  # (tensors stay tensors, in a tuple of Adam's own, as in PyTorch)
            betas = (betas[0], betas[1])
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
        tensor_betas = _tensor_betas(group.get("betas"))
        for p in params:
            grad = _grad_of(p)
            if maximize:
                grad = -grad
            state = self._state.get(p)
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
                self._state[p] = state
            step_t = state["step"]
            _write(step_t, step_t.data + step_t.dtype.type(1))  # in place: `step_t += 1`
            if weight_decay != 0:
                if decoupled:
                    _write(p, K.mul(p.data, 1 - lr * weight_decay), op="aten::mul_.Tensor")
                else:
                    grad = K.add(grad, p.data, weight_decay)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            step = float(step_t.data)
            if tensor_betas is not None:
                # PyTorch's arithmetic on 0-d tensors: `1 - beta1` in the parameter's dtype
                # (beta1 moved to it), `1 - beta2`, `1 - beta**step`, `lr / bc1` (a
                # reciprocal times lr) and `bc2 ** 0.5` in the betas' dtype
                b1, b2 = tensor_betas
                one = b1.dtype.type(1)
                keep = p.data.dtype.type
                weight1 = float(keep(1) - keep(b1)) if p.data.dtype.kind == "f" else 1 - beta1
                _write(exp_avg, K.lerp(exp_avg.data, grad, weight1), op="aten::lerp_.Tensor")
                _write(
                    exp_avg_sq,
                    K.addcmul(K.mul(exp_avg_sq.data, float(b2)), grad, grad, float(one - b2)),
                )
                with np.errstate(all="ignore"):
                    bc1 = one - _pow0d(b1, step)
                    bc2 = one - _pow0d(b2, step)
                    step_size = float((one / bc1) * b1.dtype.type(lr))
                    bias_correction2_sqrt = float(K.sqrt(np.array(bc2)))  # (ATen's sqrt)
            else:
                _write(exp_avg, K.lerp(exp_avg.data, grad, 1 - beta1), op="aten::lerp_.Scalar")
                _write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq.data, beta2), grad, grad, 1 - beta2))
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
            _write(p, K.addcdiv(p.data, exp_avg.data, denom, -step_size), op="aten::addcdiv_")


class Adafactor(Optimizer):
    """torch.optim.Adafactor (PyTorch's single-tensor implementation): a matrix's second
    moment kept as a row and a column mean of g * g (factored over the last two dimensions), a
    vector's as a whole; the step size relative to the parameter's RMS, the update clipped by
    its own RMS over d. Each operation is the torch operation PyTorch's step runs."""

    BF16_EXACT = False
    READS_DIFFERENTIABLE = False

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-2,
        beta2_decay: Any = -0.8,
        eps: Any = (None, 1e-3),
        d: Any = 1.0,
        weight_decay: Any = 0.0,
        *,
        foreach: Any = None,
        maximize: Any = False,
    ) -> None:
        fn = "Adafactor()"
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise GradcliError("Tensor lr must be 1-element").mirror("ValueError")
        checks = [(lr, "Learning rate should be >= 0 but is: {}", 1)]
        checks.append((beta2_decay, "beta2_decay should be <= 0 but is: {}", -1))
        if not isinstance(eps, (tuple, list)) or len(eps) != 2:
            raise GradcliError(
                f"{fn}: eps must be a pair (eps1 or None, eps2)", found=typename(eps)
            ).mirror("TypeError")
        if eps[0] is not None:
            checks.append((eps[0], "epsilon1 should be >= 0 but is: {}", 1))
        checks.append((eps[1], "epsilon2 should be >= 0 but is: {}", 1))
        for v, words, sign in checks:
            if not 0.0 <= sign * _number(v, "a setting", fn):
                raise GradcliError(words.format(_py(v))).mirror("ValueError")
        if not 1.0 <= _number(d, "d", fn):
            raise GradcliError(f"Clipping threshold d should be >= 1 but is: {_py(d)}").mirror(
                "ValueError"
            )
        if not 0.0 <= _number(weight_decay, "weight_decay", fn):
            raise GradcliError(f"weight_decay should be >= 0 but is: {_py(weight_decay)}").mirror(
                "ValueError"
            )
        _refuse_engines(foreach, False, None, fn)
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        from . import names as N

        f = N.FUNCTIONS
        lr, beta2_decay, d = h.num("lr"), h.num("beta2_decay"), h.num("d")
        weight_decay, maximize = h.num("weight_decay"), h.flag("maximize")
        eps = group.get("eps")
        if not isinstance(eps, (tuple, list)) or len(eps) != 2:
            raise GradcliError(f"{h.fn}: eps must be a pair (eps1 or None, eps2)")
        eps2 = _number(eps[1], "eps", h.fn)
        for p in self._with_grads(group):
            if p.dtype.kind == "c":
                raise GradcliError("Adafactor does not support complex parameters").mirror(
                    "RuntimeError"
                )
            grad = Tensor(_grad_of(p))
            if maximize:
                grad = f["neg"](grad)
            state = self._state.get(p)
            if not state:
                state = {"step": Tensor(np.zeros((), Settings.default_dtype))}
                if grad.ndim > 1:
                    state["row_var"] = Tensor(np.zeros((*grad.shape[:-1], 1), p.dtype))
                    state["col_var"] = Tensor(
                        np.zeros((*grad.shape[:-2], 1, grad.shape[-1]), p.dtype)
                    )
                else:
                    state["variance"] = Tensor(np.zeros_like(p.data))
                self._state[p] = state
            eps1 = float(np.finfo(p.dtype).eps) if eps[0] is None else _number(eps[0], "eps", h.fn)
            step_t = state["step"]
            _write(step_t, step_t.data + step_t.dtype.type(1))
            step = float(step_t.data)
            one_minus_beta2_t = step**beta2_decay
            rho_t = min(lr, 1 / (step**0.5))
            here = Tensor(p.data)
            alpha = max(eps2, float(f["norm"](here, 2).data) / (p.data.size**0.5)) * rho_t
            if weight_decay != 0:
                _write(p, f["mul"](here, 1 - lr * weight_decay).data, op="aten::mul_.Scalar")
            if grad.ndim > 1:
                row_var, col_var = state["row_var"], state["col_var"]
                for var, dim in ((row_var, -1), (col_var, -2)):
                    norm = f["norm"](grad, dim=dim, keepdim=True)
                    mean = f["div"](f["square"](norm), grad.shape[dim])
                    _write(var, f["lerp"](Tensor(var.data), mean, one_minus_beta2_t).data)
                estimate = f["matmul"](Tensor(row_var.data), Tensor(col_var.data))
                scale = f["clamp"](f["mean"](Tensor(row_var.data), dim=-2, keepdim=True), eps1)
                estimate = f["div"](estimate, scale)
            else:
                variance = state["variance"]
                squared = f["mul"](grad, grad)
                _write(variance, f["lerp"](Tensor(variance.data), squared, one_minus_beta2_t).data)
                estimate = Tensor(variance.data.copy())
            update = f["mul"](f["rsqrt"](f["clamp"](estimate, eps1 * eps1)), grad)
            rms = float(f["norm"](update, 2).data) / ((update.data.size**0.5) * d)
            denom = max(1.0, rms)
            _write(p, f["add"](Tensor(p.data), update, alpha=-alpha / denom).data)


# Keller Jordan's quintic Newton-Schulz coefficients, PyTorch's defaults (torch.optim._muon)
_MUON_ABC = (3.4445, -4.775, 2.0315)


class Muon(Optimizer):
    """torch.optim.Muon (PyTorch's single-tensor implementation, its only one): momentum kept
    by `buf.lerp_(grad, 1 - momentum)` (Nesterov's `grad.lerp(buf, momentum)`), orthogonalised
    by Newton-Schulz iterations in bfloat16 (`core.bf16`: each product's rounding to bfloat16
    is PyTorch's whatever order its kernel adds in, or refused), decoupled weight decay and the
    learning rate adjusted to the matrix's shape. Only 2-D parameters, as PyTorch."""

    BF16_EXACT = False
    READS_DIFFERENTIABLE = False  # (its step is plain @torch.no_grad(); no such default)
    SPARSE_WORDS = "Muon does not support sparse gradients"

    @staticmethod
    def program_class(v: Any) -> str:
        return "torch.optim.Muon"

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-3,
        weight_decay: Any = 0.1,
        momentum: Any = 0.95,
        nesterov: Any = True,
        ns_coefficients: Any = _MUON_ABC,
        eps: Any = 1e-7,
        ns_steps: Any = 5,
        adjust_lr_fn: Any = None,
    ) -> None:
        fn = "Muon()"
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise GradcliError("Tensor lr must be 1-element").mirror("ValueError")
        for v, words in (
            (lr, "Learning rate should be >= 0 but is: {}"),
            (momentum, "momentum should be >= 0 but is: {}"),
            (weight_decay, "weight decay should be >= 0 but is: {}"),
        ):
            if not 0.0 <= _number(v, "a setting", fn):
                raise GradcliError(words.format(_shown(v))).mirror("ValueError")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise (
                GradcliError(
                    f"Adjust learning rate function {_muon_str(adjust_lr_fn)} is not supported",
                    hint="adjust_lr_fn='original' or 'match_rms_adamw'",
                )
                .mirror("ValueError")
                .pytorch()
            )
        defaults = {
            "lr": lr,
            "weight_decay": weight_decay,
            "momentum": momentum,
            "nesterov": nesterov,
            "ns_coefficients": ns_coefficients,
            "eps": eps,
            "ns_steps": ns_steps,
            "adjust_lr_fn": adjust_lr_fn,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    size = f"torch.Size([{', '.join(map(str, p.shape))}])"
                    raise GradcliError(
                        "Muon only supports 2D parameters whereas we found a parameter with "
                        f"size: {size}",
                        hint="give Muon the weight matrices and AdamW the others (biases, ...)",
                    ).mirror("ValueError")

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        lr, weight_decay, momentum = h.num("lr"), h.num("weight_decay"), h.num("momentum")
        for p in self._with_grads(group):
            if p.dtype.kind == "c":
                raise GradcliError("Muon does not support complex parameters").mirror(
                    "RuntimeError"
                )
            state = self._state.get(p)
            if not state:
                state = {"momentum_buffer": Tensor(np.zeros_like(p.grad.data))}
                self._state[p] = state
        nesterov = h.flag("nesterov")
        coefficients = group.get("ns_coefficients")
        steps, eps = group.get("ns_steps"), h.num("eps")
        adjust = group.get("adjust_lr_fn")
        for p in self._with_grads(group):
            grad = _grad_of(p)
            if grad.ndim != 2:
                raise GradcliError("Param gradient must be a 2D matrix").mirror("ValueError")
            buf = self._state[p]["momentum_buffer"]
            _write(buf, K.lerp(buf.data, grad, 1 - momentum), op="aten::lerp_.Scalar")
            update = K.lerp(grad, buf.data, momentum) if nesterov else buf.data
            update = _newton_schulz(update, coefficients, steps, eps)
            rows, cols = p.shape[:2]
            if adjust is None or adjust == "original":
                adjusted = lr * math.sqrt(max(1, rows / cols))
            elif adjust == "match_rms_adamw":
                adjusted = lr * (0.2 * math.sqrt(max(rows, cols)))
            else:
                adjusted = lr
            _write(p, K.mul(p.data, 1 - lr * weight_decay), op="aten::mul_.Scalar")
            _write(p, K.add(p.data, update.astype(p.dtype), -adjusted))


def _muon_str(v: Any) -> str:
    return v if isinstance(v, str) else _shown(v)


def _newton_schulz(grad: np.ndarray, coefficients: Any, steps: Any, eps: float) -> np.ndarray:
    """Muon's orthogonalisation of a gradient matrix, as torch.optim._muon computes it: in
    bfloat16, divided by its norm (at least eps), then `steps` quintic iterations
    X <- a X + (b A + c A A) X with A = X X^T (the wide way round). Returns float32 arrays
    holding bfloat16 values."""
    from ..core import bf16

    if not isinstance(steps, int) or isinstance(steps, bool):
        raise GradcliError("Muon: ns_steps must be an int", found=typename(steps))
    if steps >= 100:
        raise GradcliError(
            "Number of steps must be less than 100 for computational efficiency"
        ).mirror("ValueError")
    if not isinstance(coefficients, (tuple, list)) or len(coefficients) != 3:
        raise GradcliError("Coefficients must be a tuple of exactly 3 values").mirror("ValueError")
    a, b, c = (_number(v, "ns_coefficients", "Muon") for v in coefficients)
    short, long = sorted(grad.shape)
    limits.MULTIPLY_ADDS.check(
        steps * (2 * short * short * long + short**3), "the multiply-adds of Muon's step"
    )
    f32 = np.dtype(np.float32)
    x = dtypes.round_bf16(grad).astype(f32)
    norm = bf16.bf16_norm2(x).astype(f32)  # (of the untransposed copy: its memory order)
    # A tall gradient is taken transposed: a view, its columns contiguous, until the first
    # iteration's product makes a new matrix (the layouts choose PyTorch's kernel loops).
    tall = grad.shape[0] > grad.shape[1]
    x_cols = tall
    if tall:
        x = np.ascontiguousarray(x.T)
    norm = max(norm, dtypes.round_bf16(np.float32(eps)).astype(f32))  # clamp(min=eps)
    x = dtypes.round_bf16(x / norm).astype(f32)
    for _ in range(steps):
        hooks.observer.tick()
        gram = bf16.bf16_gemm(x, x.T, a_cols=x_cols, b_cols=not x_cols)
        gram = dtypes.round_bf16(gram).astype(f32)
        update = dtypes.round_bf16(bf16.bf16_gemm(gram, gram, gram, c, b)).astype(f32)
        x = bf16.bf16_gemm(update, x, x, 1.0, a, b_cols=x_cols)
        x, x_cols = dtypes.round_bf16(x).astype(f32), False
    return np.ascontiguousarray(x.T) if tall else x


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


class RMSprop(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True

    """`torch.optim.RMSprop`: a running mean of squared gradients (`square_avg`), centred by
    a running mean of the gradients (`grad_avg`) if asked, with an optional momentum buffer."""

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-2,
        alpha: Any = 0.99,
        eps: Any = 1e-8,
        weight_decay: Any = 0,
        momentum: Any = 0,
        centered: Any = False,
        capturable: Any = False,
        foreach: Any = None,
        maximize: Any = False,
        differentiable: Any = False,
    ) -> None:
        fn = "RMSprop()"
        _check_lr(lr, fn)
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        _nonnegative(momentum, "momentum", "Invalid momentum value", fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _nonnegative(alpha, "alpha", "Invalid alpha value", fn)
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, alpha, eps = h.num("lr"), h.num("alpha"), h.num("eps")
        weight_decay, momentum = h.num("weight_decay"), h.num("momentum")
        centered, maximize = h.flag("centered"), h.flag("maximize")
        for p in params:
            state = self._state.get(p)
            if not state:
                state = {
                    "step": Tensor(np.zeros((), Settings.default_dtype)),
                    "square_avg": Tensor(np.zeros_like(p.data)),
                }
                if momentum > 0:
                    state["momentum_buffer"] = Tensor(np.zeros_like(p.data))
                if centered:
                    state["grad_avg"] = Tensor(np.zeros_like(p.data))
                self._state[p] = state
            grad = _grad_of(p)
            if maximize:
                grad = -grad
            step_t = state["step"]
            _write(step_t, step_t.data + step_t.dtype.type(1))
            if weight_decay != 0:
                grad = K.add(grad, p.data, weight_decay)
            square_avg = state["square_avg"]
            _write(square_avg, K.addcmul(K.mul(square_avg.data, alpha), grad, grad, 1 - alpha))
            if centered:
                grad_avg = _state_tensor(state, "grad_avg", p)
                _write(grad_avg, K.lerp(grad_avg.data, grad, 1 - alpha), op="aten::lerp_.Scalar")
                avg = K.sqrt(K.addcmul(square_avg.data, grad_avg.data, grad_avg.data, -1))
            else:
                avg = K.sqrt(square_avg.data)
            avg = K.add(avg, eps)
            if momentum > 0:
                buf = _state_tensor(state, "momentum_buffer", p)
                _write(buf, K.addcdiv(K.mul(buf.data, momentum), grad, avg, 1), op="aten::addcdiv_")
                _write(p, K.add(p.data, buf.data, -lr))
            else:
                _write(p, K.addcdiv(p.data, grad, avg, -lr), op="aten::addcdiv_")


class Adagrad(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True
    SPARSE_WORDS = None

    """`torch.optim.Adagrad`: the sum of squared gradients (`sum`, from
    initial_accumulator_value), the learning rate decayed as lr / (1 + (step - 1) * lr_decay).
    Its state is made for every parameter when the optimizer is made, as PyTorch's is."""

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-2,
        lr_decay: Any = 0,
        weight_decay: Any = 0,
        initial_accumulator_value: Any = 0,
        eps: Any = 1e-10,
        foreach: Any = None,
        *,
        maximize: Any = False,
        differentiable: Any = False,
        fused: Any = None,
    ) -> None:
        fn = "Adagrad()"
        _check_lr(lr, fn)
        _nonnegative(lr_decay, "lr_decay", "Invalid lr_decay value", fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _nonnegative(
            initial_accumulator_value,
            "initial_accumulator_value",
            "Invalid initial_accumulator_value value",
            fn,
        )
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        _refuse_engines(foreach, differentiable, fused, fn)
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, group["initial_accumulator_value"])

    def _init_state(self, p: Tensor, initial: Any) -> dict[str, Any]:
        value = _number(initial, "initial_accumulator_value", "Adagrad.step()")
        state = {
            "step": Tensor(np.zeros((), Settings.default_dtype)),
            "sum": Tensor(np.full_like(p.data, K.scalar(value, p.dtype))),
        }
        self._state[p] = state
        return state

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, lr_decay, eps = h.num("lr"), h.num("lr_decay"), h.num("eps")
        weight_decay, maximize = h.num("weight_decay"), h.flag("maximize")
        for p in params:
            state = self._state.get(p) or self._init_state(
                p, group.get("initial_accumulator_value", 0)
            )
            step_t = state["step"]
            _write(step_t, step_t.data + step_t.dtype.type(1))
            step = float(step_t.data)
            grad = _grad_of(p)
            if maximize:
                grad = -grad
            if weight_decay != 0:
                grad = K.add(grad, p.data, weight_decay)
            clr = lr / (1 + (step - 1) * lr_decay)
            total = _state_tensor(state, "sum", p)
            _write(total, K.addcmul(total.data, grad, grad, 1), op="aten::addcmul_")
            std = K.add(K.sqrt(total.data), eps)
            _write(p, K.addcdiv(p.data, grad, std, -clr), op="aten::addcdiv_")


class _python_zero_division:
    """Python's ZeroDivisionError of a step's arithmetic on Python numbers (betas put at 1 in
    a param group after the check) as the program's error, as the steps on floats say it."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        if kind is ZeroDivisionError:
            raise GradcliError("float division by zero", hint="betas must be below 1") from None


def _pow0d(b: Any, e: float) -> Any:
    """`b ** e` of a 0-d float tensor and a Python number, as ATen's CPU pow (one element:
    its scalar loop): the exponents 2, 3 and -2 as products, 0.5 a square root, others the
    C library's pow in double (float32's `std::pow(float, double)`), rounded to b's dtype."""
    if e == 2:
        return b * b
    if e == 3:
        return b * b * b
    if e == -2:
        return b.dtype.type(1) / (b * b)
    if e == 0.5:
        return b.dtype.type(K.sqrt(np.array(b)))
    return b.dtype.type(float(b) ** e)


def _no_tensor_betas(name: str, group: dict[str, Any]) -> None:
    """The optimizers whose step on betas given as tensors is not PyTorch's arithmetic on
    0-d tensors in gradcli (Adam, AdamW and Adamax do it): refused, not last digits off."""
    betas = group.get("betas")
    if isinstance(betas, (tuple, list)) and any(isinstance(b, Tensor) for b in betas):
        raise NotSupported(
            f"{name}.step() with betas given as tensors is not supported by gradcli (Adam, "
            "AdamW and Adamax take them)",
            hint="give them as floats: betas=(0.9, 0.999)",
        )


def _tensor_betas(betas: Any) -> tuple[Any, Any] | None:
    """A param group's betas given as two float32/float64 tensors (one element each): their
    values as NumPy scalars of their dtype, for PyTorch's tensor arithmetic on them; else
    None (Python numbers)."""
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        return None
    if not all(isinstance(b, Tensor) and b.data.dtype in (np.float32, np.float64) for b in betas):
        return None
    b1, b2 = (b.data.reshape(-1)[0] for b in betas)
    if b1.dtype != b2.dtype:
        return None
    return b1, b2


def _beta_values(betas: Any) -> tuple[Any, Any] | None:
    """A param group's betas where one or both are given as float32/float64 tensors of one
    element: each a `_Zd` (a 0-d tensor's arithmetic, as PyTorch's step code computes with it)
    or the Python number it is; None where neither is such a tensor."""
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        return None
    if not any(isinstance(b, Tensor) for b in betas):
        return None
    if isinstance(betas[1], Tensor) and betas[1].data.ndim:
        # (`value=1 - beta2` of addcmul_ takes a 0-d tensor as a number, not a 1-d one)
        raise GradcliError("addcmul_(): argument 'value' must be Number, not Tensor").mirror(
            "TypeError"
        )
    out = []
    for b in betas:
        if isinstance(b, Tensor):
            if b.data.dtype not in (np.float32, np.float64) or b.data.ndim:
                return None
            out.append(_Zd(b.data.reshape(-1)[0]))
        elif isinstance(b, (int, float)) and not isinstance(b, bool):
            out.append(float(b))
        else:
            return None
    return out[0], out[1]


def _betas(betas: Any, fn: str) -> tuple[float, float]:
    """Adam's family's `betas`, checked in PyTorch's words."""
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        raise GradcliError(
            f"{fn}: betas must be a pair of numbers", found=typename(betas), hint="(0.9, 0.999)"
        )
    for i, b in enumerate(betas):
        if isinstance(b, Tensor) and b.data.size != 1:
            # (PyTorch's `0.0 <= betas[i] < 1.0` asks the tensor's truth first)
            many = "more than one value" if b.data.size else "no values"
            raise GradcliError(f"Boolean value of Tensor with {many} is ambiguous").mirror(
                "RuntimeError"
            )
        if not 0.0 <= _number(b, "betas", fn) < 1.0:
            raise GradcliError(f"Invalid beta parameter at index {i}: {_py(b)}").mirror(
                "ValueError"
            )
    return tuple(betas)  # type: ignore[return-value]


def _scalar_state(value: float) -> Tensor:
    """A 0-d state tensor of the default float dtype (PyTorch's `_get_scalar_dtype()`)."""
    return Tensor(np.array(value, Settings.default_dtype))


def _tick(state: dict[str, Any]) -> float:
    """`step_t += 1` on the state's step tensor; the new count as a Python float."""
    step_t = state["step"]
    _write(step_t, step_t.data + step_t.dtype.type(1))
    return float(step_t.data)


def _grad_for(p: Tensor, maximize: bool, weight_decay: float = 0.0) -> np.ndarray:
    grad = _grad_of(p)
    if maximize:
        grad = -grad
    if weight_decay != 0:
        grad = K.add(grad, p.data, weight_decay)
    return grad


def _rdiv(number: float, a: np.ndarray) -> np.ndarray:
    """`number / tensor` as PyTorch computes it: `tensor.reciprocal() * number`."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return K.mul(np.reciprocal(a), number)


class Adadelta(Optimizer):
    COMPLEX_AS_REAL = True
    """`torch.optim.Adadelta`: running means of squared gradients (`square_avg`) and of squared
    updates (`acc_delta`); the update is sqrt(acc_delta + eps) / sqrt(square_avg + eps) * grad."""

    def __init__(
        self,
        params: Any,
        lr: Any = 1.0,
        rho: Any = 0.9,
        eps: Any = 1e-6,
        weight_decay: Any = 0,
        foreach: Any = None,
        *,
        capturable: Any = False,
        maximize: Any = False,
        differentiable: Any = False,
    ) -> None:
        fn = "Adadelta()"
        _check_lr(lr, fn)
        if not 0.0 <= _number(rho, "rho", fn) <= 1.0:
            raise GradcliError(f"Invalid rho value: {_py(rho)}").mirror("ValueError")
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, rho, eps = h.num("lr"), h.num("rho"), h.num("eps")
        weight_decay, maximize = h.num("weight_decay"), h.flag("maximize")
        for p in params:
            state = self._state.get(p)
            if not state:
                state = self._state[p] = {
                    "step": _scalar_state(0.0),
                    "square_avg": Tensor(np.zeros_like(p.data)),
                    "acc_delta": Tensor(np.zeros_like(p.data)),
                }
            _tick(state)
            grad = _grad_for(p, maximize, weight_decay)
            square_avg = _state_tensor(state, "square_avg", p)
            acc_delta = _state_tensor(state, "acc_delta", p)
            _write(square_avg, K.addcmul(K.mul(square_avg.data, rho), grad, grad, 1 - rho))
            std = K.sqrt(K.add(square_avg.data, eps))
            delta = K.sqrt(K.add(acc_delta.data, eps))
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                delta = delta / std * grad
            _write(acc_delta, K.addcmul(K.mul(acc_delta.data, rho), delta, delta, 1 - rho))
            _write(p, K.add(p.data, delta, -lr))


class SparseAdam(Optimizer):
    """`torch.optim.SparseAdam`: Adam on the rows a sparse gradient names (an embedding's,
    sparse=True), the moments and the parameter changed at those rows only, in PyTorch's
    order of operations (the gradient coalesced first: `core.sparse`)."""

    SPARSE_GRADS = True
    READS_DIFFERENTIABLE = False

    @staticmethod
    def program_class(v: Any) -> str:
        return "torch.optim.sparse_adam.SparseAdam"

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-3,
        betas: Any = (0.9, 0.999),
        eps: Any = 1e-8,
        maximize: Any = False,
    ) -> None:
        fn = "SparseAdam()"
        if isinstance(lr, Tensor) and lr.data.size != 1:
            raise GradcliError("Tensor lr must be 1-element").mirror("ValueError")
        if not 0.0 < _number(lr, "lr", fn):
            raise GradcliError(f"Invalid learning rate: {_py(lr)}").mirror("ValueError")
        if not 0.0 < _number(eps, "eps", fn):
            raise GradcliError(f"Invalid epsilon value: {_py(eps)}").mirror("ValueError")
        betas = _betas(betas, fn)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize})
        for group in self.param_groups:
            for p in group["params"]:
                if isinstance(p, Tensor) and p.dtype.kind != "f":
                    raise NotSupported(
                        f"SparseAdam() of {p.dtype} parameters is not supported by gradcli",
                        hint="float32 or float64 parameters",
                    )

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = list(self._with_grads(group))
        beta1, beta2 = h.pair("betas")
        lr, eps, maximize = h.num("lr"), h.num("eps"), h.flag("maximize")
        for p in params:
            if type(p.grad) is not SparseCOO:
                raise GradcliError(
                    "SparseAdam does not support dense gradients, please consider Adam instead",
                    hint="SparseAdam is for an embedding's sparse gradients (sparse=True)",
                ).pytorch()
        steps = []
        for p in params:
            state = self._state.setdefault(p, {})
            if not state:
                state["step"] = 0
                state["exp_avg"] = Tensor(np.zeros_like(p.data))
                state["exp_avg_sq"] = Tensor(np.zeros_like(p.data))
            state["step"] += 1
            steps.append(state["step"])
        for p, step in zip(params, steps):
            state = self._state[p]
            grad = p.grad.scaled(-1) if maximize else p.grad
            grad = grad.coalesce()
            if grad.values.size == 0:
                continue
            dt = p.dtype.type
            rows = grad.indices[0] if grad.sparse_dim == 1 else tuple(grad.indices)
            gv = grad.values.astype(p.dtype)
            m, v = state["exp_avg"], state["exp_avg_sq"]
            old_m = m.data[rows]
            m_step = (gv - old_m) * dt(1 - beta1)
            moved = np.array(m.data)
            moved[rows] = moved[rows] + m_step
            _write(m, moved)
            old_v = v.data[rows]
            v_step = (gv * gv - old_v) * dt(1 - beta2)
            moved = np.array(v.data)
            moved[rows] = moved[rows] + v_step
            _write(v, moved)
            numer = m_step + old_m
            denom = K.sqrt(v_step + old_v) + dt(eps)
            step_size = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
            moved = np.array(p.data)
            moved[rows] = moved[rows] + dt(-step_size) * (numer / denom)
            _write(p, moved)


class Adamax(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True

    """`torch.optim.Adamax`: Adam with the infinity norm: `exp_inf` is the running maximum of
    beta2 * exp_inf and |grad| + eps."""

    def __init__(
        self,
        params: Any,
        lr: Any = 2e-3,
        betas: Any = (0.9, 0.999),
        eps: Any = 1e-8,
        weight_decay: Any = 0,
        foreach: Any = None,
        *,
        maximize: Any = False,
        differentiable: Any = False,
        capturable: Any = False,
    ) -> None:
        fn = "Adamax()"
        _check_lr(lr, fn)
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        betas = _betas(betas, fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, eps, weight_decay = h.num("lr"), h.num("eps"), h.num("weight_decay")
        beta1, beta2 = h.pair("betas")
        maximize = h.flag("maximize")
        tensor_betas = _tensor_betas(group.get("betas"))
        for p in params:
            state = self._state.get(p)
            if not state:
                state = self._state[p] = {
                    "step": _scalar_state(0.0),
                    "exp_avg": Tensor(np.zeros_like(p.data)),
                    "exp_inf": Tensor(np.zeros_like(p.data)),
                }
            step = _tick(state)
            grad = _grad_for(p, maximize, weight_decay)
            exp_avg = _state_tensor(state, "exp_avg", p)
            exp_inf = _state_tensor(state, "exp_inf", p)
            if tensor_betas is not None:
                # PyTorch's arithmetic on the 0-d tensors (as Adam's): `1 - beta1`,
                # `1 - beta1 ** step` and `lr / bc` (a reciprocal times lr) in their dtype
                b1 = tensor_betas[0]
                one = b1.dtype.type(1)
                _write(exp_avg, K.lerp(exp_avg.data, grad, float(one - b1)), op="aten::lerp_")
                beta2 = float(tensor_betas[1])
                with np.errstate(all="ignore"):
                    clr = float((one / (one - _pow0d(b1, step))) * b1.dtype.type(lr))
            else:
                _write(exp_avg, K.lerp(exp_avg.data, grad, 1 - beta1), op="aten::lerp_.Scalar")
                bias_correction = 1 - beta1**step
                if bias_correction == 0:
                    raise GradcliError("float division by zero", hint="betas must be below 1")
                clr = lr / bias_correction
            _write(exp_inf, np.maximum(K.mul(exp_inf.data, beta2), K.add(np.abs(grad), eps)))
            _write(p, K.addcdiv(p.data, exp_avg.data, exp_inf.data, -clr))


class NAdam(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True

    """`torch.optim.NAdam`: Adam with Nesterov momentum, its momentum schedule
    mu_t = beta1 (1 - 0.5 * 0.96 ** (t * momentum_decay)) kept as a running product in a
    0-d tensor of the default dtype (`mu_product`), as PyTorch keeps it."""

    def __init__(
        self,
        params: Any,
        lr: Any = 2e-3,
        betas: Any = (0.9, 0.999),
        eps: Any = 1e-8,
        weight_decay: Any = 0,
        momentum_decay: Any = 4e-3,
        decoupled_weight_decay: Any = False,
        *,
        foreach: Any = None,
        maximize: Any = False,
        capturable: Any = False,
        differentiable: Any = False,
    ) -> None:
        fn = "NAdam()"
        _check_lr(lr, fn)
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        betas = _betas(betas, fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _nonnegative(momentum_decay, "momentum_decay", "Invalid momentum_decay value", fn)
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, eps, weight_decay = h.num("lr"), h.num("eps"), h.num("weight_decay")
        beta1, beta2 = h.pair("betas")
        tensor_betas = _beta_values(group.get("betas"))
        if tensor_betas is None:
            _no_tensor_betas(self.name, group)
        momentum_decay = h.num("momentum_decay")
        decoupled, maximize = h.flag("decoupled_weight_decay"), h.flag("maximize")
        for p in params:
            if tensor_betas is not None:
                self._step_tensor_betas(
                    p, tensor_betas, (lr, eps, weight_decay, momentum_decay), decoupled, maximize
                )
                continue
            state = self._param_state(p)
            step = _tick(state)
            grad = _grad_for(p, maximize)
            bias_correction2 = 1 - beta2**step
            if weight_decay != 0:
                if decoupled:
                    _write(p, K.mul(p.data, 1 - lr * weight_decay), op="aten::mul_.Tensor")
                else:
                    grad = K.add(grad, p.data, weight_decay)
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
            mu_product = state["mu_product"]
            _write(mu_product, K.mul(mu_product.data, mu), op="aten::mul_.Tensor")
            product = float(mu_product.data)
            product_next = product * mu_next
            exp_avg = _state_tensor(state, "exp_avg", p)
            exp_avg_sq = _state_tensor(state, "exp_avg_sq", p)
            _write(exp_avg, K.lerp(exp_avg.data, grad, 1 - beta1), op="aten::lerp_.Scalar")
            _write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq.data, beta2), grad, grad, 1 - beta2))
            if bias_correction2 == 0 or product == 1.0 or product_next == 1.0:
                raise GradcliError("float division by zero", hint="betas must be below 1")
            denom = K.add(K.sqrt(K.div(exp_avg_sq.data, bias_correction2)), eps)
            _write(p, K.addcdiv(p.data, grad, denom, -lr * (1.0 - mu) / (1.0 - product)))
            _write(
                p, K.addcdiv(p.data, exp_avg.data, denom, (-lr * mu_next) / (1.0 - product_next))
            )

    def _param_state(self, p: Tensor) -> dict[str, Any]:
        """p's state, made as PyTorch's NAdam makes it at p's first step."""
        state = self._state.get(p)
        if not state:
            state = self._state[p] = {
                "step": _scalar_state(0.0),
                "mu_product": _scalar_state(1.0),
                "exp_avg": Tensor(np.zeros_like(p.data)),
                "exp_avg_sq": Tensor(np.zeros_like(p.data)),
            }
        return state

    def _step_tensor_betas(
        self,
        p: Tensor,
        betas: tuple[Any, Any],
        numbers: tuple[float, float, float, float],
        decoupled: bool,
        maximize: bool,
    ) -> None:
        """One parameter's step with betas given as 0-d tensors: PyTorch's single-tensor code
        on them, its scalars 0-d tensors of the betas' dtype (`_Zd`: a Python number joining
        one rounded to it first), `mu_product *= mu` in the wider of the two dtypes."""
        lr, eps, wd, decay = numbers
        state = self._param_state(p)
        step = _tick(state)
        grad = _grad_for(p, maximize)
        beta1, beta2 = betas
        with np.errstate(all="ignore"), _python_zero_division():
            bias_correction2 = 1 - beta2**step
            if wd != 0:
                if decoupled:
                    _write(p, K.mul(p.data, 1 - lr * wd), op="aten::mul_.Tensor")
                else:
                    grad = K.add(grad, p.data, wd)
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
            mu_product = state["mu_product"]
            if isinstance(mu, _Zd):  # (two 0-d tensors: in the wider dtype)
                wide = np.result_type(mu_product.data.dtype, mu.v.dtype).type
                product = np.asarray(wide(mu_product.data) * wide(mu.v), mu_product.data.dtype)
            else:
                product = K.mul(mu_product.data, mu)
            _write(mu_product, product, op="aten::mul_.Tensor")
            exp_avg = _state_tensor(state, "exp_avg", p)
            exp_avg_sq = _state_tensor(state, "exp_avg_sq", p)
            _write(exp_avg, K.lerp(exp_avg.data, grad, float(1 - beta1)), op="aten::lerp_.Tensor")
            _write(
                exp_avg_sq,
                K.addcmul(K.mul(exp_avg_sq.data, float(beta2)), grad, grad, float(1 - beta2)),
            )
            denom = K.add(K.sqrt(K.div(exp_avg_sq.data, float(bias_correction2))), eps)
            value = (-lr * (1.0 - mu)) / (1.0 - float(mu_product.data))
            _write(p, K.addcdiv(p.data, grad, denom, float(value)))
            mu_product_next = float(mu_product.data) * mu_next
            value = (-lr * mu_next) / (1.0 - mu_product_next)
            _write(p, K.addcdiv(p.data, exp_avg.data, denom, float(value)))


class RAdam(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True

    """`torch.optim.RAdam`: Adam with the variance of the adaptive rate rectified; in the first
    steps (rho_t <= 5) the update is the bias-corrected momentum alone."""

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-3,
        betas: Any = (0.9, 0.999),
        eps: Any = 1e-8,
        weight_decay: Any = 0,
        decoupled_weight_decay: Any = False,
        *,
        foreach: Any = None,
        maximize: Any = False,
        capturable: Any = False,
        differentiable: Any = False,
    ) -> None:
        fn = "RAdam()"
        _check_lr(lr, fn)
        _nonnegative(eps, "eps", "Invalid epsilon value", fn)
        betas = _betas(betas, fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, eps, weight_decay = h.num("lr"), h.num("eps"), h.num("weight_decay")
        beta1, beta2 = h.pair("betas")
        tensor_betas = _beta_values(group.get("betas"))
        if tensor_betas is None:
            _no_tensor_betas(self.name, group)
        decoupled, maximize = h.flag("decoupled_weight_decay"), h.flag("maximize")
        for p in params:
            if tensor_betas is not None:
                self._step_tensor_betas(p, tensor_betas, lr, eps, weight_decay, decoupled, maximize)
                continue
            state = self._state.get(p)
            if not state:
                state = self._state[p] = {
                    "step": _scalar_state(0.0),
                    "exp_avg": Tensor(np.zeros_like(p.data)),
                    "exp_avg_sq": Tensor(np.zeros_like(p.data)),
                }
            step = _tick(state)
            grad = _grad_for(p, maximize)
            if weight_decay != 0:
                if decoupled:
                    _write(p, K.mul(p.data, 1 - lr * weight_decay), op="aten::mul_.Tensor")
                else:
                    grad = K.add(grad, p.data, weight_decay)
            exp_avg = _state_tensor(state, "exp_avg", p)
            exp_avg_sq = _state_tensor(state, "exp_avg_sq", p)
            _write(exp_avg, K.lerp(exp_avg.data, grad, 1 - beta1), op="aten::lerp_.Scalar")
            _write(exp_avg_sq, K.addcmul(K.mul(exp_avg_sq.data, beta2), grad, grad, 1 - beta2))
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            if bias_correction1 == 0 or bias_correction2 == 0:
                raise GradcliError("float division by zero", hint="betas must be below 1")
            corrected = K.div(exp_avg.data, bias_correction1)
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
            if rho_t > 5.0:
                rect = (
                    (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
                ) ** 0.5
                adaptive = _rdiv(bias_correction2**0.5, K.add(K.sqrt(exp_avg_sq.data), eps))
                with np.errstate(over="ignore", invalid="ignore"):
                    update = K.mul(K.mul(corrected, lr) * adaptive, rect)
            else:
                update = K.mul(corrected, lr)
            _write(p, K.add(p.data, update, -1.0))

    def _step_tensor_betas(
        self,
        p: Tensor,
        betas: tuple[Any, Any],
        lr: float,
        eps: float,
        wd: float,
        decoupled: bool,
        maximize: bool,
    ) -> None:
        """One parameter's step with betas given as 0-d tensors: PyTorch's single-tensor code
        on them, the bias corrections, rho_inf, rho_t and the rectification 0-d tensors of the
        betas' dtype (`_Zd`), `2 / t` its reciprocal times 2 (Tensor.__rtruediv__), and
        `sqrt(bc2) / (sqrt(exp_avg_sq) + eps)` a true division of that 0-d tensor."""
        state = self._state.get(p)
        if not state:
            state = self._state[p] = {
                "step": _scalar_state(0.0),
                "exp_avg": Tensor(np.zeros_like(p.data)),
                "exp_avg_sq": Tensor(np.zeros_like(p.data)),
            }
        step = _tick(state)
        grad = _grad_for(p, maximize)
        beta1, beta2 = betas
        with np.errstate(all="ignore"), _python_zero_division():
            if wd != 0:
                if decoupled:
                    _write(p, K.mul(p.data, 1 - lr * wd), op="aten::mul_.Tensor")
                else:
                    grad = K.add(grad, p.data, wd)
            exp_avg = _state_tensor(state, "exp_avg", p)
            exp_avg_sq = _state_tensor(state, "exp_avg_sq", p)
            _write(exp_avg, K.lerp(exp_avg.data, grad, float(1 - beta1)), op="aten::lerp_.Tensor")
            _write(
                exp_avg_sq,
                K.addcmul(K.mul(exp_avg_sq.data, float(beta2)), grad, grad, float(1 - beta2)),
            )
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            corrected = K.div(exp_avg.data, float(bias_correction1))
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
            if rho_t > 5.0:
                rect = (
                    (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
                ) ** 0.5
                root = K.add(K.sqrt(exp_avg_sq.data), eps)
                if isinstance(bias_correction2, _Zd):  # (a 0-d tensor over a tensor)
                    adaptive = K.div(np.full_like(root, float(bias_correction2**0.5)), root)
                else:  # (a Python number over a tensor: its reciprocal times the number)
                    adaptive = _rdiv(bias_correction2**0.5, root)
                update = K.mul(K.mul(K.mul(corrected, lr), adaptive), float(rect))
            else:
                update = K.mul(corrected, lr)
            _write(p, K.add(p.data, update, -1.0))


class Rprop(Optimizer):
    COMPLEX_AS_REAL = True
    """`torch.optim.Rprop`: per-element step sizes, grown by etaplus while the gradient keeps
    its sign and shrunk by etaminus when it flips (that step then skipped), within
    step_sizes; only the gradient's sign moves the parameter."""

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-2,
        etas: Any = (0.5, 1.2),
        step_sizes: Any = (1e-6, 50),
        *,
        capturable: Any = False,
        foreach: Any = None,
        maximize: Any = False,
        differentiable: Any = False,
    ) -> None:
        fn = "Rprop()"
        _check_lr(lr, fn)
        for key, v in (("etas", etas), ("step_sizes", step_sizes)):
            if not isinstance(v, (tuple, list)) or len(v) != 2:
                raise GradcliError(f"{fn}: {key} must be a pair of numbers", found=typename(v))
        if not 0.0 < _number(etas[0], "etas", fn) < 1.0 < _number(etas[1], "etas", fn):
            raise GradcliError(f"Invalid eta values: {_py(etas[0])}, {_py(etas[1])}").mirror(
                "ValueError"
            )
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        etaminus, etaplus = h.pair("etas")
        step_min, step_max = h.pair("step_sizes")
        maximize = h.flag("maximize")
        for p in params:
            state = self._state.get(p)
            if not state:
                state = self._state[p] = {
                    "step": _scalar_state(0.0),
                    "prev": Tensor(np.zeros_like(p.data)),
                    "step_size": Tensor(np.full_like(p.data, K.scalar(h.num("lr"), p.dtype))),
                }
            _tick(state)
            grad = _grad_for(p, maximize)
            prev, step_size = _state_tensor(state, "prev", p), _state_tensor(state, "step_size", p)
            with np.errstate(over="ignore", invalid="ignore"):
                sign = np.sign(grad * prev.data)
            minus = K.scalar(etaminus, p.dtype)
            factor = np.where(sign > 0, K.scalar(etaplus, p.dtype), sign)
            factor = np.where(sign < 0, minus, factor)
            factor = np.where(sign == 0, factor.dtype.type(1), factor).astype(p.dtype)
            with np.errstate(over="ignore", invalid="ignore"):
                grown = step_size.data * factor
            lo, hi = K.scalar(step_min, p.dtype), K.scalar(step_max, p.dtype)
            _write(step_size, np.minimum(np.maximum(grown, lo), hi).astype(p.dtype))
            grad = np.where(factor == minus, p.dtype.type(0), grad).astype(p.dtype)
            _write(p, K.addcmul(p.data, np.sign(grad), step_size.data, -1), op="aten::addcmul_")
            _write(prev, grad)


class ASGD(Optimizer):
    COMPLEX_AS_REAL = True
    BF16_EXACT = True

    """`torch.optim.ASGD`: SGD with a decaying rate eta = lr / (1 + lambd lr t) ** alpha and a
    running average of the parameters (`ax`) from step t0 on; eta and mu are 0-d tensors of the
    default dtype, as PyTorch keeps them."""

    def __init__(
        self,
        params: Any,
        lr: Any = 1e-2,
        lambd: Any = 1e-4,
        alpha: Any = 0.75,
        t0: Any = 1e6,
        weight_decay: Any = 0,
        foreach: Any = None,
        maximize: Any = False,
        differentiable: Any = False,
        capturable: Any = False,
    ) -> None:
        fn = "ASGD()"
        _check_lr(lr, fn)
        _nonnegative(weight_decay, "weight_decay", "Invalid weight_decay value", fn)
        for key, v in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            _number(v, key, fn)
        _refuse_engines(foreach, differentiable, None, fn)
        _refuse_capturable(capturable, fn)
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:
        params = self._with_grads(group)
        lr, lambd, alpha, t0 = h.num("lr"), h.num("lambd"), h.num("alpha"), h.num("t0")
        weight_decay, maximize = h.num("weight_decay"), h.flag("maximize")
        for p in params:
            state = self._state.get(p)
            if not state:
                state = self._state[p] = {
                    "step": _scalar_state(0.0),
                    "eta": _scalar_state(lr),
                    "mu": _scalar_state(1.0),
                    "ax": Tensor(np.zeros_like(p.data)),
                }
            step = _tick(state)
            grad = _grad_for(p, maximize, weight_decay)
            eta = float(state["eta"].data)
            _write(p, K.mul(p.data, 1 - lambd * eta), op="aten::mul_.Tensor")
            _write(p, K.add(p.data, grad, -eta))
            ax, mu = _state_tensor(state, "ax", p), state["mu"]
            if float(mu.data) != 1:
                with np.errstate(over="ignore", invalid="ignore"):
                    moved = (p.data - ax.data) * mu.data.astype(p.dtype)
                _write(ax, ax.data + moved)
            else:
                _write(ax, p.data)
            try:
                new_eta = lr / ((1 + lambd * lr * step) ** alpha)
                new_mu = 1 / max(1, step - t0)
            except (ZeroDivisionError, OverflowError) as e:
                raise GradcliError(f"ASGD.step(): {e}", hint="check lambd, alpha and t0") from None
            _write(state["eta"], np.array(new_eta, state["eta"].dtype))
            _write(mu, np.array(new_mu, mu.dtype))


def _state_tensor(state: dict[str, Any], key: str, p: Tensor) -> Tensor:
    """A state tensor a step needs (made of zeros when a hyperparameter that needs it was
    switched on after the first step, as PyTorch's would fail to find it: gradcli starts it)."""
    t = state.get(key)
    if not isinstance(t, Tensor):
        t = state[key] = Tensor(np.zeros_like(p.data))
    return t


def _refuse_capturable(capturable: Any, fn: str) -> None:
    if capturable:
        raise GradcliError(
            f"{fn}: capturable=True is for CUDA graphs; gradcli runs on the CPU",
            hint="leave capturable out",
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


# --- LBFGS -----------------------------------------------------------------------------------


_MISSING: Any = object()  # LBFGS.step() called without its closure


class _Zd:
    """A 0-d tensor of the parameters' float dtype, as LBFGS's scalars are in PyTorch (`ys`,
    `ro[i]`, `al[i]`, `H_diag`, `gtd`, and `t` once a tensor touched it): arithmetic in that
    dtype, a Python number joining it rounded to the dtype first (c10's wrapped numbers), a
    number divided by it as `reciprocal() * number` (Tensor.__rtruediv__), comparisons in the
    dtype. Python numbers stay Python numbers, so `min`, `max` and `abs` in the algorithm pick
    and compute the types PyTorch's code does."""

    __slots__ = ("v",)

    def __init__(self, v: Any) -> None:
        self.v = v  # a NumPy scalar: float32 or float64

    def _of(self, other: Any) -> Any:
        if isinstance(other, _Zd):
            return other.v
        return self.v.dtype.type(other)

    def __add__(self, o: Any) -> _Zd:
        return _Zd(self.v + self._of(o))

    def __radd__(self, o: Any) -> _Zd:
        return _Zd(self._of(o) + self.v)

    def __sub__(self, o: Any) -> _Zd:
        return _Zd(self.v - self._of(o))

    def __rsub__(self, o: Any) -> _Zd:
        return _Zd(self._of(o) - self.v)

    def __mul__(self, o: Any) -> _Zd:
        return _Zd(self.v * self._of(o))

    def __rmul__(self, o: Any) -> _Zd:
        return _Zd(self._of(o) * self.v)

    def __truediv__(self, o: Any) -> _Zd:
        return _Zd(self.v / self._of(o))

    def __rtruediv__(self, o: Any) -> _Zd:
        return _Zd((self.v.dtype.type(1) / self.v) * self._of(o))

    def square(self) -> _Zd:  # `x ** 2`: ATen's pow with exponent 2 is x * x
        return _Zd(self.v * self.v)

    def __pow__(self, e: float) -> _Zd:  # `beta ** step`: ATen's pow of a Python exponent
        return _Zd(_pow0d(self.v, e))

    def sqrt(self) -> _Zd:
        return _Zd(K.sqrt(np.asarray(self.v))[()])

    def __neg__(self) -> _Zd:
        return _Zd(-self.v)

    def __abs__(self) -> _Zd:
        return _Zd(abs(self.v))

    def __lt__(self, o: Any) -> bool:
        return bool(self.v < self._of(o))

    def __le__(self, o: Any) -> bool:
        return bool(self.v <= self._of(o))

    def __gt__(self, o: Any) -> bool:
        return bool(self.v > self._of(o))

    def __ge__(self, o: Any) -> bool:
        return bool(self.v >= self._of(o))

    def __float__(self) -> float:
        return float(self.v)

    def tensor(self) -> Tensor:
        return Tensor(np.asarray(self.v))


def _zd_in(v: Any, dt: np.dtype) -> Any:
    """A scalar of the saved state: a 0-d tensor as `_Zd`, a Python number as it is."""
    if isinstance(v, Tensor):
        return _Zd(np.asarray(v.data).astype(dt).reshape(-1)[0])
    return v


def _zd_out(v: Any) -> Any:
    return v.tensor() if isinstance(v, _Zd) else v


def _vec_in(v: Any, dt: np.dtype, n: int) -> np.ndarray | None:
    if v is None:
        return None
    data = v.data if isinstance(v, Tensor) else None
    if data is None or data.size != n:
        raise GradcliError(
            "LBFGS.step(): the optimizer's saved state does not fit its parameters",
            hint="load a state_dict saved by an LBFGS of the same parameters",
        )
    return np.array(data, dt).reshape(-1)


def _cubic_min(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any, bounds: Any = None) -> Any:
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, kept within
    the bounds (by default the interval between x1 and x2); their middle if the cubic has none.
    Each operation is PyTorch's, in its types (`_Zd` for its tensors)."""
    if bounds is None:
        lo, hi = (x1, x2) if x1 <= x2 else (x2, x1)
    else:
        lo, hi = bounds
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = d1.square() - g1 * g2
    if not disc >= 0:
        return (lo + hi) / 2.0
    d2 = disc.sqrt()
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, lo), hi)


class LBFGS(Optimizer):
    """`torch.optim.LBFGS`: limited-memory BFGS over all parameters as one flat vector, each
    `step(closure)` up to `max_iter` iterations (and `max_eval` calls of the closure), with a
    fixed step or the strong-Wolfe line search. PyTorch's algorithm operation by operation, in
    its types: the vectors in the parameters' dtype, the dot products in MKL's order
    (`kernels.dot`), the sum of |g| in ATen's, the updates `p.add_(d, alpha=t)` fused, the
    scalars 0-d tensors or Python floats where PyTorch's are (`_Zd`). Its state (`func_evals`,
    `n_iter`, the history...) is kept, as PyTorch's, as the first parameter's."""

    SPARSE_WORDS = None
    # `opt._params`: PyTorch's LBFGS keeps its one group's parameter list there (forum code
    # reads it to flatten the parameters)
    PROGRAM_ATTRIBUTES: tuple[str, ...] = ()
    PROGRAM_UNDERSCORED = ("_params",)

    @property
    def _params(self) -> Any:
        return self.param_groups[0]["params"]

    def __init__(
        self,
        params: Any,
        lr: Any = 1,
        max_iter: Any = 20,
        max_eval: Any = None,
        tolerance_grad: Any = 1e-7,
        tolerance_change: Any = 1e-9,
        history_size: Any = 100,
        line_search_fn: Any = None,
    ) -> None:
        fn = "LBFGS()"
        if isinstance(lr, Tensor) and lr.data.size != 1:
            raise GradcliError("Tensor lr must be 1-element").mirror("ValueError")
        if not 0.0 <= _number(lr, "lr", fn):
            raise (
                GradcliError(f"Invalid learning rate: {_py(lr)}")
                .mirror("ValueError")
                .mirror("ValueError")
            )
        for key, v in (("max_iter", max_iter), ("max_eval", max_eval)):
            if v is not None:
                _number(v, key, fn)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {
            "lr": lr,
            "max_iter": max_iter,
            "max_eval": max_eval,
            "tolerance_grad": tolerance_grad,
            "tolerance_change": tolerance_change,
            "history_size": history_size,
            "line_search_fn": line_search_fn,
        }
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise GradcliError(
                "LBFGS doesn't support per-parameter options (parameter groups)"
            ).mirror("ValueError")

    def step(self, closure: Any = _MISSING) -> Any:  # type: ignore[override]
        if closure is _MISSING:
            raise GradcliError(
                "LBFGS.step() missing 1 required positional argument: 'closure'",
                hint="pass a function that zeroes the gradients, computes the loss, calls "
                "backward() and returns the loss: opt.step(closure)",
            ).mirror("TypeError")
        if len(self.param_groups) != 1:
            raise GradcliError(
                f"Expected exactly one param_group, but got {len(self.param_groups)}"
            ).mirror("AssertionError")
        if not callable(closure):
            raise GradcliError(f"'{pytype_name(closure)}' object is not callable").mirror(
                "TypeError"
            )
        try:
            with np.errstate(all="ignore"):
                loss = _LBFGSRun(self, closure).run()
        except ZeroDivisionError:  # the line search's Python floats, as in PyTorch's code
            raise GradcliError("float division by zero").mirror("ZeroDivisionError") from None
        self._stepped = self._stepped or self._watched
        return loss

    def _step_group(self, group: dict[str, Any], h: _Hyper) -> None:  # pragma: no cover
        raise NotImplementedError


_C1, _C2 = 1e-4, 0.9  # the strong Wolfe conditions' constants (PyTorch's defaults)


class _LBFGSRun:
    """One `LBFGS.step(closure)`."""

    def __init__(self, opt: LBFGS, closure: Any) -> None:
        self.opt, self.closure = opt, closure
        group = opt.param_groups[0]
        params = group["params"]
        if not isinstance(params, list) or not all(isinstance(p, Tensor) for p in params):
            raise GradcliError(
                "LBFGS.step(): the param group's 'params' must stay a list of tensors",
                found=typename(params),
            )
        self.params: list[Tensor] = params
        dtypes = {p.dtype for p in params}
        if len(dtypes) != 1 or next(iter(dtypes)) not in (np.float32, np.float64):
            raise GradcliError(
                "LBFGS: gradcli computes LBFGS for float32 or float64 parameters, all of one dtype",
                found=", ".join(sorted(str(d) for d in dtypes)),
                hint="make every parameter float32 (the default) or every one float64",
            )
        self.dt = np.dtype(next(iter(dtypes)))
        self.n = sum(p.data.size for p in params)
        limits.TENSOR_ELEMENTS.check(self.n, "the number of elements LBFGS optimises")
        h = _Hyper(group, "LBFGS.step()")
        self.lr = h.num("lr")
        self.max_iter = _lbfgs_count(group, "max_iter")
        self.max_eval = _lbfgs_count(group, "max_eval")
        self.tolerance_grad = h.num("tolerance_grad")
        self.tolerance_change = h.num("tolerance_change")
        self.line_search_fn = group.get("line_search_fn")
        history = group.get("history_size")
        if isinstance(history, bool) or not isinstance(history, int):
            raise GradcliError(
                f"can't multiply sequence by non-int of type '{typename(history)}'",
                hint="history_size is a whole number, e.g. 10",
            ).mirror("TypeError")
        limits.LIST_ITEMS.check(history, "LBFGS's history_size")
        self.history_size = history

    # -- the parameters as one flat vector ---------------------------------------------------
    def flat_grad(self) -> np.ndarray:
        pieces = []
        for p in self.params:
            if p.grad is None:
                pieces.append(np.zeros(p.data.size, self.dt))
            else:
                if type(p.grad) is SparseCOO:
                    raise self.opt._sparse_refused()  # (PyTorch's takes it dense)
                g = p.grad.data
                pieces.append(np.asarray(g, self.dt).reshape(-1))
        return np.concatenate(pieces) if pieces else np.zeros(0, self.dt)

    def add_grad(self, t: Any, d: np.ndarray) -> None:
        """`p.add_(d[piece].view_as(p), alpha=t)` for every parameter."""
        alpha = float(t) if isinstance(t, _Zd) else t
        at = 0
        for p in _ticking(self.params):
            size = p.data.size
            moved = _axpy(p.data.reshape(-1), d[at : at + size], alpha)
            _write(p, moved.reshape(p.shape))
            at += size

    def set_params(self, saved: list[np.ndarray]) -> None:
        for p, data in zip(self.params, saved):
            _write(p, data)

    def evaluate(self) -> Any:
        hooks.observer.check_clock()
        with enable_grad():
            return self.closure()

    def max_abs(self, v: np.ndarray) -> _Zd:
        if v.size == 0:
            raise GradcliError(
                "max(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument."
            )
        return _Zd(np.abs(v).max())

    def directional(self, x: list[np.ndarray], t: Any, d: np.ndarray) -> tuple[float, np.ndarray]:
        self.add_grad(t, d)
        loss = _loss_float(self.evaluate())
        g = self.flat_grad()
        self.set_params(x)
        return loss, g

    # -- the step -----------------------------------------------------------------------------
    def run(self) -> Any:
        opt, dt = self.opt, self.dt
        first = self.params[0]
        state = opt._state.setdefault(first, {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = self.evaluate()
        loss = _loss_float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        g = self.flat_grad()
        if self.max_abs(g) <= self.tolerance_grad:
            return orig_loss

        n = self.n
        d = _vec_in(state.get("d"), dt, n)
        t = _zd_in(state.get("t"), dt)
        old_dirs = _vecs_in(state.get("old_dirs"), dt, n)
        old_stps = _vecs_in(state.get("old_stps"), dt, n)
        ro = None if state.get("ro") is None else [_zd_in(v, dt) for v in state["ro"]]
        h_diag = _zd_in(state.get("H_diag"), dt)
        prev_g = _vec_in(state.get("prev_flat_grad"), dt, n)
        # PyTorch copies each new gradient into this tensor (`prev_flat_grad.copy_`), and
        # keeps the history in the state's own lists: a state_dict loaded elsewhere shares them
        prev_t = state.get("prev_flat_grad") if prev_g is not None else None
        lists = {key: state.get(key) for key in ("old_dirs", "old_stps", "ro")}
        reset = False
        prev_loss = state.get("prev_loss")
        al_saved = state.get("al")
        al = [_zd_in(v, dt) for v in al_saved] if isinstance(al_saved, list) else None

        n_iter = 0
        while n_iter < self.max_iter:
            hooks.observer.tick()
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -g
                old_dirs, old_stps, ro = [], [], []
                reset = True
                h_diag = 1
            else:
                if d is None or prev_g is None or t is None or None in (old_dirs, old_stps, ro):
                    raise GradcliError(
                        "LBFGS.step(): the optimizer's saved state lacks its last direction",
                        hint="load a state_dict saved by an LBFGS after a step",
                    )
                y = g - prev_g
                s = K.mul(d, float(t) if isinstance(t, _Zd) else t)
                ys = _Zd(K.dot(y, s)[()])
                if ys > 1e-10:
                    if len(old_dirs) == self.history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / _Zd(K.dot(y, y)[()])
                if al is None:
                    al = [None] * self.history_size
                    state["al"] = al  # (made here, as PyTorch's: its place among the keys)
                q = -g
                if len(al) < len(old_dirs):
                    raise GradcliError("list assignment index out of range").mirror("IndexError")
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = _Zd(K.dot(old_stps[i], q)[()]) * ro[i]
                    q = _axpy(q, old_dirs[i], -float(al[i]))
                d = r = K.mul(q, float(h_diag) if isinstance(h_diag, _Zd) else h_diag)
                for i in range(len(old_dirs)):
                    be_i = _Zd(K.dot(old_dirs[i], r)[()]) * ro[i]
                    r = _axpy(r, old_stps[i], float(al[i] - be_i))
                d = r
            prev_g = g.copy()
            if prev_t is None:
                prev_t = Tensor(g.copy())
            else:
                _write(prev_t, g)
            prev_loss = loss

            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / _Zd(_abs_sum(g))) * self.lr
            else:
                t = self.lr
            gtd = _Zd(K.dot(g, d)[()])
            if gtd > -self.tolerance_change:
                break

            ls_evals = 0
            if self.line_search_fn is not None:
                if self.line_search_fn != "strong_wolfe":
                    raise GradcliError("only 'strong_wolfe' is supported")
                x_init = [np.array(p.data, copy=True) for p in self.params]
                loss, g, t, ls_evals = self.strong_wolfe(
                    x_init, t, d, loss, g, gtd, self.max_eval - evals
                )
                self.add_grad(t, d)
                opt_cond = self.max_abs(g) <= self.tolerance_grad
            else:
                self.add_grad(t, d)
                opt_cond = False
                if n_iter != self.max_iter:
                    loss = _loss_float(self.evaluate())
                    g = self.flat_grad()
                    opt_cond = self.max_abs(g) <= self.tolerance_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals

            if n_iter == self.max_iter or evals >= self.max_eval or opt_cond:
                break
            if self.max_abs(K.mul(d, float(t) if isinstance(t, _Zd) else t)) <= (
                self.tolerance_change
            ):
                break
            if abs(loss - prev_loss) < self.tolerance_change:
                break

        state["d"] = None if d is None else Tensor(d)
        state["t"] = _zd_out(t)
        made = {
            "old_dirs": None if old_dirs is None else [Tensor(v) for v in old_dirs],
            "old_stps": None if old_stps is None else [Tensor(v) for v in old_stps],
            "ro": None if ro is None else [_zd_out(v) for v in ro],
        }
        for key, new in made.items():
            old = lists[key]
            if not reset and isinstance(old, list) and new is not None:
                old[:] = new
                new = old
            state[key] = new
        state["H_diag"] = _zd_out(h_diag)
        state["prev_flat_grad"] = prev_t
        state["prev_loss"] = prev_loss
        if al is not None:
            shown = [_zd_out(v) for v in al]
            if isinstance(al_saved, list):
                al_saved[:] = shown
                shown = al_saved
            state["al"] = shown
        return orig_loss

    def strong_wolfe(
        self,
        x: list[np.ndarray],
        t: Any,
        d: np.ndarray,
        f: float,
        g: np.ndarray,
        gtd: _Zd,
        max_ls: int,
    ) -> tuple[float, np.ndarray, Any, int]:
        """PyTorch's `_strong_wolfe` (ported there from minFunc): bracket a step that satisfies
        the strong Wolfe conditions, then zoom into the bracket by cubic interpolation."""
        c1, c2, tol = _C1, _C2, self.tolerance_change
        d_norm = self.max_abs(d)
        g = g.copy()
        f_new, g_new = self.directional(x, t, d)
        evals = 1
        gtd_new = _Zd(K.dot(g_new, d)[()])
        t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
        done = False
        ls_iter = 0
        bracket = bracket_f = bracket_g = bracket_gtd = None
        while ls_iter < max_ls:
            hooks.observer.tick()
            if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
                bracket, bracket_f = [t_prev, t], [f_prev, f_new]
                bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
                break
            if abs(gtd_new) <= -c2 * gtd:
                bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
                done = True
                break
            if gtd_new >= 0:
                bracket, bracket_f = [t_prev, t], [f_prev, f_new]
                bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
                break
            lo_step = t + 0.01 * (t - t_prev)
            hi_step = t * 10
            was = t
            t = _cubic_min(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(lo_step, hi_step))
            t_prev, f_prev, g_prev, gtd_prev = was, f_new, g_new.copy(), gtd_new
            f_new, g_new = self.directional(x, t, d)
            evals += 1
            gtd_new = _Zd(K.dot(g_new, d)[()])
            ls_iter += 1
        if ls_iter == max_ls:
            bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
        if bracket is None or bracket_f is None or bracket_g is None:
            raise GradcliError(
                "cannot access local variable 'bracket' where it is not associated with a value",
                hint="max_eval must leave the line search at least one evaluation",
            ).mirror("UnboundLocalError")

        insufficient = False
        low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
        while not done and ls_iter < max_ls:
            hooks.observer.tick()
            if abs(bracket[1] - bracket[0]) * d_norm < tol:
                break
            assert bracket_gtd is not None
            t = _cubic_min(
                bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]
            )
            top, bottom = max(bracket), min(bracket)
            eps = 0.1 * (top - bottom)
            if min(top - t, t - bottom) < eps:
                if insufficient or t >= top or t <= bottom:
                    t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                    insufficient = False
                else:
                    insufficient = True
            else:
                insufficient = False
            f_new, g_new = self.directional(x, t, d)
            evals += 1
            gtd_new = _Zd(K.dot(g_new, d)[()])
            ls_iter += 1
            if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low]:
                bracket[high], bracket_f[high] = t, f_new
                bracket_g[high], bracket_gtd[high] = g_new.copy(), gtd_new
                low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
            else:
                if abs(gtd_new) <= -c2 * gtd:
                    done = True
                elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                    bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                    bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
                bracket[low], bracket_f[low] = t, f_new
                bracket_g[low], bracket_gtd[low] = g_new.copy(), gtd_new
        return bracket_f[low], bracket_g[low], bracket[low], evals


_EXACT_AXPY = 16


def _axpy(q: np.ndarray, v: np.ndarray, alpha: float) -> np.ndarray:
    """`q.add(v, alpha=alpha)` (one fused rounding, as `K.add`), quicker for float32: the
    product of two float32 numbers is exact in float64, so the float64 sum rounded to float32
    is the fused result unless it lands on a float32 midpoint (then `K.add` decides)."""
    if alpha == 1 or q.dtype != np.float32:
        if (
            q.dtype == np.float64
            and alpha != 1
            and q.size <= _EXACT_AXPY
            and math.isfinite(alpha)
            and np.isfinite(q).all()
            and np.isfinite(v).all()
        ):
            # a few elements: exactly in rationals, rounded once (the emulation's dozen NumPy
            # calls cost more)
            a = Fraction(alpha)
            out = [float(Fraction(x) * a + Fraction(y)) for x, y in zip(v.tolist(), q.tolist())]
            if all(math.isfinite(x) for x in out):
                return np.array(out, np.float64)
        return K.add(q, v, alpha)
    s = v.astype(np.float64) * float(np.float32(alpha)) + q.astype(np.float64)
    if ((s.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)).any():
        return K.add(q, v, alpha)
    return s.astype(np.float32)


def _vecs_in(v: Any, dt: np.dtype, n: int) -> list[np.ndarray] | None:
    if v is None:
        return None
    if not isinstance(v, list):
        raise GradcliError("LBFGS.step(): the saved history must be a list of tensors")
    return [_vec_in(item, dt, n) for item in v]


def _abs_sum(g: np.ndarray) -> Any:
    """`g.abs().sum()` in ATen's order, a NumPy scalar of g's dtype."""
    from ..core.summation import sum_float

    return sum_float(np.abs(g), (0,), False)[()]


def _lbfgs_count(group: dict[str, Any], key: str) -> Any:
    v = group.get(key)
    if not isinstance(v, (int, float)):
        raise GradcliError(f"LBFGS.step(): {key} must be a number", found=typename(v))
    return v


def _loss_float(v: Any) -> float:
    """`float(closure())`, as PyTorch's LBFGS reads the loss."""
    if isinstance(v, Tensor):
        if v.data.size != 1:
            raise GradcliError(
                "only one element tensors can be converted to Python scalars",
                found=f"shape {list(v.shape)}",
                hint="the closure returns the loss, a single number: loss.sum() or loss.mean()",
            ).mirror("ValueError")
        return float(v.data.reshape(()))
    if isinstance(v, (bool, int, float, np.integer, np.floating)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            shown = v if len(v) <= 40 else v[:40] + "..."
            raise GradcliError(f"could not convert string to float: {shown!r}").mirror(
                "ValueError"
            ) from None
    raise GradcliError(
        "float() argument must be a string or a real number, not "
        f"'{'NoneType' if v is None else typename(v)}'",
        hint="the closure must return the loss: end it with `return loss`",
    ).mirror("TypeError")


# --- learning-rate schedulers ----------------------------------------------------------------


def _range_len(r: range) -> int:
    return max(0, -((r.start - r.stop) // r.step))  # len() overflows past sys.maxsize


def _int_arg(v: Any, what: str, fn: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise GradcliError(f"{fn}: {what} must be an int, not {typename(v)}")
    return int(v)


class LRScheduler:
    """`torch.optim.lr_scheduler.LRScheduler`: sets each group's 'lr' at every `step()`.

    As PyTorch's, the constructor makes a first step (`_is_initial` while it runs) that sets
    `last_epoch` to 0; each later `step()` asks `get_lr()` for the groups' new learning rates,
    most of them computed from the current ones (PyTorch's recursive forms, so their floats
    are PyTorch's)."""

    PROGRAM_METHODS = ("step", "get_last_lr", "state_dict", "load_state_dict")
    PROGRAM_DATA = ("optimizer", "last_epoch", "base_lrs")
    PROGRAM_UNDERSCORED = ("_last_lr", "_step_count")  # (read: what tutorials print)
    # `torch.optim.lr_scheduler.LRScheduler` (and `_LRScheduler`) as a program names it: a
    # base for the program's own schedulers (`def get_lr(self)`)
    PROGRAM_BASE = "scheduler"

    @staticmethod
    def program_class(v: Any) -> str:
        """`torch.optim.lr_scheduler.StepLR` (`type(s)`, and the object's repr)."""
        return f"torch.optim.lr_scheduler.{type(v).__name__}"

    def __repr__(self) -> str:
        return f"<{self.program_class(self)} object at {id(self):#x}>"

    # The attributes a subclass sets before the base's, in order (for state_dict()).
    OWN: tuple[str, ...] = ()

    def __init__(self, optimizer: Any, last_epoch: Any = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise GradcliError(f"last_epoch must be an int, not {typename(last_epoch)}")
        self.optimizer = optimizer
        optimizer._watched = True
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
        self._is_initial = True
        self._get_lr_called_within_step = False
        self.step()
        self._is_initial = False

    @property
    def name(self) -> str:
        return type(self).__name__

    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_METHODS or attr in self.PROGRAM_DATA:
            return getattr(self, attr)
        if attr == "get_lr":  # the program's call, with PyTorch's warning (step()'s has none)
            return self._program_get_lr
        if attr == "_last_lr":  # (what tutorials print, as get_last_lr(): a copy)
            return list(self._last_lr)
        if attr == "_step_count":
            return self._step_count
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'", found=f"`.{attr}`")

    def get_last_lr(self) -> list[Any]:
        return list(self._last_lr)

    def program_set(self, attr: str, value: Any) -> None:
        """`scheduler.base_lrs = [...]`, `scheduler.last_epoch = n`: what forum answers set
        to restart a schedule (the next steps compute from them, as PyTorch's do)."""
        where = f"{self.name}.{attr}"
        if attr == "base_lrs":
            if not isinstance(value, (list, tuple)) or len(value) != len(self.base_lrs):
                raise GradcliError(
                    f"{where} must be a list of {len(self.base_lrs)} learning rate(s), one per "
                    f"param group, not {typename(value)}"
                )
            self.base_lrs = [_number(v, "lr", where, keep=True) for v in value]
            return
        if attr == "last_epoch":
            if isinstance(value, bool) or not isinstance(value, int):
                raise GradcliError(f"{where} must be an int, not {typename(value)}")
            self.last_epoch = _epoch_number(value, where)
            return
        raise GradcliError(
            f"cannot set attribute `{attr}` of a {self.name}",
            expected="base_lrs or last_epoch (the other settings are the constructor's)",
        ).mirror("AttributeError")

    def _program_get_lr(self) -> list[Any]:
        """`scheduler.get_lr()` called by a program: as PyTorch's, the next step's form
        computed now (from the groups' current rates and `last_epoch`, so not the rates in
        use), with PyTorch's warning that `get_last_lr()` gives those."""
        hooks.warn(
            "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
            once=True,
        )
        return self.get_lr()

    def _lrs(self) -> list[float]:
        return [
            _number(g.get("lr"), "lr", f"{self.name}.step()", keep=True)
            for g in self.optimizer.param_groups
        ]

    def get_lr(self) -> list[Any]:
        raise GradcliError(
            f"{self.name}.get_lr() is not implemented: LRScheduler is a base class",
            hint="define get_lr(self) in a subclass of it",
        ).mirror("NotImplementedError")

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
        # (PyTorch's `_enable_get_lr_call`: a subclass's get_lr can tell a call from step())
        self._get_lr_called_within_step = True
        try:
            self._step_rates(epoch)
        finally:
            self._get_lr_called_within_step = False

    def _step_rates(self, epoch: Any) -> None:
        if epoch is not None:
            # Deprecated in PyTorch but still run: `last_epoch` is set to `epoch` and the rates
            # come from the closed form where the scheduler has one, else from get_lr().
            hooks.warn(EPOCH_DEPRECATION_WARNING, once=True)
            self._update_lr_at(_epoch_number(epoch, f"{self.name}.step()"))
            return
        self.last_epoch += 1
        values = self.get_lr()
        groups = self.optimizer.param_groups
        if len(values) != len(groups):  # a group added after the scheduler was made
            raise GradcliError(
                f"{self.name}.step(): the optimizer has {len(groups)} param groups, the "
                f"scheduler was made for {len(values)}",
                hint="make the scheduler after adding every param group",
            )
        for group, lr in zip(groups, values):
            group["lr"] = lr
        self._last_lr = [g["lr"] for g in groups]

    def _update_lr_at(self, epoch: int) -> None:
        """PyTorch's `_update_lr(epoch)` (SequentialLR's switch to its next scheduler): the
        lrs at `epoch` from the scheduler's closed form where it has one, else `get_lr()`."""
        self.last_epoch = epoch
        closed = getattr(self, "_closed_form", None)
        values = closed() if closed is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """Every attribute but the optimizer, in the order PyTorch's `__dict__` holds them."""
        # (an attribute PyTorch sets only on one branch, e.g. use_beta1 with cycle_momentum,
        # is absent from its __dict__ otherwise)
        out = {k: _state_value(getattr(self, k)) for k in self.OWN if hasattr(self, k)}
        out.update(
            base_lrs=list(self.base_lrs),
            last_epoch=self.last_epoch,
            _step_count=self._step_count,
            _is_initial=self._is_initial,
            _get_lr_called_within_step=False,
            _last_lr=list(self._last_lr),
        )
        return out

    def load_state_dict(self, state_dict: Any) -> None:
        """PyTorch's: the saved attributes put back (a checkpoint's `sched.state_dict()`)."""
        _load_state(self, state_dict)


EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)


def _epoch_number(epoch: Any, fn: str) -> Any:
    """`step(epoch)`'s epoch: a number the schedules' formulas can use (a finite float, an int
    within the float range: a larger one would overflow their divisions)."""
    import math

    e = _number(epoch, "epoch", fn)
    if isinstance(e, bool):
        e = int(e)
    if (isinstance(e, float) and not math.isfinite(e)) or abs(e) > 2**53:
        raise GradcliError(
            f"{fn}: epoch {_py(e)} is out of range",
            hint="pass the epoch number, a count of epochs (or call step() without it)",
        )
    return e


def _state_value(v: Any) -> Any:
    return list(v) if isinstance(v, list) else v


# Saved values put back only where they have the type of the one they replace: PyTorch's
# `__dict__.update(state_dict)` takes anything, but a scheduler of gradcli computes with its
# attributes in Python, so a string where a number was would end in an internal error at the
# next step, and a key that is not saved would set an attribute the program cannot otherwise.
_CALLABLES = ("lr_lambdas", "_scale_fn_custom")  # saved as None, as PyTorch saves functions


def _load_state(sched: Any, state: Any) -> None:
    where = f"{sched.name}.load_state_dict()"
    if not isinstance(state, dict):
        raise GradcliError(
            f"{where} expects the dict state_dict() returned, not {typename(state)}"
        ).mirror("TypeError")
    own = sched.state_dict()
    for key in state:
        if key not in own:
            raise GradcliError(
                f"{where}: {key!r} is not part of a {sched.name}'s state",
                expected=", ".join(repr(k) for k in own),
                hint="load the state_dict() of a scheduler of the same kind",
            )
    for key, value in state.items():
        if key in _CALLABLES:
            if any(v is not None for v in (value if isinstance(value, list) else [value])):
                raise GradcliError(
                    f"{where}: {key!r} holds the state of callable objects",
                    hint="gradcli saves a scheduler's functions as None, as PyTorch does "
                    "for plain functions and lambdas",
                )
            continue
        if key == "_schedulers":
            _load_schedulers(sched, value, where)
            continue
        # (a learning rate given as an int, `lr=1`, is saved as a float once scaled)
        rates = key.endswith("lrs") or key.endswith("_lr") or key == "eta_min"
        setattr(sched, key, _like(own[key], value, f"{where}: {key!r}", rates))


def _load_schedulers(sched: Any, states: Any, where: str) -> None:
    inner = sched._schedulers
    if not isinstance(states, list) or len(states) != len(inner):
        raise GradcliError(
            f"{where}: '_schedulers' must be a list of {len(inner)} states, one per scheduler",
            found=typename(states),
        )
    for s, st in zip(inner, states):
        limits.BUDGET.tick()  # a chain may hold one scheduler a million times
        s.load_state_dict(st)


def _like(old: Any, new: Any, where: str, rates: bool = False) -> Any:
    """`new` where it has the kind of `old` (numbers for numbers, the same strings, lists of
    as many items), a copy of its lists; else a clear error. `rates`: learning rates, any
    number where an int was."""
    from collections import Counter

    def bad(expected: str) -> GradcliError:
        return GradcliError(f"{where} must be {expected}, like the saved value", found=repr(new))

    if isinstance(old, bool) or old is None or isinstance(old, str):
        if type(new) is not type(old) or (isinstance(old, str) and new != old):
            raise bad(repr(old) if isinstance(old, str) else typename(old))
        return new
    if isinstance(old, int) and not rates:
        if isinstance(new, bool) or not isinstance(new, int):
            raise bad("an int")
        return new
    if isinstance(old, (int, float)):
        if isinstance(new, bool) or not isinstance(new, (int, float)):
            raise bad("a number")
        return new
    if isinstance(old, Counter):
        if not isinstance(new, dict) or not all(
            isinstance(k, int) and not isinstance(k, bool) and isinstance(v, int)
            for k, v in new.items()
        ):
            raise bad("a Counter of milestones (ints)")
        limits.LIST_ITEMS.check(len(new), "the number of milestones")
        return Counter(new)
    if isinstance(old, (list, tuple)):
        if not isinstance(new, (list, tuple)) or len(new) != len(old):
            raise bad(f"a {type(old).__name__} of {len(old)} item(s)")
        items = [_like(o, n, f"{where}[{i}]", rates) for i, (o, n) in enumerate(zip(old, new))]
        return items if isinstance(old, list) else tuple(items)
    if isinstance(old, dict):
        if not isinstance(new, dict) or set(new) != set(old):
            raise bad(f"a dict with the keys {', '.join(map(repr, old))}")
        return {k: _like(old[k], new[k], f"{where}[{k!r}]", rates) for k in old}
    raise AssertionError(f"{where}: no rule to load a saved {typename(old)}")  # a gradcli bug


class StepLR(LRScheduler):
    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("step_size", "gamma")
    OWN = ("step_size", "gamma")

    def __init__(self, optimizer: Any, step_size: Any, gamma: Any = 0.1, last_epoch: Any = -1):
        # (step_size=0 is taken, as PyTorch takes it: its first step() divides by it; a float
        # is kept, as PyTorch's Python keeps it: the transformer tutorial's StepLR(opt, 1.0))
        if type(step_size) is float:
            self.step_size = step_size
        else:
            self.step_size = _int_arg(step_size, "step_size", "StepLR()")
        self.gamma = _number(gamma, "gamma", "StepLR()", keep=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self.last_epoch == 0:
            return lrs
        if self.step_size == 0:
            raise _by_zero(
                "float modulo" if type(self.step_size) is float else "integer modulo by zero"
            )
        if self.last_epoch % self.step_size != 0:
            return lrs
        return [lr * self.gamma for lr in lrs]

    def _closed_form(self) -> list[Any]:
        if self.step_size == 0:
            raise _by_zero(
                "float floor division by zero"
                if type(self.step_size) is float
                else "integer division or modulo by zero"
            )
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


def _by_zero(words: str) -> GradcliError:
    return GradcliError(words, hint="StepLR's step_size must be at least 1").mirror(
        "ZeroDivisionError"
    )


class MultiStepLR(LRScheduler):
    """The learning rate times gamma at each milestone (a milestone given twice: gamma**2)."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("milestones", "gamma")
    OWN = ("milestones", "gamma")

    def __init__(self, optimizer: Any, milestones: Any, gamma: Any = 0.1, last_epoch: Any = -1):
        from collections import Counter

        if isinstance(milestones, range):
            limits.LIST_ITEMS.check(_range_len(milestones), "the number of milestones")
            milestones = list(milestones)
        items = _listed(milestones, "milestones")
        self.milestones = Counter(_int_arg(m, "milestones", "MultiStepLR()") for m in items)
        self.gamma = _number(gamma, "gamma", "MultiStepLR()", keep=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self.last_epoch not in self.milestones:
            return lrs
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in lrs]

    def _closed_form(self) -> list[Any]:
        import bisect

        marks = sorted(self.milestones.elements())
        return [
            base * self.gamma ** bisect.bisect_right(marks, self.last_epoch)
            for base in self.base_lrs
        ]


class ExponentialLR(LRScheduler):
    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("gamma",)
    OWN = ("gamma",)

    def __init__(self, optimizer: Any, gamma: Any, last_epoch: Any = -1):
        self.gamma = _number(gamma, "gamma", "ExponentialLR()", keep=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self._is_initial:
            return lrs
        return [lr * self.gamma for lr in lrs]

    def _closed_form(self) -> list[Any]:
        return [base * self.gamma**self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from each base lr to eta_min over T_max steps, then back up, in
    PyTorch's recursive form (each lr computed from the previous one, so its rounding)."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("T_max", "eta_min")
    OWN = ("T_max", "eta_min")

    def __init__(self, optimizer: Any, T_max: Any, eta_min: Any = 0.0, last_epoch: Any = -1):  # noqa: N803
        self.T_max = _int_arg(T_max, "T_max", "CosineAnnealingLR()")
        if self.T_max == 0:
            raise GradcliError("float division by zero", hint="T_max >= 1")
        self.eta_min = _number(eta_min, "eta_min", "CosineAnnealingLR()", keep=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        import math

        lrs = self._lrs()
        t, e, n = self.last_epoch, self.eta_min, self.T_max
        if self._is_initial:
            return lrs
        if self._step_count == 1 and t > 0:
            return [e + (base - e) * (1 + math.cos(t * math.pi / n)) / 2 for base in self.base_lrs]
        if (t - 1 - n) % (2 * n) == 0:
            return [
                lr + (base - e) * (1 - math.cos(math.pi / n)) / 2
                for base, lr in zip(self.base_lrs, lrs)
            ]
        return [
            (1 + math.cos(math.pi * t / n)) / (1 + math.cos(math.pi * (t - 1) / n)) * (lr - e) + e
            for lr in lrs
        ]

    def _closed_form(self) -> list[Any]:
        import math

        e, t, n = self.eta_min, self.last_epoch, self.T_max
        return [e + (base - e) * (1 + math.cos(math.pi * t / n)) / 2 for base in self.base_lrs]


def _lambdas(lr_lambda: Any, optimizer: Any, fn: str) -> list[Any]:
    if not isinstance(optimizer, Optimizer):
        raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
    n = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != n:
            raise GradcliError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}").mirror(
                "ValueError"
            )
        out = list(lr_lambda)
    else:
        out = [lr_lambda] * n
    for f in out:
        if not callable(f):
            # (MultiplicativeLR checks; LambdaLR calls it in its first step: Python's words)
            words = "lr_lambda should be a function, but got {}"
            if fn == "LambdaLR()":
                words = "'{}' object is not callable"
            raise GradcliError(words.format(typename(f))).mirror("TypeError")
    return out


def _factor(v: Any, fn: str) -> float:
    out = _number(v, "lr_lambda's result", fn, keep=True)
    if isinstance(v, Tensor):  # a tensor factor makes a tensor lr in PyTorch
        raise GradcliError(
            f"{fn}: lr_lambda returned a tensor; gradcli takes a Python number",
            hint="return a float: e.g. 0.95 ** epoch",
        )
    return out


class LambdaLR(LRScheduler):
    """Each group's lr: its initial lr times lr_lambda(epoch)."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("lr_lambdas",)

    def __init__(self, optimizer: Any, lr_lambda: Any, last_epoch: Any = -1):
        self.lr_lambdas = _lambdas(lr_lambda, optimizer, "LambdaLR()")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        return [
            base * _factor(f(self.last_epoch), "LambdaLR.step()")
            for f, base in zip(self.lr_lambdas, self.base_lrs)
        ]

    def state_dict(self) -> dict[str, Any]:
        out = super().state_dict()
        out["lr_lambdas"] = [None] * len(self.lr_lambdas)
        return out


class MultiplicativeLR(LRScheduler):
    """Each group's lr times lr_lambda(epoch), at every step after the first."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("lr_lambdas",)

    def __init__(self, optimizer: Any, lr_lambda: Any, last_epoch: Any = -1):
        self.lr_lambdas = _lambdas(lr_lambda, optimizer, "MultiplicativeLR()")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self._is_initial:
            return lrs
        return [
            lr * _factor(f(self.last_epoch), "MultiplicativeLR.step()")
            for f, lr in zip(self.lr_lambdas, lrs)
        ]

    def state_dict(self) -> dict[str, Any]:
        out = super().state_dict()
        out["lr_lambdas"] = [None] * len(self.lr_lambdas)
        return out


class ConstantLR(LRScheduler):
    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("factor", "total_iters")
    OWN = ("factor", "total_iters")

    def __init__(
        self, optimizer: Any, factor: Any = 1.0 / 3, total_iters: Any = 5, last_epoch: Any = -1
    ):
        self.factor = _number(factor, "factor", "ConstantLR()", keep=True)
        if self.factor > 1.0 or self.factor < 0:
            raise GradcliError(
                "Constant multiplicative factor expected to be between 0 and 1."
            ).mirror("ValueError")
        self.total_iters = _int_arg(total_iters, "total_iters", "ConstantLR()")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in lrs]
        if self.last_epoch != self.total_iters:
            return lrs
        if self.factor == 0:
            raise GradcliError("float division by zero", hint="factor > 0")
        return [lr * (1.0 / self.factor) for lr in lrs]

    def _closed_form(self) -> list[Any]:
        f = self.factor
        return [
            base * (f + (self.last_epoch >= self.total_iters) * (1 - f)) for base in self.base_lrs
        ]


class LinearLR(LRScheduler):
    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("start_factor", "end_factor", "total_iters")
    OWN = ("start_factor", "end_factor", "total_iters")

    def __init__(
        self,
        optimizer: Any,
        start_factor: Any = 1.0 / 3,
        end_factor: Any = 1.0,
        total_iters: Any = 5,
        last_epoch: Any = -1,
    ):
        fn = "LinearLR()"
        self.start_factor = _number(start_factor, "start_factor", fn, keep=True)
        if self.start_factor > 1.0 or self.start_factor <= 0:
            raise GradcliError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            ).mirror("ValueError")
        self.end_factor = _number(end_factor, "end_factor", fn, keep=True)
        if self.end_factor > 1.0 or self.end_factor < 0:
            raise GradcliError(
                "Ending multiplicative factor expected to be between 0 and 1."
            ).mirror("ValueError")
        self.total_iters = _int_arg(total_iters, "total_iters", fn)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        s, e, n = self.start_factor, self.end_factor, self.total_iters
        if self.last_epoch == 0:
            return [lr * s for lr in lrs]
        if self._is_initial or self.last_epoch > n:
            return lrs
        den = n * s + (self.last_epoch - 1) * (e - s)
        if den == 0:
            raise GradcliError("float division by zero", hint="total_iters >= 1")
        return [lr * (1.0 + (e - s) / den) for lr in lrs]

    def _closed_form(self) -> list[Any]:
        s, e, n = self.start_factor, self.end_factor, self.total_iters
        if n == 0:
            raise GradcliError("float division by zero", hint="total_iters >= 1")
        return [base * (s + (e - s) * min(n, self.last_epoch) / n) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Each lr times ((1 - t/n) / (1 - (t-1)/n)) ** power at step t <= n: base_lr * (1 -
    t/n) ** power in PyTorch's recursive form."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("total_iters", "power")
    OWN = ("total_iters", "power")

    def __init__(
        self, optimizer: Any, total_iters: Any = 5, power: Any = 1.0, last_epoch: Any = -1
    ):
        self.total_iters = _int_arg(total_iters, "total_iters", "PolynomialLR()")
        self.power = _number(power, "power", "PolynomialLR()", keep=True)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        lrs = self._lrs()
        t, n = self.last_epoch, self.total_iters
        if self._is_initial or t > n:
            return lrs
        if n == 0 or t - 1 == n:
            raise GradcliError("float division by zero", hint="total_iters >= 1")
        factor = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [lr * factor for lr in lrs]

    def _closed_form(self) -> list[Any]:
        n = self.total_iters
        if n == 0:
            raise GradcliError("float division by zero", hint="total_iters >= 1")
        return [base * (1.0 - min(n, self.last_epoch) / n) ** self.power for base in self.base_lrs]


class OneCycleLR(LRScheduler):
    """The 1cycle policy: the lr rises from max_lr / div_factor to max_lr over pct_start of
    the steps, then falls to that / final_div_factor (cosine or linear), and with
    `cycle_momentum` the momentum (SGD's, or Adam's beta1) moves the other way between
    max_momentum and base_momentum. Each value is computed from the phase's ends, as
    PyTorch's (so its floats); the group keys PyTorch adds (initial_lr, max_lr, min_lr,
    max_momentum, base_momentum) are added."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("total_steps", "cycle_momentum")
    OWN = ("total_steps", "_schedule_phases", "_anneal_func_type", "cycle_momentum", "use_beta1")

    def __init__(
        self,
        optimizer: Any,
        max_lr: Any,
        total_steps: Any = None,
        epochs: Any = None,
        steps_per_epoch: Any = None,
        pct_start: Any = 0.3,
        anneal_strategy: Any = "cos",
        cycle_momentum: Any = True,
        base_momentum: Any = 0.85,
        max_momentum: Any = 0.95,
        div_factor: Any = 25.0,
        final_div_factor: Any = 1e4,
        three_phase: Any = False,
        last_epoch: Any = -1,
    ):
        fn = "OneCycleLR()"
        if not isinstance(optimizer, Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
        if total_steps is not None:
            if (
                isinstance(total_steps, bool)
                or not isinstance(total_steps, int)
                or total_steps <= 0
            ):
                raise GradcliError(
                    f"Expected positive integer total_steps, but got {total_steps}"
                ).mirror("ValueError")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            for what, v in (("epochs", epochs), ("steps_per_epoch", steps_per_epoch)):
                if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                    raise GradcliError(f"Expected positive integer {what}, but got {v}").mirror(
                        "ValueError"
                    )
            self.total_steps = epochs * steps_per_epoch
        else:
            raise GradcliError(
                "You must define either total_steps OR (epochs AND steps_per_epoch)"
            ).mirror("ValueError")
        if not isinstance(pct_start, float) or pct_start < 0 or pct_start > 1:
            raise GradcliError(
                f"Expected float between 0 and 1 pct_start, but got {pct_start}"
            ).mirror("ValueError")
        n = self.total_steps
        up = {"start_lr": "initial_lr", "end_lr": "max_lr"}
        if three_phase:
            self._schedule_phases = [
                {"end_step": float(pct_start * n) - 1, **up,
                 "start_momentum": "max_momentum", "end_momentum": "base_momentum"},
                {"end_step": float(2 * pct_start * n) - 2, "start_lr": "max_lr",
                 "end_lr": "initial_lr", "start_momentum": "base_momentum",
                 "end_momentum": "max_momentum"},
                {"end_step": n - 1, "start_lr": "initial_lr", "end_lr": "min_lr",
                 "start_momentum": "max_momentum", "end_momentum": "max_momentum"},
            ]  # fmt: skip
        else:
            self._schedule_phases = [
                {"end_step": float(pct_start * n) - 1, **up,
                 "start_momentum": "max_momentum", "end_momentum": "base_momentum"},
                {"end_step": n - 1, "start_lr": "max_lr", "end_lr": "min_lr",
                 "start_momentum": "base_momentum", "end_momentum": "max_momentum"},
            ]  # fmt: skip
        if anneal_strategy not in ("cos", "linear"):
            raise GradcliError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            ).mirror("ValueError")
        self._anneal_func_type = anneal_strategy
        groups = optimizer.param_groups
        max_lrs = _per_group("max_lr", groups, max_lr, fn)
        if last_epoch == -1:
            for m, group in zip(max_lrs, groups):
                group["initial_lr"] = m / _number(div_factor, "div_factor", fn, keep=True)
                group["max_lr"] = m
                group["min_lr"] = group["initial_lr"] / _number(
                    final_div_factor, "final_div_factor", fn, keep=True
                )
        self.cycle_momentum = bool(cycle_momentum)
        if self.cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise GradcliError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
                ).mirror("ValueError")
            self.use_beta1 = "betas" in optimizer.defaults
            tops = _per_group("max_momentum", groups, max_momentum, fn)
            bottoms = _per_group("base_momentum", groups, base_momentum, fn)
            if last_epoch == -1:
                for top, bottom, group in zip(tops, bottoms, groups):
                    if self.use_beta1:
                        group["betas"] = (top, *group["betas"][1:])
                    else:
                        group["momentum"] = top
                    group["max_momentum"] = top
                    group["base_momentum"] = bottom
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """The base's, with `use_beta1` after `cycle_momentum` when momentum cycles: PyTorch
        sets that attribute only then (True for Adam-like betas, False for SGD's momentum)."""
        out = super().state_dict()
        if not self.cycle_momentum:
            return out
        keys = list(out)
        at = keys.index("cycle_momentum") + 1
        items = list(out.items())
        return dict(items[:at] + [("use_beta1", self.use_beta1)] + items[at:])

    def _anneal(self, start: float, end: float, pct: float) -> float:
        import math

        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[Any]:
        t = self.last_epoch
        if t > self.total_steps:
            raise GradcliError(
                f"Tried to step {t} times. The specified number of total steps is "
                f"{self.total_steps}",
                hint="make total_steps (or epochs * steps_per_epoch) the number of step() calls",
            ).mirror("ValueError")
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            phases = self._schedule_phases
            for i, phase in enumerate(phases):
                end = phase["end_step"]
                if t <= end or i == len(phases) - 1:
                    if end == start:
                        raise GradcliError("float division by zero", hint="more total_steps")
                    pct = (t - start) / (end - start)
                    lr = self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct)
                    if self.cycle_momentum:
                        mom = self._anneal(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct
                        )
                    break
                start = end
            lrs.append(lr)
            if self.cycle_momentum:
                if self.use_beta1:
                    group["betas"] = (mom, *group["betas"][1:])
                else:
                    group["momentum"] = mom
        return lrs


def _per_group(name: str, groups: list, value: Any, fn: str) -> list[float]:
    """A hyperparameter for each param group: a list or tuple of one per group, or one for
    all (PyTorch's `_format_param`)."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(groups):
            raise GradcliError(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(value)} values, param_groups has {len(groups)}."
            ).mirror("ValueError")
        return [_number(v, name, fn, keep=True) for v in value]
    return [_number(value, name, fn, keep=True)] * len(groups)


class ReduceLROnPlateau:
    """`ReduceLROnPlateau`: `step(metric)` counts the epochs without improvement (relative or
    absolute threshold, min or max mode) and multiplies the learning rates by `factor` after
    more than `patience` of them, then waits `cooldown` epochs."""

    PROGRAM_METHODS = ("step", "get_last_lr", "state_dict", "load_state_dict")
    # a base of the program's own schedulers (`lang.optimizers.PlateauInstance`)
    PROGRAM_BASE = "plateau"
    program_class = staticmethod(LRScheduler.program_class)
    __repr__ = LRScheduler.__repr__
    PROGRAM_UNDERSCORED = ("_last_lr",)  # (read: what tutorials print)
    PROGRAM_DATA = (
        "optimizer",
        "last_epoch",
        "best",
        "num_bad_epochs",
        "patience",
        "factor",
        "cooldown",
        "cooldown_counter",
        "min_lrs",
        "mode",
        "threshold",
        "threshold_mode",
        "eps",
        "in_cooldown",
    )

    def __init__(
        self,
        optimizer: Any,
        mode: Any = "min",
        factor: Any = 0.1,
        patience: Any = 10,
        threshold: Any = 1e-4,
        threshold_mode: Any = "rel",
        cooldown: Any = 0,
        min_lr: Any = 0,
        eps: Any = 1e-8,
    ) -> None:
        fn = "ReduceLROnPlateau()"
        self.factor = _number(factor, "factor", fn, keep=True)
        if self.factor >= 1.0:
            raise GradcliError("Factor should be < 1.0.").mirror("ValueError")
        if not isinstance(optimizer, Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise GradcliError(f"expected {n} min_lrs, got {len(min_lr)}").mirror("ValueError")
            self.default_min_lr: Any = None
            self.min_lrs = [_number(m, "min_lr", fn, keep=True) for m in min_lr]
        else:
            self.default_min_lr = _number(min_lr, "min_lr", fn, keep=True)
            self.min_lrs = [self.default_min_lr] * n
        self.patience = _int_arg(patience, "patience", fn)
        self.cooldown = _int_arg(cooldown, "cooldown", fn)
        self.eps = _number(eps, "eps", fn, keep=True)
        self.last_epoch = 0
        self._last_lr = [g["lr"] for g in optimizer.param_groups]
        for v in (mode, threshold_mode):
            if not isinstance(v, str):
                raise GradcliError(
                    f'can only concatenate str (not "{typename(v)}") to str',
                    hint="mode='min' or 'max', threshold_mode='rel' or 'abs'",
                ).mirror("TypeError")
        if mode not in ("min", "max"):
            raise GradcliError(f"mode {mode} is unknown!", hint="'min' or 'max'").mirror(
                "ValueError"
            )
        if threshold_mode not in ("rel", "abs"):
            raise GradcliError(
                f"threshold mode {threshold_mode} is unknown!", hint="'rel' or 'abs'"
            ).mirror("ValueError")
        self.mode_worse = float("inf") if mode == "min" else float("-inf")
        self.mode = mode
        self.threshold = _number(threshold, "threshold", fn, keep=True)
        self.threshold_mode = threshold_mode
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def name(self) -> str:
        return "ReduceLROnPlateau"

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def program_attribute(self, attr: str) -> Any:
        if attr in self.PROGRAM_METHODS or attr in self.PROGRAM_DATA:
            return getattr(self, attr)
        if attr == "_last_lr":  # (what tutorials print from before get_last_lr(): a copy)
            return list(self._last_lr)
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'", found=f"`.{attr}`")

    def get_last_lr(self) -> list[Any]:
        return list(self._last_lr)

    def _is_better(self, a: float, best: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def step(self, metrics: Any, epoch: Any = None) -> None:
        if isinstance(metrics, Tensor):
            if metrics.data.size != 1:
                raise GradcliError(
                    "only one element tensors can be converted to Python scalars",
                    found=f"shape {list(metrics.shape)}",
                ).mirror("ValueError")
            current = float(metrics.data.reshape(()))
        elif isinstance(metrics, (int, float, np.integer, np.floating)):
            current = float(metrics)
        elif isinstance(metrics, str):  # float(metrics), as PyTorch's
            try:
                current = float(metrics)
            except ValueError:
                shown = metrics if len(metrics) <= 40 else metrics[:40] + "..."
                raise GradcliError(f"could not convert string to float: {shown!r}").mirror(
                    "ValueError"
                ) from None
        else:
            raise GradcliError(
                f"float() argument must be a string or a real number, not '{typename(metrics)}'",
                hint="pass the validation loss: scheduler.step(val_loss)",
            )
        if epoch is not None:
            raise GradcliError(
                "ReduceLROnPlateau.step(metrics, epoch) is deprecated in PyTorch and not "
                "supported by gradcli",
                hint="call step(metric) once per epoch",
            )
        self.last_epoch += 1
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise GradcliError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs "
                    f"from when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), "
                    "usually due to a new param group being added to the optimizer. Please "
                    "modify the `min_lrs` field to match the length of the `optimizer` param "
                    "groups."
                )
            self.min_lrs = [self.default_min_lr] * len(groups)
        for i, group in enumerate(groups):
            old_lr = float(_number(group["lr"], "lr", "ReduceLROnPlateau.step()"))
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    def state_dict(self) -> dict[str, Any]:
        keys = (
            "factor",
            "default_min_lr",
            "min_lrs",
            "patience",
            "cooldown",
            "eps",
            "last_epoch",
            "_last_lr",
            "mode_worse",
            "mode",
            "threshold",
            "threshold_mode",
            "best",
            "cooldown_counter",
            "num_bad_epochs",
        )
        return {k: _state_value(getattr(self, k)) for k in keys}

    def load_state_dict(self, state_dict: Any) -> None:
        _load_state(self, state_dict)


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from each base lr to eta_min over T_i steps, then a restart, T_i
    growing T_mult times at each restart; `step(epoch)` takes a fractional epoch (a step per
    batch), as PyTorch's."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("T_0", "T_i", "T_mult", "eta_min", "T_cur")
    OWN = ("T_0", "T_i", "T_mult", "eta_min", "T_cur")

    def __init__(
        self,
        optimizer: Any,
        T_0: Any,  # noqa: N803
        T_mult: Any = 1,  # noqa: N803
        eta_min: Any = 0.0,
        last_epoch: Any = -1,
    ) -> None:
        if isinstance(T_0, bool) or not isinstance(T_0, int) or T_0 <= 0:
            raise GradcliError(f"Expected positive integer T_0, but got {_py(T_0)}").mirror(
                "ValueError"
            )
        if isinstance(T_mult, bool) or not isinstance(T_mult, int) or T_mult < 1:
            raise GradcliError(f"Expected integer T_mult >= 1, but got {_py(T_mult)}").mirror(
                "ValueError"
            )
        if isinstance(eta_min, bool) or not isinstance(eta_min, (int, float)):
            raise GradcliError(
                f"Expected float or int eta_min, but got {_py(eta_min)} of type "
                f"{_python_type(eta_min)}"
            ).mirror("ValueError")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur: Any = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        import math

        e = self.eta_min
        c = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return [e + (base - e) * c / 2 for base in self.base_lrs]

    def step(self, epoch: Any = None) -> None:
        import math

        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            epoch = _number(epoch, "epoch", "CosineAnnealingWarmRestarts.step()")
            if isinstance(epoch, float) and not math.isfinite(epoch):
                raise GradcliError(f"cannot convert float {epoch} to integer").mirror(
                    "OverflowError"
                )
            if epoch < 0:
                raise GradcliError(f"Expected non-negative epoch, but got {_py(epoch)}").mirror(
                    "ValueError"
                )
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult**n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]


def _python_type(v: Any) -> str:
    return f"<class '{typename(v)}'>"


def _per_group_values(name: str, optimizer: Optimizer, value: Any) -> list[float]:
    """CyclicLR's `base_lr`, `max_lr`, momenta: one number for every group, or a list of one
    per group."""
    n = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise GradcliError(f"expected {n} values for {name}, got {len(value)}").mirror(
                "ValueError"
            )
        return [_number(v, name, "CyclicLR()", keep=True) for v in value]
    return [_number(value, name, "CyclicLR()", keep=True)] * n


class CyclicLR(LRScheduler):
    """The learning rate cycling between base_lr and max_lr (triangular, triangular2,
    exp_range or the program's scale_fn), the momentum (or Adam's beta1) cycling the other
    way, as PyTorch's (which sets the momentum even of an SGD made without one)."""

    PROGRAM_DATA = LRScheduler.PROGRAM_DATA + ("max_lrs", "total_size", "step_ratio", "mode")
    OWN = (
        "max_lrs",
        "total_size",
        "step_ratio",
        "mode",
        "gamma",
        "_scale_fn_custom",
        "scale_mode",
        "cycle_momentum",
        "use_beta1",
        "base_momentums",
        "max_momentums",
    )

    def __init__(
        self,
        optimizer: Any,
        base_lr: Any,
        max_lr: Any,
        step_size_up: Any = 2000,
        step_size_down: Any = None,
        mode: Any = "triangular",
        gamma: Any = 1.0,
        scale_fn: Any = None,
        scale_mode: Any = "cycle",
        cycle_momentum: Any = True,
        base_momentum: Any = 0.8,
        max_momentum: Any = 0.9,
        last_epoch: Any = -1,
    ) -> None:
        fn = "CyclicLR()"
        if not isinstance(optimizer, Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
        base_lrs = _per_group_values("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                group["lr"] = lr
        self.max_lrs = _per_group_values("max_lr", optimizer, max_lr)
        up = float(_number(step_size_up, "step_size_up", fn))
        down = (
            float(_number(step_size_down, "step_size_down", fn))
            if step_size_down is not None
            else up
        )
        self.total_size = up + down
        if self.total_size == 0:
            raise GradcliError("float division by zero", hint="step_size_up >= 1")
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise GradcliError("mode is invalid and scale_fn is None").mirror("ValueError")
        if scale_fn is not None and not callable(scale_fn):
            raise GradcliError(f"scale_fn should be a function, but got {typename(scale_fn)}")
        self.mode = mode
        self.gamma = _number(gamma, "gamma", fn, keep=True)
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        self.cycle_momentum = _flag(cycle_momentum, "cycle_momentum", fn)
        if self.cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise GradcliError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled",
                    hint="cycle_momentum=False",
                ).mirror("ValueError")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group_values("base_momentum", optimizer, base_momentum)
            self.max_momentums = _per_group_values("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                for top, low, group in zip(
                    self.max_momentums, self.base_momentums, optimizer.param_groups
                ):
                    if self.use_beta1:
                        group["betas"] = (top, *group["betas"][1:])
                    else:
                        group["momentum"] = top
                    group["max_momentum"] = top
                    group["base_momentum"] = low
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _scale(self, x: float) -> float:
        if self._scale_fn_custom is not None:
            return _factor(self._scale_fn_custom(x), "CyclicLR.step()")
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        if self.mode == "exp_range":
            return self.gamma**x
        return 1.0

    def get_lr(self) -> list[Any]:
        import math

        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [
            base + (top - base) * scale_factor * self._scale(at)
            for base, top in zip(self.base_lrs, self.max_lrs)
        ]
        if self.cycle_momentum:
            for group, low, top in zip(
                self.optimizer.param_groups, self.base_momentums, self.max_momentums
            ):
                momentum = top - (top - low) * scale_factor * self._scale(at)
                if self.use_beta1:
                    group["betas"] = (momentum, *group["betas"][1:])
                else:
                    group["momentum"] = momentum
        return lrs

    def state_dict(self) -> dict[str, Any]:
        out = super().state_dict()
        # (PyTorch pops the function and puts None back: the key moves to the end)
        out.pop("_scale_fn_custom", None)
        out["_scale_fn_custom"] = None
        return out


def _ticked(state: Any) -> Any:
    """A nested scheduler's state, one tick of the run's budget each (a chain of chains that
    share one scheduler is 2**60 states long)."""
    limits.BUDGET.tick()
    return state


def _schedulers_of(kind: str, schedulers: Any, optimizer: Any) -> list[LRScheduler]:
    items = _listed(schedulers, "schedulers") if not isinstance(schedulers, list) else schedulers
    if len(items) < 1:
        raise GradcliError(
            f"{kind} expects at least one scheduler"
            + (" to be chained" if kind == "ChainedScheduler" else "")
            + ", but got no scheduler."
        ).mirror("ValueError")
    optimizer = optimizer or getattr(items[0], "optimizer", None)
    for i, sched in enumerate(items):
        if isinstance(sched, ReduceLROnPlateau):
            raise GradcliError(
                f"{kind} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{i} in the given schedulers sequence."
            ).mirror("ValueError")
        if not isinstance(sched, LRScheduler):
            raise GradcliError(
                f"{kind} at index {i} should have `optimizer` as its attribute."
            ).mirror("TypeError")
        if sched.optimizer is not optimizer:
            raise GradcliError(
                f"{kind} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {sched.name} at index {i} has {sched.optimizer!r}, which is "
                f"different from {typename(optimizer)}."
            ).mirror("ValueError")
    return items


class SequentialLR(LRScheduler):
    """Schedulers one after another, switching at the milestones (the next one starts from
    its own epoch 0), as PyTorch's."""

    PROGRAM_METHODS = ("step", "get_last_lr", "state_dict", "load_state_dict")
    PROGRAM_DATA = ("optimizer", "last_epoch")

    def __init__(
        self, optimizer: Any, schedulers: Any, milestones: Any, last_epoch: Any = -1
    ) -> None:
        import bisect

        if not isinstance(optimizer, Optimizer):
            raise GradcliError(f"{typename(optimizer)} is not an Optimizer").mirror("TypeError")
        self._schedulers = _schedulers_of("SequentialLR", schedulers, optimizer)
        marks = [
            _int_arg(m, "milestones", "SequentialLR()") for m in _listed(milestones, "milestones")
        ]
        if len(marks) != len(self._schedulers) - 1:
            raise GradcliError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                f"than the number of milestone points, but got number of schedulers "
                f"{len(self._schedulers)} and the number of milestones to be equal to "
                f"{len(marks)}"
            ).mirror("ValueError")
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int):
            raise GradcliError(f"last_epoch must be an int, not {typename(last_epoch)}")
        self._milestones = marks
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        self._undo(self)
        first = self._schedulers[bisect.bisect_right(marks, 0)]
        first._step_count = 0
        first._is_initial = True
        try:
            first.step()
        finally:
            first._is_initial = False
        self._last_lr = first.get_last_lr()

    def _undo(self, sched: Any) -> None:
        """Take back the step each (nested) scheduler made when it was made."""
        limits.BUDGET.tick()  # nested schedulers may share one: 2**60 visits
        if isinstance(sched, (SequentialLR, ChainedScheduler)):
            for inner in sched._schedulers:
                self._undo(inner)
        elif isinstance(sched, LRScheduler):
            sched.last_epoch -= 1

    def step(self, epoch: Any = None) -> None:
        import bisect

        if epoch is not None:
            raise GradcliError("SequentialLR.step() takes no epoch", found=typename(epoch))
        self.last_epoch += 1
        idx = bisect.bisect_right(self._milestones, self.last_epoch)
        sched = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            sched._update_lr_at(0)
        else:
            sched.step()
        self._last_lr = sched.get_last_lr()

    def state_dict(self) -> dict[str, Any]:
        return {
            "_milestones": list(self._milestones),
            "last_epoch": self.last_epoch,
            "_last_lr": list(self._last_lr),
            "_schedulers": [_ticked(s.state_dict()) for s in self._schedulers],
        }


class ChainedScheduler(LRScheduler):
    """Several schedulers stepped together (each multiplying into the lr the one before set),
    as PyTorch's."""

    PROGRAM_METHODS = ("step", "get_last_lr", "state_dict", "load_state_dict")
    PROGRAM_DATA = ("optimizer",)

    def __init__(self, schedulers: Any, optimizer: Any = None) -> None:
        self._schedulers = _schedulers_of("ChainedScheduler", schedulers, optimizer)
        self.optimizer = optimizer or self._schedulers[0].optimizer
        self._last_lr = [g["lr"] for g in self._schedulers[-1].optimizer.param_groups]

    def step(self, epoch: Any = None) -> None:
        if epoch is not None:
            raise GradcliError("ChainedScheduler.step() takes no epoch", found=typename(epoch))
        for sched in self._schedulers:
            sched.step()
            limits.BUDGET.tick()  # a chain may hold the same scheduler a million times
        self._last_lr = [g["lr"] for g in self._schedulers[-1].optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        return {
            "_last_lr": list(self._last_lr),
            "_schedulers": [_ticked(s.state_dict()) for s in self._schedulers],
        }


def _constructor(cls: type) -> Callable[..., Any]:
    """`optim.SGD(...)` as a program calls it (a program never holds a Python class)."""

    def make(*args: Any, **kwargs: Any) -> Any:
        return cls(*args, **kwargs)

    make.__name__ = cls.__name__
    make.made_class = cls  # type: ignore[attr-defined]  # (isinstance(opt, torch.optim.Adam))
    # The class's own parameters, so that a call that does not fit them is the program's error
    # in Python's words (lang.calls binds the signature before calling).
    make.__signature__ = inspect.signature(cls)  # type: ignore[attr-defined]
    return make


# torch.optim.X and torch.optim.lr_scheduler.X as a program names them.
OPTIMIZERS: dict[str, Callable[..., Any]] = {
    c.__name__: _constructor(c)
    for c in (
        SGD,
        Adam,
        Adafactor,
        Muon,
        AdamW,
        RMSprop,
        Adagrad,
        Adadelta,
        Adamax,
        NAdam,
        RAdam,
        Rprop,
        ASGD,
        LBFGS,
        SparseAdam,
    )
}
SCHEDULERS: dict[str, Callable[..., Any]] = {
    c.__name__: _constructor(c)
    for c in (
        StepLR,
        MultiStepLR,
        ExponentialLR,
        CosineAnnealingLR,
        LambdaLR,
        MultiplicativeLR,
        ConstantLR,
        LinearLR,
        PolynomialLR,
        OneCycleLR,
        ReduceLROnPlateau,
        CosineAnnealingWarmRestarts,
        CyclicLR,
        SequentialLR,
        ChainedScheduler,
    )
}
# type(opt) of an optimizer or scheduler: the constructor the program names its class by
CONSTRUCTORS: dict[type, Callable[..., Any]] = {
    f.made_class: f  # type: ignore[attr-defined]
    for f in (*OPTIMIZERS.values(), *SCHEDULERS.values())
}
