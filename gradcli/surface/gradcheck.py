"""`torch.autograd.gradcheck` and `gradgradcheck`: PyTorch's checks of a function's gradients,
step for step as PyTorch's (slow, default) mode takes them, so that a function or a custom
backward that prints or counts sees the same calls, and an error shows the same numbers.

For every input that requires grad, the numerical Jacobian by central differences with the
absolute step `eps`: each element set to `x - eps`, then to `x + eps` (in the input's dtype),
the function run at both, `(b - a) / (2 * eps)` in the output's dtype. That is PyTorch's own
difference, kept here on purpose as its comparison rule is (a program's `gradcheck` must answer
as PyTorch's does); gradcli's own verdicts (`gradcli check`, `jacobian --compare`) use the one
finite-difference engine (`core.differences`) and `analysis.compare`. The analytical Jacobian
by one backward pass per output element, twice (a backward must be reentrant: the two within
`nondet_tol`); each (output, input) pair compared by `torch.allclose`'s rule,
`|analytical - numerical| <= atol + rtol * |numerical|`. Then one backward pass with zero
output gradients (backward must multiply by grad_output) and, with `check_undefined_grad`, the
function run again and one more backward pass with undefined output gradients (zeros to a
custom Function's backward). `fast_mode` is taken as the slow mode (the verdict is the same for
correct gradients; PyTorch's random projections are not drawn).

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
from ..core.tensor import Tensor, enable_grad, no_grad

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
    """d outputs / d inputs[k] by central differences, as PyTorch's gradcheck takes them: one
    (n_in, n_out) matrix per output in the output's dtype; for each element in order, the
    input's element set to `x - eps` then to `x + eps` (each computed in the input's dtype),
    the function run at each, and `(b - a) / (2 * eps)` in the output's dtype (not divided by
    the steps actually taken: PyTorch's numbers, its rounding included).

    As PyTorch, the element is changed in the input itself (its `.data`: no version counted),
    so a function that also reaches the tensor another way (a module's parameter passed as an
    input too) sees the change; the input's value is put back after each element."""
    from ..core.inplace import write

    x = inputs[k]
    base = np.array(x.data, copy=True)
    flat = base.reshape(-1)
    n_in = int(flat.size)
    mats: list[np.ndarray] | None = None
    try:
        for j in range(n_in):
            hooks.observer.tick()
            with no_grad():
                entry = Tensor(flat[j : j + 1].reshape(()).copy())
                moved = ((entry - eps).data, (entry + eps).data)
            runs = []
            for value in moved:
                arr = base.copy()
                arr.reshape(-1)[j] = value
                write(x, arr, versioned=False)
                # evaluated with grad mode on, as PyTorch evaluates it
                with enable_grad():
                    runs.append(_outputs(func, list(inputs)))
            write(x, base, versioned=False)
            a, b = runs
            if mats is None:
                mats = [np.zeros((n_in, n), dtype=o.dtype) for o, n in zip(a, sizes)]
            with no_grad(), np.errstate(all="ignore"):
                for m, oa, ob in zip(mats, a, b):
                    d = (Tensor(ob.data) - Tensor(oa.data)) / (2 * eps)
                    m[j, :] = np.asarray(d.data).reshape(-1)
    finally:
        write(x, base, versioned=False)
    if mats is None:
        mats = [np.zeros((0, n)) for n in sizes]
    return mats


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
            # As PyTorch: every row twice (a backward must give the same gradient again).
            refused = hooks.refusals
            analytical = _analytical(outs[i], tupled, wanted)
            again = _analytical(outs[i], tupled, wanted)
            if not _reentrant(analytical, again, nondet_tol) and hooks.refusals != refused:
                # a budget of PyTorch's exact orders ran out during the two runs (gradcli
                # then computes in NumPy's order, said on stderr): both again in that order
                with hooks.fast_paths():
                    analytical = _analytical(outs[i], tupled, wanted)
                    again = _analytical(outs[i], tupled, wanted)
            if not _reentrant(analytical, again, nondet_tol):
                raise GradcheckError(_NOT_REENTRANT.format(nondet_tol))
            for j, k in enumerate(wanted):
                a, n = analytical[j], numerical[j][i]
                if not _close(a, n, atol, rtol):
                    dtype = tupled[k].dtype
                    raise GradcheckError(
                        f"Jacobian mismatch for output {differentiable.index(i)} with respect "
                        f"to input {j},\nnumerical:{_shown(n, n.dtype)}\n"
                        f"analytical:{_shown(a, dtype)}\n"
                    )
        diff_outs = [outs[i] for i in differentiable]
        _multiplied_by_grad_output(diff_outs, tupled, wanted)
        if check_undefined_grad:
            _undefined_grads(func, tupled, wanted, len(diff_outs))
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


_NOT_REENTRANT = (
    "Backward is not reentrant, i.e., running backward with same input and grad_output "
    "multiple times gives different values, although analytical gradient matches numerical "
    "gradient.The tolerance for nondeterminism was {}."
    """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""
)
_UNDEFINED_NOTES = (
    'Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'
)


def _reentrant(a: list[np.ndarray], b: list[np.ndarray], tol: float) -> bool:
    """PyTorch's check of the two passes: no entry apart by more than `tol` (nan never is)."""
    with np.errstate(all="ignore"):
        return not any(x.size and np.max(np.abs(x - y)) > tol for x, y in zip(a, b))


def _zero_grads(outs: list[Tensor], tupled: tuple, wanted: list[int]) -> tuple:
    """The inputs' gradients for zero output gradients (one backward pass, as PyTorch's)."""
    hooks.observer.tick()
    zeros = [Tensor(np.zeros(o.shape, dtype=o.dtype)) for o in outs]
    return autograd_grad(outs, [tupled[k] for k in wanted], zeros, allow_unused=True)


def _multiplied_by_grad_output(outs: list[Tensor], tupled: tuple, wanted: list[int]) -> None:
    """PyTorch's check that backward multiplies by grad_output: zero output gradients give zero
    input gradients, of the inputs' dtypes and sizes."""
    grads = _zero_grads(outs, tupled, wanted)
    for g, k in zip(grads, wanted):
        if g is None:
            continue
        if np.any(g.data != 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != tupled[k].dtype:
            raise GradcheckError("grad is incorrect type")
        if g.shape != tupled[k].shape:
            raise GradcheckError("grad is incorrect size")


def _undefined_grads(func: Callable[..., Any], tupled: tuple, wanted: list[int], n: int) -> None:
    """PyTorch's check that a backward copes with undefined output gradients (a custom
    Function's backward gets zeros for them): the function run again (once more per output
    when it has several, each with one gradient undefined), then one backward pass each."""
    runs = 1 + (n if n > 1 else 0)
    checks = []
    for _ in range(runs):
        with enable_grad():
            checks.append([o for o in _outputs(func, tupled) if o.requires_grad])
    for outs in checks:
        try:
            grads = _zero_grads(outs, tupled, wanted)
        except GradcheckError:
            raise
        except GradcliError as e:
            if e.python_class not in (None, "RuntimeError"):
                raise
            raise GradcheckError(
                f"Expected backward function to handle undefined output grads. {_UNDEFINED_NOTES}"
            ) from None
        if any(g is not None and np.any(g.data != 0) for g in grads):
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are "
                f"undefined or zero. {_UNDEFINED_NOTES}"
            )


def _drawn_grad_output(o: Tensor, uniform_: Callable[..., Tensor]) -> Tensor:
    with no_grad():
        g = uniform_(Tensor(np.zeros(o.shape, dtype=o.dtype)), -1.0, 1.0)
    g.requires_grad = True
    return g


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
        # PyTorch draws them with torch.testing.make_tensor: an empty tensor of the output's
        # shape and dtype filled by uniform_(-1, 1) from the global generator (so the program's
        # later draws are the numbers PyTorch's are).
        from .sampling import uniform_

        gouts = tuple(_drawn_grad_output(o, uniform_) for o in diff_outs)
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
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
    )
