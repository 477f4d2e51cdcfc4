"""`torch.no_grad()`, `torch.enable_grad()`, `torch.set_grad_enabled(b)` and
`torch.inference_mode()` as a program uses them: `with` blocks, decorators on a `def`, and
`torch.set_grad_enabled(False)` as a plain call (PyTorch sets the mode when the object is made;
`with` then restores the previous mode at the end of the block)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.tensor import _GradMode, enable_grad, grad_enabled, no_grad, typename


def set_grad_mode(enabled: bool) -> None:
    # Entering the kernel's context objects without leaving them sets the mode.
    (enable_grad() if enabled else no_grad()).__enter__()


@contextmanager
def grad_mode_block(mode: Any) -> Iterator[None]:
    """Run a block in a grad mode: a bool, or (grad mode, inference mode) for a function that
    `@torch.inference_mode()` decorates; or in an object's context (`enter()` / `exit()`: the
    autocast block of a function `@torch.autocast(...)` decorates)."""
    if hasattr(mode, "enter"):
        mode.enter()
        try:
            yield
        finally:
            mode.exit()
        return
    previous = (grad_enabled(), _GradMode.inference)
    enabled, inference = mode if isinstance(mode, tuple) else (mode, previous[1])
    set_grad_mode(enabled)
    _GradMode.inference = inference
    try:
        yield
    finally:
        set_grad_mode(previous[0])
        _GradMode.inference = previous[1]


class GradMode:
    """What `torch.no_grad()` and its kin return: a context manager and a decorator.

    enabled   the grad mode inside the block
    previous  for `set_grad_enabled(b)`, which sets the mode at once: the mode to restore
    inference for `inference_mode(mode)`: the inference mode inside the block (None: others
              leave it as it is)
    """

    __slots__ = ("name", "enabled", "previous", "saved", "inference")
    # What `with ... as name:` binds.
    as_value: Any = None

    def __init__(
        self,
        name: str,
        enabled: bool,
        previous: bool | None = None,
        inference: bool | None = None,
    ):
        self.name = name
        self.enabled = enabled
        self.previous = previous
        self.inference = inference
        self.saved: list[tuple[bool, bool]] = []

    def enter(self) -> None:
        grad = self.previous if self.previous is not None else grad_enabled()
        self.saved.append((grad, _GradMode.inference))
        set_grad_mode(self.enabled)
        if self.inference is not None:
            _GradMode.inference = self.inference

    def exit(self) -> None:
        grad, inference = self.saved.pop()
        set_grad_mode(grad)
        _GradMode.inference = inference

    def decorate(self, f: Any) -> Any:
        """`@torch.no_grad()` on a user function: it runs in this mode."""
        from .values import UserFunction

        if not isinstance(f, UserFunction):
            raise GradcliError(
                f"torch.{self.name}() decorates functions, not {typename(f)}"
            ).mirror("TypeError")
        g = f.copy()
        g.grad_mode = self.enabled if self.inference is None else (self.enabled, self.inference)
        return g

    def decorator(self, f: Any) -> Any:
        """`@torch.no_grad()` written above a `def`. `@torch.set_grad_enabled(b)` first restores
        the mode that making it set (PyTorch's `__call__` does): the program's code after the
        `def` runs in the mode it ran in before, only the function's body in `b`."""
        if self.previous is not None:
            set_grad_mode(self.previous)
        return self.decorate(f)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        """`torch.no_grad()(f)`: the decorator applied by hand (`@torch.no_grad()` spelled
        out); `torch.set_grad_enabled(b)(f)` first restores the mode it set, as PyTorch's."""
        if len(args) != 1 or kwargs:
            raise GradcliError(
                f"{self.name}.__call__() takes one argument, the function to decorate",
                hint=f"write torch.{self.name}()(f), or use `with torch.{self.name}():`",
            ).mirror("TypeError")
        if self.previous is not None:
            set_grad_mode(self.previous)
        from .values import UserFunction

        f = args[0]
        if isinstance(f, UserFunction) or not (callable(f) or hasattr(f, "__gradcli_call__")):
            return self.decorate(f)
        return ModeWrapped(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        if self.name == "set_grad_enabled":
            return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.enabled})"
        return f"<torch.autograd.grad_mode.{self.name} object at {id(self):#x}>"


class GradModeClass:
    """`torch.no_grad` itself: calling it makes the context manager; used bare as a decorator
    (`@torch.no_grad`) it decorates the function."""

    __slots__ = ("name", "enabled")

    def __init__(self, name: str, enabled: bool):
        self.name = name
        self.enabled = enabled

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        from .values import UserFunction

        inference = True if self.name == "inference_mode" else None
        if len(args) == 1 and not kwargs and isinstance(args[0], UserFunction):
            return GradMode(self.name, self.enabled, inference=inference).decorate(args[0])
        if self.name == "inference_mode":
            mode = kwargs.pop("mode", args[0] if args else True)
            if kwargs or len(args) > 1:
                raise GradcliError("inference_mode() takes one argument, mode").mirror("TypeError")
            return GradMode(self.name, not bool(mode), inference=bool(mode))
        if args or kwargs:
            raise GradcliError(f"torch.{self.name}() takes no arguments").mirror("TypeError")
        return GradMode(self.name, self.enabled)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        return f"<class 'torch.autograd.grad_mode.{self.name}'>"


class ModeWrapped:
    """`torch.no_grad()(m)` for a callable other than a user function (a module, a builtin, a
    bound method): calling it calls `m` inside the mode. A wrapped one wrapped again is one
    wrapper with the mode the nesting gives (the inner grad mode; the inner inference mode
    where it sets one, else the outer's): no chain of calls."""

    __slots__ = ("mode", "fn")

    def __init__(self, mode: GradMode, fn: Any):
        inference = mode.inference
        if isinstance(fn, ModeWrapped):
            inner = fn.mode
            enabled = inner.enabled
            if inner.inference is not None:
                inference = inner.inference
            fn = fn.fn
        else:
            enabled = mode.enabled
        # (set_grad_enabled's mode to restore is the caller's at each call, not the one then)
        self.mode = GradMode(mode.name, enabled, inference=inference)
        self.fn = fn

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        import ast

        self.mode.enter()
        try:
            return rt.call(self.fn, args, kwargs, ast.Name(id="decorate_context"))
        finally:
            self.mode.exit()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise GradcliError("a function wrapped by a grad mode is called by the program")

    def program_typename(self) -> str:
        return "function"

    def __repr__(self) -> str:
        return f"<function decorate_context at {id(self):#x}>"


def set_grad_enabled(mode: Any) -> GradMode:
    """`torch.set_grad_enabled(b)`: sets the mode now; as a `with` block, restores it after."""
    if not isinstance(mode, bool):
        raise GradcliError(
            f"set_grad_enabled(): argument 'mode' must be bool, not {typename(mode)}"
        ).mirror("TypeError")
    previous = grad_enabled()
    set_grad_mode(mode)
    return GradMode("set_grad_enabled", mode, previous)


class DualLevel(GradMode):
    """`torch.autograd.forward_ad.dual_level()`: a block inside which dual tensors carry their
    tangents (`core.dual`); `as` binds the level (0)."""

    __slots__ = ()
    as_value = 0

    def __init__(self) -> None:
        super().__init__("dual_level", True)

    def enter(self) -> None:
        from ..core import dual

        dual.enter()

    def exit(self) -> None:
        from ..core import dual

        if dual.level() is not None:
            dual.leave()

    def decorate(self, f: Any) -> Any:
        raise GradcliError(
            "gradcli does not support dual_level() as a decorator",
            hint="write the body inside `with fwAD.dual_level():`",
        )

    def __repr__(self) -> str:
        return "<torch.autograd.forward_ad.dual_level object>"


def dual_level() -> DualLevel:
    """`fwAD.dual_level()`."""
    return DualLevel()


NO_GRAD = GradModeClass("no_grad", False)
ENABLE_GRAD = GradModeClass("enable_grad", True)
INFERENCE_MODE = GradModeClass("inference_mode", False)


def is_inference_mode_enabled() -> bool:
    return bool(_GradMode.inference)


class AnomalyMode(GradMode):
    """`torch.autograd.set_detect_anomaly(mode, check_nan=True)`, which sets anomaly mode at
    once (a `with` block restores the previous one after), and `torch.autograd.
    detect_anomaly(check_nan=True)`, which sets it for its `with` block: a backward pass then
    refuses a gradient holding nan, naming the node that computed it."""

    __slots__ = ("mode", "check_nan", "before")

    def __init__(self, name: str, mode: bool, check_nan: bool, immediate: bool):
        super().__init__(name, grad_enabled())
        self.mode = mode
        self.check_nan = check_nan
        self.before: list[tuple[bool, bool]] = []
        if immediate:
            self.before.append((_GradMode.anomaly, _GradMode.anomaly_nan))
            _GradMode.anomaly, _GradMode.anomaly_nan = mode, check_nan

    def enter(self) -> None:
        if self.name == "detect_anomaly":
            self.before.append((_GradMode.anomaly, _GradMode.anomaly_nan))
            _GradMode.anomaly, _GradMode.anomaly_nan = True, self.check_nan

    def exit(self) -> None:
        if self.before:
            _GradMode.anomaly, _GradMode.anomaly_nan = self.before.pop()

    def decorate(self, f: Any) -> Any:
        raise GradcliError(f"'{self.name}' object is not callable").mirror("TypeError")

    def __repr__(self) -> str:
        return f"<torch.autograd.anomaly_mode.{self.name} object>"


class LayoutPolicy(GradMode):
    """`torch.autograd.enforce_grad_layout_policy(enable=True)`: sets at once whether a leaf's
    first gradient is laid out as the leaf (`core.autograd.accumulate`); a `with` block restores
    the previous policy after it. As a decorator the policy is the function's, set at each call
    (the one set when the object was made is put back first, as PyTorch's `__call__` does)."""

    __slots__ = ("mode", "before", "immediate")

    def __init__(self, mode: bool, immediate: bool = True):
        super().__init__("enforce_grad_layout_policy", grad_enabled())
        self.mode = mode
        self.immediate = immediate
        self.before: list[bool] = []
        if immediate:
            self.before.append(_GradMode.grad_layout)
            _GradMode.grad_layout = mode

    def enter(self) -> None:
        if not self.immediate:
            self.before.append(_GradMode.grad_layout)
            _GradMode.grad_layout = self.mode

    def exit(self) -> None:
        if self.before:
            _GradMode.grad_layout = self.before.pop()

    def decorate(self, f: Any) -> Any:
        from .values import UserFunction

        if self.immediate:
            self.exit()
        if not isinstance(f, UserFunction) or f.grad_mode is not None:
            raise NotSupported(
                "torch.autograd.enforce_grad_layout_policy(...) decorating anything but a "
                "program's own function (without another mode decorator) is not supported by "
                "gradcli",
                hint="write the body inside `with torch.autograd.enforce_grad_layout_policy"
                "(False):`",
            )
        g = f.copy()
        g.grad_mode = LayoutPolicy(self.mode, immediate=False)
        return g

    def decorator(self, f: Any) -> Any:
        return self.decorate(f)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        if len(args) != 1 or kwargs:
            raise GradcliError(
                "enforce_grad_layout_policy.__call__() takes one argument, the function to decorate"
            ).mirror("TypeError")
        return self.decorate(args[0])

    def __repr__(self) -> str:
        return f"<torch.autograd.grad_mode.enforce_grad_layout_policy object at {id(self):#x}>"


def enforce_grad_layout_policy(enable: Any = True) -> LayoutPolicy:
    if not isinstance(enable, bool):
        raise GradcliError(
            "set_grad_layout_enforcement_enabled(): argument 'enabled' (position 1) must be "
            f"bool, not {typename(enable)}"
        ).mirror("TypeError")
    return LayoutPolicy(enable)


# Whether the program called torch.compile: a region of it may be inside a compiled function,
# which gradcli runs as any other (it cannot tell PyTorch's compiled region from eager code).
COMPILE_USED = [False]


def region_activation_memory_budget(budget: Any) -> Any:
    """`torch.autograd.graph.region_activation_memory_budget(budget)`: PyTorch's checks of the
    budget, then its RuntimeError in eager mode (the budget only guides torch.compile's
    partitioner, never a value)."""
    name = "torch.autograd.graph.region_activation_memory_budget"
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise GradcliError(f"{name}: expects a float, got {typename(budget)}").mirror("TypeError")
    if not 0.0 <= budget <= 1.0:
        raise GradcliError(f"{name}: must be in [0, 1], got {budget}").mirror("ValueError")
    if COMPILE_USED[0]:
        raise NotSupported(
            f"{name} in a program that uses torch.compile is not supported by gradcli: it runs "
            "compiled functions as eager code and cannot tell whether the region is compiled",
            hint="leave the `with` line out: the budget changes what is recomputed in the "
            "backward pass, never a value",
        )
    raise GradcliError(
        f"{name} can only be used inside a torch.compile region; it has no effect in eager mode."
    ).mirror("RuntimeError")


def _bool_arg(v: Any, fn: str, arg: str) -> bool:
    if not isinstance(v, bool):
        raise GradcliError(f"{fn}(): argument '{arg}' must be bool, not {typename(v)}").mirror(
            "TypeError"
        )
    return v


def set_detect_anomaly(mode: Any, check_nan: Any = True) -> AnomalyMode:
    mode = _bool_arg(mode, "set_detect_anomaly", "mode")
    check_nan = _bool_arg(check_nan, "set_detect_anomaly", "check_nan")
    return AnomalyMode("set_detect_anomaly", mode, check_nan, immediate=True)


def detect_anomaly(check_nan: Any = True) -> AnomalyMode:
    check_nan = _bool_arg(check_nan, "detect_anomaly", "check_nan")
    hooks.warn(
        "Anomaly Detection has been enabled. This mode will increase the runtime "
        "and should only be enabled for debugging."
    )
    return AnomalyMode("detect_anomaly", True, check_nan, immediate=False)


def is_anomaly_enabled() -> bool:
    return _GradMode.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    return _GradMode.anomaly_nan


class SavedHooks(GradMode):
    """`torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)` (and `save_on_cpu`,
    a block where no hooks apply: its tensors are on the CPU already): see
    `surface.saved_hooks`. `disable_saved_tensors_hooks(message)` is one with `message`."""

    __slots__ = ("pair", "message", "pack_hook", "unpack_hook")
    PROGRAM_ATTRIBUTES = ("pack_hook", "unpack_hook")

    def __init__(self, name: str, pair: Any = None, message: str | None = None):
        super().__init__(name, grad_enabled())
        self.pair = pair
        self.message = message
        self.pack_hook, self.unpack_hook = pair if pair is not None else (None, None)

    def enter(self) -> None:
        from ..surface import saved_hooks

        if self.message is not None:
            saved_hooks.disable(self.message)
        else:
            saved_hooks.push(self.pair)

    def exit(self) -> None:
        from ..surface import saved_hooks

        if self.message is not None:
            saved_hooks.enable()
        else:
            saved_hooks.pop()

    def decorate(self, f: Any) -> Any:
        raise GradcliError(
            f"gradcli does not support {self.name}() as a decorator",
            hint=f"write the body inside `with torch.autograd.graph.{self.name}(...):`",
        )

    def __repr__(self) -> str:
        return f"<torch.autograd.graph.{self.name} object>"


class _AllowMutationOnSavedContext:
    """What `with allow_mutation_on_saved_tensors() as ctx:` binds (PyTorch's object of its
    internal tables: nothing a program reads)."""

    __slots__ = ()

    def program_attribute(self, name: str) -> Any:
        raise NotSupported(
            f"`ctx.{name}` of allow_mutation_on_saved_tensors() is not supported: its tables "
            "are PyTorch's internals",
            hint="use the block without reading its context object",
        )

    def __repr__(self) -> str:
        return f"<torch.autograd.graph._AllowMutationOnSavedContext object at {id(self):#x}>"


class AllowMutation(GradMode):
    """`torch.autograd.graph.allow_mutation_on_saved_tensors()`: see `surface.mutation`."""

    __slots__ = ()
    as_value = _AllowMutationOnSavedContext()

    def __init__(self) -> None:
        super().__init__("allow_mutation_on_saved_tensors", grad_enabled())

    def enter(self) -> None:
        from ..surface import mutation

        mutation.enter()

    def exit(self) -> None:
        from ..surface import mutation

        mutation.exit()

    def decorate(self, f: Any) -> Any:
        raise GradcliError(
            "gradcli does not support allow_mutation_on_saved_tensors() as a decorator",
            hint="write the body inside `with torch.autograd.graph."
            "allow_mutation_on_saved_tensors():`",
        )

    def __repr__(self) -> str:
        return f"<contextlib._GeneratorContextManager object at {id(self):#x}>"


def allow_mutation_on_saved_tensors() -> AllowMutation:
    return AllowMutation()


def saved_tensors_hooks(pack_hook: Any, unpack_hook: Any) -> SavedHooks:
    return SavedHooks("saved_tensors_hooks", (pack_hook, unpack_hook))


def save_on_cpu(pin_memory: Any = False, device_type: Any = "cuda") -> SavedHooks:
    return SavedHooks("save_on_cpu")


def disable_saved_tensors_hooks(error_message: Any) -> SavedHooks:
    if not isinstance(error_message, str):
        raise GradcliError(
            "_saved_tensors_hooks_disable(): incompatible function arguments: error_message "
            f"must be str, not {typename(error_message)}"
        ).mirror("TypeError")
    return SavedHooks("disable_saved_tensors_hooks", message=error_message)


class ForkRng(GradMode):
    """`torch.random.fork_rng()`: a `with` block whose draws do not advance the CPU generator
    (its state, the cached normal included, is saved on entry and restored on exit), as
    PyTorch's; `enabled=False` makes it do nothing. The grad mode is left as it is."""

    __slots__ = ("fork_enabled", "states")

    def __init__(self, enabled: bool):
        super().__init__("fork_rng", grad_enabled())
        self.fork_enabled = enabled
        self.states: list[Any] = []

    def enter(self) -> None:
        from ..surface import sampling

        if self.fork_enabled:
            self.states.append(sampling.get_rng_state())

    def exit(self) -> None:
        from ..surface import sampling

        if self.fork_enabled and self.states:
            sampling.set_rng_state(self.states.pop())

    def decorate(self, f: Any) -> Any:
        raise GradcliError(
            "gradcli does not support fork_rng() as a decorator",
            hint="write the body inside `with torch.random.fork_rng():`",
        )

    def __repr__(self) -> str:
        return f"<contextlib._GeneratorContextManager object at {id(self):#x}>"


def fork_rng(
    devices: Any = None,
    enabled: Any = True,
    _caller: Any = "fork_rng",
    _devices_kw: Any = "devices",
    device_type: Any = "cuda",
) -> ForkRng:
    if devices is not None and not (isinstance(devices, (list, tuple)) and not devices):
        raise GradcliError(
            "fork_rng(): gradcli has only the CPU generator",
            found=f"devices={devices!r}",
            hint="leave devices out: the CPU generator is forked",
        )
    return ForkRng(bool(enabled))
