"""`torch.nn.utils.parametrizations.weight_norm`: a module's weight as `g * v / ||v||` (the norm
over every dimension but `dim`), registered with `parametrize` as PyTorch does: the module's
`parametrizations.weight.original0` is `g`, `original1` is `v`, and `module.weight` is
computed from them on every read (its node PyTorch's `WeightNormInterfaceBackward0`).

`spectral_norm` (power iterations on PyTorch's random starting vectors) and `orthogonal`
(PyTorch's maps, matrix_exp, Cayley and Householder, and its initialisation at registration:
the weight's Q factor as the `base` buffer, the parametrized tensor -I) follow PyTorch's
Python code step by step. The factorisations (QR at registration, the Householder product)
are NumPy's LAPACK and gradcli's recorded operations, PyTorch's MKL: their float32 results
can differ from PyTorch's in the last bits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import HOOK_IDS, Tensor, grad_enabled, no_grad, typename
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


def _lanes(dtype: np.dtype) -> int:
    return 8 if dtype == np.float32 else 4  # Vectorized<float> / <double> (AVX2)


def _row_sums(p: np.ndarray, lanes: int) -> np.ndarray:
    """`vec::map_reduce_all(+)` of each row of the products `p` (ATen's order: lanes added
    vector by vector, the tail into the first lanes, then the lanes as a butterfly; a row
    shorter than a vector, in order)."""
    rows, n = p.shape
    if n < lanes:
        acc = p[:, 0].copy()
        for i in range(1, n):
            acc = acc + p[:, i]
        return acc
    full = n - n % lanes
    acc = p[:, :lanes].copy()
    for d in range(lanes, full, lanes):
        acc = acc + p[:, d : d + lanes]
    if full < n:
        acc[:, : n - full] = acc[:, : n - full] + p[:, full:]
    w = lanes // 2
    while w:
        acc = acc + acc[:, np.arange(lanes) ^ w]
        w //= 2
    return acc[:, 0]


def _first_dim(v: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """ATen's weight_norm_first_dim_kernel: (w, the rows' norms)."""
    rows = v.shape[0]
    flat = v.reshape(rows, -1)
    norm = np.sqrt(_row_sums(flat * flat, _lanes(v.dtype)))
    a = g.reshape(rows) / norm
    return (flat * a[:, None]).reshape(v.shape), norm


def _first_dim_backward(
    grad: np.ndarray, v: np.ndarray, g: np.ndarray, norm: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """ATen's weight_norm_backward_first_dim_kernel: (grad_v, grad_g)."""
    rows = v.shape[0]
    gw, fv = grad.reshape(rows, -1), v.reshape(rows, -1)
    both = _row_sums(gw * fv, _lanes(v.dtype))
    grad_g = both / norm
    a = g.reshape(rows) / norm
    b = a * grad_g / norm
    if v.dtype == np.float32:
        from ..core.sleef32 import _fma

        # (the kernel's `a * x - b * y`, its second product fused into the difference)
        grad_v = _fma(-b[:, None], fv, a[:, None] * gw)
    else:
        grad_v = a[:, None] * gw - b[:, None] * fv
    return grad_v.reshape(v.shape), grad_g.reshape(g.shape)


def weight_norm_of(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """`torch._weight_norm(v, g, dim)`: for dim 0 or the last, PyTorch's fused kernel (one
    node, WeightNormInterfaceBackward0; dim 0 in its float order, the last dimension's
    vertical sums in gradcli's), else v * (g / ||v||) of plain operations (MulBackward0), as
    PyTorch composes it."""
    from ..ops.custom import custom_apply

    fused = v.ndim > 0 and (dim == 0 or dim == v.ndim - 1)
    if not fused or v.dtype not in (np.float32, np.float64) or g.dtype != v.dtype:
        return v * (g / _norm_except(v, dim))
    d = dim % v.ndim
    others = tuple(i for i in range(v.ndim) if i != d)
    exact = d == 0
    saved: list[np.ndarray] = []

    def forward() -> Tensor:
        if not exact:
            return v * (g / _norm_except(v, d))
        w, norm = _first_dim(v.data, g.data)
        saved.append(norm)
        return Tensor(w)

    def vjp(grad: Tensor) -> tuple[Tensor, Tensor]:
        if grad_enabled() or not exact:
            # (create_graph, or the last dimension: of differentiable operations)
            n = _norm_except(v, d)
            both = (grad * v).sum(others, keepdim=True) if others else grad * v
            return grad * (g / n) - v * (g * both / (n * n * n)), both / n
        grad_v, grad_g = _first_dim_backward(grad.data, v.data, g.data, saved[0])
        return Tensor(grad_v), Tensor(grad_g)

    return custom_apply(
        "WeightNormInterface",
        [v, g],
        forward,
        vjp,
        label="WeightNormInterfaceBackward0",
        program=False,
    )


class _Parametrization(N.Module):
    """A built-in parametrization module: its `right_inverse` reachable by programs (what
    `register_parametrization` calls), its class named as PyTorch names it."""

    CLASS = ""

    @property
    def name(self) -> str:
        return self.CLASS

    def own_method(self, name: str) -> Any:
        return self.right_inverse if name == "right_inverse" else None


class WeightNorm(_Parametrization):
    """PyTorch's `_WeightNorm` parametrization (`dim` -1: the whole weight's norm)."""

    ATTRIBUTES = ("training", "dim")
    CLASS = "_WeightNorm"

    def __init__(self, dim: int = 0) -> None:
        super().__init__()
        self.dim = dim

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
    out = PZ.register_parametrization(module, name, WeightNorm(dim), unsafe=True)
    _unseen_handles(1)  # (its hook that loads an old weight_g/weight_v state_dict)
    return out


def _unseen_handles(n: int) -> None:
    """The handles PyTorch makes for the state_dict hooks it registers (which gradcli does not
    need): each takes a number, so the ids of the program's own hooks after it are PyTorch's."""
    HOOK_IDS[0] += n


# --- torch.nn.utils.weight_norm: the form before parametrizations (a forward pre-hook) ---------


class _LegacyWeightNorm:
    """The forward pre-hook of `torch.nn.utils.weight_norm`: before each call, the module's
    `name` is computed again from `name_g` and `name_v` (a plain attribute, not a
    parameter)."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = dim

    def weight(self, module: N.Module) -> Tensor:
        g = module._parameters[self.name + "_g"]
        v = module._parameters[self.name + "_v"]
        return weight_norm_of(v, g, self.dim)

    def __call__(self, module: N.Module, inputs: Any) -> None:
        module.program_set(self.name, self.weight(module))

    def __repr__(self) -> str:
        return f"<torch.nn.utils.weight_norm.WeightNorm object at {id(self):#x}>"


def _legacy_hooks(module: Any, kind: type) -> tuple[list, list]:
    """(the module's forward pre-hook registrations, those that are `kind` hooks)."""
    if not isinstance(module, N.Module):
        return [], []
    entries = (module.__dict__.get("_module_hooks") or {}).get("forward_pre", [])
    return entries, [e for e in entries if isinstance(e[0], kind)]


def legacy_weight_norm(module: Any, name: Any = "weight", dim: Any = 0) -> Any:
    """`torch.nn.utils.weight_norm(module, name='weight', dim=0)` (deprecated in PyTorch for
    the parametrization, still in older code): `name` replaced by the parameters `name_g` (the
    norms, over every dimension but `dim`; dim None: of the whole tensor) and `name_v` (its
    direction), `name` recomputed before every call."""
    from ..core import hooks

    hooks.warn(
        "`torch.nn.utils.weight_norm` is deprecated in favor of "
        "`torch.nn.utils.parametrizations.weight_norm`."
    )
    if not isinstance(module, N.Module):
        raise GradcliError(
            f"weight_norm(): module must be an nn.Module, not {typename(module)}"
        ).mirror("TypeError")
    if dim is None:
        dim = -1
    weight = _legacy_target(module, name, _LegacyWeightNorm, "weight_norm")
    with no_grad():
        g = N.Parameter(_norm_except(weight, dim).data.copy())
    v = N.Parameter(weight.data)
    module.program_delete(name)
    module.register_parameter(name + "_g", g)
    module.register_parameter(name + "_v", v)
    hook = _LegacyWeightNorm(name, dim)
    module.program_set(name, hook.weight(module))
    module.register_forward_pre_hook(hook)
    return module


def remove_weight_norm(module: Any, name: Any = "weight") -> Any:
    """`torch.nn.utils.remove_weight_norm(module, name='weight')`: `name` a parameter again,
    of the value weight_norm computes."""
    return _remove_legacy(module, name, _LegacyWeightNorm, ("_g", "_v"), "weight_norm")


def _legacy_target(module: N.Module, name: Any, kind: type, what: str) -> Tensor:
    """The parameter an older-form hook (`kind`) is to take over, refused as PyTorch refuses
    a second hook on it or a name that is not a parameter."""
    for entry in _legacy_hooks(module, kind)[1]:
        if entry[0].name == name:
            raise GradcliError(f"Cannot register two {what} hooks on the same parameter {name}")
    weight = module._parameters.get(name) if isinstance(name, str) else None
    if not isinstance(weight, Tensor):
        raise GradcliError(f"'{module.pyname}' object has no attribute '{name}'").mirror(
            "AttributeError"
        )
    return weight


def _remove_legacy(module: Any, name: Any, kind: type, parts: tuple, what: str) -> Any:
    """`name` a parameter again, of the value `kind`'s hook computes (without a power
    iteration), its parts (`name_g`...) and the hook gone."""
    entries, hooks_of_kind = _legacy_hooks(module, kind)
    for entry in hooks_of_kind:
        if entry[0].name == name:
            with no_grad():
                w = entry[0].weight(module)
            for gone in (name, *(name + p for p in parts)):
                module.program_delete(gone)
            module.register_parameter(name, N.Parameter(w.data.copy()))
            entries.remove(entry)
            return module
    raise GradcliError(f"{what} of '{name}' not found in {module!r}").mirror("ValueError")


# --- spectral normalisation -----------------------------------------------------------------


def _weight_matrix(weight: Tensor, dim: int) -> Tensor:
    """The weight as a matrix for the power method: `dim` first, the rest flattened."""
    from . import functional as F

    if dim != 0:
        order = (dim, *(d for d in range(weight.ndim) if d != dim))
        weight = F.permute(weight, order)
    return F.reshape(weight, (weight.shape[0], -1))


def _normalized(x: Tensor, eps: float) -> Tensor:
    from .nnfunctional import normalize

    return normalize(x, dim=0, eps=eps)


def _start_vector(weight: Tensor, n: int, eps: float) -> Tensor:
    """`normalize(weight.new_empty(n).normal_(0, 1), dim=0, eps=eps)`: drawn from the
    generator as PyTorch draws it."""
    from .sampling import normal_

    return _normalized(normal_(Tensor(np.empty((n,), weight.dtype)), 0.0, 1.0), eps)


def _set(buffer: Tensor, value: Tensor) -> None:
    """`normalize(..., out=buffer)`: the new values written into the buffer."""
    from .functional import INPLACE

    INPLACE["copy_"](buffer, value)


def _check_dim(weight: Tensor, dim: Any) -> int:
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise GradcliError(f"spectral_norm(): dim must be an int, not {typename(dim)}").mirror(
            "TypeError"
        )
    if weight.ndim and not -weight.ndim <= dim < weight.ndim:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-weight.ndim}, "
            f"{weight.ndim - 1}], but got {dim})"
        ).mirror("IndexError")
    return dim % weight.ndim if weight.ndim else 0


def _default_dim(module: N.Module, dim: Any) -> Any:
    if dim is not None:
        return dim
    return 1 if module.name.startswith("ConvTranspose") else 0


class SpectralNorm(_Parametrization):
    """PyTorch's `_SpectralNorm` parametrization: the weight divided by its largest singular
    value, estimated by power iterations on the buffers `_u` and `_v` (drawn at registration,
    then 15 iterations; `n_power_iterations` more at each training-mode read)."""

    ATTRIBUTES = ("training", "dim", "eps", "n_power_iterations")
    CLASS = "_SpectralNorm"

    def __init__(self, weight: Tensor, n_power_iterations: int, dim: int, eps: float) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps
        if weight.ndim > 1:
            self.n_power_iterations = n_power_iterations
            with no_grad():
                mat = _weight_matrix(weight, dim)
                h, w = mat.shape
                self.register_buffer("_u", _start_vector(mat, h, eps))
                self.register_buffer("_v", _start_vector(mat, w, eps))
                self._power_method(mat, 15)

    def _power_method(self, mat: Tensor, iterations: int) -> None:
        from .functional import mT, mv

        with no_grad():
            for _ in range(iterations):
                _set(self._buffers["_u"], _normalized(mv(mat, self._buffers["_v"]), self.eps))
                _set(self._buffers["_v"], _normalized(mv(mT(mat), self._buffers["_u"]), self.eps))

    def forward(self, weight: Any) -> Tensor:
        from .basics import vdot
        from .functional import clone, mv

        if weight.ndim == 1:
            return _normalized(weight, self.eps)
        mat = _weight_matrix(weight, self.dim)
        if self.training:
            self._power_method(mat, self.n_power_iterations)
        u = clone(self._buffers["_u"])
        v = clone(self._buffers["_v"])
        sigma = vdot(u, mv(mat, v))
        return weight / sigma

    def right_inverse(self, value: Any) -> Any:
        return value


def _fn(name: str) -> Any:
    from . import names

    return names.FUNCTIONS[name]


_MAPS = ("matrix_exp", "cayley", "householder")


def _is_orthogonal(q: Tensor) -> bool:
    n, k = q.shape[-2], q.shape[-1]
    eye = _fn("eye")(k, dtype=q.dtype)
    eps = 10.0 * n * float(np.finfo(q.dtype).eps)
    from .functional import mT

    return bool(_fn("allclose")(_fn("matmul")(mT(q), q), eye, atol=eps))


def _make_orthogonal(a: Tensor) -> Tensor:
    """The Q factor of a tall `a` with R's diagonal made non-negative (PyTorch's geqrf,
    householder_product and the signs of R's diagonal)."""
    from . import linalg as L

    q, r = L.qr(a)
    signs = _fn("sgn")(_fn("diagonal")(r, dim1=-2, dim2=-1))
    return q * signs.unsqueeze(-2)


def householder_product(A: Any, tau: Any) -> Tensor:  # noqa: N803
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i the i-th column
    of A below the diagonal (1 on it): what `torch.linalg.householder_product(A, tau)` gives,
    as recorded operations (its gradient is theirs)."""
    from .functional import cat

    a = A
    m, n = a.shape[-2], a.shape[-1]
    k = tau.shape[-1]
    if m < n or k > n:
        raise GradcliError(
            "torch.linalg.householder_product: input.shape[-2] must be greater than or equal "
            "to input.shape[-1]"
            if m < n
            else "torch.linalg.householder_product: input.shape[-1] must be greater than or "
            "equal to tau.shape[-1]"
        )
    if a.ndim != 2:
        raise GradcliError(
            "torch.linalg.householder_product of a batch of matrices is not supported",
            hint="call it on each matrix",
        )
    # H_1 (H_2 (... (H_k E))) with E the first n columns of the identity: each reflection a
    # rank-one update of an m x n matrix (never an m x m product)
    q = _fn("eye")(m, n, dtype=a.dtype)
    for i in range(k - 1, -1, -1):
        col = a[:, i]
        parts = []
        if i:
            parts.append(_fn("zeros")(i, dtype=a.dtype))
        parts.append(_fn("ones")(1, dtype=a.dtype))
        if i + 1 < m:
            parts.append(col[i + 1 :])
        v = cat(parts) if len(parts) > 1 else parts[0]
        q = q - tau[i] * _fn("outer")(v, _fn("matmul")(v, q))
    return q


class Orthogonal(_Parametrization):
    """PyTorch's `_Orthogonal` parametrization (with its trivialization: `base`)."""

    # (orthogonal_map, PyTorch's enum _OrthMaps, is not a program's to read or change)
    ATTRIBUTES = ("training", "shape")
    CLASS = "_Orthogonal"

    def __init__(self, weight: Tensor, orthogonal_map: str, use_trivialization: bool) -> None:
        super().__init__()
        from .printing import Size

        self.shape = Size(weight.shape)
        self.__dict__["_map"] = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def program_set(self, name: str, value: Any) -> None:
        if name in ("orthogonal_map", "shape"):
            from ..base.errors import NotSupported

            raise NotSupported(
                f"changing _Orthogonal.{name} after registration is not supported",
                hint="register orthogonal(module, orthogonal_map=...) on a new module",
            )
        super().program_set(name, value)

    def forward(self, X: Any) -> Tensor:  # noqa: N803
        from .functional import cat, mT

        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X, n, k = mT(X), k, n
        omap = self.__dict__["_map"]
        if omap in ("matrix_exp", "cayley"):
            X = _fn("tril")(X)
            if n != k:
                X = cat([X, _fn("zeros")((n, n - k), dtype=X.dtype)], dim=-1)
            a = X - mT(X)
            if omap == "matrix_exp":
                q = _fn("matrix_exp")(a)
            else:
                from .linalg import solve

                eye = _fn("eye")(n, dtype=a.dtype)
                q = solve(_fn("add")(eye, a, alpha=-0.5), _fn("add")(eye, a, alpha=0.5))
            if n != k:
                q = q[..., :k]
        else:
            a = _fn("tril")(X, diagonal=-1)
            tau = 2.0 / (1.0 + (a * a).sum(dim=-2))
            q = householder_product(a, tau)
            q = q * _fn("diagonal")(X, dim1=-2, dim2=-1).int().unsqueeze(-2)
        if "base" in self._buffers:  # (PyTorch's hasattr(self, "base"))
            q = _fn("matmul")(self._buffers["base"], q)
        if transposed:
            q = mT(q)
        return q

    def right_inverse(self, Q: Any) -> Any:  # noqa: N803
        from .functional import cat, mT

        if not isinstance(Q, Tensor) or tuple(Q.shape) != tuple(self.shape):
            from .printing import Size

            shape = Size(Q.shape) if isinstance(Q, Tensor) else None
            raise GradcliError(
                f"Expected a matrix or batch of matrices of shape {self.shape!r}. "
                f"Got a tensor of shape {shape!r}."
            ).mirror("ValueError")
        if "base" not in self._buffers:
            raise GradcliError(
                "orthogonal(..., use_trivialization=False) is not supported",
                hint="leave use_trivialization at its default (True)",
            )
        with no_grad():
            q_init = Q
            n, k = Q.shape[-2], Q.shape[-1]
            if n < k:
                Q, n, k = mT(Q), k, n
            if n == k:
                Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else _fn("clone")(Q)
            else:
                noise = _fn("randn")(*Q.shape[:-2], n, n - k, dtype=Q.dtype)
                Q = _make_orthogonal(cat([Q, noise], dim=-1))
            self._buffers["base"] = Q
            neg_id = _fn("zeros_like")(q_init)
            neg_id.data[..., range(min(n, k)), range(min(n, k))] = -1.0
            return neg_id


def orthogonal(
    module: Any, name: Any = "weight", orthogonal_map: Any = None, *, use_trivialization: Any = True
) -> Any:
    """`torch.nn.utils.parametrizations.orthogonal(module, name='weight', orthogonal_map=None,
    *, use_trivialization=True)`."""
    weight = None
    if isinstance(module, N.Module) and isinstance(name, str):
        weight = module._parameters.get(name, module._buffers.get(name))
    if not isinstance(weight, Tensor):
        raise GradcliError(
            f"Module '{module!r}' has no parameter or buffer with name '{name}'"
        ).mirror("ValueError")
    if weight.ndim < 2:
        raise GradcliError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        ).mirror("ValueError")
    if weight.ndim > 2:
        raise GradcliError(
            "orthogonal() of a batch of matrices is not supported",
            hint="parametrize a 2-d weight (nn.Linear's)",
        )
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.shape[-2] == weight.shape[-1] else "householder"
    if orthogonal_map not in _MAPS:
        raise GradcliError(
            'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
            f"Got: {orthogonal_map}"
        ).mirror("ValueError")
    if not use_trivialization:
        raise GradcliError(
            "orthogonal(..., use_trivialization=False) is not supported",
            hint="leave use_trivialization at its default (True)",
        )
    fn = Orthogonal(weight, orthogonal_map, bool(use_trivialization))
    return PZ.register_parametrization(module, name, fn, unsafe=True)


def spectral_norm(
    module: Any,
    name: Any = "weight",
    n_power_iterations: Any = 1,
    eps: Any = 1e-12,
    dim: Any = None,
) -> Any:
    """`torch.nn.utils.parametrizations.spectral_norm(module, name='weight',
    n_power_iterations=1, eps=1e-12, dim=None)`."""
    if not isinstance(module, N.Module):
        raise GradcliError(f"'{typename(module)}' object has no attribute '{name}'").mirror(
            "AttributeError"
        )
    weight = module._parameters.get(name) if isinstance(name, str) else None
    if not isinstance(weight, Tensor):
        raise GradcliError(
            f"Module '{module!r}' has no parameter or buffer with name '{name}'"
        ).mirror("ValueError")
    d = _check_dim(weight, _default_dim(module, dim))
    fn = SpectralNorm(weight, int(n_power_iterations), d, float(eps))
    return PZ.register_parametrization(module, name, fn)


class _LegacySpectralNorm:
    """The forward pre-hook of `torch.nn.utils.spectral_norm`: before each call, `name` is
    `name_orig` divided by its estimated largest singular value (`name_u`, `name_v` updated
    by `n_power_iterations` in training mode: v first, then u)."""

    def __init__(self, name: str, n_power_iterations: int, dim: int, eps: float) -> None:
        self.name = name
        self.n_power_iterations = n_power_iterations
        self.dim = dim
        self.eps = eps

    def weight(self, module: N.Module, iterate: bool = False) -> Tensor:
        from .functional import clone, dot, mT, mv

        weight = module._parameters[self.name + "_orig"]
        u = module._buffers[self.name + "_u"]
        v = module._buffers[self.name + "_v"]
        mat = _weight_matrix(weight, self.dim)
        if iterate:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    _set(v, _normalized(mv(mT(mat), u), self.eps))
                    _set(u, _normalized(mv(mat, v), self.eps))
                if self.n_power_iterations > 0:
                    u, v = clone(u), clone(v)
        return weight / dot(u, mv(mat, v))

    def __call__(self, module: N.Module, inputs: Any) -> None:
        module.program_set(self.name, self.weight(module, module.training))

    def __repr__(self) -> str:
        return f"<torch.nn.utils.spectral_norm.SpectralNorm object at {id(self):#x}>"


def legacy_spectral_norm(
    module: Any,
    name: Any = "weight",
    n_power_iterations: Any = 1,
    eps: Any = 1e-12,
    dim: Any = None,
) -> Any:
    """`torch.nn.utils.spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12,
    dim=None)`, the form before parametrizations: `name_orig` the parameter, `name_u` and
    `name_v` buffers, `name` recomputed before every call."""
    if not isinstance(module, N.Module):
        raise GradcliError(
            f"spectral_norm(): module must be an nn.Module, not {typename(module)}"
        ).mirror("TypeError")
    weight = _legacy_target(module, name, _LegacySpectralNorm, "spectral_norm")
    d = _check_dim(weight, _default_dim(module, dim))
    if int(n_power_iterations) <= 0:
        raise GradcliError(
            "Expected n_power_iterations to be positive, but got "
            f"n_power_iterations={n_power_iterations}"
        ).mirror("ValueError")
    fn = _LegacySpectralNorm(name, int(n_power_iterations), d, float(eps))
    with no_grad():
        mat = _weight_matrix(weight, d)
        h, w = mat.shape
        u = _start_vector(mat, h, fn.eps)
        v = _start_vector(mat, w, fn.eps)
    module.program_delete(name)
    module.register_parameter(name + "_orig", weight)
    module.program_set(name, Tensor(weight.data))
    module.register_buffer(name + "_u", u)
    module.register_buffer(name + "_v", v)
    module.register_forward_pre_hook(fn)
    _unseen_handles(2)  # (its state_dict hook and its load_state_dict pre-hook)
    return module


def remove_spectral_norm(module: Any, name: Any = "weight") -> Any:
    """`torch.nn.utils.remove_spectral_norm(module, name='weight')`: `name` a parameter again,
    of the value the hook computes (without a power iteration)."""
    return _remove_legacy(module, name, _LegacySpectralNorm, ("_orig", "_u", "_v"), "spectral_norm")


FUNCTIONS = {
    "weight_norm": weight_norm,
    "spectral_norm": spectral_norm,
    "orthogonal": orthogonal,
}
LEGACY = {
    "weight_norm": legacy_weight_norm,
    "remove_weight_norm": remove_weight_norm,
    "spectral_norm": legacy_spectral_norm,
    "remove_spectral_norm": remove_spectral_norm,
}
