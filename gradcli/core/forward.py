"""Forward mode: tangents carried through the recorded graph, node by node.

An op's `jvp` rule is used where it has one; an elementwise op's VJP is its JVP (its Jacobian
is diagonal); any other op is transposed: a VJP is linear in its upstream gradient `g`, so the
JVP is d<vjp(g), v>/dg, taken by recording the op's VJP and running it backward. Tangents
carry `nb` leading batch axes (one tangent per batch element).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..base.errors import NotSupported
from . import dtypes as D
from . import primitives as P
from .autograd import check_versions, run_backward, unbroadcast
from .graph import all_off
from .op import Node, Op, apply, producer
from .tensor import Tensor, _GradMode, as_tensor, carry_batched, enable_grad, no_grad


def broadcast_tangent(
    d: Tensor,
    inp_shape: tuple[int, ...],
    out_shape: tuple[int, ...],
    nb: int,
    attached: bool = False,
) -> Tensor:
    lead = d.shape[:nb]
    shape = lead + (1,) * (len(out_shape) - len(inp_shape)) + inp_shape
    if attached:
        if d.shape == lead + out_shape:
            return d
        if d.shape != shape:
            d = apply(P.reshape, d, shape=shape)
        return apply(P.expand, d, shape=lead + out_shape)
    return _like(d, np.broadcast_to(d.data.reshape(shape), lead + out_shape))


class Equation:
    """An op applied to inputs, as `jvp` reads a `Node` (for an op not recorded: `core.dual`
    computes the tangent of an op as it runs, recorded or not)."""

    __slots__ = ("op", "inputs", "params", "out")

    def __init__(self, op: Any, inputs: tuple, params: dict, out: Tensor) -> None:
        self.op, self.inputs, self.params, self.out = op, inputs, params, out


def _marked(t: Tensor, flag: bool, attached: bool, made: list[Tensor]) -> Tensor:
    """The input a rule sees: a detached copy that requires grad when its gradient is wanted;
    attached, the input itself when it requires grad (a copy made to require grad is kept in
    `made`, to be unmarked once the rule ran)."""
    if attached and t.requires_grad:
        return t
    c = Tensor(t.data, requires_grad=flag)
    if attached and flag:
        made.append(c)
    if _GradMode.vmapped:
        carry_batched((t,), c)
    return c


def _value(t: Tensor) -> Tensor:
    """t's value outside the graph (batched inside vmap where t is)."""
    return _like(t, t.data)


# unary elementwise records whose derivative is a constant (it reads no primal value)
_LINEAR_UNARY = frozenset({"neg", "positive", "clone", "conj", "real", "to_dtype", "cast"})


def _reads_primal(node: Any) -> bool:
    return len(node.inputs) == 1 and node.op.name not in _LINEAR_UNARY


def _like(t: Tensor, data: np.ndarray) -> Tensor:
    """A tensor of `data` computed from t: inside vmap, batched where t is (PyTorch's
    BatchedTensor: what depends on a mapped input stays batched)."""
    c = Tensor(data)
    if _GradMode.vmapped:
        carry_batched((t,), c)
    return c


def jvp(
    node: Node | Equation, dots: list[Tensor | None], nb: int, attached: bool = False
) -> Tensor | None:
    """The tangent of `node.out` (with `nb` leading batch axes) from its inputs' tangents."""
    op = node.op
    out = node.out
    if op.complex is not None and (
        out.data.dtype.kind == "c" or any(t.data.dtype.kind == "c" for t in node.inputs)
    ):
        # (the rules' complex convention is reverse mode's: conj(rule(conj(g))))
        raise NotSupported(
            "forward-mode differentiation of complex tensors is not supported yet",
            hint="use reverse mode: backward() or torch.autograd.grad",
        )
    if (
        attached
        and nb == 0
        and op.jvp_terms
        and not _GradMode.vmapped
        and _linear(op)
        and any(d is not None and d.requires_grad for d in dots)
    ):
        return _applied(node, dots)
    if op.jvp is not None:
        res = op.jvp(tuple(dots), out, *node.inputs, **node.params)
        if res is not NotImplemented:  # (a rule for some cases only: the general way else)
            if res is not None and op.jvp_terms and attached:
                res = zero_terms(node, dots, nb, as_tensor(res, like=out))
            return None if res is None else as_tensor(res, like=out)
    if op.jvp_zeros:
        dots = _zero_tangents(node, dots, nb)
    user = getattr(node.params.get("_vjp"), "user_jvp", None) if op.kind == "custom" else None
    if user is not None and not attached:
        return _user_jvp(node, dots, nb, user)
    if op.kind in ("elementwise", "binary"):
        # An elementwise op's Jacobian is diagonal (up to broadcasting): its VJP with the
        # tangent as upstream gradient is the JVP.
        total: Tensor | None = None
        made: list[Tensor] = []
        for i, d in enumerate(dots):
            if d is None:
                continue
            g = broadcast_tangent(d, node.inputs[i].shape, out.shape, nb, attached)
            ins = [_marked(t, j == i, attached, made) for j, t in enumerate(node.inputs)]
            gi = op.vjp(g, out if attached else _value(out), *ins, **node.params)[i]
            for c in made:
                c.requires_grad = False
            if gi is None:
                continue
            gi = as_tensor(gi, like=out)
            if _GradMode.vmapped:
                # batched where the tangent is, and, for a unary op that is not linear (its
                # derivative reads its input or result), where the primal is
                carry_batched((d, *node.inputs, out) if _reads_primal(node) else (d,), gi)
            if gi.shape != g.shape:
                gi = broadcast_tangent(gi, gi.shape, g.shape, 0, attached)
            total = gi if total is None else apply(P.add, total, gi)
        if total is not None and op.jvp_terms and attached:
            total = zero_terms(node, dots, nb, total)
        return total
    return transposed_jvp(node, dots, nb, attached)


# --- PyTorch's ZeroTensor terms ---------------------------------------------------------------
# PyTorch's generated forward formulas take an input without a tangent as a ZeroTensor
# (`_efficientzerotensor`): its term (`other_t * self_p`) is a ZeroTensor whose value adds
# nothing, but the product is recorded when `self_p` requires grad, so the tangent has that
# grad history: `make_dual(x, v) * 2` with x requiring grad has the tangent
# `0 * x + v * 2` (AddBackward0), and its backward gives x.grad zeros. gradcli records such a
# term as one node (the name of PyTorch's product) of the values it reads, whose value is -0.
# (x + -0. is x, for every x: the sum is the other terms' exactly) and whose gradient is a
# ZeroTensor (`core.autograd`: +0., or nothing added where another gradient arrives).


def _zero_fwd(*xs: np.ndarray, shape: tuple, dtype: Any, sign: float) -> np.ndarray:
    return np.full(shape, sign * 0.0, dtype)


def _zero_vjp(g: Tensor, out: Tensor, *xs: Tensor, **params: Any) -> tuple:
    lead = g.shape[: g.ndim - out.ndim]
    return tuple(Tensor(np.zeros(lead + x.shape, x.data.dtype)) for x in xs)


ZERO_TERM = Op(
    "zero_term",
    _zero_fwd,
    _zero_vjp,
    "MulBackward0",
    "0",
    kind="linalg",
    saves=False,
    jvp=lambda dots, out, *xs, **params: None,
)


def zero_term(reads: Sequence[Tensor], shape: tuple, dtype: Any, label: str, sign: float = -1.0):
    """The ZeroTensor term of a forward formula that multiplies `reads` (recorded, as `label`,
    when grad mode is on and one requires grad): -0. (`sign` -1) to be added, +0. to be
    subtracted (x - +0. is x)."""
    dtype = np.dtype(dtype)
    reads = [t for t in reads if t.requires_grad and t.data.dtype in (_F32, _F64)]
    if not (_GradMode.enabled and reads) or dtype not in (_F32, _F64):
        return Tensor(np.full(shape, sign * 0.0, dtype))
    return apply(ZERO_TERM, *reads, label=label, shape=shape, dtype=dtype, sign=sign)


def _linear(op: Op) -> bool:
    """Whether PyTorch's forward formula of `op` is the op itself applied to the tangents
    (auto_linear: sum, mean, indexing; add and sub): its terms read no value."""
    return not any(reads for _, reads in op.jvp_terms)


def _applied(node: Node | Equation, dots: list[Tensor | None]) -> Tensor | None:
    """A linear op's tangent, recorded (grad mode on, no batch axes), as PyTorch computes it:
    the op applied to the tangents, a ZeroTensor for a missing one (-0., or +0. subtracted: the
    result is the others' exactly), so the tangent's node is the op's (SubBackward0,
    SumBackward1, SelectBackward0...) even where its value is another tangent's."""
    op, ins = node.op, node.inputs
    dt = next(d.data.dtype for d in dots if d is not None)
    args = [
        d
        if d is not None
        else Tensor(np.full(t.shape, 0.0 if (op.name, i) == ("sub", 1) else -0.0, dt))
        for i, (t, d) in enumerate(zip(ins, dots))
    ]
    out = node.out
    label = out.node.name() if out.node is not None else None
    return apply(op, *args, label=label, **node.params)


def zero_terms(node: Node | Equation, dots: list[Tensor | None], nb: int, d: Tensor) -> Tensor:
    """The tangent `d` (the sum of the terms of the inputs with a tangent) with PyTorch's
    ZeroTensor terms of the others (`Op.jvp_terms`), recorded where they carry grad history:
    the same values, the grad history PyTorch's tangent has."""
    terms = node.op.jvp_terms
    ins = node.inputs
    terms = tuple(term for term in terms if term[0] < len(ins))  # (einsum of one operand)
    first = min((k for k, (i, _) in enumerate(terms) if dots[i] is not None), default=0)
    out = node.out
    label = out.node.name() if out.node is not None else node.op.torch_name
    # matmul's last step after its product (`x @ w` of a 3-d x folded into mm, then viewed;
    # a vector times a matrix squeezed; a matrix times a batch made contiguous): PyTorch's
    # tangent is the product's, then that step, which is the tangent's node
    # (einsum's: its products are bmm's, then its result's view or permutation)
    einsum = node.op.name == "einsum"
    view = label if label in _AFTER_PRODUCT or einsum else None
    if view:
        label = "BmmBackward0" if einsum else "MmBackward0"
    shape = dots_shape(dots, nb) + out.shape
    for k, (i, reads) in enumerate(terms):
        if dots[i] is not None or i in node.op.nondiff or ins[i].data.dtype.kind != "f":
            continue
        values = [ins[j] for j in reads if j < len(ins)]
        if not (d.requires_grad or any(t.requires_grad for t in values)):
            continue
        z = zero_term(values, shape, d.data.dtype, label)
        d = apply(P.add, z, d) if k < first else apply(P.add, d, z)
    if view and d.requires_grad and (d.node is None or d.node.name() != view):
        d = apply(P.reshape, d, shape=d.shape, label=view)
    return d


_AFTER_PRODUCT = frozenset({"UnsafeViewBackward0", "SqueezeBackward4", "CloneBackward0"})


def _zero_tangents(node: Node | Equation, dots: list[Tensor | None], nb: int) -> list:
    """The tangents with zeros for the inputs whose missing tangent PyTorch's formula
    materializes (`Op.jvp_zeros`): their terms, of a zero tangent, are then added too."""
    lead = dots_shape(dots, nb)
    out = node.out
    return [
        _like(out, np.zeros(lead + t.shape, out.data.dtype))
        if d is None and i in node.op.jvp_zeros and t.data.dtype.kind == "f"
        else d
        for i, (t, d) in enumerate(zip(node.inputs, dots))
    ]


def _user_jvp(node: Node | Equation, dots: list[Tensor | None], nb: int, user: Any) -> Tensor:
    """A program's autograd.Function with a jvp staticmethod (torch.func.jvp, jacfwd): its
    output's tangent is what the jvp returns, as in PyTorch, given each input's tangent (zeros
    for an input without one); batched tangents (`nb` axes) one batch element at a time."""
    if nb:
        lead = next(d.shape[:nb] for d in dots if d is not None)
        per = [
            _user_jvp(node, [None if d is None else Tensor(d.data[i]) for d in dots], 0, user)
            for i in np.ndindex(*lead)
        ]
        data = np.stack([np.asarray(t.data) for t in per]).reshape(lead + node.out.shape)
        return Tensor(data)
    tangents = [
        d if d is not None else Tensor(np.zeros(t.shape, t.dtype))
        for t, d in zip(node.inputs, dots)
    ]
    with no_grad():
        got = user(tangents)
    return as_tensor(got, like=node.out)


def transposed_jvp(
    node: Node | Equation, dots: list[Tensor | None], nb: int, attached: bool = False
) -> Tensor | None:
    """JVP = d<vjp(g), v>/dg: record the op's VJP as a function of `g`, then run it backward
    with the tangents as upstream gradients (`attached`: recording that pass too)."""
    op, out = node.op, node.out
    gsym = Tensor(np.zeros(out.shape, dtype=out.dtype), requires_grad=True)
    made: list[Tensor] = []
    ins = [_marked(t, d is not None, attached, made) for t, d in zip(node.inputs, dots)]
    custom = op.kind == "custom"
    with contextlib.ExitStack() as stack:
        if custom:
            # A user's backward may use the forward tensors themselves: keep it off their graph.
            stack.enter_context(all_off(node))
            ins = list(node.inputs)
        with enable_grad():
            was, _GradMode.transposing = _GradMode.transposing, True
            try:
                gs = op.vjp(
                    gsym, _value(out) if not (custom or attached) else out, *ins, **node.params
                )
            finally:
                _GradMode.transposing = was
            roots, rgs = [], []
            for t, gi, d in zip(ins, gs, dots):
                if d is None or gi is None:
                    continue
                gi = unbroadcast(as_tensor(gi, like=t), t.shape, 0)
                if gi.requires_grad:
                    roots.append(gi)
                    rgs.append(d)
        for t in made if attached else ins:
            if not custom:
                t.requires_grad = False
        if not roots:
            return None
        got = run_backward(
            roots, rgs, nb=nb, capture=[gsym], check_freed=False, create_graph=attached
        )
    return got[id(gsym)][1] if id(gsym) in got else None


# A tangent's dtype is the one PyTorch's formula gives it by type promotion, which can differ
# from its primal's. PyTorch's functorch transforms (torch.func.jvp, jacfwd, hessian's outer
# jacfwd: `push(..., wrapped=True)`) take a Python float operand of add, sub, mul or div (its
# "wrapped number", a 0-d float64 tensor) as an ordinary 0-d float64 tensor in the op's tangent
# formula (`self_t * other`, `self_t + other_t`): a 0-d float32 tangent (`t[1] * 3.0`,
# `t.sum() * 0.5`) becomes float64, one with dimensions keeps its dtype (a 0-d operand does
# not promote a dimensioned one of its category), and the primal is unchanged.
# torch.autograd.forward_ad and functional.jacobian keep the number wrapped (no change).
# `3.0 - t` (rsub, whose formula reads no `other`), `t ** 2.0`, and an int operand keep the
# tangent's dtype. A promoted tangent then meets the other tangents and primals of the ops
# after it by the same promotion.
_WRAPPED_FLOAT = "<wrapped float>"  # (core.saved.WRAPPED[float])
_TAKES_WRAPPED: dict[str, tuple[int, ...]] = {
    "add": (0, 1),
    "mul": (0, 1),
    "sub": (1,),
    "div": (1,),
}
_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)
# records whose tangent's dtype is their result's (a cast), left to their rule
_CASTS = frozenset({"astype", "to_dtype", "cast"})


def _promoted(
    node: Node, dots: list[Tensor | None], wrapped: bool
) -> tuple[Node | Equation, list[Tensor | None], np.dtype | None]:
    """`node` and `dots` as the tangent rule is to take them, and the dtype of the tangent by
    PyTorch's promotion (None: the rule's own, nothing promoted)."""
    ins = node.inputs
    spots = _TAKES_WRAPPED.get(node.op.name, ()) if wrapped else ()
    parts: list[tuple[np.dtype, int | None]] = []
    promote = False
    numbers: list[int] = []
    for i, (t, d) in enumerate(zip(ins, dots)):
        kind = t.data.dtype.kind
        if d is not None:
            parts.append((d.data.dtype, t.ndim))
            promote = promote or d.data.dtype != t.data.dtype
        if kind not in "fc":
            continue
        if i in spots and t.name == _WRAPPED_FLOAT and D.is_program_float(t):
            numbers.append(i)
            parts.append((_F64, 0))
        else:
            parts.append((t.data.dtype, t.ndim))
    if not (promote or numbers) or node.op.name in _CASTS:
        return node, dots, None
    dt = D.result_type(parts, _F64)
    new = [d if d is None or d.data.dtype == dt else _like(d, d.data.astype(dt)) for d in dots]
    if not numbers:
        return node, new, dt
    inputs = list(ins)
    for i in numbers:
        # (its value as the primal took it: PyTorch's tangent of `t * 0.1` is 0.1 in float32,
        # then float64)
        inputs[i] = Tensor(ins[i].data.astype(dt))
    return Equation(node.op, tuple(inputs), node.params, node.out), new, dt


def push(
    path: Sequence[Node],
    tangent: dict[int, Tensor],
    nb: int,
    skip: Iterable[int] = (),
    wrapped: bool = False,
    attached: bool = False,
) -> dict[int, Tensor]:
    """Carry `tangent` (tensor id -> its tangent, `nb` batch axes) through the nodes of `path`
    in order (except those whose seq is in `skip`), adding each output's tangent; returns
    `tangent`. `wrapped`: as PyTorch's functorch transforms, which take a Python float operand
    as a float64 tensor in a tangent's formula (`_promoted`). `attached`: the tangents'
    computations recorded (differentiable again, as torch.func's jacfwd inside another
    transform)."""
    global functorch
    outer, functorch = functorch, wrapped
    try:
        return _push(path, tangent, nb, skip, attached)
    finally:
        functorch = outer


# Whether the tangents now pushed are a functorch transform's (torch.func.jvp, jacfwd): its
# wrapped tensors take the out-of-place branches of PyTorch's manual forward formulas
# (`areAnyTensorSubclassLike`), which multiply in another order than forward_ad's in-place ones.
functorch = False


def _push(
    path: Sequence[Node], tangent: dict[int, Tensor], nb: int, skip: Iterable[int], attached: bool
) -> dict[int, Tensor]:
    wrapped = functorch
    skipped = set(skip)
    # The tangents of node outputs also by node: a tensor changed in place has one tangent per
    # version (each computed by its own node), its id only the latest one's.
    by_node: dict[Node, Tensor] = {
        n: tangent[id(n.out)] for n in path if n.seq in skipped and id(n.out) in tangent
    }
    with enable_grad() if attached else no_grad(), np.errstate(all="ignore"):
        for node in path:
            if node.seq in skipped:
                continue
            dots = [
                _tangent_of(t, node, tangent, by_node)
                if i not in node.op.nondiff and t.requires_grad
                else None
                for i, t in enumerate(node.inputs)
            ]
            if all(d is None for d in dots):
                continue
            check_versions(node)  # a value changed in place since: refused, as backward does
            eq, dots, dt = _promoted(node, dots, wrapped)
            if attached and dt is not None and dt != node.out.data.dtype:
                raise NotSupported("a promoted tangent recorded")  # (the caller falls back)
            d = jvp(eq, dots, nb, attached)
            if d is None:
                continue
            if dt is not None and d.data.dtype != dt:
                d = _like(d, d.data.astype(dt))
            out = node.out
            k = id(out)
            want = dots_shape(dots, nb) + out.shape
            if d.shape != want:
                d = (
                    apply(P.expand, d, shape=want)
                    if attached
                    else _like(d, np.broadcast_to(d.data, want))
                )
            if out.node is not node:
                by_node[node] = d  # an old version: the id is the latest version's
                continue
            if node.prev is not None or k not in tangent:
                tangent[k] = d  # (a change in place replaces the old version's tangent)
            else:
                tangent[k] = apply(P.add, tangent[k], d)  # a seeded target it depends on
            by_node[node] = tangent[k]
    return tangent


def _tangent_of(
    t: Tensor, node: Node, tangent: dict[int, Tensor], by_node: dict[Node, Tensor]
) -> Tensor | None:
    """The tangent of the version of `t` that `node` used."""
    p = t.node
    if p is None:
        return tangent.get(id(t))
    if p.seq >= node.seq:  # changed in place after node used it
        p = producer(t, node.seq)
        if p is None:
            return None
    d = by_node.get(p)
    if d is not None:
        return d
    # Not computed on the path: a seeded target (by id), unless `t` is an old version.
    return tangent.get(id(t)) if p is t.node else None


def dots_shape(dots: Sequence[Tensor | None], nb: int) -> tuple[int, ...]:
    """The batch axes of the tangents (the first one given)."""
    return next(d.shape[:nb] for d in dots if d is not None)
