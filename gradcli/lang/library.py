"""`torch.library.custom_op`: a program's function made an operator of PyTorch's, run eagerly
as PyTorch runs it on the CPU.

PyTorch wraps the function in an autograd.Function of its own, named
`GeneratedBackwardFor_<ns>_<name>_default`: the function is its forward (run with grad
off), `register_autograd(backward, setup_context=...)` gives its backward and the ctx's
filling (PyTorch 2's form: forward without ctx). Without a registered formula the output
still has that grad_fn, whose backward is PyTorch's RuntimeError. Here the op is a
`classes.FunctionClass` made the same way. `register_fake` (a meta implementation for
torch.compile's fake tensors) is kept and never run: eager calls do not use it.

`torch.ops.<ns>.<name>` (and `.default`) reaches an op defined in the run. An op that
mutates its inputs (`mutates_args` not empty) runs as the plain function; PyTorch refuses an
autograd formula for it. The older form, `torch.library.define` (or `Library(ns,
"DEF").define`) with a schema string and `impl` for the CPU, runs the kernel as it is (its
own operations recorded, PyTorch's autograd fallback) until register_autograd gives the op a
formula."""

from __future__ import annotations

from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor
from .classes import FunctionClass
from .values import Builtin, UserFunction

# The operators the program defined in this run, by "ns::name" (cleared by each run).
OPS: dict[str, CustomOp] = {}

_REWRITE = (
    "write a torch.autograd.Function (static forward/backward, called with F.apply), or "
    '@torch.library.custom_op("ns::name", mutates_args=()) with op.register_autograd(...)'
)


def _no_setup(ctx: Any, inputs: Any, output: Any) -> None:
    return None


class CustomOp:
    """What `torch.library.custom_op` gives (PyTorch's CustomOpDef)."""

    __slots__ = ("qualname", "fn", "functional", "function", "fake", "params", "formula")

    def __init__(
        self, qualname: str, fn: UserFunction | None, functional: bool, params: Any = None
    ) -> None:
        ns, _, name = qualname.partition("::")
        self.qualname = qualname
        self.fn = fn
        self.functional = functional
        # (name, default or _NONE) of each argument: the schema's (`define`) or the function's
        self.params = params
        # whether a call records the op's own node: custom_op's always; an op of `define`
        # only once register_autograd gave it a formula (else its kernel runs as it is)
        self.formula = params is None
        dotted = f"{ns}.{name}.default"

        def no_formula(ctx: Any, *grads: Any) -> Any:
            raise GradcliError(
                f"Trying to backward through {dotted} but no autograd formula was registered. "
                "Please use register_autograd to add one.",
                hint=f"{name}.register_autograd(backward, setup_context=setup_context)",
            ).mirror("RuntimeError")

        self.function = FunctionClass(
            f"GeneratedBackwardFor_{ns}_{name}_default", fn, no_formula, _no_setup
        )
        self.fake: Any = None

    # -- what a program calls ---------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.run(list(args), kwargs)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        return self.run(args, kwargs)

    def run(self, args: list, kwargs: dict) -> Any:
        if self.fn is None:
            raise GradcliError(
                f"Could not run '{self.qualname}' with arguments from the 'CPU' backend.",
                hint=f'give it a kernel: @torch.library.impl("{self.qualname}", "cpu")',
            ).mirror("NotImplementedError")
        rt = self.fn.runtime
        args = _bound(self.params or _fn_params(self.fn), args, kwargs, self.qualname)
        if not self.functional or not self.formula:
            return rt.invoke(self.fn, args, {})
        out = self.function.apply(rt, tuple(args))
        for o in out if isinstance(out, tuple) else (out,):
            if isinstance(o, Tensor) and any(
                isinstance(a, Tensor) and (o is a or _aliases(o, a)) for a in args
            ):
                raise GradcliError(
                    f"{self.fn.name} (with implementation in <module "
                    "'torch._library.custom_ops'>): The output of this custom operator (1) must "
                    "not also be an input to this custom operator and (2) may not alias any "
                    "inputs to this custom operator or other returns. The most common way to "
                    "trigger this error is if we have y = custom_op(x) and y and x are the same "
                    "Tensor. Please instead return a clone of the offending output tensor(s) "
                    "(e.g. return x.clone()) or refactor the custom operator to not return y.",
                    hint="return x.clone() (or a new tensor) from the op",
                ).mirror("RuntimeError")
        return out

    def register_autograd(self, backward: Any, /, *, setup_context: Any = None) -> None:
        if not self.functional:
            raise GradcliError(
                f"Cannot register autograd formula for non-functional operator {self!r} with "
                f"schema {self.qualname}(...) -> (). Please create a functional operator and "
                "register an autograd formula for that.",
                hint="make the op return a new tensor (mutates_args=()) to give it a backward",
            ).mirror("RuntimeError")
        self.function.backward = backward
        self.function.setup_context = setup_context if setup_context is not None else _no_setup
        self.formula = True

    def register_fake(self, fn: Any = None, /) -> Any:
        if fn is None:
            return Builtin(f"{self.qualname}.register_fake", self._keep_fake)
        return self._keep_fake(fn)

    def _keep_fake(self, fn: Any) -> Any:
        self.fake = fn
        return fn

    def register_kernel(self, device_types: Any, fn: Any = None, /) -> Any:
        """A kernel for some devices: one for the CPU (or every device) becomes what eager
        calls run."""
        kinds = [device_types] if isinstance(device_types, str) or device_types is None else None
        if kinds is None:
            kinds = list(device_types)

        def keep(f: Any) -> Any:
            if any(k is None or k == "cpu" for k in kinds):
                if type(f) is not UserFunction:
                    raise NotSupported(
                        "register_kernel with a function that is not the program's own is "
                        "not supported by gradcli",
                        hint="pass a def of your program",
                    )
                self.fn = f
                self.function.forward = f
            return f

        return keep(fn) if fn is not None else Builtin(f"{self.qualname}.register_kernel", keep)

    def program_attribute(self, name: str) -> Any:
        if name in ("register_autograd", "register_fake", "register_kernel"):
            return Builtin(f"CustomOpDef.{name}", getattr(self, name))
        if name == "_name":
            return self.qualname
        if name in ("register_torch_dispatch", "register_vmap", "register_autocast"):
            raise NotSupported(
                f"CustomOpDef.{name} is not supported by gradcli (gradcli runs the op eagerly "
                "with its autograd formula)",
                hint=_REWRITE,
            )
        raise GradcliError(f"'CustomOpDef' object has no attribute '{name}'").mirror(
            "AttributeError"
        )

    def program_typename(self) -> str:
        return "CustomOpDef"

    def program_class(self) -> str:
        return "torch._library.custom_ops.CustomOpDef"

    def __repr__(self) -> str:
        return f"<CustomOpDef({self.qualname})>"


def _aliases(a: Tensor, b: Tensor) -> bool:
    import numpy as np

    return bool(a.data.size and b.data.size and np.shares_memory(a.data, b.data))


_NONE = object()  # (an argument without a default)


def _fn_params(fn: UserFunction) -> list[tuple[str, Any]]:
    names = list(fn.code.positional)
    defaults = tuple(fn.defaults or ())
    first = len(names) - len(defaults)
    return [(n, defaults[i - first] if i >= first else _NONE) for i, n in enumerate(names)]


def _bound(params: list, args: list, kwargs: dict, qualname: str) -> list:
    """The op's arguments in order (an op's schema takes its arguments by name too, and
    fills in its defaults)."""
    out = list(args)
    if not kwargs and all(d is _NONE for _, d in params[len(out) :]):
        return out
    for name, default in params[len(out) :]:
        if name in kwargs:
            out.append(kwargs.pop(name))
        elif default is not _NONE:
            out.append(default)
        else:
            raise GradcliError(f"{qualname}() is missing value for argument '{name}'.").mirror(
                "TypeError"
            )
    if kwargs:
        extra = next(iter(kwargs))
        raise GradcliError(f"{qualname}() got an unexpected keyword argument '{extra}'").mirror(
            "TypeError"
        )
    return out


def _check_annotations(fn: UserFunction) -> None:
    """PyTorch infers the op's schema from the annotations: each parameter needs one."""
    node = fn.code.node
    params = getattr(getattr(node, "args", None), "args", None)
    if params is None:
        return
    for p in params:
        if p.annotation is None:
            shown = ", ".join(q.arg for q in params)
            raise GradcliError(
                f"infer_schema(func): Parameter {p.arg} must have a type annotation. Got func "
                f"with signature ({shown}))",
                hint=f"annotate it: def {fn.name}({p.arg}: torch.Tensor) -> torch.Tensor",
            ).mirror("ValueError")


def custom_op(
    name: Any,
    fn: Any = None,
    /,
    *,
    mutates_args: Any = None,
    device_types: Any = None,
    schema: Any = None,
    tags: Any = None,
) -> Any:
    if not isinstance(name, str):
        raise GradcliError(f'expected a string "ns::name", got {type(name).__name__}').mirror(
            "TypeError"
        )
    if mutates_args is None:
        raise GradcliError(
            "custom_op() missing 1 required keyword-only argument: 'mutates_args'",
            hint="say what the op changes in place: mutates_args=() for nothing",
        ).mirror("TypeError")
    if "::" not in name:
        raise GradcliError("not enough values to unpack (expected 2, got 1)").mirror("ValueError")
    functional = mutates_args != "unknown" and not (
        isinstance(mutates_args, (tuple, list, set, frozenset, dict)) and len(mutates_args)
    )

    def make(f: Any) -> CustomOp:
        if type(f) is not UserFunction:
            raise NotSupported(
                "torch.library.custom_op of a function that is not the program's own is not "
                "supported by gradcli",
                hint="decorate a def of your program",
            )
        if schema is None:
            _check_annotations(f)
        if name not in OPS:
            limits.LIST_ITEMS.check(len(OPS) + 1, "the number of custom operators")
        op = CustomOp(name, f, functional)
        OPS[name] = op
        return op

    return make(fn) if fn is not None else Builtin("torch.library.custom_op", make)


def _op_named(target: Any) -> CustomOp:
    if isinstance(target, CustomOp):
        return target
    if isinstance(target, str):
        ns, _, name = target.partition("::")
        op = OPS.get(target)
        if op is None:
            raise GradcliError(
                f"'_OpNamespace' '{ns}' object has no attribute '{name}'",
                hint='define the op first with @torch.library.custom_op("ns::name", ...)',
            ).mirror("AttributeError")
        return op
    raise NotSupported(
        f"torch.library of a {type(target).__name__} is not supported by gradcli: only "
        "operators made with torch.library.custom_op",
        hint=_REWRITE,
    )


_OPCHECK_TESTS = (
    "test_schema",
    "test_autograd_registration",
    "test_faketensor",
    "test_aot_dispatch_dynamic",
)


def opcheck(
    op: Any,
    args: Any,
    kwargs: Any = None,
    *,
    test_utils: Any = _OPCHECK_TESTS,
    raise_exception: bool = True,
    rtol: Any = None,
    atol: Any = None,
) -> dict[str, str]:
    """torch.library.opcheck on the CPU: the op run eagerly on copies of the arguments, and its
    fake implementation (register_fake) checked against what the op returns: each output's
    shape, dtype and strides, as PyTorch's test_faketensor compares them. The other tests
    (schema, autograd registration, AOT dispatch) pass for the ops gradcli runs, which it
    checks as it runs them; their results are PyTorch's dict of "SUCCESS"."""
    target = _op_named(op)
    tests = (test_utils,) if isinstance(test_utils, str) else tuple(test_utils)
    unknown = [t for t in tests if t not in _OPCHECK_TESTS]
    if unknown:
        raise GradcliError(
            f"test_utils={unknown[0]!r} is not a valid test: choose from {list(_OPCHECK_TESTS)}"
        ).mirror("ValueError")
    if not isinstance(args, (tuple, list)):
        raise GradcliError("opcheck: args must be a tuple").mirror("TypeError")
    kw = dict(kwargs or {})

    def copies() -> list:
        return [a.detach().clone() if isinstance(a, Tensor) else a for a in args]

    results: dict[str, str] = {}
    for test in _OPCHECK_TESTS:
        if test not in tests:
            continue
        failure = _fake_mismatch(target, copies(), kw) if test == "test_faketensor" else None
        if failure is None:
            results[test] = "SUCCESS"
            continue
        if not raise_exception:
            raise NotSupported(
                "torch.library.opcheck(..., raise_exception=False) of a failing test is not "
                f"supported by gradcli ({test} failed with {failure})",
                hint="leave raise_exception on and catch the error: except Exception as e",
            )
        raise GradcliError(
            f"opcheck(op, ...): {test} failed with {failure} (scroll up for stack trace)"
        ).mirror("OpCheckError")
    return results


def _fake_mismatch(target: CustomOp, args: list, kwargs: dict) -> str | None:
    """What PyTorch's test_faketensor finds between the op's outputs and its fake kernel's."""
    real = target.run(list(args), dict(kwargs))
    if target.fake is None:
        if real is None:  # (an op that only writes into its arguments needs no fake kernel)
            return None
        return (
            f"There was no fake impl registered for <CustomOpDef({target.qualname})>. This is "
            "necessary for torch.compile/export/fx tracing to work. Please use "
            f"`{target.fn.name if target.fn is not None else 'op'}.register_fake` to add an "
            "fake impl."
        )
    rt = target.fake.runtime
    fake = rt.invoke(target.fake, [a.detach() if isinstance(a, Tensor) else a for a in args], {})
    outs = real if isinstance(real, tuple) else (real,)
    fakes = fake if isinstance(fake, tuple) else (fake,)
    op_name = f"{target.qualname.replace('::', '.')}.default"
    head = (
        f"When comparing the output of {op_name} on FakeTensor and concrete Tensors, found "
        "mismatched tensor metadata: "
    )
    from ..core.dtypes import torch_name
    from ..core.layout import torch_strides
    from ..surface.printing import Size

    for r, f in zip(outs, fakes):
        if not (isinstance(r, Tensor) and isinstance(f, Tensor)):
            continue
        if r.shape != f.shape:
            return head + f"Shapes {Size(r.shape)} and {Size(f.shape)} are not equal!"
        if r.dtype != f.dtype:
            return head + f"Dtypes {torch_name(r.dtype)} and {torch_name(f.dtype)} are not equal!"
        rs, fs = torch_strides(r.data), torch_strides(f.data)
        for i, (a, b) in enumerate(zip(rs, fs)):
            if r.shape[i] > 1 and a != b:
                return head + f"Stride mismatch! Strides are {rs} and {fs} (mismatched at {i})!"
    return None


def register_autograd(
    op: Any, backward: Any, /, *, setup_context: Any = None, lib: Any = None
) -> None:
    _op_named(op).register_autograd(backward, setup_context=setup_context)


def register_fake(op: Any, fn: Any = None, /, *, lib: Any = None, _stacklevel: int = 1) -> Any:
    return _op_named(op).register_fake(fn)


def register_kernel(op: Any, device_types: Any, fn: Any = None, /, *, lib: Any = None) -> Any:
    return _op_named(op).register_kernel(device_types, fn)


def _schema_params(schema: str, qualname: str) -> tuple[list[tuple[str, Any]], bool]:
    """The arguments (name, default) of a schema `(Tensor x, float k=1.0) -> Tensor`, and
    whether the op is functional (no `Tensor(a!)` argument)."""
    import ast as _ast

    text = schema.strip()
    if not text.startswith("(") or ")" not in text:
        raise GradcliError(
            f"Schema {schema!r} for {qualname} is not of the form '(Type name, ...) -> Type'",
            hint='write torch.library.define("ns::name", "(Tensor x) -> Tensor")',
        ).mirror("RuntimeError")
    inner, depth, cut = text[1:], 0, None
    for i, ch in enumerate(inner):
        depth += ch == "("
        if ch == ")":
            if depth == 0:
                cut = i
                break
            depth -= 1
    inner = inner[:cut]
    params: list[tuple[str, Any]] = []
    functional = "!" not in inner
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    for part in (p.strip() for p in parts):
        if not part or part == "*":
            continue
        decl, _, default = part.partition("=")
        name = decl.split()[-1]
        value: Any = _NONE
        if default:
            d = default.strip()
            d = {"True": "True", "False": "False", "None": "None"}.get(d, d)
            try:
                value = _ast.literal_eval(d)
            except (ValueError, SyntaxError):
                value = d
        limits.LIST_ITEMS.check(len(params) + 1, "the number of an op's arguments")
        params.append((name, value))
    return params, functional


def define(
    qualname: Any, schema: Any, *, lib: Any = None, tags: Any = (), alias_analysis: Any = ""
) -> None:
    """`torch.library.define("ns::name", "(Tensor x) -> Tensor")`: an op without a kernel
    yet (`impl` gives it one)."""
    if not isinstance(qualname, str) or "::" not in qualname:
        raise GradcliError("not enough values to unpack (expected 2, got 1)").mirror("ValueError")
    if not isinstance(schema, str):
        raise GradcliError(f"expected a schema string, got {type(schema).__name__}").mirror(
            "TypeError"
        )
    params, functional = _schema_params(schema, qualname)
    if qualname not in OPS:
        limits.LIST_ITEMS.check(len(OPS) + 1, "the number of custom operators")
    OPS[qualname] = CustomOp(qualname, None, functional, params)


def impl(qualname: Any, types: Any, func: Any = None, *, lib: Any = None) -> Any:
    """`@torch.library.impl("ns::name", "cpu")`: the op's kernel (the decorator gives None,
    as PyTorch's)."""
    op = _op_named(qualname)
    kinds = [types] if isinstance(types, str) else list(types)
    for_cpu = any(
        str(k).lower()
        in ("cpu", "default", "compositeexplicitautograd", "compositeimplicitautograd")
        for k in kinds
    )

    def keep(f: Any) -> None:
        if type(f) is not UserFunction:
            raise NotSupported(
                "torch.library.impl with a function that is not the program's own is not "
                "supported by gradcli",
                hint="pass a def of your program",
            )
        if for_cpu:
            op.fn = f
            op.function.forward = f
        return None

    return keep(func) if func is not None else Builtin("torch.library.impl", keep)


class Library:
    """`torch.library.Library(ns, kind)`: `define` and `impl` of the ops of `ns`."""

    __slots__ = ("ns", "kind", "key")

    def __init__(self, ns: Any, kind: Any, dispatch_key: Any = "") -> None:
        if kind not in ("DEF", "IMPL", "FRAGMENT"):
            raise GradcliError(f"Unsupported kind: {kind}").mirror("ValueError")
        self.ns, self.kind, self.key = str(ns), kind, str(dispatch_key)

    def define(self, schema: Any, alias_analysis: Any = "", *, tags: Any = ()) -> str:
        text = str(schema)
        name, paren, rest = text.partition("(")
        define(f"{self.ns}::{name.strip()}", paren + rest)
        return name.strip()

    def impl(
        self, op_name: Any, fn: Any, dispatch_key: Any = "", *, with_keyset: Any = False
    ) -> None:
        name = op_name if isinstance(op_name, str) else getattr(op_name, "qualname", "")
        qual = name if "::" in name else f"{self.ns}::{name}"
        impl(qual, dispatch_key or self.key or "CompositeImplicitAutograd", fn)

    def program_attribute(self, name: str) -> Any:
        if name in ("define", "impl"):
            return Builtin(f"Library.{name}", getattr(self, name))
        if name == "ns":
            return self.ns
        raise NotSupported(f"`Library.{name}` is not supported by gradcli", hint=_REWRITE)

    def program_typename(self) -> str:
        return "Library"

    def program_class(self) -> str:
        return "torch.library.Library"

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.key})>"


def refused(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NotSupported(
            f"`torch.library.{name}` is not supported by gradcli (it runs operators made "
            "with torch.library.custom_op, eagerly)",
            hint=_REWRITE,
        )

    return Builtin(f"torch.library.{name}", refuse)


def members() -> dict[str, Any]:
    out = {
        "custom_op": Builtin("torch.library.custom_op", custom_op),
        "register_autograd": Builtin("torch.library.register_autograd", register_autograd),
        "register_fake": Builtin("torch.library.register_fake", register_fake),
        "impl_abstract": Builtin("torch.library.impl_abstract", register_fake),
        "register_kernel": Builtin("torch.library.register_kernel", register_kernel),
        "define": Builtin("torch.library.define", define),
        "impl": Builtin("torch.library.impl", impl),
        "Library": Builtin("torch.library.Library", _library),
        "opcheck": Builtin("torch.library.opcheck", opcheck),
    }
    for name in (
        "triton_op",
        "wrap_triton",
        "register_vmap",
        "register_torch_dispatch",
        "register_autocast",
        "fallthrough_kernel",
        "infer_schema",
        "get_ctx",
    ):
        out[name] = refused(name)
    return out


def _library(*args: Any, **kwargs: Any) -> Library:
    made = Library(*args, **kwargs)
    return made


class OpPacket:
    """`torch.ops.ns.name` (PyTorch's OpOverloadPacket), `.default` its one overload: both
    call the op."""

    __slots__ = ("op", "overload")

    def __init__(self, op: CustomOp, overload: bool) -> None:
        self.op = op
        self.overload = overload

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.op.run(list(args), kwargs)

    def __gradcli_call__(self, rt: Any, args: list, kwargs: dict) -> Any:
        return self.op.run(args, kwargs)

    def program_attribute(self, name: str) -> Any:
        if name == "default" and not self.overload:
            return OpPacket(self.op, True)
        kind = "OpOverload" if self.overload else "OpOverloadPacket"
        raise GradcliError(f"'{kind}' object has no attribute '{name}'").mirror("AttributeError")

    def program_typename(self) -> str:
        return "OpOverload" if self.overload else "OpOverloadPacket"

    def program_class(self) -> str:
        return "torch._ops." + self.program_typename()

    def __repr__(self) -> str:
        return self.op.qualname.replace("::", ".") + ".default" * self.overload


class OpNamespace:
    """`torch.ops.ns`: the operators the program defined under `ns`."""

    __slots__ = ("ns",)

    def __init__(self, ns: str) -> None:
        self.ns = ns

    def program_attribute(self, name: str) -> Any:
        return OpPacket(_op_named(f"{self.ns}::{name}"), False)

    def program_typename(self) -> str:
        return "_OpNamespace"

    def __repr__(self) -> str:
        return f"'torch.ops.{self.ns}'"


class Ops:
    """`torch.ops`: the namespaces of the program's custom operators; PyTorch's own (aten,
    prims, ...) are refused in plain words."""

    __slots__ = ()

    def program_attribute(self, name: str) -> Any:
        if any(q.partition("::")[0] == name for q in OPS):
            return OpNamespace(name)
        raise NotSupported(
            f"`torch.ops.{name}` is not supported by gradcli (it knows the operators the "
            "program made with torch.library.custom_op)",
            found=f"`torch.ops.{name}`",
            hint="call PyTorch's function by its name (torch.add(x, y), x.sin()); define your "
            'own operator with @torch.library.custom_op("ns::name", mutates_args=())',
        )

    def program_typename(self) -> str:
        return "_Ops"

    def __repr__(self) -> str:
        return "<module 'torch.ops' from 'torch._ops.py'>"
