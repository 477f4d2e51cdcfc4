"""`torch.nn.utils.parametrize`: a module's tensor computed by a module of the program's.

`register_parametrization(layer, "weight", Sym())` moves the parameter (or buffer) `weight`
into `layer.parametrizations.weight.original` (a `ParametrizationList`, registered under the
module's new child `parametrizations`, a ModuleDict) and from then on reading `layer.weight`
calls the chain of parametrizations on `original`: gradients flow to `original`. The module
prints as `Parametrized<Name>`; `layer.weight = X` runs the `right_inverse` methods and writes
`original` in place (the same Parameter object an optimizer holds). PyTorch swaps the module's
class; gradcli marks the module and its entries (`_Entries`: `_parameters["weight"]` computes
the tensor, so the built-in modules' forward reads it as their own parameter).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core.tensor import Tensor, bumped, no_grad, own, typename
from . import nn as N

# `parametrize.cached()`: while one is open, each parametrized tensor is computed once
# (by (id(module), name)); cleared when the outermost closes.
_CACHE: dict[tuple[int, str], Tensor] = {}
_CACHING = [0]


def _program_method(m: Any, name: str) -> Any:
    """The method `name` of the module `m` (a program's, or gradcli's own), else None."""
    return m.own_method(name) if isinstance(m, N.Module) else None


def _set_in_place(original: Tensor, new: Tensor) -> None:
    """`original.set_(new)` under no_grad: the same tensor object takes the values."""
    if new is original:
        return
    own(new)
    original.data = np.array(new.data, copy=True)
    bumped(original)


def _not_implemented(e: GradcliError) -> bool:
    return getattr(e, "python_class", None) == "NotImplementedError"


class ParametrizationList(N.ModuleList):
    """The parametrizations of one tensor, in registration order, and the tensor they start
    from (`original`, or `original0`, `original1`... when right_inverse gives several)."""

    ATTRIBUTES = ("training", "unsafe", "is_tensor", "ntensors")
    METHODS = N.ModuleList.METHODS + ("right_inverse",)

    def __init__(self, modules: list, original: Tensor, unsafe: bool = False) -> None:
        super().__init__(modules)
        self.unsafe = bool(unsafe)
        shape, dtype = original.shape, original.dtype
        new: Any = original
        with no_grad():
            for m in reversed(list(self._modules.values())):
                inverse = _program_method(m, "right_inverse")
                if inverse is None:
                    continue
                try:
                    new = inverse(new)
                except GradcliError as e:
                    if not _not_implemented(e):
                        raise
        if not isinstance(new, (Tensor, list, tuple)):
            raise GradcliError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {typename(new)}"
            ).mirror("ValueError")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new.dtype != dtype:
                raise GradcliError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {_dt(dtype)}\n"
                    f"right_inverse(original).dtype: {_dt(new.dtype)}"
                ).mirror("ValueError")
            with no_grad():
                _set_in_place(original, new)
            self._register("original", original, original)
        else:
            for i, t in enumerate(new):
                if not isinstance(t, Tensor):
                    raise GradcliError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        f"(list, tuple...). Got element {i} of the sequence with type "
                        f"{typename(t)}."
                    ).mirror("ValueError")
                if isinstance(original, N.Parameter):
                    t = N.Parameter(t, original.requires_grad)
                self._register(f"original{i}", t, original)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise GradcliError(
                    f"A parametrization must return a tensor. Got {typename(z)}."
                ).mirror("ValueError")
            if z.dtype != dtype:
                raise GradcliError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {_dt(dtype)}\n"
                    f"parametrized dtype: {_dt(z.dtype)}"
                ).mirror("ValueError")
            if z.shape != shape:
                raise GradcliError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {_size(shape)}\n"
                    f"parametrized shape: {_size(z.shape)}"
                ).mirror("ValueError")

    @property
    def name(self) -> str:
        return "ParametrizationList"

    def _register(self, name: str, t: Tensor, like: Tensor) -> None:
        if isinstance(like, N.Parameter) and isinstance(t, N.Parameter):
            self.register_parameter(name, t)
        else:
            self.register_buffer(name, t)

    def _original(self, i: int | None) -> Tensor:
        key = "original" if i is None else f"original{i}"
        if key in self._parameters:
            return self._parameters[key]
        return self._buffers[key]

    def forward(self) -> Any:
        mods = list(self._modules.values())
        if self.is_tensor:
            x = mods[0](self._original(None))
        else:
            x = mods[0](*(self._original(i) for i in range(self.ntensors)))
        for m in mods[1:]:
            x = m(x)
        return x

    def right_inverse(self, value: Any) -> None:
        """`module.weight = value`: the right_inverse methods in reverse order, the result
        written into `original` (the same tensor)."""
        with no_grad():
            for m in reversed(list(self._modules.values())):
                inverse = _program_method(m, "right_inverse")
                if inverse is None:
                    raise GradcliError(
                        f"parametrization {m.name} does not implement right_inverse."
                    ).mirror("RuntimeError")
                value = inverse(value)
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise GradcliError(
                        f"`right_inverse` should return a tensor. Got {typename(value)}"
                    ).mirror("ValueError")
                original = self._original(None)
                if value.dtype != original.dtype:
                    raise GradcliError(
                        f"The tensor returned by `right_inverse` has dtype {_dt(value.dtype)} "
                        f"while `original` has dtype {_dt(original.dtype)}"
                    ).mirror("ValueError")
                _set_in_place(original, value)
                return
            if not isinstance(value, (list, tuple)):
                raise GradcliError(
                    f"'right_inverse' must return a sequence of tensors. Got {typename(value)}."
                ).mirror("ValueError")
            if len(value) != self.ntensors:
                raise GradcliError(
                    "'right_inverse' must return a sequence of tensors of length "
                    f"{self.ntensors}. Got a sequence of length {len(value)}."
                ).mirror("ValueError")
            for i, t in enumerate(value):
                if not isinstance(t, Tensor):
                    raise GradcliError(
                        "'right_inverse' must return a sequence of tensors or reference-type "
                        f"opaques. Got element {i} of type {typename(t)}."
                    ).mirror("ValueError")
                original = self._original(i)
                if t.dtype != original.dtype:
                    raise GradcliError(
                        f"Tensor {i} returned by `right_inverse` has dtype {_dt(t.dtype)} "
                        f"while `original{i}` has dtype {_dt(original.dtype)}"
                    ).mirror("ValueError")
                _set_in_place(original, t)

    def program_attribute(self, name: str) -> Any:
        if name in ("unsafe", "is_tensor", "ntensors"):
            return getattr(self, name)
        return super().program_attribute(name)


def _dt(dtype: Any) -> str:
    from ..core import dtypes

    return dtypes.torch_name(np.dtype(dtype))


def _size(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(int(s)) for s in shape)}])"


def _plist(module: N.Module, name: str) -> ParametrizationList:
    return module._modules["parametrizations"]._modules[name]


def parametrized_value(module: N.Module, name: str) -> Any:
    """`module.name` of a parametrized tensor: the chain run on the original (once per
    `cached()` block when one is open)."""
    limits.BUDGET.tick()
    plist = _plist(module, name)
    if not _CACHING[0]:
        return plist()
    key = (id(module), name)
    value = _CACHE.get(key)
    if value is None:
        value = _CACHE[key] = plist()
    return value


def set_parametrized(module: N.Module, name: str, value: Any) -> None:
    _plist(module, name).right_inverse(value)


def is_parametrized(module: Any, tensor_name: Any = None) -> bool:
    """`parametrize.is_parametrized(module, tensor_name=None)`."""
    if not isinstance(module, N.Module):
        return False
    ps = module._modules.get("parametrizations")
    if not isinstance(ps, N.ModuleDict):
        return False
    if tensor_name is None:
        return len(ps._modules) > 0
    return tensor_name in ps._modules


def register_parametrization(
    module: Any, tensor_name: Any, parametrization: Any, *, unsafe: Any = False
) -> Any:
    """`parametrize.register_parametrization(module, tensor_name, parametrization, *,
    unsafe=False)`."""
    if not isinstance(module, N.Module):
        raise GradcliError(
            f"register_parametrization() expects an nn.Module, not {typename(module)}"
        ).mirror("TypeError")
    if not isinstance(parametrization, N.Module):
        raise GradcliError(f"'{typename(parametrization)}' object has no attribute 'train'").mirror(
            "AttributeError"
        )
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_added(module, tensor_name, parametrization)
        plist = _plist(module, tensor_name)
        plist.append(parametrization)
        plist.unsafe = plist.unsafe or bool(unsafe)
    elif isinstance(tensor_name, str) and (
        tensor_name in module._buffers or tensor_name in module._parameters
    ):
        original = (
            module._parameters[tensor_name]
            if tensor_name in module._parameters
            else module._buffers[tensor_name]
        )
        if not isinstance(original, Tensor):
            raise GradcliError(f"'{typename(original)}' object has no attribute 'shape'").mirror(
                "AttributeError"
            )
        plist = ParametrizationList([parametrization], original, unsafe=bool(unsafe))
        if tensor_name in module._parameters:
            dict.__delitem__(module._parameters, tensor_name)
        else:
            dict.__delitem__(module._buffers, tensor_name)
            module._non_persistent.discard(tensor_name)
        if not is_parametrized(module):
            N.entries(module)
            module.__dict__["_parametrized"] = ACCESS
            module._modules["parametrizations"] = N.ModuleDict()
        module._modules["parametrizations"]._modules[tensor_name] = plist
    else:
        raise GradcliError(
            f"Module '{module!r}' does not have a parameter, a buffer, or a parametrized "
            f"element with name '{tensor_name}'"
        ).mirror("ValueError")
    return module


def _check_added(module: N.Module, name: str, parametrization: N.Module) -> None:
    y = parametrized_value(module, name)
    x = parametrization(y)
    if not isinstance(x, Tensor):
        raise GradcliError(f"A parametrization must return a tensor. Got {typename(x)}.").mirror(
            "ValueError"
        )
    if x.dtype != y.dtype:
        raise GradcliError(
            "Registering a parametrization may not change the dtype of the tensor, unless the "
            "`unsafe` flag is enabled.\n"
            f"module.{name}.dtype: {_dt(y.dtype)}\n"
            f"parametrization(module.{name}).dtype: {_dt(x.dtype)}"
        ).mirror("ValueError")
    if x.shape != y.shape:
        raise GradcliError(
            "Registering a parametrization may not change the shape of the tensor, unless the "
            "`unsafe` flag is enabled.\n"
            f"module.{name}.shape: {_size(y.shape)}\n"
            f"parametrization(module.{name}).shape: {_size(x.shape)}"
        ).mirror("ValueError")
    inverse = _program_method(parametrization, "right_inverse")
    if inverse is None:
        return
    try:
        z = inverse(x)
    except GradcliError as e:
        if _not_implemented(e):
            return
        raise
    if not isinstance(z, Tensor):
        raise GradcliError(
            f"parametrization.right_inverse must return a tensor. Got: {typename(z)}"
        ).mirror("ValueError")
    if z.dtype != y.dtype:
        raise GradcliError(
            "The tensor returned by parametrization.right_inverse must have the same dtype as "
            f"module.{name}, unless the `unsafe` flag is enabled.\n"
            f"module.{name}.dtype: {_dt(y.dtype)}\n"
            f"returned dtype: {_dt(z.dtype)}"
        ).mirror("ValueError")
    if z.shape != y.shape:
        raise GradcliError(
            "The tensor returned by parametrization.right_inverse must have the same shape as "
            f"module.{name}, unless the `unsafe` flag is enabled.\n"
            f"module.{name}.shape: {_size(y.shape)}\n"
            f"returned shape: {_size(z.shape)}"
        ).mirror("ValueError")


def remove_parametrizations(module: Any, tensor_name: Any, leave_parametrized: Any = True) -> Any:
    """`parametrize.remove_parametrizations(module, tensor_name, leave_parametrized=True)`."""
    if not is_parametrized(module, tensor_name):
        raise GradcliError(
            f"Module {module!r} does not have a parametrization on {tensor_name}"
        ).mirror("ValueError")
    plist = _plist(module, tensor_name)
    if plist.is_tensor:
        original = plist._original(None)
        if leave_parametrized:
            with no_grad():
                t = parametrized_value(module, tensor_name)
                _set_in_place(original, t)
    else:
        if not leave_parametrized:
            raise GradcliError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                "parametrized in terms of a sequence of tensors."
            ).mirror("ValueError")
        t = parametrized_value(module, tensor_name)
        original = N.Parameter(t) if t.requires_grad else t
    del module._modules["parametrizations"]._modules[tensor_name]
    _CACHE.pop((id(module), tensor_name), None)
    if isinstance(original, N.Parameter):
        dict.__setitem__(module._parameters, tensor_name, original)
    else:
        dict.__setitem__(module._buffers, tensor_name, original)
    if not is_parametrized(module):
        del module._modules["parametrizations"]
        module._parameters = dict(module._parameters)
        module._buffers = dict(module._buffers)
        module.__dict__.pop("_parametrized", None)
    return module


def transfer_parametrizations_and_params(
    from_module: Any, to_module: Any, tensor_name: Any = None
) -> Any:
    """`parametrize.transfer_parametrizations_and_params(from_module, to_module,
    tensor_name=None)`: `to_module` gets the same parametrizations (the same module objects)
    on the same tensors, and their originals are from_module's (the same Parameters, so a
    gradient through either module reaches them). A tensor to_module lacks is made first, a
    Parameter of from_module's value."""
    if not is_parametrized(from_module):
        return to_module
    if not isinstance(to_module, N.Module):
        raise GradcliError(
            f"transfer_parametrizations_and_params() expects an nn.Module, not "
            f"{typename(to_module)}"
        ).mirror("TypeError")
    names = (
        list(from_module._modules["parametrizations"]._modules)
        if tensor_name is None
        else [tensor_name]
    )
    for name in names:
        if not is_parametrized(from_module, name):
            raise GradcliError(f"'ModuleDict' object has no attribute '{name}'").mirror(
                "AttributeError"
            )
        source = _plist(from_module, name)
        held = name in to_module._parameters or name in to_module._buffers
        if not held and not is_parametrized(to_module, name):
            to_module.register_parameter(name, N.Parameter(parametrized_value(from_module, name)))
        for p in list(source._modules.values()):
            register_parametrization(to_module, name, p)
        target = _plist(to_module, name)
        keys = (
            ["original"] if source.is_tensor else [f"original{i}" for i in range(source.ntensors)]
        )
        for key in keys:
            t = source._original(None if key == "original" else int(key[8:]))
            for table in (target._parameters, target._buffers):
                table.pop(key, None)
            target._register(key, t, t)
        _CACHE.pop((id(to_module), name), None)
    return to_module


class Cached:
    """`with parametrize.cached():` each parametrized tensor computed once in the block."""

    program_context = True
    as_value = None

    def enter(self) -> None:
        _CACHING[0] += 1

    def exit(self) -> None:
        _CACHING[0] -= 1
        if not _CACHING[0]:
            _CACHE.clear()

    def __repr__(self) -> str:
        return f"<contextlib._GeneratorContextManager object at {id(self):#x}>"


class _Access:
    """What a parametrized module's attribute reads and writes ask (nn's Module holds it in
    `_parametrized`, so that nn need not import this module)."""

    has = staticmethod(is_parametrized)
    get = staticmethod(parametrized_value)
    set = staticmethod(set_parametrized)


ACCESS = _Access()


def cached() -> Cached:
    return Cached()


def reset() -> None:
    """A run starts with no cache open."""
    _CACHING[0] = 0
    _CACHE.clear()


FUNCTIONS = {
    "register_parametrization": register_parametrization,
    "remove_parametrizations": remove_parametrizations,
    "is_parametrized": is_parametrized,
    "cached": cached,
    "transfer_parametrizations_and_params": transfer_parametrizations_and_params,
}
