# Per-sample gradients the functorch way (before torch.func): make_functional turns the
# model into a function of its parameters.
import torch
import torch.nn as nn
import torch.nn.functional as F
from functorch import make_functional, grad, vmap

torch.manual_seed(0)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


model = TinyNet()
fmodel, params = make_functional(model)
print(fmodel)
print(type(params), len(params))
print([tuple(p.shape) for p in params])
print(params[0].requires_grad, params[0].is_leaf, params[0].grad_fn)

x = torch.randn(5, 3)
y = torch.tensor([0, 1, 1, 0, 1])

# the functional model gives the model's outputs
print(torch.allclose(fmodel(params, x), model(x)))


def loss_fn(params, xi, yi):
    logits = fmodel(params, xi.unsqueeze(0))
    return F.cross_entropy(logits, yi.unsqueeze(0))


# one example's gradient
g = grad(loss_fn)(params, x[0], y[0])
print(len(g))
print(g[1])

# every example's gradient at once
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x, y)
for name, gs in zip(["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"], per_sample):
    print(name, tuple(gs.shape), round(gs.sum().item(), 4))

# the mean of the per-sample gradients is the batch gradient
batch_loss = F.cross_entropy(fmodel(params, x), y)
batch_grads = torch.autograd.grad(batch_loss, params)
print(all(torch.allclose(a.mean(0), b, atol=1e-6) for a, b in zip(per_sample, batch_grads)))

# plain autograd works on the returned parameters too
out = fmodel(params, x).pow(2).sum()
out.backward()
print(params[3].grad)
print(model.fc2.bias.grad)

# the returned parameters are new tensors: the model keeps its own
print(params[0] is model.fc1.weight, torch.equal(params[0], model.fc1.weight))

# disable_autograd_tracking gives parameters that do not require grad
fm2, detached = make_functional(model, disable_autograd_tracking=True)
print([p.requires_grad for p in detached])
print(fm2(detached, x[:2]))

# a model with buffers needs make_functional_with_buffers
try:
    make_functional(nn.BatchNorm1d(3))
except RuntimeError as e:
    print("RuntimeError:", e)
