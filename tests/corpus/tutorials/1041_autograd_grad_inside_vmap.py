# Per-sample gradients the old way: torch.autograd.grad called inside vmap. PyTorch's autograd
# runs beneath the batching, so a tensor mapped over has no grad_fn there; the fix is
# vmap(grad(f)). A tensor that does not depend on the mapped inputs still differentiates.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, stack_module_state, vmap

torch.manual_seed(0)

xs = torch.randn(4, 3, requires_grad=True)
w = torch.randn(3, requires_grad=True)


def per_sample(x):
    loss = (x * w).sum() ** 2
    print(x.requires_grad, x.is_leaf, x.grad_fn, loss.requires_grad, loss.grad_fn)
    print(w.requires_grad, w.is_leaf, (w * 2).grad_fn is not None)
    return torch.autograd.grad(loss, w)


try:
    vmap(per_sample)(xs)
except RuntimeError as e:
    print("per_sample:", e)


def wrt_input(x):
    return torch.autograd.grad((w * w).sum(), [w, x], allow_unused=True)


try:
    vmap(wrt_input)(xs)
except RuntimeError as e:
    print("wrt_input:", e)


def two_losses(x):
    return torch.autograd.grad([(w * w).sum(), (x * w).sum()], w)


try:
    vmap(two_losses)(xs)
except RuntimeError as e:
    print("two_losses:", e)


def unbatched_part(x):
    (gw,) = torch.autograd.grad((w**3).sum(), w)
    return gw * x


print(vmap(unbatched_part)(xs))

# the torch.func way of the same per-sample gradient
print(vmap(grad(lambda x: (x * w).sum() ** 2))(xs))

# ensembles: stacked parameters, a loss per model, then autograd.grad per model from outside
models = [nn.Linear(3, 1) for _ in range(3)]
params, buffers = stack_module_state(models)


def model_loss(p, b, x):
    return functional_call(models[0], (p, b), (x,)).pow(2).mean()


losses = vmap(model_loss, in_dims=(0, 0, None))(params, buffers, xs.detach())
print(losses)
(gb,) = torch.autograd.grad(losses.sum(), params["bias"])
print(gb)


def grad_of_loss(loss, weight):
    return torch.autograd.grad(loss, weight)


try:
    vmap(grad_of_loss)(losses, params["weight"])
except RuntimeError as e:
    print("grad_of_loss:", e)

# outside vmap, is_grads_batched checks grad_outputs' shapes before the outputs
a = torch.ones(2, requires_grad=True)
try:
    torch.autograd.grad(
        [a * 2, a.detach() * 2], a, [torch.ones(3, 2), torch.ones(2)], is_grads_batched=True
    )
except RuntimeError as e:
    print("batched:", e)
try:
    torch.autograd.grad(
        [a * 2, a.detach() * 2], a, [torch.ones(3, 2), torch.ones(3, 2)], is_grads_batched=True
    )
except RuntimeError as e:
    print("batched:", e)
