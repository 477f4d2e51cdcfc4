"""The CTC loss (`F.ctc_loss`, `nn.CTCLoss`): its record and its gradient's, ATen's loops.
A module of its own because few programs use it: it is imported when one does."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core import dual, hooks
from ..core.op import Sample, apply, defop
from ..core.tensor import Tensor, grad_enabled
from .loss import _FLOAT_DTYPES

# --- ctc_loss ------------------------------------------------------------------------------
#
# ATen's CPU kernel (LossCTC.cpp) is a scalar loop over the batch, time and the extended
# target l' = (blank, l0, blank, l1, ..., blank): alpha forward, beta backward, both in log
# space with std::exp / std::log of the kernel's dtype. It is mirrored here scalar by scalar
# (float64: Python's floats and libm's exp / log, as C's double; float32: NumPy float32
# scalars and the C library's expf / logf), so float64 gives PyTorch's bits and float32 too
# wherever the C library can be called (otherwise exp / log are rounded from float64: a last
# bit may differ).


def _ctc_scalar(dtype: np.dtype) -> tuple:
    """(to_scalar, exp, log) in the kernel's dtype, as C computes them."""
    import math

    if dtype == np.float64:

        def exp64(v: float) -> float:
            return math.exp(v) if v == v else v

        def log64(v: float) -> float:
            if v > 0:
                return math.log(v)
            return -math.inf if v == 0 else math.nan

        return float, exp64, log64
    from ..core.sleef32 import _libm

    f32 = np.float32
    cexp, clog = _libm("expf"), _libm("logf")

    def exp32(v: Any) -> Any:
        if cexp is not None:
            return f32(cexp(float(v)))
        with np.errstate(all="ignore"):
            return f32(np.exp(np.float64(v)))

    def log32(v: Any) -> Any:
        if clog is not None and v > 0:
            return f32(clog(float(v)))
        with np.errstate(all="ignore"):
            return f32(np.log(np.float64(v)))

    return f32, exp32, log32


def _ctc_layout(targets: np.ndarray, target_lengths: tuple) -> list:
    """Each batch item's target labels (the 2-d padded or the 1-d concatenated layout)."""
    if targets.ndim == 1:
        out, pos = [], 0
        for n in target_lengths:
            out.append([int(v) for v in targets[pos : pos + n]])
            pos += n
        return out
    return [[int(v) for v in targets[b, :n]] for b, n in enumerate(target_lengths)]


def _ctc_alpha(lp: np.ndarray, labels: list, il: int, blank: int, fns: tuple) -> tuple:
    """Log alpha (rows 0..il-1 of the 2 * len(labels) + 1 states) and the loss of one item."""
    F_, exp, log = fns
    ninf = F_(-np.inf)
    n_s = 2 * len(labels) + 1
    prime = [blank if s % 2 == 0 else labels[s // 2] for s in range(n_s)]
    if il == 0:
        return [], (F_(-0.0) if not labels else F_(np.inf))
    rows = [[ninf] * n_s]
    rows[0][0] = F_(lp[0, blank])
    if labels:
        rows[0][1] = F_(lp[0, prime[1]])
    zero = F_(0)
    tick = hooks.observer.tick
    for t in range(1, il):
        tick()  # the time limit stops a long table (a scalar loop, as ATen's)
        prev, row, lpt = rows[-1], [ninf] * n_s, lp[t]
        for s in range(n_s):
            la1 = prev[s]
            lamax = la1
            la2 = la3 = ninf
            if s > 0:
                la2 = prev[s - 1]
                if la2 > lamax:
                    lamax = la2
            if s > 1 and prime[s - 2] != prime[s]:
                la3 = prev[s - 2]
                if la3 > lamax:
                    lamax = la3
            if lamax == ninf:
                lamax = zero
            row[s] = (
                log(exp(la1 - lamax) + exp(la2 - lamax) + exp(la3 - lamax))
                + lamax
                + F_(lpt[prime[s]])
            )
        rows.append(row)
    last = rows[il - 1]
    if not labels:
        return rows, -last[0]
    l1, l2 = last[n_s - 1], last[n_s - 2]
    m = l2 if l1 < l2 else l1  # std::max(l1, l2)
    if m == ninf:
        m = zero
    return rows, -(log(exp(l1 - m) + exp(l2 - m)) + m)


def _ctc_check_labels(labels: list, c: int) -> None:
    for seq in labels:
        for v in seq:
            if not 0 <= v < c:
                raise GradcliError(
                    f"ctc_loss: target label {v} is out of range for {c} classes (PyTorch does not "
                    "check it and reads outside log_probs)",
                    hint=f"labels must be in [0, {c - 1}]",
                )


def _ctc_fwd(
    x: np.ndarray,
    targets: Any = None,
    input_lengths: tuple = (),
    target_lengths: tuple = (),
    blank: int = 0,
    zero_infinity: bool = False,
) -> np.ndarray:
    """The negative log likelihood of each batch item (ATen's `_ctc_loss`, CtcLossBackward0):
    x is (T, N, C) log probabilities."""
    if not isinstance(x, np.ndarray) or x.dtype not in _FLOAT_DTYPES:
        raise GradcliError("ctc_loss: log_probs must be float32 or float64")
    fns = _ctc_scalar(x.dtype)
    labels = _ctc_layout(np.asarray(targets), target_lengths)
    _ctc_check_labels(labels, x.shape[2])
    out = np.empty(x.shape[1], x.dtype)
    for b, il in enumerate(input_lengths):
        out[b] = _ctc_alpha(x[:, b, :], labels[b], il, blank, fns)[1]
    return out


def _ctc_item_grad(
    lp: np.ndarray, labels: list, il: int, blank: int, fns: tuple
) -> tuple[np.ndarray, Any]:
    """One batch item's `exp(lp) - exp(lcab + nll - lp)` (T, C), zero past its length (before
    the upstream gradient's factor), and its loss; lcab[t, c] is the log of the sum of
    alpha * beta over the states of character c, added in ATen's order (states descending)."""
    F_, exp, log = fns
    ninf = F_(-np.inf)
    t_all, c_all = lp.shape
    rows, nll = _ctc_alpha(lp, labels, il, blank, fns)
    n_s = 2 * len(labels) + 1
    prime = [blank if s % 2 == 0 else labels[s // 2] for s in range(n_s)]
    lcab = [[ninf] * c_all for _ in range(t_all)]
    if il > 0:
        last = il - 1
        beta = [ninf] * n_s
        beta[n_s - 1] = F_(lp[last, blank])
        lcab[last][blank] = rows[last][n_s - 1] + beta[n_s - 1]
        if labels:
            cur = prime[n_s - 2]
            beta[n_s - 2] = F_(lp[last, cur])
            lcab[last][cur] = rows[last][n_s - 2] + beta[n_s - 2]
        zero = F_(0)
        for t in range(il - 2, -1, -1):
            hooks.observer.tick()
            nxt, beta = beta, [ninf] * n_s
            lpt, acc, alpha = lp[t], lcab[t], rows[t]
            for s in range(n_s - 1, -1, -1):
                lb1 = nxt[s]
                lbmax = lb1
                lb2 = lb3 = ninf
                cur = prime[s]
                if s < n_s - 1:
                    lb2 = nxt[s + 1]
                    if lb2 > lbmax:
                        lbmax = lb2
                if s < n_s - 2 and prime[s + 2] != cur:
                    lb3 = nxt[s + 2]
                    if lb3 > lbmax:
                        lbmax = lb3
                if lbmax == ninf:
                    lbmax = zero
                beta[s] = (
                    log(exp(lb1 - lbmax) + exp(lb2 - lbmax) + exp(lb3 - lbmax))
                    + lbmax
                    + F_(lpt[cur])
                )
                ab = alpha[s] + beta[s]
                if acc[cur] == ninf:
                    acc[cur] = ab
                else:
                    top = ab if acc[cur] < ab else acc[cur]  # std::max
                    acc[cur] = log(exp(acc[cur] - top) + exp(ab - top)) + top
    d = np.zeros(lp.shape, lp.dtype)
    for t in range(il):
        for c in range(c_all):
            v = F_(lp[t, c])
            d[t, c] = exp(v) - exp(lcab[t][c] + nll - v)
    return d, nll


def ctc_unit_grads(
    x: np.ndarray, targets: Any, input_lengths: tuple, target_lengths: tuple, blank: int
) -> tuple[np.ndarray, np.ndarray]:
    """(D, nll): D[t, b, c] = exp(lp) - exp(lcab + nll - lp) for t < input_lengths[b], else 0;
    ATen's gradient is D * grad[b] (times 0 where zero_infinity zeroes an infinite loss)."""
    fns = _ctc_scalar(x.dtype)
    labels = _ctc_layout(np.asarray(targets), target_lengths)
    d = np.zeros(x.shape, x.dtype)
    nll = np.empty(x.shape[1], x.dtype)
    with np.errstate(all="ignore"):
        for b, il in enumerate(input_lengths):
            d[:, b, :], nll[b] = _ctc_item_grad(x[:, b, :], labels[b], il, blank, fns)
    return d, nll


def _ctc_vjp(
    g: Tensor,
    out: Tensor,
    x: Tensor,
    targets: Any = None,
    input_lengths: tuple = (),
    target_lengths: tuple = (),
    blank: int = 0,
    zero_infinity: bool = False,
) -> tuple:
    if grad_enabled():
        # create_graph=True: PyTorch's gradient is recorded but has no derivative itself
        gx = apply(
            ctc_loss_backward,
            g,
            x,
            targets=targets,
            input_lengths=input_lengths,
            target_lengths=target_lengths,
            blank=blank,
            zero_infinity=zero_infinity,
        )
        return (gx,)
    gd = np.asarray(g.data)
    return (
        Tensor(
            _ctc_grad_fwd(
                gd,
                x.data,
                targets=targets,
                input_lengths=input_lengths,
                target_lengths=target_lengths,
                blank=blank,
                zero_infinity=zero_infinity,
            )
        ),
    )


def _ctc_grad_fwd(
    g: np.ndarray,
    x: np.ndarray,
    targets: Any = None,
    input_lengths: tuple = (),
    target_lengths: tuple = (),
    blank: int = 0,
    zero_infinity: bool = False,
) -> np.ndarray:
    """ATen's `_ctc_loss_backward`: D[t, b, c] * grad[b] for t < input_lengths[b], 0 past it
    and, with zero_infinity, 0 for an item whose loss is infinite; `g` may carry leading batch
    axes."""
    d, nll = ctc_unit_grads(x, targets, input_lengths, target_lengths, blank)
    g = np.asarray(g, x.dtype)
    lead = g.shape[:-1]
    gb = g.reshape(lead + (1, x.shape[1], 1))
    with np.errstate(all="ignore"):
        res = (d * gb).astype(x.dtype)
    t = np.arange(x.shape[0])[:, None]
    keep = t < np.asarray(input_lengths, np.int64)[None, :]
    if zero_infinity:
        keep = keep & ~(nll == np.inf)[None, :]
    return np.where(keep[..., None], res, x.dtype.type(0))


def _ctc_no_closed_form(sp: Any, *args: Any, **params: Any) -> Any:
    raise TypeError(
        "ctc_loss has no closed form here (a sum over every alignment; and PyTorch's gradient "
        "is its own formula, not the derivative of a formula)"
    )


def _ctc_no_jax(w: Any, a: list[str], p: dict[str, Any]) -> str:
    from ..base.errors import NotSupported

    raise NotSupported(
        "gradcli export --to jax does not write ctc_loss (JAX has no CTC loss with PyTorch's "
        "gradient)",
        hint="export --to torch",
    )


def _ctc_no_double(g: Tensor, out: Tensor, *inputs: Tensor, **params: Any) -> tuple:
    raise GradcliError("derivative for aten::_ctc_loss_backward is not implemented")


_CTC_SAMPLES = (
    # padded targets (a repeated label needs a blank between), one item shorter in time
    {
        "targets": np.array([[1, 2, 2], [3, 1, 0]]),
        "input_lengths": (5, 4),
        "target_lengths": (3, 2),
    },
    # concatenated targets, another blank, an empty target
    {
        "targets": np.array([1, 3, 3, 0]),
        "input_lengths": (5, 3, 2),
        "target_lengths": (3, 1, 0),
        "blank": 2,
    },
    {
        "targets": np.array([[2, 1]]),
        "input_lengths": (4,),
        "target_lengths": (2,),
        "zero_infinity": True,
    },
)
_CTC_SHAPES = {0: (5, 2, 4), 1: (5, 3, 4), 2: (4, 1, 3)}

ctc_loss = defop(
    "ctc_loss",
    _ctc_fwd,
    _ctc_vjp,
    "CtcLossBackward0",
    "(exp(lp) - exp(log sum over the states of c of alpha * beta + nll - lp)) * g, PyTorch's "
    "formula: the gradient through log_softmax's input, not of the loss in lp",
    kind="loss",
    sym=_ctc_no_closed_form,
    signature="_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, "
    "zero_infinity=False)",
    samples=tuple(
        Sample((_CTC_SHAPES[i],), p, low=-3.0, high=0.0, hessian=False)
        for i, p in enumerate(_CTC_SAMPLES)
    ),
    to_torch=lambda w, a, p: (
        f"torch._ctc_loss({a[0]}, torch.tensor({w.lit(np.asarray(p['targets']))}), "
        f"{w.lit(list(p['input_lengths']))}, {w.lit(list(p['target_lengths']))}, "
        f"{w.lit(p.get('blank', 0))}, {w.lit(p.get('zero_infinity', False))})[0]"
    ),
    to_jax=_ctc_no_jax,
)

ctc_loss_backward = defop(
    "ctc_loss_backward",
    lambda g, x, **p: _ctc_grad_fwd(g, x, **p),
    _ctc_no_double,
    "torch::autograd::NotImplemented",
    "ctc_loss's gradient (PyTorch has no derivative of it)",
    kind="internal",
    sym=_ctc_no_closed_form,
    saves=False,
    samples=tuple(
        Sample(
            ((_CTC_SHAPES[i][1],), _CTC_SHAPES[i]),
            p,
            fixed={
                0: np.linspace(-1.5, 2.0, _CTC_SHAPES[i][1]),
                1: -np.linspace(0.1, 2.9, int(np.prod(_CTC_SHAPES[i]))).reshape(_CTC_SHAPES[i]),
            },
            hessian=False,
        )
        for i, p in enumerate(_CTC_SAMPLES)
    ),
    to_torch=lambda w, a, p: (
        f"torch._ctc_loss_backward({a[0]}, {a[1]}, "
        f"torch.tensor({w.lit(np.asarray(p['targets']))}), "
        f"{w.lit(list(p['input_lengths']))}, {w.lit(list(p['target_lengths']))}, "
        f"*torch._ctc_loss({a[1]}, torch.tensor({w.lit(np.asarray(p['targets']))}), "
        f"{w.lit(list(p['input_lengths']))}, {w.lit(list(p['target_lengths']))}, "
        f"{w.lit(p.get('blank', 0))}, {w.lit(p.get('zero_infinity', False))}), "
        f"{w.lit(p.get('blank', 0))}, {w.lit(p.get('zero_infinity', False))})"
    ),
)

dual.NO_FORWARD_AD["ctc_loss"] = "_ctc_loss"
