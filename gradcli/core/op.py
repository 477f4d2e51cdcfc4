"""The `Op` record, its registry, the recorded `Node`, and `apply`: run an op and record it.

Every differentiable result records one `Node` (an equation `out = op(inputs, params)`), and
every node gets a sequence number when it is created, so the recorded program is a list of
single-assignment equations in creation order (walked by `core.graph`).
"""

from __future__ import annotations

import bisect
import sys
import warnings
import weakref
from collections.abc import Callable, Sequence
from operator import is_
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..base.record import Record
from . import dtypes, hooks
from .layout import PLAIN, _sorted_dims, iterated, row_major
from .tensor import (
    _LENT,
    CUSTOM_VIEWS,
    INFERENCE_SAVED,
    LATE_LEAVES,
    LEAF_HOOKS,
    META,
    MUTATIONS,
    NOGRAD_CUSTOM,
    NOGRAD_VIEWS,
    NOGRAD_VIEWS_OF,
    RECORDED_CHANGES,
    RESTATED_VIEWS,
    SEQ,
    Tensor,
    _GradMode,
    carry_batched,
    counter,
    lent,
    no_edge,
    nograd_changed_message,
    nograd_view_changed,
    own,
    view_inf,
    wrap,
)

_ref = weakref.ref
_ndarray = np.ndarray
_asarray = np.asarray
_ELEMENTS = limits.TENSOR_ELEMENTS
# The kinds of record whose results PyTorch's TensorIterator lays out (`core.layout`).
_ELEMENTWISE = frozenset(("elementwise", "binary"))

# SEQ (imported from core.tensor): the sequence number the next node gets, a one-item list
# read without using it up by every statement of a run, bumped by every node.


def peek_seq() -> int:
    """The sequence number the next node will get (without using it up)."""
    return SEQ[0]


class Sample(Record):
    """One test call of an op, `apply(op, *inputs, **params)`, with random inputs.

    shapes    one shape per tensor input: ((2, 3), (3,)) broadcasts, () is a scalar
    params    the keyword params exactly as `apply` receives them (as `surface` passes
              them: non-negative int dims, float p, NumPy arrays for targets / weights)
    low, high random float64 inputs are drawn uniformly from [low, high)
    avoid     points every random input value stays at least `gap` away from (kinks: 0 for
              relu / abs, the bounds of clamp)
    distinct  all random values of the call (over all inputs) are at least `gap` apart: no
              ties for max / maximum / norm(inf)
    gap       the margin of `avoid` and `distinct`
    fixed     {input position: array}: inputs given as they are, never random and never
              differentiated (where's condition)
    hessian   whether the tests also check second derivatives on this call
    structure {input position: kind}: matrices the tests build from the random draw
              (the last two axes): "invertible" (a multiple of the identity added),
              "spd" (symmetric positive definite, R R^T + n I), "symmetric" (with
              eigenvalues kept apart), "wide" (well-conditioned rows), "lower" / "upper"
              (a Cholesky factor: one triangle, diagonal >= n - 1), "any" (as drawn);
              finite differences move a symmetric or spd input symmetrically (the
              rules give the gradient of a function of symmetric matrices, as PyTorch)

    E.g. `Sample(((2, 3), (3,)))`, `Sample(((3, 4),), {"dim": 1, "keepdim": True})`,
    `Sample(((2, 3),), low=0.1, high=3.0)` (a positive domain, for log).
    """

    _fields = (
        "shapes",
        "params",
        "low",
        "high",
        "avoid",
        "distinct",
        "gap",
        "fixed",
        "hessian",
        "structure",
    )
    _defaults = {
        "params": dict,
        "low": -2.0,
        "high": 2.0,
        "avoid": (),
        "distinct": False,
        "gap": 0.05,
        "fixed": dict,
        "hessian": True,
        "structure": dict,
    }
    shapes: tuple[tuple[int, ...], ...]
    params: dict[str, Any]
    low: float
    high: float
    avoid: tuple[float, ...]
    distinct: bool
    gap: float
    fixed: dict[int, Any]
    hessian: bool
    structure: dict[int, str]


class Op(Record):
    """One operation: everything about it in one record (a `Record`, not a dataclass: it is
    declared on the start-up path; `op.replace(vjp=...)` makes a changed copy).

    forward(*arrays, **params) -> array      the value, on NumPy arrays
    vjp(g, out, *inputs, **params) -> tuple  one gradient (Tensor or None) per input; `g` may
                                             carry leading batch axes; the engine reduces each
                                             result to its input's shape (one `unbroadcast`)
    jvp(dots, out, *inputs, **params)        forward mode: the tangent of `out` (optional)
    sym(sympy, *args, **params)              the sympy form, elementwise ops (optional)
    samples: tuple[Sample, ...]              calls the tests run the op on (tests/ops):
                                             forward, finite differences, batched VJPs, second
                                             order and PyTorch; every op must have some
    to_torch, to_jax                         how `gradcli export` writes one application of
                                             the record in PyTorch / jax.numpy (None: it has no
                                             translation, e.g. only inside create_graph
                                             gradients); see `write_call`
    link(out, *inputs, **params)             (optional) for a first-order pass, when the rule's
                                             gradient is exactly `g * d` for one input (`d`
                                             of the input's dtype, broadcasting into its shape,
                                             which is out's) and None for the others:
                                             (that input's index, d); None where it is not.
                                             Backward then runs a chain of such ops on arrays
                                             (`core.autograd`); the op tests check it against
                                             the rule, bit for bit
    accumulate(acc, g, out, *inputs, **params)  (optional) for a first-order pass of one
                                             differentiated input (index 0) whose gradient
                                             is in the input's shape: add the rule's gradient
                                             into `acc` (an array the pass owns, of that shape
                                             and dtype) in place, with no array of the input's
                                             size made; False (nothing done) where it does not
                                             apply. The same bits as `acc + rule` (the op tests
                                             check it); backward uses it when the input already
                                             has a gradient (`x` used twice)
    jvp_reads_primal                         PyTorch's forward formula reads an input's
                                             value where this rule does not (see below)
    saved                                    (optional) what PyTorch's node of this record
                                             exposes as `grad_fn._saved_<name>`: {name: how
                                             to get it from the node} (`core.saved`), or, for
                                             a record PyTorch shows under several node names,
                                             a function of the node giving that mapping
    """

    _fields = (
        "name",
        "forward",
        "vjp",
        "torch_name",
        "formula",
        "kind",
        "signature",
        "kink",
        "sym",
        "jvp",
        "saves",
        "domain",
        "nondiff",
        "samples",
        "part",
        "to_torch",
        "to_jax",
        "link",
        "accumulate",
        "jvp_reads_primal",
        "jvp_zeros",
        "jvp_terms",
        "saved",
        "reads",
        "complex",
        "holds",
        "complex_forward",
    )
    _defaults = {
        "kind": "elementwise",
        "signature": "",
        "kink": None,
        "sym": None,
        "jvp": None,
        "saves": True,
        "domain": None,
        "nondiff": (),
        "samples": (),
        "part": False,
        "to_torch": None,
        "to_jax": None,
        "link": None,
        "accumulate": None,
        "jvp_reads_primal": False,
        "jvp_zeros": (),
        "jvp_terms": (),
        "saved": None,
        "reads": None,
        "complex": None,
        "holds": None,
        "complex_forward": None,
    }
    name: str
    forward: Callable[..., np.ndarray]
    vjp: Callable[..., tuple]
    torch_name: str
    formula: str
    kind: str
    signature: str
    kink: str | None
    sym: Callable[..., Any] | None
    jvp: Callable[..., Any] | None
    # Whether backward needs values saved in the forward pass: such nodes are "freed" by a
    # backward without retain_graph, and a second backward through them fails as in PyTorch.
    saves: bool
    domain: Callable[..., str | None] | None
    nondiff: tuple[int, ...]
    samples: tuple[Sample, ...]
    # The node is one output of its input's node (a custom Function with several outputs is
    # recorded as one node and one such part per output): PyTorch shows that node, with this
    # output's number `params["k"]`, as the grad_fn.
    part: bool
    to_torch: str | Callable[..., str] | None
    to_jax: str | Callable[..., str] | None
    link: Callable[..., tuple[int, np.ndarray] | None] | None
    accumulate: Callable[..., bool] | None
    # PyTorch's forward-mode formula reads an input's value where gradcli's rule needs only
    # the tangents (x * 2: `other_t * self_p + self_t * other_p`, relu's mask from `self_p`):
    # PyTorch's tangent is then attached to that input's graph, and forward-mode results
    # that print their grad_fn follow it (`functional.jacobian(strategy="forward-mode")`).
    jvp_reads_primal: bool
    # The inputs whose missing tangent PyTorch's forward formula takes as zeros (a ZeroTensor
    # its kernel materializes: `tanh_backward(grad_output_t, output_p) + ...` with no tangent
    # for the gradient): their term, of a zero tangent, is added too (a -0. becomes +0.).
    jvp_zeros: tuple[int, ...]
    # PyTorch's forward formula as a sum of one term per input, in the formula's order: (the
    # input whose tangent it is, the inputs whose values multiply it); mul's `other_t * self_p
    # + self_t * other_p` is ((1, (0,)), (0, (1,))), add's ((0, ()), (1, ())). An input without
    # a tangent has a ZeroTensor there, whose term is still recorded: the tangent is a sum
    # (AddBackward0) where another term or a value the zero term multiplies requires grad, and
    # a backward through it gives that value zeros (`core.forward.zero_terms`). Empty: the
    # formula is no such sum.
    jvp_terms: tuple[tuple[int, tuple[int, ...]], ...]
    saved: dict[str, Any] | Callable[..., dict[str, Any]] | None
    # What the rule reads at backward, where that depends on the params: params -> (reads
    # the output, the inputs it reads), for the version check of values changed in place
    # (None: read from the rule's code, `core.autograd._reads`). max(x, dim) reads only x.
    reads: Callable[[dict], tuple[bool, frozenset[int]]] | None
    # Complex tensors (the one declaration of an op's complex support; `apply` refuses a
    # complex input of any op without one):
    #   None     not supported: a complex input is refused in plain words
    #   "holo"   the forward computes complex values as they are, and the rule, written for
    #            real values, is `g` times the derivative (or a linear map of `g` with real
    #            coefficients: sums, shapes): the engine gives PyTorch's conjugate Wirtinger
    #            gradient `g * conj(f'(z))` as conj(rule(conj(g))) (`core.autograd`)
    #   "rule"   the forward and the rule handle complex values themselves (abs, real, angle)
    complex: str | None
    # Values the node keeps that its rule needs but that are not read from its inputs' storage
    # (the index tensors of x[idx], gather, scatter, embedding): PyTorch's saved variables, freed
    # by a backward without retain_graph like a rule's saved values (`saves`), so a second
    # backward through the node fails as in PyTorch; no version check applies to them. node ->
    # whether it keeps any, asked when a backward frees nodes (the node's name is then final:
    # a composite names its nodes after it is made) (None: never).
    holds: Callable[[Any], bool] | None
    # The forward on complex values where PyTorch's kernel computes them otherwise than the real
    # forward does (None: the same forward): add and sub are ATen's `a + alpha * b` with a
    # complex alpha, whose product decides the signs of zero and gives inf + nan j for inf.
    complex_forward: Callable[..., np.ndarray] | None

    def __post_init__(self) -> None:
        # The rule the link restates: a rule changed later (a test's wrong rule) has no link.
        self._rule = self.vjp

    def replace(self, **changes: Any) -> Any:
        """A copy with some fields changed; a new rule drops the link (it restated the old
        rule) unless a new link is given; so does the accumulation."""
        if "vjp" in changes and "link" not in changes:
            changes["link"] = None
        if "vjp" in changes and "accumulate" not in changes:
            changes["accumulate"] = None
        return super().replace(**changes)

    def linked(self) -> Callable[..., tuple[int, np.ndarray] | None] | None:
        """The link, while the rule is the one it restates."""
        return self.link if self.vjp is self._rule else None

    def accumulates(self) -> Callable[..., bool] | None:
        """The accumulation, while the rule is the one it restates."""
        return self.accumulate if self.vjp is self._rule else None


REGISTRY: dict[str, Op] = {}


def write_call(text: str | Callable[..., str], w: Any, args: list[str], params: dict) -> str:
    """One application of a record as export writes it (`Op.to_torch` / `Op.to_jax`), from the
    source text of its inputs (`args`) and its params:

    "torch.exp"           a function called on the inputs: `torch.exp(x)`, `jnp.maximum(x, y)`
    "{0} ** {p}"          a template: `{0}`, `{1}` the inputs, `{name}` the param `name` as
                          the dialect's exact literal (`w.lit`)
    fn(w, args, params)   anything else; `w` is the exporter's writer: `w.lit(v)`, `w.inputs`
                          and `w.out` (the tensors of the application being written) and the
                          dialect's helpers (`gradcli.analysis.export`, `export_jax`)
    """
    if callable(text):
        return text(w, args, params)
    if "{" not in text:
        return f"{text}({', '.join(args)})"
    import string

    class _Lits(dict):
        def __missing__(self, key: str) -> str:
            return w.lit(params[key])

    return string.Formatter().vformat(text, args, _Lits())


# Where each record was registered: (the module, its rank in the registry). The op families
# are imported when first used (`gradcli.ops`), so the registry's order depends on what ran
# first; `gradcli.ops.load_all` puts it back in the order of the families with this.
ORIGIN: dict[str, tuple[str, int]] = {}


def register(op: Op, module: str | None = None) -> Op:
    """Add a record to the registry (the catalog, the op tests and export read it)."""
    if module is None:
        module = sys._getframe(1).f_globals.get("__name__", "")
    ORIGIN.setdefault(op.name, (module, len(ORIGIN)))
    REGISTRY[op.name] = op
    return op


def defop(name: str, forward: Any, vjp: Any, torch_name: str, formula: str, **kw: Any) -> Op:
    """Declare an op and register it under `name` (a new name: a second record of the same
    name would silently replace the first in the registry; `register(op.replace(...))` is the
    way to change a record)."""
    if name in REGISTRY:
        raise ValueError(f"defop: a record named {name!r} exists already")
    return register(
        Op(name=name, forward=forward, vjp=vjp, torch_name=torch_name, formula=formula, **kw),
        sys._getframe(1).f_globals.get("__name__", ""),
    )


def link_siblings(outs: Any) -> None:
    """The nodes of one call's several outputs (split, unbind, a decomposition's factors, a
    custom Function's), told of each other in output order (`Node.siblings`, weakly)."""
    nodes = [o.node for o in outs if isinstance(o, Tensor) and o.node is not None]
    if len(nodes) > 1:
        refs = tuple(weakref.ref(n) for n in nodes)
        for n in nodes:
            n.siblings = refs


class Node:
    """One recorded equation: `out = op(*inputs, **params)` (PyTorch's `grad_fn`).

    It refers to its output weakly (the output refers to it: no reference cycle, so a graph is
    freed by reference counting as soon as its last tensor goes). `prev` is the node the output
    had before this one, for a change in place (`h += 1` records a node on the same tensor:
    consumers recorded earlier still differentiate through `prev`). `versions`, when not None,
    are the version counters of the inputs and the output when it was recorded (None: all 0);
    `mark` is `MUTATIONS` then, so a pass checks saved versions only if something changed since.
    """

    # What a program may read of a grad_fn (the interpreter's attribute table for objects).
    PROGRAM_ATTRIBUTES = (
        "name",
        "next_functions",
        "register_hook",
        "register_prehook",
        "metadata",
    )

    __slots__ = (
        "node_hooks",
        "packed",
        "op",
        "inputs",
        "params",
        "_out",
        "seq",
        "freed",
        "label",
        "prev",
        "history",
        "hooks",
        "mark",
        "versions",
        "keeps",
        "siblings",
        "__weakref__",
    )

    def __init__(self, op: Op, inputs: tuple, params: dict, out: Tensor, label: str | None):
        self.op = op
        self.inputs = inputs
        self.params = params
        self._out = _ref(out)
        self.seq = s = SEQ[0]
        SEQ[0] = s + 1
        self.freed = False
        self.label = label
        self.prev: Node | None = None
        # For a tensor changed in place: the nodes of all its versions and their seqs (one pair
        # of lists shared by those nodes), so that `producer` finds a version by bisection.
        self.history: tuple[list, list] | None = None
        self.hooks: list | None = None
        # `grad_fn.register_prehook` / `register_hook`: (pre-hooks, hooks), made when needed.
        self.node_hooks: tuple[list, list] | None = None
        # What saved_tensors_hooks' pack returned for each tensor the node saves (None: no
        # hooks), as `(saved variable, unpack, packed)`: unpacked when backward reaches it.
        self.packed: list | None = None
        self.mark = m = MUTATIONS[0]
        self.versions = None if m == 0 else versions_of(inputs, out)
        # Whether a backward without retain_graph frees the node whatever its op says (True:
        # an item assignment's CopySlices, `surface.indexing.index_assign`; False: a node of a
        # composite whose PyTorch node saves nothing, `ops.arithmetic.frees_nothing`), None:
        # as its op says; see `frees`.
        self.keeps: bool | None = None
        # The nodes of the outputs of one call returning several (split, unbind, chunk), in
        # output order, weakly: PyTorch's single node for them runs every output's hooks
        # together (None for an output that received no gradient). None: a node of its own.
        self.siblings: tuple | None = None

    @property
    def out(self) -> Tensor:
        return self._out()  # type: ignore[return-value]

    def register_prehook(self, fn: Any) -> Any:
        """`fn(grad_outputs)` before the node computes its gradients: a tuple it returns
        replaces them (PyTorch's `Node.register_prehook`)."""
        return self._node_hook(0, fn)

    def register_hook(self, fn: Any) -> Any:
        """`fn(grad_inputs, grad_outputs)` after the node computed the gradients of its inputs
        (None for one that does not require grad): a tuple it returns replaces them."""
        # nn.Linear's AddmmBackward0, gradcli's product then sum: its hooks see PyTorch's
        # three gradients of bias, x and w.t() (`autograd._run_addmm_hooks`).
        if self.label == "AddmmBackward0" and not self.is_linear_sum():
            raise NotSupported(
                "a hook on the AddmmBackward0 node of torch.addmm is not supported: gradcli "
                "computes it as a product, scalings and a sum, so the gradients the hook would "
                "see are not PyTorch's (input, mat1, mat2)",
                hint="register_hook on the tensors (input, mat1, mat2, the result); "
                "nn.Linear's and F.linear's node takes hooks",
            )
        return self._node_hook(1, fn)

    def is_linear_sum(self) -> bool:
        """Whether this is F.linear's `x @ w.t() + bias` (a 2-D x, a 1-D bias): the sum of
        (the product, the bias), the product's node MmBackward0 (or none: no grad there)."""
        if self.op.name != "add" or len(self.inputs) != 2:
            return False
        prod, bias = self.inputs
        if prod.ndim != 2 or bias.ndim != 1:
            return False
        p = producer(prod, self.seq)
        if p is None:
            return not prod.requires_grad
        return p.name() == "MmBackward0" and p.inputs[0].ndim == 2

    def _node_hook(self, which: int, fn: Any) -> Any:
        from .tensor import HookHandle

        fn = hooks.as_callable(fn)
        if not callable(fn):
            raise GradcliError(f"register_hook expects a function, not {type(fn).__name__}").mirror(
                "TypeError"
            )
        table = self.node_hooks
        if table is None:
            table = self.node_hooks = ([], [])
            live = [ref() for ref in self.siblings or ()]
            live = [s for s in live if s is not None]
            if live and all(
                len(s.inputs) == len(self.inputs) and all(map(is_, s.inputs, self.inputs))
                for s in live
            ):
                # PyTorch's one node for a call's several outputs (pieces of one tensor, a
                # custom Function's): its hooks are the group's, one table shared by the
                # siblings (`autograd._group_prehooks`); a decomposition recorded through
                # nodes of their own inputs keeps them on this node
                for s in live:
                    s.node_hooks = table
        table[which].append(fn)
        return HookHandle(table[which], fn)

    @out.setter
    def out(self, t: Tensor) -> None:
        self._out = weakref.ref(t)

    def name(self) -> str:
        return self.label or self.op.torch_name

    @property
    def metadata(self) -> dict:
        """`grad_fn.metadata`: a dict of the program's, kept with the node (made on first use,
        outside the node: recording pays nothing for it)."""
        found = NODE_METADATA.get(self)
        if found is None:
            found = NODE_METADATA[self] = {}
        return found

    def frees(self) -> bool:
        """Whether a backward without retain_graph frees the node, so that a second backward
        through it fails as PyTorch's: it was marked so or not (`keeps`), else its rule reads
        saved values (`Op.saves`) or it holds others (`Op.holds`: index tensors)."""
        if self.keeps is not None:
            return self.keeps
        op = self.op
        if op.saves:
            return True
        h = op.holds
        if h is not None and h(self):
            return True
        # a copy into part of a tensor (a circular pad, pad_sequence): PyTorch's CopySlices
        # releases what it holds whatever it copied
        return self.label is not None and self.label.endswith("CopySlices")

    @property
    def next_functions(self) -> tuple:
        """PyTorch's `grad_fn.next_functions`: for each input, `(the node that computed it,
        0)`, `(AccumulateGrad, 0)` for a leaf that requires grad, `(None, 0)` otherwise."""
        out = []
        inputs = SHOWN_INPUTS.get(self, self.inputs) if SHOWN_INPUTS else self.inputs
        if self.label == "AddmmBackward0":
            # nn.Linear / F.linear with a bias: gradcli's product then sum is PyTorch's one
            # addmm(bias, x, w.t()), whose inputs are the bias and the product's operands.
            mm = producer(inputs[0], self.seq)
            if mm is not None and mm.name() == "MmBackward0":
                inputs = (inputs[1], *mm.inputs)
        edges = self.where_edges() if len(inputs) == 3 else None
        if edges is not None:
            inputs = tuple(inputs[i] for i in edges)
        for t in inputs:
            p = producer(t, self.seq)
            while p is not None and p in IMPLICIT_CASTS:
                # a dtype promotion gradcli records (a real operand of a complex product):
                # PyTorch's operation promotes inside itself and shows the operand's own node
                t = p.inputs[0]
                p = producer(t, p.seq)
            if p is not None:
                compiled = COMPILED.get(p) if COMPILED else None
                if compiled is not None:
                    out.append(compiled)
                    continue
                out.append((p.shown(), p.params["k"] if p.op.part else OUTPUT_NR.get(p, 0)))
            elif t.requires_grad and t.node is None and not (LATE_LEAVES and no_edge(t, self.seq)):
                out.append((accumulator(t, self), 0))
            else:
                out.append((None, 0))
        if len(out) == 2 and out[1][0] is None and self.label in ("DivBackward1", "MulBackward1"):
            # A tensor divided or multiplied by a C++ number (div.Scalar, mul.Scalar: a mean's
            # or a loss's count): PyTorch's node has the tensor's edge only; gradcli's number
            # is a constant operand.
            out.pop()
        if len(out) == 2 and self.name() == "ConvolutionBackward0":
            # A convolution without a bias: PyTorch's node still has the bias's slot.
            out.append((None, 0))
        if self.label == "SqueezeBackward4" and self.op.name == "matmul":
            # A vector times a matrix is one record here; PyTorch's matmul computes it as
            # unsqueeze(0), mm, squeeze(0), and its graph shows those nodes.
            x, y = out
            if x[0] is not None:
                x = (ShownNode("UnsqueezeBackward0", (x,)), 0)
            return ((ShownNode("MmBackward0", (x, y)), 0),)
        if CLONE_FIRST and self in CLONE_FIRST and out[0][0] is not None:
            # a reshape that copies: PyTorch's _unsafe_view of a contiguous clone
            return ((ShownNode("CloneBackward0", (out[0],)), 0),)
        if (
            self.label == "UnsafeViewBackward0"
            and self.op.name == "matmul"
            and self.inputs[0].ndim > 2
            and self.inputs[1].ndim == 2
        ):
            # An N-d tensor times a matrix: PyTorch's reshape (a view), mm, _unsafe_view.
            x, y = out
            if x[0] is not None:
                x = (ShownNode("ViewBackward0", (x,)), 0)
            return ((ShownNode("MmBackward0", (x, y)), 0),)
        return tuple(out)

    def where_edges(self) -> tuple[int, ...] | None:
        """A where record's inputs that are edges of PyTorch's node, in its order (None: not a
        where): where(c, x, y) has x and y (the condition is no edge); masked_fill(x, mask,
        number), recorded as where(mask, value, x), has x; with a tensor value, x and value;
        tril / triu, recorded as where(triangle, x, 0), has x."""
        if self.op.torch_name != "WhereBackward0" or len(self.inputs) != 3:
            return None
        if self.label == "MaskedFillBackward0":
            return (2,)
        if self.label == "MaskedFillBackward1":
            return (2, 1)
        if self.label in ("TrilBackward0", "TriuBackward0"):
            return (1,)  # recorded as where(triangle, x, 0): PyTorch's node has x alone
        return (1, 2) if self.label in (None, "WhereBackward0") else None

    def shown(self) -> Node:
        """The node PyTorch shows for this one (`grad_fn`, `next_functions`): itself, or for a
        part of a node with several outputs, that node; for one of the nodes gradcli records
        per output of a call (split, unbind, a decomposition's factors, a custom Function's
        outputs: `siblings`), the first of them alive, so that all outputs show one node as
        PyTorch's (`a.grad_fn is b.grad_fn`, one metadata dict, one set of node hooks)."""
        if self.op.part:
            p = producer(self.inputs[0], self.seq)
            if p is not None:
                return p
        sib = self.siblings
        if sib is not None:
            for ref in sib:
                s = ref()
                if s is not None:
                    return s
        return self

    def __repr__(self) -> str:
        # As PyTorch's: C++ nodes without their namespace, a custom Function's node with
        # its Python module (`<torch.autograd.function.ExpBackward object at 0x...>`).
        name = python_class(self.name())
        if self.op.kind == "custom" and name.endswith("Backward"):
            # (a program's Function: `{Name}Backward`; gradcli's own kernels run through
            # custom nodes too, under PyTorch's C++ names: `WeightNormInterfaceBackward0`)
            name = f"torch.autograd.function.{name}"
        return f"<{name} object at {id(self):#x}>"


def python_class(name: str) -> str:
    """The Python class of PyTorch's node named `name`: a C++ node's without its namespace,
    CppFunction for one PyTorch binds no class to (unpack_dual's Identity)."""
    if name in _UNBOUND:
        return "CppFunction"
    return name.removeprefix("torch::autograd::")


_UNBOUND = frozenset({"torch::autograd::Identity"})

_RUN_START = [0]  # the seq of the first node of the current run


def node_mark() -> None:
    _RUN_START[0] = SEQ[0]


def live_nodes() -> int:
    """The operations recorded in this run and alive now (cyclic garbage collected first):
    what the graph-size limit bounds (`limits.RunBudget`; called only when the run's count of
    operations passes the limit)."""
    import gc

    gc.collect()
    start = _RUN_START[0]
    return sum(1 for o in gc.get_objects() if type(o) is Node and o.seq >= start)


limits.BUDGET.live_nodes = live_nodes
limits.BUDGET.mark_nodes = node_mark


# The inputs PyTorch's node shows in `next_functions` where gradcli's node of the same name
# is a composition with other inputs: an item assignment's CopySlices / IndexPutBackward0
# shows (the tensor's previous version, the value), and a change in place through a view
# shows (the tensor's previous version, the change's other operands). Set by
# `surface.indexing`.
SHOWN_INPUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# The reshapes that copy (`x.t().reshape(-1)`): PyTorch's UnsafeViewBackward0 of a
# CloneBackward0 of x, which `next_functions` shows. Set by `surface.functional`.
CLONE_FIRST: weakref.WeakSet = weakref.WeakSet()
# allow_mutation_on_saved_tensors (`surface.mutation`): node -> {input number (-1: its output):
# a copy of the value it saved, made before a change in place overwrote it}, for the nodes
# recorded inside such a block; a backward pass gives the rule those values.
SAVED_COPIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Called with a node of SAVED_COPIES when a backward pass reaches it (PyTorch's refusal of a
# backward outside the block that recorded the node).
SAVED_COPIES_CHECK: list = [None]
# The output number PyTorch gives the node of one of several outputs of a call (`a, b =
# y.unbind()`: b's is 1; `t.output_nr`, `next_functions`), where gradcli records a node per
# output. Set by the interpreter for the tensors a call returns in a tuple.
OUTPUT_NR: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# A custom Function's node of several outputs (recorded as one node of its outputs packed
# flat, `ops.custom`) -> (the number of forward's outputs, for each differentiable one
# (its number, offset, size, shape), the set of those that received a gradient in the
# pass): its node hooks see one gradient per output, as PyTorch's (`autograd.unpacked`).
PACKED_OUTPUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def number_outputs(outputs: Any, since: int) -> None:
    """Numbers the nodes made since node `since` of the tensors of `outputs` by their place."""
    for i, t in enumerate(outputs):
        node = getattr(t, "node", None) if i else None
        if node is not None and type(node) is Node and node.seq >= since and not node.op.part:
            OUTPUT_NR[node] = i


# The outputs of a call of a function torch.compile returned: their node -> (PyTorch's one
# CompiledFunctionBackward node of the call, the output's number), which `grad_fn` and
# `next_functions` show instead (the gradients still flow through gradcli's own nodes). Set
# by `lang.compiling`.
COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class CompiledFunctionBackward:
    """AOTAutograd's node for one call of a compiled graph, as a program sees it: its name and
    `next_functions`, one edge per tensor the graph read from outside, in the order the graph
    first used them (gradcli's node for `F.linear` counts as PyTorch's one addmm)."""

    PROGRAM_ATTRIBUTES = ("name", "next_functions", "metadata")
    __slots__ = ("_inputs", "_seq", "_metadata", "__weakref__")

    def __init__(self, inputs: tuple, seq: int) -> None:
        self._inputs = inputs
        self._seq = seq
        self._metadata: dict | None = None

    def name(self) -> str:
        return "CompiledFunctionBackward"

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    @property
    def next_functions(self) -> tuple:
        out = []
        for t in self._inputs:
            p = producer(t, self._seq)
            if p is not None:
                compiled = COMPILED.get(p) if COMPILED else None
                if compiled is not None:
                    out.append(compiled)
                    continue
                out.append((p.shown(), p.params["k"] if p.op.part else OUTPUT_NR.get(p, 0)))
            elif t.requires_grad:
                out.append((accumulator(t, self), 0))
            else:
                out.append((None, 0))
        return tuple(out)

    def __repr__(self) -> str:
        return f"<torch.autograd.function.CompiledFunctionBackward object at {id(self):#x}>"


def graph_inputs(outputs: Sequence[Tensor], start: int, given: Sequence[Tensor]) -> tuple:
    """The tensors made before node `start` that the nodes made since and reached from
    `outputs` read, in the order those nodes first read them (an `F.linear`'s product and sum
    read as PyTorch's addmm: bias, input, weight): those that require grad, and of the others
    those `given` (the call's arguments, a module's buffers; not a number the call wrapped)."""
    allowed = {id(t) for t in given}
    seen: set[int] = set()
    nodes: dict[int, Node] = {}
    stack = [t.node for t in outputs if t.node is not None and t.node.seq >= start]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        nodes[id(n)] = n
        for t in n.inputs:
            p = producer(t, n.seq) if isinstance(t, Tensor) else None
            if p is not None and p.seq >= start:
                stack.append(p)
    absorbed: dict[int, Node] = {}
    for n in nodes.values():
        if n.label == "AddmmBackward0" and n.is_linear_sum():
            mm = producer(n.inputs[0], n.seq)
            if mm is not None:
                absorbed[id(mm)] = n
    order: list[Tensor] = []
    known: set[int] = set()
    for n in sorted(nodes.values(), key=lambda n: n.seq):
        if id(n) in absorbed:
            continue
        inputs = n.inputs
        if n.label == "AddmmBackward0" and n.is_linear_sum():
            mm = producer(inputs[0], n.seq)
            inputs = (inputs[1], *mm.inputs) if mm is not None else inputs[::-1]
        for t in inputs:
            if not isinstance(t, Tensor) or id(t) in known:
                continue
            p = producer(t, n.seq)
            if p is None and not t.requires_grad and id(t) not in allowed:
                continue
            if p is None or p.seq < start:
                known.add(id(t))
                order.append(t)
    return tuple(order)


class ShownNode:
    """A node PyTorch's graph has where gradcli records one equation for several of
    PyTorch's (as `next_functions` shows it: its name and its own `next_functions`)."""

    PROGRAM_ATTRIBUTES = ("name", "next_functions")
    __slots__ = ("label", "next_functions")

    def __init__(self, label: str, next_functions: tuple) -> None:
        self.label = label
        self.next_functions = next_functions

    def name(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"<{self.label} object at {id(self):#x}>"


class AccumulateGrad:
    """The node that stores a leaf's gradient in `.grad` (as `next_functions` shows it), with
    the hooks a program registers on it: pre-hooks `fn((grad,))` (a tuple returned replaces
    the gradient) before the gradient is accumulated, hooks `fn((), (grad,))` after, run by
    `autograd.backward` (a pass that accumulates; `autograd.grad` runs none, as PyTorch's).

    As PyTorch's node, it lives while a name or a graph that showed it holds it (the node
    whose `next_functions` gave it keeps it: `_SHOWN`); a hook put on it through a temporary
    graph that is gone is gone with it (`p.expand_as(p).grad_fn.next_functions[0][0]
    .register_hook(h)` without keeping the node), and the next graph shows a new node."""

    PROGRAM_ATTRIBUTES = (
        "name",
        "next_functions",
        "variable",
        "register_hook",
        "register_prehook",
        "metadata",
    )
    __slots__ = ("_variable", "pre", "post", "_metadata", "__weakref__")

    def __init__(self, variable: Tensor) -> None:
        self._variable = weakref.ref(variable)
        self.pre: list = []
        self.post: list = []
        self._metadata: dict | None = None

    def register_hook(self, fn: Any) -> Any:
        return self._hook(self.post, fn)

    def register_prehook(self, fn: Any) -> Any:
        return self._hook(self.pre, fn)

    def _hook(self, table: list, fn: Any) -> Any:
        from .tensor import HookHandle

        HOOKED.add(self)
        LEAF_HOOKS[0] = True
        fn = hooks.as_callable(fn)
        if not callable(fn):
            raise GradcliError(f"register_hook expects a function, not {type(fn).__name__}").mirror(
                "TypeError"
            )
        table.append(fn)
        return HookHandle(table, fn)

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    @property
    def variable(self) -> Tensor | None:
        return self._variable()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    @property
    def next_functions(self) -> tuple:
        return ()

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"


# The casts an operation records to promote an operand to the common dtype (`ops.arithmetic.
# cast`): PyTorch's TensorIterator promotes inside the operation, so its graph has no node
# for them and `next_functions` shows the operand's own.
IMPLICIT_CASTS: weakref.WeakSet = weakref.WeakSet()


# One AccumulateGrad per leaf while something holds it, as PyTorch's (`y.grad_fn.next_functions`
# of `x * x` shows the same node twice): leaf -> a weak reference to its node.
_ACCUMULATORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# node -> the AccumulateGrad nodes its `next_functions` showed (kept while the node lives).
_SHOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# The AccumulateGrad nodes a hook was registered on, while they live: a backward pass first
# collects the young reference cycles when there are any (a program's closure keeps the frame
# it was made in, so `acc` local to a function and a hook made there hold each other, where
# Python's closure would hold neither: PyTorch's node is gone when the function returns).
HOOKED: weakref.WeakSet = weakref.WeakSet()
# `Node.metadata`'s dicts, by node (gone with it)
NODE_METADATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def accumulator(t: Tensor, shown_by: Any = None) -> AccumulateGrad:
    ref = _ACCUMULATORS.get(t)
    got = ref() if ref is not None else None
    if got is None:
        got = AccumulateGrad(t)
        _ACCUMULATORS[t] = weakref.ref(got)
    if shown_by is not None:
        kept = _SHOWN.get(shown_by)
        if kept is None:
            _SHOWN[shown_by] = [got]
        elif got not in kept:
            kept.append(got)
    return got


def live_accumulator(t: Tensor) -> AccumulateGrad | None:
    """The leaf's AccumulateGrad if something holds it (None: no hooks can be on it)."""
    ref = _ACCUMULATORS.get(t)
    return ref() if ref is not None else None


def versions_of(inputs: tuple, out: Tensor) -> tuple[int, ...] | None:
    """The version counters of `inputs` and `out` now (None when all are 0)."""
    ov = out._vc[0] if out._vc is not None else 0
    if len(inputs) == 1:  # (the usual arities without the list)
        c = inputs[0]._vc
        v0 = c[0] if c is not None else 0
        return (v0, ov) if v0 or ov else None
    if len(inputs) == 2:
        c, d = inputs[0]._vc, inputs[1]._vc
        v0 = c[0] if c is not None else 0
        v1 = d[0] if d is not None else 0
        return (v0, v1, ov) if v0 or v1 or ov else None
    vs = [t._vc[0] if t._vc is not None else 0 for t in inputs]
    vs.append(ov)
    return tuple(vs) if any(vs) else None


def producer(t: Tensor, seq: int) -> Node | None:
    """The node that computed the version of `t` a node created at `seq` used: `t.node`, or,
    when `t` was changed in place since, the node it had then (None: it was a leaf or a
    constant then)."""
    p = t.node
    if p is None or p.seq < seq:
        return p
    h = p.history
    if h is None:
        while p is not None and p.seq >= seq:
            p = p.prev
        return p
    nodes, seqs = h
    return nodes[bisect.bisect_left(seqs, seq) - 1]


def versioned(node: Node, prev: Node | None) -> None:
    """Record that `node` makes a new version of the tensor `prev` made (a change in place)."""
    node.prev = prev
    h = prev.history if prev is not None else None
    if h is None:
        h = ([prev], [prev.seq if prev is not None else -1])
        if prev is not None:
            prev.history = h
    h[0].append(node)
    h[1].append(node.seq)
    node.history = h


# The parameters of every node recorded without any (most): one dict, read only (nothing
# changes a node's parameters), instead of an empty dict kept alive by each node.
_NO_PARAMS: dict[str, Any] = {}


# Set by `surface.indexing`: `rederive(view)` gives a view whose tensor changed in place since
# its node was made a new node over the tensor's current version (PyTorch's regenerated
# grad_fn, AsStridedBackward0).
REDERIVE: Callable[[Tensor], None] | None = None


def current(t: Tensor, changed: bool = False) -> Tensor:
    """`t`, a view made before the tensor it views was changed in place (recorded), given a
    node over the tensor's new version first, as PyTorch regenerates a view's grad_fn when
    it is next used (its gradient then flows through the change, and a view of a tensor that
    has since come to require grad requires grad). Anything else is returned as it is.
    `changed`: the caller knows some change happened (an optimizer's step writes parameters
    without the counters above)."""
    if (
        (changed or RECORDED_CHANGES[0] or RESTATED_VIEWS[0])
        and t._base is not None
        and t._vc[0] != t._vver
    ):
        if NOGRAD_VIEWS and t in NOGRAD_VIEWS:
            return t  # no new node: PyTorch's grad_fn of it is <Invalid> (`nograd_view_changed`)
        if REDERIVE is not None:
            REDERIVE(t)
    return t


def complex_refusal(what: str) -> NotSupported:
    """The refusal of a complex tensor where gradcli has no complex rule."""
    return NotSupported(
        f"complex tensors are not supported by {what} yet",
        found="a complex tensor (torch.complex64 / torch.complex128)",
        hint="compute on the real and imaginary parts (z.real, z.imag, torch.view_as_real(z)) "
        "as real tensors",
    )


def complex_grad_of_real(hint: str) -> GradcliError:
    """PyTorch's engine's error when a node's rule hands a complex gradient to a real input
    (its rules that do not take the real part themselves: a reduction's complex `dtype=`,
    torch.where of a real and a complex tensor)."""
    return GradcliError(
        "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) "
        "to be true, but got false.  (Could this error message be improved?  If so, please "
        "report an enhancement request to PyTorch.)",
        hint=hint,
    )


def complex_casts_fail() -> None:
    """A complex array converted to a real one anywhere (NumPy's ComplexWarning: the
    imaginary part dropped) is an error, never a real number in silence: a conversion no one
    checked for complex values stops there (the interpreter turns it into `complex_refusal`).
    Called after any filter that ignores RuntimeWarnings (ComplexWarning is one)."""
    warnings.filterwarnings("error", category=np.exceptions.ComplexWarning)


complex_casts_fail()


# --- bfloat16 (`core.dtypes.BF16`) ---------------------------------------------------------
_BF16 = dtypes.BF16
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)

# The ops whose result takes the layout PyTorch's TensorIterator gives it (`_iteration_order`)
_ITERATED = frozenset(("elementwise", "binary"))
# ... of those, the ones whose forward picks a kernel by the input's own contiguity (gelu:
# oneDNN's for a contiguous tensor, ATen's otherwise): computed as they are, then laid out
_LAID_OUT_AFTER = frozenset(("gelu",))
# ... and the ones whose result PyTorch lays out row-major whatever the input's layout
# (measured on PyTorch 2.13: log_sigmoid's forward fills a contiguous buffer; pow(scalar, t);
# mvlgamma, a sum of lgammas over a new axis)
_NOT_ITERATED = frozenset(("frexp", "logsigmoid", "rpow_scalar", "mvlgamma"))


def _iteration_order(arrays: Sequence[np.ndarray]) -> tuple[int, ...] | None:
    """The order (slowest dimension first) in which PyTorch's TensorIterator walks inputs of
    one shape, and so lays out its result (`TensorIteratorBase::reorder_dimensions`): the
    dimensions sorted by the inputs' strides, the first input whose strides tell two
    dimensions apart deciding (a broadcast, stride-0 one tells nothing; equal strides put the
    smaller size first); None where that is row-major order, or for strides it does not
    model (negative: NumPy's own views). `x.t().exp()` is laid out as `x.t()` (strides
    (1, n)), and so is `x.t() + y` for a row-major y; `y + x.t()` is row-major."""
    shape = arrays[0].shape
    strides = [a.strides for a in arrays]
    for st in strides:
        for v in st:
            if v < 0:
                return None
    perm = _sorted_dims(shape, strides)  # fastest first, as ATen's perm_
    order = tuple(perm[::-1])
    return None if order == tuple(range(len(shape))) else order


def _iterated(op: Op, arrays: Any, forward: Callable[..., Any], fparams: dict) -> Any:
    """`forward` of an elementwise op on inputs of one shape that are not row-major, walked
    in PyTorch's order (`_iteration_order`): on the inputs transposed to it (the kernels'
    vector loops and their tails then follow memory, as ATen's), the result transposed back,
    so that it has the input's layout (its strides, `is_contiguous()`); None where the order
    is row-major or not modelled (the caller computes as before)."""
    order = _iteration_order(arrays)
    if order is None:
        return None
    back = tuple(np.argsort(order))
    if op.name in _LAID_OUT_AFTER:
        data = _asarray(forward(*arrays, **fparams))
        laid = np.empty(tuple(data.shape[d] for d in order), data.dtype).transpose(back)
        laid[...] = data
        return laid
    data = forward(*(a.transpose(order) for a in arrays), **fparams)
    if type(data) is not _ndarray:
        data = _asarray(data)
    return data.transpose(back)


def _meta_result(op: Op, inputs: tuple, out: Tensor, params: dict) -> None:
    """An operation's result is on the meta device when an input is (every other input a
    0-d CPU tensor, as PyTorch's device check allows), else on the CPU (also inside `with
    torch.device('meta'):`)."""
    meta = [t in META for t in inputs]
    if not any(meta):
        if inputs:
            META.discard(out)
        return
    # (the device expected is the first input's that is not a 0-d CPU tensor)
    expected = next((m for t, m in zip(inputs, meta) if m or t.ndim), True)
    for t, m in zip(inputs, meta):
        if m != expected and (m or t.ndim):
            found, wanted = ("meta", "cpu") if m else ("cpu", "meta")
            raise GradcliError(
                f"Tensor on device {found} is not on the expected device {wanted}!",
                hint="move both to one device: a meta tensor has no values to compute with",
            ).mirror("RuntimeError")
    if op.name in _DATA_SHAPED:
        raise GradcliError(
            f"{op.name}() cannot run on a meta tensor: its result's shape depends on the "
            "values, which a meta tensor has none of",
            hint="make the tensor on the CPU",
        ).mirror("NotImplementedError")
    META.add(out)


# The records whose result's shape depends on the input's values.
_DATA_SHAPED = frozenset(("nonzero", "masked_select", "unique", "unique_consecutive"))


def apply(op: Op, *inputs: Tensor, label: str | None = None, **params: Any) -> Tensor:
    """Run `op` forward and, when grad mode is on and an input requires grad, record it."""
    observer = hooks.observer
    observer.tick()
    count = len(inputs)
    if count == 1:
        arrays: Any = (inputs[0].data,)
    elif count == 2:
        arrays = (inputs[0].data, inputs[1].data)
    else:
        arrays = [t.data for t in inputs]
    datas = arrays  # (the inputs' own arrays: bfloat16 ones are converted below)
    fparams = params
    forward = op.forward
    # Complex and bfloat16 inputs take their own roads; float32 and float64 arrays carry
    # NumPy's own dtype objects, so `is` rules the usual case out at once.
    d0 = arrays[0].dtype if count else _F32
    if (
        (d0 is not _F32 and d0 is not _F64)
        if count == 1
        else (d0 is not _F32 and d0 is not _F64)
        or ((d1 := arrays[1].dtype) is not _F32 and d1 is not _F64)
        if count == 2
        else count > 2
    ):
        if op.complex is None:  # (the records without complex rules refuse complex inputs)
            for a in arrays:
                if a.dtype.kind == "c":
                    raise complex_refusal(op.name)
        elif op.complex_forward is not None and any(a.dtype.kind == "c" for a in arrays):
            forward = op.complex_forward
        if any(a.dtype == _BF16 for a in arrays):
            from . import bf16  # (imported by the first bfloat16 input)

            arrays = bf16.bf16_arrays(op, arrays)
            fparams = bf16.bf16_params(op, params)
            forward = bf16.forward_of(op)
        elif any(a.dtype == _F16 for a in arrays):
            from . import half  # (imported by the first float16 input)

            if op.name in half.F16_COMPUTED:
                arrays = half.f16_arrays(arrays)
                forward = half.reduced_forward(forward)
    laid = (
        count
        and not arrays[0].flags.c_contiguous
        and arrays[0].ndim > 1
        and op.kind in _ITERATED
        and op.name not in _NOT_ITERATED
        and all(a.shape == arrays[0].shape for a in arrays)
    )
    try:
        if laid:
            with np.errstate(all="ignore"):
                data = _iterated(op, arrays, forward, fparams)
                if data is None:
                    data = forward(*arrays, **fparams)
        elif _GradMode.in_pass:  # run_backward already holds an errstate for the whole pass
            data = forward(*arrays, **fparams)
        else:
            with np.errstate(all="ignore"):
                data = forward(*arrays, **fparams)
    except GradcliError:
        raise
    except (ValueError, OverflowError) as e:
        # A value outside the op's domain (a record's forward raises ValueError for those, as
        # NumPy does): the program's error. Any other exception from a forward is a bug.
        err = GradcliError(f"{op.name}: {e}")
        err.cause = e  # for --debug
        raise err from e
    if type(data) is not _ndarray:
        data = _asarray(data)
    if _LENT and not data.flags.writeable and any(lent(t) for t in inputs):
        # A view of a leaf's lent data (a read-only view of a caller's array): the leaf takes
        # a copy of its own first, and the view is made on that (`core.tensor.lend`).
        for t in inputs:
            own(t)
        was = arrays
        arrays = datas = [t.data for t in inputs]
        if type(was) is not tuple and type(was) is not list:  # (bfloat16 or float16 inputs)
            from . import bf16, half

            if type(was) is half.F16Inputs:
                arrays = half.f16_arrays(arrays)
            else:
                arrays = bf16.bf16_arrays(op, arrays)
        with np.errstate(all="ignore"):
            data = _asarray(forward(*arrays, **fparams))
    limit = _ELEMENTS._cached
    if data.size > (limit if limit is not None else _ELEMENTS.read()):
        _ELEMENTS.check(data.size, f"the result of {op.name}")
    if type(arrays) is not tuple and type(arrays) is not list and data.dtype.kind == "f":
        from . import bf16, half  # (bfloat16 or float16 inputs: the arrays are float32 copies)

        if type(arrays) is half.F16Inputs:
            data = half.f16_result(data)
        else:
            data = bf16.bf16_result(op, data)
    if data.ndim > 1 and op.kind in _ELEMENTWISE and op.name not in _NOT_ITERATED:
        # laid out as PyTorch lays out an elementwise result after its inputs (the usual
        # case, row-major inputs and result, checked here first: `layout.iterated`)
        plain = PLAIN
        if (
            (count != 1 and count != 2)
            or (data.shape, data.strides) not in plain
            or (datas[0].shape, datas[0].strides) not in plain
            or (count == 2 and (datas[1].shape, datas[1].strides) not in plain)
        ):
            data = iterated(data, datas)
    elif data.ndim > 1 and op.kind == "reduction" and (data.shape, data.strides) not in PLAIN:
        # ATen allocates a reduction's result (and softmax's) row-major, whatever the input's
        # layout
        data = row_major(data)
    out = wrap(data)
    if META:
        _meta_result(op, inputs, out, params)
    if data.base is not None and count and np.may_share_memory(data, arrays[0]):
        # A view of its first input (reshape, transpose, basic indexing...): one storage, one
        # version counter, as PyTorch's views.
        base = inputs[0]
        # a view is an inference tensor when its base is one (inside a transform: its level)
        out._inf = view_inf(base._inf) if _GradMode.transforms else base._inf
        out._vc = counter(base)
        out._base = base._base if base._base is not None else base
        out._vver = out._vc[0]  # the version its node is of (`current`)
        if op.name == "index" and not params.get("lead"):
            out._view = (base, params["idx"])
        if not _GradMode.enabled and out._base.requires_grad and not _GradMode.transforms:
            # a view made under no_grad takes the requires_grad of the tensor whose storage it
            # views (PyTorch's root base: see NOGRAD_VIEWS); a view of a view that requires
            # grad whose own base does not, `arange(6.).view(2, 3).requires_grad_()[0]`, not
            out.requires_grad = True
            NOGRAD_VIEWS.add(out)
        elif NOGRAD_VIEWS and (inputs[0] in NOGRAD_VIEWS or inputs[0] in NOGRAD_VIEWS_OF):
            NOGRAD_VIEWS_OF.add(out)
            if NOGRAD_CUSTOM and inputs[0] in NOGRAD_CUSTOM:
                NOGRAD_CUSTOM.add(out)
    if _GradMode.enabled:
        if RECORDED_CHANGES[0] or RESTATED_VIEWS[0]:
            for t in inputs:
                if t._base is not None:
                    current(t)
                    if NOGRAD_VIEWS and nograd_view_changed(t):
                        raise GradcliError(
                            nograd_changed_message(t),
                            hint="take the view again after the change, or clone it under no_grad",
                        ).mirror("RuntimeError")
        nondiff = op.nondiff
        for i, t in enumerate(inputs):
            if t.requires_grad and (not nondiff or i not in nondiff):
                if op.saves and (
                    inputs[0]._inf
                    if count == 1
                    else (inputs[0]._inf or inputs[1]._inf)
                    if count == 2
                    else any(u._inf for u in inputs)
                ):
                    raise GradcliError(INFERENCE_SAVED, hint="use a clone: y.clone()")
                observer.node(op)
                out.requires_grad = True
                out.node = Node(op, inputs, params or _NO_PARAMS, out, label)
                if hooks.saved_hooks is not None:
                    hooks.saved_pending.append((out.node, out, hooks.saved_hooks))
                if hooks.node_made is not None:
                    hooks.node_made(out.node)
                break
    if (
        CUSTOM_VIEWS
        and out.node is not None
        and out._base is not None
        and id(inputs[0]) in CUSTOM_VIEWS
        and op.name != "clone"
    ):
        # a view of a view PyTorch forbids changing in place (an output of `unbind`, of a
        # custom Function) is one too (not clone's record: its surface makes the copy)
        hooks.view_made(out, inputs[0])  # type: ignore[misc]  (set with CUSTOM_VIEWS' first)
    if _GradMode.dual:  # inside a forward-AD dual level (set by `core.dual`, its hook)
        hooks.carry(op, inputs, params, out)
    if _GradMode.vmapped:
        carry_batched(inputs, out)
    return out


# --- the layout of results computed in several steps (`core.layout`) ----------------------

_NUMBER = np.zeros(())


def operand_arrays(*values: Any) -> list[np.ndarray]:
    """The arrays of an op's operands, in order, for `layout.iterated`: a number is a 0-d
    operand, as PyTorch wraps it."""
    return [v.data if isinstance(v, Tensor) else _NUMBER for v in values]


def laid_out(out: Tensor, *operands: Any) -> Tensor:
    """`out`, an elementwise result computed in several steps (add with alpha=, addcmul,
    lerp, clamp with tensor bounds), laid out as PyTorch's one kernel lays it out after the
    operands."""
    if out.data.ndim > 1:
        out.data = iterated(out.data, operand_arrays(*operands))
    return out


# --- test samples (`Op.samples`): the usual calls of each kind of op ------------------------

SHAPES1 = ((), (4,), (2, 3), (2, 1, 3))
SHAPES2 = (
    ((2, 3), (2, 3)),
    ((2, 3), (3,)),
    ((4, 1), (1, 5)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((), ()),
    ((3, 1, 2), (4, 1)),
)


class LazySamples(Sequence):
    """Samples made when the tests first read them (an op whose samples take work to make,
    `ops.resample`'s interpolation weights: not at every start-up)."""

    def __init__(self, make: Callable[[], tuple]) -> None:
        self._make = make
        self._made: tuple | None = None

    def _all(self) -> tuple:
        if self._made is None:
            self._made = tuple(self._make())
        return self._made

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __iter__(self) -> Any:
        return iter(self._all())


def unary_samples(params: dict | None = None, **kw: Any) -> tuple[Sample, ...]:
    """One input in the usual shapes (a scalar, a vector, a matrix, a broadcast shape)."""
    return tuple(Sample((s,), dict(params or {}), **kw) for s in SHAPES1)


def binary_samples(params: dict | None = None, **kw: Any) -> tuple[Sample, ...]:
    """Two inputs in shapes that broadcast in every way."""
    return tuple(Sample(s, dict(params or {}), **kw) for s in SHAPES2)


def reduction_samples(params: dict | None = None, **kw: Any) -> tuple[Sample, ...]:
    """dim None / int / tuple, keepdim both ways, a scalar and a vector."""
    p = dict(params or {})
    return tuple(
        Sample(s, {**p, **q}, **kw)
        for s, q in (
            (((2, 3),), {}),
            (((2, 3),), {"dim": 1}),
            (((2, 3),), {"dim": 0, "keepdim": True}),
            (((2, 3, 4),), {"dim": (0, 2)}),
            (((2, 3),), {"dim": None, "keepdim": True}),
            (((),), {}),
            (((),), {"dim": 0}),
            (((4,),), {"dim": 0}),
        )
    )
