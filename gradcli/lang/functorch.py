"""`functorch`, the old name of torch.func that PyTorch 2.13 still ships: its transforms
(grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap) are torch.func's, and
make_functional / make_functional_with_buffers / combine_state_for_ensemble turn modules into
functions of their parameters (`fmodel(params, x)`). Each call gives PyTorch's FutureWarning
(its category FutureWarning, from the program's line, under the program's warnings filters)."""

from __future__ import annotations

from typing import Any

from .values import Builtin


def warning(api: str, new_api: str | None = None) -> str:
    return (
        "We've integrated functorch into PyTorch. As the final step of the integration, "
        f"`functorch.{api}` is deprecated as of PyTorch 2.0 and will be deleted in a future "
        f"version of PyTorch >= 2.3. Please use `{new_api or 'torch.func.' + api}` instead; "
        "see the PyTorch 2.0 release notes and/or the `torch.func` migration guide for more "
        "details https://pytorch.org/docs/main/func.migrating.html"
    )


def deprecated(api: str, new_api: str | None = None) -> None:
    """PyTorch's FutureWarning for a call of `functorch.<api>`."""
    from .values import current

    current().python_warning(warning(api, new_api), "FutureWarning", "__main__")


def _copy(model: Any) -> Any:
    from .copying import deepcopy

    return deepcopy(model, what="make_functional()")


def make_functional(model: Any, disable_autograd_tracking: Any = False) -> tuple:
    from ..surface import func

    deprecated("make_functional", "torch.func.functional_call")
    return func.make_functional(_copy(model), disable_autograd_tracking, buffers=False)


def make_functional_with_buffers(model: Any, disable_autograd_tracking: Any = False) -> tuple:
    from ..surface import func

    deprecated("make_functional_with_buffers", "torch.func.functional_call")
    return func.make_functional(_copy(model), disable_autograd_tracking, buffers=True)


def combine_state_for_ensemble(models: Any) -> tuple:
    from ..surface import func

    deprecated("combine_state_for_ensemble", "torch.func.stack_module_state")
    made = [func.make_functional(_copy(m), False, True) for m in func.check_ensemble(models)]
    params = func.stack_shards([m[1] for m in made])
    buffers = func.stack_shards([m[2] for m in made])
    return made[0][0], params, buffers


MODULE_FUNCTIONS = {
    f.__name__: Builtin(f"functorch.{f.__name__}", f)
    for f in (make_functional, make_functional_with_buffers, combine_state_for_ensemble)
}
