"""The linear algebra of the PyTorch surface: `torch.einsum`, `tensordot`, `addmm`, `baddbmm`,
`addmv`, `kron`, `cdist`, `inverse`, `det`, `logdet`, `slogdet`, `dist`, and the `torch.linalg`
namespace (`LINALG`): norms, det, slogdet, inv, solve, cholesky, qr, eigh, svd, pinv, cross,
matrix_power, multi_dot. PyTorch's argument conventions, checks and messages; the records are
`ops.linalg` (matmul, einsum) and `ops.matrices`.

Functions with several results return them as PyTorch's `torch.return_types` named tuples
(`ReturnTuple`: they unpack, index, and print as PyTorch prints them).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core import hooks
from ..core.dtypes import BF16, cpp_type_name, scalar_type_name
from ..core.layout import column_major
from ..core.op import apply, link_siblings
from ..core.tensor import Tensor, _GradMode, batched, typename
from ..ops import arithmetic as A
from ..ops import elementwise as E
from ..ops import linalg as L
from ..ops import lu as LUOPS
from ..ops import matrices as M
from ..ops import reduction as R
from ..ops import shape as S
from ..ops.linalg import einsum as EINSUM
from ..ops.linalg import linear_sum as LS
from . import args as C
from . import functional as F
from . import overloads as OV
from .declare import declare
from .printing import format_value

# --- named results --------------------------------------------------------------------------------


class ReturnTuple(tuple):
    """A `torch.return_types.NAME` value: a tuple whose items also have names."""

    def __new__(cls, kind: str, fields: tuple[str, ...], values: tuple) -> ReturnTuple:
        self = super().__new__(cls, values)
        self.kind = kind
        self.fields = fields
        return self

    def program_attribute(self, attr: str) -> Any:
        if attr in self.fields:
            return self[self.fields.index(attr)]
        raise GradcliError(
            f"'torch.return_types.{self.kind}' object has no attribute '{attr}'"
        ).mirror("AttributeError")

    def __getattr__(self, attr: str) -> Any:
        # `r.eigenvalues` from Python (library users); programs go through program_attribute.
        fields = self.__dict__.get("fields", ())
        if attr in fields:
            return self[fields.index(attr)]
        raise AttributeError(attr)

    def __repr__(self) -> str:
        inner = ",\n".join(f"{f}={format_value(v)}" for f, v in zip(self.fields, self))
        return f"torch.return_types.{self.kind}(\n{inner})"

    __str__ = __repr__


# --- checks, in PyTorch's words -------------------------------------------------------------------


def _float_input(x: Any, fn: str, name: str = "A") -> Tensor:
    x = A.tensor_arg(x, name)
    if x.dtype.kind not in "fc":  # (complex: each record declares its own support, `Op.complex`)
        raise GradcliError(
            f"{fn}: Expected a floating point or complex tensor as input. Got "
            f"{scalar_type_name(x.dtype)}",
            hint="convert first: A.float()",
        )
    return x


# LAPACK has no half-precision routines: PyTorch refuses float16 and bfloat16 in each one's
# own words, the kernel's name or the function's.
_LOW_PRECISION_KERNELS = {
    "linalg.det": "lu_cpu",
    "linalg.solve": "lu_cpu",
    "linalg.lu_factor": "lu_cpu",
    "linalg.eigh": "linalg_eigh_cpu",
    "linalg.svd": "linalg_svd_cpu",
    "linalg.qr": "geqrf_cpu",
    "linalg.cholesky": "cholesky_cpu",
}


def _low_precision(x: Tensor, fn: str) -> None:
    if x.dtype.kind != "f" or (x.dtype.itemsize > 2 and x.dtype != BF16):
        return
    name = scalar_type_name(x.dtype)
    kernel = _LOW_PRECISION_KERNELS.get(fn)
    if kernel is not None:
        raise GradcliError(
            f"\"{kernel}\" not implemented for '{name}'", hint="convert first: A.float()"
        ).mirror("NotImplementedError")
    if fn in ("torch.linalg.matrix_rank", "torch.linalg.lstsq"):
        raise GradcliError(
            "This function doesn't handle types other than float and double",
            hint="convert first: A.float()",
        ).mirror("RuntimeError")
    if fn == "linalg.pinv":
        raise GradcliError(
            f"linalg.pinv({name}{{{list(x.shape)}}}): expected a tensor with 2 or more "
            "dimensions of float, double, cfloat or cdouble types",
            hint="convert first: A.float()",
        ).mirror("RuntimeError")
    raise (
        GradcliError(
            f"{fn}: Low precision dtypes not supported. Got {name}", hint="convert first: A.float()"
        )
        .mirror("RuntimeError")
        .pytorch()
    )


def _matrices(
    x: Any, fn: str, square: bool = True, name: str = "A", floating: bool = True
) -> Tensor:
    # floating=False: any dtype (matrix_power's positive powers are integer matmuls in PyTorch)
    x = _float_input(x, fn, name) if floating else A.tensor_arg(x, name)
    if fn != "linalg.matrix_power":
        _low_precision(x, fn)
    if x.ndim < 2:
        raise GradcliError(f"{fn}: The input tensor {name} must have at least 2 dimensions.")
    if square and x.shape[-1] != x.shape[-2]:
        raise GradcliError(
            f"{fn}: {name} must be batches of square matrices, but they are "
            f"{x.shape[-2]} by {x.shape[-1]} matrices"
        )
    # LAPACK cannot be interrupted by the time limit: its work is bounded before it starts.
    m, n = x.shape[-2:]
    limits.LINALG_WORK.check(
        math.prod(x.shape[:-2]) * m * n * min(m, n), f"the work of {fn} on {list(x.shape)}"
    )
    return x


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise GradcliError(f"{what} must be a bool, not {typename(v)}").mirror("TypeError")
    return v


def _unpacked(t: Tensor, shapes: list[tuple[int, ...]], label: str) -> list[Tensor]:
    outs = [A.named(p, label) for p in M.unpack(t, shapes)]
    link_siblings(outs)  # (PyTorch's one node: their hooks run together)
    packed = t.node
    if packed is not None:
        # PyTorch's one node's edges: the decomposition's inputs, not the packed value's part
        for p in outs:
            A.shown_over(p, *packed.inputs)
    return outs


def lapack_owned(*ts: Tensor, vectors: tuple[Tensor, ...] = ()) -> None:
    """Results in their own storage, each matrix column-major as LAPACK writes it through ATen
    (PyTorch's strides, `is_contiguous`, `.view()` refusals and the order later float32
    products read them in), no longer views of a packed record's value; `vectors` (singular
    values, eigenvalues, tau: one vector per matrix) row-major."""
    for i, t in enumerate(ts + vectors):
        t.data = column_major(np.array(t.data)) if i < len(ts) else np.array(t.data)
        t._vc = t._base = None


# --- einsum ---------------------------------------------------------------------------------------

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _label(c: str) -> int:
    return _LETTERS.index(c)


def _parse_term(term: str, offset: int, k: int, ndim: int) -> tuple[list[Any], int]:
    """One operand's subscripts: letters as label numbers, `...` as Ellipsis."""
    out: list[Any] = []
    i = 0
    seen_ellipsis = False
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i : i + 3] != "...":
                raise GradcliError(
                    f"einsum(): found '.' for operand {k} that is not part of any ellipsis"
                )
            if seen_ellipsis:
                raise GradcliError(
                    f"einsum(): found '.' for operand {k} for which an ellipsis was already found"
                )
            seen_ellipsis = True
            out.append(Ellipsis)
            i += 3
            continue
        if c not in _LETTERS:
            raise GradcliError(
                f"einsum(): invalid subscript given at index {offset + i} in the equation "
                "string, subscripts must be in [a-zA-Z]"
            )
        out.append(_label(c))
        i += 1
    return out, ndim


def einsum(*args: Any) -> Tensor:
    """`torch.einsum(equation, *operands)`, `torch.einsum(equation, [operands])` and the
    sublist form `torch.einsum(a, [0, 1], b, [1, 2], [0, 2])`."""
    if not args:
        raise GradcliError("einsum(): must specify the equation string and at least one operand")
    if isinstance(args[0], Tensor):
        return _einsum_sublists(args)
    equation = args[0]
    if not isinstance(equation, str):
        raise GradcliError(
            f"einsum(): argument 'equation' (position 1) must be str, not {typename(equation)}"
        ).mirror("TypeError")
    ops = list(args[1:])
    if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
        ops = list(ops[0])
    for i, t in enumerate(ops):
        if not isinstance(t, Tensor):
            raise GradcliError(
                f"expected Tensor as element {i} in argument 1, but got {typename(t)}"
            ).mirror("TypeError")
    eq = equation
    lhs, arrow, rhs = eq.partition("->")
    if "->" in rhs:
        bad = len(lhs) + 2 + rhs.index("-")
        raise GradcliError(
            f"einsum(): invalid subscript given at index {bad} in the equation string, "
            "subscripts must be in [a-zA-Z]"
        )
    terms = lhs.split(",")
    if len(terms) > len(ops):
        raise GradcliError("einsum(): fewer operands were provided than specified in the equation")
    if len(terms) < len(ops):
        raise GradcliError("einsum(): more operands were provided than specified in the equation")
    parsed = []
    offset = 0
    for k, (term, t) in enumerate(zip(terms, ops)):
        stripped = term.replace(" ", "")
        lab, _ = _parse_term(stripped, offset, k, t.ndim)
        offset += len(term) + 1
        parsed.append(lab)
    out: list[Any] | None = None
    if arrow:
        out, _ = _parse_term(rhs.replace(" ", ""), len(lhs) + 2, -1, 0)
    return _einsum(ops, parsed, out)


def _einsum_sublists(args: tuple) -> Tensor:
    ops, subs = [], []
    i = 0
    while i + 1 < len(args) and isinstance(args[i], Tensor):
        ops.append(args[i])
        subs.append(_sublist(args[i + 1]))
        i += 2
    out = _sublist(args[i]) if i < len(args) else None
    if i + 1 < len(args):
        raise GradcliError("einsum(): expected sublists of subscripts after each operand")
    return _einsum(ops, subs, out)


def _sublist(v: Any) -> list[Any]:
    if not isinstance(v, (list, tuple)):
        raise GradcliError(
            f"einsum(): a sublist of subscripts must be a list, not {typename(v)}"
        ).mirror("TypeError")
    out: list[Any] = []
    for e in v:
        if e is Ellipsis:
            out.append(Ellipsis)
        elif isinstance(e, int) and not isinstance(e, bool) and 0 <= e < 52:
            out.append(e)
        else:
            raise GradcliError(
                f"einsum(): expected subscripts to be in the range [0, 52) but got {e}"
            )
    return out


def _einsum(ops: list[Tensor], subs: list[list[Any]], out: list[Any] | None) -> Tensor:
    """Subscripts (label numbers and Ellipsis) to the record's `spec`: the ellipsis dims get
    labels of their own (right-aligned across operands), size-1 axes that broadcast are
    expanded, and the implicit output is PyTorch's (the ellipsis dims, then the labels that
    appear once, in alphabetical order)."""
    n_ell = 0
    for k, (t, lab) in enumerate(zip(ops, subs)):
        named = len([x for x in lab if x is not Ellipsis])
        if Ellipsis in lab:
            if named > t.ndim:
                raise GradcliError(
                    f"einsum(): the number of subscripts in the equation ({named}) is more than "
                    f"the number of dimensions ({t.ndim}) for operand {k}"
                )
            n_ell = max(n_ell, t.ndim - named)
        elif named != t.ndim:
            raise GradcliError(
                f"einsum(): the number of subscripts in the equation ({named}) does not match "
                f"the number of dimensions ({t.ndim}) for operand {k} and no ellipsis was given"
            )
    ell = tuple(range(52, 52 + n_ell))  # labels of the ellipsis dims
    full: list[tuple[int, ...]] = []
    for t, lab in zip(ops, subs):
        if Ellipsis in lab:
            i = lab.index(Ellipsis)
            k = t.ndim - (len(lab) - 1)
            full.append(tuple(lab[:i]) + ell[n_ell - k :] + tuple(lab[i + 1 :]))
        else:
            full.append(tuple(lab))
    counts: dict[int, int] = {}
    for lab in full:
        for x in lab:
            counts[x] = counts.get(x, 0) + 1
    if out is None:
        outl = ell + tuple(sorted(x for x, c in counts.items() if c == 1 and x < 52))
    else:
        outl_list: list[int] = []
        for x in out:
            if x is Ellipsis:
                outl_list.extend(ell)
                continue
            if x not in counts:
                raise GradcliError(
                    f"einsum(): output subscript {_LETTERS[x]} does not appear in the equation "
                    "for any input operand"
                )
            if x in outl_list:
                raise GradcliError(
                    f"einsum(): output subscript {_LETTERS[x]} appears more than once in the output"
                )
            outl_list.append(x)
        if Ellipsis not in out:
            outl_list = list(outl_list)
            # Ellipsis dims that the output leaves out are summed, as PyTorch does.
        outl = tuple(outl_list)
    # Sizes: a label's size is its largest; size-1 axes broadcast (expanded, recorded).
    sizes: dict[int, int] = {}
    for k, (t, lab) in enumerate(zip(ops, full)):
        within: dict[int, int] = {}
        for n, x in zip(t.shape, lab):
            if x in within and within[x] != n:
                raise GradcliError(
                    f"einsum(): subscript {_LETTERS[x]} is repeated for operand {k} but the "
                    f"sizes don't match, {within[x]} != {n}"
                )
            within[x] = n
            seen = sizes.get(x)
            if seen is None or seen == 1:
                sizes[x] = n
            elif n != 1 and n != seen:
                name = _LETTERS[x] if x < 52 else "..."
                raise GradcliError(
                    f"einsum(): subscript {name} has size {n} for operand {k} which does not "
                    f"broadcast with previously seen size {seen}"
                )
    A.size_check(tuple(sizes[x] for x in outl), "the result of einsum")
    dtype = ops[0].dtype
    if all(t.dtype.kind in "biu" for t in ops):  # (its pairs' own checks, as ATen's: mul
        # promotes integer and bool operands, bmm refuses bool and mixed dtypes)
        return Tensor(_einsum_integral([t.data for t in ops], full, outl, sizes))
    for t in ops[1:]:
        if t.dtype != dtype:
            raise GradcliError(
                f"expected scalar type {scalar_type_name(dtype)} but found "
                f"{scalar_type_name(t.dtype)}"
            )
    fixed = []
    for t, lab in zip(ops, full):
        want = tuple(sizes[x] for x in lab)
        if t.shape != want:
            t = apply(S.expand, t, shape=want)
        fixed.append(t)
    summed = any(x not in outl for x in counts)
    if len(ops) == 1:
        label = "SumBackward1" if summed else "PermuteBackward0"
    else:
        label = "ViewBackward0" if summed else "MulBackward0"
    return apply(EINSUM, *fixed, spec=(tuple(full), outl), label=label)


def _einsum_integral(
    arrays: list[np.ndarray], full: list[tuple[int, ...]], outl: tuple[int, ...], sizes: dict
) -> np.ndarray:
    """einsum of integer or bool operands as ATen computes it, left to right: a label only one
    operand has (not in the output) is summed out of it first (`sum`: int64, a count for bool),
    two operands are multiplied (`mul`, promoting) or, over their shared contracted labels,
    multiplied and summed by `bmm` (same dtypes only; none for bool: PyTorch's errors)."""

    def prep(a: np.ndarray, lab: tuple[int, ...]) -> tuple[np.ndarray, list[int]]:
        labs = list(lab)
        while len(set(labs)) < len(labs):  # a repeated label: its diagonal, moved last
            i = next(k for k, x in enumerate(labs) if labs.index(x) != k)
            j = labs.index(labs[i])
            a = np.diagonal(a, axis1=j, axis2=i)
            labs = [x for k, x in enumerate(labs) if k not in (i, j)] + [labs[i]]
        ones = tuple(k for k, n in enumerate(a.shape) if n == 1)  # size 1: broadcast, absent
        return np.squeeze(a, axis=ones), [x for k, x in enumerate(labs) if k not in ones]

    def summed(a: np.ndarray, labs: list[int], x: int) -> tuple[np.ndarray, list[int]]:
        k = labs.index(x)
        return np.sum(a, axis=k, dtype=np.int64), labs[:k] + labs[k + 1 :]

    def aligned(a: np.ndarray, labs: list[int], order: list[int]) -> np.ndarray:
        a = np.transpose(a, [labs.index(x) for x in order if x in labs])
        return a.reshape([sizes[x] if x in labs else 1 for x in order])

    contracted = [x for lab in full for x in dict.fromkeys(lab) if x not in outl]
    contracted = list(dict.fromkeys(contracted))
    preps = [prep(a, lab) for a, lab in zip(arrays, full)]
    counts = {x: sum(x in labs for _, labs in preps) for x in contracted}
    a, la = preps[0]
    if len(preps) == 1:
        for x in contracted:
            if x in la:
                a, la = summed(a, la, x)
    for b, lb in preps[1:]:
        pair: list[int] = []
        for x in contracted:
            if x in la and x in lb:
                counts[x] -= 1
                if counts[x] == 1:
                    pair.append(x)
                    counts[x] = 0
            elif counts[x] == 1:
                if x in la:
                    a, la = summed(a, la, x)
                    counts[x] = 0
                elif x in lb:
                    b, lb = summed(b, lb, x)
                    counts[x] = 0
        union = list(dict.fromkeys(la + lb))
        kept = [x for x in union if x not in pair]
        A.size_check(tuple(sizes[x] for x in union), "the result of einsum")
        if not pair:  # sumproduct_pair without dims to sum: at::mul
            a, la = np.multiply(aligned(a, la, union), aligned(b, lb, union)), union
            continue
        if a.dtype == np.bool_:  # (bmm's kernel, chosen by the left operand's dtype, first)
            raise GradcliError("\"bmm\" not implemented for 'Bool'").mirror("NotImplementedError")
        if a.dtype != b.dtype:
            raise GradcliError(
                f"expected scalar type {scalar_type_name(a.dtype)} but found "
                f"{scalar_type_name(b.dtype)}"
            )
        short = {x: k for k, x in enumerate(union)}  # (NumPy's sublists take labels < 52)
        with np.errstate(all="ignore"):  # bmm in the operands' dtype: it wraps as ATen's
            prod = np.einsum(
                aligned(a, la, union).astype(np.int64),
                list(range(len(union))),
                aligned(b, lb, union).astype(np.int64),
                list(range(len(union))),
                [short[x] for x in kept],
            )
        a, la = prod.astype(a.dtype), kept
    for x in [x for x in la if x not in outl]:  # (none: each was summed above)
        a, la = summed(a, la, x)
    out = np.broadcast_to(aligned(a, la, list(outl)), [sizes[x] for x in outl])
    return np.array(out)  # (a copy, 0-d for a scalar result)


# --- tensordot, addmm & co, kron, outer -----------------------------------------------------------


def _int_list(v: Any, what: str) -> list[int]:
    if isinstance(v, Tensor):
        v = v.data.tolist()
    if isinstance(v, int) and not isinstance(v, bool):
        return [v]
    if isinstance(v, (list, tuple)) and all(
        isinstance(i, int) and not isinstance(i, bool) for i in v
    ):
        return list(v)
    raise GradcliError(
        f"tensordot(): argument '{what}' must be tuple of ints, not {typename(v)}"
    ).mirror("TypeError")


def tensordot(a: Any, b: Any, dims: Any = 2, out: Any = None) -> Tensor:
    a, b = A.tensor_arg(a, "a"), A.tensor_arg(b, "b")
    if isinstance(dims, Tensor) and dims.ndim == 0:
        dims = int(dims.item())
    if isinstance(dims, int) and not isinstance(dims, bool):
        if dims < 0:
            raise GradcliError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > a.ndim or dims > b.ndim:
            raise GradcliError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da = list(range(a.ndim - dims, a.ndim))
        db = list(range(dims))
    else:
        if isinstance(dims, Tensor):
            dims = dims.data.tolist()
        if not isinstance(dims, (list, tuple)) or len(dims) != 2:
            raise GradcliError(
                "tensordot(): dims must be an int or a pair of lists of dims"
            ).mirror("TypeError")
        da, db = _int_list(dims[0], "dims_self"), _int_list(dims[1], "dims_other")
    if len(da) != len(db):
        raise GradcliError("both dimension lists should have same length")
    if a.dtype != b.dtype:  # (ATen's next check: no promotion)
        raise GradcliError("both inputs should have same dtype", hint="convert one: b.to(a.dtype)")
    da = [C.check_dim(d, a.ndim) for d in da]
    db = [C.check_dim(d, b.ndim) for d in db]
    for i, j in zip(da, db):
        if a.shape[i] != b.shape[j] and a.shape[i] != 1 and b.shape[j] != 1:
            raise GradcliError(
                f"contracted dimensions need to match, but first has size {a.shape[i]} in dim "
                f"{i} and second has size {b.shape[j]} in dim {j}"
            )
    la = list(range(a.ndim))
    lb = list(range(a.ndim, a.ndim + b.ndim))
    for i, j in zip(da, db):
        lb[j] = la[i]
    outl = [x for k, x in enumerate(la) if k not in da] + [
        x for k, x in enumerate(lb) if k not in db
    ]
    if len(set(la) | set(lb)) > 52:
        raise GradcliError("tensordot: too many dimensions (more than 52 in all)")
    if a.dtype == np.bool_:  # ATen's tensordot is a matrix product (a dot when all is summed)
        kernel = "dot" if len(da) == a.ndim and len(db) == b.ndim else "addmm_impl_cpu_"
        raise GradcliError(f"\"{kernel}\" not implemented for 'Bool'").mirror("NotImplementedError")
    return A.named(_einsum([a, b], [la, lb], outl), "ViewBackward0")


def _scaled(t: Tensor, s: Any) -> Tensor:
    """t * s, PyTorch's maybe_multiply (a MulBackward1 rule for a float tensor)."""
    if s == 1:
        return t
    if t.dtype in (np.float32, np.float64) and isinstance(s, (int, float)):
        return E.scale(t, s)
    return A.mul_t(t, s)


def _plain_scale(x: Tensor, y: Tensor, alpha: Any) -> bool:
    """Whether alpha * (x op y) takes the scaled records (`ops.linalg`): a real number and two
    float32 or float64 operands of one dtype, outside vmap."""
    return (
        not isinstance(alpha, bool)
        and isinstance(alpha, (int, float))
        and x.dtype == y.dtype
        and x.dtype in (np.float32, np.float64)
        and not _GradMode.vmapped
    )


def _scaled_product(x: Tensor, y: Tensor, alpha: Any) -> Tensor:
    """alpha * (x @ y) of addmm, addmv, baddbmm: with alpha != 1 one node whose rule scales
    each operand's gradient after its product, as PyTorch's (`ops.linalg.scaled_matmul`); the
    value is the product's times alpha as before."""
    if alpha == 1 or not _plain_scale(x, y, alpha):
        return _scaled(A.matmul(x, y), alpha)
    # matmul's checks, in its words, first; the record's value is the product's times alpha,
    # as the two steps round it
    x, y = A.checked_operands(x, y)
    return apply(L.scaled_matmul, x, y, alpha=alpha, label="MulBackward0")


def _add_scaled(
    inp: Tensor, prod: Tensor, beta: Any, alpha: Any, label: str, base: Tensor | None = None
) -> Tensor:
    """beta * inp + alpha * prod (`prod` the product already scaled by alpha), with inp
    ignored when beta is 0 (NaN in it too). `base`: inp already expanded to the product's
    shape."""
    if base is None:
        base = F.expand(inp, prod.shape)
    if beta == 0:
        keep = Tensor(np.ones(prod.shape, dtype=bool))
        return A.named(F.where(keep, prod, _scaled(base, 0.0)), label)
    return A.named(A.add_t(_scaled(base, beta), prod), label)


def _need_matrix(t: Tensor, name: str) -> None:
    if t.ndim != 2:
        raise GradcliError(f"{name} must be a matrix, got {t.ndim}-D tensor")


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    inp, m1, m2 = A.tensor_arg(input, "input"), A.tensor_arg(mat1), A.tensor_arg(mat2)
    _need_matrix(m1, "mat1")
    _need_matrix(m2, "mat2")
    F.addmm_dtypes_checked(inp, m1, m2)
    base = None
    if m1.shape[1] == m2.shape[0]:
        # the expanded input recorded before the product: a pass through this node then runs
        # the product's rule first and reduces the input's gradient after, as AddmmBackward0
        # (its sum_to follows the two products), which orders the float sums of a second
        # pass where these gradients meet
        base = F.expand(inp, (m1.shape[0], m2.shape[1]))
    out = _add_scaled(inp, _scaled_product(m1, m2, alpha), beta, alpha, "AddmmBackward0", base)
    if out.data.flags.writeable and not (
        _GradMode.vmapped and (batched(inp) or batched(m1) or batched(m2))
    ):
        _gemm_rounding(out, m1, m2, inp, beta, alpha)
    return out


def _gemm_rounding(out: Tensor, m1: Tensor, m2: Tensor, inp: Tensor, beta: Any, alpha: Any) -> None:
    """addmm's value as MKL rounds it, where modelled: ATen copies the input (a bias vector, a
    full matrix, a number) into the result and runs gemm with beta and alpha. With beta =
    alpha = 1 rounded as F.linear's bias (`linalg.linear_sum`); otherwise (and for float64
    products linear_sum leaves) on the avx2 and zen4 families as `gemm_avx2.addmm_scaled`."""
    v = None
    scalars = all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in (beta, alpha))
    if scalars and m1.dtype in (np.float16, BF16):
        # float16 and bfloat16: ATen's kernels add beta * input in their float32 sum, one
        # rounding (`core.bf16.reduced_addmm`)
        from ..core.bf16 import reduced_addmm

        v = reduced_addmm(m1.data, m2.data, inp.data, float(alpha), float(beta))
        if v is not None and v.shape == out.data.shape:
            out.data[...] = v
        return
    if beta == 1 and alpha == 1:
        v = LS(m1.data, m2.data, inp.data)
    if v is None and scalars and m1.dtype == m2.dtype == inp.dtype:
        from ..core import cpu

        if cpu.mkl_avx2():
            from ..ops.gemm_avx2 import addmm_scaled

            v = addmm_scaled(m1.data, m2.data, inp.data, float(alpha), float(beta))
    if v is not None and v.shape == out.data.shape:
        out.data[...] = v


def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    inp, b1, b2 = A.tensor_arg(input, "input"), A.tensor_arg(batch1), A.tensor_arg(batch2)
    # ATen's baddbmm meta, in its order: the input expanded to (batch1.size(0), batch1.size(1),
    # batch2.size(2)) first (its errors; the view itself is made once the sizes are known to
    # agree), then the input's dtype against batch1's, then the operands' dimensions and sizes
    sizes = (C.size_at(b1.shape, 0), C.size_at(b1.shape, 1), C.size_at(b2.shape, 2))
    F.expand_check(inp.shape, sizes, inp.dtype)
    if inp.dtype != b1.dtype:
        raise GradcliError(
            f"Input dtypes must be the same, got: input {cpp_type_name(inp.dtype)}, batch1: "
            f"{cpp_type_name(b1.dtype)}, batch2: {cpp_type_name(b2.dtype)}",
            hint="convert the input (or the batches) to one dtype first",
        )
    for t, name in ((b1, "batch1"), (b2, "batch2")):
        if t.ndim != 3:
            raise GradcliError(f"{name} must be a 3D tensor")
    if b2.shape[:2] != (b1.shape[0], b1.shape[2]):
        raise GradcliError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{b1.shape[0]}, {b1.shape[2]}] but got: [{b2.shape[0]}, {b2.shape[1]}]."
        )
    C.kernel_dtype(b1.dtype, "baddbmm", kinds="fciu")  # (no bool loop)
    base = F.expand(inp, sizes)  # (recorded before the product, as in `addmm`)
    out = _add_scaled(inp, _scaled_product(b1, b2, alpha), beta, alpha, "BaddbmmBackward0", base)
    if out.data.flags.writeable and not (
        _GradMode.vmapped and (batched(inp) or batched(b1) or batched(b2))
    ):
        _baddbmm_rounding(out, b1, b2, base, beta, alpha)
    return out


def _baddbmm_rounding(
    out: Tensor, b1: Tensor, b2: Tensor, base: Tensor, beta: Any, alpha: Any
) -> None:
    """baddbmm's value as ATen's CPU kernel rounds it on the avx2 and zen4 families: from 400
    multiply-adds a matrix, each matrix of the batch an addmm_ of its slice of the result
    (`gemm_avx2.addmm_scaled`, the slice's place in the result deciding MKL's peeled
    elements); below, ATen's own loop (beta * r + alpha * the sum in order, as computed)."""
    from ..core import cpu

    nb, m, k = b1.shape
    n = b2.shape[2]
    scalars = all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in (beta, alpha))
    if scalars and b1.dtype == b2.dtype == base.dtype and b1.dtype in (np.float16, BF16):
        _reduced_rounding(out, b1, b2, base, float(beta), float(alpha))
        return
    if not (scalars and cpu.mkl_avx2() and k * m * n >= 400 and b1.dtype == b2.dtype):
        return
    from ..ops.gemm_avx2 import addmm_scaled

    res = np.empty(out.data.shape, out.data.dtype)
    for i in range(nb):
        v = addmm_scaled(
            b1.data[i], b2.data[i], base.data[i], float(alpha), float(beta), out_at=i * m * n
        )
        if v is None:
            return
        res[i] = v
    out.data[...] = res


def _reduced_rounding(
    out: Tensor, x: Tensor, y: Tensor, base: Tensor, beta: float, alpha: float
) -> None:
    """beta * input + alpha * (x @ y) of float16 or bfloat16 operands (baddbmm's batches,
    addmv's matrix and vector) rounded once, as ATen's kernels add the input in their float32
    sum: float16 batches in ATen's order (`core.bf16.reduced_bmm`); otherwise the certain
    answer, or a refusal where the order of the sum would decide the last bit
    (`core.bf16.bf16_product`)."""
    from ..core import bf16

    dt = x.dtype
    v = None
    if x.ndim == 3:
        v = bf16.reduced_bmm(x.data, y.data, base.data, alpha, beta)
    elif x.ndim == 2:
        if x.shape[1] == 1:
            return  # (one column: ATen's elementwise steps, each rounded, as computed)
        v = bf16.reduced_addmv(x.data, y.data, base.data, alpha, beta)
    if v is None:
        f32 = np.float32
        c = None if beta == 0 else base.data.astype(f32)
        exact = bf16.bf16_product(
            x.data.astype(f32), y.data.astype(f32), c, alpha, beta if c is not None else 1.0, dt
        )
        v = bf16._round_to(exact.astype(f32), dt)
    if v.shape == out.data.shape:
        out.data[...] = v


def addmv(input: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    inp, m, v = A.tensor_arg(input, "input"), A.tensor_arg(mat), A.tensor_arg(vec)
    if m.ndim != 2 or v.ndim != 1 or inp.ndim > 1:
        raise GradcliError(f"vector + matrix @ vector expected, got {inp.ndim}, {m.ndim}, {v.ndim}")
    if m.shape[1] != v.shape[0] or (inp.ndim == 1 and inp.shape[0] not in (1, m.shape[0])):
        raise GradcliError(
            f"size mismatch, got input ({inp.shape[0] if inp.ndim else 1}), mat "
            f"({m.shape[0]}x{m.shape[1]}), vec ({v.shape[0]})"
        )
    if not inp.dtype == m.dtype == v.dtype:  # (ATen's addmv: no promotion, after the shapes)
        raise GradcliError(
            "addmv input tensors must have the same dtype, but got "
            f"{scalar_type_name(inp.dtype)}, {scalar_type_name(m.dtype)}, and "
            f"{scalar_type_name(v.dtype)}",
            hint="convert the input (or the matrix and vector) to one dtype first",
        )
    base = F.expand(inp, (m.shape[0],))  # (recorded before the product, as in `addmm`)
    out = _add_scaled(inp, _scaled_product(m, v, alpha), beta, alpha, "AddmvBackward0", base)
    scalars = all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in (beta, alpha))
    if (
        scalars
        and m.dtype in (np.float16, BF16)
        and out.data.flags.writeable
        and not (_GradMode.vmapped and (batched(inp) or batched(m) or batched(v)))
    ):
        # (ATen's gemv adds the input in its float32 sum: one rounding)
        _reduced_rounding(out, m, v, base, float(beta), float(alpha))
    return out


def outer(input: Any, vec2: Any) -> Tensor:
    input, vec2 = A.tensor_arg(input, "input"), A.tensor_arg(vec2, "vec2")
    for t, name in ((input, "self"), (vec2, "vec2")):
        if t.ndim != 1:
            raise GradcliError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    A.size_check((input.shape[0], vec2.shape[0]), "the outer product")
    # (ATen: self.reshape({n, 1}) * vec2, a view: ViewBackward0)
    return A.named(A.mul_t(F.reshape(input, (-1, 1)), vec2), "MulBackward0")


def kron(input: Any, other: Any) -> Tensor:
    for v, name in ((input, "input"), (other, "other")):
        if not isinstance(v, Tensor):
            pos = 1 if name == "input" else 2
            raise GradcliError(
                f"kron(): argument '{name}' (position {pos}) must be Tensor, not {typename(v)}"
            ).mirror("TypeError")
    n = max(input.ndim, other.ndim)
    sa = (1,) * (n - input.ndim) + input.shape
    sb = (1,) * (n - other.ndim) + other.shape
    A.size_check(tuple(x * y for x, y in zip(sa, sb)), "the Kronecker product")
    ai = F.reshape(input, tuple(v for s in sa for v in (s, 1)))
    bi = F.reshape(other, tuple(v for s in sb for v in (1, s)))
    prod = A.mul_t(ai, bi)
    return A.named(F.reshape(prod, tuple(x * y for x, y in zip(sa, sb))), "UnsafeViewBackward0")


# --- cdist, dist ----------------------------------------------------------------------------------

_CDIST_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


def cdist(x1: Any, x2: Any, p: Any = 2.0, compute_mode: Any = None) -> Tensor:
    x1, x2 = A.tensor_arg(x1, "x1"), A.tensor_arg(x2, "x2")
    for t, name in ((x1, "X1"), (x2, "X2")):
        if t.ndim < 2:
            raise GradcliError(f"cdist only supports at least 2D tensors, {name} got: {t.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise GradcliError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    for t in (x1, x2):
        if t.dtype.kind != "f":
            raise GradcliError(
                f"cdist only supports floating-point dtypes, X{1 if t is x1 else 2} got: "
                f"{scalar_type_name(t.dtype)}"
            )
    _cdist_half(x1, p, compute_mode, x2.shape[-2])
    if x1.dtype != x2.dtype:
        raise GradcliError(
            f"expected scalar type {scalar_type_name(x1.dtype)} but found "
            f"{scalar_type_name(x2.dtype)}",
            hint="convert them to one dtype first: x2.to(x1.dtype)",
        ).mirror("RuntimeError")
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise GradcliError(f"cdist(): argument 'p' must be float, not {typename(p)}").mirror(
            "TypeError"
        )
    p = float(p)
    if p < 0:
        raise GradcliError("cdist only supports non-negative p values")
    mode = _CDIST_MODES[0] if compute_mode is None else compute_mode
    if mode not in _CDIST_MODES:
        raise GradcliError(f"{mode} is not a valid value for compute_mode")
    try:
        lead = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    except ValueError:
        raise GradcliError(
            f"cdist: the batch dimensions {list(x1.shape[:-2])} and {list(x2.shape[:-2])} do "
            "not broadcast"
        ) from None
    r1, r2, d = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    A.size_check(tuple(lead) + (r1, r2), "the result of cdist")
    if p == 2 and (mode == _CDIST_MODES[1] or (mode == _CDIST_MODES[0] and (r1 > 25 or r2 > 25))):
        return _euclidean_mm(x1, x2)
    A.size_check(tuple(lead) + (r1, r2, d), "cdist's differences")
    return apply(M.cdist, x1, x2, p=p)


def _cdist_half(x1: Tensor, p: Any, compute_mode: Any, r2: int) -> None:
    """ATen's cdist kernel has no float16 / bfloat16 variant (dispatched on x1's dtype, before
    x2's is compared): PyTorch's NotImplementedError where a valid call would reach it, i.e.
    not the matrix-product form of p=2 (which computes in half)."""
    if x1.dtype not in (np.float16, BF16):
        return
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
        return  # (the argument's own error comes first)
    mode = _CDIST_MODES[0] if compute_mode is None else compute_mode
    if mode not in _CDIST_MODES:
        return
    r1 = x1.shape[-2]
    if p == 2 and (mode == _CDIST_MODES[1] or (mode == _CDIST_MODES[0] and (r1 > 25 or r2 > 25))):
        return
    raise GradcliError(
        f"\"cdist\" not implemented for '{scalar_type_name(x1.dtype)}'",
        hint="compute it in float32: torch.cdist(x1.float(), x2.float())",
    ).mirror("NotImplementedError")


def _euclidean_mm(x1: Tensor, x2: Tensor) -> Tensor:
    """PyTorch's matrix-product form of Euclidean distances (what it uses past 25 rows):
    [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T, clamped at 0, square root."""
    n1 = F.sum(A.pow(x1, 2), -1, keepdim=True)
    n2 = F.sum(A.pow(x2, 2), -1, keepdim=True)
    a = F.cat([A.mul_t(x1, -2.0), n1, F.expand_as(Tensor(np.ones((), x1.dtype)), n1)], -1)
    b = F.cat([x2, F.expand_as(Tensor(np.ones((), x2.dtype)), n2), n2], -1)
    r = A.matmul(a, F.mT(b))
    return A.named(A.sqrt(F.clamp_min(r, 0.0)), "ViewBackward0")


def dist(input: Any, other: Any, p: Any = 2) -> Tensor:  # noqa: A002
    a = A.tensor_param(input, "dist", "input", 1)
    b = A.tensor_param(other, "dist", "other", 2)
    if (
        a.dtype.kind == b.dtype.kind == "f"
        and isinstance(p, (int, float))
        and not isinstance(p, bool)
    ):
        # one DistBackward0 node pointing at both inputs, as ATen's dist
        shape = A.broadcast_shape(a, b)
        if 0 in shape and (p < 0 or p == math.inf):
            raise GradcliError(  # (ATen's norm of no elements: no identity for max, min, 1/x)
                f"linalg.vector_norm cannot compute the {float(p):g} norm on an empty tensor "
                "because the operation does not have an identity"
            )
        return apply(R.dist, a, b, p=float(p))
    d = A.sub_t(a, b)
    if d.dtype.kind not in "fc":  # (ATen's dist is a norm of the difference: norm's words)
        raise GradcliError(
            "norm(): input dtype should be either floating point or complex. Got "
            f"{scalar_type_name(d.dtype)} instead."
        )
    return A.named(F.norm(F.flatten(d), p), "DistBackward0")


# --- inverse, det, solve --------------------------------------------------------------------------


def inv(input: Any) -> Tensor:  # noqa: N803
    a = _matrices(input, "linalg.inv")
    return apply(M.inv, a, strict=True)


def det(input: Any) -> Tensor:  # noqa: N803
    return apply(M.det, _matrices(input, "linalg.det"))


# torch.linalg's names its matrix A where torch.det / torch.inverse say input
def linalg_det(A: Any) -> Tensor:  # noqa: N803
    return det(A)


def linalg_inv(A: Any) -> Tensor:  # noqa: N803
    return inv(A)


def _slogdet_pair(a: Tensor) -> list[Tensor]:
    if a.dtype.kind == "c":  # (the sign a unit complex number, the log of |det| real)
        return _real_parts(apply(M.slogdet, a), [(), ()], (1,), "LinalgSlogdetBackward0")
    both = apply(M.slogdet, a)
    return _unpacked(both, [(), ()], "LinalgSlogdetBackward0")


def slogdet(A: Any) -> ReturnTuple:  # noqa: N803
    a = _matrices(A, "linalg.slogdet")
    return ReturnTuple("linalg_slogdet", ("sign", "logabsdet"), tuple(_slogdet_pair(a)))


def torch_slogdet(input: Any) -> ReturnTuple:  # noqa: N803
    a = _matrices(input, "linalg.slogdet")
    return ReturnTuple("slogdet", ("sign", "logabsdet"), tuple(_slogdet_pair(a)))


def logdet(input: Any) -> Tensor:  # noqa: N803
    _low_precision(A.tensor_arg(input, "input"), "logdet")
    a = _matrices(input, "linalg.slogdet")
    sign, logabs = _slogdet_pair(a)
    if a.dtype.kind == "c":  # (PyTorch's: log(sign) + log|det|, complex)
        return A.add_t(apply(E.log, sign), logabs)
    nan = Tensor(np.asarray(np.nan, dtype=a.dtype))
    return A.named(F.where(Tensor(sign.data == -1), nan, logabs), "WhereBackward0")


def _is_vector_rhs(a: Tensor, b: Tensor) -> bool:
    return b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])


def solve(A: Any, B: Any, *, left: bool = True, out: Any = None) -> Tensor:  # noqa: N803
    return _solve(A, B, left)


def _solve(A: Any, B: Any, left: bool, strict: bool = True) -> Tensor:  # noqa: N803
    """`strict=False` (solve_ex of a singular A): no error, the record's NaNs. ATen's checks
    in its order: A floating, then A and B of one dtype, then A's shape."""
    from ..ops.arithmetic import tensor_arg  # (the parameter A hides the module)

    a = _float_input(A, "linalg.solve")
    b = tensor_arg(B, "B")
    if a.dtype != b.dtype:
        raise GradcliError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{scalar_type_name(a.dtype)} and B of type {scalar_type_name(b.dtype)} instead"
        )
    a = _matrices(a, "linalg.solve")
    b = _float_input(b, "linalg.solve", "B")
    if left:
        return _solve_left(a, b, strict=strict)
    return _solve_right(a, b, strict=strict)


def _solve_right(a: Tensor, b: Tensor, strict: bool = True) -> Tensor:
    """X A = B: A^T X^T = B^T (ATen solves it with A's own LU, transposed: `adjoint`). (Out
    of `solve`, whose parameter `A` hides the module of that name.) A vector B is a column
    as for left=True, so it fits only a 1 x 1 A, and even then ATen refuses it."""
    n = a.shape[-1]
    vector = _is_vector_rhs(a, b)
    rows = b.shape[-1] if vector else (b.shape[-2] if b.ndim >= 2 else 1)
    cols = 1 if vector else (b.shape[-1] if b.ndim >= 1 else 1)
    if cols != n:
        raise GradcliError(
            f"linalg.solve: Incompatible shapes of A and B for the equation XA = B ({n}x{n} "
            f"and {rows}x{cols})"
        )
    if vector:
        raise GradcliError(
            "linalg.solve: Vector broadcasting of the left hand side is not supported for "
            "left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)"
        ).pytorch()
    x = _solve_left(F.mT(a), F.mT(b), adjoint=True, strict=strict)
    return A.named(F.mT(x), "LinalgSolveExBackward0")


def _solve_left(a: Tensor, b: Tensor, adjoint: bool = False, strict: bool = True) -> Tensor:
    vector = _is_vector_rhs(a, b)
    bm = F.unsqueeze(b, -1) if vector else b
    n = a.shape[-1]
    if bm.ndim < 1 or bm.shape[-2] != n:
        rows = bm.shape[-2] if bm.ndim >= 2 else 1
        raise GradcliError(
            f"linalg.solve: Incompatible shapes of A and B for the equation AX = B ({n}x{n} "
            f"and {rows}x{bm.shape[-1]})"
        )
    try:
        np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    except ValueError:
        raise GradcliError(
            f"linalg.solve: the batch dimensions of A {list(a.shape[:-2])} and B "
            f"{list(bm.shape[:-2])} do not broadcast"
        ) from None
    kw = {"adjoint": True} if adjoint else {}
    if vector and max(a.ndim, bm.ndim) > 2:
        kw["vector"] = True  # (a batch of vectors: ATen's layout of the result, `M.solve`)
    x = apply(M.solve, a, bm, strict=strict, **kw)
    if vector:
        x = F.squeeze(x, -1)
    return A.named(x, "LinalgSolveExBackward0")


def solve_triangular(
    input: Any,  # noqa: N803
    B: Any = None,  # noqa: N803
    upper: Any = None,
    *,
    left: Any = True,
    unitriangular: Any = False,
    out: Any = None,
) -> Tensor:
    """torch.linalg.solve_triangular(A, B, *, upper, left=True, unitriangular=False): X with
    A X = B (X A = B with left=False), reading only A's upper or lower triangle."""
    fn = "linalg.solve_triangular"
    if B is None or upper is None:
        missing = '"upper"' if B is not None else '"B", "upper"'
        n = 1 if B is not None else 2
        raise GradcliError(
            f"linalg_solve_triangular() missing {n} required positional arguments: {missing}"
        ).mirror("TypeError")
    upper = _bool(upper, "upper")
    left = _bool(left, "left")
    unit = _bool(unitriangular, "unitriangular")
    a = _matrices(input, fn)
    b = _matrices(B, fn, square=False, name="B")
    n = a.shape[-1]
    rows, cols = (b.shape[-2], b.shape[-1]) if left else (b.shape[-1], b.shape[-2])
    if rows != n:
        eq = "AX = B" if left else "XA = B"
        raise GradcliError(
            f"{fn}: Incompatible shapes of A and B for the equation {eq} "
            f"({n}x{n} and {b.shape[-2]}x{b.shape[-1]})"
        )
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise GradcliError(
            f"{fn}: the batch dimensions of A {list(a.shape[:-2])} and B "
            f"{list(b.shape[:-2])} do not broadcast"
        ) from None
    limits.LINALG_WORK.check(
        math.prod(batch) * n * n * cols, f"the work of {fn} on {list(b.shape)}"
    )
    if left:
        return apply(M.solve_triangular, a, b, upper=upper, unitriangular=unit)
    # X A = B is A^T X^T = B^T: the transposed triangle, the other way up
    x = apply(
        M.solve_triangular,
        F.mT(a),
        F.mT(b),
        upper=not upper,
        unitriangular=unit,
        lapack_layout=False,  # (X^T row-major: X column-major, as ATen returns it)
    )
    return A.named(F.mT(x), "LinalgSolveTriangularBackward0")


# --- decompositions -------------------------------------------------------------------------------


def _complex_values(a: Tensor, what: str, f: Callable[[np.ndarray], np.ndarray]) -> Tensor:
    """`f` of a complex matrix's values, where gradcli has the values but no gradient rule:
    a matrix that requires grad (in grad mode) is refused in plain words, never given a
    result without PyTorch's gradient."""
    from ..core.op import complex_refusal
    from ..core.tensor import grad_enabled

    if a.requires_grad and grad_enabled():
        raise complex_refusal(f"the gradient of {what}")
    return Tensor(column_major(np.asarray(f(np.asarray(a.data)))))


def _complex_finite(a: Tensor, fn: str) -> np.ndarray:
    """The values of a complex matrix for an SVD-based function: LAPACK's failure on a
    non-finite one in PyTorch's words."""
    d = np.asarray(a.data)
    if not np.isfinite(d).all():
        raise GradcliError(
            "linalg.svd: The algorithm failed to converge because the input matrix contained "
            "non-finite values."
        ).mirror(M.LINALG_ERROR)
    return d


def cholesky(input: Any, *, upper: bool = False, out: Any = None) -> Tensor:  # noqa: N803
    a = _matrices(input, "linalg.cholesky")
    if upper:
        # one node, with the tangent as given (PyTorch's forward rule reads dA, not dA^T)
        return apply(M.cholesky, a, upper=True)
    return apply(M.cholesky, a)


def torch_cholesky(input: Any, upper: bool = False, *, out: Any = None) -> Tensor:  # noqa: N803
    hooks.warn(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
        "future PyTorch release."
    )
    return A.named(cholesky(input, upper=upper), "CholeskyBackward0")


def cholesky_inverse(input: Any, upper: bool = False, *, out: Any = None) -> Tensor:  # noqa: A002
    """`torch.cholesky_inverse(L, upper=False)`: (L L^H)^-1 from a Cholesky factor (its
    triangle only), with PyTorch's backward and forward-mode rules."""
    a = _matrices(input, "cholesky_inverse")
    return apply(M.cholesky_inverse, a, upper=bool(upper))


_QR_MODES = ("reduced", "complete", "r")


def qr(A: Any, mode: str = "reduced", *, out: Any = None) -> ReturnTuple:  # noqa: N803
    a = _matrices(A, "linalg.qr", square=False)
    if mode not in _QR_MODES:
        raise GradcliError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    both = apply(M.qr, a, mode=mode)
    q, r = _unpacked(both, M._qr_shapes(a.shape, mode), "LinalgQrBackward0")
    lapack_owned(q, r)  # (as LAPACK writes them through ATen)
    if mode == "r":
        q = Tensor(np.zeros((0,), dtype=a.dtype))
    return ReturnTuple("linalg_qr", ("Q", "R"), (q, r))


_QR_DEPRECATED = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
    "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
    "'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
    "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')"
)


def torch_qr(input: Any, some: bool = True, *, out: Any = None) -> ReturnTuple:  # noqa: N803
    """`torch.qr(A, some=True)` and `A.qr()` (deprecated): after PyTorch's warning (once a
    run, as ATen's TORCH_WARN_ONCE), linalg.qr in 'reduced' or 'complete' mode."""
    hooks.warn(_QR_DEPRECATED, hint="torch.linalg.qr(A)", once="torch.qr")
    q, r = qr(input, "reduced" if some else "complete")
    return ReturnTuple("qr", ("Q", "R"), (q, r))


def geqrf(input: Any, *, out: Any = None) -> ReturnTuple:  # noqa: A002
    """`torch.geqrf(A)`: LAPACK's QR in its own form, (a, tau) (`ops.matrices.geqrf`)."""
    a = _matrices(input, "geqrf", square=False)
    both = apply(M.geqrf, a)
    r, tau = _unpacked(both, M.geqrf_shapes(a.shape), "GeqrfBackward0")
    lapack_owned(r, vectors=(tau,))
    return ReturnTuple("geqrf", ("a", "tau"), (r, tau))


def _uplo(v: Any) -> str:
    if v not in ("L", "U", "l", "u"):
        raise GradcliError(f"Expected UPLO argument to be 'L' or 'U', but got {v}")
    return str(v).upper()


def eigh(input: Any, UPLO: str = "L", *, out: Any = None) -> ReturnTuple:  # noqa: N803
    a = _matrices(input, "linalg.eigh")
    n = a.shape[-1]
    if a.dtype.kind == "c":
        return _complex_eigh(a, _uplo(UPLO))
    both = apply(M.eigh, a, uplo=_uplo(UPLO))
    w, v = _unpacked(both, [(n,), (n, n)], "LinalgEighBackward0")
    lapack_owned(v, vectors=(w,))
    return ReturnTuple("linalg_eigh", ("eigenvalues", "eigenvectors"), (w, v))


def _real_parts(packed: Tensor, shapes: list, real: tuple, label: str) -> list[Tensor]:
    """`_unpacked` of a complex record's packed results, the parts at `real` (eigenvalues,
    log|det|: real numbers packed as complex ones) as their real parts."""
    from ..ops import complexnum

    parts = M.unpack(packed, shapes)
    outs = [
        A.named(apply(complexnum.real, p) if i in real else p, label) for i, p in enumerate(parts)
    ]
    link_siblings(outs)
    record = packed.node
    if record is not None:  # (PyTorch's one node's edges: the decomposition's inputs)
        for p in outs:
            A.shown_over(p, *record.inputs)
    for p in outs:
        p.data = np.array(p.data)  # (own storage, as ATen's results)
        p._vc = p._base = None
    return outs


def _complex_eigh(a: Tensor, uplo: str) -> ReturnTuple:
    """eigh of a complex Hermitian matrix: one record (`ops.matrices.eigh`) of the eigenvalues
    (real parts of its packed complex numbers) and the eigenvectors with MKL's phases."""
    n = a.shape[-1]
    w, v = _real_parts(apply(M.eigh, a, uplo=uplo), [(n,), (n, n)], (0,), "LinalgEighBackward0")
    lapack_owned(v, vectors=(w,))
    return ReturnTuple("linalg_eigh", ("eigenvalues", "eigenvectors"), (w, v))


def _dual(t: Tensor) -> bool:
    """Whether `t` carries a forward-mode tangent (a dual level is active)."""
    if not _GradMode.dual:
        return False
    from ..core import dual

    return dual.tangent(t) is not None


def eigvalsh(input: Any, UPLO: str = "L", *, out: Any = None) -> Tensor:  # noqa: N803
    a = _matrices(input, "linalg.eigh")  # (ATen checks it as eigh, in eigh's words)
    if a.dtype.kind == "c":  # (real eigenvalues, ascending, of the Hermitian matrix)
        uplo = _uplo(UPLO)
        if a.requires_grad and _GradMode.enabled:  # (PyTorch computes the vectors then)
            return _complex_eigh(a, uplo)[0]
        return _complex_values(
            a, "torch.linalg.eigvalsh", lambda d: np.linalg.eigvalsh(d, UPLO=uplo)
        )
    vals = np.asarray(a.data)
    if (a.requires_grad and _GradMode.enabled) or _dual(a) or not np.isfinite(vals).all():
        # (PyTorch computes the eigenvectors for a gradient or a tangent: ?steqr's values)
        return eigh(input, UPLO)[0]
    # without a gradient ?syevd computes no eigenvectors: its eigenvalues are ?sterf's
    from ..core import symeig

    uplo = _uplo(UPLO)
    w = np.linalg.eigvalsh(vals, UPLO=uplo)
    return Tensor(np.ascontiguousarray(symeig.mkl_eigvalsh(w, vals, uplo).astype(vals.dtype)))


def svd(
    A: Any,  # noqa: N803
    full_matrices: bool = True,
    *,
    driver: Any = None,
    out: Any = None,
) -> ReturnTuple:
    a = _matrices(A, "linalg.svd", square=False)
    if driver is not None:
        raise GradcliError(
            "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
            "cuSOLVER backend."
        )
    fm = _bool(full_matrices, "full_matrices")
    if a.dtype.kind == "c":  # (LAPACK's zgesdd: NumPy's vectors are MKL's, phases too)
        _complex_finite(a, "linalg.svd")
        packed = apply(M.svd, a, full_matrices=fm)
        shapes = M._svd_shapes(a.shape, fm)
        u, sv, vh = _real_parts(packed, shapes, (1,), "LinalgSvdBackward0")
        lapack_owned(u, vh, vectors=(sv,))
        return ReturnTuple("linalg_svd", ("U", "S", "Vh"), (u, sv, vh))
    packed = apply(M.svd, a, full_matrices=fm)
    u, s, vh = _unpacked(packed, M._svd_shapes(a.shape, fm), "LinalgSvdBackward0")
    lapack_owned(u, vh, vectors=(s,))
    return ReturnTuple("linalg_svd", ("U", "S", "Vh"), (u, s, vh))


def torch_svd(input: Any, some: bool = True, compute_uv: bool = True, *, out: Any = None):  # noqa: A002
    u, s, vh = svd(input, full_matrices=not some)
    v = F.mT(vh)
    if not compute_uv:
        a = A.tensor_arg(input)
        m, n = a.shape[-2:]
        u = Tensor(np.zeros(a.shape[:-2] + (m, m if not some else min(m, n)), a.dtype))
        v = Tensor(np.zeros(a.shape[:-2] + (n, n if not some else min(m, n)), a.dtype))
    return ReturnTuple("svd", ("U", "S", "V"), (u, s, v))


def svdvals(A: Any, *, driver: Any = None, out: Any = None) -> Tensor:  # noqa: N803
    a = _matrices(A, "linalg.svd", square=False)
    return apply(M.svdvals, a)


def _tolerances(a: Tensor, atol: Any, rtol: Any, fn: str) -> tuple[Any, Any]:
    """ATen's get_atol_rtol for pinv and matrix_rank: atol 0 when not given; rtol, when not
    given, 0 where atol > 0 and eps * max(m, n) elsewhere. Numbers and 0-dim tensors give
    floats; a tensor of tolerances per matrix gives an array of its dtype shaped for the
    singular values (batch + (1,)), compared as ATen's broadcast does."""

    def value(t: Any, name: str) -> Any:
        if not isinstance(t, Tensor):
            return None if t is None else float(t)
        if t.dtype.kind == "c":
            raise (
                GradcliError(
                    f"{fn}: {name} tensor of complex type is not supported. Got "
                    f"{scalar_type_name(t.dtype)}"
                )
                .pytorch()
                .mirror("RuntimeError")
            )
        v = np.asarray(t.data)
        return float(v) if v.ndim == 0 else v

    at, rt = value(atol, "atol"), value(rtol, "rtol")
    default = float(np.finfo(a.dtype).eps) * max(a.shape[-2:], default=1)
    if rt is None:
        if isinstance(at, np.ndarray):
            rt = np.where(at > 0, 0.0, default)
        else:
            rt = 0.0 if at is not None and at > 0 else default
    if at is None:
        at = 0.0
    return [x[..., None] if isinstance(x, np.ndarray) else x for x in (at, rt)]


def _tolerance_batch(a: Tensor, tols: Any, fn: str) -> tuple[int, ...]:
    """The batch shape the tolerance arrays broadcast `a`'s to (ATen's result takes it: a
    (1,) atol gives a 2-D matrix's pseudo-inverse a leading 1); shapes that do not broadcast
    fail in ATen's order (rtol times the largest singular value, then the maximum with atol)
    and words."""
    from types import SimpleNamespace

    if not any(isinstance(x, np.ndarray) for x in tols):
        return tuple(a.shape[:-2])

    def ns(shape: tuple) -> Any:
        return SimpleNamespace(shape=tuple(shape), ndim=len(shape))

    at, rt = (x.shape if isinstance(x, np.ndarray) else (1,) for x in tols)
    batch = tuple(a.shape[:-2])
    scaled = A.broadcast_shape(ns(rt), ns(batch + (1,)))
    tol = A.broadcast_shape(ns(at), ns(scaled))
    return tuple(np.broadcast_shapes(tuple(tol), batch + (1,)))[:-1]


def pinv(
    input: Any,  # noqa: N803
    rcond: Any = None,
    hermitian: bool = False,
    *,
    atol: Any = None,
    rtol: Any = None,
    out: Any = None,
) -> Tensor:
    a = _matrices(input, "linalg.pinv", square=False)
    if rcond is not None:
        rtol = rcond
    at, rt = _tolerances(a, atol, rtol, "torch.linalg.pinv")
    grown = _tolerance_batch(a, (at, rt), "torch.linalg.pinv")
    if grown != tuple(a.shape[:-2]):
        a = F.expand(a, *(grown + tuple(a.shape[-2:])))
    if hermitian and a.shape[-1] != a.shape[-2]:
        raise GradcliError(
            f"linalg.pinv(hermitian=True): A must be batches of square matrices, but they are "
            f"{a.shape[-2]} by {a.shape[-1]} matrices"
        )
    if a.dtype.kind == "c":
        _complex_finite(a, "linalg.pinv")
    return apply(M.pinv, a, atol=at, rtol=rt, hermitian=bool(hermitian))


def pinverse(input: Any, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    return pinv(input, rtol=rcond)


def _cholesky_partial(a: np.ndarray, upper: bool) -> tuple[np.ndarray, np.ndarray]:
    """potrf of each matrix, stopping as LAPACK's does at the first column whose diagonal
    entry is not positive (that entry left holding it, the columns after it A's own lower
    triangle): (the factors, info). The matrices it factors are the plain forward's."""
    src = np.swapaxes(a, -1, -2) if upper else a
    flat = np.ascontiguousarray(src).reshape((-1,) + src.shape[-2:])
    n = a.shape[-1]
    low = np.tril(flat).astype(a.dtype)
    info = np.zeros(len(flat), dtype=np.int32)
    with np.errstate(all="ignore"):
        for j in range(n):
            live = info == 0
            d = flat[:, j, j] - np.einsum("bk,bk->b", low[:, j, :j], low[:, j, :j])
            bad = live & ~(d > 0)
            low[bad, j, j] = d[bad]
            info[bad] = j + 1
            go = live & ~bad
            root = np.sqrt(np.where(go, d, 1))
            low[go, j, j] = root[go]
            col = flat[:, j + 1 :, j] - np.einsum("bik,bk->bi", low[:, j + 1 :, :j], low[:, j, :j])
            low[go, j + 1 :, j] = (col / root[:, None])[go]
    good = info == 0
    if good.any():
        low[good] = M._cholesky_lower(flat[good])
    out = low.reshape(src.shape)
    return (np.swapaxes(out, -1, -2) if upper else out), info.reshape(a.shape[:-2])


# --- LU -------------------------------------------------------------------------------------------


def _lu_input(x: Any, fn: str) -> Tensor:
    """A matrix (batch) to factor: ATen's checks in its words (`fn` as it names itself)."""
    x = A.tensor_arg(x, "A")
    if x.dtype.kind not in "fc" or x.dtype.itemsize < 4:
        raise GradcliError(
            f"\"lu_cpu\" not implemented for '{scalar_type_name(x.dtype)}'",
            hint="convert first: A.float()",
        ).mirror("NotImplementedError")
    if x.ndim < 2:
        raise GradcliError(
            f"{fn}: Expected tensor with 2 or more dimensions. Got size: {list(x.shape)} instead"
        )
    m, n = x.shape[-2:]
    limits.LINALG_WORK.check(
        math.prod(x.shape[:-2]) * m * n * max(min(m, n), 1), f"the work of {fn} on {list(x.shape)}"
    )
    return x


# complex64 LU measured against torch 2.13 (module note of ops.lu): cgetrf's bits up to 16 x 16
# (MKL works in panels from 17 on: last printed digits apart in every 20 x 20 tried); cgetrs
# within a printed digit up to 8 x 8 (12 x 12: 4 of 5 systems a last digit apart); the
# gradients' complex64 products and triangular solves a last digit apart in 3 of 20.
LU_COMPLEX64_MAX = 16
LU_SOLVE_COMPLEX64_MAX = 8


def _complex64_refused(t: Tensor, fn: str, limit: int, grad: bool = True) -> None:
    """A complex64 matrix past the sizes whose single-precision digits gradcli reproduces, or
    one that requires grad, refused in plain words (the last printed digits would differ)."""
    if t.dtype != np.complex64:
        return
    hint = f"compute in double precision: {fn}(A.to(torch.complex128))"
    if max(t.shape[-2:], default=0) > limit:
        raise NotSupported(
            f"{fn} of a complex64 matrix larger than {limit} x {limit} is not supported by "
            "gradcli: MKL's single-precision order there is not reproduced (its last digits "
            "would differ)",
            hint=hint,
        )
    if grad and t.requires_grad and _GradMode.enabled:
        _complex64_grad_refused(fn)


def _complex64_grad_refused(fn: str) -> None:
    raise NotSupported(
        f"the gradient of {fn} of a complex64 matrix is not supported by gradcli: its "
        "single-precision digits are not PyTorch's (those of complex128 are)",
        hint=f"compute in double precision: {fn}(A.to(torch.complex128))",
    )


def _no_pivoting(pivot: Any, fn: str) -> None:
    if not _bool(pivot, "pivot"):
        raise GradcliError(f"{fn}: LU without pivoting is not implemented on the CPU")


def _factored(a: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """(LU, 1-based int32 pivots, info) of `a`, the LU one recorded node."""
    _, piv, info = LUOPS.factor(np.asarray(a.data))
    lu = apply(LUOPS.lu_factor, a)
    return lu, Tensor((piv + 1).astype(np.int32)), Tensor(info)


def _lu_errors(info: np.ndarray, fn: str) -> None:
    flat = info.reshape(-1)
    for i, k in enumerate(flat):
        if k:
            pre = f"(Batch element {i}): " if info.ndim else ""
            raise GradcliError(
                f"{fn}: {pre}U[{k},{k}] is zero and using it on lu_solve would result in a "
                "division by zero. If you still want to perform the factorization, consider "
                "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
                hint="torch.linalg.lu_factor_ex(A) returns the factors with info instead",
            ).mirror("RuntimeError")


def lu_factor(A: Any, *, pivot: Any = True, out: Any = None) -> ReturnTuple:  # noqa: N803
    """`torch.linalg.lu_factor(A)`: LAPACK's packed LU and its 1-based int32 pivots; a zero
    pivot is PyTorch's error."""
    a = _lu_input(A, "torch.lu_factor")
    _no_pivoting(pivot, "linalg.lu_factor")
    _complex64_refused(a, "torch.linalg.lu_factor", LU_COMPLEX64_MAX)
    lu, piv, info = _factored(a)
    _lu_errors(info.data, "torch.linalg.lu_factor")
    return ReturnTuple("linalg_lu_factor", ("LU", "pivots"), (lu, piv))


def lu_factor_ex(
    A: Any,  # noqa: N803
    *,
    pivot: Any = True,
    check_errors: Any = False,
    out: Any = None,
) -> ReturnTuple:
    """`torch.linalg.lu_factor_ex(A)`: (LU, pivots, info), info the first zero pivot."""
    a = _lu_input(A, "torch.lu_factor")
    _no_pivoting(pivot, "linalg.lu_factor")
    _complex64_refused(a, "torch.linalg.lu_factor_ex", LU_COMPLEX64_MAX)
    lu, piv, info = _factored(a)
    if _bool(check_errors, "check_errors"):
        _lu_errors(info.data, "torch.linalg.lu_factor_ex")
    return ReturnTuple("linalg_lu_factor_ex", ("LU", "pivots", "info"), (lu, piv, info))


def _not_differentiable(out: Tensor, inputs: list, op: str) -> Tensor:
    """`out` of inputs that require grad: hanging from PyTorch's NotImplemented node, whose
    backward is its error."""
    from ..core.tensor import grad_enabled
    from ..ops.custom import custom_apply

    ins = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    if not ins or not grad_enabled():
        return out

    def vjp(*grads: Any) -> Any:
        raise GradcliError(f"derivative for aten::{op} is not implemented").mirror("RuntimeError")

    return custom_apply(
        "NotImplemented",
        ins,
        lambda: out,
        vjp,
        label="torch::autograd::NotImplemented",
        program=False,
    )


def _ldl_input(matrix: Any, fn: str) -> Tensor:
    from ..ops import ldl

    x = A.tensor_arg(matrix, "A")
    if x.ndim < 2:
        raise GradcliError(f"{fn}: The input tensor A must have at least 2 dimensions.")
    if x.shape[-1] != x.shape[-2]:
        raise GradcliError(
            f"{fn}: A must be batches of square matrices, but they are {x.shape[-2]} by "
            f"{x.shape[-1]} matrices"
        )
    if x.dtype.kind == "c":
        raise NotSupported(
            f"{fn} of a complex matrix is not supported by gradcli",
            hint="factor a real symmetric matrix",
        )
    if x.dtype.kind != "f" or x.dtype not in (np.float32, np.float64):
        raise GradcliError(
            f"{fn}: Expected a floating point or complex tensor as input. Got "
            f"{scalar_type_name(x.dtype)}"
        )
    if x.shape[-1] > ldl.FACTOR_EXACT:
        raise NotSupported(
            f"{fn} of matrices of more than {ldl.FACTOR_EXACT} rows is not supported by gradcli "
            "(MKL factors those in blocks, in an order gradcli does not follow)",
            hint="torch.linalg.solve(A, B) solves a system without the factors",
        )
    return x


# Column steps of the LDL factorizations and solves one call may take (`ops.ldl` runs them
# one matrix, one column at a time).
_LDL_STEPS = 1_000_000


def _ldl_steps(count: int, n: int, fn: str) -> None:
    if count * n * n > _LDL_STEPS:
        raise GradcliError(
            f"{fn}: gradcli factors or solves at most {_LDL_STEPS:,} (matrices x rows x rows) "
            f"in one call, got {count:,} matrices of {n} rows",
            hint="factor fewer matrices at a time",
        )


def _ldl(matrix: Any, hermitian: Any, fn: str) -> tuple[Tensor, Tensor, Tensor]:
    from ..ops import ldl

    _bool(hermitian, "hermitian")
    x = _ldl_input(matrix, fn)
    n = x.shape[-1]
    lead = x.shape[:-2]
    count = math.prod(lead)
    _ldl_steps(count, n, fn)
    data = np.asarray(x.data).reshape((count, n, n))
    ld = np.zeros((count, n, n), x.dtype)
    piv = np.zeros((count, n), np.int32)
    info = np.zeros(count, np.int32)
    for i, m in enumerate(data):
        ld[i], piv[i], info[i] = ldl.factor(m)
    ld, piv, info = ld.reshape(x.shape), piv.reshape(lead + (n,)), info.reshape(lead)
    out = _not_differentiable(Tensor(ld), [x], "linalg_ldl_factor_ex")
    return out, Tensor(piv), Tensor(info)


def ldl_factor(input: Any, *, hermitian: Any = False, out: Any = None) -> ReturnTuple:  # noqa: A002
    """`torch.linalg.ldl_factor(A)`: LAPACK's Bunch-Kaufman LD (lower) and pivots (`ops.ldl`);
    a zero pivot is PyTorch's (internal) error."""
    ld, piv, info = _ldl(input, hermitian, "torch.linalg.ldl_factor_ex")
    first = next((int(k) for k in info.data.reshape(-1) if k), 0)
    if first:
        raise GradcliError(
            'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
            'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
            f"torch.linalg.ldl_factor: Unknown error code: {first}.",
            hint="the matrix has a zero pivot: torch.linalg.ldl_factor_ex(A) returns it in info",
        ).mirror("RuntimeError")
    return ReturnTuple("linalg_ldl_factor", ("LD", "pivots"), (ld, piv))


def ldl_factor_ex(
    input: Any,  # noqa: A002
    *,
    hermitian: Any = False,
    check_errors: Any = False,
    out: Any = None,
) -> ReturnTuple:
    """`torch.linalg.ldl_factor_ex(A)`: (LD, pivots, info), info the first zero pivot."""
    ld, piv, info = _ldl(input, hermitian, "torch.linalg.ldl_factor_ex")
    _bool(check_errors, "check_errors")
    return ReturnTuple("linalg_ldl_factor_ex", ("LD", "pivots", "info"), (ld, piv, info))


def ldl_solve(
    LD: Any,  # noqa: N803
    pivots: Any,
    B: Any,  # noqa: N803
    *,
    hermitian: Any = False,
    out: Any = None,
) -> Tensor:
    """`torch.linalg.ldl_solve(LD, pivots, B)`: LAPACK's sytrs from ldl_factor's LD and
    pivots (`ops.ldl`)."""
    from ..ops import ldl

    _bool(hermitian, "hermitian")
    ld = A.tensor_arg(LD, "LD")
    piv = A.tensor_arg(pivots, "pivots")
    b = A.tensor_arg(B, "B")
    fn = "torch.linalg.ldl_solve"
    if ld.ndim < 2:
        raise GradcliError(f"{fn}: LD must have at least 2 dimensions, but it has {ld.ndim}")
    if b.ndim < 2:
        raise GradcliError(
            f"Dimension out of range (expected to be in range of [{-max(b.ndim, 1)}, "
            f"{max(b.ndim, 1) - 1}], but got -2)"
        ).mirror("IndexError")
    n = ld.shape[-1]
    if ld.shape[-2] != n:
        raise GradcliError(
            f"{fn}: A must be batches of square matrices, but they are {ld.shape[-2]} by "
            f"{n} matrices"
        )
    if b.shape[-2] != n:
        raise GradcliError(
            f"Incompatible matrix sizes for {fn}: each A matrix is {n} by {n} but each b "
            f"matrix is {b.shape[-2]} by {b.shape[-1]}"
        )
    if b.dtype != ld.dtype:
        raise GradcliError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{scalar_type_name(b.dtype)} and A of type {scalar_type_name(ld.dtype)} instead."
        )
    if piv.dtype.kind not in "iu" or piv.shape != ld.shape[:-1]:
        raise GradcliError(
            f"{fn}: expected pivots to be an integer tensor of shape {list(ld.shape[:-1])}, "
            f"got {scalar_type_name(piv.dtype)} of shape {list(piv.shape)}"
        )
    if ld.dtype not in (np.float32, np.float64):
        raise NotSupported(
            f"{fn} of {scalar_type_name(ld.dtype)} matrices is not supported by gradcli",
            hint="use float32 or float64",
        )
    exact = ldl.SOLVE_EXACT[np.dtype(ld.dtype)]
    if n > exact:
        raise NotSupported(
            f"{fn} of matrices of more than {exact} rows in {scalar_type_name(ld.dtype)} is "
            "not supported by gradcli (MKL's vector kernels sum those in an order gradcli does "
            "not follow)",
            hint="torch.linalg.solve(A, B) solves the system from A itself",
        )
    lead = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    count = math.prod(lead)
    _ldl_steps(count, n, fn)
    lds = np.broadcast_to(np.asarray(ld.data), lead + (n, n)).reshape(count, n, n)
    pvs = np.broadcast_to(np.asarray(piv.data), lead + (n,)).reshape(count, n)
    bs = np.broadcast_to(np.asarray(b.data), lead + b.shape[-2:]).reshape((count,) + b.shape[-2:])
    for p in pvs.reshape(-1):
        if not 0 < abs(int(p)) <= n:
            raise GradcliError(f"{fn}: pivots must be between 1 and {n} (or their negatives)")
    x = np.zeros((count,) + b.shape[-2:], ld.dtype)
    for i in range(count):
        x[i] = ldl.solve(lds[i], pvs[i], bs[i])
    out = Tensor(x.reshape(lead + b.shape[-2:]))
    return _not_differentiable(out, [ld, b], "linalg_ldl_solve")


_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)"
)


def torch_lu(A: Any, pivot: Any = True, get_infos: Any = False, out: Any = None) -> Any:  # noqa: N803
    """`torch.lu(A, pivot=True, get_infos=False)` (deprecated): (LU, pivots), with info when
    asked; never an error for a zero pivot."""
    hooks.warn(_LU_DEPRECATED, hint="torch.linalg.lu_factor(A)", once="torch.lu")
    a = _lu_input(A, "torch.lu_factor")
    _no_pivoting(pivot, "linalg.lu_factor")
    _complex64_refused(a, "torch.lu", LU_COMPLEX64_MAX)
    lu, piv, info = _factored(a)
    if _bool(get_infos, "get_infos"):
        return ReturnTuple("_lu_with_info", ("LU", "pivots", "info"), (lu, piv, info))
    return (lu, piv)


def linalg_lu(A: Any, *, pivot: Any = True, out: Any = None) -> ReturnTuple:  # noqa: N803
    """`torch.linalg.lu(A)`: P, L (unit lower) and U with A = P L U, for any m x n A."""
    a = _lu_input(A, "torch.lu_factor")
    _no_pivoting(pivot, "linalg.lu")
    _complex64_refused(a, "torch.linalg.lu", LU_COMPLEX64_MAX)
    m = a.shape[-2]
    _, piv, _ = LUOPS.factor(np.asarray(a.data))
    both = apply(LUOPS.lu, a)
    low, up = _unpacked(both, LUOPS.lu_shapes(a.shape), "LinalgLuBackward0")
    for t in (low, up):  # their own row-major storage, as ATen's
        t.data = np.ascontiguousarray(t.data)
        t._vc = t._base = None
    p = Tensor(LUOPS.permutation(piv, m, a.dtype))
    return ReturnTuple("linalg_lu", ("P", "L", "U"), (p, low, up))


def _pivots_arg(pivots: Any, lu: Tensor, fn: str, what: str) -> np.ndarray:
    """The 1-based int32 pivots, checked (a pivot out of range would read outside LU): 0-based."""
    piv = A.tensor_arg(pivots, what)
    if piv.dtype != np.int32:
        if fn == "torch.lu_unpack":
            raise GradcliError(
                "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
                "dtype.\nNote: this function is intended to be used with the output produced by "
                "torch.linalg.lu_factor",
                hint="pass the pivots lu_factor returned",
            )
        raise GradcliError(
            f"{fn}: pivots should be a Tensor of scalar type torch.int32",
            hint="pass the pivots lu_factor returned (int32)",
        )
    k = min(lu.shape[-2:]) if lu.ndim >= 2 else 0
    if piv.ndim < 1 or piv.shape[-1] != k or piv.shape[:-1] != lu.shape[:-2]:
        raise GradcliError(
            f"{fn}: Number of pivots per batch should be same as the dimension of the matrix",
            hint="pass the pivots lu_factor returned with this LU",
        )
    p = np.asarray(piv.data, dtype=np.int64) - 1
    if p.size and (p.min() < 0 or p.max() >= lu.shape[-2]):
        raise GradcliError(
            "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you "
            "properly pass the result of lu_factor?",
            hint="pass the pivots lu_factor returned with this LU",
        )
    return p


def linalg_lu_solve(
    LU: Any,  # noqa: N803
    pivots: Any,
    B: Any,  # noqa: N803
    *,
    left: Any = True,
    adjoint: Any = False,
    out: Any = None,
) -> Tensor:
    """`torch.linalg.lu_solve(LU, pivots, B, left=True, adjoint=False)`: X with A X = B (X A
    = B: left=False; A^H for adjoint), A = P L U given by its packed factors."""
    fn = "linalg.lu_solve"
    lu = A.tensor_arg(LU, "LU")
    b = A.tensor_arg(B, "B")
    left, adjoint = _bool(left, "left"), _bool(adjoint, "adjoint")
    for t, name in ((lu, "LU"), (b, "B")):
        if t.ndim < 2:
            raise GradcliError(f"{fn}: The input tensor {name} must have at least 2 dimensions.")
    if lu.shape[-1] != lu.shape[-2]:
        raise GradcliError(
            f"torch.{fn}: A must be batches of square matrices, but they are {lu.shape[-2]} by "
            f"{lu.shape[-1]} matrices"
        )
    piv = _pivots_arg(pivots, lu, fn, "pivots")
    n = lu.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise GradcliError(
            f"{fn}: Incompatible shapes of A and B for the equation {eq} ({n}x{n} and "
            f"{b.shape[-2]}x{b.shape[-1]})"
        )
    if lu.dtype != b.dtype:
        raise GradcliError(
            f"{fn}: Expected LU and B to have the same dtype, but found LU of type "
            f"{scalar_type_name(lu.dtype)} and B of type {scalar_type_name(b.dtype)} instead"
        )
    _float_input(lu, fn, "LU")
    _complex64_refused(lu, "torch.linalg.lu_solve", LU_SOLVE_COMPLEX64_MAX, grad=False)
    if lu.dtype == np.complex64 and (lu.requires_grad or b.requires_grad) and _GradMode.enabled:
        _complex64_grad_refused("torch.linalg.lu_solve")
    try:
        batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    except ValueError:
        raise GradcliError(
            f"{fn}: the batch dimensions of LU {list(lu.shape[:-2])} and B "
            f"{list(b.shape[:-2])} do not broadcast"
        ) from None
    limits.LINALG_WORK.check(
        math.prod(batch) * n * n * max(b.shape[-1], b.shape[-2]), f"the work of {fn}"
    )
    return apply(LUOPS.lu_solve, lu, b, pivots=piv, left=left, adjoint=adjoint)


_LU_SOLVE_DEPRECATED = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
    "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, "
    "pivots, B)"
)


def torch_lu_solve(input: Any, LU_data: Any, LU_pivots: Any, *, out: Any = None) -> Tensor:  # noqa: A002, N803
    hooks.warn(
        _LU_SOLVE_DEPRECATED, hint="torch.linalg.lu_solve(LU, pivots, B)", once="torch.lu_solve"
    )
    return linalg_lu_solve(LU_data, LU_pivots, input)


def lu_unpack(
    LU_data: Any,  # noqa: N803
    LU_pivots: Any,  # noqa: N803
    unpack_data: Any = True,
    unpack_pivots: Any = True,
    *,
    out: Any = None,
) -> ReturnTuple:
    """`torch.lu_unpack(LU, pivots)`: P, L and U from the packed factors (L and U differentiable
    with respect to LU: its strict lower part and its upper part)."""
    lu = A.tensor_arg(LU_data, "LU_data")
    if lu.ndim < 2:
        raise GradcliError(
            f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
            f"{list(lu.shape)} instead"
        )
    piv = _pivots_arg(LU_pivots, lu, "torch.lu_unpack", "LU_pivots")
    m, n = lu.shape[-2:]
    empty = Tensor(np.zeros((0,), dtype=lu.dtype))
    p = (
        Tensor(LUOPS.permutation(piv, m, lu.dtype))
        if _bool(unpack_pivots, "unpack_pivots")
        else empty
    )
    if not _bool(unpack_data, "unpack_data"):
        return ReturnTuple("lu_unpack", ("P", "L", "U"), (p, empty, empty))
    low, up = LUOPS.unpacked_factors(lu)
    low = A.named(low, "LuUnpackBackward0")
    up = A.named(up, "LuUnpackBackward0")
    for t in (low, up):
        t.data = np.ascontiguousarray(t.data)
    return ReturnTuple("lu_unpack", ("P", "L", "U"), (p, low, up))


_TRIANGULAR_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B)."
)


def triangular_solve(
    input: Any,  # noqa: A002
    A: Any,  # noqa: N803
    upper: Any = True,
    transpose: Any = False,
    unitriangular: Any = False,
    *,
    out: Any = None,
) -> ReturnTuple:
    """`torch.triangular_solve(b, A, upper=True, transpose=False, unitriangular=False)`
    (deprecated): (X with op(A) X = b, a copy of A), op(A) = A^T with transpose."""
    hooks.warn(
        _TRIANGULAR_DEPRECATED,
        hint="torch.linalg.solve_triangular(A, B, upper=...)",
        once="torch.triangular_solve",
    )
    return _triangular_solve(input, A, upper, transpose, unitriangular)


def _triangular_solve(
    b: Any, a: Any, upper: Any, transpose: Any, unitriangular: Any
) -> ReturnTuple:
    b, a = A.tensor_arg(b, "input"), A.tensor_arg(a, "A")
    for t, name in ((b, "b"), (a, "A")):
        if t.ndim < 2:
            raise GradcliError(
                f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, but it "
                f"has {t.ndim} dimensions instead"
            )
    upper, transpose = _bool(upper, "upper"), _bool(transpose, "transpose")
    unit = _bool(unitriangular, "unitriangular")
    if a.shape[-1] != a.shape[-2]:
        raise GradcliError(
            f"A must be batches of square matrices, but they are {a.shape[-2]} by "
            f"{a.shape[-1]} matrices"
        )
    if b.shape[-2] != a.shape[-1]:
        raise GradcliError(
            f"Incompatible matrix sizes for triangular_solve: each A matrix is {a.shape[-1]} by "
            f"{a.shape[-1]} but each b matrix is {b.shape[-2]} by {b.shape[-1]}"
        )
    if a.dtype != b.dtype:
        raise GradcliError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{scalar_type_name(b.dtype)} and A of type {scalar_type_name(a.dtype)} instead."
        )
    _float_input(a, "triangular_solve")
    # the copy of A it returns is column-major, as the one ATen hands trsm
    copy = A.named(F.clone(a), "TriangularSolveBackward0")
    copy.data = column_major(np.array(copy.data))
    batch = A.broadcast_shapes_checked(b.shape[:-2], a.shape[:-2])
    limits.LINALG_WORK.check(
        math.prod(batch) * a.shape[-1] ** 2 * b.shape[-1],
        f"the work of triangular_solve on {list(b.shape)}",
    )
    x = apply(M.triangular_solve, b, a, upper=upper, transpose=transpose, unitriangular=unit)
    x = A.shown_over(x, b, a)
    return ReturnTuple("triangular_solve", ("solution", "cloned_coefficient"), (x, copy))


def _batched_reflections(a: Tensor, t: Tensor) -> Tensor:
    """H_1 (H_2 (... (H_k E))) for a batch (..., m, n) at once: each reflection one rank-one
    update of every matrix (the recorded ops do not grow with the batch)."""
    batch, (m, n), k = a.shape[:-2], a.shape[-2:], t.shape[-1]
    q = Tensor(np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape).copy())
    for i in range(k - 1, -1, -1):
        parts = []
        if i:
            parts.append(Tensor(np.zeros(batch + (i,), dtype=a.dtype)))
        parts.append(Tensor(np.ones(batch + (1,), dtype=a.dtype)))
        if i + 1 < m:
            parts.append(a[(Ellipsis, slice(i + 1, None), i)])
        v = F.cat(parts, -1) if len(parts) > 1 else parts[0]
        vh = F.conj(v) if v.dtype.kind == "c" else v  # (H_i = I - tau v v^H)
        w = A.matmul(F.unsqueeze(vh, -2), q)  # (..., 1, n)
        step = A.mul_t(F.unsqueeze(v, -1), w)  # (..., m, n)
        q = A.sub_t(q, A.mul_t(t[(Ellipsis, slice(i, i + 1), None)], step))
    return q


def orgqr(input: Any, input2: Any, *, out: Any = None) -> Tensor:  # noqa: A002
    """`torch.orgqr(input, input2)` / `A.orgqr(input2)`: householder_product under the names
    PyTorch's binding gives its parameters."""
    return householder_product(input, input2, out=out)


def householder_product(input: Any, tau: Any, *, out: Any = None) -> Tensor:  # noqa: A002
    """`torch.linalg.householder_product(A, tau)` (`torch.orgqr`): the first n columns of
    H_1 ... H_k, H_i = I - tau_i v_i v_i^T, v_i the i-th column of A below the diagonal (1 on
    it): geqrf's Q, as recorded reflections (their gradient PyTorch's), the result column-major
    as LAPACK's orgqr writes it."""
    fn = "torch.linalg.householder_product"
    a, t = A.tensor_arg(input, "input"), A.tensor_arg(tau, "tau")
    if a.ndim < 2:
        raise GradcliError(f"{fn}: input must have at least 2 dimensions.")
    if t.ndim < 1:
        raise GradcliError(f"{fn}: tau must have at least 1 dimension.")
    m, n = a.shape[-2:]
    k = t.shape[-1]
    if m < n:
        raise GradcliError(
            f"{fn}: input.shape[-2] must be greater than or equal to input.shape[-1]"
        )
    if n < k:
        raise GradcliError(f"{fn}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if t.shape[:-1] != a.shape[:-2]:
        raise GradcliError(
            f"{fn}: Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
            f"{list(t.shape[:-1])}"
        )
    if a.dtype != t.dtype:
        raise GradcliError(
            f"{fn}: tau dtype {scalar_type_name(t.dtype)} does not match input dtype "
            f"{scalar_type_name(a.dtype)}"
        )
    _float_input(a, fn, "input")
    count = math.prod(a.shape[:-2])
    # each reflection a rank-one update of each m x n matrix
    limits.LINALG_WORK.check(count * max(k, 1) * m * n, f"the work of {fn}")
    q = _batched_reflections(a, t)
    q = A.shown_over(A.named(q, "LinalgHouseholderProductBackward0"), a, t)
    q.data = column_major(np.array(q.data))
    return q


# --- cross, matrix_power, multi_dot --------------------------------------------------------------


def cross(input: Any, other: Any, *, dim: int = -1, out: Any = None) -> Tensor:  # noqa: A002
    a, b = A.tensor_arg(input, "input"), A.tensor_arg(other, "other")
    if a.ndim != b.ndim:
        raise GradcliError("linalg.cross: inputs must have the same number of dimensions.")
    d = C.check_dim(dim, a.ndim)
    if a.shape[d] != 3 or b.shape[d] != 3:
        raise GradcliError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.shape[d]} and "
            f"{b.shape[d]}"
        )
    A.broadcast_shape(a, b)
    if a.dtype != b.dtype:  # (ATen's cross promotes nothing: the first input's dtype named)
        raise GradcliError(
            f"expected scalar type {scalar_type_name(a.dtype)} but found "
            f"{scalar_type_name(b.dtype)}",
            hint="convert one first: b.to(a.dtype)",
        )
    C.float_kernel(a, "cross", "fciu")  # (no bool loop)
    return apply(M.cross, a, b, dim=d - a.ndim)


def torch_cross(input: Any, other: Any, dim: Any = None, *, out: Any = None) -> Tensor:  # noqa: A002
    a = A.tensor_arg(input, "input")
    if dim is None:
        hooks.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass "
            "the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will "
            "change to agree with that of linalg.cross in a future release."
        )
        dim = next((i for i, s in enumerate(a.shape) if s == 3), -1)
    return cross(input, other, dim=dim)


def matrix_power(input: Any, n: Any) -> Tensor:  # noqa: N803
    # PyTorch checks the shape only: n >= 0 is matmul in the input's dtype (integers too; bool
    # meets matmul's refusal), and a negative n meets linalg.inv's dtype check.
    a = _matrices(input, "linalg.matrix_power", floating=False)
    if isinstance(n, bool) or not isinstance(n, int):
        raise GradcliError(
            f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {typename(n)}"
        ).mirror("TypeError")
    if n == 0:
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape).copy()
        out = Tensor(eye)
        if a.requires_grad:
            out = A.named(A.add_t(A.mul_t(a, 0.0), out), "torch::autograd::CopyBackwards")
        return out
    if n == 1:
        return F.clone(a)
    base = inv(a) if n < 0 else a
    k = abs(n)
    if k == 1:
        return base
    # Binary powering, as PyTorch: squares of the base, multiplied into the result.
    result: Tensor | None = None
    z = base
    while True:
        if k & 1:
            result = z if result is None else A.named(A.matmul(result, z), "MmBackward0")
        k >>= 1
        if not k:
            break
        z = A.named(A.matmul(z, z), "MmBackward0")
    assert result is not None
    return result


_CHAIN_DEPRECATED = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1102.)"
)


def chain_matmul(*matrices: Any) -> Tensor:
    """`torch.chain_matmul(a, b, c)`: linalg.multi_dot of the matrices, with PyTorch's
    deprecation warning (once a run)."""
    hooks.warn(_CHAIN_DEPRECATED, hint="torch.linalg.multi_dot([a, b, c])", once="chain_matmul")
    for m in matrices:
        if isinstance(m, Tensor) and m.ndim != 2:
            raise GradcliError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
    if not matrices:
        raise GradcliError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1 and isinstance(matrices[0], Tensor):
        return F.clone(matrices[0])
    return multi_dot(list(matrices))


def multi_dot(tensors: Any, *, out: Any = None) -> Tensor:
    if not isinstance(tensors, (list, tuple)):
        raise GradcliError(
            f"linalg_multi_dot(): argument 'tensors' (position 1) must be tuple of Tensors, not "
            f"{typename(tensors)}"
        ).mirror("TypeError")
    n = len(tensors)
    if n < 2:
        raise GradcliError(f"multi_dot(): expected at least 2 tensors but got {n}")
    ts = [A.tensor_arg(t, "tensors") for t in tensors]
    first, last = ts[0], ts[-1]
    if first.ndim not in (1, 2):
        raise GradcliError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.ndim}D")
    if last.ndim not in (1, 2):
        raise GradcliError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.ndim}D")
    mats = list(ts)
    if first.ndim == 1:
        mats[0] = F.unsqueeze(first, 0)
    if last.ndim == 1:
        mats[-1] = F.unsqueeze(last, -1)
    for i, t in enumerate(ts[1:-1], 1):
        if t.ndim != 2:
            raise GradcliError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    # then, as ATen's, each later tensor in turn: its dtype against the first's, and whether it
    # multiplies the one before
    for i, t in enumerate(ts[1:], 1):
        if t.dtype != first.dtype:
            raise GradcliError(
                "multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                f"{cpp_type_name(first.dtype)} and tensor {i} {cpp_type_name(t.dtype)}",
                hint="convert them to one dtype first",
            )
        if mats[i - 1].shape[1] != mats[i].shape[0]:
            raise GradcliError(
                f"multi_dot(): tensors {i - 1} and {i} with shapes {list(ts[i - 1].shape)} and "
                f"{list(ts[i].shape)} cannot be multiplied"
            )
    dims = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    order = _chain_order(dims)

    def product(i: int, j: int) -> Tensor:
        if i == j:
            return mats[i]
        k = order[i][j]
        return A.matmul(product(i, k), product(k + 1, j))

    res = product(0, n - 1)
    shape = tuple(
        s for s, keep in ((res.shape[0], first.ndim == 2), (res.shape[1], last.ndim == 2)) if keep
    )
    return A.named(F.reshape(res, shape), "ViewBackward0")


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The classic dynamic programme for the cheapest order of a chain of matrix products."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


# --- norms ---------------------------------------------------------------------------------------


def _ord_number(ord: Any, fn: str) -> float:  # noqa: A002
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise GradcliError(f"{fn}(): argument 'ord' must be Number, not {typename(ord)}").mirror(
            "TypeError"
        )
    return float(ord)


def vector_norm(
    input: Any,
    ord: Any = 2,  # noqa: A002
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Any = None,
) -> Tensor:
    input = A.tensor_arg(input, "input")
    if dtype is not None:
        input = F.to_dtype(input, dtype)
    if input.dtype.kind == "c":
        input = A.abs(input)  # (a vector norm of complex numbers is their moduli's)
    if input.dtype.kind != "f":
        raise GradcliError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            + scalar_type_name(input.dtype)
        )
    p = _ord_number(ord, "linalg_vector_norm")
    d = C.reduction_dims(dim, input.ndim)
    kd = bool(keepdim)
    label = "LinalgVectorNormBackward0"
    if p > 0 or -math.inf < p < 0:  # (a negative order too: ATen's NormOps, pow's p < 1 rule)
        return apply(R.norm, input, p=p, dim=d, keepdim=kd, label=label)
    return F.nonpositive_norm(input, p, d, kd)


def _matrix_dims(a: Tensor, dim: Any, fn: str) -> tuple[int, int]:
    if not isinstance(dim, (list, tuple)) or len(dim) != 2:
        shown = " ".join(map(str, dim)) if isinstance(dim, (list, tuple)) else dim
        raise GradcliError(f"{fn}: dim must be a 2-tuple. Got {shown}")  # (ATen's IntArrayRef)
    d0, d1 = C.check_dim(dim[0], a.ndim), C.check_dim(dim[1], a.ndim)
    if d0 == d1:
        raise GradcliError(f"{fn}: dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def _matrix_order(ord: Any) -> None:  # noqa: A002
    """linalg.matrix_norm's orders: 'fro', 'nuc', 1, -1, 2, -2, inf, -inf (ATen's words)."""
    if ord in ("fro", "nuc"):
        return
    if isinstance(ord, str) or isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise GradcliError(f"linalg.matrix_norm: Order {ord} not supported.").pytorch()
    if float(ord) not in (1.0, -1.0, 2.0, -2.0, math.inf, -math.inf):
        raise GradcliError(f"linalg.matrix_norm: Order {ord:g} not supported.").pytorch()


def matrix_norm(
    input: Any,  # noqa: N803
    ord: Any = "fro",  # noqa: A002
    dim: Any = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Any = None,
) -> Tensor:
    a = A.tensor_arg(input, "A")
    _matrix_order(ord)  # (ATen checks the order before the input's dims)
    if dtype is not None:
        a = F.to_dtype(a, dtype)
    a = _matrices(a, "linalg.matrix_norm", square=False)
    d0, d1 = _matrix_dims(a, dim, "linalg.matrix_norm")
    kd = bool(keepdim)
    if ord == "fro":
        return vector_norm(a, 2, (d0, d1), kd)
    if ord == "nuc" or ord in (2, -2, 2.0, -2.0):
        # Singular values of the matrices moved to the last two axes.
        perm = [i for i in range(a.ndim) if i not in (d0, d1)] + [d0, d1]
        moved = a if perm == list(range(a.ndim)) else F.permute(a, perm)
        sv = svdvals(moved)
        if ord == "nuc":
            r = F.sum(sv, -1)
        elif ord > 0:
            r = F.amax(sv, -1)
        else:
            r = F.amin(sv, -1)
        if kd:
            for d in sorted((d0, d1)):
                r = F.unsqueeze(r, d)
        return r
    if isinstance(ord, str) or isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise GradcliError(f"linalg.matrix_norm: Order {ord} not supported.").pytorch()
    o = float(ord)
    if o not in (1.0, -1.0, math.inf, -math.inf):
        raise GradcliError(f"linalg.matrix_norm: Order {ord:g} not supported.").pytorch()
    # 1: the largest column sum of |A|; inf: the largest row sum (and min for -1, -inf). ATen
    # sums them as 1-norms (linalg_vector_norm: its terms added in order, not as sum()), then
    # takes amax / amin over the other dim (one dim less when the first went and came before).
    sum_dim, red_dim = (d0, d1) if abs(o) == 1 else (d1, d0)
    if not kd and sum_dim < red_dim:
        red_dim -= 1
    red = F.amax if o > 0 else F.amin
    return red(vector_norm(a, 1, sum_dim, kd), red_dim, keepdim=kd)


def norm(
    input: Any,  # noqa: N803
    ord: Any = None,  # noqa: A002
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Any = None,
) -> Tensor:
    a = A.tensor_arg(input, "A")
    if dim is not None:
        dims = dim if isinstance(dim, (list, tuple)) else (dim,)
        if len(dims) == 2:
            return matrix_norm(a, "fro" if ord is None else ord, tuple(dims), keepdim, dtype=dtype)
        return vector_norm(a, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(a, 2, None, keepdim, dtype=dtype)
    if a.ndim == 2:
        return matrix_norm(a, ord, (-2, -1), keepdim, dtype=dtype)
    if a.ndim == 1:
        if isinstance(ord, str):
            raise GradcliError(
                "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
            )
        return vector_norm(a, ord, None, keepdim, dtype=dtype)
    raise GradcliError(
        f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
        f"{a.ndim}D."
    )


def allclose(
    input: Any,  # noqa: A002
    other: Any,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
) -> bool:
    """`torch.allclose` (used where torch.linalg results are compared)."""
    a, b = A.tensor_arg(input, "input"), A.tensor_arg(other, "other")
    x, y = A.compared(a, b)
    return bool(np.all(np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan)))


# --- the names ------------------------------------------------------------------------------------


def _info_zero(fn: Callable[..., Any], kind: str, field: str, first: str) -> Callable[..., Any]:
    """`torch.linalg.inv_ex` and kin: (the result, LAPACK's info). A matrix the plain function
    refuses (singular, not positive-definite) gives LAPACK's partial result and its info
    (`_singular_result`), as PyTorch does; `check_errors=True` raises LAPACK's error under the
    `_ex` name. Its signature is PyTorch's (the matrix named `first`, no out=, check_errors
    keyword-only), so a call that does not bind is refused in PyTorch's words."""
    import inspect

    plain = inspect.signature(fn)
    params = [p for p in plain.parameters.values() if p.name != "out"]
    params[0] = params[0].replace(name=first)
    params.append(inspect.Parameter("check_errors", inspect.Parameter.KEYWORD_ONLY, default=False))
    shown = plain.replace(parameters=params)

    def ex(*args: Any, **kwargs: Any) -> ReturnTuple:
        given = dict(shown.bind(*args, **kwargs).arguments)
        check_errors = given.pop("check_errors", False)
        if not isinstance(check_errors, bool):
            raise GradcliError(
                f"{kind}(): argument 'check_errors' must be bool, not {typename(check_errors)}"
            ).mirror("TypeError")
        args, kwargs = (given.pop(first),), given
        try:
            r = fn(*args, **kwargs)
            info = None
        except GradcliError as e:
            lapack = "singular" in e.message or "positive-definite" in e.message
            if check_errors and lapack:  # LAPACK's info as an error names the _ex function;
                name = ex.__name__  # the argument checks keep the plain function's name
                e.message = e.message.replace(
                    f"linalg.{name.removesuffix('_ex')}:", f"linalg.{name}:"
                )
                e.args = (e.message,)
            if check_errors or not lapack:
                raise
            r, info = _singular_result(ex.__name__, *args, **kwargs)
        if info is None:
            info = np.zeros(r.shape[:-2], dtype=np.int32)
        return ReturnTuple(kind, (field, "info"), (r, Tensor(info)))

    ex.__name__ = kind.removeprefix("linalg_")
    ex.__signature__ = shown  # type: ignore[attr-defined]
    return ex


def _kept_layout(r: Tensor, values: np.ndarray) -> Tensor:
    """r (a recorded result) holding `values` instead, in r's own layout."""
    data = r.data.copy(order="K")
    data[...] = values
    r.data = data
    return r


def _singular_result(name: str, *args: Any, **kwargs: Any) -> tuple[Tensor, np.ndarray]:
    """inv_ex, solve_ex and cholesky_ex of a matrix LAPACK cannot factor: its partial result
    (the LU's zero pivot divides: infinities and NaNs; potrf stops at the failing column, its
    diagonal entry holding the value that was not positive) and info. A gradient through it is
    the plain record's on that result (NaN, as PyTorch's)."""
    if name == "cholesky_ex":
        a = _matrices(args[0] if args else kwargs.pop("input"), "linalg.cholesky")
        upper = bool(kwargs.get("upper", False))
        values, info = _cholesky_partial(np.asarray(a.data), upper)
        if a.requires_grad:
            raise NotSupported(
                "torch.linalg.cholesky_ex of a matrix that is not positive-definite and requires "
                "grad is not supported by gradcli (PyTorch records LAPACK's partial factor)",
                hint="check info on a detached matrix first: torch.linalg.cholesky_ex(A.detach())",
            )
        return Tensor(column_major(values)), info
    if name == "inv_ex":
        a = _matrices(args[0] if args else kwargs.pop("A"), "linalg.inv")
        lu, piv, info = LUOPS.factor(np.asarray(a.data))
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
        values = LUOPS.solve_arrays(lu, piv, eye, adjoint=False)
        return _kept_layout(apply(M.inv, a, strict=False), values), info
    a_in = args[0] if args else kwargs.pop("A")
    b_in = args[1] if len(args) > 1 else kwargs.pop("B")
    a = _matrices(a_in, "linalg.solve")
    b = _float_input(b_in, "linalg.solve", "B")
    left = kwargs.get("left", True)
    r = _solve(a, b, left, strict=False)
    lu, piv, info = LUOPS.factor(np.asarray(a.data))
    if left:
        vector = _is_vector_rhs(a, b)
        bm = b.data[..., None] if vector else b.data
        x = LUOPS.solve_arrays(lu, piv, bm, adjoint=False)
        values = x[..., 0] if vector else x
    else:
        values = np.swapaxes(
            LUOPS.solve_arrays(lu, piv, np.swapaxes(b.data, -1, -2), adjoint=True), -1, -2
        )
    return _kept_layout(r, values), info


def vecdot(x: Any, y: Any, *, dim: Any = -1) -> Tensor:
    """`torch.linalg.vecdot(x, y, dim=-1)`: the dot product along dim (of real vectors,
    (x * y).sum(dim))."""
    a = _float_input(x, "linalg.vecdot", "x")
    b = _float_input(y, "linalg.vecdot", "y")
    return F.sum(A.mul_t(a, b), dim)


def linalg_diagonal(A: Any, *, offset: Any = 0, dim1: Any = -2, dim2: Any = -1) -> Tensor:  # noqa: N803
    from .composite import diagonal

    return diagonal(A, offset, dim1, dim2)


# --- removed in PyTorch 1.9: torch.eig / torch.symeig fail in PyTorch's words ---------------

_EIG_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. `torch.linalg.eig` "
    "returns complex tensors of dtype `cfloat` or `cdouble` rather than real tensors mimicking "
    "complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
    "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be "
    "replaced with:\nL_complex, V_complex = torch.linalg.eig(A)"
)
_SYMEIG_REMOVED = (
    "This function was deprecated since version 1.9 and is now removed. The default behavior "
    "has changed from using the upper triangular portion of the matrix by default to using the "
    "lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced "
    "with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = "
    "torch.symeig(A, eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, "
    "UPLO='U' if upper else 'L')"
)


def eig(*args: Any, **kwargs: Any) -> Any:
    """`torch.eig` (removed from PyTorch): its RuntimeError, which a program can catch."""
    raise GradcliError(
        _EIG_REMOVED,
        hint="for a symmetric matrix: torch.linalg.eigh(A) (real); gradcli has no torch.linalg.eig",
    ).mirror("RuntimeError")


# Measured against torch 2.13 (random matrices, printed digits): float64 eigenvalues matched
# in value and order at every size tried (2 to 30, 12 each); float32 ones, from MKL's
# single-precision solver, only at 2 x 2 (3 x 3: a last printed digit apart in 1 of 12; 6 x 6:
# 3 of 12 in another order or digit; from 8 x 8 most in another order).
EIGVALS32_MAX = 2


def eigvals(input: Any, *, out: Any = None) -> Tensor:  # noqa: A002
    """`torch.linalg.eigvals(A)`: LAPACK's geev eigenvalues of a real square matrix, complex,
    in LAPACK's order (a conjugate pair together, positive imaginary part first), with
    PyTorch's gradient (`_real_eigvals_recorded`). (Its parameter is `input` in PyTorch's
    binding, whatever the docs call it: `eigvals(A=m)` is refused there.)"""
    a = _matrices(input, "linalg.eigvals")
    if a.dtype.kind == "c" and a.requires_grad and _GradMode.enabled:
        return linalg_eig(a)[0]  # (PyTorch's gradient: eig's, with no gV)
    if a.dtype in (np.float32, np.complex64) and a.shape[-1] > EIGVALS32_MAX:
        raise NotSupported(
            f"torch.linalg.eigvals of a {a.dtype.name} matrix larger than "
            f"{EIGVALS32_MAX} x "
            f"{EIGVALS32_MAX} is not supported by gradcli: the order MKL's single-precision "
            "solver gives its eigenvalues in is not reproduced",
            hint="compute in float64: torch.linalg.eigvals(A.double()) (complex128)",
        )
    vals = np.asarray(a.data)
    if not np.isfinite(vals).all():
        raise GradcliError(
            "torch.linalg.eigvals: input tensor should not contain infs or NaNs.",
            hint="check the matrix first: torch.isfinite(A).all()",
        )
    cdt = np.complex64 if a.dtype in (np.float32, np.complex64) else np.complex128
    with np.errstate(all="ignore"):
        w = np.linalg.eig(vals)[0]  # (with vectors: closer to MKL's than without, measured)
    w = np.ascontiguousarray(w.astype(cdt))
    if a.requires_grad and _GradMode.enabled:
        if a.dtype != np.float64:
            raise NotSupported(
                "the gradient of torch.linalg.eigvals of a float32 matrix is not supported by "
                "gradcli: its float32 digits are not PyTorch's (those of float64 are)",
                hint="compute in float64: torch.linalg.eigvals(A.double())",
            )
        return _real_eigvals_recorded(a, w)
    return Tensor(w)


def _real_eigvals_recorded(a: Tensor, w: np.ndarray) -> Tensor:
    """eigvals `w` (dgeev's values and order) of a real matrix that requires grad, with
    PyTorch's gradient: linalg_eig_backward without gV, real(V^-H diag(gL) V^H), which does
    not depend on the eigenvectors' scaling: taken from the complex eig record of the matrix
    made complex (the cast's rule keeps the real part), its eigenvalues put in dgeev's order."""
    from .composite import gather

    z = F.to_dtype(a, w.dtype)
    n = a.shape[-1]
    val, _vec = _real_parts(apply(M.eig, z), [(n,), (n, n)], (), "LinalgEigBackward0")
    # each of dgeev's eigenvalues: the nearest of zgeev's not taken yet
    flat_w = w.reshape(-1, n)
    flat_v = np.asarray(val.data).reshape(-1, n)
    order = np.zeros(flat_w.shape, dtype=np.int64)
    for b in range(flat_w.shape[0]):
        free = list(range(n))
        for i in range(n):
            k = min(free, key=lambda j: abs(flat_v[b, j] - flat_w[b, i]))
            order[b, i] = k
            free.remove(k)
    out = gather(val, -1, Tensor(order.reshape(w.shape)))
    out.data = w
    return A.named(out, "LinalgEigBackward0")


def linalg_eig(input: Any, *, out: Any = None) -> Any:  # noqa: A002
    """`torch.linalg.eig(A)` of a complex matrix: LAPACK's zgeev (each eigenvector of unit
    norm, its largest component real; NumPy's values are MKL's, measured to 1e-13 at sizes 2
    to 10 in complex128, complex64 only at 2 x 2, as `eigvals`), PyTorch's gradient
    (`ops.matrices.eig`). A real matrix's eigenvectors are refused: their signs are MKL's
    own. (Its parameter is `input` in PyTorch's binding, as eigvals'.)"""
    a = _matrices(input, "linalg.eig")
    if a.dtype.kind == "c":
        if a.dtype == np.complex64 and a.shape[-1] > EIGVALS32_MAX:
            raise NotSupported(
                f"torch.linalg.eig of a ComplexFloat matrix larger than {EIGVALS32_MAX} x "
                f"{EIGVALS32_MAX} is not supported by gradcli: the order MKL's single-precision "
                "solver gives its eigenvalues in is not reproduced",
                hint="compute in double precision: torch.linalg.eig(A.to(torch.complex128))",
            )
        if not np.isfinite(a.data).all():
            raise GradcliError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
        n = a.shape[-1]
        val, vec = _real_parts(apply(M.eig, a), [(n,), (n, n)], (), "LinalgEigBackward0")
        lapack_owned(vec, vectors=(val,))
        return ReturnTuple("linalg_eig", ("eigenvalues", "eigenvectors"), (val, vec))
    _real_eig_refused()


def _real_eig_refused() -> None:
    raise NotSupported(
        "torch.linalg.eig of a real matrix is not supported by gradcli: the eigenvectors' signs "
        "are chosen by PyTorch's LAPACK build (MKL's dgeev), which gradcli does not reproduce "
        "(of a complex matrix it is)",
        hint="for the eigenvalues write torch.linalg.eigvals(A) (complex); for a symmetric "
        "matrix torch.linalg.eigh(A) (real eigenvalues ascending, eigenvectors as columns)",
    )


def symeig(*args: Any, **kwargs: Any) -> Any:
    """`torch.symeig` (removed from PyTorch): its RuntimeError."""
    raise GradcliError(
        _SYMEIG_REMOVED, hint="torch.linalg.eigh(A) or torch.linalg.eigvalsh(A)"
    ).mirror("RuntimeError")


# Functions PyTorch removed and keeps as a RuntimeError in these words (old tutorials call them).
_REMOVED = {
    "solve": "This function was deprecated since version 1.9 and is now removed. `torch.solve` "
    "is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its arguments "
    "reversed and does not return the LU factorization.\n\nTo get the LU factorization see "
    "`torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = "
    "torch.solve(B, A).solution should be replaced with:\nX = torch.linalg.solve(A, B)",
    "lstsq": "This function was deprecated since version 1.9 and is now removed. `torch.lstsq` "
    "is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has reversed "
    "arguments and does not return the QR decomposition in the returned tuple (although it "
    "returns other information about the problem).\n\nTo get the QR decomposition consider "
    "using `torch.linalg.qr`.\n\nThe returned solution in `torch.lstsq` stored the residuals "
    "of the solution in the last m - n columns of the returned value whenever m > n. In "
    "torch.linalg.lstsq, the residuals are in the field 'residuals' of the returned named "
    "tuple.\n\nThe unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]"
    "\nshould be replaced with:\nX = torch.linalg.lstsq(A, B).solution",
    "matrix_rank": "This function was deprecated since version 1.9 and is now removed.\nPlease "
    "use the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was "
    "renamed in `torch.linalg.matrix_rank()` to 'hermitian'.",
    "reinforce": "reinforce() was removed.\nUse torch.distributions instead.\nSee "
    "https://pytorch.org/docs/main/distributions.html\n\nInstead of:\n\nprobs = "
    "policy_network(state)\naction = probs.multinomial()\nnext_state, reward = "
    "env.step(action)\naction.reinforce(reward)\naction.backward()\n\nUse:\n\nprobs = "
    "policy_network(state)\n# NOTE: categorical is equivalent to what used to be called "
    "multinomial\nm = torch.distributions.Categorical(probs)\naction = m.sample()\n"
    "next_state, reward = env.step(action)\nloss = -m.log_prob(action) * reward\n"
    "loss.backward()\n",
}
_REMOVED_HINTS = {
    "solve": "torch.linalg.solve(A, B)",
    "lstsq": "torch.linalg.lstsq(A, B).solution",
    "matrix_rank": "torch.linalg.matrix_rank(A)",
    "reinforce": "torch.distributions.Categorical(probs) and its log_prob",
}


# --- tensorinv, tensorsolve ---------------------------------------------------------------------


def tensorinv(input: Any, ind: Any = 2, *, out: Any = None) -> Tensor:  # noqa: A002
    """`torch.linalg.tensorinv(A, ind=2)`: A reshaped to a square matrix (its first `ind`
    dimensions the rows), inverted, and reshaped to A.shape[ind:] + A.shape[:ind]."""
    a = A.tensor_arg(input, "input")
    ind = C.int_arg(ind, "ind")
    if ind <= 0:
        raise GradcliError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    end, start = tuple(a.shape[ind:]), tuple(a.shape[:ind])
    n_end, n_start = math.prod(end), math.prod(start)
    if n_end != n_start:
        raise GradcliError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {n_end} != {n_start}"
        )
    m = _matrices(F.reshape(a, n_start, n_end), "linalg.inv")
    if M.lu_info(np.asarray(m.data)):
        raise M.singular_error(np.asarray(m.data), "inv")  # (ATen checks it as "inv")
    return F.reshape(apply(M.inv, m, strict=False), *(end + start))


def tensorsolve(input: Any, other: Any, dims: Any = None, *, out: Any = None) -> Tensor:  # noqa: A002
    """`torch.linalg.tensorsolve(A, B, dims=None)`: X with tensordot(A, X, X.ndim) = B; A's
    dimensions `dims` moved to the end first."""
    from .basics import movedim

    a = A.tensor_arg(input, "input")
    b = A.tensor_arg(other, "other")
    if dims is not None:
        if not isinstance(dims, (tuple, list)):
            raise GradcliError(
                f"linalg_tensorsolve(): argument 'dims' must be tuple of ints, not {typename(dims)}"
            ).mirror("TypeError")
        dims = [C.int_arg(d, "dims") for d in dims]
        a = movedim(a, dims, list(range(a.ndim - len(dims), a.ndim)))
    result_shape = tuple(a.shape[b.ndim :])
    n_result, n_b = math.prod(result_shape), math.prod(b.shape)
    if n_result != n_b:
        raise GradcliError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {n_result} != {n_b}"
        )
    x = solve(F.reshape(a, n_result, n_result), F.reshape(b, -1))
    return F.reshape(x, *result_shape)


def _removed(name: str) -> Any:
    def removed(*args: Any, **kwargs: Any) -> Any:
        raise GradcliError(_REMOVED[name], hint=_REMOVED_HINTS[name]).mirror("RuntimeError")

    removed.__name__ = name
    return removed


def _inplace(fn: Any, name: str) -> Any:
    """The in-place method `x.name_(...)` of the method `fn` (with the deprecated overloads).
    These are structured kernels in ATen: a result of another shape than x's (the input
    broadcast) is refused in their in-place words, not as a broadcast."""
    import functools

    @functools.wraps(fn)
    def structured(x: Any, *args: Any, **kwargs: Any) -> Any:
        out = fn(x, *args, **kwargs)
        if isinstance(x, Tensor) and isinstance(out, Tensor) and out.shape != x.shape:
            raise GradcliError(
                f"Bad in-place call: input tensor size {list(x.shape)} and output tensor size "
                f"{list(out.shape)} should match",
                hint=f"an in-place result keeps x's shape: write y = x.{name}(...) instead",
            )
        return out

    return F._method_(structured, name)


# the addmm family, function, method and in-place forms alike
_MM_COMPOSED = "composition of matmul scaled_matmul times_scalar add expand"
NAMES = declare(
    ("eig", "torch Tensor", eig, ""),
    ("symeig", "torch Tensor", symeig, ""),
    ("solve", "torch Tensor", _removed("solve"), ""),
    ("lstsq", "torch Tensor", _removed("lstsq"), ""),
    ("matrix_rank", "torch", _removed("matrix_rank"), ""),
    ("reinforce", "Tensor", _removed("reinforce"), ""),
    ("eig", "linalg", linalg_eig, "eig index reshape"),
    ("eigvals", "linalg", eigvals, "composition of astype eig index reshape"),
    ("inv_ex", "linalg", _info_zero(inv, "linalg_inv_ex", "inverse", "A"), "inv"),
    ("cholesky_ex", "linalg", _info_zero(cholesky, "linalg_cholesky_ex", "L", "input"), "cholesky"),
    ("solve_ex", "linalg", _info_zero(solve, "linalg_solve_ex", "result", "A"), "solve"),
    ("vecdot", "linalg", vecdot, "mul sum"),
    (
        "householder_product",
        "linalg",
        householder_product,
        "composition of mul sub matmul cat index reshape",
    ),
    (
        "orgqr",
        "torch Tensor",
        orgqr,
        "composition of mul sub matmul cat index reshape",
    ),
    ("lu_factor", "linalg", lu_factor, "lu_factor"),
    ("ldl_factor", "linalg", ldl_factor, ""),
    ("ldl_factor_ex", "linalg", ldl_factor_ex, ""),
    ("ldl_solve", "linalg", ldl_solve, ""),
    ("lu_factor_ex", "linalg", lu_factor_ex, "lu_factor"),
    ("lu", "linalg", linalg_lu, "lu index reshape"),
    ("lu_solve", "linalg", linalg_lu_solve, "lu_solve"),
    ("lu", "torch Tensor", torch_lu, "lu_factor"),
    ("lu_solve", "torch Tensor", torch_lu_solve, "lu_solve"),
    ("lu_unpack", "torch", lu_unpack, "composition of where index"),
    ("triangular_solve", "torch Tensor", triangular_solve, "triangular_solve clone"),
    ("tensorinv", "linalg", tensorinv, "composition of inv reshape"),
    ("tensorsolve", "linalg", tensorsolve, "composition of solve reshape permute"),
    ("matmul", "linalg", A.matmul, "matmul"),
    ("diagonal", "linalg", linalg_diagonal, "composition of as_strided index reshape"),
    ("norm", "linalg", norm, "composition of norm max sum svdvals"),
    ("vector_norm", "linalg", vector_norm, "norm"),
    ("matrix_norm", "linalg", matrix_norm, "composition of norm max svdvals"),
    ("det", "torch Tensor", det, "det"),
    ("det", "linalg", linalg_det, "det"),
    ("slogdet", "linalg", slogdet, "slogdet index reshape"),
    ("inv", "linalg", linalg_inv, "inv"),
    ("inverse", "torch Tensor", inv, "inv"),
    ("solve", "linalg", solve, "solve"),
    ("solve_triangular", "linalg", solve_triangular, "solve_triangular"),
    ("cholesky", "linalg", cholesky, "cholesky"),
    ("qr", "linalg", qr, "qr index reshape"),
    ("eigh", "linalg", eigh, "eigh index reshape"),
    ("eigvalsh", "linalg", eigvalsh, "composition of eigh index reshape"),
    ("svd", "linalg", svd, "svd index reshape"),
    ("svdvals", "linalg", svdvals, "svdvals"),
    ("pinv", "linalg", pinv, "pinv expand"),
    ("cross", "linalg", cross, "cross"),
    ("matrix_power", "torch Tensor linalg", matrix_power, "composition of matmul inv"),
    ("multi_dot", "linalg", multi_dot, "composition of matmul reshape"),
    ("logdet", "torch Tensor", logdet, "composition of slogdet index reshape where"),
    ("slogdet", "torch Tensor", torch_slogdet, "slogdet index reshape"),
    ("cholesky", "torch Tensor", torch_cholesky, "cholesky"),
    ("cholesky_inverse", "torch Tensor", cholesky_inverse, "cholesky_inverse"),
    ("qr", "torch Tensor", torch_qr, "qr index reshape"),
    ("geqrf", "torch Tensor", geqrf, "geqrf index reshape"),
    ("svd", "torch Tensor", torch_svd, "svd index permute reshape"),
    ("pinverse", "torch Tensor", pinverse, "pinv expand"),
    ("cross", "torch Tensor", torch_cross, "cross"),
    (
        "addmm",
        "torch",
        OV.torch_form("addmm", addmm),
        _MM_COMPOSED,
    ),
    (
        "addmm",
        "Tensor",
        OV.method_form("addmm", addmm),
        _MM_COMPOSED,
    ),
    ("addmm_", "Tensor", _inplace(OV.method_form("addmm_", addmm), "addmm"), _MM_COMPOSED),
    (
        "baddbmm",
        "torch",
        OV.torch_form("baddbmm", baddbmm),
        _MM_COMPOSED,
    ),
    (
        "baddbmm",
        "Tensor",
        OV.method_form("baddbmm", baddbmm),
        _MM_COMPOSED,
    ),
    ("baddbmm_", "Tensor", _inplace(OV.method_form("baddbmm_", baddbmm), "baddbmm"), _MM_COMPOSED),
    (
        "addmv",
        "torch",
        OV.torch_form("addmv", addmv),
        _MM_COMPOSED,
    ),
    (
        "addmv",
        "Tensor",
        OV.method_form("addmv", addmv),
        _MM_COMPOSED,
    ),
    ("addmv_", "Tensor", _inplace(OV.method_form("addmv_", addmv), "addmv"), _MM_COMPOSED),
    ("outer ger", "torch Tensor", outer, "composition of mul reshape"),
    ("kron", "torch Tensor", kron, "composition of mul reshape"),
    ("dist", "torch Tensor", dist, "dist"),
    ("einsum", "torch", einsum, "einsum"),
    ("tensordot", "torch", tensordot, "composition of einsum"),
    ("cdist", "torch", cdist, "cdist"),
    (
        "chain_matmul",
        "torch",
        lambda *ms: chain_matmul(*ms),
        "composition of clone matmul reshape",
    ),
)
