"""`torch.autograd.gradcheck` and `gradgradcheck`: PyTorch's checks of a function's gradients,
on gradcli's one finite-difference engine (`core.differences`).

What PyTorch's (slow, default) mode does, and so what this does: for every input that requires
grad, the numerical Jacobian by central differences with the absolute step `eps`, the input
perturbed in its own dtype (so float32 inputs usually fail, as PyTorch warns); the analytical
Jacobian by one backward pass per output element; each (output, input) pair compared by
`torch.allclose`'s rule, `|analytical - numerical| <= atol + rtol * |numerical|`. That rule is
PyTorch's, kept here on purpose (a program's `gradcheck` must answer as PyTorch's does);
gradcli's own verdicts (`gradcli check`, `jacobian --compare`) use `analysis.compare`.

A mismatch raises `GradcheckError` (a `RuntimeError`) with PyTorch's message, or returns False
with `raise_exception=False`. `gradgradcheck` applies the same check to the function's
vector-Jacobian product `(inputs, grad_outputs) -> grads` (built with create_graph=True).

`func` is any Python callable of tensors: a program's functions and lambdas are callable from
Python (the interpreter's seam); the time and memory limits of the run apply through the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core import hooks
from ..core.autograd import grad as autograd_grad
from ..core.differences import Step, differences
from ..core.tensor import Tensor, enable_grad

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(GradcliError):
    """PyTorch's `torch.autograd.GradcheckError` (a RuntimeError): a check failed."""

    def __init__(self, message: str):
        super().__init__(
            message,
            hint="the analytical gradient (the backward rules) and the numerical one differ; "
            "`gradcli check` names the rule or the custom backward at fault",
        )
        # The class a program's `except` sees (PyTorch's GradcheckError is a RuntimeError).
        self.python_class = "GradcheckError"


def _as_tuple(x: Any) -> tuple:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _mirror(e: GradcliError, cls: str) -> GradcliError:
    e.python_class = cls  # type: ignore[attr-defined]
    return e


def _callable(func: Any, name: str) -> None:
    if not callable(func):
        raise GradcliError(
            f"torch.autograd.{name} cannot call this function yet: gradcli calls only its own "
            "functions (torch.sin, F.softplus, ...) from it today",
            hint="check the program's gradients with `gradcli check` (it names a wrong rule or "
            "custom backward)",
        )


def _numbers(**values: Any) -> None:
    """PyTorch's types for the tolerances and the step: real numbers."""
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _mirror(
                GradcliError(
                    f"gradcheck(): argument '{name}' must be float, not {type(v).__name__}",
                    hint=f"give {name} as a number, e.g. {name}=1e-6",
                ),
                "TypeError",
            )


def _checked_inputs(inputs: tuple) -> list[int]:
    """The indices of the inputs to differentiate, with PyTorch's warning and error."""
    wanted = []
    for k, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad:
            if x.dtype != np.float64:
                hooks.warn(
                    f"Input #{k} requires gradient and is not a double precision floating point "
                    "or complex. This check will likely fail if all the inputs are not of "
                    "double precision floating point or complex. ",
                    hint="create the inputs with dtype=torch.float64",
                )
            wanted.append(k)
    if not wanted:
        raise _mirror(
            GradcliError(
                "gradcheck expects at least one input tensor to require gradient, but none "
                "of them have requires_grad=True.",
                hint="create an input with requires_grad=True",
            ),
            "ValueError",
        )
    return wanted


def _outputs(func: Callable[..., Any], inputs: Sequence[Any]) -> tuple[Tensor, ...]:
    got = _as_tuple(func(*inputs))
    for o in got:
        if not isinstance(o, Tensor):
            raise _mirror(
                GradcliError(
                    f"gradcheck expects the function to return tensors, not {type(o).__name__}",
                    hint="return a tensor, or a tuple of tensors",
                ),
                "TypeError",
            )
    return got


def _numerical(
    func: Callable[..., Any], inputs: tuple, k: int, eps: float, sizes: list[int]
) -> list[np.ndarray]:
    """d outputs / d inputs[k] by central differences: one (n_in, n_out) matrix per output
    (PyTorch's layout), the input perturbed in its own dtype."""
    x = inputs[k]
    dtype = x.dtype

    def f(v: np.ndarray) -> np.ndarray:
        # A fresh leaf like the input (still requiring grad: gradgradcheck's function takes
        # gradients inside), evaluated with grad mode on, as PyTorch evaluates it.
        args = list(inputs)
        args[k] = Tensor(v.astype(dtype, copy=False), requires_grad=True)
        with enable_grad():
            outs = _outputs(func, args)
        return np.concatenate([np.asarray(o.data, dtype=np.float64).reshape(-1) for o in outs])

    if eps != 0 and np.isfinite(eps):
        # A negative step gives the same central difference as its absolute value.
        step = Step(abs(eps), relative=False)
        central = differences(f, np.asarray(x.data), step=step, one_sided=False).central
    else:  # PyTorch divides by 2 * eps: nan, and so a mismatch
        central = np.full((sum(sizes), int(x.data.size)), np.nan)
    out, at = [], 0
    for n in sizes:
        out.append(central[at : at + n].T)
        at += n
    return out


def _analytical(out: Tensor, inputs: tuple, wanted: list[int]) -> list[np.ndarray]:
    """d out / d inputs[k] for each wanted k by one backward pass per output element: (n_in,
    n_out) matrices."""
    n_out = int(out.data.size)
    mats = [np.zeros((int(inputs[k].data.size), n_out)) for k in wanted]
    ins = [inputs[k] for k in wanted]
    for i in range(n_out):
        hooks.observer.tick()
        onehot = np.zeros(n_out, dtype=out.dtype)
        onehot[i] = 1
        grads = autograd_grad(
            [out], ins, [Tensor(onehot.reshape(out.shape))], retain_graph=True, allow_unused=True
        )
        for m, g in zip(mats, grads):
            if g is not None:
                m[:, i] = np.asarray(g.data, dtype=np.float64).reshape(-1)
    return mats


def _shown(m: np.ndarray, dtype: Any) -> str:
    from .printing import tensor_repr

    return tensor_repr(Tensor(m.astype(dtype)))


def _close(a: np.ndarray, n: np.ndarray, atol: float, rtol: float) -> bool:
    """`torch.allclose(a, n, rtol, atol)`: |a - n| <= atol + rtol * |n|, nan never close."""
    with np.errstate(all="ignore"):
        return bool(np.all(np.abs(a - n) <= atol + rtol * np.abs(n)))


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """`torch.autograd.gradcheck(func, inputs)`: True when the analytical Jacobian of every
    output with respect to every input that requires grad matches the numerical one."""
    _callable(func, "gradcheck")
    _numbers(eps=eps, atol=atol, rtol=rtol)
    tupled = _as_tuple(inputs)
    wanted = _checked_inputs(tupled)
    with enable_grad():
        outs = _outputs(func, tupled)
    sizes = [int(o.data.size) for o in outs]
    n_in = sum(int(tupled[k].data.size) for k in wanted)
    limits.JACOBIAN_ENTRIES.check(sum(sizes) * n_in, "the entries gradcheck compares")
    numerical = [_numerical(func, tupled, k, eps, sizes) for k in wanted]
    differentiable = [i for i, o in enumerate(outs) if o.requires_grad]
    try:
        if not differentiable:
            # No output depends on an input through the graph: the function must be constant.
            if any(np.any(m != 0) for per in numerical for m in per):
                raise GradcheckError("Numerical gradient for function expected to be zero")
            return True
        if not check_backward_ad:
            return True
        for i in differentiable:
            analytical = _analytical(outs[i], tupled, wanted)
            for j, k in enumerate(wanted):
                a, n = analytical[j], numerical[j][i]
                if not _close(a, n, atol, rtol):
                    dtype = tupled[k].dtype
                    raise GradcheckError(
                        f"Jacobian mismatch for output {differentiable.index(i)} with respect "
                        f"to input {j},\nnumerical:{_shown(n, dtype)}\n"
                        f"analytical:{_shown(a, dtype)}\n"
                    )
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """`torch.autograd.gradgradcheck(func, inputs)`: gradcheck of the function's vector-Jacobian
    product, with random `grad_outputs` (float64, requiring grad) when none are given."""
    _callable(func, "gradgradcheck")
    _numbers(eps=eps, atol=atol, rtol=rtol)
    tupled = _as_tuple(inputs)
    wanted = _checked_inputs(tupled)
    with enable_grad():
        outs = _outputs(func, tupled)
    diff_outs = [o for o in outs if o.requires_grad]
    if grad_outputs is None:
        # PyTorch draws them with torch.testing.make_tensor in [-1, 1); any values that are not
        # special serve the check, so a fixed generator keeps the answer reproducible.
        rng = np.random.default_rng(0)
        gouts = tuple(
            Tensor(rng.uniform(-1.0, 1.0, size=o.shape).astype(o.dtype), requires_grad=True)
            for o in diff_outs
        )
    else:
        gouts = _as_tuple(grad_outputs)
    n = len(tupled)

    def vjp(*args: Any) -> tuple:
        xs, gs = args[:n], args[n:]
        with enable_grad():
            got = _outputs(func, xs)
        outs_d = [o for o in got if o.requires_grad]
        ins = [xs[k] for k in wanted]
        grads = autograd_grad(outs_d, ins, list(gs), create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        vjp,
        tupled + gouts,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
