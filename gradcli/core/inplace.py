"""Changes in place, as PyTorch makes them: `x.add_(1)`, `h += 1`, `y[0] = v`, `x.data -= ...`.

The tensor object itself changes (every name bound to it sees it): its storage is written (so
every tensor sharing the storage sees it too), its version counter goes up, and when the change
is differentiable the tensor gets the node of the change as its `grad_fn`. Nodes recorded
before keep differentiating through the old version (`Node.prev`), and a backward pass refuses
to use a value that a node saved and that was changed since (`autograd.check_saved`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import GradcliError, NotSupported
from . import dtypes, hooks
from .op import SEQ, current, versioned
from .tensor import (
    CONJ_VIEWS,
    CUSTOM_VIEW_TAIL,
    CUSTOM_VIEWS,
    NOGRAD_CUSTOM,
    NOGRAD_VIEWS,
    NOGRAD_VIEWS_OF,
    RECORDED_CHANGES,
    Tensor,
    _GradMode,
    bumped,
    check_batched_write,
    conj_address,
    counter,
    own,
)

LEAF = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
NOGRAD_VIEW_TAIL = (
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)
NOGRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    + NOGRAD_VIEW_TAIL
)


# Set by `surface.indexing`: `rebase(view, tensor indexed, index, new value)` records the
# change of a view as `tensor[index] = new value` (PyTorch's CopySlices on the tensor) and
# makes the view a view of the tensor's new version.
REBASE: Callable[[Tensor, Tensor, Any, Tensor], None] | None = None
# Set by `surface.func`: `capture_check(x, op)` refuses, in PyTorch's words, to change in place
# a tensor a torch.func grad transform running now captured (made outside it and not passed to
# it), naming the operation as PyTorch does (`op()`: "aten::add_.Tensor").
CAPTURE_CHECK: Callable[[Tensor, Callable[[], str]], None] | None = None


def check_capture(x: Tensor, op: str | Callable[[], str] | None) -> None:
    """Inside a torch.func transform, the check of `CAPTURE_CHECK` for a change of `x` in place
    by the operation `op` (its ATen name, or a function giving it; None: a write, `copy_`)."""
    if CAPTURE_CHECK is None or not _GradMode.transforms:
        return
    if op is None:
        op = "aten::copy_"
    CAPTURE_CHECK(x, op if callable(op) else (lambda: op))


# Set by `surface.indexing`: `storage_index(view data, base data)`, the index of the base that
# picks a view's elements from the storage they share (None when it cannot be told).
STORAGE_INDEX: Callable[[np.ndarray, np.ndarray], tuple | None] | None = None


def view_key(x: Tensor) -> tuple[Tensor, Any] | None:
    """(the tensor x views, the index of it that x shows) for a view whose in-place change can
    be recorded on that tensor: a basic-index view by its index, any other view (`view`,
    `t()`, `diagonal()`, `narrow`...) by the storage places it shows of its base, as PyTorch
    records any view's change (CopySlices over an as_strided view of the base)."""
    if x._view is not None:
        return x._view
    base = x._base
    if base is None or STORAGE_INDEX is None:
        return None
    idx = STORAGE_INDEX(x.data, base.data)
    if idx is None or not idx or x.size == 0:
        return None
    flat = np.ravel_multi_index(idx, base.shape).ravel()
    if np.unique(flat).size != flat.size:
        return None  # elements sharing a place (`expand`, an overlapping `unfold`)
    return base, idx


# The outputs of a custom Function that PyTorch makes views (an input returned as-is, or a
# view made inside forward), and of a function returning several views, and the views made of
# them (`core.tensor.CUSTOM_VIEWS`). PyTorch forbids changing them in place while gradients are
# recorded: the view+in-place logic would replace the Function's own backward.
_CUSTOM_VIEWS = CUSTOM_VIEWS


def mark_custom_view(
    t: Tensor, output_nr: int, fn_name: str, several: bool = False, origin: str | None = None
) -> None:
    """Record that `t`, output `output_nr` of the custom Function `fn_name`, is a view made by
    the Function (`several`: one of its several differentiable outputs): changing it in place
    while gradients are recorded is refused, as in PyTorch. `origin`: the Function whose
    output `t` is a view of, when `fn_name` is the name of a view op applied to it since."""
    key = id(t)
    hooks.view_made = inherit_custom_view
    ref = weakref.ref(t, lambda _r, k=key: _CUSTOM_VIEWS.pop(k, None))
    _CUSTOM_VIEWS[key] = (ref, output_nr, fn_name, several, origin or fn_name)


def inherit_custom_view(out: Tensor, src: Tensor) -> None:
    """`out`, a view of `src` made with grad mode on: when `src` is one of the views above,
    `out` is too (PyTorch's view takes its base's CreationMeta), named after its own node
    (`b = x.unbind(0); b[0].view(-1).mul_(2)`: "Output 0 of View is a view and ...")."""
    made = _custom_view(src)
    if made is None or out.node is None:
        return
    # (named when refused, after its node: a surface function may rename it, `diagonal`)
    mark_custom_view(out, 0, "", made[2], made[3])


def view_name(node: Any) -> str:
    """A view's name in PyTorch's refusals: its grad_fn's name without "Backward", and
    without the overload number 0 (ViewBackward0: View; SqueezeBackward1: Squeeze1)."""
    name = node.name()
    if name.endswith("Backward0"):
        return name.removesuffix("Backward0")
    return name.replace("Backward", "")


def _custom_view(x: Tensor) -> tuple[int, str, bool, str] | None:
    entry = _CUSTOM_VIEWS.get(id(x))
    if entry is None or entry[0]() is not x:
        return None
    name = entry[2] or (view_name(x.node) if x.node is not None else entry[4])
    return entry[1], name, entry[3], entry[4]


def check_restated(view: Tensor) -> None:
    """Refuse, in PyTorch's words, to give a new node to a view a custom Function or a
    function returning several views (`unbind`, `split`, `chunk`) made, once the tensor it
    views was changed in place: PyTorch cannot regenerate such a view's grad_fn."""
    made = _custom_view(view) if _CUSTOM_VIEWS and view.requires_grad else None
    if made is None:
        return
    head = (
        f"Output {made[0]} of {made[1]} is a view and its base or another view of its base "
        "has been modified inplace. "
    )
    if made[2]:
        raise GradcliError(
            head + "This view is the output of a function that returns multiple views. "
            "Such functions do not allow the output views to be modified inplace. You "
            "should replace the inplace operation by an out-of-place one.",
            hint="change a copy of the tensor (h = h * 2), or take the views after the change",
        ).mirror("RuntimeError")
    raise GradcliError(
        head + "This view was created inside a custom Function (or because an input was "
        "returned as-is) and the autograd logic to handle view+inplace would override the "
        "custom backward associated with the custom Function, leading to incorrect "
        "gradients. This behavior is forbidden. You can fix this by cloning the output of "
        "the custom Function.",
        hint=f"clone the output first: y = {made[3]}.apply(...).clone()",
    ).mirror("RuntimeError")


def _check_nograd_view(x: Tensor) -> None:
    """Refuse, in PyTorch's words, to change with grad mode on a view made under no_grad, or a
    view (made with grad mode on) of such a view: `e[0] = 5` is Select's output."""
    hint = "take the view and change it both inside the no_grad block, or both outside"
    custom = bool(NOGRAD_CUSTOM) and x in NOGRAD_CUSTOM
    if x in NOGRAD_VIEWS:
        if custom:
            hint = "clone the Function's output first (y = F.apply(x).clone()), then change y"
            raise GradcliError(_nograd_custom(), hint=hint).mirror("RuntimeError")
        raise GradcliError(NOGRAD_VIEW, hint=hint).mirror("RuntimeError")
    if x in NOGRAD_VIEWS_OF and x.node is not None:
        raise GradcliError(_nograd_view_of(view_name(x.node), custom), hint=hint).mirror(
            "RuntimeError"
        )


def _nograd_custom() -> str:
    """PyTorch's refusal to change in place a view a custom Function returned without a node."""
    return NOGRAD_VIEW.split(" Given", 1)[0] + " " + CUSTOM_VIEW_TAIL


def _nograd_view_of(name: str, custom: bool) -> str:
    """PyTorch's refusal to change in place the view `name` (made with grad mode on) of a view
    made under no_grad: of one a custom Function returned, its CreationMeta is the Function's."""
    if custom:
        return f"Output 0 of {name} is a view and is being modified inplace. {CUSTOM_VIEW_TAIL}"
    return (
        f"Output 0 of {name} is a view of a view which was created in no_grad mode "
        f"and is being modified inplace with grad mode enabled. {NOGRAD_VIEW_TAIL}"
    )


def _setitem_view(key: Any) -> str | None:
    """The last view op `x[key]` applies before the copy (`x[0] = 5`: Select), None for an
    index_put_ (a tensor or list in the key) and for no view op at all."""
    name = None
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, (list, range, np.ndarray)) or hasattr(k, "data"):
            return None  # advanced indexing: index_put_ on x itself
        if k is None:
            name = "Unsqueeze"
        elif isinstance(k, slice):
            if not (k.start is None and k.stop is None and k.step in (None, 1)):
                name = "Slice"
        elif k is not Ellipsis:
            name = "Select"
    return name


def check_view_setitem(x: Tensor, key: Any) -> None:
    """`x[key] = v` with grad mode on, x a view PyTorch forbids changing in place (an output of
    `unbind`, of a custom Function, or a view of one): the view the key picks is one too, and
    PyTorch's refusal names it (`q[0] = 5`: "Output 0 of Select is a view ...")."""
    if not _CUSTOM_VIEWS or not x.requires_grad or not _GradMode.enabled:
        return
    made = _custom_view(x)
    name = _setitem_view(key) if made is not None else None
    if made is None or name is None:
        return  # (x's own refusal, if any: `check_target`)
    if made[2]:
        raise GradcliError(
            f"Output 0 of {name} is a view and is being modified inplace. This view is the "
            "output of a function that returns multiple views. Such functions do not allow the "
            "output views to be modified inplace. You should replace the inplace operation by "
            "an out-of-place one.",
            hint="assign into a copy (y = y.clone(); y[...] = v)",
        )
    raise GradcliError(
        f"Output 0 of {name} is a view and is being modified inplace. This view was created "
        "inside a custom Function (or because an input was returned as-is) and the autograd "
        "logic to handle view+inplace would override the custom backward associated with the "
        "custom Function, leading to incorrect gradients. This behavior is forbidden. You can "
        "fix this by cloning the output of the custom Function.",
        hint=f"clone the output first: y = {made[3]}.apply(...).clone(), then assign",
    )


def check_nograd_setitem(x: Tensor, key: Any) -> None:
    """`x[key] = v` with grad mode on, x a view made under no_grad: PyTorch's refusal, naming
    the last view op the key applies (`e[0] = 5`: Select), or the plain one for an index_put_
    (a tensor or list in the key) and for no view op at all."""
    if not (NOGRAD_VIEWS and x in NOGRAD_VIEWS):
        return
    name = _setitem_view(key)
    custom = bool(NOGRAD_CUSTOM) and x in NOGRAD_CUSTOM
    if name is None:
        raise GradcliError(
            _nograd_custom() if custom else NOGRAD_VIEW,
            hint="assign inside the no_grad block too, or into a clone",
        ).mirror("RuntimeError")
    raise GradcliError(
        _nograd_view_of(name, custom), hint="assign inside the no_grad block too, or into a clone"
    ).mirror("RuntimeError")


def check_target(x: Tensor) -> None:
    """Refuse, in PyTorch's words, a change in place autograd cannot record."""
    if not _GradMode.enabled:
        return
    if NOGRAD_VIEWS:
        _check_nograd_view(x)
    made = _custom_view(x) if _CUSTOM_VIEWS and x.requires_grad else None
    if made is not None:
        head = f"Output {made[0]} of {made[1]} is a view and is being modified inplace. "
        if made[2]:
            raise GradcliError(
                head + "This view is the output of a function that returns multiple views. "
                "Such functions do not allow the output views to be modified inplace. You "
                "should replace the inplace operation by an out-of-place one.",
                hint="write y = y * 3 (a new tensor), or clone the output first",
            )
        raise GradcliError(
            head + "This view was created inside a custom Function (or because an input was "
            "returned as-is) and the autograd logic to handle view+inplace would override the "
            "custom backward associated with the custom Function, leading to incorrect "
            "gradients. This behavior is forbidden. You can fix this by cloning the output of "
            "the custom Function.",
            hint=f"clone the output first: y = {made[3]}.apply(...).clone(), then change y",
        )
    base = x._base
    if base is not None and base.requires_grad:
        if base.node is None:
            raise GradcliError(
                VIEW_OF_LEAF,
                hint="change the leaf under `with torch.no_grad():`, or work on a copy "
                "(y = x.clone())",
            )
        if REBASE is not None and view_key(x) is not None:
            return  # recorded on the tensor it views
        if CONJ_VIEWS and conj_address(x) is not None:
            raise conj_view_refusal()
        if not _OVERLAP and internal_overlap(x.data):
            # an expanded view: PyTorch's overlap check refuses the operation before autograd
            # sees it (it lets only fill_, zero_ and the masked/index fills through)
            raise GradcliError(
                OVERLAP_ERROR, hint="x = x.clone() first (expand() makes elements share memory)"
            )
        raise GradcliError(
            "gradcli does not support an in-place operation on a view whose elements share "
            "memory places (expand, an overlapping unfold) in a tensor that requires grad",
            hint="change a copy (v = v.clone()) or the whole tensor, out of place",
        )
    if x.requires_grad and x.node is None:
        raise GradcliError(
            LEAF,
            hint="change it under `with torch.no_grad():` (as optimisers do), or change "
            "x.data; or make a new tensor: x = x + ...",
        )


def conj_view_refusal() -> NotSupported:
    """A recorded change in place of a conjugate view (`x.conj()`, `x.mH`), which PyTorch
    records on the tensor conjugated (CopySlices)."""
    return NotSupported(
        "gradcli does not support recording an in-place operation on a conjugate view "
        "(x.conj(), x.mH, x.adjoint()) of a tensor that requires grad",
        hint="change the tensor itself (x.copy_(...)), or make a new tensor: c = x.conj() * 3",
    )


def inplace(
    x: Tensor,
    compute: Callable[[Tensor], Any],
    address: int | None = None,
    op: str | Callable[[], str] | None = None,
) -> Tensor:
    """Change `x` in place to `compute(old)`, where `old` is x's value before the change (a
    Tensor: x itself when nothing is recorded, else a copy that carries x's old node). The
    result must broadcast to x's shape; when it is differentiable, x takes over its node.
    (`address`: of the first element the change writes, where it is not x's own; `op`: the
    operation's ATen name, for a refusal inside a torch.func transform.)"""
    check_capture(x, op)
    announce = hooks.before_write
    if announce is None:
        return _inplace(x, compute)
    # allow_mutation_on_saved_tensors: the change is announced once, as the program's tensor
    # (a view: its own place), not as the storage it is written through
    announce(x, address)
    hooks.before_write = None
    try:
        return _inplace(x, compute)
    finally:
        hooks.before_write = announce


def _inplace(x: Tensor, compute: Callable[[Tensor], Any]) -> Tensor:
    current(x)  # a view of a tensor changed since: the change goes on from its new version
    check_target(x)
    record = _GradMode.enabled
    if record and x.requires_grad:
        old = Tensor(x.data.copy())
        old.requires_grad = True
        old.node = x.node
    else:
        old = x
    if _GradMode.dual and old is not x:  # a dual tensor's copy keeps its tangent
        from . import dual

        dual.set_tangent(old, dual.tangent(x))
    start = SEQ[0]
    new = compute(old)
    node = new.node if isinstance(new, Tensor) else None
    if node is not None and old is x and any(t is x for t in node.inputs):
        _keep_input(node, x)
    # (the view's places are looked up only when the change is recorded on its tensor)
    rebased = record and x._base is not None and (node is not None or x._base.requires_grad)
    view = view_key(x) if rebased else None
    if record and view is not None and REBASE is not None and (node or view[0].requires_grad):
        RECORDED_CHANGES[0] += 1
        before = old.node
        if old is not x and before is not None and before.out is x:
            # The view's own node (its indexing) is now reached through `old`, which the
            # change's node holds; the view itself may go (`out[1].mul_(3)`, a temporary):
            # the node's output is the value it had, which `old` keeps. (An indexing rule
            # reads only its output's shape, which the change does not alter.)
            before.out = old
        REBASE(x, view[0], view[1], new)
        if node is not None and node.out is new:
            # PyTorch's result of the change is the view itself: a later change of the
            # tensor (through any view) is a change of the value this node saved.
            new._vc = counter(x)
            vs = list(node.versions or (0,) * (len(node.inputs) + 1))
            vs[-1] = x._version
            node.versions = tuple(vs)
        return x
    if record and node is not None and x._base is not None:
        # The change would have to reach the tensor x is a view of, and x's places in it
        # cannot be told (`view_key`).
        if CONJ_VIEWS and conj_address(x) is not None:
            raise conj_view_refusal()
        raise GradcliError(
            "gradcli does not support an in-place operation that makes a view require grad "
            "when the view's elements share memory places (expand, an overlapping unfold)",
            hint="assign into the whole tensor instead: z[i] = z[i] + w (recorded as PyTorch's "
            "CopySlices)",
        )
    write(x, new)
    if _GradMode.dual:  # the tangent of the new value (PyTorch's in-place forward AD)
        from . import dual

        dual.set_tangent(x, dual.tangent(new) if isinstance(new, Tensor) else None)
    if record and node is not None:
        RECORDED_CHANGES[0] += 1
        drop_unread(new, start, (old,) if old is not x else ())
        node.out = x
        versioned(node, x.node)
        x.node = node
        x.requires_grad = True
        vs = list(node.versions or (0,) * (len(node.inputs) + 1))
        vs[-1] = x._version
        node.versions = tuple(vs)
    elif record and x.requires_grad and old is not x:
        # Overwritten with values that depend on nothing differentiable: gradients stop here.
        x.node = None
        x.requires_grad = False
    return x


# Below this many elements a tensor is kept as it is (not worth a look).
UNREAD_AT = 4096


def drop_unread(out: Tensor, start: int, private: tuple[Tensor, ...] = ()) -> None:
    """Drop the elements of the tensors that the nodes recorded from sequence number `start`
    on to compute `out` made along the way (and of `private`: a copy only those nodes hold),
    where no rule of those nodes reads them (`y[i] = v`'s CopySlices reads only shapes): a loop
    writing rows into a large tensor then holds no copy per row, as PyTorch saves none. Each
    dropped tensor stays a tensor of its shape and dtype, carrying its node."""
    if out.data.size < UNREAD_AT or _GradMode.dual:
        return
    from .autograd import reads_of
    from .graph import ancestors

    made = ancestors([out], since=start)
    if len(made) > 64:
        return  # (more than the few nodes of one operation: kept)
    ours = {id(n) for n in made}
    read: set[int] = set()
    candidates: dict[int, Tensor] = {id(t): t for t in private}
    for n in made:
        if n.op.kind == "custom" or n.packed is not None:
            return  # (a user's function or pack hook may hold any of them)
        reads_out, reads = reads_of(n)
        if reads_out:
            read.add(id(n.out))
        for i, t in enumerate(n.inputs):
            if t.node is not None and id(t.node) in ours:
                candidates[id(t)] = t
            if reads is None or i in reads:
                read.add(id(t))
    for k, t in candidates.items():
        if k not in read and t is not out and t.data.size >= UNREAD_AT:
            t.data = np.broadcast_to(np.zeros((), t.data.dtype), t.data.shape)


def _keep_input(node: Any, x: Tensor) -> None:
    """`x`, which does not require grad, is an input of the node of its own change (`y.mul_(w)`
    with w requiring grad: the rule of w reads y's old value): the node keeps a copy of that
    value, as PyTorch saves the original `self`; x itself is about to be written."""
    keep = Tensor(x.data.copy())
    places = [i for i, t in enumerate(node.inputs) if t is x]
    node.inputs = tuple(keep if t is x else t for t in node.inputs)
    if node.versions is not None:
        vs = list(node.versions)
        for i in places:
            vs[i] = 0
        node.versions = tuple(vs)


# The in-place operations PyTorch lets write a tensor whose elements share memory places
# (`x.expand(...)`): fill_ and zero_ with a number (each place gets the one value), and,
# with its deprecation warning, masked_fill_, index_fill_ and index_put_ (`x[mask] = v`).
# Set by `overlapping` around such an operation: None (no warning) or the operation's name.
_OVERLAP: list[Any] = []


class overlapping:  # noqa: N801 - used as a context manager, as torch.no_grad
    """Around an in-place operation PyTorch allows on a tensor with internal overlap."""

    __slots__ = ("name",)

    def __init__(self, name: str | None = None):
        self.name = name

    def __enter__(self) -> None:
        _OVERLAP.append(self.name)

    def __exit__(self, *exc: Any) -> None:
        _OVERLAP.pop()


OVERLAP_ERROR = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def internal_overlap(a: np.ndarray) -> bool:
    """PyTorch's `has_internal_overlap(...) == YES`: a dimension of more than one element with
    stride 0 (what `expand` makes)."""
    return any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape))


def writable_alias(x: Tensor) -> np.ndarray | None:
    """A writable array over the memory of x's read-only data, where x is a view (an
    expanded tensor's data: NumPy's broadcast views are read-only) of a tensor whose memory is
    writable; None elsewhere (data lent by a caller, a gradient that is another tensor's
    values read-only: never written through)."""
    base = x._base
    a = x.data
    if base is None or not base.data.flags.writeable:
        return None
    root = base.data
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not root.flags.writeable or not root.flags.c_contiguous:
        return None
    start = root.__array_interface__["data"][0]
    offset = a.__array_interface__["data"][0] - start
    low, high = np.lib.array_utils.byte_bounds(a)
    if offset < 0 or low < start or high > start + root.nbytes:
        return None
    return np.ndarray(a.shape, a.dtype, buffer=root, offset=offset, strides=a.strides)


def _write_through(x: Tensor, new: np.ndarray) -> bool:
    """Write `new` into x's read-only (expanded) view where PyTorch writes through to the
    memory; False where there is no such memory. With internal overlap only the places whose
    value changes are written (a place several elements share takes the value an operation
    PyTorch allows gives all of them), and only inside `overlapping`; else PyTorch's error."""
    alias = writable_alias(x)
    if alias is None:
        return False
    if not internal_overlap(x.data):
        np.copyto(alias, new, casting="unsafe")
        return True
    if not _OVERLAP:
        raise GradcliError(
            OVERLAP_ERROR, hint="x = x.clone() first (expand() makes elements share memory)"
        )
    name = _OVERLAP[-1]
    if name is not None:
        hooks.warn(
            f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor before "
            "performing this operation. This also applies to advanced indexing e.g. "
            + ("tensor[indices] = tensor" if name == "index_put_" else "tensor[mask] = scalar")
        )
    full = np.broadcast_to(np.asarray(new).astype(x.dtype, copy=False), x.shape)
    old = np.ascontiguousarray(x.data)
    kind = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    changed = np.ascontiguousarray(full).view(kind) != old.view(kind)
    alias[changed] = full[changed]
    return True


def write(x: Tensor, value: Any, versioned: bool = True) -> None:
    """Write `value` into x's storage (broadcast to x's shape, cast to its dtype) and count
    the change in x's version counter (not with `versioned=False`: a kernel of PyTorch's that
    writes the storage behind the counter, as batch_norm's running statistics)."""
    if _GradMode.vmapped and isinstance(value, Tensor):
        check_batched_write(x, value)
    new = np.asarray(value.data if isinstance(value, Tensor) else value)
    if new.shape != x.shape:
        try:
            shape = np.broadcast_shapes(new.shape, x.shape)
        except ValueError:
            shape = None
        if shape != x.shape:
            raise GradcliError(
                f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                f"{list(shape) if shape is not None else list(new.shape)}",
                hint="an in-place result keeps the tensor's shape: write y = ... (a new "
                "tensor) to change it",
            )
    if new.dtype != x.dtype and _can_not_cast(new.dtype, x.dtype):
        raise GradcliError(
            f"result type {dtypes.scalar_type_name(new.dtype)} can't be cast to the desired output "
            f"type {dtypes.scalar_type_name(x.dtype)}",
            hint="convert the tensor first (x = x.float()), or write y = ... (a new tensor)",
        )
    if hooks.before_write is not None:
        hooks.before_write(x)
    if not x.data.flags.writeable:
        own(x)  # lent data (`core.tensor.lend`): copied before its first write
    if not x.data.flags.writeable:
        if not _write_through(x, new):
            raise GradcliError(
                OVERLAP_ERROR, hint="x = x.clone() first (expand() makes elements share memory)"
            )
    else:
        np.copyto(x.data, new, casting="unsafe")
    if versioned:
        bumped(x)


def _can_not_cast(src: np.dtype, dst: np.dtype) -> bool:
    """PyTorch's in-place rule: the result's kind must not be wider than the tensor's (a
    float result cannot go into an integer tensor, nor an integer into a bool one)."""
    order = "biufc"
    s, d = src.kind, dst.kind
    if s == "u":
        s = "i"
    if d == "u":
        d = "i"
    return s in order and d in order and order.index(s) > order.index(d)
