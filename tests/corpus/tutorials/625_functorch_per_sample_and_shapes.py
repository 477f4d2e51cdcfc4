# Per-sample gradients the way the old functorch README shows them, a few shape idioms,
# a learning-rate schedule inspected with get_lr(), and weights read as NumPy under no_grad.
import torch
import numpy as np
from functorch import vmap, grad

torch.manual_seed(3)
n_samples, n_features = 4, 3
weights = torch.randn(n_features, requires_grad=True)
examples = torch.randn(n_samples, n_features)
targets = torch.randn(n_samples)


def model(w, x):
    return x.dot(w).relu()


def loss_fn(w, x, t):
    return ((model(w, x) - t) ** 2).mean()


per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(weights, examples, targets)
print(per_sample)
print("mean of the per-sample gradients:", per_sample.mean(0))

# the same through the usual backward, for comparison
loss = torch.stack([loss_fn(weights, x, t) for x, t in zip(examples, targets)]).mean()
loss.backward()
print("batch gradient:", weights.grad)
print(torch.allclose(per_sample.mean(0), weights.grad))

# shapes: a batch axis in front, a channel axis at the end
image = torch.arange(12.0).reshape(3, 4)
batched = image.reshape((1, 1) + image.shape)
print(batched.shape, image.shape + (1,), image.shape * 2)

# the schedule: get_last_lr() is the rate in use, get_lr() the next step's formula
layer = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.step()
    sched.step()
    print(f"epoch {epoch}: in use {sched.get_last_lr()[0]:.4f}, get_lr() {sched.get_lr()[0]:.4f}")

# NumPy copies of the weights, read under no_grad
with torch.no_grad():
    w_np = weights.numpy()
    print(type(w_np).__name__, np.round(w_np, 4), float(np.abs(w_np).sum()) > 0)
