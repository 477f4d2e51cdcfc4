# Training a tiny model "functionally": the parameters live in a dict, torch.func.grad
# differentiates the loss with respect to all of them at once, and has_aux carries the
# predictions out for logging.
import torch
from torch.func import grad, grad_and_value

params = {"w": torch.tensor([0.1, -0.2]), "b": torch.tensor(0.0)}
X = torch.tensor([[1.0, 2.0], [2.0, 0.5], [-1.0, 1.0], [0.0, -1.0]])
Y = torch.tensor([1.0, 2.5, -0.5, -1.0])


def loss_fn(p, x, y):
    pred = x @ p["w"] + p["b"]
    return ((pred - y) ** 2).mean(), pred


for step in range(5):
    grads, pred = grad(loss_fn, has_aux=True)(params, X, Y)
    params = {k: params[k] - 0.1 * grads[k] for k in params}
    print(step, grads["w"], grads["b"])

(g, (value, pred)) = grad_and_value(loss_fn, has_aux=True)(params, X, Y)
print(f"loss {value.item():.4f}")
print(pred)
print(sorted(g.keys()))

# argnums picks which arguments to differentiate: here the inputs, not the parameters
gx = grad(lambda x, p: loss_fn(p, x, Y)[0])(X, params)
print(gx)
