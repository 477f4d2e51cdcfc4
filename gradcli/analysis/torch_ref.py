"""The PyTorch reference: the one module that runs program text under PyTorch (as Python), and
only for `gradcli check --against torch`.

The two runs must compute the same function at the same values before their derivatives can
be compared. After PyTorch's run every tensor the program names is compared with gradcli's
(not only the leaves that require grad: a random constant `W = torch.randn(3, 3)` matters as
much). Leaves whose values differ (random numbers drawn by another generator, `--set`, which
does not reach PyTorch) are replaced by gradcli's values where they are created, in a second
run of the text with that one assignment rewritten (`W = <gradcli's W>`); the comparison is
then repeated. What still differs is reported, never blamed on a derivative rule.
"""

from __future__ import annotations

import ast
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..base.record import Record


class TorchReference(Record):
    """PyTorch's Jacobians of a program, and how its run relates to gradcli's."""

    _fields = ("jacobians", "low_precision", "replaced", "differing", "computed")
    _defaults = {"replaced": list, "differing": list, "computed": list}
    jacobians: dict[str, np.ndarray]  # name -> (n_out, n_in)
    low_precision: bool  # PyTorch computed in float32
    replaced: list[str]  # leaves given gradcli's values in PyTorch's run
    differing: list[str]  # leaves whose values still differ (not comparable)
    computed: list[str]  # computed tensors that differ although every leaf agrees


def _namespace(torch: Any) -> dict[str, Any]:
    import builtins

    from ..surface.names import FUNCTIONS

    namespace: dict[str, Any] = {
        "__name__": "__gradcli_check__",
        "__builtins__": builtins,
        "print": lambda *a, **k: None,
    }
    # The names a gradcli program may use without importing them: torch's own.
    for name in FUNCTIONS:
        for owner in (torch, torch.nn.functional, torch.autograd):
            if hasattr(owner, name):
                namespace[name] = getattr(owner, name)
                break
    namespace.update(
        {
            "torch": torch,
            "nn": torch.nn,
            "F": torch.nn.functional,
            "autograd": torch.autograd,
            "numpy": np,
            "np": np,
        }
    )
    return namespace


def _assigned_once(tree: ast.Module) -> dict[str, ast.Assign]:
    """Names bound exactly once in the whole program, by a top-level `name = ...`: their
    value at the end is the one created by that statement (if nothing changes it)."""
    counts: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    out: dict[str, ast.Assign] = {}
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and counts.get(stmt.targets[0].id) == 1
        ):
            out[stmt.targets[0].id] = stmt
    return out


HOOK = "__gradcli_value__"


def _rewrite(tree: ast.Module, names: set[str]) -> ast.Module:
    """The program with `name = expr` become `name = __gradcli_value__("name", expr)` for
    each of `names` (top-level assignments)."""
    tree = ast.parse(ast.unparse(tree))  # a copy
    once = _assigned_once(tree)
    for name in names:
        stmt = once.get(name)
        if stmt is None:
            continue
        stmt.value = ast.Call(
            func=ast.Name(id=HOOK, ctx=ast.Load()),
            args=[ast.Constant(value=name), stmt.value],
            keywords=[],
        )
    return ast.fix_missing_locations(tree)


def _run(torch: Any, code: Any, namespace: dict[str, Any]) -> None:
    """Execute the compiled program under PyTorch. The program may free its graph (a last
    backward() without retain_graph): every backward keeps it."""
    import warnings

    saved = (torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad)

    def t_backward(
        self: Any,
        gradient: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        saved[0](self, gradient, True, create_graph, inputs)

    def a_backward(
        tensors: Any,
        grad_tensors: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        *a: Any,
        **k: Any,
    ) -> None:
        saved[1](tensors, grad_tensors, True, create_graph, *a, **k)

    def a_grad(
        outputs: Any,
        inputs: Any,
        grad_outputs: Any = None,
        retain_graph: Any = None,
        create_graph: bool = False,
        *a: Any,
        **k: Any,
    ) -> Any:
        return saved[2](outputs, inputs, grad_outputs, True, create_graph, *a, **k)

    torch.manual_seed(0)
    default_dtype = torch.get_default_dtype()
    alarm = _Alarm()
    # gradcli draws random numbers in PyTorch's float32 default and widens them, so that the
    # analysis (in float64) runs on PyTorch's numbers: the reference draws the same way.
    drawing = {n: getattr(torch, n) for n in ("rand", "randn", "rand_like", "randn_like")}

    def widened(fn: Any) -> Any:
        def draw(*a: Any, **k: Any) -> Any:
            if k.get("dtype") is not None:
                return fn(*a, **k)
            grad = bool(k.pop("requires_grad", False))
            out = fn(*a, dtype=torch.float32, **k).to(torch.float64)
            return out.requires_grad_() if grad else out

        return draw

    for n, fn in drawing.items():
        namespace[n] = widened(fn)
    try:
        alarm.start()
        # gradcli's analyses compute in float64 (PyTorch's default is float32).
        torch.set_default_dtype(torch.float64)
        for n in drawing:
            setattr(torch, n, namespace[n])
        torch.Tensor.backward = t_backward  # type: ignore[method-assign]
        torch.autograd.backward = a_backward  # type: ignore[assignment]
        torch.autograd.grad = a_grad  # type: ignore[assignment]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)  # noqa: S102 - `--against torch` only, documented
    except _OverTime:
        from ..base import limits

        limits.BUDGET.tick()  # raises the time limit's own error
        raise GradcliError("PyTorch's run of the program went over the time limit") from None
    except Exception as e:  # noqa: BLE001 - any failure of the user's code in PyTorch
        raise GradcliError(
            f"the program does not run in PyTorch: {type(e).__name__}: {e}",
            hint="--against torch runs the program text as real PyTorch code; "
            "gradcli accepts some things PyTorch does not",
        ) from None
    finally:
        alarm.stop()
        torch.set_default_dtype(default_dtype)
        for n, fn in drawing.items():
            setattr(torch, n, fn)
        torch.Tensor.backward = saved[0]  # type: ignore[method-assign]
        torch.autograd.backward, torch.autograd.grad = saved[1], saved[2]  # type: ignore[assignment]


class _OverTime(BaseException):
    """Raised by SIGALRM in PyTorch's run of the program at the command's time limit (a
    BaseException: the program's own `except Exception` does not catch it)."""


class _Alarm:
    """The time limit for code gradcli cannot tick inside (PyTorch running the program): a
    SIGALRM at the command's deadline, on the main thread (elsewhere, no bound)."""

    def __init__(self) -> None:
        self.old: Any = None

    def start(self) -> None:
        import signal
        import threading

        from ..base import limits

        left = limits.BUDGET.remaining()
        if (
            left is None
            or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
        ):
            return

        def on_alarm(*_: Any) -> None:
            raise _OverTime

        self.old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))

    def stop(self) -> None:
        import signal

        if self.old is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)
            self.old = None


def _differs(torch: Any, t: Any, v: np.ndarray) -> bool:
    a = t.detach().cpu().numpy()
    if a.shape != v.shape:
        return True
    if a.dtype.kind not in "fc" or v.dtype.kind not in "fc":
        return not np.array_equal(a, v)
    low = t.dtype in (torch.float32, torch.float16, torch.bfloat16)
    tol = 1e-5 if low else 1e-9
    return not np.allclose(a.astype(np.float64), v, rtol=tol, atol=tol, equal_nan=True)


def _compare_values(
    torch: Any, namespace: dict[str, Any], values: dict[str, tuple[np.ndarray, bool]]
) -> tuple[list[str], list[str]]:
    """The leaves and the computed tensors whose values differ between the two runs."""
    leaves, computed = [], []
    for n, (v, is_leaf) in values.items():
        t = namespace.get(n)
        if isinstance(t, torch.Tensor) and _differs(torch, t, v):
            (leaves if is_leaf else computed).append(n)
    return leaves, computed


def torch_jacobian(
    text: str,
    filename: str,
    of: str,
    names: list[str],
    values: dict[str, tuple[np.ndarray, bool]],
) -> TorchReference:
    """Run the program text as real PyTorch code and take the Jacobians of `of` with respect
    to `names` by masked `torch.autograd.grad` passes.

    THIS EXECUTES THE PROGRAM AS PYTHON (the only place gradcli does): it is called only for
    `gradcli check --against torch`. `values`: gradcli's tensors by name, (value, is a leaf);
    see the module's docstring for how differing values are handled."""
    try:
        import torch
    except ImportError:
        raise GradcliError(
            "--against torch needs PyTorch, which is not installed",
            hint="pip install torch, or leave out --against",
        ) from None
    try:
        tree = ast.parse(text, filename)
        code = compile(tree, filename, "exec")
    except SyntaxError as e:
        raise GradcliError(f"PyTorch: the program is not valid Python: {e.msg}") from None
    namespace = _namespace(torch)
    _run(torch, code, namespace)
    leaves, computed = _compare_values(torch, namespace, values)
    replaced: list[str] = []
    if leaves:
        once = _assigned_once(tree)
        can = {n for n in leaves if n in once}
        if can:

            def hook(name: str, value: Any) -> Any:
                if not isinstance(value, torch.Tensor) or value.grad_fn is not None:
                    return value
                v = values[name][0]
                if tuple(value.shape) != v.shape:
                    return value
                new = torch.tensor(v, dtype=value.dtype)
                return new.requires_grad_() if value.requires_grad else new

            namespace = _namespace(torch)
            namespace[HOOK] = hook
            _run(torch, compile(_rewrite(tree, can), filename, "exec"), namespace)
            still, computed = _compare_values(torch, namespace, values)
            replaced = sorted(can - set(still), key=leaves.index)
            leaves = still
    differing = leaves
    jacobians: dict[str, np.ndarray] = {}
    low = False
    if not differing:
        jacobians, low = _jacobians(torch, namespace, of, names)
    return TorchReference(jacobians, low, replaced, differing, [] if differing else computed)


def _jacobians(
    torch: Any, namespace: dict[str, Any], of: str, names: list[str]
) -> tuple[dict[str, np.ndarray], bool]:
    from ..base import limits

    out = namespace.get(of)
    if not isinstance(out, torch.Tensor) or not out.requires_grad:
        raise GradcliError(f"PyTorch: `{of}` is not a tensor that requires grad")
    ins = []
    for n in names:
        t = namespace.get(n)
        if not isinstance(t, torch.Tensor) or not t.requires_grad:
            raise GradcliError(f"PyTorch: `{n}` is not a tensor that requires grad")
        ins.append(t)
    n_out = out.numel()
    result = {n: np.zeros((n_out, t.numel())) for n, t in zip(names, ins)}
    for i in range(n_out):
        limits.BUDGET.tick()
        mask = torch.zeros(n_out, dtype=out.dtype)
        mask[i] = 1
        grads = torch.autograd.grad(
            out, ins, grad_outputs=mask.reshape(out.shape), retain_graph=True, allow_unused=True
        )
        for n, g in zip(names, grads):
            if g is not None:
                result[n][i] = g.detach().cpu().numpy().astype(np.float64).reshape(-1)
    low = out.dtype == torch.float32 or any(t.dtype == torch.float32 for t in ins)
    return result, bool(low)
