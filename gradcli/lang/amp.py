"""Mixed precision (`torch.amp`, `torch.cuda.amp`) as CPU-only programs meet it, with what
PyTorch 2.13 does on a machine without CUDA:

- `torch.autocast("cuda", ...)`, `torch.cuda.amp.autocast()`, `torch.amp.autocast("cuda")`
  (`with` blocks and decorators): PyTorch warns that CUDA is not available and disables the
  block; it only sets the dtype `torch.get_autocast_dtype("cuda")` answers inside it. An
  enabled CPU (or other device) autocast in float16 / bfloat16 would cast the inputs of its
  ops by PyTorch's lists, which gradcli does not: refused, naming what to write instead
  (explicit conversions, `x.to(torch.bfloat16)`, compute as PyTorch does). `enabled=False`, or a
  dtype autocast does not support (PyTorch warns and disables), changes nothing.
- `GradScaler`: for "cuda" PyTorch warns and disables it (a disabled scaler's `scale`
  returns its argument, `step(opt)` calls `opt.step()`, the rest do nothing); for "cpu" it
  scales by a float32 factor, unscales the gradients in place, skips the step when a
  gradient is inf or nan and updates the factor, as PyTorch's kernels do.
- `custom_fwd` / `custom_bwd`: with autocast never enabled in gradcli, they change nothing
  (PyTorch's FutureWarning for the `torch.cuda.amp` spellings).

Reset per run by `reset()`."""

from __future__ import annotations

import ast
import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from ..core.dtypes import BF16, torch_name
from ..core.tensor import Tensor, typename
from .values import Builtin, DType, current

# Device types PyTorch's device-string parser knows, in its error's order.
_DEVICE_TYPES = (
    "cpu cuda ipu xpu mkldnn opengl opencl ideep hip ve fpga maia xla lazy vulkan mps meta hpu "
    "mtia privateuseone"
).split()
# torch.get_autocast_dtype's answers at the start of a run.
_DEFAULT_DTYPES: dict[str, Any] = {
    **{d: np.dtype(np.float16) for d in ("cuda", "mps", "xpu", "ipu", "mtia", "privateuseone")},
    **{d: BF16 for d in ("cpu", "hpu", "xla", "maia")},
}
_DTYPES: dict[str, Any] = {}
# The device types PyTorch's CPU build has autocast for.
_AUTOCAST_DEVICES = "cpu cuda xpu mps mtia maia hpu ipu xla privateuseone".split()


def reset() -> None:
    _DTYPES.clear()


def _warn(message: str, category: str = "UserWarning") -> None:
    current().python_warning(message, category, "__main__")


def _device_type(device_type: Any) -> str:
    if not isinstance(device_type, str):
        raise GradcliError(
            f"Expected `device_type` of type `str`, got: `<class '{typename(device_type)}'>`"
        ).mirror("ValueError")
    if device_type not in _DEVICE_TYPES:
        raise GradcliError(
            f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device "
            f"string: {device_type}"
        ).mirror("RuntimeError")
    return device_type


def _dtype_name(dt: Any) -> Any:
    """A program's dtype argument as its NumPy dtype (None: not given)."""
    if dt is None:
        return None
    if isinstance(dt, DType):
        return dt.np
    raise GradcliError(
        f"autocast(): argument 'dtype' must be torch.dtype, not {typename(dt)}"
    ).mirror("TypeError")


def _current_dtype(device: str) -> Any:
    if device in _DTYPES:
        return _DTYPES[device]
    if device not in _DEFAULT_DTYPES:
        raise GradcliError("unsupported scalarType").mirror("RuntimeError")
    return _DEFAULT_DTYPES[device]


def get_autocast_dtype(device_type: Any) -> np.dtype:
    """`torch.get_autocast_dtype(device_type)`, as a NumPy dtype (the namespace gives the
    program torch's value of it)."""
    return _current_dtype(_device_type(device_type))


def is_autocast_enabled(device_type: Any = None) -> bool:
    """`torch.is_autocast_enabled(device_type=None)`: no autocast block is ever enabled in
    gradcli (an enabled one is refused, a CUDA one is disabled on the CPU, as PyTorch's)."""
    if device_type is not None:
        _device_type(device_type)
    return False


class AmpClass:
    """`torch.autocast` / `torch.amp.autocast` and `torch.amp.GradScaler` (shown as PyTorch's
    classes), and their deprecated `torch.cuda.amp` subclasses, which warn when called;
    `made_class`: the class of what it makes (`isinstance(ac, torch.autocast)`)."""

    __slots__ = ("name", "shown", "cuda", "made_class", "make")

    def __init__(self, name: str, shown: str, cuda: bool):
        self.name = name  # "autocast" or "GradScaler"
        self.shown = shown
        self.cuda = cuda
        if name == "autocast":
            self.made_class: type = CudaAutocast if cuda else Autocast
            self.make: Any = _cuda_autocast if cuda else _autocast
        else:
            self.made_class = CudaGradScaler if cuda else GradScaler
            self.make = _cuda_scaler if cuda else GradScaler

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        if self.cuda:
            _warn(
                f"`torch.cuda.amp.{self.name}(args...)` is deprecated. Please use "
                f"`torch.amp.{self.name}('cuda', args...)` instead.",
                "FutureWarning",
            )
        return _bind(self.make, args, kwargs, self.name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def program_typename(self) -> str:
        return "type"

    def __repr__(self) -> str:
        return f"<class '{self.shown}'>"


def _bind(fn: Any, args: list, kwargs: dict, name: str) -> Any:
    """Call `fn` with the program's arguments, in Python's words when they do not fit."""
    import inspect

    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as e:
        raise GradcliError(f"{name}.__init__() {e}").mirror("TypeError") from None
    return fn(*args, **kwargs)


def _cuda_autocast(enabled: Any = True, dtype: Any = None, cache_enabled: Any = True) -> Any:
    name = np.dtype(np.float16) if dtype is None else _dtype_name(dtype)
    return CudaAutocast("cuda", name, enabled, "torch.cuda.amp.autocast_mode.autocast")


def _autocast(
    device_type: Any, dtype: Any = None, enabled: Any = True, cache_enabled: Any = None
) -> Any:
    device = _device_type(device_type)
    name = _current_dtype(device) if dtype is None else _dtype_name(dtype)
    if device not in _AUTOCAST_DEVICES:
        raise GradcliError(f"User specified an unsupported autocast device_type '{device}'").mirror(
            "RuntimeError"
        )
    return Autocast(device, name, enabled, "torch.amp.autocast_mode.autocast")


class Autocast:
    """An autocast object: a `with` block, or a decorator whose function runs inside it.
    Enabled only where PyTorch on a CPU-only machine would enable it, which gradcli refuses."""

    __slots__ = ("device", "dtype", "shown", "saved")
    program_context = True

    def __init__(self, device: str, dtype: Any, enabled: Any, shown: str):
        self.device = device
        self.dtype = dtype
        self.shown = shown
        self.saved: list[Any] = []
        if not enabled:
            return
        if device == "cuda":
            _warn("CUDA is not available or torch_xla is imported. Disabling autocast.")
        elif dtype != np.float16 and dtype != BF16:
            dev = device.upper()
            _warn(
                f"In {dev} autocast, but the target dtype is not supported. Disabling "
                f"autocast.\n{dev} Autocast only supports dtypes of torch.bfloat16, "
                "torch.float16 currently."
            )
        else:
            raise NotSupported(
                f"an enabled torch.autocast('{device}') is not supported by gradcli: PyTorch "
                f"would cast the inputs of its matrix products, convolutions and other ops to "
                f"{torch_name(dtype)} and those of its losses to float32, which gradcli does "
                "not do",
                hint="drop the autocast block (run its body as it is), or pass enabled=False: "
                "the results are then PyTorch's without autocast; or convert explicitly "
                "(model.to(torch.bfloat16), x.to(torch.bfloat16))",
            )

    @property
    def as_value(self) -> Any:
        return self

    def enter(self) -> None:
        self.saved.append(_DTYPES.get(self.device, _MISSING))
        _DTYPES[self.device] = self.dtype

    def exit(self) -> None:
        previous = self.saved.pop()
        if previous is _MISSING:
            _DTYPES.pop(self.device, None)
        else:
            _DTYPES[self.device] = previous

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        """`@torch.autocast("cuda")` on a function: it runs inside the block."""
        if len(args) != 1 or kwargs:
            raise GradcliError(
                "autocast.__call__() takes one argument, the function to decorate"
            ).mirror("TypeError")
        from .values import UserFunction

        f = args[0]
        if isinstance(f, UserFunction) and f.grad_mode is None:
            # the program's function (or method, so that a class still sees a function):
            # its calls run inside the block
            g = f.copy()
            g.grad_mode = self
            return g
        return AutocastWrapped(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise GradcliError("an autocast object is called by the program")

    def program_typename(self) -> str:
        return "autocast"

    def program_class(self) -> str:
        """What `type(ac)` prints inside `<class '...'>`."""
        return self.shown

    def __repr__(self) -> str:
        return f"<{self.shown} object at {id(self):#x}>"


_MISSING = object()


class CudaAutocast(Autocast):
    """What `torch.cuda.amp.autocast(...)` makes (a subclass of torch.autocast, as PyTorch's)."""

    __slots__ = ()


class CpuAutocast(Autocast):
    """What `torch.cpu.amp.autocast(...)` makes (a subclass of torch.autocast, as PyTorch's)."""

    __slots__ = ()


def _cpu_autocast(enabled: Any = True, dtype: Any = None, cache_enabled: Any = True) -> Any:
    name = _current_dtype("cpu") if dtype is None else _dtype_name(dtype)
    ac = CpuAutocast.__new__(CpuAutocast)
    Autocast.__init__(ac, "cpu", name, enabled, "torch.cpu.amp.autocast_mode.autocast")
    return ac


class CpuAmpClass(AmpClass):
    """`torch.cpu.amp.autocast`: torch.autocast('cpu'), after PyTorch's FutureWarning."""

    __slots__ = ()

    def __init__(self) -> None:
        self.name = "autocast"
        self.shown = "torch.cpu.amp.autocast_mode.autocast"
        self.cuda = False
        self.made_class = CpuAutocast
        self.make = _cpu_autocast

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        _warn(
            "`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
            "`torch.amp.autocast('cpu', args...)` instead.",
            "FutureWarning",
        )
        return _bind(self.make, args, kwargs, self.name)


def _deprecated_getter(old: str, new: str, fn: Any, arg: str, convert: Any) -> Builtin:
    """torch.is_autocast_cpu_enabled() and its kin: PyTorch's DeprecationWarning, then the
    answer of the function that replaces them."""

    def call() -> Any:
        _warn(
            f"torch.{old}() is deprecated. Please use torch.{new}('{arg}') instead.",
            "DeprecationWarning",
        )
        return convert(fn(arg))

    return Builtin(f"torch.{old}", call)


class AutocastWrapped:
    """What an autocast object makes of a function: calling it calls the function inside
    the autocast block (named as the function, as PyTorch's functools.wraps gives)."""

    __slots__ = ("mode", "fn")

    def __init__(self, mode: Autocast, fn: Any):
        self.mode = mode
        self.fn = fn

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        self.mode.enter()
        try:
            return rt.call(self.fn, args, kwargs, ast.Name(id="decorate_autocast"))
        finally:
            self.mode.exit()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise GradcliError("a function wrapped by autocast is called by the program")

    def program_typename(self) -> str:
        return "function"

    def __repr__(self) -> str:
        name = getattr(self.fn, "shown_name", None) or "decorate_autocast"
        return f"<function {name} at {id(self):#x}>"


# -- custom_fwd / custom_bwd ---------------------------------------------------------------------


def _pass_through(name: str, cuda: bool) -> Any:
    """`torch.amp.custom_fwd(fwd=None, *, device_type, cast_inputs=None)` and its kin: the
    function itself (autocast is never enabled in gradcli, where PyTorch's wrapper runs the
    function unchanged), or, called without it, the decorator."""
    deprecated = (
        f"`torch.cuda.amp.{name}(args...)` is deprecated. Please use "
        f"`torch.amp.{name}(args..., device_type='cuda')` instead."
    )

    def decorate(fn: Any = None, **kwargs: Any) -> Any:
        allowed = {"custom_fwd": ("cast_inputs",), "custom_bwd": ()}[name]
        if not cuda:
            allowed = ("device_type", *allowed)
        for key in kwargs:
            if key not in allowed:
                raise GradcliError(f"{name}() got an unexpected keyword argument '{key}'").mirror(
                    "TypeError"
                )
        if cuda:
            _warn(deprecated, "FutureWarning")
            if name == "custom_bwd" and fn is None:
                raise GradcliError(
                    "custom_bwd() missing 1 required positional argument: 'bwd'"
                ).mirror("TypeError")
        else:
            if "device_type" not in kwargs:
                raise GradcliError(
                    f"{name}() missing 1 required keyword-only argument: 'device_type'"
                ).mirror("TypeError")
            if not isinstance(kwargs["device_type"], str):
                _device_type(kwargs["device_type"])
        cast = kwargs.get("cast_inputs")
        if cast is not None:
            _dtype_name(cast)
        if fn is None:
            return Builtin(f"functools.partial({name})", lambda f: f)
        if not (callable(fn) or hasattr(fn, "__gradcli_call__")):
            raise GradcliError(f"{name}() decorates functions, not {typename(fn)}").mirror(
                "TypeError"
            )
        return fn

    prefix = "torch.cuda.amp" if cuda else "torch.amp"
    return Builtin(f"{prefix}.{name}", decorate)


# -- GradScaler ----------------------------------------------------------------------------------


def _cuda_scaler(
    init_scale: Any = 2.0**16,
    growth_factor: Any = 2.0,
    backoff_factor: Any = 0.5,
    growth_interval: Any = 2000,
    enabled: Any = True,
) -> GradScaler:
    return CudaGradScaler(
        "cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled
    )


_FIX = (
    "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the "
    "iteration."
)
_METHODS = (
    "scale unscale_ step update get_scale is_enabled state_dict load_state_dict "
    "get_growth_factor set_growth_factor get_backoff_factor set_backoff_factor "
    "get_growth_interval set_growth_interval"
).split()


class GradScaler:
    """A gradient scaler. Disabled (every "cuda" one on the CPU, or `enabled=False`): PyTorch's
    disabled scaler. Enabled ("cpu"): the scale is a float32 number; `scale` multiplies by
    it (a 0-dim float32 tensor, as PyTorch's), `unscale_` multiplies each gradient in place
    by float32(1 / scale) and notes whether one holds inf or nan, `step` skips the
    optimizer's step then, `update` backs off or grows the scale as `_amp_update_scale_`."""

    shown = "torch.amp.grad_scaler.GradScaler"

    def __init__(
        self,
        device: Any = "cuda",
        init_scale: Any = 2.0**16,
        growth_factor: Any = 2.0,
        backoff_factor: Any = 0.5,
        growth_interval: Any = 2000,
        enabled: Any = True,
    ):
        self.device = device
        self.enabled = bool(enabled)
        self.fields: dict[str, Any] = {}
        if device == "cuda" and self.enabled:
            current().python_warning(
                "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                "UserWarning",
                "__main__",
            )
            self.enabled = False
        if not self.enabled:
            return
        if device != "cpu":
            raise NotSupported(
                f"an enabled GradScaler for device {device!r} is not supported by gradcli",
                hint="GradScaler('cpu') scales as PyTorch's on the CPU; GradScaler('cuda') is "
                "disabled on a machine without CUDA, as PyTorch's",
            )
        for name, v in (("init_scale", init_scale), ("growth_factor", growth_factor)):
            _number(v, name)
        _number(backoff_factor, "backoff_factor")
        _integer(growth_interval, "growth_interval")
        if growth_factor <= 1.0:
            raise GradcliError("The growth factor must be > 1.0.").mirror("AssertionError")
        if backoff_factor >= 1.0:
            raise GradcliError("The backoff factor must be < 1.0.").mirror("AssertionError")
        # (as the program gave them: PyTorch keeps and answers them so, an int an int)
        self.fields = {
            "init_scale": init_scale,
            "growth_factor": growth_factor,
            "backoff_factor": backoff_factor,
            "growth_interval": growth_interval,
        }
        self.init_tracker = 0
        self.scale_value: np.float32 | None = None  # None until scale() first runs
        self.tracker = 0
        # id(optimizer) -> [stage ("ready", "unscaled", "stepped"), found_inf or None]
        self.states: dict[int, list[Any]] = {}

    # -- the program's view
    def program_attribute(self, name: str) -> Any:
        if name in _METHODS:
            return Builtin(f"GradScaler.{name}", getattr(self, "m_" + name))
        raise GradcliError(f"'GradScaler' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_typename(self) -> str:
        return "GradScaler"

    def program_class(self) -> str:
        return self.shown

    def __repr__(self) -> str:
        return f"<{self.shown} object at {id(self):#x}>"

    def _field(self, name: str) -> Any:
        if name not in self.fields:
            raise GradcliError(f"'GradScaler' object has no attribute '_{name}'").mirror(
                "AttributeError"
            )
        return self.fields[name]

    def _checked(self, what: str) -> None:
        if self.scale_value is None:
            raise GradcliError(f"Attempted {what} but _scale is None.  {_FIX}").mirror(
                "AssertionError"
            )

    def _state(self, optimizer: Any) -> list[Any]:
        return self.states.setdefault(id(optimizer), ["ready", None, optimizer])

    # -- methods
    def m_is_enabled(self) -> bool:
        return self.enabled

    def m_get_scale(self) -> float:
        if not self.enabled:
            return 1.0
        if self.scale_value is None:
            return self.fields["init_scale"]
        return float(self.scale_value)

    def m_scale(self, outputs: Any) -> Any:
        if not self.enabled:
            return outputs
        rt = current()
        if self.scale_value is None:
            self.scale_value = np.float32(float(self.fields["init_scale"]))
            self.tracker = self.init_tracker
        factor = _scalar_tensor(float(self.scale_value))

        def apply(v: Any) -> Any:
            if isinstance(v, Tensor):
                return rt.call(rt.attribute(v, "mul"), [factor], {}, ast.Name(id="scale"))
            if isinstance(v, (list, tuple)):
                return type(v)(apply(x) for x in v)
            if isinstance(v, (str, dict, set)) or hasattr(v, "__iter__"):
                raise NotSupported(
                    f"GradScaler.scale() of a {typename(v)} is not supported by gradcli",
                    hint="scale a tensor, or a list or tuple of tensors",
                )
            raise GradcliError("outputs must be a Tensor or an iterable of Tensors").mirror(
                "ValueError"
            )

        return apply(outputs)

    def m_unscale_(self, optimizer: Any) -> None:
        if not self.enabled:
            return
        self._checked("unscale_")
        state = self._state(optimizer)
        if state[0] == "unscaled":
            raise GradcliError(
                "unscale_() has already been called on this optimizer since the last update()."
            ).mirror("RuntimeError")
        if state[0] == "stepped":
            raise GradcliError("unscale_() is being called after step().").mirror("RuntimeError")
        assert self.scale_value is not None
        inv = _scalar_tensor(float(np.float32(1.0 / float(self.scale_value))))
        rt = current()
        # None: no gradient to check (PyTorch then records no inf check for the optimizer)
        found: bool | None = None
        from ..core.tensor import no_grad

        with no_grad():
            for g in _gradients(rt, optimizer):
                found = bool(found)
                if g.dtype == np.float16:
                    raise GradcliError("Attempting to unscale FP16 gradients.").mirror("ValueError")
                if not bool(np.all(np.isfinite(g.data))):
                    found = True
                rt.call(rt.attribute(g, "mul_"), [inv], {}, ast.Name(id="unscale_"))
        state[0], state[1] = "unscaled", found

    def m_step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        rt = current()
        step = rt.attribute(optimizer, "step")
        if not self.enabled:
            return rt.call(step, list(args), kwargs, ast.Name(id="step"))
        if "closure" in kwargs:
            raise GradcliError(
                "Closure use is not currently supported if GradScaler is enabled."
            ).mirror("RuntimeError")
        self._checked("step")
        state = self._state(optimizer)
        if state[0] == "stepped":
            raise GradcliError("step() has already been called since the last update().").mirror(
                "RuntimeError"
            )
        if state[0] == "ready":
            self.m_unscale_(optimizer)
        if state[1] is None:
            raise GradcliError("No inf checks were recorded for this optimizer.").mirror(
                "AssertionError"
            )
        result = None
        if not state[1]:
            result = rt.call(step, list(args), kwargs, ast.Name(id="step"))
        state[0] = "stepped"
        return result

    def m_update(self, new_scale: Any = None) -> None:
        if not self.enabled:
            return
        self._checked("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self.scale_value = np.float32(new_scale)
            else:
                if not isinstance(new_scale, Tensor):
                    raise GradcliError(
                        f"'{typename(new_scale)}' object has no attribute 'device'"
                    ).mirror("AttributeError")
                reason = (
                    "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                    "torch.FloatTensor with requires_grad=False."
                )
                if (
                    not isinstance(new_scale, Tensor)
                    or new_scale.numel() != 1
                    or new_scale.requires_grad
                ):
                    raise GradcliError(reason).mirror("AssertionError")
                self.scale_value = np.float32(new_scale.data.reshape(-1)[0])
        else:
            checks = [s[1] for s in self.states.values() if s[1] is not None]
            if not checks:
                raise GradcliError("No inf checks were recorded prior to update.").mirror(
                    "AssertionError"
                )
            found = any(checks)
            assert self.scale_value is not None
            if found:
                self.scale_value = np.float32(
                    float(self.scale_value) * float(self.fields["backoff_factor"])
                )
                self.tracker = 0
            else:
                successful = self.tracker + 1
                if successful == self.fields["growth_interval"]:
                    grown = np.float32(
                        float(self.scale_value) * float(self.fields["growth_factor"])
                    )
                    if math.isfinite(float(grown)):
                        self.scale_value = grown
                    self.tracker = 0
                else:
                    self.tracker = successful
        self.states = {}

    def m_state_dict(self) -> dict:
        if not self.enabled:
            return {}
        return {
            "scale": self.m_get_scale(),
            "growth_factor": self.fields["growth_factor"],
            "backoff_factor": self.fields["backoff_factor"],
            "growth_interval": self.fields["growth_interval"],
            "_growth_tracker": self.init_tracker if self.scale_value is None else self.tracker,
        }

    def m_load_state_dict(self, state_dict: Any) -> None:
        if not self.enabled:
            return
        if not isinstance(state_dict, dict):
            raise NotSupported(
                "GradScaler.load_state_dict takes a dict", found=typename(state_dict)
            )
        if len(state_dict) == 0:
            raise GradcliError(
                "The source state dict is empty, possibly because it was saved from a disabled "
                "instance of GradScaler."
            ).mirror("RuntimeError")
        for key in (
            "scale",
            "growth_factor",
            "backoff_factor",
            "growth_interval",
            "_growth_tracker",
        ):
            if key not in state_dict:
                raise GradcliError(repr(key)).mirror("KeyError")
            (_integer if key in ("growth_interval", "_growth_tracker") else _number)(
                state_dict[key], key
            )
        self.fields["init_scale"] = state_dict["scale"]
        if self.scale_value is not None:
            self.scale_value = np.float32(float(state_dict["scale"]))
        self.fields["growth_factor"] = state_dict["growth_factor"]
        self.fields["backoff_factor"] = state_dict["backoff_factor"]
        self.fields["growth_interval"] = state_dict["growth_interval"]
        self.init_tracker = state_dict["_growth_tracker"]
        if self.scale_value is not None:
            self.tracker = state_dict["_growth_tracker"]

    def m_get_growth_factor(self) -> Any:
        return self._field("growth_factor")

    def m_get_backoff_factor(self) -> Any:
        return self._field("backoff_factor")

    def m_get_growth_interval(self) -> Any:
        return self._field("growth_interval")

    def m_set_growth_factor(self, new_factor: Any) -> None:
        _number(new_factor, "growth_factor")
        self.fields["growth_factor"] = new_factor

    def m_set_backoff_factor(self, new_factor: Any) -> None:
        _number(new_factor, "backoff_factor")
        self.fields["backoff_factor"] = new_factor

    def m_set_growth_interval(self, new_interval: Any) -> None:
        _integer(new_interval, "growth_interval")
        self.fields["growth_interval"] = new_interval


class CudaGradScaler(GradScaler):
    """What `torch.cuda.amp.GradScaler(...)` makes (a subclass, as PyTorch's)."""

    shown = "torch.cuda.amp.grad_scaler.GradScaler"


def _gradients(rt: Any, optimizer: Any) -> list[Tensor]:
    """The gradients of an optimizer's parameters (those that have one), as PyTorch's
    unscale_ walks `param_groups`; an object not shaped as an optimizer is refused."""
    groups = rt.attribute(optimizer, "param_groups")
    found = []
    what = (
        "GradScaler.unscale_() of an object whose param_groups is not a list of dicts with "
        "'params' (an optimizer's) is not supported"
    )
    if not isinstance(groups, list):
        raise NotSupported(what, found=typename(groups))
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("params"), list):
            raise NotSupported(what, found=typename(group))
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise GradcliError(f"expected param to be torch.Tensor, got {typename(p)}").mirror(
                    "AssertionError"
                )
            g = rt.attribute(p, "grad")
            if g is None:
                continue
            if not isinstance(g, Tensor):
                raise NotSupported(
                    "GradScaler.unscale_() of a parameter whose .grad is not a tensor",
                    found=typename(g),
                )
            found.append(g)
    return found


def _number(v: Any, name: str) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise NotSupported(
            f"GradScaler's {name} as a {typename(v)} is not supported by gradcli",
            hint=f"pass {name} as a number",
        )


def _integer(v: Any, name: str) -> None:
    if isinstance(v, bool) or not isinstance(v, int):
        raise NotSupported(
            f"GradScaler's {name} as a {typename(v)} is not supported by gradcli",
            hint=f"pass {name} as an int",
        )


def _scalar_tensor(value: float) -> Tensor:
    """A 0-dim float32 tensor (the scale factor PyTorch keeps as one)."""
    return Tensor(np.array(value, dtype=np.float32))


def is_autocast_available(device_type: Any) -> bool:
    """`torch.amp.is_autocast_available(device_type)`: PyTorch's CPU build's answer."""
    return _device_type(device_type) in _AUTOCAST_DEVICES


AUTOCAST = AmpClass("autocast", "torch.amp.autocast_mode.autocast", cuda=False)
GRAD_SCALER = AmpClass("GradScaler", "torch.amp.grad_scaler.GradScaler", cuda=False)


def deprecated_getters(dtype_value: Any) -> dict[str, Builtin]:
    """torch's deprecated autocast getters; `dtype_value` turns a NumPy dtype into torch's."""
    return {
        "is_autocast_cpu_enabled": _deprecated_getter(
            "is_autocast_cpu_enabled", "is_autocast_enabled", is_autocast_enabled, "cpu", bool
        ),
        "get_autocast_gpu_dtype": _deprecated_getter(
            "get_autocast_gpu_dtype", "get_autocast_dtype", get_autocast_dtype, "cuda", dtype_value
        ),
        "get_autocast_cpu_dtype": _deprecated_getter(
            "get_autocast_cpu_dtype", "get_autocast_dtype", get_autocast_dtype, "cpu", dtype_value
        ),
    }


CUSTOM_FWD = _pass_through("custom_fwd", cuda=False)
CUSTOM_BWD = _pass_through("custom_bwd", cuda=False)
CUDA_CUSTOM_FWD = _pass_through("custom_fwd", cuda=True)
CUDA_CUSTOM_BWD = _pass_through("custom_bwd", cuda=True)
