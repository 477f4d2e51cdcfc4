"""The classes a program may define: `torch.autograd.Function` subclasses (static `forward`
and `backward`, used through `.apply`) and `torch.nn.Module` subclasses (see `ModuleClass`),
nothing else: `class` is not a way to reach Python's object model. A class body holds methods
(and a docstring); the only method name with dunders is `__init__`; decorators only
`@staticmethod`, `@torch.no_grad()` and its kin, and `@once_differentiable` on a Function's
backward. An instance of a program's nn.Module subclass is the surface's `nn.Module` base with
the program's methods (`ModuleInstance`)."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor, _GradMode, typename
from ..surface import nn as surface_nn
from .values import BoundMethod, Builtin, Ctx, UserFunction


class FunctionClass:
    """`class F(torch.autograd.Function)` with static forward/backward, used as `F.apply`."""

    __slots__ = ("name", "forward", "backward", "setup_context", "once_differentiable")

    def __init__(
        self,
        name: str,
        forward: UserFunction,
        backward: UserFunction,
        setup_context: UserFunction | None = None,
    ):
        self.name = name
        self.forward = forward
        self.backward = backward
        # PyTorch 2's other form: forward(*args) without ctx, then setup_context(ctx, inputs,
        # output) fills the ctx.
        self.setup_context = setup_context
        self.once_differentiable = False

    def get(self, rt: Any, attr: str) -> Any:
        if attr == "apply":
            return Builtin(f"{self.name}.apply", lambda *a: self.apply(rt, a))
        if attr == "forward":
            return self.forward
        if attr == "backward":
            return self.backward
        if attr == "setup_context" and self.setup_context is not None:
            return self.setup_context
        if attr == "__name__":
            return self.name
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> Any:
        """`Exp()`: PyTorch warns and allows it (its `.apply` is the class's)."""
        if args or kwargs:
            raise GradcliError(f"{self.name}() takes no arguments").mirror("TypeError")
        rt.warn(
            f"DeprecationWarning: <class '__main__.{self.name}'> should not be instantiated. "
            "Methods on autograd functions are all static, so you should invoke them on the "
            "class itself. Instantiating an autograd function will raise an error in a future "
            "version of PyTorch.",
            rt.current_stmt,
        )
        return FunctionInstance(self)

    def apply(self, rt: Any, args: tuple) -> Any:
        if _GradMode.transforms:
            from ..surface.func import check_not_transforming

            check_not_transforming("Function")
        ctx = Ctx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)

        def forward() -> Any:
            if self.setup_context is None:
                return rt.invoke(self.forward, list(args), {}, prefix=(ctx,))
            out = rt.invoke(self.forward, list(args), {})
            rt.invoke(self.setup_context, [ctx, tuple(args), out], {})
            return out

        if rt.see_through(self.name):
            return forward()
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs = [args[i] for i in tensor_pos]

        def vjp(*gs: Tensor) -> Any:
            grads = rt.invoke(self.backward, list(gs), {}, prefix=(ctx,))
            grads = grads if isinstance(grads, tuple) else (grads,)
            if len(grads) > len(args) and all(g is None for g in grads[len(args) :]):
                grads = grads[: len(args)]  # extra Nones are allowed, as PyTorch
            if len(grads) != len(args):
                raise GradcliError(
                    f"function {self.name}Backward returned an incorrect "
                    f"number of gradients (expected {len(args)}, got "
                    f"{len(grads)})"
                )
            return tuple(grads[i] for i in tensor_pos)

        from ..ops.custom import custom_apply

        return custom_apply(
            self.name,
            inputs,
            forward,
            vjp,
            label=f"{self.name}Backward",
            non_differentiable=lambda: ctx.non_differentiable,
            materialize=lambda: ctx.materialize_grads,
        )

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


class FunctionInstance:
    """An instance of a program's autograd Function (`e = Exp()`): `e.apply(x)` works;
    calling it is PyTorch's legacy form, refused in PyTorch's words."""

    __slots__ = ("cls",)

    def __init__(self, cls: FunctionClass):
        self.cls = cls

    def get(self, rt: Any, attr: str) -> Any:
        return self.cls.get(rt, attr)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        raise GradcliError(
            "Legacy autograd function with non-static forward method is deprecated. Please "
            "use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__gradcli_call__(None, list(args), kwargs)

    def __repr__(self) -> str:
        return f"<__main__.{self.cls.name} object>"


class ModuleClass:
    """`class Net(nn.Module)` (or a subclass of another such class): its methods; calling it
    makes an instance (`ModuleInstance`), whose `__init__` is the program's."""

    __slots__ = ("name", "methods", "base")

    def __init__(self, name: str, methods: dict[str, UserFunction], base: Any):
        self.name = name
        self.methods = methods
        self.base = base  # the surface's nn.Module, or another ModuleClass

    def lookup(self, attr: str) -> UserFunction | None:
        """The method `attr` of this class or of the program's classes it derives from."""
        cls: Any = self
        while isinstance(cls, ModuleClass):
            if attr in cls.methods:
                return cls.methods[attr]
            cls = cls.base
        return None

    def is_subclass_of(self, other: ModuleClass) -> bool:
        cls: Any = self
        while isinstance(cls, ModuleClass):
            if cls is other:
                return True
            cls = cls.base
        return False

    def get(self, rt: Any, attr: str) -> Any:
        method = self.lookup(attr)
        if method is not None:
            return method
        if attr == "__name__":
            return self.name
        raise GradcliError(f"type object '{self.name}' has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def instantiate(self, rt: Any, args: list, kwargs: dict) -> ModuleInstance:
        obj = ModuleInstance(self)
        init = self.lookup("__init__")
        if init is None:
            if args or kwargs:
                raise GradcliError(f"{self.name}() takes no arguments").mirror("TypeError")
            obj.base_init()
        else:
            result = rt.invoke(init, list(args), kwargs, prefix=(obj,))
            if result is not None:
                raise GradcliError(
                    f"__init__() should return None, not '{typename(result)}'"
                ).mirror("TypeError")
        return obj

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


def _bound(fn: UserFunction, obj: Any) -> BoundMethod:
    """A program's method bound to its instance: calling it runs the method's body."""

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        return fn.runtime.invoke(fn, args, kwargs, prefix=(self,))

    return BoundMethod(fn.code.name, call, obj, raw=True)


class ModuleInstance(surface_nn.Module):
    """An instance of a program's nn.Module subclass: the surface's Module base (parameters
    and submodules registered by assignment, parameters(), zero_grad(), train(), repr...)
    with the program's methods. `super().__init__()` initialises the base, as in PyTorch."""

    def __init__(self, cls: ModuleClass):
        # The base is initialised by the program's `super().__init__()`; until then there is
        # nothing to register into (and PyTorch refuses parameters and submodules).
        self._parameters = {}
        self._modules = {}
        self.training = True
        self.cls = cls
        self.initialized = False

    @property
    def name(self) -> str:
        return self.cls.name

    def base_init(self) -> None:
        surface_nn.Module.__init__(self)
        self.initialized = True

    # -- what the language asks of it -------------------------------------------------------
    def program_attribute(self, name: str) -> Any:
        # Plain attributes first (they shadow methods in Python), then the program's methods,
        # then the base's parameters, submodules and methods.
        if "_attr_" + name in self.__dict__:
            return self.__dict__["_attr_" + name]
        method = self.cls.lookup(name)
        if method is not None:
            return method if method.static else _bound(method, self)
        return surface_nn.Module.program_attribute(self, name)

    def get(self, rt: Any, attr: str) -> Any:
        return self.program_attribute(attr)

    def set(self, rt: Any, attr: str, value: Any) -> None:
        if not self.initialized:
            if isinstance(value, surface_nn.Parameter):
                raise GradcliError(
                    "cannot assign parameters before Module.__init__() call",
                    hint="call super().__init__() first in __init__",
                ).mirror("AttributeError")
            if isinstance(value, surface_nn.Module):
                raise GradcliError(
                    "cannot assign module before Module.__init__() call",
                    hint="call super().__init__() first in __init__",
                ).mirror("AttributeError")
        if attr == "training":
            self.training = bool(value)
            return
        self.set_attribute(attr, value)

    def call(self, rt: Any, args: list, kwargs: dict) -> Any:
        # Through the base's __call__: the module's hooks run around forward.
        return surface_nn.Module.__call__(self, *args, **kwargs)

    # -- the base's hooks, answered by the program's methods ----------------------------------
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        fn = self.cls.lookup("forward")
        if fn is None:
            return surface_nn.Module.forward(self, *args)
        return fn.runtime.invoke(fn, args, kwargs, prefix=(self,))

    def extra_repr(self) -> str:
        fn = self.cls.lookup("extra_repr")
        if fn is None:
            return ""
        text = fn.runtime.invoke(fn, (), {}, prefix=(self,))
        if not isinstance(text, str):
            raise GradcliError(f"extra_repr() must return a string, not {typename(text)}").mirror(
                "TypeError"
            )
        return text


class Super:
    """`super()` inside a method of a program's class (or `super(Net, self)`)."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls: Any, obj: Any):
        self.cls = cls
        self.obj = obj

    def get(self, rt: Any, attr: str) -> Any:
        cls = self.cls
        if not isinstance(cls, ModuleClass) or not isinstance(self.obj, ModuleInstance):
            raise NotSupported("super() is only supported in the methods of nn.Module subclasses")
        base = cls.base
        if isinstance(base, ModuleClass):
            method = base.lookup(attr)
            if method is not None:
                return _bound(method, self.obj)
            if attr == "__init__":
                return Builtin("Module.__init__", self.obj.base_init)
        elif attr == "__init__":
            return Builtin("Module.__init__", self.obj.base_init)
        if attr in surface_nn.Module.METHODS:
            return getattr(super(ModuleInstance, self.obj), attr)
        raise GradcliError(f"'super' object has no attribute '{attr}'").mirror("AttributeError")
