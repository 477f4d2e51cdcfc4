"""The PyTorch reference: the one module that runs program text under PyTorch (as Python), and
only for `gradcli check --against torch`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base.errors import GradcliError


def torch_jacobian(
    text: str, filename: str, of: str, names: list[str], leaves: dict[str, np.ndarray]
) -> tuple[dict[str, np.ndarray], bool]:
    """Run the program text as real PyTorch code and take the Jacobian by masked passes.

    THIS EXECUTES THE PROGRAM AS PYTHON (the only place gradcli does): it is called only for
    `gradcli check --against torch`. Returns the Jacobians and whether PyTorch computed in
    float32. `leaves` (name -> value in gradcli) must equal PyTorch's values, else the two are
    not comparable (a GradcliError says so).
    """
    try:
        import torch
    except ImportError:
        raise GradcliError(
            "--against torch needs PyTorch, which is not installed",
            hint="pip install torch, or leave out --against",
        ) from None
    import builtins
    import warnings

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
    # The program may free its graph (a last backward() without retain_graph): keep it.
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

    try:
        code = compile(text, filename, "exec")
    except SyntaxError as e:
        raise GradcliError(f"PyTorch: the program is not valid Python: {e.msg}") from None
    torch.manual_seed(0)
    default_dtype = torch.get_default_dtype()
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
        # gradcli's default dtype is float64 (PyTorch's float32); FloatTensor stays float32.
        torch.set_default_dtype(torch.float64)
        for n in drawing:
            setattr(torch, n, namespace[n])
        torch.Tensor.backward = t_backward  # type: ignore[method-assign]
        torch.autograd.backward = a_backward  # type: ignore[assignment]
        torch.autograd.grad = a_grad  # type: ignore[assignment]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(code, namespace)  # noqa: S102 - `--against torch` only, documented
    except Exception as e:  # noqa: BLE001 - any failure of the user's code in PyTorch
        raise GradcliError(
            f"the program does not run in PyTorch: {type(e).__name__}: {e}",
            hint="--against torch runs the program text as real PyTorch code; "
            "gradcli accepts some things PyTorch does not",
        ) from None
    finally:
        torch.set_default_dtype(default_dtype)
        for n, fn in drawing.items():
            setattr(torch, n, fn)
        torch.Tensor.backward = saved[0]  # type: ignore[method-assign]
        torch.autograd.backward, torch.autograd.grad = saved[1], saved[2]  # type: ignore[assignment]
    for n, v in leaves.items():
        t = namespace.get(n)
        if isinstance(t, torch.Tensor):
            tv = t.detach().cpu().numpy().astype(np.float64)
            if tv.shape != v.shape or not np.allclose(tv, v, rtol=1e-6, atol=1e-7):
                raise GradcliError(
                    f"PyTorch's `{n}` has other values than gradcli's",
                    hint="random numbers (rand/randn) differ between PyTorch and gradcli, and "
                    "--set does not reach PyTorch: give the inputs literal values to compare",
                )
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
        mask = torch.zeros(n_out, dtype=out.dtype)
        mask[i] = 1
        grads = saved[2](
            out, ins, grad_outputs=mask.reshape(out.shape), retain_graph=True, allow_unused=True
        )
        for n, g in zip(names, grads):
            if g is not None:
                result[n][i] = g.detach().cpu().numpy().astype(np.float64).reshape(-1)
    low = out.dtype == torch.float32 or any(t.dtype == torch.float32 for t in ins)
    return result, bool(low)
