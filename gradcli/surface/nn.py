"""`torch.nn` modules without parameters (`nn.Sigmoid()(x)`, `nn.MSELoss(reduction="sum")`):
each wraps one function."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.errors import GradcliError
from ..core.tensor import Tensor
from ..ops.arithmetic import sigmoid, tanh
from .functional import f_log_softmax, f_softmax, gelu, leaky_relu, relu, softplus
from .losses import binary_cross_entropy, cross_entropy, mse_loss, nll_loss


class Module:
    """A `torch.nn` module instance that wraps one function (no parameters of its own)."""

    def __init__(self, name: str, fn: Callable[..., Tensor], args: tuple, kwargs: dict):
        self.name, self.fn, self.args, self.kwargs = name, fn, args, kwargs

    def __call__(self, *inputs: Any) -> Tensor:
        import inspect

        try:
            inspect.signature(self.fn).bind(*inputs, *self.args, **self.kwargs)
        except TypeError as e:  # the inputs do not fit the function the module wraps
            raise GradcliError(f"{self.name}(): {e}", found=f"{len(inputs)} input(s)") from None
        except ValueError:  # no signature to check against
            pass
        return self.fn(*inputs, *self.args, **self.kwargs)

    def __repr__(self) -> str:
        return f"{self.name}()"


def _module(
    name: str, fn: Callable[..., Tensor], positional: tuple[str, ...] = ()
) -> Callable[..., Module]:
    def make(*args: Any, **kwargs: Any) -> Module:
        kw = dict(zip(positional, args))
        kw.update({k: v for k, v in kwargs.items() if k != "inplace"})
        return Module(name, fn, (), kw)

    return make


MODULES: dict[str, Callable[..., Module]] = {
    "Sigmoid": _module("Sigmoid", sigmoid),
    "Tanh": _module("Tanh", tanh),
    "ReLU": _module("ReLU", relu),
    "LeakyReLU": _module("LeakyReLU", leaky_relu, ("negative_slope",)),
    "Softplus": _module("Softplus", softplus, ("beta", "threshold")),
    "GELU": _module("GELU", gelu, ("approximate",)),
    "Softmax": _module("Softmax", f_softmax, ("dim",)),
    "LogSoftmax": _module("LogSoftmax", f_log_softmax, ("dim",)),
    "MSELoss": _module("MSELoss", mse_loss, ("size_average", "reduce", "reduction")),
    "BCELoss": _module(
        "BCELoss", binary_cross_entropy, ("weight", "size_average", "reduce", "reduction")
    ),
    "NLLLoss": _module("NLLLoss", nll_loss, ("weight",)),
    "CrossEntropyLoss": _module("CrossEntropyLoss", cross_entropy, ("weight",)),
    "Identity": _module("Identity", lambda x: x),
}
