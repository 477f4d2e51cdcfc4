"""A program's own optimizer: `class MySGD(torch.optim.Optimizer)`, as teaching material
writes one (`super().__init__(params, defaults)`, `@torch.no_grad() def step(self,
closure=None)` walking `self.param_groups` and `self.state[p]`).

Its instance is the surface's `Optimizer` (parameter groups and their checks, `state`,
`zero_grad`, `add_param_group`, `state_dict`/`load_state_dict`, PyTorch's repr with the class's
name, what the learning-rate schedulers read) with the program's methods before the base's, and
the program's own attributes in a table. Loaded when a program's class first derives from
`torch.optim.Optimizer` (torch.optim is loaded then already)."""

from __future__ import annotations

import math
from typing import Any

from ..base.errors import GradcliError, NotSupported, call_did_not_fit
from ..core.tensor import typename
from ..surface import optim as O
from .classes import ABSENT, INSTANCE_KINDS, OptimClass, ProgramObject, _bound, _method
from .values import BoundMethod, Builtin


class OptimizerInstance(ProgramObject, O.Optimizer):
    """An instance of a program's Optimizer subclass; `base_init` is `Optimizer.__init__`
    (what `super().__init__(params, defaults)` runs). Until it has run, the base's
    attributes are missing, in Python's words."""

    # torch's optimizer the program's class derives from, other than Optimizer itself
    # (`class MyAdam(torch.optim.Adam)`: the instance's Python class is made on that one)
    BUILTIN_BASE: Any = None

    def __init__(self, cls: OptimClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}
        self.initialized = False
        self._stepped = False

    @property
    def name(self) -> str:
        return self.cls.name

    def program_typename(self) -> str:
        return self.cls.name

    def base_init(self, params: Any = None, defaults: Any = None, *extra: Any, **kw: Any) -> None:
        if extra or kw or params is None or defaults is None:
            given = 1 + (params is not None) + (defaults is not None) + len(extra)
            if kw:
                raise GradcliError(
                    f"Optimizer.__init__() got an unexpected keyword argument '{next(iter(kw))}'"
                ).mirror("TypeError")
            if extra:
                raise GradcliError(
                    f"Optimizer.__init__() takes 3 positional arguments but {given} were given"
                ).mirror("TypeError")
            missing = "'params' and 'defaults'" if params is None else "'defaults'"
            raise GradcliError(
                f"Optimizer.__init__() missing {2 - (given - 1)} required positional "
                f"argument{'s' * (params is None)}: {missing}",
                hint="super().__init__(params, defaults) with defaults = dict(lr=lr)",
            ).mirror("TypeError")
        if not isinstance(defaults, dict):
            # PyTorch reads defaults.items() as it adds the groups
            raise GradcliError(
                f"'{typename(defaults)}' object has no attribute 'items'",
                hint="defaults is a dict of the hyperparameters: dict(lr=lr)",
            ).mirror("AttributeError")
        O.Optimizer.__init__(self, params, defaults)
        self.initialized = True

    # -- what the language asks of it -------------------------------------------------------
    def get(self, rt: Any, attr: str) -> Any:
        value = self.own_attribute(attr)
        if value is not ABSENT:
            if attr == "step" and isinstance(value, BoundMethod) and "step" not in self.attrs:
                return _stepping(value)
            return value
        if attr == "__name__":
            raise GradcliError(f"'{self.name}' object has no attribute '__name__'").mirror(
                "AttributeError"
            )
        if not self.initialized and attr in self.PROGRAM_DATA and not self.has(attr):
            raise GradcliError(
                f"'{self.name}' object has no attribute '{attr}'",
                hint="call super().__init__(params, defaults) first in __init__",
            ).mirror("AttributeError")
        if attr in self.PROGRAM_METHODS:
            method = _base_method(attr, self.BUILTIN_BASE)
            if attr == "step" and self.step_hooked():
                inner = method

                def method(obj: Any, *args: Any, **kwargs: Any) -> Any:
                    return obj.hooked_step(inner)(*args, **kwargs)

            return BoundMethod(attr, method, self, raw=True)
        return O.Optimizer.program_attribute(self, attr)

    def has(self, attr: str) -> bool:
        """Whether the instance holds `attr` of what Optimizer.__init__ sets: after that
        __init__, or assigned by the program's own (a wrapper such as Lookahead that never
        calls it: `self.param_groups = self.optimizer.param_groups`, `self.state = ...`)."""
        if self.initialized:
            return True
        return ("_state" if attr == "state" else attr) in self.__dict__

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if attr == "state":
            # `self.state = dict()` in a program's __init__ (its entries filled by hand): the
            # program's dict stands for the state, as PyTorch's attribute is then that dict
            self._state = O.assigned_state(value)
            return
        if attr == "param_groups":
            self.param_groups = O.assigned_groups(value)
            return
        if attr == "defaults":
            self.defaults = value
            return
        self.attrs[attr] = value

    def base_attribute(self, attr: str) -> Any:
        """`super().attr` reaching torch's Optimizer: its method bound to this instance."""
        base = self.BUILTIN_BASE or O.Optimizer
        if attr == "__init__":
            return Builtin(f"{base.__name__}.__init__", self.base_init)
        if attr == "__setstate__":
            return Builtin("Optimizer.__setstate__", self._base_setstate)
        if attr in self.PROGRAM_METHODS:
            return BoundMethod(attr, _base_method(attr, self.BUILTIN_BASE), self, raw=True)
        return None

    # -- the base's behaviour with the program's methods --------------------------------------
    def step(self, closure: Any = None) -> Any:
        fn = _method(self.cls.lookup("step"))
        if fn is None:
            if self.BUILTIN_BASE is not None:
                return self.BUILTIN_BASE.step(self, closure)
            _not_implemented()
        self._stepped = True
        return _bound(fn, self)(closure)

    def _set_loaded(self, state: Any, groups: list[dict[str, Any]]) -> None:
        """load_state_dict's last step: PyTorch gives the new state and groups to
        `self.__setstate__`, the program's if it defines one (which calls the base's)."""
        fn = _method(self.cls.lookup("__setstate__"))
        if fn is None:
            O.Optimizer._set_loaded(self, state, groups)
            return
        _bound(fn, self)({"state": state, "param_groups": groups})

    def _base_setstate(self, state: Any) -> None:
        if not isinstance(state, dict):
            raise GradcliError(
                f"Optimizer.__setstate__() takes a dict, not {typename(state)}"
            ).mirror("TypeError")
        for key, value in state.items():
            if key == "state":
                if not isinstance(value, dict):
                    raise NotSupported("an optimizer's state must be a dict")
                O.Optimizer._set_loaded(self, value, self.param_groups)
            elif key == "param_groups":
                self.set(None, "param_groups", value)
            elif key == "defaults":
                self.defaults = value
            elif isinstance(key, str) and not key.startswith("_"):
                self.attrs[key] = value
            else:
                raise NotSupported(
                    f"Optimizer.__setstate__ with the key {key!r} is not supported",
                    hint="keep 'state', 'param_groups' and the program's own names",
                )

    def __repr__(self) -> str:
        if not self.has("param_groups"):
            raise _missing(self, "param_groups")
        return O.Optimizer.__repr__(self)


def _not_implemented() -> None:
    """The base's `step` (`get_lr`) of a class that does not define its own: PyTorch's bare
    `raise NotImplementedError`."""
    from .exceptions import CLASSES, ExcValue, ProgramError

    raise ProgramError(ExcValue(CLASSES["NotImplementedError"], ()))


def _base_method(attr: str, builtin: Any = None) -> Any:
    """The base's method `attr` (what `super().attr` reaches): Optimizer's, or that of torch's
    optimizer the class derives from (`super().step(closure)` of a `torch.optim.Adam`
    subclass is Adam's step)."""
    if attr == "step" and builtin is None:
        return lambda obj, *args, **kwargs: _not_implemented()
    kind = builtin or O.Optimizer

    def call(obj: Any, *args: Any, **kwargs: Any) -> Any:
        # what PyTorch's method reads, in its order, of what Optimizer.__init__ sets: missing
        # in a subclass whose __init__ does not call it, unless the program assigned it
        for need in _UNINITIALIZED_READS.get(attr, ("defaults", "param_groups")):
            if not obj.has(need):
                raise _missing(obj, need)
        return getattr(kind, attr)(obj, *args, **kwargs)

    return call


# What PyTorch 2.13's optimizer methods read first of what Optimizer.__init__ sets (their
# AttributeError in a subclass whose __init__ does not call super().__init__); the others
# (zero_grad, add_param_group, a built-in optimizer's step) read defaults, then param_groups.
_UNINITIALIZED_READS = {
    "state_dict": ("_optimizer_state_dict_pre_hooks",),
    "load_state_dict": ("_optimizer_load_state_dict_pre_hooks",),
}


def _missing(obj: Any, attr: str) -> GradcliError:
    return GradcliError(
        f"'{obj.name}' object has no attribute '{attr}'",
        hint="call super().__init__(...) first in __init__",
    ).mirror("AttributeError")


def _builtin_init(obj: Any, args: tuple, kw: dict) -> None:
    """`super().__init__(params, lr=...)` of a subclass of one of torch's optimizers or
    schedulers: that class's `__init__`, the call checked against its signature first (a call
    that does not fit is the program's TypeError, in Python's words)."""
    base = obj.BUILTIN_BASE
    try:
        base.__init__(obj, *args, **kw)
    except TypeError as e:
        if not call_did_not_fit(e, here=True):
            raise  # (from inside: a gradcli bug, not the program's call)
        # Python's words for the call, which are PyTorch's: `Adam.__init__() got an
        # unexpected keyword argument 'learning_rate'`
        raise GradcliError(str(e)).mirror("TypeError") from None


def _optimizer_init(obj: Any, *args: Any, **kw: Any) -> None:
    _builtin_init(obj, args, kw)
    obj.initialized = True


def _scheduler_init(obj: Any, *args: Any, **kw: Any) -> None:
    if not obj.initialized:
        obj.before = list(obj.attrs)
    obj.initialized = True
    _builtin_init(obj, args, kw)


# The Python class of the instances of a program's class on each of torch's optimizers and
# schedulers: the language's instance class and torch's (`OptimizerInstance` before `Adam`).
_MADE: dict[type, type] = {}


def _instance_class(kind: type, base: type, init: Any) -> type:
    made = _MADE.get(base)
    if made is None:
        entries = {"__module__": __name__, "BUILTIN_BASE": base, "base_init": init}
        made = _MADE[base] = type(base.__name__, (kind, base), entries)
    return made


def new_optimizer(cls: OptimClass) -> OptimizerInstance:
    if cls.base is O.Optimizer:
        return OptimizerInstance(cls)
    return _instance_class(OptimizerInstance, cls.base, _optimizer_init)(cls)


def new_scheduler(cls: OptimClass) -> SchedulerInstance:
    if cls.base is O.LRScheduler:
        return SchedulerInstance(cls)
    return _instance_class(SchedulerInstance, cls.base, _scheduler_init)(cls)


def _stepping(bound: BoundMethod) -> BoundMethod:
    """The program's `step`, which marks the optimizer as stepped (what a scheduler's
    "lr_scheduler.step() before optimizer.step()" warning asks) as PyTorch's patched step."""
    inner = bound.fn

    def call(obj: Any, *args: Any, **kwargs: Any) -> Any:
        obj._stepped = True
        if obj.step_hooked():
            return obj.hooked_step(inner)(*args, **kwargs)
        return inner(obj, *args, **kwargs)

    return BoundMethod(bound.name, call, bound.obj, raw=bound.raw, user=bound.user)


class SchedulerInstance(ProgramObject, O.LRScheduler):
    """An instance of a program's LRScheduler subclass (`get_lr(self)` reading
    `self.last_epoch`, `self.base_lrs`, `self.optimizer`): the surface's LRScheduler
    (its first step in `__init__`, `step()`, `get_last_lr()`, `state_dict()`, the warning of a
    step before the optimizer's) asking the program's `get_lr` for the new rates."""

    BUILTIN_BASE: Any = None  # as OptimizerInstance's: `class Warm(LambdaLR)`

    def __init__(self, cls: OptimClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}
        self.before: list[str] = []  # the attributes set before the base's __init__ ran
        self.initialized = False

    @property
    def name(self) -> str:
        return self.cls.name

    def program_typename(self) -> str:
        return self.cls.name

    def base_init(
        self, optimizer: Any = None, last_epoch: Any = -1, *extra: Any, **kw: Any
    ) -> None:
        if kw:
            raise GradcliError(
                f"LRScheduler.__init__() got an unexpected keyword argument '{next(iter(kw))}'"
            ).mirror("TypeError")
        if extra:
            raise GradcliError(
                f"LRScheduler.__init__() takes from 2 to 3 positional arguments but "
                f"{3 + len(extra)} were given"
            ).mirror("TypeError")
        if optimizer is None:
            raise GradcliError(
                "LRScheduler.__init__() missing 1 required positional argument: 'optimizer'"
            ).mirror("TypeError")
        if not self.initialized:
            self.before = list(self.attrs)
        self.initialized = True
        O.LRScheduler.__init__(self, optimizer, last_epoch)

    # -- what the language asks of it -------------------------------------------------------
    def get(self, rt: Any, attr: str) -> Any:
        found = self.own_attribute(attr)
        if found is not ABSENT:
            return found
        if not self.initialized and attr in self.PROGRAM_DATA:
            raise GradcliError(
                f"'{self.name}' object has no attribute '{attr}'",
                hint="call super().__init__(optimizer, last_epoch) in __init__",
            ).mirror("AttributeError")
        if attr in self.PROGRAM_METHODS or attr == "get_lr":
            return BoundMethod(attr, _scheduler_method(attr, self.BUILTIN_BASE), self, raw=True)
        if attr in self.PROGRAM_DATA or (attr in _SCHEDULER_READ and self.initialized):
            value = getattr(self, attr)
            return list(value) if isinstance(value, list) else value
        if self._builtin_setting(attr):
            value = self.__dict__[attr]  # (`self.gamma` of a StepLR subclass)
            return list(value) if isinstance(value, list) else value
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if attr == "optimizer":  # (some schedulers keep it before the base's __init__ does)
            if not isinstance(value, O.Optimizer):
                raise NotSupported(
                    f"a scheduler's optimizer must be an optimizer, not {typename(value)}"
                )
            self.optimizer = value
            return
        if attr in ("last_epoch", "base_lrs"):
            if self.initialized:
                O.LRScheduler.program_set(self, attr, value)
            # (before the base's __init__, which sets them: what it will replace)
            return
        if attr == "_last_lr":  # a program's own step() records the rates in use
            if not isinstance(value, list):
                raise NotSupported(
                    f"a scheduler's _last_lr must be a list of learning rates, not "
                    f"{typename(value)}"
                )
            self._last_lr = list(value)
            return
        if self._builtin_setting(attr) and attr not in _SCHEDULER_OWN:
            old = self.__dict__[attr]
            if _number_like(old, value):
                # (`self.T_mult = T_mult` after super().__init__: a number for a number, what
                # the built-in step reads as PyTorch's does)
                self.__dict__[attr] = value
                return
        if attr in _SCHEDULER_OWN or self._builtin_setting(attr):
            raise NotSupported(
                f"setting `{attr}` of a scheduler is not supported",
                hint="the base keeps it; keep the program's own settings under other names",
            )
        self.attrs[attr] = value

    def _builtin_setting(self, attr: str) -> bool:
        """Whether `attr` is a setting torch's scheduler the class derives from keeps
        (`self.gamma`, `self.lr_lambdas`): the program reads it; changing it is refused."""
        return (
            self.BUILTIN_BASE is not None
            and not attr.startswith("_")
            and attr not in _INSTANCE_OWN
            and attr in self.__dict__
        )

    def base_attribute(self, attr: str) -> Any:
        if attr == "__init__":
            base = self.BUILTIN_BASE or O.LRScheduler
            return Builtin(f"{base.__name__}.__init__", self.base_init)
        if attr in self.PROGRAM_METHODS or attr == "get_lr":
            return BoundMethod(attr, _scheduler_method(attr, self.BUILTIN_BASE), self, raw=True)
        return None

    # -- the base's behaviour with the program's methods --------------------------------------
    def get_lr(self) -> list[Any]:
        fn = _method(self.cls.lookup("get_lr"))
        if fn is None:
            if self.BUILTIN_BASE is not None:
                return self.BUILTIN_BASE.get_lr(self)
            _not_implemented()
        values = _bound(fn, self)()
        if not isinstance(values, (list, tuple)):
            raise GradcliError(
                f"{self.name}.get_lr() must return a list of learning rates, one per param "
                f"group, not {typename(values)}"
            ).mirror("TypeError")
        return list(values)

    def step(self, epoch: Any = None) -> None:
        fn = _method(self.cls.lookup("step"))
        if fn is None:
            (self.BUILTIN_BASE or O.LRScheduler).step(self, epoch)
            return
        _bound(fn, self)() if epoch is None else _bound(fn, self)(epoch)

    def state_dict(self) -> dict[str, Any]:
        return _state_with_attrs(self, self.BUILTIN_BASE or O.LRScheduler)

    def load_state_dict(self, state_dict: Any) -> None:
        _load_with_attrs(self, self.BUILTIN_BASE or O.LRScheduler, state_dict)

    def __repr__(self) -> str:
        return f"<__main__.{self.name} object at {id(self):#x}>"


# The base scheduler's own attributes a program's methods read (`self._last_lr`,
# `self._step_count`), and those the base keeps to itself.
_SCHEDULER_READ = frozenset(("_last_lr", "_step_count", "_get_lr_called_within_step"))
_SCHEDULER_OWN = frozenset(
    ("_step_count", "_is_initial", "_get_lr_called_within_step", "initialized", "before", "cls")
)


# The language's own attributes of a scheduler instance (never a setting of torch's class).
_INSTANCE_OWN = frozenset(("cls", "attrs", "before", "initialized", "optimizer"))


def _scheduler_method(attr: str, builtin: Any = None) -> Any:
    """The base's `step` and `get_lr` (what `super().step()` runs: LRScheduler's, or those of
    torch's scheduler the class derives from); its other methods as the instance has them (its
    state_dict holds the program's attributes, as PyTorch's `__dict__`)."""
    if attr == "get_lr" and builtin is None:
        return lambda obj, *args, **kwargs: _not_implemented()
    if attr in ("get_lr", "step"):
        kind = builtin or O.LRScheduler
    else:
        kind = SchedulerInstance
    if builtin is not None:

        def guarded(obj: Any, *args: Any, **kwargs: Any) -> Any:
            if obj.initialized:
                return getattr(kind, attr)(obj, *args, **kwargs)
            try:
                return getattr(kind, attr)(obj, *args, **kwargs)
            except AttributeError as e:  # what the base's __init__ would have set
                raise _missing(obj, e.name or attr) from None

        return guarded

    def call(obj: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(kind, attr)(obj, *args, **kwargs)

    return call


# ReduceLROnPlateau's settings a program's subclass may change (numbers its step reads)
_PLATEAU_NUMBERS = frozenset(
    (
        "factor",
        "patience",
        "cooldown",
        "threshold",
        "eps",
        "best",
        "num_bad_epochs",
        "cooldown_counter",
        "last_epoch",
    )
)


class PlateauInstance(ProgramObject, O.ReduceLROnPlateau):
    """An instance of a program's subclass of `torch.optim.lr_scheduler.ReduceLROnPlateau`
    (`super().__init__(optimizer, mode=..., patience=...)`, a `step(self, metrics)` that logs
    and calls `super().step(metrics)`, an own `_reduce_lr(self, epoch)`): the surface's
    ReduceLROnPlateau with the program's methods before the base's and the program's own
    attributes in a table."""

    def __init__(self, cls: OptimClass) -> None:
        self.cls = cls
        self.attrs: dict[str, Any] = {}
        self.before: list[str] = []
        self.initialized = False

    @property
    def name(self) -> str:
        return self.cls.name

    def program_typename(self) -> str:
        return self.cls.name

    def base_init(self, *args: Any, **kw: Any) -> None:
        if not self.initialized:
            self.before = list(self.attrs)
        try:
            O.ReduceLROnPlateau.__init__(self, *args, **kw)
        except TypeError as e:
            if not call_did_not_fit(e, here=True):
                raise
            raise GradcliError(str(e)).mirror("TypeError") from None
        self.initialized = True

    def get(self, rt: Any, attr: str) -> Any:
        found = self.own_attribute(attr)
        if found is not ABSENT:
            return found
        if attr in self.PROGRAM_METHODS or attr == "_reduce_lr":
            if not self.initialized:
                raise _missing(self, "optimizer" if attr != "get_last_lr" else "_last_lr")
            return BoundMethod(attr, _plateau_method(attr), self, raw=True)
        if attr in self.PROGRAM_DATA or attr == "_last_lr":
            if not self.initialized:
                raise _missing(self, attr)
            value = getattr(self, attr)
            return list(value) if isinstance(value, list) else value
        raise GradcliError(f"'{self.name}' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if attr in _PLATEAU_NUMBERS and self.initialized:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise NotSupported(
                    f"setting ReduceLROnPlateau's `{attr}` to a {typename(value)} is not supported",
                    hint="give it a number",
                )
            setattr(self, attr, value)
            return
        if attr in self.PROGRAM_DATA or attr in _PLATEAU_NUMBERS or attr in _INSTANCE_OWN:
            raise NotSupported(
                f"setting `{attr}` of a ReduceLROnPlateau subclass is not supported here",
                hint="pass it to super().__init__(...), or keep your own value under another name",
            )
        self.attrs[attr] = value

    def base_attribute(self, attr: str) -> Any:
        if attr == "__init__":
            return Builtin("ReduceLROnPlateau.__init__", self.base_init)
        if attr in self.PROGRAM_METHODS or attr == "_reduce_lr":
            return BoundMethod(attr, _plateau_method(attr), self, raw=True)
        return None

    def _reduce_lr(self, epoch: Any = None) -> None:
        """PyTorch's step calls `self._reduce_lr(epoch)`: the program's, if it has one."""
        fn = _method(self.cls.lookup("_reduce_lr"))
        if fn is None:
            O.ReduceLROnPlateau._reduce_lr(self)
            return
        _bound(fn, self)(self.last_epoch)

    def state_dict(self) -> dict[str, Any]:
        return _state_with_attrs(self, O.ReduceLROnPlateau)

    def load_state_dict(self, state_dict: Any) -> None:
        _load_with_attrs(self, O.ReduceLROnPlateau, state_dict)

    def __repr__(self) -> str:
        return f"<__main__.{self.name} object at {id(self):#x}>"


def _plateau_method(attr: str) -> Any:
    """ReduceLROnPlateau's own method (what `super().step(metrics)` runs)."""
    if attr == "_reduce_lr":
        return lambda obj, epoch=None: O.ReduceLROnPlateau._reduce_lr(obj)
    if attr == "step":
        # the base's step, calling back the program's _reduce_lr (PlateauInstance's)
        return lambda obj, *args, **kwargs: O.ReduceLROnPlateau.step(obj, *args, **kwargs)
    # state_dict / load_state_dict / get_last_lr: the instance's (with the program's attributes)
    return lambda obj, *args, **kwargs: getattr(PlateauInstance, attr)(obj, *args, **kwargs)


INSTANCE_KINDS.update(optimizer=new_optimizer, scheduler=new_scheduler, plateau=PlateauInstance)


def _state_with_attrs(obj: Any, base: Any) -> dict[str, Any]:
    """A program scheduler's state_dict: the built-in base's, with the program's own
    attributes where PyTorch's `self.__dict__` has them (those set before the base's __init__
    first, the others after)."""
    state = base.state_dict(obj)
    first = {k: v for k, v in obj.attrs.items() if k in obj.before}
    later = {k: v for k, v in obj.attrs.items() if k not in obj.before}
    return {**first, **state, **later}


def _load_with_attrs(obj: Any, base: Any, state_dict: Any) -> None:
    """load_state_dict: the program's own attributes set back, the rest given to the base."""
    if isinstance(state_dict, dict):
        rest = {}
        for key, value in state_dict.items():
            if key in obj.attrs:
                obj.attrs[key] = value
            else:
                rest[key] = value
        state_dict = rest
    base.load_state_dict(obj, state_dict)


def _number_like(old: Any, new: Any) -> bool:
    """Whether a scheduler's setting `old` may become `new`: a real number for a real number
    (not a bool), a bool for a bool."""
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    return isinstance(old, (int, float)) and isinstance(new, (int, float)) and math.isfinite(new)
