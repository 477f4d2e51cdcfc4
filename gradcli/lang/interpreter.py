"""The interpreter: a program's statements and expressions, node by node.

Nothing in a program is ever given to `eval`, `exec` or `compile`. Every AST node type has an
explicit handler in a dict; any other node is an error with its span. Names resolve only to
gradcli's own values: its tensors, the PyTorch-shaped functions of `surface`, a few Python
builtins, and the program's own variables and functions. Attributes resolve only through
explicit tables (a tensor's methods and properties, a namespace's members); there is no
`getattr` on a user-chosen name, so dunders and Python internals are unreachable.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, Span, suggest
from ..core import hooks
from ..core.inplace import VIEW_OF_LEAF, inplace
from ..core.op import peek_seq
from ..core.tensor import Settings, Tensor, bumped, data_array, grad_enabled, typename
from ..surface import constructors as K
from ..surface import functional as F
from ..surface import indexing as I
from ..surface import names, sampling
from ..surface import nn as surface_nn
from ..surface.printing import format_value
from .builtins import BUILTINS
from .calls import CONVERTED, call_name, checked_call, is_argument_error, user_error
from .namespaces import (
    FUNCTION_BASE,
    IMPORTABLE,
    TENSOR_METHODS,
    TENSOR_PROPERTIES,
    build_namespaces,
    data_alias,
)
from .operators import binop, compare
from .syntax import REFUSED_HINTS, describe
from .values import (
    BoundMethod,
    Break,
    Builtin,
    Continue,
    Ctx,
    DType,
    FunctionClass,
    GradFn,
    Namespace,
    Return,
    UserFunction,
    check_structure,
    iterate,
    length,
    seq,
    short,
)

# The sandbox's run budget watches the kernel: every operation recorded or run, and every
# large tensor, is spent from it while a run (or a CLI command) has it open.
hooks.install(limits.BUDGET)


class Interpreter:
    """One run of a program (`Program.run` makes one and reads what it leaves behind).

    see_through  user functions with a custom gradient run their forward body as ordinary,
                 recorded operations (True: all of them; a predicate: those whose name it
                 accepts), so that the graph holds what `f` computes;
    promote      float32 leaves are promoted to float64 when they are assigned (their names
                 are kept in `promoted`), so that finite differences run in float64.
    """

    def __init__(
        self,
        program: Any,
        overrides: dict[str, np.ndarray],
        dtype: Any,
        seed: int,
        echo: Callable[[str], None] | None,
        *,
        see_through: bool | Callable[[str], bool] = False,
        promote: bool = False,
    ):
        self.program = program
        self.see_through = see_through if callable(see_through) else lambda name: see_through
        self.promote = promote
        self.promoted: list[str] = []
        self.source = program.source
        self.overrides = dict(overrides)
        self.applied: dict[str, bool] = {}
        self.echo = echo
        self.output: list[str] = []
        self.namespaces = build_namespaces()
        self.globals: dict[str, Any] = {}
        self.tensors: dict[str, Tensor] = {}
        self.order: list[str] = []
        self.last_assigned: str | None = None
        self.iterations = 0
        self.call_depth = 0
        self.output_bytes = 0
        self.warnings: list[str] = []
        self.warned: set[str] = set()
        self.more_warnings = 0
        self.scopes: list[dict[str, Any]] = [self.globals]
        self._stmt: ast.AST | None = None
        # (the sequence number of the next recorded node, the statement running from then
        # on): which line recorded each node (`Run.node_line`, for NaN provenance).
        self.marks: list[tuple[int, ast.AST | None]] = []
        # The analysis commands run in float64 unless told otherwise; random draws are made in
        # PyTorch's default (float32) either way, so they are PyTorch's numbers.
        Settings.default_dtype = np.dtype(dtype or np.float64)
        Settings.draw_dtype = np.dtype(np.float32)
        Settings.seed = int(seed) % 2**64
        sampling.reset(seed)
        self.stmt_handlers: dict[type, Callable[[Any], None]] = {
            ast.Expr: self.s_expr,
            ast.Assign: self.s_assign,
            ast.AugAssign: self.s_augassign,
            ast.For: self.s_for,
            ast.If: self.s_if,
            ast.Pass: lambda n: None,
            ast.Break: self.s_break,
            ast.Continue: self.s_continue,
            ast.FunctionDef: self.s_def,
            ast.Return: self.s_return,
            ast.ClassDef: self.s_class,
            ast.Import: self.s_import,
            ast.ImportFrom: self.s_importfrom,
        }
        self.expr_handlers: dict[type, Callable[[Any], Any]] = {
            ast.Constant: self.e_constant,
            ast.Name: self.e_name,
            ast.List: self.e_list,
            ast.Tuple: self.e_tuple,
            ast.BinOp: self.e_binop,
            ast.UnaryOp: self.e_unary,
            ast.BoolOp: self.e_boolop,
            ast.Compare: self.e_compare,
            ast.Call: self.e_call,
            ast.Attribute: self.e_attribute,
            ast.Subscript: self.e_subscript,
            ast.IfExp: self.e_ifexp,
            ast.Slice: self.e_slice,
        }

    # -- driver --
    def execute(self) -> None:
        import warnings

        previous_sink = hooks.warning_sink
        hooks.warning_sink = self.kernel_warning
        try:
            with limits.BUDGET.run(), warnings.catch_warnings():
                # NumPy's RuntimeWarnings (overflow, division by zero) would print to stderr
                # from inside gradcli; non-finite results are reported by `check_finite`.
                warnings.simplefilter("ignore", RuntimeWarning)
                self.exec_block(self.program.tree.body)
        finally:
            hooks.warning_sink = previous_sink
        self.check_grads()
        for name in self.overrides:
            if name not in self.applied:
                raise GradcliError(
                    f"--set {name}: the program assigns no tensor named `{name}`",
                    found=f"`{name}`",
                    expected="one of: " + ", ".join(f"`{n}`" for n in self.tensors),
                    hint=suggest(name, self.tensors),
                )

    def span(self, node: ast.AST) -> Span | None:
        return self.source.span(node)

    def error(self, node: ast.AST, message: str, **kw: Any) -> GradcliError:
        return GradcliError(message, span=self.span(node), **kw)

    @property
    def current_stmt(self) -> ast.AST | None:
        """The statement running (innermost); setting it marks where its nodes start."""
        return self._stmt

    @current_stmt.setter
    def current_stmt(self, stmt: ast.AST | None) -> None:
        self._stmt = stmt
        seq, marks = peek_seq(), self.marks
        if marks and marks[-1][0] == seq:  # nothing recorded since the last mark
            marks[-1] = (seq, stmt)
        else:
            marks.append((seq, stmt))

    def exec_block(self, body: list[ast.stmt]) -> None:
        outer = self.current_stmt
        try:
            self._exec_block(body)
        finally:
            if self.current_stmt is not outer:  # back in the statement that ran this block
                self.current_stmt = outer

    def _exec_block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            limits.BUDGET.tick()
            self.current_stmt = stmt
            handler = self.stmt_handlers.get(type(stmt))
            if handler is None:  # validate refuses these first; kept as a second line
                raise self.error(stmt, f"{describe(stmt)} is not supported")
            try:
                handler(stmt)
            except GradcliError as e:
                raise e.with_span(self.span(stmt)) from None
            except RecursionError:
                raise self.error(
                    stmt,
                    "the program recursed too deeply",
                    hint="user functions may not call themselves without bound",
                ) from None
            except MemoryError:
                raise LimitError(
                    "out of memory",
                    span=self.span(stmt),
                    hint="the tensors are too large for this machine",
                ) from None
            except CONVERTED as e:
                # Python's own error on one of the program's values where gradcli interprets
                # them: still the program's error (exit 1, with its place; `--debug` shows
                # where it came from). Anything else is gradcli's bug, and propagates.
                if not is_argument_error(e):
                    raise
                raise user_error(e, self.span(stmt)) from e

    # -- statements --
    def s_expr(self, node: ast.Expr) -> None:
        self.eval(node.value)

    def s_assign(self, node: ast.Assign) -> None:
        value = self.eval(node.value)
        for target in node.targets:
            self.assign(target, value, node)

    def s_augassign(self, node: ast.AugAssign) -> None:
        t = node.target
        if isinstance(t, ast.Attribute) and t.attr == "data":
            # `W.data -= lr * W.grad`: in place on the data, outside the graph (as optimisers).
            owner = self.eval(t.value)
            if not isinstance(owner, Tensor):
                raise self.error(t, "`.data` belongs to tensors")
            alias = data_alias(owner)
            new = self.binop(node.op, alias, self.eval(node.value), node)
            F.inplace_update(alias, new)
            return
        current = self.eval(_load(t))
        if isinstance(current, Tensor) and not isinstance(t, ast.Subscript):
            # `x += 1` changes the tensor in place, as Python does for torch tensors: every
            # name bound to it sees the change (PyTorch refuses it on a leaf that requires
            # grad, and records it on a tensor of the graph).
            other = self.eval(node.value)
            try:
                inplace(current, lambda old: self.binop(node.op, old, other, node))
            except GradcliError as e:
                if e.span is None:
                    e.span = self.span(node)
                raise
            return
        value = self.binop(node.op, current, self.eval(node.value), node)
        self.assign(t, value, node)

    def s_for(self, node: ast.For) -> None:
        items = self.eval(node.iter)
        n = length(items)
        if n is not None and n > limits.LOOP_ITERATIONS.value:
            # Known in advance: refuse now rather than after a million iterations.
            raise LimitError(
                f"this loop would run {n:,} times, over the limit of "
                f"{limits.LOOP_ITERATIONS.value:,} loop iterations",
                span=self.span(node.iter),
                found=f"{n:,} iterations",
                expected=f"at most {limits.LOOP_ITERATIONS.value:,} "
                f"({limits.LOOP_ITERATIONS.name})",
                hint=f"raise it with the environment variable "
                f"{limits.LOOP_ITERATIONS.env}=N if you need more",
            )
        try:
            seq = iterate(items, "for")
        except GradcliError as e:
            raise e.with_span(self.span(node.iter)) from None
        for item in seq:
            limits.BUDGET.tick()
            self.iterations += 1
            if self.iterations > limits.LOOP_ITERATIONS.value:
                limits.LOOP_ITERATIONS.check(self.iterations, "the number of loop iterations")
            self.assign(node.target, item, node)
            try:
                self.exec_block(node.body)
            except Break:
                break
            except Continue:
                continue
        else:
            self.exec_block(node.orelse)

    def s_if(self, node: ast.If) -> None:
        if self.truth(self.eval(node.test), node.test):
            self.exec_block(node.body)
        else:
            self.exec_block(node.orelse)

    def s_break(self, node: ast.Break) -> None:
        raise Break()

    def s_continue(self, node: ast.Continue) -> None:
        raise Continue()

    def s_return(self, node: ast.Return) -> None:
        if self.call_depth == 0:
            raise self.error(node, "`return` outside a function")
        raise Return(None if node.value is None else self.eval(node.value))

    def s_def(self, node: ast.FunctionDef) -> None:
        for d in node.decorator_list:
            if not (isinstance(d, ast.Name) and d.id == "staticmethod"):
                raise self.error(
                    d,
                    "decorators are not supported",
                    hint="only @staticmethod inside a torch.autograd.Function",
                )
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise self.error(
                node,
                "functions take plain positional parameters in gradcli",
                hint="drop *args / **kwargs / keyword-only parameters",
            )
        defaults = {}
        names = [p.arg for p in a.args]
        for p, d in zip(names[len(names) - len(a.defaults) :], a.defaults):
            defaults[p] = self.eval(d)
        closure = None if len(self.scopes) == 1 else self.scopes[-1]
        self.bind(node.name, UserFunction(node.name, node, defaults, closure))

    def s_class(self, node: ast.ClassDef) -> None:
        bases = [self.eval(b) for b in node.bases]
        if len(bases) != 1 or bases[0] is not FUNCTION_BASE or node.keywords:
            raise self.error(
                node,
                "classes are only supported in the torch.autograd.Function form",
                expected="class F(torch.autograd.Function): with static "
                "forward(ctx, ...) and backward(ctx, grad_output)",
            )
        methods: dict[str, UserFunction] = {}
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef):
                self.s_def(stmt)
                methods[stmt.name] = self.scopes[-1].pop(stmt.name)
            elif isinstance(stmt, ast.Pass) or (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                continue
            else:
                raise self.error(
                    stmt,
                    "a torch.autograd.Function class holds only its forward and backward methods",
                )
        for need in ("forward", "backward"):
            if need not in methods:
                raise self.error(
                    node,
                    f"class {node.name} has no static `{need}` method",
                    expected="forward(ctx, ...) and backward(ctx, grad_output)",
                )
        self.bind(node.name, FunctionClass(node.name, methods["forward"], methods["backward"]))

    def s_import(self, node: ast.Import) -> None:
        for alias in node.names:
            root = alias.name.split(".")[0]
            if root not in IMPORTABLE:
                raise self.error(
                    node,
                    f"cannot import `{alias.name}`",
                    expected="imports of torch, numpy or math",
                    hint="gradcli programs cannot use other modules",
                )
            ns = self.module(alias.name, node)
            if alias.asname:
                self.bind(alias.asname, ns)
            else:
                self.bind(root, self.namespaces[root])

    def s_importfrom(self, node: ast.ImportFrom) -> None:
        mod = node.module or ""
        if mod.split(".")[0] not in IMPORTABLE or node.level:
            raise self.error(
                node,
                f"cannot import from `{mod}`",
                expected="imports of torch, numpy or math",
            )
        ns = self.module(mod, node)
        for alias in node.names:
            if alias.name == "*":
                raise self.error(
                    node, "`import *` is not supported", hint="import the names you use"
                )
            if alias.name in ns.members:
                value = ns.members[alias.name]
            else:
                try:
                    value = self.module(f"{mod}.{alias.name}", node)
                except GradcliError:
                    raise self.error(
                        node,
                        f"cannot import name `{alias.name}` from `{mod}`",
                        hint=suggest(alias.name, ns.members),
                    ) from None
            self.bind(alias.asname or alias.name, value)

    def module(self, dotted: str, node: ast.AST) -> Namespace:
        parts = dotted.split(".")
        ns = self.namespaces[parts[0]]
        for p in parts[1:]:
            nxt = ns.members.get(p)
            if not isinstance(nxt, Namespace):
                if dotted.startswith("torch"):
                    # Other torch submodules (torch.optim, ...) are accepted and ignored.
                    return Namespace(dotted, {})
                raise self.error(node, f"unknown module `{dotted}`")
            ns = nxt
        return ns

    # -- binding and assignment --
    def bind(self, name: str, value: Any) -> None:
        self.scopes[-1][name] = value

    def assign(self, target: ast.AST, value: Any, stmt: ast.AST) -> None:
        if isinstance(target, ast.Name):
            if len(self.scopes) == 1 and isinstance(value, Tensor):
                value = self.record(target.id, value, target)
            self.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = (
                seq(value, "cannot unpack") if not isinstance(value, (list, tuple)) else list(value)
            )
            if len(items) != len(target.elts):
                raise self.error(
                    target,
                    f"cannot unpack {len(items)} values into {len(target.elts)} names",
                    found=f"{len(items)} values",
                    expected=f"{len(target.elts)}",
                    hint="a one-element tuple unpacks as `g, = ...`" if len(items) == 1 else None,
                )
            for t, v in zip(target.elts, items):
                self.assign(t, v, stmt)
        elif isinstance(target, ast.Attribute):
            self.assign_attribute(target, value)
        elif isinstance(target, ast.Subscript):
            owner = self.eval(target.value)
            if isinstance(owner, dict):  # optimizer.param_groups[0]["lr"] = 0.01
                key = self.eval(target.slice)
                if not isinstance(key, (str, int, float, type(None))):
                    raise self.error(target, f"unhashable type: '{typename(key)}'")
                owner[key] = value
                return
            if not isinstance(owner, Tensor):
                raise self.error(target, "only tensors support item assignment here")
            key = self.eval(target.slice)
            if grad_enabled() and owner.requires_grad and owner.node is None:
                raise self.error(
                    target,
                    VIEW_OF_LEAF,
                    hint="assign into a copy (y = x.clone(); y[...] = ...), or into x.data",
                )
            if grad_enabled() and (
                owner.requires_grad or (isinstance(value, Tensor) and value.requires_grad)
            ):
                # Gradients flow through the assignment (PyTorch's CopySlices), recorded on
                # the tensor itself: every name bound to it sees the change.
                try:
                    inplace(owner, lambda old: I.index_assign(old, key, value))
                except GradcliError as e:
                    if e.span is None:
                        e.span = self.span(target)
                    raise
                return
            idx = I.normalize_index(owner, key)
            if isinstance(value, Tensor):
                new = value.data
            else:
                check_structure(value, "the assignment")
                new = data_array(value, owner.dtype) if isinstance(value, (list, tuple)) else value
                if not isinstance(new, (np.ndarray, int, float, bool)):
                    raise self.error(
                        target,
                        f"cannot assign a {typename(value)} into a tensor",
                        expected="a number or a tensor",
                    )
            try:
                owner.data[idx] = new
            except ValueError:
                owner.data = np.array(owner.data)
                try:
                    owner.data[idx] = new
                except (ValueError, TypeError, IndexError, OverflowError) as e:
                    raise self.error(target, f"cannot assign: {short(str(e))}") from None
            except (TypeError, IndexError, OverflowError) as e:
                raise self.error(target, f"cannot assign: {short(str(e))}") from None
            bumped(owner)
        else:
            raise self.error(target, "cannot assign to this expression")

    def assign_attribute(self, target: ast.Attribute, value: Any) -> None:
        owner = self.eval(target.value)
        attr = target.attr
        if isinstance(owner, Ctx):
            owner.attrs[attr] = value
            return
        if not isinstance(owner, Tensor):
            raise self.error(target, f"cannot set attribute `{attr}` here")
        if attr == "grad":
            if value is not None and not isinstance(value, Tensor):
                raise self.error(target, "assigned grad expected to be a Tensor or None")
            if value is not None and value.shape != owner.shape:
                raise self.error(
                    target,
                    f"assigned grad has data of a different size "
                    f"({list(value.shape)} vs {list(owner.shape)})",
                )
            owner.grad = value
        elif attr == "data":
            v = value if isinstance(value, Tensor) else K.tensor(value)
            owner.data = np.array(v.data, dtype=owner.dtype)
        elif attr == "requires_grad":
            owner.requires_grad_(bool(value))
        else:
            raise self.error(
                target,
                f"cannot set attribute `{attr}` of a tensor",
                expected="`.grad`, `.data` or `.requires_grad`",
            )

    def record(self, name: str, t: Tensor, node: ast.AST) -> Tensor:
        """A top-level tensor assignment: apply `--set` (and `promote`), remember the name."""
        if self.promote and t.node is None and t.data.dtype == np.float32:
            t.data = t.data.astype(np.float64)
            if name not in self.promoted:
                self.promoted.append(name)
        if name in self.overrides and name not in self.applied:
            new = self.overrides[name]
            if t.node is not None:
                raise self.error(
                    node,
                    f"--set {name}: `{name}` is computed by the program",
                    hint="--set replaces the data of tensors the program creates (leaves)",
                )
            if callable(new):  # values to read against the tensor's shape and dtype
                new = new(t)
            if new.shape != t.shape:
                if new.size == t.data.size:
                    new = new.reshape(t.shape)
                else:
                    raise self.error(
                        node,
                        f"--set {name}: {new.size} values given but "
                        f"`{name}` has shape {list(t.shape)} ({t.data.size} "
                        f"elements)",
                    )
            t.data = np.array(new, dtype=t.dtype)
            self.applied[name] = True
        self.check_finite(f"`{name}`", t, node)
        if t.name is None:
            t.name = name
        self.tensors[name] = t
        if name in self.order:
            self.order.remove(name)
        self.order.append(name)
        self.last_assigned = name
        return t

    # -- expressions --
    def eval(self, node: ast.AST) -> Any:
        handler = self.expr_handlers.get(type(node))
        if handler is None:
            raise self.error(
                node,
                f"{describe(node)} is not supported here",
                hint=REFUSED_HINTS.get(type(node)),
            )
        return handler(node)

    def e_constant(self, node: ast.Constant) -> Any:
        return node.value

    def e_name(self, node: ast.Name) -> Any:
        name = node.id
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if len(self.scopes) > 1:
            closure = getattr(self, "_closure", None)
            if closure and name in closure:
                return closure[name]
        if name in BUILTINS:
            return BUILTINS[name]
        if name == "print":
            return Builtin("print", self.do_print)
        if name in self.namespaces:
            return self.namespaces[name]
        if name == "np":
            return self.namespaces["numpy"]
        if name in names.FUNCTIONS:
            return names.FUNCTIONS[name]
        known = list(self.globals) + list(names.FUNCTIONS) + list(BUILTINS) + ["print", "torch"]
        raise self.error(
            node,
            f"name `{name}` is not defined",
            found=f"`{name}`",
            expected="a name assigned earlier in the program, or a torch function",
            hint=suggest(name, known),
        )

    def e_list(self, node: ast.List) -> list:
        return [self.eval(e) for e in node.elts]

    def e_tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self.eval(e) for e in node.elts)

    def e_slice(self, node: ast.Slice) -> slice:
        parts = [None if p is None else self.eval(p) for p in (node.lower, node.upper, node.step)]
        for p, sub in zip(parts, (node.lower, node.upper, node.step)):
            if p is not None and not (isinstance(p, int) and not isinstance(p, bool)):
                if isinstance(p, Tensor) and p.data.size == 1 and p.dtype.kind in "iu":
                    continue
                raise self.error(sub, f"slice indices must be integers or None, not {typename(p)}")
        return slice(*[int(p.item()) if isinstance(p, Tensor) else p for p in parts])

    def e_ifexp(self, node: ast.IfExp) -> Any:
        return (
            self.eval(node.body)
            if self.truth(self.eval(node.test), node.test)
            else self.eval(node.orelse)
        )

    def truth(self, v: Any, node: ast.AST) -> bool:
        if isinstance(v, Tensor):
            try:
                return bool(v)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
        if isinstance(v, (int, float, bool, str, list, tuple, type(None), range)):
            return bool(v)
        return True

    def e_boolop(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for e in node.values:
            value = self.eval(e)
            t = self.truth(value, e)
            if isinstance(node.op, ast.And) and not t:
                return value
            if isinstance(node.op, ast.Or) and t:
                return value
        return value

    def e_unary(self, node: ast.UnaryOp) -> Any:
        v = self.eval(node.operand)
        if isinstance(node.op, ast.Not):
            return not self.truth(v, node.operand)
        if isinstance(v, bool) or not isinstance(v, (int, float, Tensor)):
            raise self.error(node, f"bad operand type for unary operator: '{typename(v)}'")
        return -v if isinstance(node.op, ast.USub) else v

    def e_binop(self, node: ast.BinOp) -> Any:
        return self.binop(node.op, self.eval(node.left), self.eval(node.right), node)

    def binop(self, op: ast.operator, a: Any, b: Any, node: ast.AST) -> Any:
        try:
            return binop(op, a, b)
        except GradcliError as e:
            raise e.with_span(self.span(node)) from None
        except ZeroDivisionError:
            raise self.error(node, "division by zero (of Python numbers)") from None
        except OverflowError:
            raise self.error(node, "number too large") from None
        except CONVERTED as e:
            if not is_argument_error(e):
                raise
            raise user_error(e, self.span(node)) from e

    def e_compare(self, node: ast.Compare) -> Any:
        left = self.eval(node.left)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node)
            try:
                r = compare(op, left, right)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
            if len(node.ops) == 1:
                return r
            if not self.truth(r, node):
                return False
            left = right
            result = r
        return result

    def e_attribute(self, node: ast.Attribute) -> Any:
        owner = self.eval(node.value)
        return self.attribute(owner, node.attr, node)

    def attribute(self, owner: Any, attr: str, node: ast.AST) -> Any:
        if isinstance(owner, Tensor):
            if attr in TENSOR_PROPERTIES:
                return TENSOR_PROPERTIES[attr](owner)
            if attr in TENSOR_METHODS:
                return BoundMethod(attr, TENSOR_METHODS[attr], owner)
            raise self.error(
                node,
                f"'Tensor' object has no attribute '{attr}'",
                found=f"`.{attr}`",
                expected="a tensor method or property (see `gradcli ops`)",
                hint=suggest(attr, list(TENSOR_METHODS) + list(TENSOR_PROPERTIES), meaning=True),
            )
        if isinstance(owner, Namespace):
            if attr in owner.members:
                return owner.members[attr]
            raise self.error(
                node,
                f"`{owner.name}.{attr}` is not supported by gradcli",
                found=f"`{owner.name}.{attr}`",
                expected="a supported operation (see `gradcli ops`)",
                hint=suggest(attr, owner.members, meaning=True),
            )
        if isinstance(owner, F.MaxMin) and attr in ("values", "indices"):
            return owner.values if attr == "values" else owner.indices
        if isinstance(owner, FunctionClass) and attr == "apply":
            return Builtin(f"{owner.name}.apply", lambda *a: self.apply_function(owner, a, node))
        if isinstance(owner, Ctx):
            if attr == "saved_tensors" or attr == "saved_variables":
                return owner.saved_tensors
            if attr == "needs_input_grad":
                return owner.needs_input_grad
            if attr in ("save_for_backward", "mark_non_differentiable", "set_materialize_grads"):
                return Builtin(attr, getattr(owner, attr))
            if attr in owner.attrs:
                return owner.attrs[attr]
            raise self.error(
                node,
                f"ctx has no attribute `{attr}`",
                hint="set it in forward first (ctx.name = value)",
            )
        if isinstance(owner, GradFn) and attr == "name":
            return BoundMethod("name", lambda g: g.name, owner)
        if isinstance(owner, DType) and attr == "is_floating_point":
            return owner.np.kind == "f"
        # Objects of the PyTorch surface list what a program may reach: a module answers for
        # its own attributes (parameters, submodules, methods), a Generator names its methods.
        if hasattr(type(owner), "program_attribute") and not attr.startswith("_"):
            try:
                return owner.program_attribute(attr)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
        allowed = getattr(type(owner), "PROGRAM_ATTRIBUTES", None)
        if allowed is not None and attr in allowed and not attr.startswith("_"):
            value = getattr(owner, attr)
            if callable(value):
                return Builtin(f"{typename(owner)}.{attr}", value)
            return value
        raise self.error(
            node, f"'{typename(owner)}' object has no attribute '{attr}'", found=f"`.{attr}`"
        )

    def e_subscript(self, node: ast.Subscript) -> Any:
        owner = self.eval(node.value)
        key = self.eval(node.slice)
        if isinstance(owner, Tensor):
            try:
                return I.getitem(owner, key)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
            except CONVERTED as e:
                if not is_argument_error(e):
                    raise
                raise user_error(e, self.span(node), "invalid index") from e
        if isinstance(owner, (list, tuple, str, range)):
            if isinstance(key, Tensor) and key.data.size == 1 and key.dtype.kind in "iu":
                key = int(key.item())
            if isinstance(key, bool) or not isinstance(key, (int, slice)):
                raise self.error(
                    node,
                    f"{typename(owner)} indices must be integers or slices, not {typename(key)}",
                )
            try:
                return owner[key]
            except IndexError:
                raise self.error(
                    node,
                    f"{typename(owner)} index out of range",
                    hint=f"it has {len(owner)} items",
                ) from None
        if isinstance(owner, dict):  # what gradcli hands out: param_groups[0], state_dict()
            try:
                return owner[key]
            except KeyError:
                raise self.error(
                    node, f"KeyError: {short(repr(key))}", hint=f"the keys are {list(owner)}"
                ) from None
            except TypeError:
                raise self.error(node, f"unhashable type: '{typename(key)}'") from None
        if hasattr(type(owner), "program_getitem"):  # nn.Sequential, ModuleList, ModuleDict
            try:
                return owner.program_getitem(key)
            except GradcliError as e:
                raise e.with_span(self.span(node)) from None
        raise self.error(node, f"'{typename(owner)}' object is not subscriptable")

    def e_call(self, node: ast.Call) -> Any:
        callee = self.eval(node.func)
        args = [self.eval(a) for a in node.args]
        kwargs: dict[str, Any] = {}
        for k in node.keywords:
            if k.arg is None:
                raise self.error(
                    k, "`**` unpacking is not supported", hint="pass keyword arguments one by one"
                )
            kwargs[k.arg] = self.eval(k.value)
        try:
            return self.call(callee, args, kwargs, node)
        except GradcliError as e:
            raise e.with_span(self.span(node)) from None

    def call(self, callee: Any, args: list, kwargs: dict, node: ast.AST) -> Any:
        if isinstance(callee, BoundMethod):
            return checked_call(
                callee.fn, [callee.obj, *args], kwargs, callee.name, node, self, bound=True
            )
        if isinstance(callee, Builtin):
            return checked_call(callee.fn, args, kwargs, callee.name, node, self)
        if isinstance(callee, UserFunction):
            return self.call_user(callee, args, kwargs, node)
        if isinstance(callee, surface_nn.Module):
            return checked_call(callee.__call__, args, kwargs, callee.name, node, self)
        if isinstance(callee, FunctionClass):
            raise self.error(
                node,
                f"call {callee.name}.apply(...), not {callee.name}(...)",
                hint="custom autograd Functions are used through .apply",
            )
        if callable(callee) and not isinstance(callee, (type, Namespace)):
            return checked_call(callee, args, kwargs, call_name(node, callee), node, self)
        raise self.error(node, f"'{typename(callee)}' object is not callable")

    def do_print(
        self, *args: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: bool = False
    ) -> None:
        if file is not None:
            raise GradcliError(
                "print(file=...) is not supported: a gradcli program prints "
                "only to standard output",
                hint="drop the file= argument",
            )
        for what, v in (("sep", sep), ("end", end)):
            if v is not None and not isinstance(v, str):
                raise GradcliError(f"{what} must be None or a string, not {typename(v)}")
        for a in args:
            check_structure(a, "print()", tensor_cost=100)
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        text = sep.join(format_value(a) for a in args) + end
        self.output_bytes += len(text)
        limits.OUTPUT_BYTES.check(
            self.output_bytes, "the output the program prints, in characters,"
        )
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate ("\ud800") cannot be written out
            text = text.encode("utf-8", "backslashreplace").decode("utf-8")
        self.output.append(text)
        if self.echo is not None:
            self.echo(text)

    # -- warnings --
    MAX_WARNINGS = 5

    def warn(self, message: str, node: ast.AST | None = None) -> None:
        """A warning for the user (the CLI writes them to stderr after the run)."""
        if len(self.warnings) < self.MAX_WARNINGS:
            span = None if node is None else self.span(node)
            where = f"{span.where()}: " if span is not None else ""
            self.warnings.append(f"{where}warning: {message}")
        else:
            self.more_warnings += 1

    def kernel_warning(self, message: str, hint: str | None) -> None:
        """A warning PyTorch gives (from below the language), at the statement running."""
        self.warn(message + (f"\n  hint: {hint}" if hint else ""), self.current_stmt)

    def check_finite(self, label: str, t: Tensor, node: ast.AST | None) -> None:
        """Warn (once per label) when a tensor holds NaN or infinity. They are results, as
        PyTorch computes them (log(0) = -inf, 0/0 = nan, exp(1000) = inf), not errors."""
        if t.dtype.kind != "f" or label in self.warned:
            return
        data = t.data
        if math.isfinite(data.item()) if data.size == 1 else np.isfinite(data).all():
            return
        self.warned.add(label)
        nan = int(np.isnan(data).sum())
        inf = int(np.isinf(data).sum())
        parts = ([f"{nan} nan"] if nan else []) + ([f"{inf} inf"] if inf else [])
        self.warn(
            f"{label} has non-finite values ({', '.join(parts)} of {data.size}): log, sqrt "
            "or division at 0, or an overflow? (PyTorch computes the same)",
            node,
        )

    def check_grads(self) -> None:
        for name, t in self.tensors.items():
            if isinstance(t.grad, Tensor):
                self.check_finite(f"`{name}.grad`", t.grad, None)
        if self.more_warnings:
            self.warnings.append(f"warning: {self.more_warnings} more warning(s) like these")
            self.more_warnings = 0

    # -- user functions --
    def call_user(self, f: UserFunction, args: list, kwargs: dict, node: ast.AST) -> Any:
        backward_fn = self.globals.get(f"{f.name}_backward")
        if (
            isinstance(backward_fn, UserFunction)
            and f.closure is None
            and not f.name.endswith("_backward")
        ):
            return self.custom_gradient(f, backward_fn, args, kwargs, node)
        return self.invoke(f, args, kwargs, node)

    def invoke(
        self, f: UserFunction, args: list, kwargs: dict, node: ast.AST, prefix: tuple = ()
    ) -> Any:
        params = [p.arg for p in f.node.args.args]
        args = list(prefix) + list(args)
        if len(args) > len(params):
            raise self.error(
                node,
                f"{f.name}() takes {len(params)} positional arguments but {len(args)} were given",
            )
        local: dict[str, Any] = dict(zip(params, args))
        for k, v in kwargs.items():
            if k not in params:
                raise self.error(
                    node,
                    f"{f.name}() got an unexpected keyword argument '{k}'",
                    hint=suggest(k, params),
                )
            if k in local:
                raise self.error(node, f"{f.name}() got multiple values for argument '{k}'")
            local[k] = v
        for p in params:
            if p not in local:
                if p in f.defaults:
                    local[p] = f.defaults[p]
                else:
                    raise self.error(node, f"{f.name}() missing required argument: '{p}'")
        self.call_depth += 1
        if self.call_depth > limits.CALL_DEPTH.value:
            self.call_depth = 0
            limits.CALL_DEPTH.check(limits.CALL_DEPTH.value + 1, "the depth of function calls")
        saved_closure = getattr(self, "_closure", None)
        self._closure = f.closure
        self.scopes.append(local)
        try:
            self.exec_block(f.node.body)
        except Return as r:
            return r.value
        except (Break, Continue):
            raise self.error(node, "`break`/`continue` outside a loop") from None
        finally:
            self.scopes.pop()
            self._closure = saved_closure
            self.call_depth = max(0, self.call_depth - 1)
        return None

    def custom_gradient(
        self, f: UserFunction, fb: UserFunction, args: list, kwargs: dict, node: ast.AST
    ) -> Any:
        """`f` with a companion `f_backward(inputs..., grad)`: f's VJP is the user's."""
        if self.see_through(f.name):
            return self.invoke(f, args, kwargs, node)
        inputs = [a for a in args if isinstance(a, Tensor)]

        def forward() -> Any:
            return self.invoke(f, args, kwargs, node)

        def vjp(g: Tensor) -> Any:
            return self.invoke(fb, list(args) + [g], {}, node)

        from ..ops.custom import custom_apply

        return custom_apply(f.name, inputs, forward, vjp)

    def apply_function(self, cls: FunctionClass, args: tuple, node: ast.AST) -> Any:
        ctx = Ctx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        if self.see_through(cls.name):
            return self.invoke(cls.forward, list(args), {}, node, prefix=(ctx,))
        tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs = [args[i] for i in tensor_pos]

        def forward() -> Any:
            return self.invoke(cls.forward, list(args), {}, node, prefix=(ctx,))

        def vjp(*gs: Tensor) -> Any:
            grads = self.invoke(cls.backward, list(gs), {}, node, prefix=(ctx,))
            grads = grads if isinstance(grads, tuple) else (grads,)
            if len(grads) != len(args):
                raise self.error(
                    node,
                    f"function {cls.name}Backward returned an incorrect "
                    f"number of gradients (expected {len(args)}, got "
                    f"{len(grads)})",
                )
            return tuple(grads[i] for i in tensor_pos)

        from ..ops.custom import custom_apply

        return custom_apply(
            cls.name,
            inputs,
            forward,
            vjp,
            label=f"{cls.name}Backward",
            non_differentiable=lambda: ctx.non_differentiable,
            materialize=lambda: ctx.materialize_grads,
        )


def _load(target: ast.AST) -> ast.AST:
    """The same expression as an assignment target, for reading (`x += 1`)."""
    if isinstance(target, ast.Name):
        return ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target)
    if isinstance(target, ast.Attribute):
        return ast.copy_location(
            ast.Attribute(value=target.value, attr=target.attr, ctx=ast.Load()), target
        )
    if isinstance(target, ast.Subscript):
        return ast.copy_location(
            ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load()), target
        )
    return target
