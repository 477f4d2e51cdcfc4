"""The classes a program may define: `torch.autograd.Function` subclasses (static `forward`
and `backward`, used through `.apply`) and `torch.nn.Module` subclasses (see `ModuleClass`).
Nothing else: `class` is not a way to reach Python's object model. A class body holds methods
(and a docstring); method names with dunders are only `__init__`, `__call__`-free `forward`
and `__repr__`-free ones PyTorch modules use; decorators only `@staticmethod` (and
`@once_differentiable` on a Function's backward)."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, typename
from .values import Builtin, Ctx, UserFunction


class FunctionClass:
    """`class F(torch.autograd.Function)` with static forward/backward, used as `F.apply`."""

    __slots__ = ("name", "forward", "backward", "once_differentiable")

    def __init__(self, name: str, forward: UserFunction, backward: UserFunction):
        self.name = name
        self.forward = forward
        self.backward = backward
        self.once_differentiable = False

    def get(self, rt: Any, attr: str) -> Any:
        if attr == "apply":
            return Builtin(f"{self.name}.apply", lambda *a: self.apply(rt, a))
        if attr == "forward":
            return self.forward
        if attr == "backward":
            return self.backward
        if attr == "__name__":
            return self.name
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise NotSupported(
            f"call {self.name}.apply(...), not {self.name}(...)",
            hint="custom autograd Functions are used through .apply",
        )

    def apply(self, rt: Any, args: tuple) -> Any:
        ctx = Ctx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        if rt.see_through(self.name):
            return rt.invoke(self.forward, list(args), {}, prefix=(ctx,))
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs = [args[i] for i in tensor_pos]

        def forward() -> Any:
            return rt.invoke(self.forward, list(args), {}, prefix=(ctx,))

        def vjp(g: Tensor) -> Any:
            grads = rt.invoke(self.backward, [g], {}, prefix=(ctx,))
            grads = grads if isinstance(grads, tuple) else (grads,)
            if len(grads) != len(args):
                raise GradcliError(
                    f"function {self.name}Backward returned an incorrect "
                    f"number of gradients (expected {len(args)}, got "
                    f"{len(grads)})"
                )
            return tuple(grads[i] for i in tensor_pos)

        from ..ops.custom import custom_apply

        return custom_apply(self.name, inputs, forward, vjp, label=f"{self.name}Backward")

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


class ModuleClass:
    """`class Net(nn.Module)`: its methods; calling it makes an instance."""

    __slots__ = ("name", "methods", "base")

    def __init__(self, name: str, methods: dict[str, UserFunction], base: Any):
        self.name = name
        self.methods = methods
        self.base = base

    def get(self, rt: Any, attr: str) -> Any:
        if attr in self.methods:
            return self.methods[attr]
        if attr == "__name__":
            return self.name
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise NotSupported(f"instances of nn.Module subclasses ({self.name}) are not supported yet")

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


class ModuleInstance:
    """An instance of a program's nn.Module subclass."""

    def get(self, rt: Any, attr: str) -> Any:  # pragma: no cover - see ModuleClass
        raise NotSupported("nn.Module subclasses are not supported yet")

    def set(self, rt: Any, attr: str, value: Any) -> None:  # pragma: no cover
        raise NotSupported("nn.Module subclasses are not supported yet")

    def call(self, rt: Any, args: list, kwargs: dict) -> Any:  # pragma: no cover
        raise NotSupported("nn.Module subclasses are not supported yet")

    def getitem(self, rt: Any, key: Any) -> Any:  # pragma: no cover
        raise GradcliError(f"'{typename(self)}' object is not subscriptable").mirror("TypeError")

    def setitem(self, rt: Any, key: Any, value: Any) -> None:  # pragma: no cover
        raise GradcliError("item assignment").mirror("TypeError")


class Super:
    """`super()` inside a method of a program's class."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls: Any, obj: Any):
        self.cls = cls
        self.obj = obj

    def get(self, rt: Any, attr: str) -> Any:
        raise NotSupported("super() is not supported yet")
