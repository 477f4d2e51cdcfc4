"""`torch.nn.utils.parametrizations.weight_norm`: a module's weight as `g * v / ||v||` (the norm
over every dimension but `dim`), registered with `parametrize` as PyTorch does: the module's
`parametrizations.weight.original0` is `g`, `original1` is `v`, and `module.weight` is
computed from them on every read (its node PyTorch's `WeightNormInterfaceBackward0`).

`orthogonal` and `spectral_norm` are not here: their maps (matrix_exp, Cayley, Householder;
power iteration with PyTorch's random starting vectors) are not reproduced.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError
from ..core.tensor import Tensor, no_grad, typename
from . import nn as N
from . import parametrize as PZ


def _norm_except(v: Tensor, dim: int) -> Tensor:
    """`torch.norm_except_dim(v, 2, dim)`: the 2-norm over every dimension but `dim`, kept
    (dim -1: over all of v, a 0-d tensor)."""
    from .linalg import vector_norm

    if dim == -1:
        return vector_norm(v, 2)
    d = dim % v.ndim
    others = tuple(i for i in range(v.ndim) if i != d)
    if not others:
        return v.abs()
    return vector_norm(v, 2, dim=others, keepdim=True)


def weight_norm_of(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """`torch._weight_norm(v, g, dim)`: v * (g / ||v||), one node whose backward is the
    formula's (g's gradient the sum of grad * v / ||v||, v's the projection)."""
    from ..ops.custom import custom_apply

    def forward() -> Tensor:
        return v * (g / _norm_except(v, dim))

    def vjp(grad: Tensor) -> tuple[Tensor, Tensor]:
        n = _norm_except(v, dim)
        if dim == -1:
            both = (grad * v).sum()
        else:
            d = dim % v.ndim
            others = tuple(i for i in range(v.ndim) if i != d)
            both = (grad * v).sum(others, keepdim=True) if others else grad * v
        dv = grad * (g / n) - v * (g * both / (n * n * n))
        return dv, both / n

    return custom_apply(
        "WeightNormInterface", [v, g], forward, vjp, label="WeightNormInterfaceBackward0"
    )


class WeightNorm(N.Module):
    """PyTorch's `_WeightNorm` parametrization (`dim` -1: the whole weight's norm)."""

    ATTRIBUTES = ("training", "dim")

    def __init__(self, dim: int = 0) -> None:
        super().__init__()
        self.dim = dim

    @property
    def name(self) -> str:
        return "_WeightNorm"

    def own_method(self, name: str) -> Any:
        return self.right_inverse if name == "right_inverse" else None

    def forward(self, weight_g: Any, weight_v: Any) -> Tensor:
        return weight_norm_of(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Any) -> tuple[Tensor, Tensor]:
        with no_grad():
            return _norm_except(weight, self.dim), weight


def weight_norm(module: Any, name: Any = "weight", dim: Any = 0) -> Any:
    """`torch.nn.utils.parametrizations.weight_norm(module, name='weight', dim=0)`."""
    if dim is None:
        dim = -1
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise GradcliError(
            f"weight_norm(): dim must be an int or None, not {typename(dim)}"
        ).mirror("TypeError")
    target = None
    if isinstance(module, N.Module) and isinstance(name, str):
        target = module._parameters.get(name, module._buffers.get(name))
    if isinstance(target, Tensor) and dim != -1 and not -target.ndim <= dim < target.ndim:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-target.ndim}, "
            f"{target.ndim - 1}], but got {dim})"
        ).mirror("IndexError")
    return PZ.register_parametrization(module, name, WeightNorm(dim), unsafe=True)


FUNCTIONS = {"weight_norm": weight_norm}
