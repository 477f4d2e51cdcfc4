"""Reverse mode: undoing broadcasting, one backward pass over the recorded graph, and
`torch.autograd.backward` / `torch.autograd.grad` over it.

Backward collects the nodes an output depends on (`graph.ancestors`), walks them in reverse
creation order, and keeps the gradients of one pass in a dict of its own. VJP rules are
written with the engine's own operations, so with `create_graph=True` the gradient is itself
recorded and can be differentiated again; with it off, rules run with recording switched off.
Rules also accept an upstream gradient with leading batch axes (`nb` of them), which is how
one pass computes many VJPs at once.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Sequence
from operator import is_not
from sys import getrefcount
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from . import dtypes, hooks
from . import primitives as P
from .graph import ancestors
from .op import (
    HOOKED,
    PACKED_OUTPUTS,
    REGISTRY,
    SAVED_COPIES,
    SAVED_COPIES_CHECK,
    Node,
    apply,
    current,
    live_accumulator,
    producer,
)
from .sparse import SparseCOO, add_rows
from .sparse import add as sparse_add
from .sparse import refused as sparse_refusal
from .tensor import (
    GRAD_DTYPES,
    LATE_LEAVES,
    LEAF_HOOKS,
    META,
    MUTATIONS,
    NOGRAD_VIEWS,
    LevelHook,
    PostAccumulateHook,
    Tensor,
    _GradMode,
    as_tensor,
    bumped,
    enable_grad,
    in_pass,
    no_edge,
    no_grad,
    own,
    pytype_name,
    typename,
    wrap,
)

# --- backward ------------------------------------------------------------------------------

# Whether the matmul node whose rule runs now is the product of an addmm, baddbmm or addmv
# (the sum that follows it is labelled so): PyTorch's AddmmBackward0 computes mat1's gradient
# before mat2's, MmBackward0 and BmmBackward0 mat2's first (measured with create_graph=True:
# the older node). The rule reads this when it records its products (`ops.linalg`).
SUM_PRODUCT = [False]

# The leaves `torch.utils.swap_tensors` changed: id -> (a weak reference, the SEQ number of the
# swap). A node recorded before the swap that sends a gradient to such a leaf is PyTorch's
# poisoned AccumulateGrad (or its refusal at the swap itself when the graph saved the leaf).
SWAPPED: dict[int, tuple[Any, int]] = {}
SWAPPED_ERROR = (
    "Trying to execute AccumulateGrad node that was poisoned by swap_tensors this can happen "
    "when you try to run backward on a tensor that was swapped. For a module m with "
    "`torch.__future__.set_swap_module_params_on_conversion(True)` you should not change the "
    "device or dtype of the module (e.g. `m.cpu()` or `m.half()`) between running forward and "
    "backward. To resolve this, please only change the device/dtype before running forward "
    "(or after both forward and backward)."
)


def _check_swapped(n: Node) -> None:
    """PyTorch's poisoned AccumulateGrad: node n, recorded before a swap of one of its leaf
    inputs, would read (and send a gradient to) the other tensor's contents."""
    for t in n.inputs:
        if isinstance(t, Tensor) and t.node is None:
            w = SWAPPED.get(id(t))
            if w is not None and w[0]() is t and n.seq < w[1]:
                raise GradcliError(
                    SWAPPED_ERROR, hint="swap the tensors before the forward pass"
                ).mirror("RuntimeError")


_SUM_LABELS = frozenset({"AddmmBackward0", "BaddbmmBackward0", "AddmvBackward0"})
# Nodes whose gradient PyTorch gives as a ZeroTensor (`_efficientzerotensor`, skipped where
# gradients are summed): sgn's of a real input (FunctionsManual's sgn_backward; abs's rule
# reads sgn, so every second derivative through abs meets it); so is the gradient of a forward
# formula's ZeroTensor term (`core.forward.zero_term`, whatever its name).
_ZERO_LABELS = frozenset({"SgnBackward0"})
# The records whose gradient is a ZeroTensor when the gradient reaching them is one (their
# formulas multiply, divide, add or view it: ATen's ZeroTensor kernels keep it); the others
# (neg, expand's sum_to, slicing, mean, tanh_backward, threshold_backward, ...) make it zeros.
_ZERO_THROUGH = frozenset(
    {"abs", "mul", "div", "add", "sub", "exp", "sin", "cos", "sqrt", "pow", "pow_scalar"}
    | {"sum", "reshape", "permute", "clone"}
)

# The reverse passes begun so far, and the one running now (0: none; a pass started inside
# another, by a hook or a custom backward, is its own): what a node's pre-hook can tell passes
# apart by (torch.utils.checkpoint recomputes its function once per pass).
# Nodes whose first-order gradient a kernel's rule computes for the tensors a composed
# subgraph was recorded from (`surface.attention`'s fused attention in float32: PyTorch's
# backward kernel's bits): node -> rule(upstream gradient array, first_order) giving
# (tensors, gradients) or None (the rule does not apply: the subgraph's nodes compute, as for
# any other pass; a rule may raise, e.g. PyTorch's error for what its node saved changed in
# place). Gradients only where first_order (no create_graph, no trace); not asked with batch
# axes, saved-tensor hooks or node hooks.
SHORTCUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

PASS = [0, 0]
# What started the pass running: None (backward() without inputs), "grad" (autograd.grad) or
# "inputs" (backward(inputs=...)); a reentrant checkpoint runs only in the first kind
# (PyTorch's torch.autograd._is_checkpoint_valid).
GRAD_CALL: list[str | None] = [None]
# The roots and the captured tensors of the pass running (None: none).
CURRENT: list[Any] = [None]
# Functions to call once the pass running ends (PyTorch's engine `queue_callback`).
END_OF_PASS: list[Any] = []

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def unbroadcast(g: Tensor, shape: tuple[int, ...], nb: int) -> Tensor:
    """Sum `g` (with `nb` leading batch axes) down to `nb` batch axes + `shape`.

    The one place where broadcasting is undone: every rule returns gradients in the broadcast
    shape and the engine reduces them here.
    """
    if g.shape[nb:] == tuple(shape):
        return g
    lead = g.ndim - nb - len(shape)
    axes = list(range(nb, nb + lead))
    for i, s in enumerate(shape):
        if s == 1 and g.shape[nb + lead + i] != 1:
            axes.append(nb + lead + i)
    if (
        type(g) is Tensor
        and not _GradMode.enabled
        and not _GradMode.dual
        and g.data.dtype.isnative  # (not bfloat16: `core.op.apply` computes that)
    ):
        # nothing is recorded: the two ops' forwards on the array (the same sum, in PyTorch's
        # order, and the same view), without their dispatch
        data = g.data
        if axes:
            with np.errstate(all="ignore"):
                data = P.sum.forward(data, dim=tuple(axes), keepdim=True)
        return wrap(np.reshape(data, data.shape[:nb] + tuple(shape)))
    # ATen's sum_to: a whole sum for a shape of no dims, else a sum keeping the reduced dims,
    # viewed to the shape only where leading dims went
    if not shape and nb == 0:
        return apply(P.sum, g, label="SumBackward0")
    if axes:
        g = apply(P.sum, g, dim=tuple(axes), keepdim=True, label="SumBackward1")
    if lead == 0:
        return g
    return apply(P.reshape, g, shape=g.shape[:nb] + tuple(shape), label="ViewBackward0")


def _listed_at(given: Sequence[Any], i: int) -> int:
    """Where PyTorch's message says gradient i is: it finds it with `grads.index(grad)`, which
    compares it with the earlier gradients by `==` (a tensor of booleans): ambiguous when that
    has several elements, a broadcasting error when the shapes do not broadcast."""
    g = given[i]
    for j in range(i):
        h = given[j]
        if h is g:
            return j
        if not isinstance(h, Tensor) or not isinstance(g, Tensor):
            continue
        try:
            shape = np.broadcast_shapes(h.shape, g.shape)
        except ValueError:
            a, b = (h.shape, g.shape) if len(h.shape) >= len(g.shape) else (g.shape, h.shape)
            b = (1,) * (len(a) - len(b)) + tuple(b)
            d = next(k for k in range(len(a)) if a[k] != b[k] and 1 not in (a[k], b[k]))
            raise GradcliError(
                f"The size of tensor a ({h.shape[d - len(a) + len(h.shape)]}) must match the "
                f"size of tensor b ({g.shape[d - len(a) + len(g.shape)]}) at non-singleton "
                f"dimension {d}"
            ) from None
        if int(np.prod(shape)) != 1:
            raise GradcliError("Boolean value of Tensor with more than one value is ambiguous")
        if bool(np.all(h.data == g.data)):
            return j
    return i


def _check_gradient(
    out: Tensor,
    grad: Any,
    index: int,
    given: Sequence[Any] | None = None,
    outs: Sequence[Tensor] | None = None,
) -> Tensor:
    if grad is None:
        if out.data.size != 1:
            raise GradcliError(
                "grad can be implicitly created only for scalar outputs",
                hint="pass gradient= with the output's shape "
                f"{list(out.shape)}, e.g. torch.ones_like(out), or reduce the output "
                "with .sum() first",
            )
        if out.dtype.kind == "c":
            raise GradcliError(
                "grad can be implicitly created only for real scalar outputs but got "
                + dtypes.torch_name(out.dtype),
                hint="reduce it to a real number first (z.abs(), z.real), or pass gradient=",
            )
        return Tensor(np.ones(out.shape, dtype=out.dtype))
    g = as_tensor(grad, like=out)
    if (g.dtype.kind == "c") != (out.dtype.kind == "c"):
        at_g = at_o = index
        if given is not None and outs is not None:
            at_g, at_o = _listed_at(given, index), _listed_at(outs, index)
        raise GradcliError(
            "For complex Tensors, both grad_output and output are required to have the same "
            f"dtype. Mismatch in dtype: grad_output[{at_g}] has a dtype of "
            f"{dtypes.torch_name(g.dtype)} and output[{at_o}] has a dtype of "
            f"{dtypes.torch_name(out.dtype)}."
        )
    if g.shape != out.shape:
        at_g = at_o = index
        if given is not None and outs is not None:
            at_g, at_o = _listed_at(given, index), _listed_at(outs, index)
        raise GradcliError(
            f"Mismatch in shape: grad_output[{at_g}] has a shape of "
            f"torch.Size({list(g.shape)}) and output[{at_o}] has a shape of "
            f"torch.Size({list(out.shape)}).",
            hint="the gradient must have exactly the output's shape",
        )
    if g.dtype != out.dtype:
        # the engine's validate_outputs: a gradient of another dtype (an integer or bool one
        # too, complex-ness checked above) is cast to the output's before it flows back; a
        # gradient in the graph (create_graph) through the recorded cast, ToCopyBackward0
        if g.requires_grad and _GradMode.enabled:
            g = apply(REGISTRY["astype"], g, dtype=out.dtype)
        else:
            g = Tensor(g.data.astype(out.dtype))
    return g


def _to_grad_dtype(g: Tensor, dtype: Any, create_graph: bool) -> Tensor:
    """A gradient flowing into a leaf whose grad_dtype the program set, cast to it (None: as
    it is); in the graph (create_graph) through the recorded cast, ToCopyBackward0."""
    if dtype is None or g.data.dtype == dtype:
        return g
    if dtype.kind not in "fc":  # (an integer or bool grad_dtype: PyTorch's engine asserts)
        raise GradcliError(
            'isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at "/__w/pytorch/'
            'pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ',
            hint="give grad_dtype a floating-point dtype (or None)",
        ).mirror("RuntimeError")
    if create_graph and (g.requires_grad or g.node is not None):
        with enable_grad():
            return apply(REGISTRY["astype"], g, dtype=dtype)
    return Tensor(g.data.astype(dtype))


def run_backward(roots: Sequence[Tensor], root_grads: Sequence[Tensor], **kw: Any) -> Any:
    """One reverse pass (`_run_backward`), counted: `PASS[1]` and `CURRENT[0]` tell the hooks
    that run during it which pass this is and what it starts from."""
    outer = PASS[1], CURRENT[0]
    PASS[0] += 1
    PASS[1] = PASS[0]
    CURRENT[0] = (roots, kw.get("capture", ()))
    dual = _GradMode.dual
    try:
        if dual:
            # Inside a forward-AD level, a backward formula reads the values its node saved
            # without their tangents (PyTorch's saved variables keep none): the gradients get
            # no tangent unless an upstream gradient carries one.
            _GradMode.dual = any(hooks.tangent(g) is not None for g in root_grads)
        got = _run_backward(roots, root_grads, **kw)
        while END_OF_PASS:
            END_OF_PASS.pop(0)()
        return got
    finally:
        if outer[1] is None:
            END_OF_PASS.clear()  # (a pass that failed runs none of them)
        PASS[1], CURRENT[0] = outer
        _GradMode.dual = dual


def _run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor],
    *,
    nb: int = 0,
    create_graph: bool = False,
    retain_graph: bool = True,
    capture: Sequence[Tensor] = (),
    check_freed: bool = True,
    trace: Callable[[Node, Tensor, tuple], None] | None = None,
    fresh: set[int] | None = None,
    prune: str | None = None,
    on_leaf: Callable[[int, Tensor, Tensor], None] | None = None,
) -> dict[int, tuple[Tensor, Tensor]]:
    """One reverse pass. Returns the pass's gradients, `id(tensor) -> (tensor, gradient)`, for
    every leaf reached and for every tensor in `capture` (which may be intermediates).

    `root_grads[i]` has shape `nb batch axes + roots[i].shape`. `fresh`, if given, receives
    the ids of the leaves whose gradient is a sum the pass made (an array no one else holds:
    `backward` need not copy it). Gradients are kept per node
    (the gradient of the node's output), per tensor for leaves: a tensor changed in place has
    several versions, each computed by its own node. The program's own passes (`check_freed`,
    no batch axes) run the tensors' hooks; the analyses' passes do not.

    `prune` ("grad" or "backward", with a `capture`) runs only the nodes PyTorch's engine
    runs for `autograd.grad(..., inputs)` / `backward(inputs=...)`: those on a path to a
    captured tensor. Others are not executed, so they neither free their saved values nor
    check them (a later pass through them still works, as in PyTorch). With "backward" the
    node of a captured non-leaf is run too (PyTorch marks it needed, and frees it).
    """
    if hooks.saved_pending:
        hooks.saved_flush()  # saved_tensors_hooks: pack what the statement recorded so far
    grads: dict[Any, Tensor] = {}  # node -> gradient of its output; id(leaf) -> its gradient
    objs: dict[int, Tensor] = {}
    # node or id(leaf) -> (the node whose rule gave the gradient, the input's place in it);
    # _MANY when several did (a sum the pass made), None for a root's: whether a leaf's hook
    # may change its gradient in place (`_fresh`).
    sources: dict[Any, Any] = {}
    for r, g in zip(roots, root_grads):
        current(r)  # a view of a tensor changed since: through the change (PyTorch)
        k: Any = r.node if r.node is not None else id(r)
        if r.node is None:
            objs[k] = r
            sources[k] = _MANY if k in grads else None
        grads[k] = apply(P.add, grads[k], g) if k in grads else g

    captured: dict[int, Tensor] = {}
    capture_nodes = {t.node: t for t in capture if t.node is not None}
    user = check_freed and nb == 0
    order = ancestors(roots)
    out_grads: dict[int, tuple[Tensor, Tensor]] = {}
    wanted = {id(t) for t in capture} if capture else None
    finished: set[int] = set()

    def finish_leaf(t: Tensor) -> None:
        # the leaf's part of the pass, as its AccumulateGrad runs it: its hooks (when its
        # gradient is one the pass was asked for: PyTorch does not reach the other leaves of
        # grad(..., inputs) / backward(inputs=...)), then `backward`'s sum into .grad
        k = id(t)
        g = grads.get(k)
        if g is None or k in finished:
            return
        finished.add(k)
        if type(g) is SparseCOO and t._hooks:
            raise sparse_refusal("a tensor hook")
        if user and t._hooks and (wanted is None or k in wanted):
            g = _run_hooks(t._hooks, g, t, leaf=True, own=_fresh(sources, k))
        if not _GradMode.grad_layout and _stealable(sources, k):
            STOLEN[k] = g.data
        out_grads[k] = (t, g)
        if on_leaf is not None:
            on_leaf(k, t, g)

    # When the pass runs program code (a custom Function's backward, a module's backward hooks,
    # a hook of an intermediate, of a node or of a leaf), leaves are finished at PyTorch's time:
    # its engine runs a leaf's AccumulateGrad right after the last node that sends it a
    # gradient, before any other node (hooks' prints interleave with the other tensors' so, and
    # that code reads the .grad already filled in: `module.weight.grad` in a full backward
    # hook). Otherwise at the end (not observable).
    code = user and _runs_code(order, LEAF_HOOKS[0])
    turns = _leaf_turns(order, every=True) if code else None
    needed = _needed(order, capture, capture_nodes, prune == "backward") if prune else None
    # Chains of ops whose rule is `g * d` run on arrays (first-order passes, not traced, not
    # watched for nan by anomaly detection).
    chains = not create_graph and trace is None and not _GradMode.anomaly
    # F.linear's bias gradient, reduced after its product's rule ran (`deliver` below)
    defer = create_graph and nb == 0 and trace is None and not turns
    deferred: list[tuple] = []
    sum_products: set = set()  # the matmul nodes of addmm-like sums (`SUM_PRODUCT`)
    # The keys whose gradient so far is PyTorch's "efficient zero" (`_ZERO_LABELS`): the next
    # gradient that arrives replaces it instead of being added to it.
    zeros: set = set()
    # The keys whose gradient so far is the pieces' of one call of several outputs (split,
    # unbind, chunk) alone: key -> that call's `siblings` (`_piece_region`).
    pieces: dict = {}

    def deliver(
        k: Any,
        t: Tensor,
        gi: Any,
        n: Node,
        i: int,
        op: Any,
        many: bool,
        through: bool = False,
        joined: bool = False,
    ) -> None:
        # the gradient `gi` node n's rule gave its input t (key k) into the pass's gradients
        sources[k] = _MANY if k in grads or many else (n, i)
        if type(gi) is SparseCOO or type(grads.get(k)) is SparseCOO:
            zeros.discard(k)
            pieces.pop(k, None)
            grads[k] = sparse_sum(grads.get(k), gi)
            return
        gi = unbroadcast(as_tensor(gi, like=t), t.shape, nb)
        if op.complex is not None and gi.data.dtype.kind == "c" and t.data.dtype.kind != "c":
            gi = _real_part(gi)  # a real input of a complex result: PyTorch's
        if GRAD_DTYPES and type(k) is int and t in GRAD_DTYPES:
            gi = _to_grad_dtype(gi, GRAD_DTYPES[t], create_graph)
        gdt, tdt = gi.data.dtype, t.data.dtype
        if gdt is not tdt and gdt != tdt and tdt == dtypes.BF16:
            _bf16_gradient(n)
        zero = (through or n.label in _ZERO_LABELS or n.op.name == "zero_term") and tdt.kind != "c"
        if zero:
            gi = Tensor(np.zeros(gi.shape, gi.data.dtype))  # (materialized: +0.)
        # (a piece of one tensor's several (split, unbind, chunk): its region in that tensor)
        region = _piece_region(n, gi, nb) if n.siblings is not None and not joined else None
        if k in zeros:
            # PyTorch's engine sums a ZeroTensor in its buffer and a gradient as the gradient
            # itself (no addition: a -0. stays -0.); a ZeroTensor that comes second is added
            if not zero:
                zeros.discard(k)
            grads[k] = gi
            _set_group(pieces, k, n, region)
        elif k in grads:
            cur = grads[k]
            if region is not None and pieces.get(k) is n.siblings:
                # PyTorch's one node of the pieces puts each piece's gradient in its place
                # (zeros where none came) and hands the tensor one gradient: the gradient so
                # far (the other pieces', +0. here) with this piece's place written, not a sum
                # (which would make a -0. of either +0.). The graph of create_graph is the
                # sum's (the same values but those signs).
                if not create_graph and _owned(cur, gi):
                    cur.data[region] = gi.data[region]
                else:
                    res = apply(P.add, cur, gi)
                    d = res.data
                    if type(d) is np.ndarray and d.flags.writeable and d.shape == cur.shape:
                        np.copyto(d, cur.data)
                        d[region] = gi.data[region]
                    grads[k] = res
            else:
                pieces.pop(k, None)
                if not create_graph and _owned(cur, gi):
                    add_into(cur.data, gi.data)  # the same sums, in place
                else:
                    grads[k] = apply(P.add, cur, gi)
            del cur
            if fresh is not None and type(k) is int:
                fresh.add(k)
        else:
            grads[k] = gi
            if zero:
                zeros.add(k)
            _set_group(pieces, k, n, region)

    def flush() -> None:
        while deferred:
            _mm, k, t, gi, n, i, many = deferred.pop(0)
            deliver(k, t, gi, n, i, n.op, many)

    # With create_graph, the gradients of the pieces of one call (split, unbind, chunk), kept
    # until the walk leaves the call's nodes: [siblings, {node: gradient}, last node walked].
    joining: list = []

    def join() -> None:
        # PyTorch's one node of the pieces: their gradients stacked (unbind) or concatenated
        # (split, chunk) in order, zeros for a piece that got none, one gradient for the tensor
        sib, got, last = joining
        joining.clear()
        x = last.inputs[0]
        if not x.requires_grad:
            return
        d = len(last.params["idx"]) - 1
        n_d = x.shape[d]
        live = [q for q in (ref() for ref in sib) if q is not None]
        stacked = last.name().removesuffix("_copy") == "UnbindBackward0"

        def zeros(size: int) -> Tensor:
            shape = x.shape[:d] + ((size,) if not stacked else ()) + x.shape[d + 1 :]
            return Tensor(np.zeros(shape, dtype=x.data.dtype))

        # (a piece the program dropped is gone with its node: zeros in its place, from the
        # places of the pieces still there; the pieces partition dimension d in order)
        spans = []
        for q in live:
            key = q.params["idx"][d]
            lo, hi, _ = (key, key + 1, 1) if type(key) is int else key.indices(n_d)
            spans.append((lo, hi, q))
        spans.sort(key=lambda e: e[0])
        parts: list = []
        cursor = 0
        for lo, hi, q in spans + [(n_d, n_d, None)]:
            if stacked:
                parts.extend(zeros(1) for _ in range(cursor, lo))
            elif lo > cursor:
                parts.append(zeros(lo - cursor))
            if q is not None:
                g = got.get(q)
                parts.append(g if g is not None else zeros(hi - lo))
            cursor = hi
        total = apply(REGISTRY["stack" if stacked else "cat"], *parts, dim=d)
        p = x.node
        if p is None:
            if NOGRAD_VIEWS and x in NOGRAD_VIEWS:
                return
            k: Any = id(x)
            objs[k] = x
        else:
            if p.seq >= last.seq:
                p = producer(x, last.seq)
                if p is None:
                    return
            k = p
        deliver(k, x, total, last, 0, last.op, False, joined=True)

    retained: list[tuple[Tensor, Tensor]] = []
    mode = enable_grad() if create_graph else no_grad()
    enabled = gc.isenabled()
    if enabled:
        gc.disable()  # a pass makes no reference cycles: no collection in the middle of it
    try:
        # One errstate for the whole pass (not one per node): 0/0 at kinks is handled by rules.
        with mode, in_pass():
            # A chain of linked ops (`Op.link`: the rule is `g * d`) runs on arrays: the
            # gradient of the next node's output is carried as a NumPy array, `(node, array)`.
            carry: tuple[Node, np.ndarray] | None = None
            hooked: set = set()  # the nodes of several outputs whose hooks have run
            # the calls of several outputs whose node hooks run as one node's (`_GroupPass`)
            groups: dict = {}
            tick = hooks.observer.tick  # (the run's observer: it does not change in a pass)
            for j, n in enumerate(reversed(order)):
                tick()
                if SWAPPED:
                    _check_swapped(n)
                through = False
                if joining and n.siblings is not joining[0]:
                    join()
                if deferred and n.seq < deferred[0][0].seq:
                    flush()
                if turns and j - 1 in turns:
                    for t in turns.pop(j - 1):
                        finish_leaf(t)
                owned = False  # whether `g` is an array of the pass's own (a carried one)
                # (the nodes recorded in an allow_mutation_on_saved_tensors block)
                copies = SAVED_COPIES.get(n) if SAVED_COPIES else None
                if carry is not None and carry[0] is n:
                    g: Any = carry[1]  # checked when it was carried: nothing watches n
                    carry = None
                    owned = True
                    out = n.out
                    if copies is not None:
                        SAVED_COPIES_CHECK[0](n)  # (recorded in a block that has ended?)
                else:
                    if carry is not None:  # (not reached: the carried node is the next one)
                        grads[carry[0]] = Tensor(carry[1])
                        carry = None
                    g = grads.pop(n, None)
                    if g is None:
                        continue
                    if zeros and n in zeros:
                        # a ZeroTensor reaching n: what PyTorch's formula of n gives stays one
                        # where that formula's ops keep it (`_ZERO_THROUGH`)
                        zeros.discard(n)
                        through = n.op.name in _ZERO_THROUGH
                    run = needed is None or n in needed
                    if not run and n not in capture_nodes:
                        continue  # (PyTorch's engine sends it no gradient: it leads to no input)
                    if copies is not None and run:
                        SAVED_COPIES_CHECK[0](n)  # (recorded in a block that has ended?)
                    out = n.out
                    if user:
                        if n.siblings is not None:
                            g = _sibling_hooks(n, g, grads, hooked)
                        elif n.hooks:
                            g = _run_hooks(n.hooks, g, out)
                        # (an output changed in place and then dropped by the program is
                        # gone: the node's older version is reached through what saved it)
                        if out is not None and out.retains_grad and out.node is n:
                            if code:
                                # (program code later in the pass may read it: stored now, as
                                # PyTorch's retains_grad hook runs before the node)
                                _retain(out, g, create_graph)
                            else:
                                retained.append((out, g))
                        if n.node_hooks and n.siblings is not None:
                            # PyTorch's one node for the call's outputs: its hooks run once,
                            # given every output's gradient (`_group_prehooks`)
                            g = _group_prehooks(n, g, grads, needed, groups)
                            if g is None:
                                continue
                        elif n.node_hooks and n.node_hooks[0]:
                            g = _run_prehooks(n, g)
                            if g is None:
                                continue  # a pre-hook replaced the gradient by None
                        if n.node_hooks and n in PACKED_OUTPUTS:
                            # (what its hooks see after its rule: one gradient per output)
                            _GIVEN[n] = unpacked(n, g)
                    # A node's saved values are read as its rule runs, after the hooks of its
                    # outputs and its pre-hooks (which still run, as PyTorch's, when a pass
                    # freed the node or a change in place overwrote what it saved).
                    if n.freed and check_freed and run:
                        raise GradcliError(
                            SECOND_BACKWARD,
                            hint="pass retain_graph=True to the "
                            "first backward() that goes through this graph",
                        )
                    if n.mark != MUTATIONS[0] and n.op.saves and copies is None and run:
                        # (a node of allow_mutation_on_saved_tensors reads its saved values
                        # through PyTorch's saved-tensor hooks: no version is checked)
                        check_saved(n)
                    if n in capture_nodes:
                        captured[id(capture_nodes[n])] = g
                    if not run:
                        continue  # (PyTorch's engine does not run it: nothing leads to an input)
                    if (
                        create_graph
                        and nb == 0
                        and trace is None
                        and n.siblings is not None
                        and not n.node_hooks
                        and copies is None
                        and n.packed is None
                        and type(g) is Tensor
                        and _piece_region(n, g, 0) is not None
                    ):
                        # a piece of one call's several: its gradient joined with its
                        # siblings' once the walk leaves them (`join`)
                        if not joining:
                            joining.extend((n.siblings, {}, n))
                        joining[1][n] = g
                        joining[2] = n
                        if not retain_graph and n.frees():
                            n.freed = True
                            n.packed = None
                        continue
                op = n.op
                packed = n.packed if copies is None else copies
                targets = n.inputs
                cut = (
                    SHORTCUTS[n](
                        g if type(g) is np.ndarray else g.data, not create_graph and trace is None
                    )
                    if SHORTCUTS
                    and n in SHORTCUTS
                    and nb == 0
                    and packed is None
                    and not n.node_hooks
                    and type(g) in (np.ndarray, Tensor)
                    else None
                )
                link = (
                    op.link
                    if chains
                    and cut is None
                    and op.vjp is op._rule
                    and not n.node_hooks
                    and packed is None
                    else None
                )
                # (an output changed in place and dropped by the program is gone: no link)
                r = (
                    link(out, *n.inputs, **n.params)
                    if link is not None and out is not None
                    else None
                )
                arr = g if type(g) is np.ndarray else g.data if type(g) is Tensor else None
                if cut is not None:
                    # a node whose composed subgraph's gradients a kernel's rule gives at once
                    # (`SHORTCUTS`): the tensors it names, the subgraph's nodes left unvisited
                    targets, gs = cut
                    if _GradMode.anomaly and _GradMode.anomaly_nan:
                        _check_nan(n, gs, targets)
                elif (
                    r is not None
                    and arr is not None
                    and r[1].dtype == arr.dtype
                    and arr.dtype.kind != "c"  # (a complex rule is g * conj(d): `_vjp`)
                    and arr.dtype.isnative  # (not bfloat16: `core.op.apply` computes that)
                ):
                    i, d = r
                    # the rule's own product, `g * d` (into the carried array: no one else
                    # holds it, and `d` broadcasts into its shape)
                    arr = np.multiply(arr, d, out=arr) if owned else np.multiply(arr, d)
                    if not retain_graph and n.frees():
                        n.freed = True
                    p = n.inputs[i].node
                    if (
                        p is not None
                        and (needed is None or p in needed)
                        and _carries(p, n, grads, capture_nodes, user)
                    ):
                        carry = (p, arr)
                        sources[p] = (n, i)
                        continue
                    gs: Any = [None] * len(n.inputs)
                    gs[i] = Tensor(arr)
                else:
                    if (
                        chains
                        and nb == 0
                        and op.accumulate is not None
                        and packed is None
                        and not n.node_hooks
                    ):
                        gs = gi = None  # (the last node's: they would count as holders)
                        if _accumulated(n, op, g, out, grads, fresh, zeros, pieces):
                            # the rule's gradient added into the input's, which the pass owns
                            if not retain_graph and n.frees():
                                n.freed = True
                            continue
                    if type(g) is np.ndarray:
                        g = Tensor(g)
                    if copies:
                        # allow_mutation_on_saved_tensors: the values saved before a change
                        ins = [copies.get(i, t) for i, t in enumerate(n.inputs)]
                        gs = _vjp(n.op, g, copies.get(-1, out), ins, n.params)
                    elif packed is not None and check_freed and hooks.saved_unpack is not None:
                        # saved_tensors_hooks: the rule reads what unpack gives back
                        ins, out = hooks.saved_unpack(n)
                        gs = _vjp(n.op, g, out, ins, n.params)
                    else:
                        if create_graph:
                            if n.label in _SUM_LABELS:
                                for t in n.inputs:
                                    q = t.node
                                    # (the product, or the product scaled by alpha)
                                    if q is not None and q.op.name == "mul" and q.seq < n.seq:
                                        q = q.inputs[0].node
                                    if q is not None and q.op.name == "matmul":
                                        sum_products.add(q)
                            SUM_PRODUCT[0] = n in sum_products
                        gs = (
                            n.op.vjp(g, out, *n.inputs, **n.params)
                            if op.complex is None
                            else _vjp(op, g, out, n.inputs, n.params)
                        )
                        SUM_PRODUCT[0] = False
                    if _GradMode.anomaly and _GradMode.anomaly_nan:
                        _check_nan(n, gs)
                    if user and n.node_hooks and n.node_hooks[1]:
                        if n.siblings is not None and id(n.siblings) in groups:
                            gs = _group_hooks(n, gs, nb, groups)
                        else:
                            gs = _run_node_hooks(n, gs, g, nb)
                if trace is not None:
                    trace(n, g, gs)
                seq = n.seq
                for i, (t, gi) in enumerate(zip(targets, gs)):
                    if gi is None or not t.requires_grad:
                        continue
                    p = t.node
                    if p is None:
                        if NOGRAD_VIEWS and t in NOGRAD_VIEWS:
                            continue  # a view made under no_grad: PyTorch's edge leads nowhere
                        if LATE_LEAVES and no_edge(t, seq):
                            continue  # it required no grad when n was recorded: no edge
                        k = id(t)
                        objs[k] = t
                    else:
                        if p.seq >= seq:  # changed in place after n used it
                            p = producer(t, seq)
                            if p is None:
                                continue  # a constant then
                        k = p
                    if defer and i == 1 and cut is None and n.label == "AddmmBackward0":
                        mm = producer(n.inputs[0], seq)
                        gi = as_tensor(gi, like=t)
                        if mm is not None and mm.op.name == "matmul" and gi.shape != t.shape:
                            # PyTorch's AddmmBackward0 reduces the bias's gradient (sum_to)
                            # after its two products: recorded after the product's rule, the
                            # sum comes first in a pass through this gradient, which decides
                            # the order of float sums where several gradients meet
                            deferred.append((mm, k, t, gi, n, i, cut is not None))
                            continue
                    deliver(k, t, gi, n, i, op, cut is not None, through)
                if not retain_graph and n.frees():
                    n.freed = True
                    n.packed = None
            if carry is not None:
                grads[carry[0]] = Tensor(carry[1])
            if joining:
                join()
            if deferred:
                flush()
            for j in sorted(turns or ()):
                for t in turns[j]:
                    finish_leaf(t)
    finally:
        if enabled:
            gc.enable()
    for t in capture:
        k = id(t)
        if t.node is None and k in grads and k not in captured:
            captured[k] = grads[k]
    for t, g in retained:
        _retain(t, g, create_graph)
    for k in list(grads):
        if type(k) is int:
            finish_leaf(objs[k])
    for k, g in captured.items():
        if k not in out_grads:
            out_grads[k] = (next(t for t in capture if id(t) == k), g)
    return out_grads


def _piece_region(n: Node, gi: Any, nb: int) -> tuple | None:
    """The place in its tensor of the piece whose node is `n` (`x.unbind()`'s, `x.split(2)`'s,
    `x.chunk(3)`'s: PyTorch's one node for them all; `torch.unbind_copy`'s, `split_copy`'s
    too), as an index of the gradient `gi` (with `nb` batch axes first); None for another
    node (or a piece indexed under vmap, `lead`)."""
    name = n.name().removesuffix("_copy")
    if name not in _PIECES_NODES or len(n.inputs) != 1 or "lead" in n.params:
        return None
    if type(gi) is not Tensor or type(gi.data) is not np.ndarray:
        return None
    return (slice(None),) * nb + tuple(n.params["idx"])


def _set_group(pieces: dict, k: Any, n: Node, region: tuple | None) -> None:
    """Record that the gradient of key `k` is now the one a piece's node (`region` not None)
    gave, or any other."""
    if region is not None:
        pieces[k] = n.siblings
    else:
        pieces.pop(k, None)


def _retain(t: Tensor, g: Tensor, create_graph: bool) -> None:
    """PyTorch's retain_grad hook, in the pass's grad mode: the first gradient is stored as a
    clone (never an array another tensor's .grad, a hook or the caller's upstream gradient
    holds; with create_graph its history is CloneBackward0), later ones are added
    (`grad + new`: no history after a pass without create_graph)."""
    if t.grad is None:
        if create_graph and (g.node is not None or g.requires_grad):
            with enable_grad():
                c = apply(REGISTRY["clone"], g)
            c.data = np.array(c.data, copy=True)
            c._vc = c._base = None
            t.grad = c
        else:
            t.grad = Tensor(np.array(g.data, copy=True))
    else:
        with enable_grad() if create_graph else no_grad():
            t.grad = apply(P.add, t.grad, g)


# The nodes of gradcli's own ops recorded through `ops.custom.custom_apply(..., program=False)`:
# their backward runs no program code, so they do not change when leaves are finished.
INTERNAL_NODES: weakref.WeakSet = weakref.WeakSet()


def _runs_code(order: Sequence[Node], leaves: bool) -> bool:
    """Whether a pass through `order` runs program code at some node: a custom Function's
    backward (a module's backward hooks run in one too), a tensor hook of an intermediate, a
    hook of a node or the unpack hook of saved_tensors_hooks; with `leaves` (some leaf has
    hooks), a hook of a leaf it reaches."""
    for n in order:
        if n.hooks or n.node_hooks or n.packed is not None:
            return True
        if n.op.kind == "custom" and n.op.name != "custom_output" and n not in INTERNAL_NODES:
            return True
        if leaves:
            for t in n.inputs:
                if t.node is None and t.requires_grad and _hooked_leaf(t):
                    return True
    return False


def _leaf_turns(order: Sequence[Node], every: bool = False) -> dict[int, list[Tensor]]:
    """For each leaf with hooks (its own, or its AccumulateGrad node's; `every`: each leaf),
    the turn in the pass (the index in reversed `order`) of the last node that takes it as an
    input, the leaves of one turn in that node's order of inputs (as PyTorch's engine queues
    their AccumulateGrads)."""
    last: dict[int, int] = {}
    nodes = list(reversed(order))
    for j, n in enumerate(nodes):
        for t in n.inputs:
            if t.node is None and t.requires_grad:
                last[id(t)] = j
    turns: dict[int, list[Tensor]] = {}
    for j, n in enumerate(nodes):
        for t in n.inputs:
            if t.node is None and last.get(id(t)) == j and (every or _hooked_leaf(t)):
                del last[id(t)]
                turns.setdefault(j, []).append(t)
    return turns


def _hooked_leaf(t: Tensor) -> bool:
    if t._hooks:
        return True
    acc = live_accumulator(t)
    return acc is not None and bool(acc.pre or acc.post)


def _vjp(op: Any, g: Tensor, out: Tensor, ins: Sequence[Tensor], params: dict) -> Any:
    """The rule's gradients; of a record whose rule is written for real values (`Op.complex`
    "holo") on complex values, PyTorch's conjugate Wirtinger gradient g * conj(f'(z)),
    computed as conj(rule(conj(g))) (the rule is linear in g with f' in it)."""
    if op.complex == "holo" and (g.dtype.kind == "c" or any(t.data.dtype.kind == "c" for t in ins)):
        if op.kind == "shape" or op.name == "index_put":
            # a rule that moves g's values and fills zeros (x[i], index_put, cat...): the
            # conjugates cancel, and the zeros stay +0 as PyTorch's (conj would make them -0j)
            return op.vjp(g, out, *ins, **params)
        conj = complex_record("conj")
        if g.dtype.kind == "c":
            g = apply(conj, as_tensor(g))
        gs = op.vjp(g, out, *ins, **params)
        return tuple(
            apply(conj, gi) if gi is not None and gi.data.dtype.kind == "c" else gi for gi in gs
        )
    return op.vjp(g, out, *ins, **params)


def _real_part(g: Tensor) -> Tensor:
    return apply(complex_record("real"), g)


# The records of conj and real (`ops.complexnum` registers them here: this layer cannot name
# them), for the gradients of complex values; `LOAD_COMPLEX[0]` (set by `ops.arithmetic`)
# imports that module, the first time a gradient is complex (not at start-up).
COMPLEX_RECORDS: dict[str, Any] = {}
LOAD_COMPLEX: list[Callable[[], Any]] = []


def complex_record(name: str) -> Any:
    got = COMPLEX_RECORDS.get(name)
    if got is None:
        LOAD_COMPLEX[0]()
        got = COMPLEX_RECORDS[name]
    return got


def _bf16_gradient(n: Node) -> None:
    """A rule that computed a bfloat16 input's gradient in another dtype (a fast path on the
    arrays): refused, never a float32 gradient for a bfloat16 tensor in silence."""
    raise NotSupported(
        f"the gradient of {n.name()} for a bfloat16 tensor is not supported by gradcli (its "
        "rule does not compute in bfloat16 as PyTorch's does)",
        hint="convert to float32 first: x.float() (or x.to(torch.float32))",
    )


def _accumulated(
    n: Node,
    op: Any,
    g: Any,
    out: Tensor,
    grads: dict,
    fresh: set[int] | None,
    zeros: set,
    pieces: dict,
) -> bool:
    """A first-order rule of one input (`Op.accumulate`) whose input already has a gradient
    that the pass alone holds: the rule's gradient is added into it, with no new array of
    the input's size (the same bits as the rule's gradient and then the sum in place)."""
    if len(n.inputs) != 1 or op.accumulates() is None:
        return False
    t = n.inputs[0]
    if not t.requires_grad or t.data.dtype == dtypes.BF16:  # (its rules add in float32)
        return False
    gd = g.dtype if type(g) is np.ndarray else g.data.dtype
    if gd.kind == "c" or t.data.dtype.kind == "c" or out.data.dtype.kind == "c":
        return False  # (complex values: the conjugate rule of `_vjp`)
    p = t.node
    if p is None:
        k: Any = id(t)
    else:
        if p.seq >= n.seq:  # changed in place after n used it
            return False
        k = p
    cur = grads.get(k)
    if cur is None or k in zeros or k in pieces or not _sole(cur, t.shape, t.dtype):
        return False
    if not op.accumulate(cur.data, g, out, t, **n.params):
        return False
    if fresh is not None and type(k) is int:
        fresh.add(k)
    return True


def _sole(cur: Tensor, shape: tuple[int, ...], dtype: Any) -> bool:
    """Whether the gradient `cur` (in the pass's dict) is a large array no one else holds, of
    this shape and dtype: `_owned`'s test, without a second gradient."""
    d = cur.data
    return (
        type(cur) is Tensor
        and type(d) is np.ndarray
        and d.size >= 4096
        and d.flags.owndata
        and d.flags.writeable
        and d.flags.c_contiguous
        and d.shape == shape
        and d.dtype == dtype
        # the pass's dict, `_accumulated`'s local, the parameter, getrefcount's argument
        and getrefcount(cur) == 4
        # the tensor, the local `d`, getrefcount's argument
        and getrefcount(d) == 3
    )


def _owned(cur: Tensor, gi: Tensor) -> bool:
    """Whether the gradient `cur` (in the pass's dict) is an array no one else holds, of the
    sum's shape and dtype: the sum `cur + gi` may then be written into it instead of into a
    new array (no allocation: large fresh arrays cost page faults). Reference counts say who
    holds it: the dict alone holds the tensor, the tensor alone holds its array (a view of it
    would hold it too), and the array owns its memory."""
    d = cur.data
    return (
        type(cur) is Tensor
        and type(gi) is Tensor
        and gi is not cur
        and gi.data is not d
        and d.size >= 4096
        and d.flags.owndata
        and d.flags.writeable
        and d.flags.c_contiguous
        and d.shape == gi.data.shape
        and d.dtype == gi.data.dtype
        # the pass's dict, `run_backward`'s local, the parameter, getrefcount's argument
        and getrefcount(cur) == 4
        # the tensor, the local `d`, getrefcount's argument
        and getrefcount(d) == 3
    )


def _check_nan(n: Node, gs: tuple, inputs: Sequence[Tensor] | None = None) -> None:
    """Anomaly mode: a node's gradient for an input (of `inputs`, by default the node's) that
    requires grad holds nan."""
    for i, (t, gi) in enumerate(zip(n.inputs if inputs is None else inputs, gs)):
        if gi is None or not t.requires_grad:
            continue
        data = gi.data if isinstance(gi, Tensor) else np.asarray(gi)
        if data.dtype.kind in "fc" and np.isnan(data).any():
            name = n.shown().name()
            hooks.warn(f"Error detected in {name}.")
            raise GradcliError(
                f"Function '{name}' returned nan values in its {i}th output.",
                hint="the operation's derivative is undefined at these inputs",
            )


def _needed(
    order: Sequence[Node], capture: Sequence[Tensor], capture_nodes: dict, own: bool
) -> set[Node]:
    """The nodes (of `order`, in creation order) through which a gradient reaches a captured
    tensor: a node whose input is a captured leaf, or is the output of a captured node or of a
    needed one. With `own`, the captured nodes themselves are needed (`backward(inputs=...)`:
    PyTorch runs the node of a non-leaf input)."""
    leaves = {id(t) for t in capture if t.node is None}
    needed: set[Node] = set(capture_nodes) if own else set()
    for n in order:
        seq = n.seq
        for t in n.inputs:
            if not t.requires_grad:
                continue
            p = t.node
            if p is None:
                if id(t) in leaves and not (LATE_LEAVES and no_edge(t, seq)):
                    needed.add(n)
                    break
                continue
            if p.seq >= seq:
                p = producer(t, seq)
                if p is None:
                    continue
            if p in needed or p in capture_nodes:
                needed.add(n)
                break
    return needed


def _carries(p: Node, n: Node, grads: dict, capture_nodes: dict, user: bool) -> bool:
    """Whether the gradient `n` sends to `p` (the node of its input) can be carried to `p` as
    an array: `p` was recorded just before `n`, so it is the next node of the walk and every
    other consumer of its output came later and has been walked (a gradient from one would be
    in `grads`); it is a link; nothing watches it (hooks, a capture, a retained gradient, a
    change in place since it was recorded, a pass that freed it)."""
    op = p.op
    return (
        p.seq == n.seq - 1
        and op.link is not None
        and op.vjp is op._rule  # (`Op.linked`, inline)
        and p.mark == MUTATIONS[0]
        and not p.freed
        and not p.hooks
        and not p.node_hooks
        and p.siblings is None
        and p not in grads
        and p not in capture_nodes
        and not (user and (p.out is None or p.out.retains_grad))
    )


def handed(g: Tensor) -> Tensor:
    """A gradient as the pass hands it to the program (a hook, a retained `.grad`,
    `autograd.grad`'s result): one that is a forward value itself, read-only (mul's rule under
    a sum: `ops.binary._times`), is copied, so that changing it in place changes no value
    and works as on PyTorch's fresh gradient. (A broadcast one stays as it is: PyTorch's is an
    expanded view too, and refuses a change in place.)"""
    if type(g) is SparseCOO:
        return g
    d = g.data
    if d.flags.writeable or d.base is None:
        return g
    for s, n in zip(d.strides, d.shape):
        if s == 0 and n > 1:
            return g
    return Tensor(d.copy())


def _hook_result(fn: Any, r: Any, originals: tuple) -> tuple | None:
    """What a node's hook (or pre-hook) `fn` returned in place of the gradients `originals`,
    checked as PyTorch's check_result: None, or a tuple with one value per gradient, each None
    (that gradient becomes None) or a tensor of the original's type and size."""
    if r is None:
        return None
    if not isinstance(r, tuple):
        raise GradcliError(
            f"expected tuple, but hook returned '{pytype_name(r)}'",
            hint="return a tuple with one gradient (or None) per slot, or return nothing",
        ).mirror("TypeError")
    if len(r) != len(originals):
        raise GradcliError(
            f"hook '{_hook_name(fn)}' has returned an incorrect number of values (got "
            f"{len(r)}, but expected {len(originals)})",
            hint="return a tuple with one gradient (or None) per slot, or return nothing",
        )
    for v, g in zip(r, originals):
        if v is None:
            continue
        if g is None:
            raise GradcliError(
                "can't replace a None gradient with a non-None value",
                hint="return None in the place of a gradient that is None",
            )
        check_hook_value(fn, g, v)
    return r


# A custom Function's node of several outputs: the gradients of its outputs its hooks see
# after its rule (`unpacked`), kept from before the rule ran.
_GIVEN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def unpacked(n: Node, g: Any) -> tuple:
    """A custom Function's node of several outputs, whose gradient gradcli carries packed
    flat (`ops.custom`): one gradient per output of forward, as PyTorch's node has them (None
    for an output that received none, or that is not differentiable)."""
    count, layout, touched = PACKED_OUTPUTS[n]
    flat = g if type(g) is Tensor else Tensor(g)
    given: list = [None] * count
    for i, off, size, shape in layout:
        if i in touched:
            given[i] = Tensor(np.array(flat.data[off : off + size]).reshape(shape))
    return tuple(given)


def _repacked(n: Node, given: Any, like: Tensor) -> Tensor:
    """The packed gradient of the outputs' gradients a pre-hook returned (`unpacked`)."""
    _count, layout, touched = PACKED_OUTPUTS[n]
    data = np.zeros_like(like.data)
    for i, off, size, _shape in layout:
        gi = given[i] if i < len(given) else None
        if gi is None:
            touched.discard(i)
        else:
            data[off : off + size] = np.asarray(as_tensor(gi, like=like).data).ravel()
    return Tensor(data)


def _run_prehooks(n: Node, g: Tensor) -> Tensor:
    """The node's pre-hooks, in order, each given (grad_output,): a tuple one returns replaces
    it."""
    if n in PACKED_OUTPUTS:
        like = g if type(g) is Tensor else Tensor(g)
        given = unpacked(n, like)
        for fn in list(n.node_hooks[0]):  # type: ignore[index]
            r = _hook_result(fn, fn(given), given)
            if r is not None:
                given = tuple(r)
        if all(x is None for x in given):
            return None  # type: ignore[return-value]
        return _repacked(n, given, like)
    g = handed(g)
    for fn in list(n.node_hooks[0]):  # type: ignore[index]
        r = _hook_result(fn, fn((g,)), (g,))
        if r is not None:
            g = r[0]  # (None: the node gets no gradient, and gives none)
            if g is None:
                break
    return g


class _GroupPass:
    """A pass through the nodes gradcli records for one call's several outputs (split,
    unbind, a decomposition, a custom Function), whose node hooks are PyTorch's one node's:
    its pre-hooks ran with every output's gradient; its hooks run once, at the last of them,
    given the gradients of the inputs summed over them."""

    __slots__ = ("outs", "left", "acc")

    def __init__(self, outs: tuple, left: int) -> None:
        self.outs = outs  # each output's gradient (None: it received none)
        self.left = left  # the nodes still to be reached with a gradient
        self.acc: list | None = None  # the inputs' gradients summed so far


def _group_prehooks(n: Node, g: Any, grads: dict, needed: Any, groups: dict) -> Any:
    """The first node of a call's several outputs that the pass reaches: PyTorch's node
    hooks of the call (one table shared by the siblings) see every output's gradient, in
    output order (None: an output that received none; every consumer of the outputs came
    earlier in the pass, so those gradients are complete). Returns `n`'s gradient (None:
    replaced by None), the others' replaced in `grads`."""
    key = n.siblings
    state = groups.get(id(key))
    if state is not None:
        return g  # (its pre-hooks ran with the first of its siblings)
    nodes = [ref() for ref in key]  # (None: an output gone, as one that receives nothing)
    live = [s for s in nodes if s is not None]
    if any(len(s.inputs) != len(n.inputs) or any(map(is_not, s.inputs, n.inputs)) for s in live):
        # (inputs that differ: no one node to stand for; hooks per node)
        return _run_prehooks(n, g) if n.node_hooks[0] else g  # type: ignore[index]
    outs = [g if s is n else None if s is None else grads.get(s) for s in nodes]
    outs = [None if o is None else handed(Tensor(o) if type(o) is np.ndarray else o) for o in outs]
    for fn in list(n.node_hooks[0]):  # type: ignore[index]
        given = tuple(outs)
        r = _hook_result(fn, fn(given), given)
        if r is not None:
            outs = list(r)
    for s, o in zip(nodes, outs, strict=True):
        if s is not None and s is not n:
            if o is None:
                grads.pop(s, None)
            else:
                grads[s] = o
    left = sum(
        1
        for s, o in zip(nodes, outs, strict=True)
        if s is not None and o is not None and (needed is None or s in needed)
    )
    groups[id(key)] = _GroupPass(tuple(outs), left)
    return outs[nodes.index(n)]


def _group_hooks(n: Node, gs: Any, nb: int, groups: dict) -> list:
    """A node of a call's several outputs after its rule: its inputs' gradients are added to
    the call's; at the last of the nodes reached, PyTorch's node hooks run once, given the
    sums and every output's gradient, and the sums (or what a hook returned) go on. Until
    then the node passes nothing on."""
    state = groups[id(n.siblings)]
    ins = [
        unbroadcast(as_tensor(gi, like=t), t.shape, nb)
        if gi is not None and t.requires_grad
        else None
        for t, gi in zip(n.inputs, gs)
    ]
    if state.acc is None:
        state.acc = ins
    else:
        state.acc = [
            b if a is None else a if b is None else apply(P.add, a, b)
            for a, b in zip(state.acc, ins, strict=True)
        ]
    state.left -= 1
    if state.left > 0:
        return [None] * len(n.inputs)
    acc = state.acc
    for fn in list(n.node_hooks[1]):  # type: ignore[index]
        given = tuple(acc)
        r = _hook_result(fn, fn(given, state.outs), given)
        if r is not None:
            acc = list(r)[: len(n.inputs)]
    return acc


def _run_node_hooks(n: Node, gs: Any, g: Tensor, nb: int) -> list:
    """The node's hooks, in order, each given the gradients of its inputs (shaped as the
    inputs; None for one that does not require grad) and (grad_output,): a tuple one returns
    replaces them."""
    ins = [
        unbroadcast(as_tensor(gi, like=t), t.shape, nb)
        if gi is not None and t.requires_grad
        else None
        for t, gi in zip(n.inputs, gs)
    ]
    if n.label == "AddmmBackward0":
        return _run_addmm_hooks(n, ins, g)
    product = _product_of_view(n)
    if product is not None:
        return _run_product_view_hooks(n, ins, g, product, nb)
    edges = n.where_edges()
    if edges is not None:
        # a where (masked_fill): the hooks see the gradients of PyTorch's edges only
        for fn in list(n.node_hooks[1]):  # type: ignore[index]
            given = tuple(ins[i] for i in edges)
            r = _hook_result(fn, fn(given, (g,)), given)
            if r is not None:
                for i, gi in zip(edges, r):
                    ins[i] = gi
        return ins
    # A convolution without a bias: PyTorch's node has the bias's slot all the same (None).
    slot = len(ins) == 2 and n.name() == "ConvolutionBackward0"
    outs = _GIVEN.pop(n, None) or (g,)
    for fn in list(n.node_hooks[1]):  # type: ignore[index]
        given = (*ins, None) if slot else tuple(ins)
        r = _hook_result(fn, fn(given, outs), given)
        if r is not None:
            ins = list(r)[: len(n.inputs)]
    return ins


def _product_of_view(n: Node) -> tuple | None:
    """PyTorch computes a vector times a matrix as unsqueeze(0), mm, squeeze(0) (its last node
    SqueezeBackward4) and an N-d tensor times a matrix as reshape, mm, _unsafe_view
    (UnsafeViewBackward0): the last node is a view of the product, whose one input is the
    (1, m) or (N, m) product. gradcli's one matmul record is labelled as that node: the shape
    of PyTorch's product, or None for any other node."""
    if n.op.name != "matmul":
        return None
    x, w = n.inputs
    if w.ndim != 2:
        return None
    if n.label == "SqueezeBackward4" and x.ndim == 1:
        return (1, w.shape[1])
    if n.label == "UnsafeViewBackward0" and x.ndim > 2:
        return (int(np.prod(x.shape[:-1])), w.shape[1])
    return None


def _run_product_view_hooks(n: Node, ins: list, g: Tensor, shape: tuple, nb: int) -> list:
    """The hooks of the view that ends PyTorch's vector-matrix or N-d-matrix product (see
    `_product_of_view`): they see the gradient of the product (the output's gradient reshaped);
    one they return replaces it, and the operands' gradients follow from it by the rule."""
    given: tuple = (Tensor(np.reshape(g.data, shape)),)
    replaced = False
    for fn in list(n.node_hooks[1]):  # type: ignore[index]
        r = _hook_result(fn, fn(given, (g,)), given)
        if r is not None:
            given = tuple(r)
            replaced = True
    if not replaced:
        return ins
    if given[0] is None:
        return [None] * len(n.inputs)
    new = Tensor(np.reshape(given[0].data, g.shape))
    gs = n.op.vjp(new, n.out, *n.inputs, **n.params)
    return [
        unbroadcast(as_tensor(gi, like=t), t.shape, nb)
        if gi is not None and t.requires_grad
        else None
        for t, gi in zip(n.inputs, gs)
    ]


def _run_addmm_hooks(n: Node, ins: list, g: Tensor) -> list:
    """The hooks of nn.Linear / F.linear's AddmmBackward0 (a bias and a 2-D input): PyTorch's
    one addmm(bias, x, w.t()) is gradcli's product then this sum of (product, bias). The hooks
    see PyTorch's gradients of (bias, x, w.t()), the product's computed here by its own rule
    from the gradient of the product (None for an operand that does not require grad); what a
    hook returns for x and w.t() is what the product's node then gives its operands."""
    g_mm, g_bias = ins
    mm = producer(n.inputs[0], n.seq)
    if mm is not None and (mm.name() != "MmBackward0" or mm.inputs[0].ndim != 2):
        mm = None
    given: tuple = (g_bias, None, None)
    if mm is not None and g_mm is not None:
        x, wt = mm.inputs
        gx, gwt = mm.op.vjp(g_mm, mm.out, *mm.inputs, **mm.params)
        given = (
            g_bias,
            as_tensor(gx, like=x) if x.requires_grad else None,
            as_tensor(gwt, like=wt) if wt.requires_grad else None,
        )
    replaced = False
    for fn in list(n.node_hooks[1]):  # type: ignore[index]
        r = _hook_result(fn, fn(given, (g,)), given)
        if r is not None:
            given = tuple(r)
            replaced = True
    if replaced and mm is not None and g_mm is not None:
        # The product's node gives what the hook returned, once (in this pass).
        table = mm.node_hooks
        if table is None:
            table = mm.node_hooks = ([], [])
        chosen = (given[1], given[2])

        def once(gi: Any, go: Any) -> tuple:
            table[1].remove(once)
            return chosen

        table[1].insert(0, once)
    return [g_mm, given[0]]


# A gradient the pass made as a sum of several (PyTorch's input buffer then holds a tensor of
# its own), as opposed to one rule's gradient.
_MANY = object()

# The nodes whose backward in PyTorch gives each input a new tensor of its own (a product, a
# quotient, a matrix product...), never one it also gives another input or takes from the
# gradient it received (as add, a view or sum's expand do).
_FRESH_GRAD_NODES = frozenset(
    {
        "MulBackward0",
        "DivBackward0",
        "PowBackward0",
        "PowBackward1",
        "ExpBackward0",
        "LogBackward0",
        "Log1pBackward0",
        "SqrtBackward0",
        "SinBackward0",
        "CosBackward0",
        "TanBackward0",
        "TanhBackward0",
        "SigmoidBackward0",
        "ReluBackward0",
        "NegBackward0",
        "AbsBackward0",
        "MeanBackward0",
        "MeanBackward1",
        "MmBackward0",
        "MseLossBackward0",
        # the layers' and losses' kernels: each input's gradient is a tensor the kernel
        # allocates (checked in PyTorch 2.13: a hook's change in place reaches no other
        # gradient)
        "ConvolutionBackward0",
        "NativeBatchNormBackward0",
        "NativeLayerNormBackward0",
        "MaxPool2DWithIndicesBackward0",
        "AvgPool2DBackward0",
        "EmbeddingBackward0",
        "LogSoftmaxBackward0",
        "SoftmaxBackward0",
        "NllLossBackward0",
        "BinaryCrossEntropyBackward0",
        "BinaryCrossEntropyWithLogitsBackward0",
        "SmoothL1LossBackward0",
        "BmmBackward0",
        "MvBackward0",
        "DotBackward0",
        "GeluBackward0",
        "LeakyReluBackward0",
        "EluBackward0",
        "SiluBackward0",
        "SoftplusBackward0",
        "HardtanhBackward0",
        "HardswishBackward0",
        "PreluKernelBackward0",
        "ClampBackward1",
        "WhereBackward0",
        "MaximumBackward0",
        "SelectBackward0",
        "SliceBackward0",
        "IndexBackward0",
        "RepeatBackward0",
        "CumsumBackward0",
        "LinalgVectorNormBackward0",
    }
)


# The nodes whose backward in PyTorch gives their one input the gradient they received, or a
# view of it: that input's gradient is fresh when theirs is.
_PASSING_NODES = frozenset(
    {
        "ViewBackward0",
        "TBackward0",
        "TransposeBackward0",
        "PermuteBackward0",
        "UnsqueezeBackward0",
        "SqueezeBackward0",
        "SqueezeBackward1",
        "ReshapeAliasBackward0",
        "UnsafeViewBackward0",
        "AliasBackward0",
        "CloneBackward0",
    }
)


def _fresh(sources: dict[Any, Any], k: Any) -> bool:
    """Whether PyTorch's engine hands a leaf's hook a gradient tensor no other gradient
    shares, so that a change in place (`grad *= 2`) reaches the leaf's `.grad` alone: one
    several gradients were summed into, or one a product, quotient, matrix product... made
    (through views of it, an add's or addmm's pass-through to an input that alone receives
    it, or its reduction to a broadcast input's shape)."""
    for _ in range(100_000):
        src = sources.get(k)
        if src is _MANY:
            return True
        if src is None:
            return False
        n, i = src
        name = n.name()
        if name in _FRESH_GRAD_NODES:
            return True
        t = n.inputs[i]
        if name in ("AddBackward0", "SubBackward0", "AddmmBackward0"):
            if t.shape != n.out.shape or (name == "SubBackward0" and i == 1):
                return True  # summed to the input's shape, or negated: a new tensor
            if name == "AddmmBackward0" and i != 0:
                return True  # a matrix product
            if name == "AddBackward0" and any(
                u.requires_grad and u.shape == n.out.shape for j, u in enumerate(n.inputs) if j != i
            ):
                return False  # the same tensor goes to the other input too
        elif name not in _PASSING_NODES:
            return False
        if n.hooks or n.node_hooks:
            return False  # a hook given the tensor it passes on may have kept it
        k = n
    return False


# The leaves whose gradient PyTorch's AccumulateGrad would take as it is, under
# `enforce_grad_layout_policy(False)` (by id, with the gradient's array): `accumulate` keeps its
# layout rather than the leaf's.
STOLEN: dict[int, Any] = {}
# The nodes whose gradients PyTorch lays out by its own rules that NumPy's do not follow (a
# matrix product's gradient of a transposed operand is made transposed): laid out as the leaf.
_OWN_LAYOUT_NODES = ("Mm", "Addmm", "Bmm", "Baddbmm", "Mv", "Addmv", "Dot", "Convolution")


def _stealable(sources: dict[Any, Any], k: Any) -> bool:
    """Whether PyTorch's engine holds the leaf's gradient alone (`_fresh`), made by a node
    whose layout gradcli's array has."""
    fresh = _fresh(sources, k)
    src = sources.get(k)
    for _ in range(100_000):
        if src is None or src is _MANY:
            return fresh
        n, _i = src
        name = n.name()
        if name.startswith(_OWN_LAYOUT_NODES):
            return False
        if name in ("SumBackward0", "ExpandBackward0"):
            return True  # (the expanded gradient it makes, handed on alone)
        if name not in _PASSING_NODES:
            return fresh
        src = sources.get(n)
    return False


def _sibling_hooks(n: Node, g: Tensor, grads: dict, hooked: set) -> Tensor:
    """The first node of a call with several outputs (split, unbind, chunk) that the pass
    reaches with a gradient: as PyTorch's one node for them, the hooks of every output run
    now, in output order, an output that received no gradient giving its hooks None (every
    consumer of the outputs came later, so their gradients are complete). Returns `n`'s."""
    if n in hooked:
        return g  # (its hooks ran with the first of its siblings)
    nodes = [s for s in (ref() for ref in n.siblings) if s is not None]
    hooked.update(nodes)
    # (in the order each output's first hook was registered, as PyTorch's node keeps them)
    for s in sorted((s for s in nodes if s.hooks), key=lambda s: getattr(s.hooks, "order", 0)):
        if s is n:
            g = _run_hooks(s.hooks, g, s.out)
            continue
        gs = grads.get(s)
        if gs is not None:
            grads[s] = _run_hooks(s.hooks, gs, s.out)
            continue
        for fn in list(s.hooks):
            if isinstance(fn, PostAccumulateHook):
                continue
            if isinstance(fn, LevelHook) and not fn.active():
                continue
            if fn(None) is not None:
                raise GradcliError(
                    "can't replace a None gradient with a non-None value",
                    hint="return None from a hook given None (an output that received no gradient)",
                )
    return g


def _run_hooks(fns: list, g: Tensor, t: Tensor, leaf: bool = False, own: bool = False) -> Tensor:
    """The tensor's hooks in the order they were registered, each given the gradient so far:
    a value one returns replaces it (PyTorch's `register_hook`). `own`: a leaf's gradient that
    PyTorch's engine holds alone (`_fresh`): a hook may change it in place."""
    if own and (g.node is not None or g.requires_grad):
        own = False  # a gradient with a graph (create_graph=True) is handed as before
    g = Tensor(np.array(g.data, copy=True)) if own else handed(g)
    for fn in list(fns):
        if isinstance(fn, PostAccumulateHook):
            continue  # run after the gradient is accumulated (`backward`)
        if isinstance(fn, LevelHook) and not fn.active():
            continue  # a transform's level's hook, in an enclosing level's pass
        version = g._version
        r = fn(g)
        if leaf and not own and g._version != version:
            # A leaf's hook: PyTorch runs it as soon as the leaf's gradient is ready, on the
            # engine's own buffer, which gradients still to flow elsewhere may share (an add
            # gives its two inputs the same tensor), so a change in place reaches them; gradcli
            # runs leaves' hooks after the pass and does not reproduce that: it says so (unless
            # the gradient is one PyTorch gives the leaf alone: `own`).
            raise NotSupported(
                "a gradient hook on a leaf tensor changed its gradient in place (grad *= ..., "
                "grad.mul_(...)): PyTorch's hooks must not modify their argument, and what such "
                "a change reaches in PyTorch depends on which gradients share its memory in its "
                "engine, which gradcli does not reproduce (it does follow the change when the "
                "gradient is one PyTorch gives the leaf alone: a product's, a power's, a matrix "
                "product's, or a sum of several)",
                hint="return the new gradient instead: return grad * 100",
            )
        if r is not None:
            check_hook_value(fn, g, r)
            g = r
    return g


def check_hook_value(fn: Any, g: Tensor, r: Any) -> None:
    """What a tensor's hook returned in place of gradient `g`, checked as PyTorch's
    check_single_result: a tensor of `g`'s type, then of its size."""
    if not isinstance(r, Tensor):
        raise GradcliError(
            f"expected Variable, but hook returned '{pytype_name(r)}'",
            hint="a hook returns a tensor (the new gradient) or None",
        ).mirror("TypeError")
    if r.dtype != g.dtype:
        raise GradcliError(
            f"hook '{_hook_name(fn)}' has changed the type of value (was "
            f"{dtypes.type_string(g.dtype)} got {dtypes.type_string(r.dtype)})",
            hint="return the gradient in the tensor's own dtype: "
            f"....to({dtypes.torch_name(g.dtype)})",
        )
    if r.shape != g.shape:
        raise GradcliError(
            f"hook '{_hook_name(fn)}' has changed the size of value",
            hint=f"a hook returns a gradient of the tensor's own shape {list(g.shape)}, "
            f"not {list(r.shape)}",
        )


_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
# PyTorch's hint when anomaly detection is on as the changed value is read (a backward pass,
# or a grad_fn's `_saved_...`): its warning on stderr shows the forward call that saved it.
_ANOMALY_HINT = (
    "Hint: the backtrace further above shows the operation that failed to compute its "
    "gradient. The variable in question was changed in there or anywhere later. Good luck!"
)


def check_versions(n: Node) -> None:
    """`check_saved`, when something was changed in place since `n` was recorded (cheap)."""
    if n.mark != MUTATIONS[0] and n.op.saves:
        check_saved(n)


def check_saved(n: Node, copies: dict | None = None) -> None:
    """Refuse, in PyTorch's words, a node whose rule reads a value changed in place since the
    node was recorded (its output, or one of its inputs; not one whose value was copied
    before the change: `copies`, allow_mutation_on_saved_tensors)."""
    if n.op.kind == "custom":
        return
    reads_out, reads = reads_of(n)
    vs = n.versions
    count = len(n.inputs)
    out = n.out
    if copies:
        reads = frozenset(range(count) if reads is None else reads) - set(copies)
        reads_out = reads_out and -1 not in copies
    if reads_out:
        now = out._version
        then = vs[-1] if vs is not None else 0
        if now != then:
            raise _modified(out, n.name(), now, then)
    for i, t in enumerate(n.inputs):
        if reads is not None and i not in reads:
            continue
        if i in _CROSS.get(n.op.name, ()) and not any(
            u.requires_grad for j, u in enumerate(n.inputs) if j != i
        ):
            continue  # mul saves an input only for the other input's gradient
        now = t._version
        then = vs[i] if vs is not None and i < count else 0
        if now != then:
            current(t, changed=True)  # (PyTorch names a changed view's regenerated node)
            raise _modified(t, t.node.name() if t.node is not None else None, now, then)


# Ops whose rule reads an input (by position) only for the other input's gradient: a
# product's two, a quotient's numerator (DivBackward0 saves `self` only when the divisor needs
# a gradient).
_CROSS: dict[str, tuple[int, ...]] = {"mul": (0, 1), "matmul": (0, 1), "div": (0,)}


def modified_error(
    t: Tensor, producer_name: str | None, now: int, then: int, output_nr: int = 0
) -> GradcliError:
    """PyTorch's error for a saved value `t` changed in place (version `then` when saved,
    `now`), made by output `output_nr` of the node named `producer_name` (None: a leaf)."""
    return _modified(t, producer_name, now, then, output_nr)


def _modified(
    t: Tensor, producer_name: str | None, now: int, then: int, output_nr: int = 0
) -> GradcliError:
    kind = dtypes.type_string(t.dtype)
    which = ""
    if producer_name is not None:
        # PyTorch names the node without "Backward" and without the overload number 0:
        # MulBackward0 is "Mul", FillBackward2 "Fill2", torch::autograd::CopySlices as it is.
        stem, sep, number = producer_name.rpartition("Backward")
        if sep and number.isdigit():
            short = stem + ("" if number == "0" else number)
        elif sep and not number:  # a custom Function's node: `ExpBackward` is "Exp"
            short = stem
        else:
            short = producer_name
        which = f", which is output {output_nr} of {short},"
    return GradcliError(
        "one of the variables needed for gradient computation has been modified by an "
        f"inplace operation: [{kind} {list(t.shape)}]{which} is at version {now}; expected "
        f"version {then} instead. {_ANOMALY_HINT if _GradMode.anomaly else _HINT}",
        hint="change a copy (y = x.clone()) or make a new tensor (y = y + 1) instead of "
        "changing a value backward needs",
    )


_READS: dict[int, tuple[bool, frozenset[int] | None]] = {}
# A tensor's attributes a change in place leaves as they were.
_METADATA = frozenset({"shape", "ndim", "dtype", "requires_grad", "device"})


def reads_of(n: Node) -> tuple[bool, frozenset[int] | None]:
    """Whether node `n`'s rule reads its output, and which of its inputs (None: any)."""
    return _reads(n.op) if n.op.reads is None else n.op.reads(n.params)


def _reads(op: Any) -> tuple[bool, frozenset[int] | None]:
    """Whether `op`'s rule reads `out`, and which inputs it reads (None: it may read any),
    from the rule's code (cached per rule)."""
    fn = op.vjp
    key = id(fn)
    got = _READS.get(key)
    if got is not None:
        return got
    import dis

    code = getattr(fn, "__code__", None)
    if code is None or code.co_flags & 0x04 or code.co_argcount < 2:  # *inputs: any
        got = (True, None)
    else:
        # A name the rule loads only to read its metadata (`out.ndim`, `x.shape`: what a
        # change in place keeps) is not a value it reads: PyTorch saves sizes, not the tensor.
        names: set[str] = set()
        ins_list = list(dis.get_instructions(code))
        for k, ins in enumerate(ins_list):
            if ins.opname.startswith(("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE", "MAKE_CELL")):
                v = ins.argval
                nxt = ins_list[k + 1] if k + 1 < len(ins_list) else None
                if (
                    ins.opname.startswith(("LOAD_FAST", "LOAD_DEREF"))
                    and nxt is not None
                    and nxt.opname == "LOAD_ATTR"
                    and nxt.argval in _METADATA
                ):
                    continue
                names.update(v if isinstance(v, tuple) else (v,))
        params = code.co_varnames[: code.co_argcount]
        got = (
            params[1] in names,
            frozenset(i for i, p in enumerate(params[2:]) if p in names),
        )
    _READS[key] = got
    return got


def _roots_and_grads(
    outputs: Any, grads: Any, hidden: Callable[[Tensor], bool] | None = None
) -> tuple[list[Tensor], list[Tensor]]:
    """The outputs and their gradients, checked as PyTorch checks them. `hidden(t)`: an output
    autograd does not see as requiring grad (a BatchedTensor of the vmap running innermost)."""
    if outputs is None or isinstance(outputs, (bool, int, float)):
        # PyTorch makes a tuple of what is not a Tensor: Python's words for a number or None
        name = "NoneType" if outputs is None else type(outputs).__name__
        raise GradcliError(
            f"'{name}' object is not iterable",
            hint="differentiate a Tensor (or a list of Tensors) the program computed",
        ).mirror("TypeError")
    outs = list(outputs) if isinstance(outputs, (list, tuple, str)) else [outputs]
    if (
        grads is None
        or isinstance(grads, (Tensor, int, float, np.ndarray))
        or (
            isinstance(grads, list)
            and grads
            and not isinstance(grads[0], (Tensor, type(None), np.ndarray))
        )
    ):
        gl = [grads] if len(outs) == 1 else [grads] * len(outs)
    else:
        gl = list(grads)
    if len(gl) != len(outs):
        raise GradcliError(
            f"grad requires one gradient per output: got {len(gl)} gradients for "
            f"{len(outs)} outputs"
        )
    for o in outs:
        if not isinstance(o, Tensor):
            raise GradcliError(
                "Expected output to be a torch.Tensor",
                found=typename(o),
                hint="every output to differentiate must be a Tensor (a grad() result that "
                "is None cannot be differentiated again)",
            ).mirror("AssertionError")
    # PyTorch checks the gradients given against the outputs first (their shapes; a missing
    # one only for an output that requires grad), then that the outputs require grad.
    needs = [o.requires_grad and not (hidden and hidden(o)) for o in outs]
    checked = [
        _check_gradient(o, g, i, gl, outs) if g is not None or need else None
        for i, (o, g, need) in enumerate(zip(outs, gl, needs))
    ]
    _all_require_grad(outs, hidden)
    return outs, checked


def _all_require_grad(outs: list[Any], hidden: Callable[[Tensor], bool] | None) -> None:
    """The engine's check of the outputs, in their order: the first one not requiring grad."""
    for i, o in enumerate(outs):
        inside = bool(isinstance(o, Tensor) and hidden and hidden(o))
        if not isinstance(o, Tensor) or not o.requires_grad or inside:
            raise GradcliError(
                f"element {i} of tensors does not require grad and does not have a grad_fn",
                hint="inside vmap a tensor mapped over has no grad_fn: map a torch.func "
                "transform instead (vmap(torch.func.grad(f)))"
                if inside
                else "create the inputs with requires_grad=True",
            )


def _batched_roots(
    outputs: Any, grads: Any, hidden: Callable[[Tensor], bool] | None = None
) -> tuple[list[Tensor], list[Tensor]]:
    """The outputs and their batched grad_outputs (`is_grads_batched=True`), checked as
    PyTorch checks them (its message shows the shape from the third axis on)."""
    outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    gl = list(grads) if isinstance(grads, (list, tuple)) else [grads]
    if len(gl) != len(outs):
        raise GradcliError(
            f"grad requires one gradient per output: got {len(gl)} gradients for "
            f"{len(outs)} outputs"
        )
    if not all(isinstance(o, Tensor) for o in outs):
        _all_require_grad(outs, hidden)
    checked = []
    for i, (o, g) in enumerate(zip(outs, gl)):
        if g is None:
            raise GradcliError(
                "is_grads_batched=True needs a batched grad_output for every output",
                hint="pass grad_outputs with the batch axis first",
            )
        g = as_tensor(g, like=o)
        if g.ndim == 0 or g.shape[1:] != o.shape:
            # (where: found by `list.index`, as for an unbatched gradient, `_listed_at`)
            at_g, at_o = _listed_at(gl, i), _listed_at(outs, i)
            raise GradcliError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions are "
                "expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{at_g}] has a shape of torch.Size({list(g.shape[2:])}) "
                f"and output[{at_o}] has a shape of torch.Size({list(o.shape)}). If you only "
                "want some tensors in `grad_output` to be considered batched, consider using "
                "vmap."
            )
        if g.dtype != o.dtype and g.dtype.kind != "c" and o.dtype.kind != "c":
            g = Tensor(g.data.astype(o.dtype))  # (an integer or bool one too, as unbatched)
        checked.append(g)
    sizes = [g.shape[0] for g in checked]
    if len(set(sizes)) > 1:
        raise GradcliError(
            "vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sizes} for the mapped dimension"
        ).mirror("ValueError")
    # (after the grad_outputs' checks, as PyTorch's engine sees the outputs after its vmap)
    _all_require_grad(outs, hidden)
    return outs, checked


# PyTorch's engine warns once per process when backward() builds a graph of the gradients.
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)


def backward(
    outputs: Any,
    gradients: Any = None,
    *,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Sequence[Tensor] | None = None,
) -> None:
    """`torch.autograd.backward`: accumulate into the `.grad` of leaves (or of `inputs`)."""
    outs, gl = _roots_and_grads(outputs, gradients)
    if create_graph:
        hooks.warn(
            CREATE_GRAPH_CYCLE, "torch.autograd.grad(..., create_graph=True) avoids it", once=True
        )
    retain = create_graph if retain_graph is None else retain_graph
    capture = list(inputs) if inputs else []
    wanted = {id(c) for c in capture}
    fresh: set[int] = set()
    if HOOKED:  # (see `op.HOOKED`: a node only a cycle holds is not PyTorch's any more)
        gc.collect(1)
    valid = GRAD_CALL[0]
    GRAD_CALL[0] = "inputs" if capture else None
    done: set[int] = set()

    def on_leaf(k: int, t: Tensor, g: Tensor) -> None:
        # a leaf's gradient is accumulated as soon as its hooks ran, as PyTorch's engine runs
        # one leaf's AccumulateGrad (tensor hooks, pre-hooks, .grad, post-accumulate-grad
        # hooks, hooks) before the next leaf's
        done.add(k)
        if t.requires_grad and (k in wanted if capture else t.node is None):
            _accumulate_leaf(t, g, create_graph, copy=k not in fresh or bool(t._hooks))

    try:
        got = run_backward(
            outs,
            gl,
            create_graph=create_graph,
            retain_graph=retain,
            capture=capture,
            fresh=fresh,
            prune="backward" if capture else None,
            on_leaf=on_leaf,
        )
    finally:
        GRAD_CALL[0] = valid
    try:
        for k, (t, g) in got.items():
            # Without `inputs`: the leaves; with it: exactly those tensors.
            if k in done:
                continue
            if not t.requires_grad or (id(t) not in wanted if capture else t.node is not None):
                continue
            _accumulate_leaf(t, g, create_graph, copy=k not in fresh or bool(t._hooks))
    finally:
        STOLEN.clear()


def _accumulate_leaf(t: Tensor, g: Tensor, create_graph: bool, copy: bool) -> None:
    """A backward pass's gradient into `t.grad` with the hooks around it, in PyTorch's order:
    its AccumulateGrad node's pre-hooks, the sum, post-accumulate-grad hooks, the node's hooks
    (the tensor's own hooks ran before, in the pass)."""
    acc = live_accumulator(t) if t.node is None else None
    if acc is not None and not (acc.pre or acc.post):
        acc = None
    if type(g) is SparseCOO and acc is not None:
        raise sparse_refusal("an AccumulateGrad hook")
    if acc is not None and acc.pre:  # the leaf's AccumulateGrad node's pre-hooks
        g = _accumulate_prehooks(acc, g)
    accumulate(t, g, create_graph, copy=copy or acc is not None)
    if t._hooks:
        for h in list(t._hooks):
            if isinstance(h, PostAccumulateHook):
                # part of the backward pass: PyTorch runs it in no-grad mode (unless
                # create_graph), so an optimizer step in it (`p.add_(p.grad, ...)`) is allowed
                with enable_grad() if create_graph else no_grad():
                    h.fn(t)
    if acc is not None and acc.post:  # and its hooks: fn((), (grad,)), after both
        for fn in list(acc.post):
            r = fn((), (g,))
            if r is not None:
                _accumulate_result(fn, r, 0)


def _hook_name(fn: Any) -> str:
    """The hook's name as PyTorch's messages give it: its `__name__` (a lambda's is
    `<lambda>`), `<unknown>` for a callable without one (an instance, a functools.partial)."""
    name = getattr(fn, "name", None)
    return name if isinstance(name, str) else "<unknown>"


def _accumulate_result(fn: Any, r: Any, expected: int) -> tuple:
    """What a hook of an AccumulateGrad node returned, checked in PyTorch's words."""
    if not isinstance(r, tuple):
        kind = "Tensor" if isinstance(r, Tensor) else type(r).__name__
        raise GradcliError(f"expected tuple, but hook returned '{kind}'").mirror("TypeError")
    if len(r) != expected:
        raise GradcliError(
            f"hook '{_hook_name(fn)}' has returned an incorrect number of values (got "
            f"{len(r)}, but expected {expected})"
        )
    return r


def _accumulate_prehooks(acc: Any, g: Tensor) -> Tensor:
    """An AccumulateGrad node's pre-hooks, in order, each given (grad,): a tuple one returns
    replaces it (a tensor of the same shape, or None to keep it)."""
    g = handed(g)
    for fn in list(acc.pre):
        r = fn((g,))
        if r is None:
            continue
        (v,) = _accumulate_result(fn, r, 1)
        if v is None:
            continue
        check_hook_value(fn, g, v)
        g = v
    return g


_COPY = "torch::autograd::CopyBackwards"


def accumulate(t: Tensor, g: Tensor, create_graph: bool = False, copy: bool = True) -> None:
    _accumulate(t, g, create_graph, copy)
    if META and t in META and t.grad is not None:
        META.add(t.grad)  # (a meta tensor's gradient is one)


def _accumulate(t: Tensor, g: Tensor, create_graph: bool = False, copy: bool = True) -> None:
    """Add a pass's gradient into `t.grad` as PyTorch's AccumulateGrad does. The first pass
    stores a new tensor: with create_graph=True a recorded copy of the gradient (CopyBackwards,
    differentiable when the gradient is). A later pass without create_graph adds into that same
    tensor in place, even one that has a history (a name bound to `x.grad` sees the sum, and
    the tensor keeps its grad_fn); with create_graph=True it adds out of place (the sum is then
    differentiable)."""
    cur = t.grad
    if type(g) is SparseCOO or type(cur) is SparseCOO:
        _accumulate_sparse(t, g, create_graph, copy)
        return
    if cur is not None:
        own(cur)  # a lent `.grad` (`x.grad = w`, `core.tensor.lend`) is copied before the sum
    if cur is None:
        if create_graph and g.requires_grad:
            # new_empty_strided(...).copy_(g): x + (-0.0) is x for every float (signed zeros,
            # infinities and NaN included), in a fresh array, recorded under PyTorch's name.
            # The copy_ counts as the new tensor's first change in place (version 1).
            with enable_grad():
                copied = apply(P.add, g, Tensor(np.array(-0.0, g.dtype)), label=_COPY)
            bumped(copied)
            t.grad = copied
        else:
            # A copy (unless the pass made this array for it): the gradient may be the caller's
            # own upstream array (or shared with another leaf's), and `.grad.zero_()` must
            # never reach those.
            # Laid out as the tensor is (PyTorch's AccumulateGrad "layout contract"): a
            # contiguous parameter gets a contiguous gradient even when the pass made a
            # transposed one (nn.Linear's weight), so `w.grad.view(-1)` works as in PyTorch.
            # Under `enforce_grad_layout_policy(False)` a gradient the pass made for it is
            # kept in its own layout (PyTorch steals it without the copy).
            stolen = STOLEN.pop(id(t), None) is g.data if STOLEN else False
            if stolen and 0 in g.data.strides and g.data.size > 1:
                raise NotSupported(
                    "a broadcast gradient under torch.autograd.enforce_grad_layout_policy(False) "
                    "is not supported by gradcli (PyTorch stores the expanded tensor itself as "
                    ".grad)",
                    hint="leave the policy on (the default) for this backward pass",
                )
            if stolen and g.data.strides != t.data.strides:
                t.grad = Tensor(np.array(g.data, order="K"))  # its own layout, as PyTorch's
            elif copy or g.data.strides != t.data.strides:
                laid = np.empty_like(t.data, dtype=g.dtype)  # the leaf's order of dimensions
                np.copyto(laid, g.data)
                t.grad = Tensor(laid)
            else:
                t.grad = g
    elif (
        create_graph or cur.shape != g.shape or cur.dtype != g.dtype or not cur.data.flags.writeable
    ):
        t.grad = apply(P.add, cur, g)
        _layout_warning(t.grad, t)
    else:
        add_into(cur.data, g.data)
        bumped(cur)
        _layout_warning(cur, t)


def _elements(a: np.ndarray) -> list[int]:
    return [s // a.itemsize for s in a.strides]


def _layout_warning(grad: Tensor, t: Tensor) -> None:
    """PyTorch's warning (once) for a sum into `.grad` laid out otherwise than the layout
    contract asks (`t`'s strides for a dense `t`, else contiguous), when the policy holds."""
    if not _GradMode.grad_layout or not isinstance(grad, Tensor):
        return
    a, v = grad.data, t.data
    if a.strides == v.strides or a.ndim != v.ndim:
        return
    gs, vs = _elements(a), _elements(v)
    order = sorted((st, n) for st, n in zip(vs, v.shape) if n != 1)
    dense, expect = True, 1
    for st, n in order:
        dense = dense and st == expect
        expect *= n
    if dense:
        fine = all((g0 == v0) if n != 1 else g0 != 0 for g0, v0, n in zip(gs, vs, v.shape))
    else:
        fine = bool(a.flags.c_contiguous)
    if fine:
        return
    hooks.warn(
        "grad and param do not obey the gradient layout contract. This is not an error, but "
        f"may impair performance.\ngrad.sizes() = {list(a.shape)}, strides() = {gs}\n"
        f"param.sizes() = {list(v.shape)}, strides() = {vs}",
        once="grad layout contract",
    )


def _accumulate_sparse(t: Tensor, g: Any, create_graph: bool, copy: bool) -> None:
    """AccumulateGrad where a sparse gradient is met: the first stored (a copy, its values
    contiguous), a sparse one added to a sparse `.grad` in place (`core.sparse.add`), to a
    dense one in place (`add_rows`); a dense one to a sparse `.grad` makes a new dense tensor
    (PyTorch's `new_grad + variable_grad`)."""
    if create_graph:
        raise sparse_refusal("backward(create_graph=True)")
    cur = t.grad
    if cur is None:
        t.grad = g.clone() if type(g) is SparseCOO else Tensor(np.array(g.data))
    elif type(cur) is SparseCOO and type(g) is SparseCOO:
        cur.set(sparse_add(cur, g))
    elif type(cur) is SparseCOO:
        t.grad = sparse_sum(g, cur)
    elif not cur.data.flags.writeable or not cur.data.flags.c_contiguous:
        t.grad = sparse_sum(cur, g)
    else:
        add_rows(cur.data, g)
        bumped(cur)


def sparse_sum(cur: Any, g: Any) -> Any:
    """Two gradients of one tensor summed where one (or both) is sparse: two sparse ones
    by ATen's sparse sum (`core.sparse.add`), a dense one and a sparse one a new dense
    tensor (the dense values, the sparse entries added: `add_rows`)."""
    if cur is None:
        return g
    if type(cur) is SparseCOO and type(g) is SparseCOO:
        return sparse_add(cur, g)
    dense, s = (cur, g) if type(g) is SparseCOO else (g, cur)
    dense = as_tensor(dense)
    if dense.shape != s.shape:
        raise sparse_refusal("a sum with a dense gradient of another shape")
    out = np.array(dense.data, dtype=np.result_type(dense.dtype, s.dtype), order="C")
    add_rows(out, s)
    return Tensor(out)


def add_into(acc: np.ndarray, g: np.ndarray) -> None:
    """acc += g in place, as a gradient sum: a bfloat16 one computed in float32 and rounded."""
    if acc.dtype == dtypes.BF16:
        acc[...] = dtypes.round_bf16(acc.astype(np.float32) + g.astype(np.float32))
    else:
        np.add(acc, g, out=acc)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
    is_grads_batched: bool = False,
    hidden: Callable[[Tensor], bool] | None = None,
    sparse: bool = False,
) -> tuple[Tensor | None, ...]:
    """`torch.autograd.grad`: the gradients, returned, with no `.grad` touched. With
    `is_grads_batched`, the first axis of every grad_output is a batch: one pass computes
    the gradients for all of them (each result has that axis first). `sparse`: a sparse
    gradient (an embedding's, sparse=True) may be returned (the program's own call); the
    library's callers (jacobian, gradcheck, torch.func) are refused one."""
    if is_grads_batched:
        outs, gl = _batched_roots(outputs, grad_outputs, hidden)
    else:
        outs, gl = _roots_and_grads(outputs, grad_outputs, hidden)
    nb = 1 if is_grads_batched else 0
    if isinstance(inputs, Tensor):
        ins = [inputs]
    elif isinstance(inputs, (list, tuple)) or (
        hasattr(inputs, "__iter__") and not isinstance(inputs, (str, bytes, dict))
    ):
        # A sequence, or what `module.parameters()` gives: PyTorch takes any iterable of tensors.
        ins = list(inputs)
    else:
        ins = [inputs]
    for t in ins:
        if not isinstance(t, Tensor) or not t.requires_grad or (hidden and hidden(t)):
            raise GradcliError("One of the differentiated Tensors does not require grad")
    retain = create_graph if retain_graph is None else retain_graph
    if _GradMode.vmap_keep:
        retain = True
    valid = GRAD_CALL[0]
    GRAD_CALL[0] = "grad"
    try:
        got = run_backward(
            outs,
            gl,
            nb=nb,
            create_graph=create_graph,
            retain_graph=retain,
            capture=ins,
            prune="grad",
        )
    finally:
        GRAD_CALL[0] = valid
    result: list[Tensor | None] = []
    for i, t in enumerate(ins):
        g = got[id(t)][1] if id(t) in got else None
        if g is None:
            if materialize_grads:
                g = Tensor(np.zeros(t.shape, dtype=t.dtype))  # unbatched, as PyTorch's
            elif not allow_unused:
                raise GradcliError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior.",
                    hint=f"input {i} does not influence the output",
                )
        if type(g) is SparseCOO and not sparse:
            raise sparse_refusal("a gradient transform (jacobian, gradcheck, torch.func)")
        result.append(g if g is None else handed(g))
    return tuple(result)


def _tensor_backward(
    self: Tensor,
    gradient: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Sequence[Tensor] | None = None,
) -> None:
    """Accumulate d(self)/d(leaf), weighted by `gradient`, into each leaf's `.grad`."""
    backward(
        [self], [gradient], retain_graph=retain_graph, create_graph=create_graph, inputs=inputs
    )


# `Tensor` is defined below the records this module applies, so its method is installed here.
Tensor.backward = _tensor_backward  # type: ignore[attr-defined]


# PyTorch's one node for the pieces of one tensor (`a, b = x.split(2)`, `x.unbind(0)`,
# `x.chunk(3)`), called with one gradient per piece; gradcli records a node per piece, its
# siblings told of each other (`link_siblings`).
_PIECES_NODES = frozenset(("SplitBackward0", "SplitWithSizesBackward0", "UnbindBackward0"))


def _call_pieces(n: Node, args: Sequence[Any], refused: GradcliError) -> Any:
    """`a.grad_fn(ga, gb)` of pieces of one tensor: the gradient of that tensor, each piece's
    gradient put in its place (None: zeros there; all None: None), as PyTorch's node."""
    nodes = [ref() for ref in n.siblings or ()]
    if any(s is None or s.out is None or len(s.inputs) != 1 for s in nodes):
        raise refused
    x = n.inputs[0]
    if any(s.inputs[0] is not x for s in nodes):
        raise refused
    if len(args) != len(nodes):
        raise GradcliError(f"expected {len(nodes)} arguments, got {len(args)} instead").mirror(
            "TypeError"
        )
    total: Any = None
    for k, (s, g) in enumerate(zip(nodes, args, strict=True)):
        if g is None:
            continue
        if not isinstance(g, Tensor):
            raise GradcliError(f"argument {k} is not a Variable").mirror("TypeError")
        out = s.out
        if g.shape != out.shape or g.dtype != out.dtype:
            raise NotSupported(
                "calling a grad_fn node with a gradient of another shape or dtype than its "
                f"output's ({list(out.shape)}, {out.dtype}) is not supported by gradcli",
                hint="pass gradients shaped as the node's outputs, or use torch.autograd.grad",
            )
        if s.freed:
            raise GradcliError(SECOND_BACKWARD).mirror("RuntimeError").pytorch()
        part = _vjp(s.op, g, out, s.inputs, s.params)[0]
        if part is None:
            continue
        part = as_tensor(part, like=x)
        if part.shape != x.shape or part.dtype != x.dtype:
            raise refused
        if total is None:
            total = part
        else:
            # each piece's gradient in its place, as PyTorch's node puts it (not a sum: a -0.
            # of one piece stays -0.; `_piece_region`)
            before = total
            total = total + part
            region = _piece_region(s, part, 0)
            d = total.data
            if region is not None and type(d) is np.ndarray and d.flags.writeable:
                np.copyto(d, before.data)
                d[region] = part.data[region]
    return total if x.requires_grad else None


def call_node(n: Node, args: Sequence[Any], kwargs: dict) -> Any:
    """`y.grad_fn(g)`: the node's rule applied to the gradient `g` of its output, as PyTorch's
    node call computes it: in the current grad mode (the result records a graph where the
    rule's values require grad), for each input its gradient before any reduction to the
    input's shape (a broadcast operand's is the output's shape), None for an input that does
    not require grad; one input's gradient alone, several as a tuple. Nodes whose inputs are
    not PyTorch's (gradcli records one equation for several of PyTorch's nodes, or PyTorch's
    one node as several), and gradients of another shape or dtype than the output's, are
    refused in plain words rather than answered otherwise."""
    from .op import OUTPUT_NR, SHOWN_INPUTS

    if kwargs:
        raise GradcliError(
            f"{n.name()}() takes no keyword arguments".removeprefix("torch::autograd::")
        ).mirror("TypeError")
    refused = NotSupported(
        f"calling the grad_fn node {n.name()} directly is not supported by gradcli",
        hint="compute the gradients with torch.autograd.grad(outputs, inputs, grad_outputs=...)",
    )
    if n.siblings is not None and n.name() in _PIECES_NODES:
        return _call_pieces(n, args, refused)
    op = n.op
    if (
        op.kind == "custom"
        or op.part
        or n.node_hooks
        or (SHOWN_INPUTS and n in SHOWN_INPUTS)
        or n in OUTPUT_NR
        or n.label in ("AddmmBackward0", "SqueezeBackward4", "UnsafeViewBackward0")
        or n.name() == "ConvolutionBackward0"
        or n.packed is not None
        or (SAVED_COPIES and n in SAVED_COPIES)
    ):
        # (before the count of gradients: the node of an op with several outputs, eigh's,
        # takes one per output, which gradcli's node per output cannot answer)
        raise refused
    out = n.out
    if out is None:
        raise refused
    if len(args) != 1:
        raise GradcliError(f"expected 1 arguments, got {len(args)} instead").mirror("TypeError")
    g = args[0]
    if n.freed:
        raise GradcliError(SECOND_BACKWARD).mirror("RuntimeError").pytorch()
    if op.saves:
        check_saved(n)
    ins = n.inputs
    if g is None:
        gs: Any = [None] * len(ins)
    else:
        if not isinstance(g, Tensor):
            raise GradcliError(
                f"{n.name()}(): argument 'grad' must be a Tensor, not {type(g).__name__}"
            ).mirror("TypeError")
        if g.shape != out.shape or g.dtype != out.dtype:
            raise NotSupported(
                f"calling a grad_fn node with a gradient of another shape or dtype than its "
                f"output's ({list(out.shape)}, {out.dtype}) is not supported by gradcli",
                hint="pass a gradient shaped as the node's output, or use torch.autograd.grad",
            )
        if any(t.dtype != out.dtype for t in ins):
            raise refused
        gs = list(_vjp(op, g, out, ins, n.params))
    result: list[Any] = []
    for t, gi in zip(ins, gs, strict=True):
        if gi is None or not t.requires_grad:
            result.append(None)
            continue
        gi = as_tensor(gi, like=t)
        if gi.dtype != t.dtype:
            raise refused
        if t.shape == out.shape or op.kind not in ("elementwise", "binary"):
            if gi.shape != t.shape:
                raise refused
        elif gi.shape != out.shape:  # a broadcast operand: PyTorch's is the output's shape
            raise refused
        result.append(gi)
    if len(result) != len(n.next_functions):  # (PyTorch's edges are not gradcli's inputs)
        raise refused
    return result[0] if len(result) == 1 else tuple(result)
