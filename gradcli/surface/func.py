"""`torch.func`: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian and vmap, function
transforms that compose (`grad(grad(f))`, `jacfwd(jacrev(f))`, `vmap(grad(f))`), with PyTorch's
arguments (`argnums`, `has_aux`, `chunk_size`, `in_dims`, `out_dims`, `randomness`), pytrees of
arguments and results (tuples, lists, dicts) and error messages.

gradcli has one autograd, so a transform's levels are kept apart the way its semantics need:
- each call of a transformed function opens a level; the tensors it differentiates with
  respect to enter it as fresh leaves (`detach().requires_grad_()`), or, when they already
  require grad (an enclosing transform's, or the program's own), as a differentiable alias:
  derivatives then flow through to the enclosing level, and a closure over the caller's
  tensor is a constant inside the level, as in PyTorch (no perturbation confusion);
- the graph is kept (`create_graph=True`) only when the output depends on something outside
  the level: a tensor of an enclosing level that is still running, or a program tensor that
  requires grad; a result that depends on nothing outside leaves the level detached (so
  `grad(f)(x)` prints no grad_fn, and `grad(f)(w)` with w requiring grad does);
- jacrev builds the Jacobian row by row (a reverse pass per output element, one tick of the
  time budget each); jacfwd and jvp carry tangents through the recorded graph (`core.forward`),
  or, when the result must stay differentiable, use the double-backward trick;
- vmap runs the function once per batch element (the element taken by indexing along
  `in_dims`) and stacks the results along `out_dims`: the values are PyTorch's; the tensors
  that depend on the mapped inputs are followed (`_GradMode.vmapped`, a weak set per level) so
  that what PyTorch refuses on a BatchedTensor is refused here too, and `print` prints during
  the first element's run only; random draws follow `randomness="different"`, and a result that
  requires grad has `StackBackward0` as its grad_fn. `chunk_size` changes nothing here.
"""

from __future__ import annotations

import contextlib
import itertools
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import autograd, hooks
from ..core.graph import ancestors, leaves, on_path
from ..core.op import apply
from ..core.tensor import (
    SHARED_FROM,
    TRANSFORMS,
    MadeIn,
    Repeated,
    Tensor,
    _GradMode,
    batched,
    enable_grad,
    grad_enabled,
    no_grad,
    pytype_name,
)
from ..ops import shape as S
from . import functional as F
from . import indexing as I
from .functional_ad import (
    REQUIRES_GRAD_INSIDE,
    error,
    grad_mode,
    grads,
    jacobian_size,
    one_hot_seeds,
    onehot,
    pytype,
    refuse_no_formula,
    requiring_grad,
    tangents_through,
)
from .nn import Module

__all__ = [
    "functional_call",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "replace_all_batch_norm_modules_",
    "stack_module_state",
    "vjp",
    "vmap",
]


# --- pytrees --------------------------------------------------------------------------------


class Spec:
    """The structure of a pytree (tuples, lists and dicts of leaves), printed as PyTorch's
    TreeSpec: `*` for a leaf, `TreeSpec(tuple, None, [*, *])` for a node."""

    __slots__ = ("kind", "context", "children")

    def __init__(self, kind: type | None, context: Any = None, children: tuple = ()):
        self.kind = kind  # None: a leaf
        self.context = context
        self.children = children

    @property
    def leaf(self) -> bool:
        return self.kind is None

    def count(self) -> int:
        return 1 if self.leaf else sum(c.count() for c in self.children)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Spec)
            and self.kind is other.kind
            and self.context == other.context
            and self.children == other.children
        )

    def __hash__(self) -> int:  # pragma: no cover - not used as a key
        return hash((self.kind, len(self.children)))

    def shown(self, indent: int = 0) -> str:
        if self.leaf:
            return "*"
        name = "NoneType" if self.kind is type(None) else self.kind.__name__  # type: ignore[union-attr]
        head = f"TreeSpec({name}, {self.context!r}, ["
        if not self.children:
            return head + "])"
        indent += 2
        parts = [self.children[0].shown(indent)]
        parts += ["\n" + " " * indent + c.shown(indent) for c in self.children[1:]]
        return head + ",".join(parts) + "])"

    def __repr__(self) -> str:
        return self.shown()


LEAF = Spec(None)


def flatten(tree: Any) -> tuple[list[Any], Spec]:
    """The leaves of a pytree, in order, and its structure."""
    if isinstance(tree, (tuple, list)):
        out: list[Any] = []
        specs = []
        for item in tree:
            got, s = flatten(item)
            out += got
            specs.append(s)
        return out, Spec(type(tree) if type(tree) in (tuple, list) else tuple, None, tuple(specs))
    if isinstance(tree, dict):
        out, specs = [], []
        for item in tree.values():
            got, s = flatten(item)
            out += got
            specs.append(s)
        return out, Spec(dict, list(tree.keys()), tuple(specs))
    if tree is None:
        return [], Spec(type(None))
    return [tree], LEAF


def unflatten(items: Sequence[Any], spec: Spec) -> Any:
    it = iter(items)

    def build(s: Spec) -> Any:
        if s.leaf:
            return next(it)
        if s.kind is type(None):
            return None
        kids = [build(c) for c in s.children]
        if s.kind is dict:
            return dict(zip(s.context, kids))
        return list(kids) if s.kind is list else tuple(kids)

    return build(spec)


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    items, spec = flatten(tree)
    return unflatten([fn(x) for x in items], spec)


def pretty(spec: Spec) -> str:
    """PyTorch's treespec_pprint: the structure with `*` for each leaf, as Python prints it."""
    if spec.leaf:
        return "*"
    if spec.kind is type(None):
        return "None"
    kids = [pretty(c) for c in spec.children]
    if spec.kind is dict:
        return "{" + ", ".join(f"{k!r}: {v}" for k, v in zip(spec.context, kids)) + "}"
    if spec.kind is list:
        return "[" + ", ".join(kids) + "]"
    return "(" + ", ".join(kids) + ("," if len(kids) == 1 else "") + ")"


# --- levels ---------------------------------------------------------------------------------

_serials = itertools.count(1)
_RUNNING: list[int] = []  # the levels of the transforms running now, innermost last
_KINDS = TRANSFORMS  # which transforms those are ("grad", "vjp", "jvp", "jacrev", ...)
# id(tensor) -> (a weak reference to it, the level it entered as a fresh leaf)
_ENTERED: dict[int, tuple[weakref.ref, int]] = {}


_STARTS: list[int] = []  # the sequence number of the first node each running level records
# The serials of the vmaps running now (a level of PyTorch's numbering, between the others)
_VMAPS: list[int] = []


@contextlib.contextmanager
def _level(kind: str) -> Iterator[int]:
    from ..core.op import peek_seq

    serial = next(_serials)
    _RUNNING.append(serial)
    _KINDS.append(kind)
    _STARTS.append(peek_seq())
    _GradMode.transforms += 1
    made = _GradMode.inference
    if not made:  # (inside inference mode the tensors made are inference tensors)
        _GradMode.inference = MadeIn(serial)  # the tensors made from here on are the level's
    try:
        with enable_grad():
            yield serial
    finally:
        if not made:
            _GradMode.inference = made
        _GradMode.transforms -= 1
        _OWN.pop(serial, None)
        _RUNNING.remove(serial)
        _KINDS.pop()
        _STARTS.pop()


# level -> the tensors passed to the transform running at that level: PyTorch wraps all of
# its arguments (those differentiated or not) at the level, so the function may change them in
# place; another tensor from outside is a captured one it may not change.
_OWN: dict[int, list[Tensor]] = {}


def _own(level: int, *trees: Any) -> None:
    _OWN[level] = [t for tree in trees for t in flatten(tree)[0] if isinstance(t, Tensor)]


def _mutable(t: Tensor, level: int) -> bool:
    """Whether PyTorch lets the function a transform runs at `level` change `t` in place: a
    tensor passed to the transform, or one wrapped at the level (made inside it) that is not
    a view of a tensor it may not change (PyTorch marks those immutable)."""
    own = _OWN.get(level, ())
    while True:
        if any(o is t for o in own):
            return True
        shared = SHARED_FROM.get(id(t))
        if shared is not None and shared[0]() is t:
            t = shared[1]  # x.detach(), x.data: as x
            continue
        if level not in _wrapped(t):
            return False
        base = t._base
        if base is None:
            return True
        t = base


CAPTURED = (
    "During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to call "
    "in-place operation ({op}) that would mutate a captured Tensor. This is not supported; "
    "please rewrite the function being transformed to explicitly accept the mutated Tensor(s) "
    "as inputs."
)


def _check_capture(x: Tensor, op: Callable[[], str]) -> None:
    """PyTorch's refusal of a change in place, inside grad, vjp, jvp, jacrev, jacfwd or
    hessian, of a tensor the function captured (a global, a module's buffer, a tensor of an
    enclosing transform), checked at the innermost such transform (vmap alone changes none)."""
    if _RUNNING and not _mutable(x, _RUNNING[-1]):
        raise error(CAPTURED.format(op=op()))


def _wrapped(t: Tensor) -> tuple[int, ...]:
    """The running levels (outermost first) at which PyTorch holds `t` wrapped: those it
    entered, with the levels of the tensor it came from; those running when it was made
    (every tensor made inside a transform is wrapped at each level running then, factory
    results included); none for a tensor from outside."""
    entry = _WRAPS.get(id(t))
    if entry is not None and entry[0]() is t:
        return tuple(s for s in entry[1] if s in _RUNNING)
    made = t._inf
    if type(made) is MadeIn:
        return tuple(s for s in _RUNNING if s <= made.level)
    if t.requires_grad and t.node is not None:  # (made in inference mode inside a level)
        return tuple(s for s, start in zip(_RUNNING, _STARTS) if t.node.seq >= start)
    return ()


def tracked_levels(t: Tensor) -> list[int]:
    """PyTorch's functorch levels (innermost last) of the GradTrackingTensors a tensor printed
    inside torch.func transforms is wrapped in (`GradTrackingTensor(lvl=2, value=
    GradTrackingTensor(lvl=1, value=...))` inside grad(grad(f))); empty for one PyTorch prints
    as it is. PyTorch numbers a level per transform, jacfwd two (its vmap, then its jvp, the
    level that wraps) and vmap one (which wraps only its batched tensors, whose printing is
    refused)."""
    if not _RUNNING:
        return []
    wrapped = _wrapped(t)
    if not wrapped:
        return []
    kinds = [k for k in _KINDS if k != "vmap"]  # (vmap's entries there have no serial)
    levels = sorted([*zip(_RUNNING, kinds), *((s, "vmap") for s in _VMAPS)])
    numbers: dict[int, int] = {}
    n = 0
    for serial, kind in levels:
        n += 2 if kind == "jacfwd" else 1
        numbers[serial] = n
    return [numbers[s] for s in wrapped]


def tracked_level(t: Tensor) -> int | None:
    """The innermost level of `tracked_levels`, or None."""
    levels = tracked_levels(t)
    return levels[-1] if levels else None


def tracked_inner(t: Tensor) -> Tensor | None:
    """The tensor PyTorch shows inside `t`'s GradTrackingTensor where it is not the bare
    value: the program's tensor an input that requires grad stands for (`Parameter
    containing: ...`), `t` itself where it depends on one (its grad_fn shown); else None."""
    alias = _ALIASES.get(id(t))
    if alias is not None and alias[0]() is t:
        # (an enclosing level's tensor shows what that one shows: nested wrappers hold the
        # program's tensor innermost, or the bare value)
        return tracked_inner(alias[1]) if _wrapped(alias[1]) else alias[1]
    if t.requires_grad and _outside([t], _RUNNING[-1], program_only=True):
        return t
    return None


# id(alias) -> (a weak reference to it, the tensor from outside the level it stands for)
_ALIASES: dict[int, tuple[weakref.ref, Tensor]] = {}
# id(tensor entering a level) -> (a weak reference to it, the levels PyTorch wraps it at: the
# tensor's it came from, then the level it entered)
_WRAPS: dict[int, tuple[weakref.ref, tuple[int, ...]]] = {}


def _forget_wraps(key: int) -> Callable[[Any], None]:
    def gone(_ref: Any) -> None:
        entry = _WRAPS.get(key)
        if entry is not None and entry[0]() is None:
            del _WRAPS[key]

    return gone


def _forget_alias(key: int) -> Callable[[Any], None]:
    def gone(_ref: Any) -> None:
        entry = _ALIASES.get(key)
        if entry is not None and entry[0]() is None:
            del _ALIASES[key]

    return gone


def _forget(key: int) -> Callable[[Any], None]:
    def gone(_ref: Any) -> None:
        entry = _ENTERED.get(key)
        if entry is not None and entry[0]() is None:
            del _ENTERED[key]

    return gone


def _enter(t: Any, level: int) -> Tensor:
    """A tensor entering the level: an alias when it requires grad, else a fresh leaf."""
    if not isinstance(t, Tensor):
        raise error(f"Thing passed to transform API must be Tensor, got {pytype(t)}", "ValueError")
    outer = _wrapped(t) if _RUNNING else ()
    if t.requires_grad:
        alias = F.view_as(t, t)
        _ALIASES[id(alias)] = (weakref.ref(alias, _forget_alias(id(alias))), t)
        _WRAPS[id(alias)] = (weakref.ref(alias, _forget_wraps(id(alias))), (*outer, level))
        return alias
    leaf = requiring_grad(t)
    _ENTERED[id(leaf)] = (weakref.ref(leaf, _forget(id(leaf))), level)
    _WRAPS[id(leaf)] = (weakref.ref(leaf, _forget_wraps(id(leaf))), (*outer, level))
    return leaf


def _outside(values: Sequence[Any], level: int, program_only: bool = False) -> bool:
    """Whether any of the tensors depends on a tensor outside `level` that still requires
    grad: a program tensor, or one an enclosing running level entered (not with
    `program_only`)."""
    roots = [v for v in values if isinstance(v, Tensor) and v.requires_grad]
    if not roots:
        return False
    found = [r for r in roots if r.node is None]
    nodes = ancestors(roots)
    found += [t for t in leaves(nodes) if t.requires_grad]
    for t in found:
        entry = _ENTERED.get(id(t))
        if entry is None or entry[0]() is not t:
            return True  # the program's own tensor
        if entry[1] != level and entry[1] in _RUNNING and not program_only:
            return True
    return False


def _leave(value: Any, level: int) -> Any:
    """A result leaving the level: detached unless it depends on something outside it."""
    if isinstance(value, Tensor):
        alias = _ALIASES.get(id(value))
        if alias is not None and alias[0]() is value:
            return alias[1]  # an input returned as it came in: PyTorch unwraps it to itself
        if value.requires_grad and not _outside([value], level):
            return value.detach()
        return value
    raise error(f"Expected tensors, got unsupported type {pytype(value)}")


def _leave_tree(tree: Any, level: int) -> Any:
    return tree_map(lambda v: _leave(v, level), tree)


# --- argnums --------------------------------------------------------------------------------


def _argnum(a: Any, n: int) -> int:
    if not isinstance(a, int):
        raise error(f"argnum must be int, got: {pytype(a)}")
    if 0 <= a < n:
        return int(a)
    if -n <= a < 0:
        return int(a) + n
    raise error(f"Got argnum={a}, but only {n} positional inputs")


def _argnums(argnums: Any, n: int) -> int | tuple[int, ...]:
    if not isinstance(argnums, (int, tuple)):
        raise error(f"argnums must be int or Tuple[int, ...], got: {pytype(argnums)}")
    if isinstance(argnums, int):
        return _argnum(argnums, n)
    got = tuple(_argnum(a, n) for a in argnums)
    if not got:
        raise error("argnums must be non-empty")
    if len(set(got)) != len(got):
        raise error(f"argnums elements must be unique, got {got}")
    return got


def _replace(args: tuple, argnums: int | tuple[int, ...], new: Any) -> tuple:
    if isinstance(argnums, int):
        return tuple(new if i == argnums else a for i, a in enumerate(args))
    return tuple(new[argnums.index(i)] if i in argnums else a for i, a in enumerate(args))


def _selected(args: tuple, argnums: int | tuple[int, ...]) -> Any:
    return args[argnums] if isinstance(argnums, int) else tuple(args[i] for i in argnums)


def _name(func: Any) -> str:
    name = getattr(func, "__name__", None)
    if name:
        return str(name)
    try:
        return repr(func)
    except GradcliError:  # (a value holding a tensor vmap maps over: not printable there)
        return pytype_name(func)


_VARKEYWORDS = 0x08  # a code object's flag: the function takes **kwargs


def _takes_keywords(code: Any) -> bool:
    """Whether a function (by its code) takes keyword arguments, not only `*args`."""
    return bool(code.co_flags & _VARKEYWORDS or code.co_argcount or code.co_kwonlyargcount)


class Transformed:
    """The function a transform returns: called by the program like any function (and by
    other transforms)."""

    __slots__ = ("fn", "__name__", "shown", "_qual")

    def __init__(self, fn: Callable[..., Any], name: str, shown: str, qual: Any = None):
        self.fn = fn
        self.__name__ = name
        self.shown = shown
        self._qual = qual or name  # the name Python's call errors give, or the function's

    @property
    def qual(self) -> str:
        """The function's __qualname__ as Python's call errors give it (PyTorch's for one of
        its own: torch.softmax is `_VariableFunctionsClass.softmax`), found when needed."""
        if isinstance(self._qual, str):
            return self._qual
        if isinstance(self._qual, Transformed):  # (hessian: jacfwd of jacrev's wrapper)
            return self._qual.qual
        known = hooks.python_names(self._qual)
        return known[1] if known is not None else _name(self._qual)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        code = getattr(self.fn, "__code__", None)
        if kwargs and code is not None and not _takes_keywords(code):
            # PyTorch's wrapper (jacrev, jacfwd, hessian, linearize's jvp_fn) takes no
            # keywords and bears the function's name: Python's words name that function.
            raise error(
                f"{self.qual}() got an unexpected keyword argument '{next(iter(kwargs))}'",
                "TypeError",
            )
        return self.fn(*args, **kwargs)

    def program_attribute(self, name: str) -> Any:
        raise error(f"'function' object has no attribute '{name}'", "AttributeError")

    def program_name(self) -> str:
        """`__name__`: the transformed function's (PyTorch's wrappers are functools.wraps')."""
        return self.__name__

    def __repr__(self) -> str:
        return f"<function {self.shown} at {id(self):#x}>"


# --- grad, vjp ------------------------------------------------------------------------------


def _grad_and_value(
    func: Callable[..., Any], argnums: Any, has_aux: bool, args: tuple, kwargs: dict
) -> tuple[Any, Any]:
    with _level("grad") as level:
        _own(level, args, kwargs)
        nums = _argnums(argnums, len(args))
        diff = tree_map(lambda t: _enter(t, level), _selected(args, nums))
        output = func(*_replace(args, nums, diff), **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise error(
                    "grad_and_value(f)(*args): output of function f should be a tuple: "
                    "(output, aux) if has_aux is True"
                )
            output, aux = output
        if not isinstance(output, Tensor):
            raise error(
                "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                f"{pytype(output)}"
            )
        if output.ndim != 0:
            raise error(
                "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                f"tensor with {output.ndim} dims. Maybe you wanted to use the vjp or jacrev "
                "APIs instead?"
            )
        flat, spec = flatten(diff)
        # (PyTorch's grad transform runs its backward with create_graph=True: the backward
        # formulas take their grad-mode forms; the result leaves the level detached)
        got = grads([output], flat, create_graph=True, retain_graph=True)
        got = [g if g is not None else _zeros(t) for g, t in zip(got, flat)]
        result = unflatten([_leave(g, level) for g in got], spec)
        output = _leave(output, level)
        if has_aux:
            aux = _leave_tree(aux, level)
            return result, (output, aux)
        return result, output


def _zeros(t: Tensor) -> Tensor:
    return Tensor(np.zeros(t.shape, dtype=t.dtype))


def grad_and_value(func: Any, argnums: Any = 0, has_aux: bool = False) -> Transformed:
    """`torch.func.grad_and_value(f)`: a function returning (gradient, value)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return _grad_and_value(func, argnums, has_aux, args, kwargs)

    return Transformed(wrapper, _name(func), _name(func), func)


_REMOVE_OPTIONS = (
    "     remove='mutations': all inplace and out= operators will be removed from the program, "
    "and replaced with their out-of-place equivalents.\n"
    "     remove='mutations_and_views': In addition to the above, all aliasing operators {view} "
    "will be replaced with their non-aliasing counterparts, {view}_copy.\n"
)


def functionalize(func: Any, *, remove: str = "mutations") -> Transformed:
    """`torch.func.functionalize(f)`: f with its mutations replaced by out-of-place operations
    (and a changed input written back at the end). Eagerly its values are f's own, so gradcli
    calls f itself (mutations included: the same numbers, the same changed inputs)."""
    if remove not in ("mutations", "mutations_and_views"):
        raise error(
            "functionalize(f, remove='mutations'): received invalid argument for "
            f"remove={remove}. Valid options are:\n" + _REMOVE_OPTIONS,
            "RuntimeError",
        )

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return Transformed(wrapped, _name(func), _name(func), func)


def grad(func: Any, argnums: Any = 0, has_aux: bool = False) -> Transformed:
    """`torch.func.grad(f)`: a function returning the gradient of f (a scalar function)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, (value, aux) = (
            _grad_and_value(func, argnums, True, args, kwargs)
            if has_aux
            else (_grad_and_value(func, argnums, False, args, kwargs)[0], (None, None))
        )
        return (g, aux) if has_aux else g

    return Transformed(wrapper, _name(func), _name(func), func)


def _vjp(
    func: Callable[..., Any], primals: tuple, argnums: Any, has_aux: bool, api: str
) -> tuple[Any, Callable[..., Any], Any, Any]:
    """The output, the VJP function, aux, and the differentiated primals' structure."""
    with _level("vjp") as level:
        _own(level, primals)
        if argnums is None:
            diff = tree_map(lambda t: _enter(t, level), primals)
            args = diff
        else:
            nums = _argnums(argnums, len(primals))
            diff = tree_map(lambda t: _enter(t, level), _selected(primals, nums))
            args = _replace(primals, nums, diff)
        output = func(*args)
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise error(
                    f"{api}: output of function f should be a tuple: (output, aux) if has_aux "
                    "is True"
                )
            output, aux = output
            aux = _leave_tree(aux, level)
        flat_out, out_spec = flatten(output)
        _non_empty_tensors(flat_out, api)
        for o in flat_out:
            if o.dtype.kind not in "fc":
                raise error(
                    "vjp(f, ...): All outputs of f must be floating-point or complex Tensors, "
                    f"got Tensor with dtype {_dtype_name(o)}"
                )
        flat_in, in_spec = flatten(diff)
        results = unflatten([_leave(o, level) for o in flat_out], out_spec)

    def vjp_fn(cotangents: Any, retain_graph: bool = True, create_graph: Any = None) -> Any:
        if create_graph is None:
            create_graph = grad_enabled()
        flat_cot, cot_spec = flatten(cotangents)
        if cot_spec != out_spec:
            raise error(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {pretty(cot_spec)}, primal output: "
                f"{pretty(out_spec)}"
            )
        for c in flat_cot:
            if not isinstance(c, Tensor):
                raise error(
                    f"vjp_fn: expected the cotangents to be Tensors, got {pytype(c)}", "TypeError"
                )
        keep = bool(create_graph) and (
            _outside(flat_out, level) or any(c.requires_grad for c in flat_cot)
        )
        was = _GradMode.inference
        if not was:  # (outside inference mode) the pass is the vjp's level's, run later: the
            _GradMode.inference = MadeIn(level)  # hooks of its tensors run (core.LevelHook)
        try:
            with enable_grad() if keep else contextlib.nullcontext():
                got = grads(
                    flat_out, flat_in, flat_cot, create_graph=keep, retain_graph=retain_graph
                )
        finally:
            _GradMode.inference = was
        got = [g if g is not None else _zeros(t) for g, t in zip(got, flat_in)]
        return unflatten([_leave(g, level) for g in got], in_spec)

    return results, vjp_fn, aux, in_spec


def _dtype_name(t: Tensor) -> str:
    from ..core import dtypes as D

    return f"torch.{D.torch_name(t.dtype)}"


def _non_empty_tensors(flat: list, api: str) -> None:
    if not flat or (len(flat) == 1 and flat[0] is None):
        raise error(
            f"{api}: Expected f to be a function that has non-empty output (got output = {flat!r})"
        )
    for o in flat:
        if not isinstance(o, Tensor):
            raise error(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                f"{pytype(o)}"
            )


def vjp(func: Any, *primals: Any, has_aux: bool = False) -> tuple:
    """`torch.func.vjp(f, *primals)`: (f(*primals), vjp_fn[, aux]); `vjp_fn(cotangents)`
    returns one gradient per primal, as a tuple."""
    output, fn, aux, _ = _vjp(func, primals, None, has_aux, "vjp(f, *primals)")
    return (output, fn, aux) if has_aux else (output, fn)


# --- jvp ------------------------------------------------------------------------------------

_JVP = "jvp(f, primals, tangents)"


def _jvp(
    func: Callable[..., Any],
    primals: Any,
    tangents: Any,
    argnums: Any,
    strict: bool,
    has_aux: bool,
) -> tuple[Any, Any, Any]:
    if not isinstance(primals, tuple):
        raise error(
            f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    nums = None if argnums is None else _argnums(argnums, len(primals))
    diff_args = primals if nums is None else _selected(primals, nums)
    flat_p, p_spec = flatten(diff_args)
    flat_t, t_spec = flatten(tangents)
    if p_spec != t_spec:
        raise error(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {p_spec!r} and tangents with structure {t_spec!r}"
        )
    for what, flat in (("primals", flat_p), ("tangents", flat_t)):
        if not flat:
            raise error(f"{_JVP}: Expected {what} to contain at least one Tensor.")
        for x in flat:
            if not isinstance(x, Tensor):
                raise error(f"{_JVP}: Expected {what} to only contain Tensors, got {pytype(x)}")
    for p, t in zip(flat_p, flat_t):
        if p.shape != t.shape:
            raise error(
                "Trying to set a forward gradient that has a different size than that of the "
                f"original Tensor, this is not supported. Tensor is of size {list(p.shape)} "
                f"while the given forward gradient is of size {list(t.shape)}."
            )
    with _level("jvp") as level:
        _own(level, primals)
        entered = [_enter(p, level) for p in flat_p]
        new = unflatten(entered, p_spec)
        args = new if nums is None else _replace(primals, nums, new)
        output = func(*args)
        aux = None
        if has_aux:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise error(
                    f"{_JVP}: output of function f should be a tuple: (output, aux) if has_aux "
                    "is True"
                )
            output, aux = output
            aux = _leave_tree(aux, level)
        flat_out, out_spec = flatten(output)
        if not flat_out or (len(flat_out) == 1 and flat_out[0] is None):
            raise error(
                f"{_JVP}: Expected f to be a function that has non-empty output (got output = "
                f"{flat_out!r})"
            )
        for o in flat_out:
            if not isinstance(o, Tensor):
                raise error(
                    f"{_JVP}: expected f(*args) to return only tensors, got unsupported type "
                    f"{pytype(o)}"
                )
        keep = _outside(flat_out, level) or any(t.requires_grad for t in flat_t)
        if keep:
            path = on_path(ancestors(flat_out), entered)[1]
            refuse_no_formula(path)
            _refuse_user_jvp(path)
            tans = _jvp_attached(flat_out, entered, flat_t)
            if tans is None:
                tans = _jvp_by_double_backward(flat_out, entered, flat_t)
        else:
            tans = tangents_through(flat_out, entered, flat_t, 0, wrapped=True)
        out_tans = []
        for o, d in zip(flat_out, tans):
            if d is None:
                if strict:
                    raise error(
                        "jvp(f, primals, tangents, strict=True): The output of f is independent "
                        "of the inputs. This is not allowed with strict=True."
                    )
                d = _zeros(o)
            elif d.shape != o.shape:
                d = Tensor(np.broadcast_to(np.asarray(d.data), o.shape).copy())
            out_tans.append(_leave(d, level))
        primals_out = unflatten([_leave(o, level) for o in flat_out], out_spec)
        return primals_out, unflatten(out_tans, out_spec), aux


def _refuse_user_jvp(path: Sequence[Any]) -> None:
    """gradcli's differentiable tangents (a forward-mode result an enclosing transform or the
    program differentiates again) come from reverse passes, which would run a custom
    Function's backward where PyTorch runs its jvp staticmethod: refused."""
    if any(getattr(n.params.get("_vjp"), "user_jvp", None) for n in path):
        raise NotSupported(
            "a custom autograd.Function's jvp staticmethod in a forward-mode transform whose "
            "results stay differentiable (jacrev of jacfwd, or a function whose output "
            "requires grad from outside) is not supported by gradcli",
            hint="take jacfwd outermost (jacfwd(jacrev(f)), hessian), or detach what the "
            "function captures",
        )


def _jvp_attached(
    outs: list[Tensor], ins: list[Tensor], tans: list[Tensor]
) -> list[Tensor | None] | None:
    """J v through the rules' forward formulas with their computations recorded, as PyTorch's
    jvp gives a tangent that stays differentiable (a function closing over a parameter that
    requires grad): its nodes are the formulas' (`mm(v, W) + mm(x, 0)`: AddBackward0). None
    where that is not reached (user code in the graph, a tangent a Python float promotes)."""
    nodes = ancestors(outs)
    if any(p.op.kind == "custom" or p.hooks or p.node_hooks or p.packed for p in nodes):
        return None
    try:
        return tangents_through(outs, ins, tans, 0, wrapped=True, attached=True)
    except GradcliError:
        return None


def _jvp_by_double_backward(
    outs: list[Tensor], ins: list[Tensor], tans: list[Tensor]
) -> list[Tensor | None]:
    """J v as the VJP of the VJP (linear in its upstream u), differentiable throughout."""
    us = [requiring_grad(_zeros(o)) for o in outs]
    back = grads(outs, ins, us, create_graph=True, retain_graph=True)
    pairs = [(b, t) for b, t in zip(back, tans) if b is not None]
    if not pairs:
        return [None] * len(outs)
    return list(
        grads(
            [b for b, _ in pairs], us, [t for _, t in pairs], create_graph=True, retain_graph=True
        )
    )


def jvp(
    func: Any, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False
) -> tuple:
    """`torch.func.jvp(f, primals, tangents)`: (f(*primals), J tangents[, aux]). An output
    that requires grad (from a tensor f closes over, or an input) comes back as PyTorch's
    unwrapping of the dual's primal gives it: a new alias of it (AliasBackward0), even an
    input or a parameter returned as it is."""
    out, tan, aux = _jvp(func, primals, tangents, None, strict, has_aux)
    out = tree_map(lambda v: I.getitem(v, Ellipsis) if v.requires_grad else v, out)
    return (out, tan, aux) if has_aux else (out, tan)


def linearize(func: Any, *primals: Any) -> tuple:
    """`torch.func.linearize(f, *primals)`: (f(*primals), jvp_fn), jvp_fn(*tangents) being the
    Jacobian-vector product at the primals (gradcli evaluates it by forward mode each time)."""
    zeros = tuple(Tensor(np.zeros_like(p.data)) if isinstance(p, Tensor) else p for p in primals)
    out = _jvp(func, primals, zeros, None, False, False)[0]  # (not aliased, as PyTorch's)

    def jvp_fn(*tangents: Any) -> Any:
        for i, (p, t) in enumerate(zip(primals, tangents)):
            if isinstance(p, Tensor) and isinstance(t, Tensor) and p.shape != t.shape:
                raise error(
                    f"tangent:{i} with shape torch.Size({list(t.shape)}) in flattened pytree "
                    f"doesn't match the shape torch.Size({list(p.shape)}) of the corresponding "
                    "primal.",
                    "RuntimeError",
                )
        return jvp(func, primals, tangents)[1]

    shown = "linearize.<locals>.jvp_fn"
    return out, Transformed(jvp_fn, "jvp_fn", shown, shown)


# --- jacrev, jacfwd, hessian ----------------------------------------------------------------

# Calls of jacrev's function so far. A jacfwd whose function called jacrev (hessian is
# jacfwd(jacrev(f))) carries its tangents without functorch's float64 promotion of a Python
# float operand (`core.forward.push`): PyTorch's jacrev runs its backward under vmap, so the
# tangents there have a batch dimension, which a 0-d float64 does not promote; its Hessians
# stay in the input's dtype (jacfwd(grad(f)), without a vmap, is promoted).
_JACREV_CALLS = [0]


def _blocks(
    per_input: list[list[Tensor]],
    flat_out: list[Tensor],
    flat_in: list[Tensor],
    in_spec: Spec,
    out_spec: Spec,
    argnums: Any,
) -> Any:
    """PyTorch's result structure: the outputs' structure of (the inputs' structure of blocks,
    a bare block when argnums is an int)."""
    per_output = []
    for i in range(len(flat_out)):
        inner = unflatten([per_input[j][i] for j in range(len(flat_in))], in_spec)
        per_output.append(inner[0] if isinstance(argnums, int) else inner)
    return unflatten(per_output, out_spec)


def _block(rows: list[Tensor], out: Tensor, t: Tensor) -> Tensor:
    if not rows:
        return _zeros_shape(out.shape + t.shape, t.dtype)
    if any(r.requires_grad for r in rows):
        return F.reshape(F.stack(rows), *(out.shape + t.shape))
    return Tensor(np.stack([np.asarray(r.data) for r in rows]).reshape(out.shape + t.shape))


def _zeros_shape(shape: tuple, dtype: Any) -> Tensor:
    return Tensor(np.zeros(shape, dtype=dtype))


# jacrev of a function whose result is not differentiated again computes the rows of a large
# Jacobian (rows x nodes of its graph at least _BATCH_FROM) in batched passes: the tutorial's
# Hessian by jacrev(jacrev(f)) took 16,384 passes through a graph of a thousand nodes, 155 s.
# The numbers are the same up to the rounding of float32 products, where PyTorch's (a vmap
# over the VJP, batched products) differs from both in the last bits.
_BATCH_ROWS = True
_BATCH_FROM = 50_000
_ROW_BUDGET = 1 << 21


def _batched_rows(
    o: Tensor, flat_in: list[Tensor], outs: list[Tensor] | None = None, index: int = 0
) -> list[Tensor] | None:
    """All rows of o's Jacobian blocks by backward passes with a batch of one-hot gradients
    each (PyTorch's vmap over the VJP), as many rows a pass as keep its gradients small; None
    where the pass would run the program's own code (a custom Function's backward, hooks),
    which sees one gradient at a time, or when switched off (`_BATCH_ROWS`, for tests).
    `outs`: all the function's outputs, o being outs[index]: the others get zero gradients in
    the same pass (PyTorch's basis over the flattened outputs)."""
    if not _BATCH_ROWS:
        return None
    others = [] if outs is None else [p for m, p in enumerate(outs) if m != index]
    others = [p for p in others if p.requires_grad]
    nodes = ancestors([o, *others])
    n = int(o.data.size)
    if n * len(nodes) < _BATCH_FROM:
        return None  # a small Jacobian: one pass a row is quick (and its float32 bits as before)
    if any(
        p.op.kind == "custom" or p.hooks or p.node_hooks or p.packed or p.out.retains_grad
        for p in nodes
    ):
        return None  # user code in the pass (a Function's backward, hooks): one row at a time
    blocks: list[list[np.ndarray]] = [[] for _ in flat_in]
    # rows per pass: the largest gradient a pass holds (rows x a node's output) kept small
    widest = max([int(p.out.data.size) for p in nodes] + [1])
    step = max(1, min(n, _ROW_BUDGET // widest))
    for lo in range(0, n, step):
        hooks.observer.tick()
        hi = min(n, lo + step)
        e = np.zeros((hi - lo, n), dtype=o.dtype)
        e[np.arange(hi - lo), np.arange(lo, hi)] = 1
        zeros = [Tensor(np.zeros((hi - lo,) + p.shape, dtype=p.dtype)) for p in others]
        got = autograd.grad(
            [o, *others],
            flat_in,
            [Tensor(e.reshape((hi - lo,) + o.shape)), *zeros],
            retain_graph=True,
            allow_unused=True,
            is_grads_batched=True,
        )
        for j, (g, t) in enumerate(zip(got, flat_in)):
            blocks[j].append(
                np.zeros((hi - lo,) + t.shape, dtype=t.dtype) if g is None else np.asarray(g.data)
            )
    return [Tensor(np.concatenate(b).reshape(o.shape + t.shape)) for b, t in zip(blocks, flat_in)]


def _vmapped_rows(
    o: Tensor, flat_in: list[Tensor], outs: list[Tensor], index: int
) -> list[Tensor] | None:
    """The rows of o's Jacobian blocks, recorded (the result is differentiated again), by one
    backward pass with a batch of one-hot gradients, as PyTorch's vmap over the VJP: the
    recorded rules broadcast the batch against what does not depend on it, so a gradient
    reaching such a tensor through them is reduced by a sum (a sum of -0. is +0.). None where
    the pass would run the program's own code (a custom Function's backward, hooks, saved
    tensor hooks) or differentiates an op gradcli has no batched rule for."""
    others = [p for m, p in enumerate(outs) if m != index and p.requires_grad]
    nodes = ancestors([o, *others])
    if any(
        p.op.kind == "custom" or p.hooks or p.node_hooks or p.packed or p.out.retains_grad
        for p in nodes
    ):
        return None
    n = int(o.data.size)
    hooks.observer.tick()
    e = np.zeros((n, n), dtype=o.dtype)
    e[np.arange(n), np.arange(n)] = 1
    zeros = [Tensor(np.zeros((n,) + p.shape, dtype=p.dtype)) for p in others]
    try:
        got = autograd.grad(
            [o, *others],
            flat_in,
            [Tensor(e.reshape((n,) + o.shape)), *zeros],
            retain_graph=True,
            create_graph=True,
            allow_unused=True,
            is_grads_batched=True,
        )
    except GradcliError:
        return None
    out = []
    for g, t in zip(got, flat_in):
        if g is None:
            out.append(_zeros_shape(o.shape + t.shape, t.dtype))
        else:
            out.append(F.reshape(g, *(o.shape + t.shape)))
    return out


def jacrev(
    func: Any,
    argnums: Any = 0,
    *,
    has_aux: bool = False,
    chunk_size: Any = None,
    _preallocate_and_copy: bool = False,
) -> Transformed:
    """`torch.func.jacrev(f)`: the Jacobian by reverse mode, one pass per output element."""
    if not (chunk_size is None or chunk_size > 0):
        raise error("jacrev: `chunk_size` should be greater than 0.", "ValueError")

    def wrapper(*args: Any) -> Any:
        _JACREV_CALLS[0] += 1
        with _level("jacrev") as level:
            _own(level, args)
            nums = _argnums(argnums, len(args))
            diff = tree_map(lambda t: _enter(t, level), _selected(args, nums))
            output = func(*_replace(args, nums, diff))
            aux = None
            if has_aux:
                if not (isinstance(output, tuple) and len(output) == 2):
                    raise error(
                        "vjp(f, *primals): output of function f should be a tuple: (output, "
                        "aux) if has_aux is True"
                    )
                output, aux = output
                aux = _leave_tree(aux, level)
            flat_out, out_spec = flatten(output)
            _non_empty_tensors(flat_out, "vjp(f, *primals)")
            flat_in, in_spec = flatten(diff if isinstance(nums, tuple) else (diff,))
            jacobian_size(
                sum(int(o.data.size) for o in flat_out),
                sum(int(t.data.size) for t in flat_in),
                "the Jacobian jacrev computes",
            )
            keep = _outside(flat_out, level)
            per_input: list[list[Tensor]] = [[] for _ in flat_in]
            # Several outputs: each row is one VJP of all of them, the others' cotangents
            # zeros, as PyTorch's basis over the flattened outputs has it (their zero
            # contributions are summed in: +0, never a lone -0, where the branches meet).
            joint = len(flat_out) > 1
            # PyTorch's one backward pass, vmapped over the rows, runs the hooks once
            runs = Repeated(
                "a hook during jacrev's backward passes",
                "row of the Jacobian",
                "make the change outside the hook (from the Jacobian jacrev returns)",
                quiet=True,
            )
            row = 0
            # PyTorch's pass, vmapped over the rows, sees the saved tensors expanded to them
            rows_expanded = sum(int(o.data.size) for o in flat_out) > 1
            was_expanded = _GradMode.rows_expanded
            _GradMode.rows_expanded = rows_expanded or was_expanded
            with runs, contextlib.ExitStack() as restore:
                restore.callback(setattr, _GradMode, "rows_expanded", was_expanded)
                for i, o in enumerate(flat_out):
                    rows: list[list[Tensor]] = [[] for _ in flat_in]
                    many = not keep and int(o.data.size) > 1
                    got_all = _batched_rows(o, flat_in, flat_out, i) if many else None
                    if keep and got_all is None:
                        got_all = _vmapped_rows(o, flat_in, flat_out, i)
                    if got_all is not None:
                        for j, block in enumerate(got_all):
                            per_input[j].append(_leave(block, level))
                        continue
                    for k in range(int(o.data.size)):
                        hooks.observer.tick()
                        runs.run(row)
                        row += 1
                        if joint:
                            cots = [
                                onehot(o, k) if m == i else _zeros(p)
                                for m, p in enumerate(flat_out)
                            ]
                            got = grads(
                                flat_out, flat_in, cots, create_graph=True, retain_graph=True
                            )
                        else:
                            got = grads(
                                [o], flat_in, [onehot(o, k)], create_graph=True, retain_graph=True
                            )
                        for j, (g, t) in enumerate(zip(got, flat_in)):
                            rows[j].append(g if g is not None else _zeros(t))
                    for j, t in enumerate(flat_in):
                        per_input[j].append(_leave(_block(rows[j], o, t), level))
            result = _blocks(per_input, flat_out, flat_in, in_spec, out_spec, nums)
        return (result, aux) if has_aux else result

    return Transformed(wrapper, _name(func), _name(func), func)


def jacfwd(
    func: Any, argnums: Any = 0, has_aux: bool = False, *, randomness: str = "error"
) -> Transformed:
    """`torch.func.jacfwd(f)`: the Jacobian by forward mode, one tangent per input element,
    all carried through the recorded graph at once."""
    _check_randomness(randomness)

    def wrapper(*args: Any) -> Any:
        with _level("jacfwd") as level:
            _own(level, args)
            nums = _argnums(argnums, len(args))
            diff = tree_map(lambda t: _enter(t, level), _selected(args, nums))
            calls = _JACREV_CALLS[0]
            output = func(*_replace(args, nums, diff))
            # (a jacrev inside, as hessian's: see `_JACREV_CALLS`)
            wrapped = _JACREV_CALLS[0] == calls
            aux = None
            if has_aux:
                if not (isinstance(output, tuple) and len(output) == 2):
                    raise error(
                        f"{_JVP}: output of function f should be a tuple: (output, aux) if "
                        "has_aux is True"
                    )
                output, aux = output
                aux = _leave_tree(aux, level)
            flat_out, out_spec = flatten(output)
            if not flat_out:
                raise error(
                    f"{_JVP}: Expected f to be a function that has non-empty output (got "
                    f"output = {flat_out!r})"
                )
            for o in flat_out:
                if not isinstance(o, Tensor):
                    raise error(
                        f"{_JVP}: expected f(*args) to return only tensors, got unsupported "
                        f"type {pytype(o)}"
                    )
            flat_in, in_spec = flatten(diff if isinstance(nums, tuple) else (diff,))
            sizes = [int(t.data.size) for t in flat_in]
            total = sum(sizes)
            jacobian_size(
                sum(int(o.data.size) for o in flat_out), total, "the Jacobian jacfwd computes"
            )
            if _outside(flat_out, level):
                _refuse_user_jvp(on_path(ancestors(flat_out), flat_in)[1])
                # PyTorch's tangents, recorded (inside another transform, or of a function
                # closing over a program tensor that requires grad)
                per_input = _jacfwd_attached(flat_out, flat_in, sizes, level, wrapped)
                if per_input is None:
                    per_input = _jacfwd_reverse(flat_out, flat_in, level, wrapped)
            else:
                per_input = _jacfwd_tangents(flat_out, flat_in, sizes, wrapped)
            result = _blocks(per_input, flat_out, flat_in, in_spec, out_spec, nums)
        return (result, aux) if has_aux else result

    return Transformed(wrapper, _name(func), _name(func), func)


def _jacfwd_tangents(
    flat_out: list[Tensor], flat_in: list[Tensor], sizes: list[int], wrapped: bool = True
) -> list[list[Tensor]]:
    total = sum(sizes)
    tans = tangents_through(flat_out, flat_in, one_hot_seeds(flat_in), 1, wrapped=wrapped)
    per_input: list[list[Tensor]] = [[] for _ in flat_in]
    for o, d in zip(flat_out, tans):
        col = (
            np.zeros((total,) + o.shape, dtype=o.dtype)
            if d is None
            else np.broadcast_to(np.asarray(d.data), (total,) + o.shape)
        )
        flat = col.reshape(total, -1).T
        off = 0
        for j, (t, n) in enumerate(zip(flat_in, sizes)):
            block = flat[:, off : off + n].reshape(o.shape + t.shape)  # (a view, as PyTorch's)
            per_input[j].append(Tensor(block))
            off += n
    return per_input


def _jacfwd_attached(
    flat_out: list[Tensor],
    flat_in: list[Tensor],
    sizes: list[int],
    level: int,
    wrapped: bool,
) -> list[list[Tensor]] | None:
    """The Jacobian by forward mode with the tangents' computations recorded (an enclosing
    transform differentiates it again), as PyTorch's jacfwd: one batch of one-hot tangents
    through the rules' forward formulas, the batch axis then moved last. None where that is
    not reached (user code in the graph, a tangent a Python float promotes)."""
    nodes = ancestors(flat_out)
    if any(p.op.kind == "custom" or p.hooks or p.node_hooks or p.packed for p in nodes):
        return None
    total = sum(sizes)
    try:
        tans = tangents_through(
            flat_out, flat_in, one_hot_seeds(flat_in), 1, wrapped=wrapped, attached=True
        )
    except GradcliError:
        return None
    per_input: list[list[Tensor]] = [[] for _ in flat_in]
    for o, d in zip(flat_out, tans):
        if d is None:
            for j, t in enumerate(flat_in):
                per_input[j].append(_zeros_shape(o.shape + t.shape, o.dtype))
            continue
        if d.shape != (total,) + o.shape:
            d = F.expand(d, *((total,) + o.shape))
        col = F.reshape(d, total, -1)
        off = 0
        for j, (t, n) in enumerate(zip(flat_in, sizes)):
            part = I.getitem(col, (slice(off, off + n),)) if len(flat_in) > 1 else col
            block = F.view(F.transpose(part, 0, 1), *(o.shape + t.shape))
            per_input[j].append(_leave(block, level))
            off += n
    return per_input


def _jacfwd_reverse(
    flat_out: list[Tensor], flat_in: list[Tensor], level: int, wrapped: bool = True
) -> list[list[Tensor]]:
    """The same Jacobian by reverse passes with the graph kept: a result that an enclosing
    transform (or the program) differentiates again; in the dtype forward mode gives it (a
    Python float operand can make it float64: `core.forward._promoted`)."""
    dtypes = _forward_dtypes(flat_out, flat_in, wrapped)
    per_input: list[list[Tensor]] = [[] for _ in flat_in]
    for o, dt in zip(flat_out, dtypes):
        rows: list[list[Tensor]] = [[] for _ in flat_in]
        for k in range(int(o.data.size)):
            hooks.observer.tick()
            got = grads([o], flat_in, [onehot(o, k)], create_graph=True, retain_graph=True)
            for j, (g, t) in enumerate(zip(got, flat_in)):
                rows[j].append(g if g is not None else _zeros(t))
        for j, t in enumerate(flat_in):
            block = _block(rows[j], o, t)
            if dt is not None and block.dtype != dt:
                block = apply(S.astype, block, dtype=dt)
            per_input[j].append(_leave(block, level))
    return per_input


def _forward_dtypes(flat_out: list[Tensor], flat_in: list[Tensor], wrapped: bool) -> list:
    """The dtypes of the outputs' tangents in forward mode (None where there is none)."""
    try:
        with no_grad():
            tans = tangents_through(
                flat_out,
                flat_in,
                [Tensor(np.zeros((1,) + t.shape, t.dtype)) for t in flat_in],
                1,
                wrapped=wrapped,
            )
    except GradcliError:
        return [None] * len(flat_out)
    return [None if d is None else d.dtype for d in tans]


def hessian(func: Any, argnums: Any = 0) -> Transformed:
    """`torch.func.hessian(f)`: jacfwd(jacrev(f)), forward over reverse."""
    h = jacfwd(jacrev(func, argnums), argnums)
    h.shown = "jacfwd.<locals>.wrapper_fn"
    return h


# --- vmap -----------------------------------------------------------------------------------


def _check_randomness(randomness: Any) -> None:
    if randomness not in ("error", "different", "same"):
        raise error(
            "Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )


def _broadcast(dims: Any, spec: Spec) -> list[Any] | None:
    """`in_dims` / `out_dims` spread over the leaves of a structure (an int or None at a node
    applies to all its leaves), or None when they do not fit it."""
    if dims is None or isinstance(dims, int):
        return [dims] * spec.count()
    if spec.leaf or not isinstance(dims, (tuple, list, dict)):
        return None
    if isinstance(dims, dict):
        if spec.kind is not dict or list(dims.keys()) != list(spec.context):
            return None
        parts = list(dims.values())
    else:
        if (
            spec.kind not in (tuple, list)
            or type(dims) is not spec.kind
            or len(dims) != len(spec.children)
        ):
            return None
        parts = list(dims)
    out: list[Any] = []
    for d, c in zip(parts, spec.children):
        got = _broadcast(d, c)
        if got is None:
            return None
        out += got
    return out


def _shown(v: Any) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_shown(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, list):
        return "[" + ", ".join(_shown(x) for x in v) + "]"
    return repr(v)


def vmap(
    func: Any,
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: Any = None,
) -> Transformed:
    """`torch.func.vmap(f)`: f mapped over a batch dimension of its inputs (run once per batch
    element here, and the results stacked)."""
    _check_randomness(randomness)
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size <= 0
    ):
        raise error(
            f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})", "ValueError"
        )
    name = _name(func)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        _check_out_dims(out_dims, name)
        if not isinstance(in_dims, (int, tuple)):
            raise error(
                f"vmap({name}, in_dims={_shown(in_dims)}, ...)(<inputs>): expected `in_dims` to "
                "be int or a (potentially nested) tuple matching the structure of inputs, got: "
                f"{pytype(in_dims)}.",
                "ValueError",
            )
        if not args:
            raise error(
                f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you "
                "are trying to vmap over a function with no inputs. The latter is unsupported.",
                "ValueError",
            )
        flat, spec = flatten(args)
        dims = _broadcast(in_dims, spec)
        head = f"vmap({name}, in_dims={_shown(in_dims)}, ...)(<inputs>)"
        if dims is None:
            in_spec = flatten(in_dims)[1]
            raise error(
                f"{head}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                f"structure {in_spec!r} but inputs has structure {spec!r}.",
                "ValueError",
            )
        for k, (a, d) in enumerate(zip(flat, dims)):
            if d is not None and not isinstance(d, int):
                raise error(
                    f"{head}: Got in_dim={d} for an input but in_dim must be either an integer "
                    "dimension or None.",
                    "ValueError",
                )
            if isinstance(d, int) and not isinstance(a, Tensor):
                raise error(
                    f"{head}: Got in_dim={d} for an input but the input is of type "
                    f"{pytype(a)}. We cannot vmap over non-Tensor arguments, please use None as "
                    "the respective in_dim",
                    "ValueError",
                )
            if d is not None and not -a.ndim <= d < a.ndim:
                raise error(
                    f"{head}: Got in_dim={d} for some input, but that input is a Tensor of "
                    f"dimensionality {a.ndim} so expected in_dim to satisfy -{a.ndim} <= in_dim "
                    f"< {a.ndim}.",
                    "ValueError",
                )
            if d is not None and d < 0:
                dims[k] = d % a.ndim
        sizes = [a.shape[d] for a, d in zip(flat, dims) if d is not None]
        if not sizes:
            raise error("vmap: Expected at least one Tensor to vmap over", "ValueError")
        if any(s != sizes[0] for s in sizes):
            raise error(
                "vmap: Expected all tensors to have the same size in the mapped dimension, got "
                f"sizes {sizes} for the mapped dimension",
                "ValueError",
            )
        batch = sizes[0]
        results = []
        level: weakref.WeakSet = weakref.WeakSet()
        level.size = batch  # type: ignore[attr-defined]
        sources: dict[int, tuple] = {}
        _batch_view(level, sources, set(_RUNNING))
        quiet = _GradMode.vmap_quiet
        runs = Repeated(
            "the function vmap maps over",
            "batch element",
            "return the values from the function (vmap stacks them) and make the change "
            "after the vmap call",
        )
        with _random_draws(randomness) as before_element, runs:
            _GradMode.vmapped.append(level)
            _VMAPS.append(next(_serials))  # (its place in PyTorch's numbering of levels)
            try:
                for i in range(max(batch, 1)):
                    hooks.observer.tick()
                    before_element()
                    runs.run(i)
                    elems = [
                        a if d is None else _element(a, d, i if batch else None)
                        for a, d in zip(flat, dims)
                    ]
                    level.index = i if batch else None  # type: ignore[attr-defined]
                    sources.clear()
                    for e, a, d in zip(elems, flat, dims):
                        if d is not None:
                            level.add(e)
                            if batch:
                                sources[id(e)] = (weakref.ref(e), a, d)
                    keep = _GradMode.vmap_keep
                    _GradMode.vmap_keep = keep or i < batch - 1
                    _GradMode.vmap_quiet = quiet or i > 0
                    try:
                        results.append(func(*unflatten(elems, spec), **kwargs))
                    finally:
                        _GradMode.vmap_keep = keep
                        _GradMode.vmap_quiet = quiet
                    if i == 0:
                        _check_sizes(results[0], batch)
            finally:
                _GradMode.vmapped.remove(level)
                _VMAPS.pop()
        return _stacked(results, out_dims, name, batch, level)

    return Transformed(wrapped, name, name)


def _batch_view(level: Any, sources: dict[int, tuple], outer: set[int]) -> None:
    """What a batching rule sees of a vmap level (`ops.arithmetic.vmap_product`): `physical(t)`,
    the batch a batched tensor of this element stands for, its batch dim in front (an input of
    the vmap: that input itself; a tensor computed in the function: zeros around this
    element's values, laid out as the element, the batch outermost); `outside_grad(t)`, whether
    PyTorch's physical tensor requires grad: differentiated by a transform running around the
    vmap, or the program's own autograd (a transform inside the vmap differentiates the
    BatchedTensors, not what the batching rules see)."""

    def physical(t: Tensor) -> np.ndarray:
        src = sources.get(id(t))
        if src is not None and src[0]() is t:
            a, d = src[1], src[2]
            whole = np.moveaxis(a.data, d, 0)
            mine = whole[level.index]
            if mine.ctypes.data == t.data.ctypes.data and mine.strides == t.data.strides:
                return whole  # (the element is still a view of it)
        order = sorted(range(t.ndim), key=lambda k: -abs(t.data.strides[k]))
        full = np.zeros((level.size, *(t.shape[k] for k in order)), dtype=t.dtype)
        view = full.transpose(0, *(1 + order.index(k) for k in range(t.ndim)))
        view[level.index] = t.data
        return view

    def outside_grad(t: Tensor) -> bool:
        if not t.requires_grad:
            return False
        src = sources.get(id(t))
        if src is not None and src[0]() is t:
            return bool(src[1].requires_grad)
        nodes = ancestors([t])
        found = ([t] if t.node is None else []) + [u for u in leaves(nodes) if u.requires_grad]
        for u in found:
            entry = _ENTERED.get(id(u))
            if entry is None or entry[0]() is not u or entry[1] in outer:
                return True
        return False

    level.physical = physical
    level.outside_grad = outside_grad


def _check_sizes(first: Any, batch: int) -> None:
    """The stacked results' sizes, from the first element's, before the other elements run."""
    for t in flatten(first)[0]:
        if isinstance(t, Tensor):
            limits.TENSOR_ELEMENTS.check(batch * int(t.data.size), "the stacked tensor")


def check_function_in_transform(name: str, vmap_rule: bool, jvp_rule: bool) -> None:
    """PyTorch's checks when a program's autograd.Function (the setup_context form) runs
    inside torch.func transforms: vmap and jacfwd (vmap over jvp) need its vmap staticmethod
    or generate_vmap_rule = True, forward mode its jvp staticmethod (which forward mode then
    uses: `core.forward`). gradcli runs vmap one element at a time, so a vmap rule is only
    checked, never called."""
    if not vmap_rule and any(k in ("vmap", "jacfwd") for k in _KINDS):
        raise error(
            f"You tried to vmap over {name}, but it does not have vmap support. Please override "
            "and implement the vmap staticmethod or set generate_vmap_rule=True. For more "
            "details, please see https://pytorch.org/docs/main/notes/extending.func.html"
        )
    if not jvp_rule and any(k in ("jvp", "jacfwd") for k in _KINDS):
        raise error(
            "You must implement the jvp function for custom autograd.Function to use it "
            "with forward mode AD.",
            "NotImplementedError",
        )


def function_needs(args: Sequence[Any]) -> list[tuple[bool, ...]]:
    """`ctx.needs_input_grad` at each setup_context call PyTorch makes when a program's
    autograd.Function (the setup_context form) runs inside torch.func transforms: functorch
    runs it once at the base level, on the unwrapped inputs (a tensor requires grad there only
    as the program's own tensor), then calls setup_context again at each grad, vjp, jacrev,
    jvp or jacfwd level running, outermost first (a vmap level adds no call). At a reverse
    level an input needs grad where the level wraps it and it requires grad (a captured
    tensor does not); at a forward-mode level none does. The last row is the innermost
    level's, the ctx backward and jvp then see."""

    def base(a: Any) -> bool:
        if not isinstance(a, Tensor):
            return False
        alias = _ALIASES.get(id(a))
        if alias is not None and alias[0]() is a:
            return base(alias[1])  # (an input that required grad: the tensor it stands for)
        return a.requires_grad and not _wrapped(a)

    rows = [tuple(base(a) for a in args)]
    kinds = [k for k in _KINDS if k != "vmap"]
    for serial, kind in zip(_RUNNING, kinds):
        forward = kind in ("jvp", "jacfwd")
        rows.append(
            tuple(
                isinstance(a, Tensor) and not forward and a.requires_grad and serial in _wrapped(a)
                for a in args
            )
        )
    return rows


def vmap_hidden() -> Callable[[Any], bool] | None:
    """When the transform running innermost is a vmap: which tensors the program's
    torch.autograd.grad sees as not requiring grad (BatchedTensors: PyTorch's autograd runs
    beneath the batching, on the physical tensors, and a BatchedTensor has no grad_fn)."""
    if _KINDS and _KINDS[-1] == "vmap":
        return batched
    return None


def check_not_transforming(what: str) -> None:
    """PyTorch's refusals inside a function a torch.func transform is running."""
    if not _GradMode.transforms:
        return
    if what == "requires_grad_":
        raise error(REQUIRES_GRAD_INSIDE)
    if what == "backward":
        raise error(
            "backward() called inside a functorch transform. This is not supported, please use "
            "functorch.grad or functorch.vjp instead or call backward() outside of functorch "
            "transforms."
        )
    raise error(
        "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
        "jacrev, ...), it must override the setup_context staticmethod. For more details, "
        "please see https://pytorch.org/docs/main/notes/extending.func.html"
    )


def _refuse_draw() -> None:
    raise error(
        "vmap: called random operation while in randomness error mode. Please either use the "
        "'same' or 'different' randomness flags on vmap or perform the randomness operation "
        "out of vmap"
    )


@contextlib.contextmanager
def _random_draws(randomness: str) -> Iterator[Callable[[], None]]:
    """PyTorch's `randomness` for the run of each element: "error" refuses a draw, "same"
    starts every element from the same generator state (one draw shared by the batch),
    "different" lets the draws follow one another."""
    from .sampling import R

    before = R.DRAW_CHECK
    if randomness == "error":
        R.DRAW_CHECK = _refuse_draw
    state: list[Any] = []
    _GradMode.transforms += 1
    _KINDS.append("vmap")

    def same() -> None:
        gen = R.default_generator()
        if state:
            gen.set_state(state[0])
        else:
            state.append(gen.get_state())

    try:
        yield same if randomness == "same" else _nothing
    finally:
        _GradMode.transforms -= 1
        _KINDS.pop()
        R.DRAW_CHECK = before


def _nothing() -> None:
    pass


def _element(a: Tensor, d: int, i: int | None) -> Tensor:
    """Element i of `a` along dimension d (None: a zero element, for a batch of size 0, whose
    run tells the shapes of the results)."""
    if i is None:
        shape = a.shape[:d] + a.shape[d + 1 :]
        return Tensor(np.zeros(shape, dtype=a.dtype))
    return I.getitem(a, (slice(None),) * d + (i,))


def _check_out_dims(out_dims: Any, name: str) -> None:
    if isinstance(out_dims, int):
        return
    for d in flatten(out_dims)[0]:
        if d is not None and (isinstance(d, bool) or not isinstance(d, int)):
            raise error(
                f"vmap({name}, ..., out_dims={_shown(out_dims)}): `out_dims` must be an int, "
                "None or a python collection of ints representing where in the outputs the "
                "vmapped dimension should appear.",
                "ValueError",
            )


def _stacked(
    results: list[Any], out_dims: Any, name: str, batch: int, level: weakref.WeakSet
) -> Any:
    flat0, spec = flatten(results[0])
    flats = [flat0]
    for r in results[1:]:
        f, s = flatten(r)
        if s != spec:
            raise GradcliError(
                f"vmap({name}, ...): the function returned results of different structures "
                "for different batch elements",
                hint="gradcli runs a vmapped function once per batch element: return the same "
                "structure (the same number of tensors) for every element",
            ).mirror("ValueError")
        flats.append(f)

    def incompatible() -> GradcliError:
        return error(
            f"vmap({name}, ..., out_dims={_shown(out_dims)})(<inputs>): out_dims is not "
            "compatible with the structure of `outputs`. out_dims has structure "
            f"{flatten(out_dims)[1]!r} but outputs has structure {spec!r}.",
            "ValueError",
        )

    if isinstance(results[0], Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            dims: list[Any] | None = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            dims = list(out_dims)
        else:
            raise incompatible()
    else:
        dims = _broadcast(out_dims, spec)
        if dims is None:
            raise incompatible()
    out = []
    for k, d in enumerate(dims):
        items = [f[k] for f in flats]
        first = items[0]
        if d is None:
            # PyTorch's rule: a result that depends on the mapped inputs is batched.
            if any(isinstance(it, Tensor) and it in level for it in items):
                raise error(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim "
                    "is None",
                    "ValueError",
                )
            out.append(first)
            continue
        if not isinstance(first, Tensor) or not all(isinstance(it, Tensor) for it in items):
            bad = next(it for it in items if not isinstance(it, Tensor))
            raise error(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {pytype(bad)}. "
                "Did you mean to set out_dims= to None for output?",
                "ValueError",
            )
        if not -first.ndim - 1 <= d <= first.ndim:
            raise error(
                f"Dimension out of range (expected to be in range of [{-first.ndim - 1}, "
                f"{first.ndim}], but got {d})",
                "IndexError",
            )
        if batch == 0:
            dd = d % (first.ndim + 1)
            out.append(_zeros_shape(first.shape[:dd] + (0,) + first.shape[dd:], first.dtype))
            continue
        stacked = F.stack(items, dim=d)
        # PyTorch's vmap runs the batched function once: its result's grad_fn is that of the
        # function's last operation. gradcli stacks per-element results; when they all end in
        # the same operation, the stack shows that operation's name (its backward is the
        # stack's).
        names = {it.node.name() if it.node is not None else None for it in items}
        if stacked.node is not None and len(names) == 1 and None not in names:
            stacked.node.label = _batched_name(items, names.pop(), first, level)
        out.append(stacked)
    return unflatten(out, spec)


# The grad_fn of a whole-tensor reduction when vmap batches it: PyTorch's batching rule runs
# the reduction over the non-batch dims, whose node has the other name.
_BATCHED_NAMES = {
    "SumBackward0": "SumBackward1",
    "MeanBackward0": "MeanBackward1",
    "ProdBackward0": "ProdBackward1",
    "MaxBackward1": "MaxBackward0",
    "MinBackward1": "MinBackward0",
}


# The grad_fn of a matrix product or a linear layer when vmap batches it (PyTorch 2.13,
# measured): its batching rules decompose the op, and the last node is the decomposition's.
# By the per-element node's name; for a product of two inputs, by which of them are batched.
_BATCHED_PRODUCTS: dict[str, dict[tuple[bool, bool], str]] = {
    # W @ x: the batched right operand is a matrix product then a permute; a batched W, a
    # product then a view; both, a bmm then a squeeze
    "MvBackward0": {
        (False, True): "PermuteBackward0",
        (True, False): "UnsafeViewBackward0",
        (True, True): "SqueezeBackward1",
    },
    "DotBackward0": {
        (True, False): "MvBackward0",
        (False, True): "MvBackward0",
        (True, True): "SqueezeBackward1",
    },
}
# whatever is batched: F.linear / nn.Linear with a bias (and addmm, addmv) are a product plus
# the bias; a 2-d product is viewed back; x @ W of a vector squeezes another dim
_BATCHED_ALWAYS = {
    "AddmmBackward0": "AddBackward0",
    "AddmvBackward0": "AddBackward0",
    "MmBackward0": "UnsafeViewBackward0",
}


_BATCHED_MSE = {"mean": "MeanBackward1", "sum": "SumBackward1", "none": "ViewBackward0"}


def _batched_name(items: list[Tensor], name: str, first: Tensor, level: Any) -> str:
    """The grad_fn name PyTorch's vmap gives the result whose per-element results (`items`,
    all from one kind of node) gradcli stacked."""
    if first.ndim == 0 and name in _BATCHED_NAMES:
        # A whole-tensor reduction of each element is, batched, a reduction over dims.
        return _BATCHED_NAMES[name]
    node = items[0].node
    if name in _BATCHED_ALWAYS:
        return _BATCHED_ALWAYS[name]
    source = node.inputs[0].node if node.inputs else None
    source_name = source.name() if source is not None else None
    if name == "ViewBackward0" and source_name == "AddmmBackward0":
        return "AddBackward0"  # F.linear of a vector with a bias
    if name == "SqueezeBackward4" and node.op.name == "matmul":
        return "SqueezeBackward5"  # a vector times a matrix (F.linear without a bias)
    if name == "MseLossBackward0":
        # batched, mse_loss is its decomposition: the mean (sum) over the element's dims
        return _BATCHED_MSE.get(node.params.get("reduction", "mean"), name)
    table = _BATCHED_PRODUCTS.get(name)
    if table is not None and len(node.inputs) == 2:
        key = (node.inputs[0] in level, node.inputs[1] in level)  # (BatchedTensors)
        return table.get(key, name)
    return name


# --- functional_call ------------------------------------------------------------------------


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: Any = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """`torch.func.functional_call(module, params, args)`: the module called with the given
    tensors in place of its parameters (by their dotted names), its own restored after."""
    from .nn import Module

    if not isinstance(module, Module):
        raise error(f"functional_call expects an nn.Module, got {pytype(module)}", "TypeError")
    dicts = (
        tuple(parameter_and_buffer_dicts)
        if isinstance(parameter_and_buffer_dicts, (tuple, list))
        else (parameter_and_buffer_dicts,)
    )
    merged: dict[str, Any] = {}
    for d in dicts:
        if not isinstance(d, dict):
            raise error(
                f"Expected all elements of parameter_and_buffer_dicts to be dictionaries, got "
                f"{pytype(d)}",
                "ValueError",
            )
        twice = [k for k in d if k in merged]
        if twice:
            raise error(
                f"{twice!r} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous",
                "ValueError",
            )
        merged.update(d)
    if tie_weights:
        merged = _untie_named_tensors(module, merged)
    for key, value in merged.items():
        if value is not None and not isinstance(value, Tensor):
            raise error(
                f"functional_call: the value for {key!r} must be a Tensor, got {pytype(value)}",
                "TypeError",
            )
    if strict:
        names = _all_named_tensors(module)
        unexpected = [k for k in merged if k not in names]
        missing = sorted(k for k in names if k not in merged)
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, sorted(unexpected)))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise error(f"Error(s) in reparametrizing for {module.name}:\n\t" + "\n\t".join(msgs))
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    # Swapped in and back one name at a time, as PyTorch's accessor does (a module reached by
    # two paths keeps the value given for the second path, as PyTorch's does); a name that is
    # no parameter or buffer is a plain attribute of its module while the call runs.
    saved: list[tuple[str, Any]] = []
    try:
        for key, value in merged.items():
            saved.append((key, _swap_tensor(module, key, value)))
    except BaseException:
        for key, old in saved:
            _swap_tensor(module, key, old)
        raise
    try:
        return module(*args, **(kwargs or {}))
    finally:
        now = {key: _swap_tensor(module, key, old) for key, old in saved}
        # A module that reassigned a parameter or buffer during the call (`self.n = self.n
        # + 1`): PyTorch writes the module's new tensors back into the dict it was given (one
        # dict only: a sequence of dicts is merged into a copy first).
        if isinstance(parameter_and_buffer_dicts, dict):
            for key in list(parameter_and_buffer_dicts):
                if key in now and now[key] is not _MISSING:
                    parameter_and_buffer_dicts[key] = now[key]


_MISSING = object()  # (an attribute the module did not have before functional_call)


def _submodule(module: Any, path: str) -> Any:
    """The module at a dotted `path` of submodule names, as PyTorch's accessor finds it."""
    from .nn import Module
    from .printing import tensor_repr

    m = module
    walked = []
    for part in path.split(".") if path else ():
        walked.append(part)
        child = m._modules.get(part)
        if isinstance(child, Module):
            m = child
            continue
        value = m._parameters.get(part, m._buffers.get(part, m.__dict__.get("_attr_" + part)))
        if value is None:
            raise error(f"{m.name} has no attribute `{part}`", "AttributeError")
        shown = tensor_repr(value) if isinstance(value, Tensor) else _plain_str(value)
        raise error(
            f"submodule `{'.'.join(walked)}`: {shown} is not an instance of torch.nn.Module",
            "TypeError",
        )
    return m


def _plain_str(value: Any) -> str:
    """Python's str of a plain attribute's value (a number, a string, a bool, a module), else
    its type."""
    from .nn import Module

    if isinstance(value, (bool, int, float, str, Module)):
        return str(value)
    return f"<{pytype(value)}>"


def _class_attribute(owner: Any, name: str) -> bool:
    """Whether the module's class has `name` (a method, a class attribute, Python's own
    `__class__`): PyTorch's functional_call finds it and refuses to swap it for a tensor."""
    if name.startswith("__") or name in owner.METHODS or name in owner.ATTRIBUTES:
        return True
    cls = getattr(owner, "cls", None)
    lookup = getattr(cls, "lookup", None)
    return lookup is not None and lookup(name) is not None


def _swap_tensor(module: Any, key: str, value: Any) -> Any:
    """PyTorch's NamedMemberAccessor.swap_tensor: `value` in place of the parameter, buffer or
    plain tensor attribute named `key` (a dotted name), which it returns (`_MISSING`: the
    module had no such attribute; given back, the attribute is removed)."""
    prefix, _, leaf = key.rpartition(".")
    owner = _submodule(module, prefix)
    if leaf == "":
        raise error('tensor name can\'t be empty string ""', "KeyError")
    for table in (owner._parameters, owner._buffers):
        if leaf in table:
            old = table[leaf]
            if value is _MISSING:
                del table[leaf]
            else:
                table[leaf] = value
            return old
    attr = "_attr_" + leaf
    old = owner.__dict__.get(attr, _MISSING)
    if old is _MISSING:
        # a submodule, or a setting of the module (`training`, `in_features`)
        old = owner._modules.get(leaf, owner.__dict__.get(leaf, _MISSING))
    if old is _MISSING and _class_attribute(owner, leaf):
        raise error(
            f"attribute `{leaf}`: <{leaf} of {owner.name}> is not an instance of torch.Tensor",
            "TypeError",
        )
    if old is not _MISSING and old is not None and not isinstance(old, Tensor):
        raise error(
            f"attribute `{leaf}`: {_plain_str(old)} is not an instance of torch.Tensor",
            "TypeError",
        )
    if value is _MISSING:
        owner.__dict__.pop(attr, None)
    else:
        owner.__dict__[attr] = value
    return old


def _all_named_tensors(module: Any) -> dict[str, Any]:
    """Every parameter and buffer of `module` by every dotted name reaching it (a tied weight
    under each of its names), as PyTorch's `named_parameters(remove_duplicate=False)`."""
    out: dict[str, Any] = dict(module.named_parameters(remove_duplicate=False))
    out.update(module.named_buffers(remove_duplicate=False))
    return out


def _untie_named_tensors(module: Any, given: dict[str, Any]) -> dict[str, Any]:
    """PyTorch's `_untie_named_tensors_map` (functional_call's tie_weights=True): a value given
    for one name of a tied tensor is given for all its names; different values for two names
    of one tied tensor are a ValueError."""
    groups: dict[int, set[str]] = {}
    for name, t in _all_named_tensors(module).items():
        limits.BUDGET.tick()
        groups.setdefault(id(t), set()).add(name)
    tied = {n: g for g in groups.values() if len(g) > 1 for n in g}
    given_tied = [n for n in given if n in tied]
    for name in given_tied:
        names = tied[name]
        if len(names.intersection(given_tied)) > 1:
            values = set()
            for n in sorted(names):
                if n not in given:
                    raise error(repr(n), "KeyError")
                values.add(id(given[n]))
            if len(values) != 1:
                raise error(
                    f"functional_call got multiple values for keys {sorted(names)}, which are "
                    "tied. Consider using tie_weights=False",
                    "ValueError",
                )
    out = dict(given)
    for name in given_tied:
        for n in sorted(tied[name]):
            out[n] = given[name]
    return out


# --- replace_all_batch_norm_modules_ ------------------------------------------------------------


def replace_all_batch_norm_modules_(root: Any) -> Any:
    """`torch.func.replace_all_batch_norm_modules_(root)`: every BatchNorm of `root` (itself
    included; InstanceNorm is not one) that tracks running statistics stops: its running_mean,
    running_var and num_batches_tracked become None and track_running_stats False, in place,
    as PyTorch's (so vmap over the module computes batch statistics)."""
    from ..core.tensor import typename
    from .layers import _BatchNorm, _InstanceNorm

    if not isinstance(root, Module):
        raise GradcliError(f"'{typename(root)}' object has no attribute 'modules'").mirror(
            "AttributeError"
        )
    for m in root.module_list():
        limits.BUDGET.tick()
        if isinstance(m, _BatchNorm) and not isinstance(m, _InstanceNorm):
            if m.track_running_stats:
                for name in ("running_mean", "running_var", "num_batches_tracked"):
                    m._buffers[name] = None
                m.track_running_stats = False
    return root


# --- stack_module_state -------------------------------------------------------------------------


def stack_module_state(models: Any) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """`torch.func.stack_module_state(models)`: the parameters (and buffers) of M modules of
    one class stacked along a new first dimension, by their dotted names: the ensemble that
    `vmap` over `functional_call` runs (PyTorch's "model ensembling" tutorial). A stacked
    parameter is a new leaf requiring grad (an optimizer can take it), unrelated to the
    modules' own; one that no model's requires grad is a plain stack."""
    ms = check_ensemble(models, "stack_module_state")

    def stacked(tables: list[dict[str, Tensor]]) -> dict[str, Tensor]:
        out: dict[str, Tensor] = {}
        for name in tables[0]:
            ts = []
            for table in tables:
                limits.BUDGET.tick()
                if name not in table:  # PyTorch's KeyError: a model lacks the name
                    raise error(f"'{name}'", "KeyError")
                ts.append(table[name])
            flags = {bool(t.requires_grad) for t in ts}
            if len(flags) != 1:
                raise error(f"Expected {name} from each model to have the same .requires_grad")
            with grad_mode(False):
                result = F.stack(ts)
            if flags == {True}:
                result.requires_grad_()
            out[name] = result
        return out

    def tables(named: str) -> list[dict[str, Tensor]]:
        out = []
        for m in ms:
            limits.BUDGET.tick()
            out.append(dict(getattr(m, named)()))
        return out

    params = stacked(tables("named_parameters"))
    buffers = stacked(tables("named_buffers"))
    return params, buffers


# --- functorch's make_functional --------------------------------------------------------------


def _class_of(m: Any) -> tuple:
    """A module's class: a program's nn.Module subclass is its class (`cls`), a built-in
    module its name."""
    return (type(m), m.name, id(getattr(m, "cls", None)))


class FunctionalModule(Module):
    """functorch's make_functional result: `fmodel(params, *args)` calls its own copy of the
    model (`stateless_model`) with the given tensors in place of its parameters, by position
    (as PyTorch's, the shorter of the names and the tensors given)."""

    ATTRIBUTES = ("training", "param_names")

    def __init__(self, stateless_model: Any, param_names: tuple, buffer_names: tuple = ()):
        """`param_names`: the names of each distinct parameter (several where tied)."""
        super().__init__()
        self._modules["stateless_model"] = stateless_model
        self._names = param_names
        self._buffer_names = buffer_names
        self.param_names = tuple(n[0] for n in param_names)
        self.buffer_names = tuple(n[0] for n in buffer_names)

    def _call(self, given: list[tuple[tuple, Any]], args: tuple, kwargs: dict) -> Any:
        tensors: dict[str, Any] = {}
        for names, values in given:
            if isinstance(values, Tensor) or not isinstance(values, (tuple, list)):
                raise error(f"'{pytype_name(values)}' object is not iterable", "TypeError")
            for tied, value in zip(names, values):
                limits.BUDGET.tick()
                if not isinstance(value, Tensor):
                    shown = repr(value) if isinstance(value, (int, float, bool)) else "value"
                    raise error(f"{shown} is not an instance of torch.Tensor", "TypeError")
                for name in tied:  # every name of a tied parameter gets the tensor
                    tensors[name] = value
        return functional_call(self._modules["stateless_model"], tensors, args, kwargs)

    def forward(self, params: Any, *args: Any, **kwargs: Any) -> Any:
        return self._call([(self._names, params)], args, kwargs)


class FunctionalModuleWithBuffers(FunctionalModule):
    """make_functional_with_buffers's: `fmodel(params, buffers, *args)`."""

    ATTRIBUTES = ("training", "param_names", "buffer_names")

    def forward(self, params: Any, buffers: Any, *args: Any, **kwargs: Any) -> Any:
        given = [(self._names, params), (self._buffer_names, buffers)]
        return self._call(given, args, kwargs)


def _tied(named: list[tuple[str, Tensor]]) -> list[tuple[tuple[str, ...], Tensor]]:
    """(names, tensor) for each distinct tensor, in first-name order: a tensor shared by two
    modules (tied weights) is one entry with both names."""
    by_id: dict[int, tuple[list[str], Tensor]] = {}
    for name, t in named:
        limits.BUDGET.tick()
        by_id.setdefault(id(t), ([], t))[0].append(name)
    return [(tuple(names), t) for names, t in by_id.values()]


def make_functional(copy: Any, disable_autograd_tracking: Any, buffers: bool) -> tuple:
    """functorch's make_functional(_with_buffers) of `copy`, the model's deep copy (the
    interpreter's, as PyTorch copies the model): (fmodel, params) or (fmodel, params, buffers),
    params the copy's own parameters (new leaves, as PyTorch's), one for each distinct tensor
    in `named_parameters()` order."""

    if not isinstance(copy, Module):
        what = "named_parameters" if buffers else "buffers"
        raise error(f"'{pytype_name(copy)}' object has no attribute '{what}'", "AttributeError")
    named_params = _tied(copy.named_parameters(remove_duplicate=False))
    if not buffers and any(True for _ in copy.named_buffers()):
        raise error(
            "make_functional(model): `model` has buffers. Please use "
            "make_functional_with_buffers(model) instead.",
            "RuntimeError",
        )
    params = tuple(p for _, p in named_params)
    if disable_autograd_tracking:
        for p in params:
            p.requires_grad_(False)
    if not buffers:
        return FunctionalModule(copy, tuple(n for n, _ in named_params)), params
    named_buffers = _tied(copy.named_buffers(remove_duplicate=False))
    fmodel = FunctionalModuleWithBuffers(
        copy, tuple(n for n, _ in named_params), tuple(n for n, _ in named_buffers)
    )
    return fmodel, params, tuple(b for _, b in named_buffers)


def check_ensemble(models: Any, fn: str = "combine_state_for_ensemble") -> list:
    """The models of an ensemble (stack_module_state, functorch's combine_state_for_ensemble)
    as a list, checked in PyTorch's words: at least one, all modules, one training mode, one
    class."""
    from .nn import Module, ModuleList

    if isinstance(models, ModuleList):
        ms = list(models._modules.values())
    elif isinstance(models, (list, tuple)):
        ms = list(models)
    else:
        shown = models.name if isinstance(models, Module) else pytype_name(models)
        raise error(f"object of type '{shown}' has no len()", "TypeError")
    if not ms:
        raise error(f"{fn}: Expected at least one model, got 0.")
    for m in ms:
        limits.BUDGET.tick()
        if not isinstance(m, Module):
            raise error(f"'{pytype_name(m)}' object has no attribute 'training'", "AttributeError")
    if len({bool(m.training) for m in ms}) != 1:
        raise error(f"{fn}: Expected all models to have the same training/eval mode.")
    if len({_class_of(m) for m in ms}) != 1:
        raise error(f"{fn}: Expected all models to be of the same class.")
    return ms


def stack_shards(tables: list[tuple]) -> tuple:
    """combine_state_for_ensemble's stacking: the i-th tensor of every model stacked along a
    new first dimension, detached (plain tensors, as PyTorch's)."""
    out = []
    for shards in zip(*tables):
        limits.BUDGET.tick()
        with grad_mode(False):
            out.append(F.stack(list(shards)).detach())
    return tuple(out)


from ..core import inplace as _inplace  # noqa: E402
from . import printing as _printing  # noqa: E402  (the hook it reads: no cycle at import)

_printing.TRACKED[0] = tracked_level
_printing.TRACKED_LEVELS[0] = tracked_levels
_printing.TRACKED_INNER[0] = tracked_inner
_inplace.CAPTURE_CHECK = _check_capture
