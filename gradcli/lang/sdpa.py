"""`torch.nn.attention` (`SDPBackend`, `sdpa_kernel`) and torch.backends.cuda's switches of
the scaled-dot-product-attention backends (`enable_flash_sdp`, `math_sdp_enabled`, the
deprecated `sdp_kernel`...), as PyTorch's CPU build has them. They set the switches
`surface.attention` reads when F.scaled_dot_product_attention picks its kernel: on the CPU the
fused "flash" kernel where it can run, else the math path; with neither allowed, PyTorch's
errors. The other backends (efficient attention, cuDNN, overrideable) are switches only: the
CPU never runs them."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError
from ..core import hooks
from ..core.tensor import typename
from ..surface import attention as AT
from .values import Builtin, PyType, UserFunction

# PyTorch's members and numbers (torch._C._SDPBackend), with the switch each one sets
_MEMBERS = (
    ("ERROR", -1, None),
    ("MATH", 0, "math"),
    ("FLASH_ATTENTION", 1, "flash"),
    ("EFFICIENT_ATTENTION", 2, "mem_efficient"),
    ("CUDNN_ATTENTION", 3, "cudnn"),
    ("OVERRIDEABLE", 4, "overrideable"),
)


class Backend:
    """One member of SDPBackend: `SDPBackend.MATH` (its `name` and `value`)."""

    __slots__ = ("name", "value", "switch")

    def __init__(self, name: str, value: int, switch: str | None) -> None:
        self.name, self.value, self.switch = name, value, switch

    def __repr__(self) -> str:
        return f"<SDPBackend.{self.name}: {self.value}>"

    def program_str(self) -> str:
        return f"SDPBackend.{self.name}"

    def program_typename(self) -> str:
        return "_SDPBackend"

    def program_attribute(self, name: str) -> Any:
        if name in ("name", "value"):
            return getattr(self, name)
        raise GradcliError(f"'_SDPBackend' object has no attribute '{name}'").mirror(
            "AttributeError"
        )


MEMBERS = {name: Backend(name, value, switch) for name, value, switch in _MEMBERS}
_BY_VALUE = {b.value: b for b in MEMBERS.values()}


def _backend_of(value: Any) -> Backend:
    if isinstance(value, Backend):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value in _BY_VALUE:
        return _BY_VALUE[value]
    raise GradcliError(
        "__init__(): incompatible constructor arguments. The following argument types are "
        "supported:\n    1. torch._C._SDPBackend(value: typing.SupportsInt)\n\nInvoked with: "
        + repr(value)
    ).mirror("TypeError")


SDP_BACKEND = PyType(
    "SDPBackend", (Backend,), _backend_of, shown="torch.nn.attention.SDPBackend", members=MEMBERS
)


class KernelChoice:
    """What `sdpa_kernel(backends)` (and the deprecated `torch.backends.cuda.sdp_kernel(...)`)
    gives: a context manager that enables exactly these backends inside its block and restores
    the switches after it; as a decorator, the function runs inside the block at each call.
    `with ... as ctx` binds `{}`, as PyTorch's."""

    program_context = True

    def __init__(self, enabled: dict[str, bool], error: str | None = None) -> None:
        self.enabled = enabled
        self.error = error  # (PyTorch's generator checks its argument when the block starts)
        self.saved: list[dict[str, bool]] = []

    @property
    def as_value(self) -> dict:
        return {}

    def enter(self) -> None:
        if self.error is not None:
            raise GradcliError(self.error).mirror("AssertionError")
        self.saved.append(dict(AT.SDP_ENABLED))
        AT.SDP_ENABLED.update(self.enabled)

    def exit(self) -> None:
        AT.SDP_ENABLED.update(self.saved.pop())

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        """`@sdpa_kernel(SDPBackend.MATH)` on a function: each call runs inside the block."""
        if len(args) != 1 or kwargs or not isinstance(args[0], UserFunction):
            raise GradcliError(
                "sdpa_kernel(...) decorates the program's functions",
                hint="write `with sdpa_kernel(...):` around the calls",
            ).mirror("TypeError")
        f = args[0]
        if f.grad_mode is not None:
            raise GradcliError(
                "sdpa_kernel(...) on a function that another block already decorates is not "
                "supported",
                hint="write `with sdpa_kernel(...):` inside the function",
            )
        g = f.copy()
        g.grad_mode = self
        return g

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        return "<contextlib._GeneratorContextManager object>"


def sdpa_kernel(backends: Any, set_priority: Any = False) -> KernelChoice:
    """`torch.nn.attention.sdpa_kernel(SDPBackend.MATH)` or a list of backends (set_priority
    orders the backends PyTorch tries; on the CPU the order is always flash, then math)."""
    if not isinstance(backends, (list, Backend)):
        return KernelChoice(
            {},
            "Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "
            + typename(backends),
        )
    chosen = [backends] if isinstance(backends, Backend) else backends
    switches = {b.switch for b in chosen if isinstance(b, Backend)}
    return KernelChoice({name: name in switches for name in AT.SDP_BACKENDS})


def _sdp_kernel(
    enable_flash: Any = True,
    enable_math: Any = True,
    enable_mem_efficient: Any = True,
    enable_cudnn: Any = True,
) -> KernelChoice:
    """`torch.backends.cuda.sdp_kernel(enable_flash=..., ...)`: deprecated, with its warning."""
    hooks.warn(
        "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
        "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
        "manager, with updated signature.",
        "use torch.nn.attention.sdpa_kernel([SDPBackend.MATH, ...])",
    )
    given = {
        "flash": enable_flash,
        "math": enable_math,
        "mem_efficient": enable_mem_efficient,
        "cudnn": enable_cudnn,
    }
    return KernelChoice({name: bool(given.get(name, False)) for name in AT.SDP_BACKENDS})


def _enabler(switch: str) -> Builtin:
    def enable(enabled: Any) -> None:
        if not isinstance(enabled, bool):
            # (PyTorch 2.13's setters all name set_sdp_use_math in this message)
            raise GradcliError(
                f"set_sdp_use_math expects a bool, but got {typename(enabled)}"
            ).mirror("RuntimeError")
        AT.SDP_ENABLED[switch] = enabled

    return Builtin(f"torch.backends.cuda.enable_{switch}_sdp", enable)


def _getter(switch: str) -> Builtin:
    return Builtin(f"torch.backends.cuda.{switch}_sdp_enabled", lambda: AT.SDP_ENABLED[switch])


# allow_fp16_bf16_reduction_math_sdp: a CUDA math kernel's setting (kept to be read back)
_REDUCTION = [False]


def _allow_reduction(enabled: Any) -> None:
    if not isinstance(enabled, bool):
        raise GradcliError(
            f"set_sdp_use_math expects a bool, but got {typename(enabled)}"  # (PyTorch's)
        ).mirror("RuntimeError")
    _REDUCTION[0] = enabled


def cuda_members() -> dict[str, Any]:
    """torch.backends.cuda's attention switches."""
    out: dict[str, Any] = {"sdp_kernel": Builtin("torch.backends.cuda.sdp_kernel", _sdp_kernel)}
    for switch in ("flash", "math", "mem_efficient", "cudnn"):
        out[f"enable_{switch}_sdp"] = _enabler(switch)
        out[f"{switch}_sdp_enabled"] = _getter(switch)
    out["allow_fp16_bf16_reduction_math_sdp"] = Builtin(
        "torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp", _allow_reduction
    )
    out["fp16_bf16_reduction_math_sdp_allowed"] = Builtin(
        "torch.backends.cuda.fp16_bf16_reduction_math_sdp_allowed", lambda: _REDUCTION[0]
    )
    for n in ("is_flash_attention_available", "is_ck_sdpa_available"):
        out[n] = Builtin(f"torch.backends.cuda.{n}", lambda: False)
    return out


def attention_members() -> dict[str, Any]:
    """torch.nn.attention."""
    return {
        "SDPBackend": SDP_BACKEND,
        "sdpa_kernel": Builtin("torch.nn.attention.sdpa_kernel", sdpa_kernel),
        "WARN_FOR_UNFUSED_KERNELS": False,
    }
