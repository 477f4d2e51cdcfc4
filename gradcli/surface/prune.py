"""`torch.nn.utils.prune`: a module's tensor multiplied by a 0/1 mask before every call.

Pruning `weight` moves the parameter to `weight_orig` (registered last, as PyTorch's
`register_parameter` then `del _parameters["weight"]` leaves it), keeps the mask as the
buffer `weight_mask`, and makes `weight` a plain attribute, `weight_mask * weight_orig` (its
node MulBackward0: gradients reach `weight_orig` through the mask), computed again by a
forward pre-hook (the pruning method itself) before every call. A second pruning of the same
tensor joins the first in a `PruningContainer`, which computes the new mask on what the old
one kept (unstructured: the kept entries; structured: the kept channels). `remove` makes
`weight` a parameter again holding the pruned values.

The masks follow PyTorch's Python code step by step: the same draws from the generator
(`rand_like` of the tensor, `rand(channels)`), the same selection (`topk`, `kthvalue`, with
PyTorch's order among equal values), the same norms (`torch.norm(t, p=n, dim=others)`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.tensor import Tensor, no_grad, typename
from . import nn as N

_ORIG, _MASK = "_orig", "_mask"


def _shape_text(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(int(d)) for d in shape)}])"


def _shown(v: Any) -> str:
    """`f"{v}"` as Python shows the value (tensors as PyTorch prints them)."""
    from .printing import format_value

    return format_value(v)


def _integral(v: Any) -> bool:
    return isinstance(v, (bool, int, np.integer))


def _validate_amount_init(amount: Any) -> None:
    if not isinstance(amount, (bool, int, float, np.integer, np.floating)):
        raise GradcliError(
            f"Invalid type for amount: {_shown(amount)}. Must be int or float."
        ).mirror("TypeError")
    if (_integral(amount) and amount < 0) or (
        not _integral(amount) and (float(amount) > 1.0 or float(amount) < 0.0)
    ):
        raise GradcliError(
            f"amount={_shown(amount)} should either be a float in the range [0, 1] or a "
            "non-negative integer"
        ).mirror("ValueError")


def _nparams_toprune(amount: Any, size: int) -> int:
    """PyTorch's `_compute_nparams_toprune` and `_validate_pruning_amount`: an int amount is a
    count, a float a fraction rounded as Python rounds (half to even)."""
    if _integral(amount):
        if amount > size:
            raise GradcliError(
                f"amount={int(amount)} should be smaller than the number of parameters to "
                f"prune={size}"
            ).mirror("ValueError")
        return int(amount)
    return round(float(amount) * size)


def _validate_structured(t: np.ndarray) -> None:
    if t.ndim <= 1:
        raise GradcliError(
            "Structured pruning can only be applied to multidimensional tensors. Found tensor "
            f"of shape {_shape_text(t.shape)} with {t.ndim} dims"
        ).mirror("ValueError")


def _validate_dim(t: np.ndarray, dim: int) -> None:
    if dim >= t.ndim:
        raise GradcliError(f"Invalid index {dim} for tensor of size {_shape_text(t.shape)}").mirror(
            "IndexError"
        )


def _axis(dim: int, ndim: int) -> int:
    """A negative dim as Python's list indexing reads it (`list(range(ndim))[dim]`)."""
    if dim < -ndim:
        raise GradcliError("list index out of range").mirror("IndexError")
    return dim % ndim


def _topk_positions(values: np.ndarray, k: int, largest: bool) -> np.ndarray:
    """The positions `torch.topk(values, k, largest=...)` gives (PyTorch's order among equal
    values)."""
    from .composite import topk

    return np.asarray(topk(Tensor(values), k, largest=largest)[1].data, dtype=np.int64)


def _structured_mask(t: np.ndarray, dim: int, channels: Any) -> np.ndarray:
    """`mask = zeros_like(t); mask[..., channels, ...] = 1` (channels along `dim`)."""
    mask = np.zeros(t.shape, t.dtype)
    slc: list[Any] = [slice(None)] * t.ndim
    slc[dim] = channels
    mask[tuple(slc)] = 1
    return mask


class BasePruningMethod:
    """A pruning method: its mask rule (`compute_mask`) and, once applied to a module's tensor,
    the forward pre-hook that recomputes the tensor."""

    PRUNING_TYPE = "unstructured"
    # (a program's class may derive from it: `lang.pruning`)
    PROGRAM_BASE = "pruning"
    PROGRAM_ATTRIBUTES = (
        "PRUNING_TYPE",
        "compute_mask",
        "apply_mask",
        "prune",
        "remove",
    )
    PROGRAM_UNDERSCORED = ("_tensor_name",)
    _tensor_name: str | None = None

    def __call__(self, module: Any, inputs: Any) -> None:
        module.program_set(self._tensor_name, self.apply_mask(module))

    def __repr__(self) -> str:
        return f"<torch.nn.utils.prune.{type(self).__name__} object at {id(self):#x}>"

    def program_class(self) -> str:
        """What `type(hook)` prints: PyTorch's class."""
        return f"torch.nn.utils.prune.{type(self).__name__}"

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def compute_mask(self, t: Any, default_mask: Any) -> Tensor:
        """`method.compute_mask(t, default_mask)`: the new mask (of `default_mask`'s dtype)."""
        t, d = _tensor(t, "t"), _tensor(default_mask, "default_mask")
        return Tensor(self.mask_of(t.data, d.data))

    def apply_mask(self, module: Any) -> Tensor:
        """`mask.to(orig.dtype) * orig`: the pruned tensor, its gradient reaching `orig`."""
        from . import functional as F

        if self._tensor_name is None:
            raise GradcliError(f"Module {module!r} has to be pruned").mirror("AssertionError")
        mask = module.program_attribute(self._tensor_name + _MASK)
        orig = module.program_attribute(self._tensor_name + _ORIG)
        return F.to_dtype(mask, orig.dtype) * orig if mask.dtype != orig.dtype else mask * orig

    def prune(self, t: Any, default_mask: Any = None, importance_scores: Any = None) -> Tensor:
        """`method.prune(t)`: `t` times the mask computed from `importance_scores` (else t)."""
        t = _tensor(t, "t")
        scores = t if importance_scores is None else _tensor(importance_scores, "importance_scores")
        if scores.shape != t.shape:
            raise GradcliError(
                "importance_scores should have the same shape as tensor t, got "
                f"{_shape_text(scores.shape)} vs {_shape_text(t.shape)}"
            ).mirror("AssertionError")
        d = (
            np.ones(t.shape, t.dtype)
            if default_mask is None
            else _tensor(default_mask, "default_mask").data
        )
        return t * Tensor(self.mask_of(scores.data, d))

    def remove(self, module: Any) -> None:
        """`name` a parameter again (the `_orig` Parameter object, holding the pruned values);
        `name_orig` and `name_mask` gone."""
        if self._tensor_name is None:
            raise GradcliError(
                f"Module {module!r} has to be pruned before pruning can be removed"
            ).mirror("AssertionError")
        name = self._tensor_name
        weight = self.apply_mask(module)
        if module._reads(name)[0]:
            module.program_delete(name)
        orig = module._parameters[name + _ORIG]
        orig.data = weight.data
        module.program_delete(name + _ORIG)
        module.program_delete(name + _MASK)
        module.program_set(name, orig)


class PruningContainer(BasePruningMethod):
    """The pruning methods applied one after the other to one tensor."""

    PROGRAM_UNDERSCORED = ("_tensor_name", "_pruning_methods")
    PROGRAM_ATTRIBUTES = BasePruningMethod.PROGRAM_ATTRIBUTES + ("add_pruning_method",)

    def __init__(self, *methods: Any) -> None:
        self._pruning_methods: tuple = ()
        if len(methods) == 1:
            self._tensor_name = methods[0]._tensor_name
            self.add_pruning_method(methods[0])
        else:
            for m in methods:
                self.add_pruning_method(m)

    def add_pruning_method(self, method: Any) -> None:
        if method is not None and not isinstance(method, BasePruningMethod):
            raise GradcliError(
                f"<class '{typename(method)}'> is not a BasePruningMethod subclass"
            ).mirror("TypeError")
        if method is not None and self._tensor_name != method._tensor_name:
            raise GradcliError(
                "Can only add pruning methods acting on the parameter named "
                f"'{self._tensor_name}' to PruningContainer {self!r}. Found "
                f"'{method._tensor_name}'"
            ).mirror("ValueError")
        self._pruning_methods += (method,)

    def program_len(self) -> int:
        return len(self._pruning_methods)

    def program_iter(self) -> Any:
        return iter(self._pruning_methods)

    def program_getitem(self, key: Any) -> Any:
        return self._pruning_methods[key]

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        """The last method's mask computed on what `default_mask` keeps, written into it."""
        method = self._pruning_methods[-1]
        new = default_mask.astype(t.dtype, copy=True)
        kind = method.PRUNING_TYPE
        if kind == "unstructured":
            slc: Any = default_mask == 1
        elif kind == "structured":
            dim = method.dim
            if dim < 0:
                dim += t.ndim
            if dim < 0:
                raise GradcliError(
                    f"Index is out of bounds for tensor with dimensions {t.ndim}"
                ).mirror("IndexError")
            others = tuple(d for d in range(t.ndim) if d != dim)
            # (sum over no dimension is PyTorch's sum over all of them)
            keep = default_mask.sum(axis=others or None) != 0
            parts: list[Any] = [slice(None)] * t.ndim
            parts[dim] = keep
            slc = tuple(parts) if t.ndim else keep
        elif kind == "global":
            slc = (slice(None),) * t.ndim
        else:
            raise GradcliError(f"Unrecognized PRUNING_TYPE {kind}").mirror("ValueError")
        partial = method.mask_of(t[slc], default_mask[slc])
        new[slc] = partial.astype(new.dtype, copy=False)
        return new


class Identity(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        return default_mask


class RandomUnstructured(BasePruningMethod):
    """`amount` entries chosen at random (the largest of `rand_like(t)`)."""

    PRUNING_TYPE = "unstructured"
    PROGRAM_ATTRIBUTES = BasePruningMethod.PROGRAM_ATTRIBUTES + ("amount",)

    def __init__(self, amount: Any) -> None:
        _validate_amount_init(amount)
        self.amount = amount

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        from .sampling import rand_like

        # (drawn only when something is pruned: PyTorch's draws)
        scores = lambda: rand_like(Tensor(np.ascontiguousarray(t))).data  # noqa: E731
        return _unstructured_mask(self.amount, t, default_mask, scores, largest=True)


class L1Unstructured(BasePruningMethod):
    """The `amount` entries of smallest absolute value."""

    PRUNING_TYPE = "unstructured"
    PROGRAM_ATTRIBUTES = BasePruningMethod.PROGRAM_ATTRIBUTES + ("amount",)

    def __init__(self, amount: Any) -> None:
        _validate_amount_init(amount)
        self.amount = amount

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        return _unstructured_mask(self.amount, t, default_mask, lambda: np.abs(t), largest=False)


def _unstructured_mask(
    amount: Any, t: np.ndarray, default_mask: np.ndarray, scores: Any, largest: bool
) -> np.ndarray:
    """The default mask with the `amount` entries of largest (or smallest) `scores()` set to 0
    (the scores asked for only when some entry is pruned)."""
    k = _nparams_toprune(amount, t.size)
    mask = default_mask.copy()
    if k != 0:
        mask.reshape(-1)[_topk_positions(scores().reshape(-1), k, largest)] = 0
    return mask


class RandomStructured(BasePruningMethod):
    """`amount` channels along `dim` chosen at random (`rand(channels)` at most its k-th
    smallest)."""

    PRUNING_TYPE = "structured"
    PROGRAM_ATTRIBUTES = BasePruningMethod.PROGRAM_ATTRIBUTES + ("amount", "dim")

    def __init__(self, amount: Any, dim: Any = -1) -> None:
        _validate_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        from .basics import kthvalue
        from .sampling import rand

        _validate_structured(t)
        dim = _int_dim(self.dim)
        _validate_dim(t, dim)
        n = t.shape[dim]
        k = _nparams_toprune(self.amount, n)
        if k == 0:
            return default_mask
        prob = rand(n)
        threshold = kthvalue(prob, k)[0]
        keep = prob.data > threshold.data
        mask = _structured_mask(t, _axis(dim, t.ndim), keep)
        return mask * default_mask.astype(mask.dtype, copy=False)


class LnStructured(BasePruningMethod):
    """The `amount` channels along `dim` of smallest `n`-norm."""

    PRUNING_TYPE = "structured"
    PROGRAM_ATTRIBUTES = BasePruningMethod.PROGRAM_ATTRIBUTES + ("amount", "n", "dim")

    def __init__(self, amount: Any, n: Any, dim: Any = -1) -> None:
        _validate_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        from .functional import norm

        _validate_structured(t)
        dim = _int_dim(self.dim)
        _validate_dim(t, dim)
        size = t.shape[dim]
        k = _nparams_toprune(self.amount, size)
        axis = _axis(dim, t.ndim)
        others = [d for d in range(t.ndim) if d != axis]
        with no_grad():
            norms = norm(Tensor(np.ascontiguousarray(t)), p=self.n, dim=others).data
        kept = _topk_positions(norms, size - k, True)
        if k == 0:
            return default_mask
        mask = _structured_mask(t, axis, kept)
        return mask * default_mask.astype(mask.dtype, copy=False)


class CustomFromMask(BasePruningMethod):
    """The mask given (times the mask the tensor already has)."""

    PRUNING_TYPE = "global"
    PROGRAM_ATTRIBUTES = BasePruningMethod.PROGRAM_ATTRIBUTES + ("mask",)

    def __init__(self, mask: Any) -> None:
        self.mask = mask

    def mask_of(self, t: np.ndarray, default_mask: np.ndarray) -> np.ndarray:
        mask = _tensor(self.mask, "mask").data
        if default_mask.shape != mask.shape:
            raise GradcliError(
                f"default_mask shape {_shape_text(default_mask.shape)} must match self.mask "
                f"shape {_shape_text(mask.shape)}"
            ).mirror("AssertionError")
        return default_mask * mask.astype(default_mask.dtype)


def _int_dim(dim: Any) -> int:
    if not _integral(dim):
        raise GradcliError(
            f"dim must be an int (a dimension of the tensor), not {typename(dim)}"
        ).mirror("TypeError")
    return int(dim)


def _tensor(v: Any, what: str) -> Tensor:
    if not isinstance(v, Tensor):
        raise GradcliError(
            f"{what} must be a Tensor, not {typename(v)}", hint="pass a tensor"
        ).mirror("TypeError")
    return v


def _module(module: Any, fn: str) -> N.Module:
    if not isinstance(module, N.Module):
        raise GradcliError(
            f"'{typename(module)}' object has no attribute '_forward_pre_hooks'",
            hint=f"prune.{fn}(module, name, ...) takes an nn.Module and the name of its tensor",
        ).mirror("AttributeError")
    return module


def _pre_hooks(module: N.Module) -> list:
    return (module.__dict__.get("_module_hooks") or {}).get("forward_pre", [])


def _apply(
    cls: type, module: Any, name: Any, *args: Any, importance_scores: Any = None, **kw: Any
) -> BasePruningMethod:
    """PyTorch's `BasePruningMethod.apply`: the method made (joined in a container with the
    tensor's earlier one), the mask computed and registered, the tensor recomputed, the hook
    registered."""
    module = _module(module, cls.__name__)
    if not isinstance(name, str):
        raise GradcliError(f"attribute name must be string, not '{typename(name)}'").mirror(
            "TypeError"
        )
    entries = _pre_hooks(module)
    old = [e for e in entries if isinstance(e[0], BasePruningMethod) and e[0]._tensor_name == name]
    if len(old) > 1:
        raise GradcliError(
            f"Avoid adding multiple pruning hooks to the same tensor {name} of module "
            f"{module!r}. Use a PruningContainer."
        ).mirror("AssertionError")
    for e in old:
        entries.remove(e)
    method: BasePruningMethod = cls(*args, **kw)
    method._tensor_name = name
    if old:
        previous = old[0][0]
        if isinstance(previous, PruningContainer):
            previous.add_pruning_method(method)
            method = previous
        else:
            container = PruningContainer(previous)
            container.add_pruning_method(method)
            method = container
    found, orig = module._reads(name)
    if not found:
        raise GradcliError(f"'{module.pyname}' object has no attribute '{name}'").mirror(
            "AttributeError"
        )
    if importance_scores is not None:
        scores = _tensor(importance_scores, "importance_scores")
        if scores.shape != getattr(orig, "shape", None):
            raise GradcliError(
                f"importance_scores should have the same shape as parameter {name} of "
                f"{module!r}, got {_shape_text(scores.shape)} vs "
                f"{_shape_text(getattr(orig, 'shape', ()))}"
            ).mirror("AssertionError")
    else:
        scores = orig
    fresh = not isinstance(method, PruningContainer)
    if fresh:
        module.register_parameter(name + _ORIG, orig)
        module.program_delete(name)
        default = np.ones(orig.shape, orig.dtype)
    else:
        default = np.array(module.program_attribute(name + _MASK).data, copy=True)
    try:
        mask = Tensor(method.mask_of(_tensor(scores, name).data, default))
        module.register_buffer(name + _MASK, mask)
        module.program_set(name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
    except GradcliError:
        if fresh:
            # (PyTorch's own undoing: the parameter back under its name, registered last)
            module.register_parameter(name, module._parameters[name + _ORIG])
            del module._parameters[name + _ORIG]
        raise
    return method


def identity(module: Any, name: Any) -> Any:
    _apply(Identity, module, name)
    return module


def random_unstructured(module: Any, name: Any, amount: Any) -> Any:
    _apply(RandomUnstructured, module, name, amount=amount)
    return module


def l1_unstructured(module: Any, name: Any, amount: Any, importance_scores: Any = None) -> Any:
    _apply(L1Unstructured, module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Any, name: Any, amount: Any, dim: Any) -> Any:
    _apply(RandomStructured, module, name, amount, dim)
    return module


def ln_structured(
    module: Any, name: Any, amount: Any, n: Any, dim: Any, importance_scores: Any = None
) -> Any:
    _apply(LnStructured, module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module: Any, name: Any, mask: Any) -> Any:
    _apply(CustomFromMask, module, name, mask)
    return module


def global_unstructured(
    parameters: Any, pruning_method: Any, importance_scores: Any = None, **kwargs: Any
) -> None:
    """One mask over all the tensors named by the (module, name) pairs, as if they were one
    vector (`parameters_to_vector` of each tensor, of its importance scores, of its mask)."""
    from .nnutils import parameters_to_vector

    if not isinstance(parameters, (list, tuple)):
        if isinstance(parameters, (int, float, bool, Tensor)) or parameters is None:
            raise GradcliError("global_unstructured(): parameters is not an Iterable").mirror(
                "TypeError"
            )
        raise GradcliError(
            f"global_unstructured() over a {typename(parameters)} is not supported by gradcli",
            hint="pass a list or tuple of (module, name) pairs",
        )
    scores = {} if importance_scores is None else importance_scores
    if not isinstance(scores, dict):
        raise GradcliError("global_unstructured(): importance_scores must be of type dict").mirror(
            "TypeError"
        )
    pairs = []
    for pair in parameters:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise GradcliError(
                "global_unstructured(): each entry of parameters is a (module, name) pair",
                hint="parameters = ((model.fc1, 'weight'), (model.fc2, 'weight'))",
            ).mirror("TypeError")
        pairs.append((_module(pair[0], "global_unstructured"), pair[1]))
    relevant = parameters_to_vector([scores.get((m, n), m.program_attribute(n)) for m, n in pairs])
    masks = []
    for m, n in pairs:
        found, mask = m._reads(n + _MASK)
        masks.append(
            mask
            if found
            else Tensor(np.ones(m.program_attribute(n).shape, m.program_attribute(n).dtype))
        )
    default = parameters_to_vector(masks)
    cls = _method_class(pruning_method)
    method = cls(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise GradcliError(
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            f"<class 'torch.nn.utils.prune.{cls.__name__}'> of type {method.PRUNING_TYPE}"
        ).mirror("TypeError")
    container = PruningContainer()
    container._tensor_name = "temp"
    container.add_pruning_method(method)
    final = container.mask_of(relevant.data, np.array(default.data, copy=True))
    at = 0
    for m, n in pairs:
        param = m.program_attribute(n)
        count = math.prod(param.shape)
        custom_from_mask(m, n, Tensor(final[at : at + count].reshape(param.shape)))
        at += count


def _method_class(v: Any) -> type:
    """The pruning method class a program passes (prune.L1Unstructured...)."""
    cls = getattr(v, "types", (None,))[0] if hasattr(v, "types") else v
    if isinstance(cls, type) and issubclass(cls, BasePruningMethod):
        return cls
    raise GradcliError(
        f"global_unstructured(): pruning_method must be a pruning method class, not {typename(v)}",
        hint="pass prune.L1Unstructured or prune.RandomUnstructured",
    ).mirror("TypeError")


def remove(module: Any, name: Any) -> Any:
    """The pruning of `name` made permanent: `name` a parameter again, of the pruned values."""
    module = _module(module, "remove")
    entries = _pre_hooks(module)
    for e in entries:
        if isinstance(e[0], BasePruningMethod) and e[0]._tensor_name == name:
            e[0].remove(module)
            entries.remove(e)
            return module
    raise GradcliError(
        f"Parameter '{_shown(name)}' of module {module!r} has to be pruned before pruning can "
        "be removed"
    ).mirror("ValueError")


def is_pruned(module: Any) -> bool:
    module = _module(module, "is_pruned")
    return any(
        isinstance(e[0], BasePruningMethod)
        for _, m in module.named_modules()
        for e in _pre_hooks(m)
    )


FUNCTIONS = {
    "identity": identity,
    "random_unstructured": random_unstructured,
    "l1_unstructured": l1_unstructured,
    "random_structured": random_structured,
    "ln_structured": ln_structured,
    "global_unstructured": global_unstructured,
    "custom_from_mask": custom_from_mask,
    "remove": remove,
    "is_pruned": is_pruned,
}
CLASSES = {
    "BasePruningMethod": BasePruningMethod,
    "PruningContainer": PruningContainer,
    "Identity": Identity,
    "RandomUnstructured": RandomUnstructured,
    "L1Unstructured": L1Unstructured,
    "RandomStructured": RandomStructured,
    "LnStructured": LnStructured,
    "CustomFromMask": CustomFromMask,
}
