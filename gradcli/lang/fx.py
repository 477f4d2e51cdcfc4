"""`torch.fx`: symbolic tracing into a graph, the graph and its nodes as PyTorch 2.13 prints
them, and the GraphModule that runs it.

`torch.fx.symbolic_trace(m)` runs the module's (or function's) Python code once with a
`Proxy` for each input. Each operation a proxy reaches records a node instead of computing:
Python's operators (`operator.add`, `operator.getitem`, `builtins.getattr` for a property such
as `x.shape`), a torch function (`call_function`, its target the function), a tensor method
(`call_method`, its target the method's name), a call of one of torch.nn's own modules
(`call_module`, its target the submodule's dotted path; nn.Sequential is traced through, as
PyTorch's tracer does), a parameter read from a module (`get_attr`). A program's own modules
are traced through (their forward runs with the proxies). What the code decides from a proxy's
value (`if x.sum() > 0:`, `for row in x`, `len(x)`) is PyTorch's TraceError / RuntimeError.

The graph's text, its generated code (`gm.code`, with PyTorch's naming of nodes and the
`x = None` frees after a value's last use) and the module's text are PyTorch's. Calling the
GraphModule runs the graph's nodes with gradcli's own operations (gradients flow as in any
call); editing the graph (a node's target or args, `inserting_after` + `call_function`,
`replace_all_uses_with`, `erase_node`, `lint`, `recompile`) changes what it runs.

Every node counts under the `graph_nodes` limit; a proxy never reaches a Python object: it
is a value of this module's, read through the tables below."""

from __future__ import annotations

import ast
import builtins as _py_builtins
import keyword
import re
from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor
from ..surface import nn as surface_nn
from . import values as V
from .values import BoundMethod, Builtin

# -- names (PyTorch's `_Namespace`) ----------------------------------------------------------

_ILLEGAL = set(keyword.kwlist) | set(dir(_py_builtins))
_ILLEGAL |= {"inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree"}
_NAME = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_BAD_CHARS = re.compile("[^0-9a-zA-Z_]+")
_SNAKE = re.compile(r"(?<=[a-z])([A-Z])")

# What made nodes this run (all graphs): the `graph_nodes` limit counts them.
_MADE = [0]


class _Names:
    def __init__(self) -> None:
        self.used: set[str] = set()
        self.count: dict[str, int] = {}

    def create(self, candidate: str) -> str:
        match = _NAME.match(candidate)
        if match is None:
            candidate = _BAD_CHARS.sub("_", candidate) or "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _NAME.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self.used:
            n = self.count.get(base, 0)
            if candidate in _ILLEGAL:
                n += 1
                candidate = f"{base}_{n}"
        else:
            n = int(num)
        while candidate in self.used:
            n += 1
            candidate = f"{base}_{n}"
        self.used.add(candidate)
        self.count[base] = n
        return candidate


# -- the operator and builtin targets ---------------------------------------------------------

_BINOPS = {
    ast.Add: "add",
    ast.Sub: "sub",
    ast.Mult: "mul",
    ast.Div: "truediv",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.MatMult: "matmul",
    ast.BitAnd: "and_",
    ast.BitOr: "or_",
    ast.BitXor: "xor",
    ast.LShift: "lshift",
    ast.RShift: "rshift",
}
_UNARY = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}
_COMPARE = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.Gt: "gt", ast.LtE: "le", ast.GtE: "ge"}
_MAGIC = {
    "add": "{} + {}",
    "sub": "{} - {}",
    "mul": "{} * {}",
    "floordiv": "{} // {}",
    "truediv": "{} / {}",
    "mod": "{} % {}",
    "pow": "{} ** {}",
    "lshift": "{} << {}",
    "rshift": "{} >> {}",
    "and_": "{} & {}",
    "or_": "{} | {}",
    "xor": "{} ^ {}",
    "getitem": "{}[{}]",
    "matmul": "{} @ {}",
    "eq": "{} == {}",
    "ne": "{} != {}",
    "lt": "{} < {}",
    "gt": "{} > {}",
    "le": "{} <= {}",
    "ge": "{} >= {}",
    "pos": "+{}",
    "neg": "-{}",
    "invert": "~{}",
}


class FxOperator:
    """`operator.add`, `operator.getitem`, `builtins.getattr` as a node's target: Python's
    operation, run by gradcli's interpreter."""

    __slots__ = ("name", "module", "op")

    def __init__(self, name: str, module: str, op: Any) -> None:
        self.name, self.module, self.op = name, module, op

    def __repr__(self) -> str:
        return f"<built-in function {self.name}>"

    def program_typename(self) -> str:
        return "builtin_function_or_method"

    def program_name(self) -> str:
        return self.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        arity = 1 if isinstance(self.op, (ast.unaryop, ast.UnaryOp)) else 2
        if kwargs or len(args) != arity:
            raise GradcliError(
                f"{self.name} expected {arity} argument{'s' if arity > 1 else ''}, got "
                f"{len(args) + len(kwargs)}"
            ).mirror("TypeError")
        return self.run(V.CURRENT[-1], args, {})

    def qualified(self) -> str:
        """Its name in the generated code (a global fx makes of `_operator.abs`)."""
        return self.name if self.module == "builtins" else f"_operator_{self.name}"

    def shown(self) -> str:
        return f"{self.module}.{self.name}"

    def run(self, rt: Any, args: tuple, kwargs: dict) -> Any:
        from . import operators as O

        op = self.op
        if self.name == "abs":
            v = args[0]
            return (
                rt.call(rt.attribute(v, "abs"), [], {}, None) if isinstance(v, Tensor) else abs(v)
            )
        if self.name == "getitem":
            return rt.getitem(args[0], args[1])
        if self.name == "getattr":
            return rt.attribute(args[0], args[1])
        if isinstance(op, ast.operator):
            return O.binop(op, args[0], args[1])
        if isinstance(op, ast.unaryop):
            return O.unary(op, args[0])
        return O.compare(op, args[0], args[1])


_OPERATORS: dict[str, FxOperator] = {}


def _operator(name: str, op: Any, module: str = "operator") -> FxOperator:
    found = _OPERATORS.get(name)
    if found is None:
        found = _OPERATORS[name] = FxOperator(name, module, op)
    return found


GETITEM = _operator("getitem", ast.Subscript())
GETATTR = _operator("getattr", ast.Attribute(), "builtins")
ABS = _operator("abs", ast.UnaryOp())


def operator_members() -> dict[str, Any]:
    """Python's `operator` module: its functions of the operators (what fx graphs name)."""
    table = {**_BINOPS, **_UNARY, **_COMPARE}
    found: dict[str, Any] = {name: _operator(name, kind()) for kind, name in table.items()}
    found["getitem"] = GETITEM
    found["abs"] = ABS
    return found


# -- nodes and graphs ---------------------------------------------------------------------


class FxNode:
    """`torch.fx.Node`: its op, name, target, args and kwargs, and its users."""

    def __init__(self, graph: FxGraph, name: str, op: str, target: Any, args: tuple, kwargs: dict):
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.qualname: tuple[Any, str] | None = None  # (the target it names, its name)
        self.users: dict[FxNode, None] = {}
        self.meta: dict = {}
        self.erased = False
        self._args: tuple = ()
        self._kwargs: dict = {}
        self._set(args, kwargs)

    def _inputs(self) -> list[FxNode]:
        found: dict[FxNode, None] = {}
        _walk(self._args, found)
        _walk(self._kwargs, found)
        return list(found)

    def _set(self, args: tuple, kwargs: dict) -> None:
        for n in self._inputs():
            n.users.pop(self, None)
        self._args, self._kwargs = tuple(args), dict(kwargs)
        for n in self._inputs():
            n.users[self] = None

    def __repr__(self) -> str:
        return self.name

    def program_str(self) -> str:
        return self.name

    def program_typename(self) -> str:
        return "Node"

    def target_text(self) -> str:
        """The target as the graph's text shows it (`operator.add`, `torch.relu`, `linear`)."""
        t = self.target
        if isinstance(t, str):
            return t
        if isinstance(t, FxOperator):
            return t.shown()
        return self.qualified()

    def qualified(self) -> str:
        t = self.target
        if isinstance(t, FxOperator):
            return t.qualified()
        if self.qualname is not None and self.qualname[0] is t:
            return self.qualname[1]
        name = _qualified_of(t)
        self.qualname = (t, name)
        return name

    def format_node(self) -> str | None:
        users = f"[num_users={len(self.users)}]"
        if self.op == "placeholder":
            default = f"(default={_plain(self._args[0])})" if self._args else ""
            return f"%{self.name} : {users} = placeholder[target={self.target}]{default}"
        if self.op == "get_attr":
            return f"%{self.name} : {users} = get_attr[target={self.target}]"
        if self.op == "output":
            return f"return {_code_repr(self._args[0])}"
        return (
            f"%{self.name} : {users} = {self.op}[target={self.target_text()}]("
            f"args = {_format_arg(self._args)}, kwargs = {_format_arg(self._kwargs)})"
        )

    def replace_all_uses_with(self, other: Any, delete_user_cb: Any = None) -> list:
        if not isinstance(other, FxNode):
            raise NotSupported(
                "replace_all_uses_with of a value that is not a Node is not supported",
                hint="pass a node of the same graph",
            )
        users = list(self.users)
        for user in users:
            user._set(_replace(user._args, self, other), _replace(user._kwargs, self, other))
        return users

    def replace_input_with(self, old: Any, new: Any) -> None:
        self._set(_replace(self._args, old, new), _replace(self._kwargs, old, new))

    @property
    def all_input_nodes(self) -> list:
        return self._inputs()

    @property
    def next(self) -> Any:
        nodes = self.graph.nodes
        i = nodes.index(self)
        return nodes[i + 1] if i + 1 < len(nodes) else self.graph.root_node

    @property
    def prev(self) -> Any:
        nodes = self.graph.nodes
        i = nodes.index(self)
        return nodes[i - 1] if i > 0 else self.graph.root_node

    def program_attribute(self, attr: str) -> Any:
        if attr in ("op", "name", "target", "meta", "graph"):
            return getattr(self, attr)
        if attr == "args":
            return self._args
        if attr == "kwargs":
            return dict(self._kwargs)
        if attr == "users":
            return dict(self.users)
        if attr in ("all_input_nodes", "next", "prev"):
            return getattr(self, attr)
        if attr == "type":
            return None
        if attr in ("replace_all_uses_with", "replace_input_with", "format_node"):
            return Builtin(f"Node.{attr}", getattr(self, attr))
        if attr == "stack_trace":
            return None
        raise GradcliError(f"'Node' object has no attribute '{attr}'").mirror("AttributeError")

    def program_set(self, attr: str, value: Any) -> None:
        if attr == "target":
            self.target = value
        elif attr == "args":
            self._set(tuple(_check_arg(value)), self._kwargs)
        elif attr == "kwargs":
            self._set(self._args, dict(_check_arg(value)))
        elif attr == "name":
            self.name = value
        elif attr == "meta":
            self.meta = value
        else:
            raise NotSupported(
                f"setting `node.{attr}` is not supported",
                hint="set a node's target, args or kwargs",
            )


class _RootNode:
    """The graph's sentinel (`graph.nodes` is a ring through it)."""

    op = "root"
    name = ""

    def __repr__(self) -> str:
        return ""


def _walk(v: Any, found: dict) -> None:
    if isinstance(v, FxNode):
        found[v] = None
    elif isinstance(v, (tuple, list)):
        for x in v:
            _walk(x, found)
    elif isinstance(v, dict):
        for x in v.values():
            _walk(x, found)
    elif isinstance(v, slice):
        for x in (v.start, v.stop, v.step):
            _walk(x, found)


def _replace(v: Any, old: Any, new: Any) -> Any:
    if v is old:
        return new
    if isinstance(v, tuple):
        return tuple(_replace(x, old, new) for x in v)
    if isinstance(v, list):
        return [_replace(x, old, new) for x in v]
    if isinstance(v, dict):
        return {k: _replace(x, old, new) for k, x in v.items()}
    if isinstance(v, slice):
        return slice(*(_replace(x, old, new) for x in (v.start, v.stop, v.step)))
    return v


def _check_arg(v: Any) -> Any:
    if isinstance(v, Proxy):
        return v.node
    if isinstance(v, (tuple, list)):
        V.check_structure(v, "a node's arguments")
        return type(v)(_check_arg(x) for x in v)
    if isinstance(v, dict):
        return {k: _check_arg(x) for k, x in v.items()}
    return v


def _plain(v: Any) -> str:
    from . import text

    return text.to_str(v)


def _format_arg(arg: Any) -> str:
    if isinstance(arg, list):
        return "[" + ", ".join(_format_arg(a) for a in arg) + "]"
    if isinstance(arg, tuple):
        return "(" + ", ".join(_format_arg(a) for a in arg) + ("," if len(arg) == 1 else "") + ")"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, FxNode):
        return "%" + arg.name
    if isinstance(arg, slice):
        return f"slice({_plain(arg.start)}, {_plain(arg.stop)}, {_plain(arg.step)})"
    return _plain(arg)


def _code_repr(arg: Any) -> str:
    from . import text

    if isinstance(arg, FxNode):
        return arg.name
    if isinstance(arg, tuple):
        if len(arg) == 1:
            return f"({_code_repr(arg[0])},)"
        return "(" + ", ".join(_code_repr(a) for a in arg) + ")"
    if isinstance(arg, list):
        return "[" + ", ".join(_code_repr(a) for a in arg) + "]"
    if isinstance(arg, slice):
        return f"slice({_code_repr(arg.start)}, {_code_repr(arg.stop)}, {_code_repr(arg.step)})"
    if isinstance(arg, Tensor):
        dtype = str(arg.dtype).rpartition(".")[2]
        return f"torch.Tensor(size={list(arg.shape)}, dtype={dtype})"
    return text.to_repr(arg)


def _format_target(base: str, target: str) -> str:
    r = base
    for e in target.split("."):
        r = f"{r}.{e}" if e.isidentifier() else f'getattr({r}, "{e}")'
    return r


class _InsertPoint:
    """`with graph.inserting_after(node):` / `inserting_before`: where new nodes go."""

    program_context = True
    as_value = None

    def __init__(self, graph: FxGraph, where: tuple) -> None:
        self.graph, self.where, self.old = graph, where, graph.insert_at

    def enter(self) -> None:
        self.graph.insert_at = self.where

    def exit(self) -> None:
        self.graph.insert_at = self.old


class FxGraph:
    """`torch.fx.Graph`: its nodes in order, their names unique."""

    def __init__(self) -> None:
        self.nodes: list[FxNode] = []
        self.names = _Names()
        self.insert_at: tuple | None = None  # ("after"|"before", node), None: at the end
        self.root_node = _RootNode()
        self.owner: GraphModule | None = None
        self.constants: dict[str, Tensor] = {}  # the tensors a trace made constants of

    def program_typename(self) -> str:
        return "Graph"

    def create_node(
        self, op: str, target: Any, args: tuple = (), kwargs: dict | None = None, name: Any = None
    ) -> FxNode:
        _MADE[0] += 1
        limits.GRAPH_NODES.check(_MADE[0], "the number of torch.fx nodes a run makes")
        limits.BUDGET.tick()
        if name is None:
            if isinstance(target, str):
                cand = target[2:-2] if target.startswith("__") and target.endswith("__") else target
            elif isinstance(target, FxOperator):
                cand = target.name
            else:
                cand = _qualified_of(target).rpartition(".")[2]
            cand = _SNAKE.sub(r"_\1", cand).lower()
        else:
            cand = str(name)
        node = FxNode(self, self.names.create(cand), op, target, args, kwargs or {})
        where = self.insert_at
        if where is None or where[1] is self.root_node:
            if where is not None and where[0] == "after":
                self.nodes.insert(0, node)
            else:
                self.nodes.append(node)
        else:
            i = self.nodes.index(where[1])
            if where[0] == "after":
                self.nodes.insert(i + 1, node)
                self.insert_at = ("after", node)
            else:
                self.nodes.insert(i, node)
        return node

    # -- the program's methods --
    def placeholder(self, name: Any, type_expr: Any = None, default_value: Any = None) -> FxNode:
        return self.create_node("placeholder", str(name), (), {})

    def call_function(self, the_function: Any, args: Any = None, kwargs: Any = None) -> FxNode:
        return self.create_node(
            "call_function", the_function, tuple(_check_arg(args or ())), _check_arg(kwargs or {})
        )

    def call_method(self, method_name: Any, args: Any = None, kwargs: Any = None) -> FxNode:
        return self.create_node(
            "call_method", str(method_name), tuple(_check_arg(args or ())), _check_arg(kwargs or {})
        )

    def call_module(self, module_name: Any, args: Any = None, kwargs: Any = None) -> FxNode:
        return self.create_node(
            "call_module", str(module_name), tuple(_check_arg(args or ())), _check_arg(kwargs or {})
        )

    def get_attr(self, qualified_name: Any) -> FxNode:
        return self.create_node("get_attr", str(qualified_name))

    def output(self, result: Any) -> FxNode:
        return self.create_node("output", "output", (_check_arg(result),), {})

    def node_copy(self, node: Any, arg_transform: Any = None) -> FxNode:
        """A copy of a node (of this graph or another) here, its inputs mapped by
        `arg_transform` (a program's function of a node), named as the node."""
        if not isinstance(node, FxNode):
            raise NotSupported("Graph.node_copy takes a torch.fx Node")
        rt = V.CURRENT[-1]

        def mapped(v: Any) -> Any:
            if isinstance(v, FxNode):
                if arg_transform is None:
                    return v
                out = rt.call(arg_transform, [v], {}, rt.current_stmt)
                return out.node if isinstance(out, Proxy) else out
            if isinstance(v, (tuple, list)):
                return type(v)(mapped(x) for x in v)
            if isinstance(v, dict):
                return {k: mapped(x) for k, x in v.items()}
            return v

        made = self.create_node(
            node.op, node.target, mapped(node._args), mapped(node._kwargs), name=node.name
        )
        made.qualname = node.qualname
        made.meta = dict(node.meta)
        return made

    def erase_node(self, node: Any) -> None:
        if not isinstance(node, FxNode) or node.graph is not self:
            raise GradcliError(f"Attempting to remove {node} from wrong graph!").mirror(
                "RuntimeError"
            )
        if node.users:
            users = "{" + ", ".join(f"{u.name}: None" for u in node.users) + "}"
            raise GradcliError(
                f"Tried to erase Node {node.name} but it still had {len(node.users)} users in "
                f"the graph: {users}!"
            ).mirror("RuntimeError")
        node._set((), {})
        self.nodes.remove(node)
        node.erased = True

    def inserting_after(self, n: Any = None) -> _InsertPoint:
        return _InsertPoint(self, ("after", n if n is not None else self.root_node))

    def inserting_before(self, n: Any = None) -> _InsertPoint:
        if n is None:
            return _InsertPoint(self, ("after", self.root_node))
        return _InsertPoint(self, ("before", n))

    def lint(self) -> None:
        seen: set = set()
        for node in self.nodes:
            for used in node._inputs():
                if used.graph is not self or used.erased:
                    raise GradcliError(
                        f"Argument '{used.name}' of Node '{node.name}' was used before it has "
                        "been defined!"
                    ).mirror("RuntimeError")
                if used not in seen:
                    raise GradcliError(
                        f"Argument '{used.name}' of Node '{node.name}' was used before it has "
                        "been defined! Please check that Nodes in the graph are topologically "
                        "ordered"
                    ).mirror("RuntimeError")
            seen.add(node)

    def eliminate_dead_code(self) -> bool:
        changed = False
        for node in reversed(list(self.nodes)):
            if node.op in ("placeholder", "output") or node.users:
                continue
            if node.op == "call_function" and _impure(node.qualified()):
                continue  # (PyTorch keeps what draws random numbers or changes its input)
            self.erase_node(node)
            changed = True
        return changed

    def print_tabular(self) -> None:
        rt = V.CURRENT[-1]
        rt.do_print(
            "`print_tabular` relies on the library `tabulate`, which could not be found on "
            "this machine. Run `pip install tabulate` to install the library."
        )
        raise GradcliError("No module named 'tabulate'").mirror("ModuleNotFoundError").pytorch()

    def __str__(self) -> str:
        # (PyTorch's header lists the placeholders it collects into an empty list, which its
        # test finds false: none are listed, each is shown as a node)
        s = "graph():"
        for n in self.nodes:
            s += "\n    " + n.format_node()
        return s

    def program_str(self) -> str:
        # (Graph.__str__: placeholders shown as nodes, with the parameters in the header)
        return self.__str__()

    def __repr__(self) -> str:
        return f"<torch.fx.graph.Graph object at {id(self):#x}>"

    def python_code(self, root_module: str = "self") -> str:
        return _python_code(self, root_module)

    def program_attribute(self, attr: str) -> Any:
        if attr == "nodes":
            return _NodeList(self)
        if attr == "owning_module":
            return self.owner
        methods = (
            "placeholder call_function call_method call_module get_attr output erase_node "
            "inserting_after inserting_before lint eliminate_dead_code print_tabular "
            "create_node node_copy"
        ).split()
        if attr in methods:
            return Builtin(f"Graph.{attr}", getattr(self, attr))
        raise NotSupported(
            f"`Graph.{attr}` is not supported by gradcli",
            hint="see the Graph's nodes (graph.nodes) and the edits gradcli has: "
            "inserting_after, call_function, erase_node, lint",
        )


def _impure(name: str) -> bool:
    last = name.rpartition(".")[2]
    return last.endswith("_") or any(w in last for w in ("rand", "dropout", "bernoulli", "normal"))


class _NodeList:
    """`graph.nodes`: iterated in order (a snapshot: editing while iterating is safe)."""

    def __init__(self, graph: FxGraph) -> None:
        self.graph = graph

    def program_iter(self) -> Any:
        return iter(list(self.graph.nodes))

    def program_len(self) -> int:
        return len(self.graph.nodes)

    def program_typename(self) -> str:
        return "_node_list"

    def __repr__(self) -> str:
        return f"<torch.fx.graph._node_list object at {id(self):#x}>"

    def program_attribute(self, attr: str) -> Any:
        raise GradcliError(f"'_node_list' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )


# -- the generated code ---------------------------------------------------------------------


def _python_code(graph: FxGraph, root: str, verbose: bool = False) -> str:
    nodes = graph.nodes
    last_use: dict[FxNode, FxNode] = {}
    to_free: dict[FxNode, list[FxNode]] = {}
    for node in reversed(nodes):
        for used in node._inputs():
            if used not in last_use:
                last_use[used] = node
                to_free.setdefault(node, []).append(used)
    free_vars: list[str] = []
    body: list[str] = []
    summary = False
    for node in nodes:
        args, kwargs = node._args, node._kwargs
        if verbose and not summary and node.op not in ("placeholder", "output"):
            body.append("\n# No stacktrace found for following nodes\n")
            summary = True

        def fmt(a: tuple, k: dict) -> str:
            parts = [_code_repr(x) for x in a]
            parts += [f"{key} = {_code_repr(v)}" for key, v in k.items()]
            return ", ".join(parts)

        op = node.op
        meta = node.meta.get("tensor_meta") if verbose else None
        note = f": {meta.annotation()}" if isinstance(meta, TensorMetadata) else ""
        if op == "placeholder":
            default = f" = {_code_repr(args[0])}" if args else ""
            free_vars.append(f"{node.target}{note}{default}")
            if node.target != node.name:
                body.append(f"{node.name} = {node.target}\n")
            continue
        target = f"{node.name}{note}"
        if op == "call_method":
            body.append(
                f"{target} = {_format_target(_code_repr(args[0]), node.target)}"
                f"({fmt(args[1:], kwargs)})"
            )
        elif op == "call_function":
            t = node.target
            if isinstance(t, FxOperator) and t.name in _MAGIC and t.module == "operator":
                body.append(f"{target} = " + _MAGIC[t.name].format(*map(_code_repr, args)))
            elif (
                t is GETATTR
                and len(args) == 2
                and isinstance(args[1], str)
                and args[1].isidentifier()
            ):
                body.append(f"{target} = {_format_target(_code_repr(args[0]), args[1])}")
            else:
                body.append(f"{target} = {node.qualified()}({fmt(args, kwargs)})")
        elif op == "call_module":
            body.append(f"{target} = {_format_target(root, node.target)}({fmt(args, kwargs)})")
        elif op == "get_attr":
            body.append(f"{target} = {_format_target(root, node.target)}")
        elif op == "output":
            body.append(f"return {_code_repr(args[0])}")
        # the frees after the last uses
        if op == "output":
            body.append("\n")
            continue
        dead = list(to_free.get(node, []))
        if not node.users:
            dead.append(node)
        if dead:
            body.append(";  " + " = ".join([n.name for n in dead] + ["None"]) + "\n")
        else:
            body.append("\n")
    if not body:
        body.append("pass\n")
    code = "".join(body).lstrip("\n")
    code = "\n".join("    " + line for line in code.split("\n"))
    return f"\n\n\ndef forward({', '.join(['self', *free_vars])}):\n{code}"


# -- the graph module --------------------------------------------------------------------


class GraphModule(surface_nn.Module):
    """`torch.fx.GraphModule`: the traced module's submodules and parameters the graph
    uses, named as the original's class, running the graph."""

    METHODS = (
        *surface_nn.Module.METHODS,
        "recompile",
        "print_readable",
        "delete_all_unused_submodules",
    )
    ATTRIBUTES = (*surface_nn.Module.ATTRIBUTES, "graph", "code")

    def __init__(self, root: Any, graph: FxGraph, class_name: str) -> None:
        super().__init__()
        self._fx_name = class_name
        self.graph = graph
        graph.owner = self
        for node in graph.nodes:
            if node.op == "get_attr" and node.target in graph.constants:
                self.register_buffer(node.target, graph.constants[node.target])
            elif root is not None and node.op in ("call_module", "get_attr"):
                _copy_attr(root, self, node.target)
        if root is not None:
            self.training = root.training if isinstance(root, surface_nn.Module) else True
        self.code = _python_code(graph, "self")

    @property
    def name(self) -> str:
        return self._fx_name

    def program_typename(self) -> str:
        return self._fx_name  # (PyTorch names the GraphModuleImpl class after the original)

    def recompile(self) -> Any:
        self.code = _python_code(self.graph, "self")
        return None

    def print_readable(self, print_output: Any = True, *args: Any, **kwargs: Any) -> Any:
        """PyTorch's readable module: the class line, the verbose code indented under it
        (blank lines left empty), printed and returned."""
        code = _python_code(self.graph, "self", verbose=True).lstrip("\n")
        lines = f"class {self._fx_name}(torch.nn.Module):\n{code}".split("\n")
        text = "\n".join([lines[0]] + [("    " + ln) if ln.strip() else "" for ln in lines[1:]])
        if print_output:
            V.CURRENT[-1].do_print(text)
        return text

    def delete_all_unused_submodules(self) -> None:
        used = {n.target for n in self.graph.nodes if n.op in ("call_module", "get_attr")}
        for key in list(self._modules):
            if not any(u == key or u.startswith(key + ".") for u in used):
                del self._modules[key]

    def program_str(self) -> str:
        return (
            repr(self)
            + "\n"
            + self.code
            + "\n# To see more debug info, please use `graph_module.print_readable()`"
        )

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return run_graph(self, self.graph, args, kwargs)


def _copy_attr(root: Any, to: Any, target: str) -> None:
    *prefix, field = target.split(".")
    src = root
    for item in prefix:
        f = _child(src, item)
        t = to._modules.get(item)
        if f is t:
            return
        if t is None:
            t = surface_nn.Module()
            to.add_module(item, t)
        src, to = f, t
    if field in src._modules:
        to.add_module(field, src._modules[field])
    elif field in src._parameters:
        to.register_parameter(field, src._parameters[field])
    elif field in src._buffers:
        to.register_buffer(field, src._buffers[field])


def _child(m: Any, name: str) -> Any:
    return m._modules[name]


def _resolve(gm: Any, target: str) -> Any:
    m = gm
    *prefix, field = target.split(".")
    for item in prefix:
        m = m._modules.get(item)
        if m is None:
            raise GradcliError(f"Node referenced nonexistent target {target}").mirror(
                "RuntimeError"
            )
    for table in (m._modules, m._parameters, m._buffers):
        if field in table:
            return table[field]
    raise GradcliError(f"Node referenced nonexistent target {target}").mirror("RuntimeError")


def run_graph(gm: Any, graph: FxGraph, args: tuple, kwargs: dict, seen: Any = None) -> Any:
    """Run the graph's nodes on these inputs with gradcli's operations (`seen(node, value)`
    told of each node's value: ShapeProp)."""
    rt = V.CURRENT[-1]
    env: dict[FxNode, Any] = {}
    inputs = list(args)
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    for i, n in enumerate(placeholders):
        if i < len(inputs):
            env[n] = inputs[i]
        elif n.target in kwargs:
            env[n] = kwargs[n.target]
        elif n._args:
            env[n] = n._args[0]
        else:
            raise GradcliError(
                f"forward() missing 1 required positional argument: '{n.target}'"
            ).mirror("TypeError")
    if len(inputs) > len(placeholders):
        raise GradcliError(
            f"forward() takes {len(placeholders) + 1} positional arguments but "
            f"{len(inputs) + 1} were given"
        ).mirror("TypeError")

    def load(v: Any) -> Any:
        if isinstance(v, FxNode):
            if v not in env:
                raise GradcliError(f"Node {v.name} was used before it has been defined").mirror(
                    "RuntimeError"
                )
            return env[v]
        if isinstance(v, tuple):
            return tuple(load(x) for x in v)
        if isinstance(v, list):
            return [load(x) for x in v]
        if isinstance(v, dict):
            return {k: load(x) for k, x in v.items()}
        if isinstance(v, slice):
            return slice(load(v.start), load(v.stop), load(v.step))
        return v

    for node in list(graph.nodes):
        limits.BUDGET.tick()
        op = node.op
        if op == "placeholder":
            if seen is not None:
                seen(node, env[node])
            continue
        a, k = load(node._args), load(node._kwargs)
        if op == "output":
            if seen is not None:
                seen(node, a[0])
            return a[0]
        if op == "get_attr":
            env[node] = _resolve(gm, node.target)
        elif op == "call_module":
            env[node] = rt.call(_resolve(gm, node.target), list(a), k, rt.current_stmt)
        elif op == "call_method":
            dunder = _DUNDER_OPERATORS.get(node.target)
            if dunder is not None and len(a) == 2 and not k:  # `c.__floordiv__(x)`
                env[node] = _operator(dunder[0], dunder[1]()).run(rt, a, k)
            else:
                method = rt.attribute(a[0], node.target)
                env[node] = rt.call(method, list(a[1:]), k, rt.current_stmt)
        elif op == "call_function":
            t = node.target
            if isinstance(t, FxOperator):
                env[node] = t.run(rt, a, k)
            else:
                env[node] = rt.call(t, list(a), k, rt.current_stmt)
        if seen is not None:
            seen(node, env[node])
    return None


# -- ShapeProp ------------------------------------------------------------------------------

_ABBREVIATED = {
    "float32": "f32",
    "float64": "f64",
    "float16": "f16",
    "bfloat16": "bf16",
    "int64": "i64",
    "int32": "i32",
    "int16": "i16",
    "int8": "i8",
    "uint8": "u8",
    "bool": "b8",
    "complex64": "c64",
    "complex128": "c128",
}


class TensorMetadata:
    """What ShapeProp keeps of a node's tensor (`node.meta['tensor_meta']`)."""

    FIELDS = ("shape", "dtype", "requires_grad", "stride", "memory_format", "is_quantized")

    def __init__(self, t: Tensor) -> None:
        rt = V.CURRENT[-1]
        self.shape = rt.attribute(t, "shape")
        self.dtype = rt.attribute(t, "dtype")
        self.requires_grad = bool(t.requires_grad)
        self.stride = rt.call(rt.attribute(t, "stride"), [], {}, None)
        self.is_quantized = False
        self.qparams: dict = {}

    def program_typename(self) -> str:
        return "TensorMetadata"

    def program_attribute(self, attr: str) -> Any:
        if attr == "memory_format":
            raise NotSupported(
                "`TensorMetadata.memory_format` is not supported by gradcli",
                hint="read its shape, dtype, requires_grad or stride",
            )
        if attr in self.FIELDS or attr == "qparams":
            return getattr(self, attr)
        raise GradcliError(f"'TensorMetadata' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def program_str(self) -> str:
        return (
            f"TensorMetadata(shape={_plain(self.shape)}, dtype={_plain(self.dtype)}, "
            f"requires_grad={self.requires_grad}, stride={_code_repr(self.stride)}, "
            "memory_format=torch.contiguous_format, is_quantized=False, qparams={})"
        )

    def __repr__(self) -> str:
        return self.program_str()

    def annotation(self) -> str:
        kind = _plain(self.dtype).rpartition(".")[2]
        dims = ", ".join(str(int(d)) for d in self.shape)
        return f'"{_ABBREVIATED.get(kind, kind)}[{dims}]"'


def _metadata(v: Any) -> Any:
    if isinstance(v, Tensor):
        return TensorMetadata(v)
    if isinstance(v, (tuple, list)) and any(isinstance(x, Tensor) for x in v):
        return type(v)(_metadata(x) for x in v)
    return None


class _ShapePropObject:
    """`ShapeProp(gm)`: `propagate(*inputs)` runs the graph, keeping each node's tensor's
    shape, dtype, requires_grad and stride in `node.meta['tensor_meta']`."""

    def __init__(self, module: Any) -> None:
        if not isinstance(module, GraphModule):
            raise NotSupported("ShapeProp takes a GraphModule")
        self.module = module

    def program_typename(self) -> str:
        return "ShapeProp"

    def propagate(self, *args: Any) -> Any:
        def seen(node: FxNode, value: Any) -> None:
            meta = _metadata(value)
            if meta is not None:
                node.meta["tensor_meta"] = meta

        m = self.module
        return run_graph(m, m.graph, args, {}, seen)

    def program_attribute(self, attr: str) -> Any:
        if attr in ("propagate", "run"):
            return Builtin(f"ShapeProp.{attr}", self.propagate)
        if attr == "module":
            return self.module
        raise NotSupported(
            f"`ShapeProp.{attr}` is not supported by gradcli",
            hint="call ShapeProp(gm).propagate(*inputs) and read node.meta['tensor_meta']",
        )


def passes_members() -> dict[str, Any]:
    from .values import Namespace

    return {
        "shape_prop": Namespace(
            "torch.fx.passes.shape_prop",
            {
                "ShapeProp": FxClass(
                    "torch.fx.passes.shape_prop.ShapeProp", _ShapePropObject, _ShapePropObject
                ),
                "TensorMetadata": FxClass(
                    "torch.fx.passes.shape_prop.TensorMetadata", TensorMetadata, _no_node
                ),
            },
        )
    }


# -- tracing ----------------------------------------------------------------------------


class Tracer:
    def __init__(self, root: Any, graph: FxGraph | None = None) -> None:
        self.root = root
        self.graph = graph if graph is not None else FxGraph()
        self.paths: dict[int, str] = {}
        self.params: dict[int, str] = {}
        self.param_proxies: dict[int, Proxy] = {}
        self.constant_names: dict[int, str] = {}
        if isinstance(root, surface_nn.Module):
            for name, m in root.named_modules():
                if name:
                    self.paths[id(m)] = name
            for name, p in root.named_parameters():
                self.params[id(p)] = name
            for name, b in root.named_buffers():
                self.params.setdefault(id(b), name)

    def proxy(
        self, op: str, target: Any, args: tuple, kwargs: dict, qual: str | None = None
    ) -> Proxy:
        node = self.graph.create_node(op, target, self.arg(args), self.arg(kwargs))
        if qual is not None:
            node.qualname = (target, qual)
        return Proxy(node, self)

    def arg(self, v: Any) -> Any:
        if isinstance(v, Proxy):
            return v.node
        if isinstance(v, tuple):
            return tuple(self.arg(x) for x in v)
        if isinstance(v, list):
            return [self.arg(x) for x in v]
        if isinstance(v, dict):
            return {k: self.arg(x) for k, x in v.items()}
        if isinstance(v, slice):
            return slice(self.arg(v.start), self.arg(v.stop), self.arg(v.step))
        if isinstance(v, Tensor):
            # a parameter or buffer of the root's, else a tensor made in the code: a constant
            # of the module (`_tensor_constant0`), one name a tensor; a node each use
            name = self.params.get(id(v))
            if name is None:
                constants = self.graph.constants
                name = self.constant_names.get(id(v))
                if name is None:
                    limits.LIST_ITEMS.check(len(constants) + 1, "the constants of a trace")
                    name = f"_tensor_constant{len(constants)}"
                    self.constant_names[id(v)] = name
                    constants[name] = v
            return self.graph.create_node("get_attr", name)
        if isinstance(v, surface_nn.Module):
            raise NotSupported(
                "passing a module as an argument while torch.fx traces is not supported",
                hint="call the module inside forward",
            )
        return v

    def param(self, p: Tensor, name: str) -> Proxy:
        found = self.param_proxies.get(id(p))
        if found is None:
            found = self.param_proxies[id(p)] = Proxy(
                self.graph.create_node("get_attr", name), self
            )
        return found


class Proxy:
    """`torch.fx.Proxy`: a traced value; what reaches it records a node. A property read
    (`x.T`, `x.shape`) is PyTorch's lazy Attribute: its `getattr` node is made when the value
    is first used."""

    __slots__ = ("_node", "tracer", "_lazy")

    def __init__(self, node: FxNode | None, tracer: Tracer, lazy: tuple | None = None) -> None:
        self._node, self.tracer, self._lazy = node, tracer, lazy

    @property
    def node(self) -> FxNode:
        if self._node is None:
            owner, attr = self._lazy
            self._node = self.tracer.graph.create_node(
                "call_function", GETATTR, (owner.node, attr), {}
            )
        return self._node

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def program_typename(self) -> str:
        return "Proxy"

    def __bool__(self) -> bool:
        raise _trace_error("symbolically traced variables cannot be used as inputs to control flow")

    def _ordered(self, other: Any) -> bool:  # (Python's own comparisons: `max(x, 1)`)
        raise _trace_error("symbolically traced variables cannot be used as inputs to control flow")

    __lt__ = __gt__ = __le__ = __ge__ = _ordered

    def program_iter(self) -> Any:
        raise _trace_error(
            "Proxy object cannot be iterated. This can be attempted when the Proxy is used in "
            "a loop or as a *args or **kwargs function argument. See the torch.fx docs on "
            "pytorch.org for a more detailed explanation of what types of control flow can be "
            "traced, and check out the Proxy docstring for help troubleshooting Proxy "
            "iteration errors"
        )

    def program_len(self) -> int:
        raise (
            GradcliError(
                "'len' is not supported in symbolic tracing by default. If you want this call to "
                "be recorded, please call torch.fx.wrap('len') at module scope"
            )
            .mirror("RuntimeError")
            .pytorch()
        )  # (PyTorch's words, catchable)

    def program_getitem(self, key: Any) -> Proxy:
        return self.tracer.proxy("call_function", GETITEM, (self, key), {})

    def runtime_attribute(rt: Any, owner: Proxy, attr: str) -> Any:  # noqa: N805
        if attr == "node":
            return owner.node
        if attr == "tracer":
            raise NotSupported("a Proxy's tracer is not supported by gradcli")
        from .namespaces import TENSOR_METHODS, TENSOR_PROPERTIES

        if attr in TENSOR_PROPERTIES or attr in ("T", "mT", "H", "data", "grad"):
            return Proxy(None, owner.tracer, (owner, attr))
        if attr.startswith("_"):
            raise GradcliError(f"'Proxy' object has no attribute '{attr}'").mirror("AttributeError")
        if not (dict.__contains__(TENSOR_METHODS, attr) or attr in TENSOR_METHODS):
            # (any other name, `x.max(dim=1).values`: PyTorch's Attribute, a getattr node)
            return Proxy(None, owner.tracer, (owner, attr))
        tracer = owner.tracer
        return Builtin(
            f"Proxy.{attr}",
            lambda *a, **k: tracer.proxy("call_method", attr, (owner, *a), k),
        )


def _trace_error(message: str) -> GradcliError:
    return GradcliError(
        message,
        hint="symbolic tracing records operations, not values: branch on shapes or arguments, "
        "or trace with concrete_args",
    ).mirror("TraceError")


def proxy_operator(op: Any, *operands: Any) -> Proxy:
    """`a + b`, `-a`, `a < b` with a proxy among the operands: an `operator` node."""
    kind = type(op)
    name = _BINOPS.get(kind) or _UNARY.get(kind) or _COMPARE.get(kind)
    proxy = next(x for x in operands if type(x) is Proxy)
    if name is None:
        raise _trace_error("symbolically traced variables cannot be used as inputs to control flow")
    if len(operands) == 2 and isinstance(operands[0], Tensor):
        # a tensor's own operator met the proxy: PyTorch records the tensor's method
        method = _TENSOR_OPERATOR_METHODS.get(name, f"__{name.rstrip('_')}__")
        return proxy.tracer.proxy("call_method", method, operands, {})
    return proxy.tracer.proxy("call_function", _operator(name, op), operands, {})


# A tensor operator's method as fx records it by its dunder (`__floordiv__`): the operator.
_DUNDER_OPERATORS = {
    f"__{name.rstrip('_')}__": (name, kind) for kind, name in {**_BINOPS, **_COMPARE}.items()
}

# The method a tensor's operator dispatches as, as fx records it (the others by their dunder).
_TENSOR_OPERATOR_METHODS = {
    "add": "add",
    "sub": "sub",
    "mul": "mul",
    "truediv": "div",
    "matmul": "matmul",
    "pow": "pow",
    "mod": "remainder",
    **{c: c for c in ("eq", "ne", "lt", "gt", "le", "ge")},
}


V.FX_PROXY[0] = Proxy

# The tracer while symbolic_trace runs (the interpreter's hooks look here).
TRACING: list[Tracer | None] = V.FX_TRACING


def has_proxy(v: Any, depth: int = 0) -> bool:
    if type(v) is Proxy:
        return True
    if depth < 3 and isinstance(v, (list, tuple)):
        return any(has_proxy(x, depth + 1) for x in v)
    if depth < 3 and isinstance(v, dict):
        return any(has_proxy(x, depth + 1) for x in v.values())
    return False


_PASS = object()


def intercept_call(rt: Any, callee: Any, args: list, kwargs: dict, node: Any) -> Any:
    """A call while tracing: a torch.nn module of the root's is a `call_module` node (a
    Sequential runs its children), a function with a proxy among its inputs a
    `call_function` node; anything else runs as it would (`_PASS`)."""
    tracer = TRACING[0]
    if isinstance(callee, surface_nn.Module) and not isinstance(callee, GraphModule):
        if type(callee).__name__ in ("ModuleInstance",):
            return _PASS
        path = tracer.paths.get(id(callee))
        if path is None:
            return _PASS
        if type(callee) is surface_nn.Sequential or type(callee).__name__ == "Sequential":
            out = args[0] if len(args) == 1 else tuple(args)
            for child in callee._modules.values():
                out = intercept_call(rt, child, [out], {}, node)
                if out is _PASS:
                    return _PASS
            return out
        return tracer.proxy("call_module", path, tuple(args), dict(kwargs))
    if not (has_proxy(args) or has_proxy(kwargs)):
        return _PASS
    if type(callee) is Builtin and callee.name == "abs" and len(args) == 1 and not kwargs:
        return tracer.proxy("call_function", ABS, (args[0],), {})  # (Proxy.__abs__)
    if isinstance(callee, BoundMethod):
        if isinstance(callee.obj, Tensor):
            return tracer.proxy("call_method", callee.name, (callee.obj, *args), dict(kwargs))
        return _PASS
    if type(callee).__name__ in ("UserFunction",):
        return _PASS
    qual = _qualified_from_call(rt, callee, node)
    if qual is None or not qual.startswith("torch."):
        return _PASS  # (Python's own functions: a proxy reaching them says what it cannot do)
    args, kwargs = _bound_like_pytorch(qual, callee, tuple(args), dict(kwargs))
    return tracer.proxy("call_function", callee, args, kwargs, qual)


def _qualified_of(target: Any) -> str:
    from .torch_reprs import _path

    path = _path(target)
    if path:
        return _python_qualified(path)
    name = getattr(target, "name", None)
    if isinstance(name, str):
        return name
    return getattr(target, "__name__", "unknown")


def _python_qualified(path: str) -> str:
    """The module and name PyTorch's function reached as `path` has (`torch.nn.functional.
    gelu` is `torch._C._nn.gelu`, `F.conv2d` is `torch.conv2d`), as fx names a target."""
    from .torch_reprs import _parsed

    e = _parsed().get(path)
    if e is None:
        return path
    return f"{e[1]}.{e[3]}"


def _qualified_from_call(rt: Any, callee: Any, node: Any) -> str | None:
    """`torch.relu` or `torch.nn.functional.relu`: the name the program called the function
    by (one gradcli function may stand for both)."""
    from .torch_reprs import _parsed, _path
    from .values import Namespace

    func = getattr(node, "func", None)
    chain: list[str] = []
    while isinstance(func, ast.Attribute):
        chain.insert(0, func.attr)
        func = func.value
    if isinstance(func, ast.Name) and chain:
        base = rt.globals.get(func.id)
        if isinstance(base, Namespace):
            full = ".".join([base.name, *chain])
            if full in _parsed():
                return _python_qualified(full)
    elif isinstance(func, ast.Name):  # `from torch.nn.functional import relu`
        pass
    path = _path(callee)
    return _python_qualified(path) if path else None


def _bound_like_pytorch(qual: str, callee: Any, args: tuple, kwargs: dict) -> tuple:
    """A torch.nn.functional function defined in Python hands PyTorch's tracer its input
    positionally and its other parameters by name, defaults filled in (`relu(x, inplace =
    False)`)."""
    if not qual.startswith("torch.nn.functional."):
        return args, kwargs
    from ..surface.torch_signatures import SIGNATURES

    sig = SIGNATURES.get("F." + qual.rpartition(".")[2], "")
    if not sig.startswith("py ") or "*" in sig:
        return args, kwargs
    params = sig[sig.index("(") + 1 : sig.rindex(")")].split(", ")
    defaults = _defaults(callee)
    names = [p.rstrip("=") for p in params]
    if len(args) > len(names):
        return args, kwargs
    bound = dict(zip(names, args))
    bound.update(kwargs)
    pos, kw = [], {}
    for p, n in zip(params, names):
        if not p.endswith("="):
            if n not in bound:
                return args, kwargs
            pos.append(bound[n])
        elif n in bound:
            kw[n] = bound[n]
        elif n in defaults:
            kw[n] = defaults[n]
        else:
            return args, kwargs
    return tuple(pos), kw


def _defaults(callee: Any) -> dict:
    import inspect

    fn = getattr(callee, "fn", callee)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return {}
    return {
        k: p.default for k, p in sig.parameters.items() if p.default is not inspect.Parameter.empty
    }


def symbolic_trace(root: Any, concrete_args: Any = None) -> GraphModule:
    """`torch.fx.symbolic_trace(module_or_function)`."""
    graph, class_name = _trace(root, concrete_args)
    return GraphModule(root if isinstance(root, surface_nn.Module) else None, graph, class_name)


def _trace(root: Any, concrete_args: Any = None) -> tuple:
    """The graph of `root`'s code run on proxies, and the name of its class."""
    from .values import UserFunction

    rt = V.CURRENT[-1]
    if concrete_args is not None:
        raise NotSupported(
            "torch.fx.symbolic_trace with concrete_args is not supported by gradcli",
            hint="trace without concrete_args",
        )
    if TRACING[0] is not None:
        raise NotSupported("symbolic_trace inside a symbolic trace is not supported")
    defaults: tuple = ()
    if isinstance(root, surface_nn.Module):
        fwd = rt.attribute(root, "forward")
        user = getattr(fwd, "user", None) if isinstance(fwd, BoundMethod) else None
        code = getattr(user, "code", None) or getattr(fwd, "code", None)
        if code is None:
            if not isinstance(root, surface_nn.Sequential):
                raise NotSupported(
                    f"torch.fx.symbolic_trace of torch.nn's own {root.name} is not supported by "
                    "gradcli (PyTorch traces the Python code of its forward)",
                    hint="trace a module of your own whose forward calls it (it is then one "
                    "call_module node), or an nn.Sequential of modules",
                )
            names = ["input"]
        else:
            names = list(code.positional)
            if names and names[0] == "self":
                names = names[1:]
            defaults = tuple(getattr(user, "defaults", None) or ())
        class_name = root.name
    elif isinstance(root, UserFunction):
        fwd = root
        names = list(root.code.positional)
        defaults = tuple(root.defaults or ())
        class_name = root.code.name
    else:
        raise NotSupported(
            "torch.fx.symbolic_trace of this value is not supported by gradcli",
            hint="trace an nn.Module or a function defined in the program",
        )
    tracer = Tracer(root)
    first_default = len(names) - len(defaults)
    proxies = [
        tracer.proxy(
            "placeholder", n, (defaults[i - first_default],) if i >= first_default else (), {}
        )
        for i, n in enumerate(names)
    ]
    TRACING[0] = tracer
    try:
        if isinstance(root, surface_nn.Module) and code is None:  # an nn.Sequential
            out = proxies[0]
            for child in root._modules.values():
                out = intercept_call(rt, child, [out], {}, None)
                if out is _PASS:
                    raise NotSupported("tracing this nn.Sequential is not supported by gradcli")
        else:
            out = rt.call(fwd, list(proxies), {}, rt.current_stmt)
    finally:
        TRACING[0] = None
    tracer.graph.create_node("output", "output", (tracer.arg(out),), {})
    return tracer.graph, class_name


def module_attribute(owner: Any, value: Any) -> Any:
    """A parameter a module's code reads while tracing: a `get_attr` node (as PyTorch's)."""
    tracer = TRACING[0]
    if isinstance(value, surface_nn.Parameter):
        name = tracer.params.get(id(value))
        if name is not None:
            return tracer.param(value, name)
    return value


class FxClass:
    """A class of torch.fx as a program holds it: called, it makes one; `isinstance` knows
    its objects; it prints as PyTorch's class."""

    def __init__(self, shown: str, kind: type, make: Any) -> None:
        self.shown, self.kind, self.make = shown, kind, make

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.make(*args, **kwargs)

    def program_instance(self, v: Any) -> bool:
        return isinstance(v, self.kind)

    def program_name(self) -> str:
        return self.shown.rpartition(".")[2]

    def program_typename(self) -> str:
        return "type"

    def __repr__(self) -> str:
        return f"<class '{self.shown}'>"


def _no_node(*a: Any, **k: Any) -> Any:
    raise NotSupported(
        "making a torch.fx.Node by hand is not supported by gradcli",
        hint="add nodes with graph.call_function(...) / graph.placeholder(...)",
    )


def members() -> dict[str, Any]:
    from .values import Namespace

    return {
        "symbolic_trace": Builtin("torch.fx.symbolic_trace", symbolic_trace),
        "GraphModule": FxClass("torch.fx.graph_module.GraphModule", GraphModule, _graph_module),
        "Graph": FxClass("torch.fx.graph.Graph", FxGraph, FxGraph),
        "Node": FxClass("torch.fx.node.Node", FxNode, _no_node),
        "Proxy": FxClass("torch.fx.proxy.Proxy", Proxy, _make_proxy),
        "Tracer": FxClass("torch.fx._symbolic_trace.Tracer", _TracerObject, _no_tracer),
        "Interpreter": FxClass(
            "torch.fx.interpreter.Interpreter", _InterpreterObject, _InterpreterObject
        ),
        "wrap": Builtin("torch.fx.wrap", _no_wrap),
        "proxy": Namespace(
            "torch.fx.proxy",
            {
                "TraceError": _trace_error_class(),
                "Proxy": FxClass("torch.fx.proxy.Proxy", Proxy, _make_proxy),
                "GraphAppendingTracer": FxClass(
                    "torch.fx.proxy.GraphAppendingTracer", Tracer, _appending
                ),
            },
        ),
        "passes": Namespace("torch.fx.passes", load=passes_members),
        "experimental": Namespace(
            "torch.fx.experimental",
            {
                "proxy_tensor": Namespace(
                    "torch.fx.experimental.proxy_tensor",
                    {"make_fx": Builtin("make_fx", _no_make_fx)},
                )
            },
        ),
    }


def _trace_error_class() -> Any:
    from .exceptions import CLASSES

    return CLASSES["TraceError"]


def _graph_module(root: Any, graph: Any, class_name: Any = "GraphModule") -> GraphModule:
    if not isinstance(graph, FxGraph):
        raise NotSupported("torch.fx.GraphModule takes a torch.fx.Graph")
    if not isinstance(root, surface_nn.Module):
        raise NotSupported(
            "torch.fx.GraphModule of a dict of modules is not supported by gradcli",
            hint="pass the module the graph's targets come from",
        )
    return GraphModule(root, graph, class_name if isinstance(class_name, str) else "GraphModule")


def _make_proxy(node: Any, tracer: Any = None) -> Proxy:
    """`fx.Proxy(node, tracer)`: a proxy of a node, recording into the tracer's graph (a
    GraphAppendingTracer's)."""
    if not isinstance(node, FxNode):
        raise NotSupported("torch.fx.Proxy takes a torch.fx Node")
    if tracer is None:
        tracer = _appending(node.graph)
    if not isinstance(tracer, Tracer):
        raise NotSupported(
            "torch.fx.Proxy with this tracer is not supported by gradcli",
            hint="pass torch.fx.proxy.GraphAppendingTracer(graph)",
        )
    return Proxy(node, tracer)


def _appending(graph: Any) -> Tracer:
    """`torch.fx.proxy.GraphAppendingTracer(graph)`: proxies made with it add their
    operations to the graph."""
    if not isinstance(graph, FxGraph):
        raise NotSupported("GraphAppendingTracer takes a torch.fx Graph")
    return Tracer(None, graph)


class _TracerObject:
    """`torch.fx.Tracer()`: its `trace(root)` gives the graph symbolic_trace would."""

    def program_typename(self) -> str:
        return "Tracer"

    def program_attribute(self, attr: str) -> Any:
        if attr == "trace":
            return Builtin(
                "Tracer.trace", lambda root, concrete_args=None: _trace(root, concrete_args)[0]
            )
        raise NotSupported(
            f"`Tracer.{attr}` is not supported by gradcli",
            hint="call Tracer().trace(module), or torch.fx.symbolic_trace(module)",
        )


def _no_tracer(*a: Any, **k: Any) -> Any:
    if a or k:
        raise NotSupported(
            "torch.fx.Tracer with arguments is not supported by gradcli",
            hint="use torch.fx.Tracer() or torch.fx.symbolic_trace",
        )
    return _TracerObject()


class _InterpreterObject:
    """`torch.fx.Interpreter(gm)`: its `run(*args)` runs the graph as the module's call."""

    def __init__(self, module: Any) -> None:
        if not isinstance(module, GraphModule):
            raise NotSupported("torch.fx.Interpreter takes a GraphModule")
        self.module = module

    def program_typename(self) -> str:
        return "Interpreter"

    def program_attribute(self, attr: str) -> Any:
        if attr == "run":
            m = self.module
            return Builtin("Interpreter.run", lambda *a: run_graph(m, m.graph, a, {}))
        if attr == "module":
            return self.module
        raise NotSupported(
            f"`Interpreter.{attr}` is not supported by gradcli (a subclass of Interpreter neither)",
            hint="call Interpreter(gm).run(*inputs), or edit the graph's nodes",
        )


def _no_make_fx(*a: Any, **k: Any) -> Any:
    raise NotSupported(
        "make_fx (a graph of ATen operations, torch.ops.aten.*) is not supported by gradcli",
        hint="torch.fx.symbolic_trace(f) records the graph of torch functions, tensor methods "
        "and modules: print its .graph or .code",
    )


def export_members() -> dict[str, Any]:
    """`torch.export`: refused in plain words (an ATen-level ExportedProgram)."""

    def refused(*a: Any, **k: Any) -> Any:
        raise NotSupported(
            "torch.export (an ExportedProgram of ATen operations) is not supported by gradcli",
            hint="torch.fx.symbolic_trace(module) records the module's graph of torch "
            "functions and submodules: print its .graph or .code, call it as the module",
        )

    return {"export": Builtin("torch.export.export", refused)}


def _no_wrap(*a: Any, **k: Any) -> Any:
    raise NotSupported(
        "torch.fx.wrap is not supported by gradcli",
        hint="call torch functions directly in the traced code",
    )


V.FX_HOOKS.update(
    intercept_call=intercept_call,
    proxy_operator=proxy_operator,
    module_attribute=module_attribute,
    **{"pass": _PASS},
)
