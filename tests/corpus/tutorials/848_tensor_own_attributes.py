# Tagging tensors with attributes of one's own: a per-parameter learning-rate scale read by a
# hand-written SGD step, a name for logging, notes that results and copies do or do not keep.
import copy

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
for name, p in model.named_parameters():
    p.label = name
    p.lr_scale = 0.1 if name.endswith("bias") else 1.0

x = torch.randn(8, 3)
target = x.sum(dim=1, keepdim=True)
for step in range(3):
    loss = torch.nn.functional.mse_loss(model(x), target)
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.lr_scale * p.grad
    print(f"step {step}: loss {loss.item():.4f}")

print([(p.label, p.lr_scale) for p in model.parameters()])

# attributes belong to the tensor object: results, views, clones and detached copies
# start without them
h = x.clone().requires_grad_()
h.note = "input"
y = h * 2
print(hasattr(y, "note"), hasattr(h[0], "note"), hasattr(h.detach(), "note"))

# copy.deepcopy of a plain tensor copies them deeply; of a Parameter (and so of a model), not
h.history = [1, 2]
h2 = copy.deepcopy(h)
h2.history.append(3)
print(h.history, h2.history)
print(hasattr(copy.deepcopy(model)[0].weight, "lr_scale"))

# an attribute of one's own comes before the tensor's methods
h.mean = lambda: "shadowed"
print(h.mean())
del h.mean
print(h.mean().item() == x.mean().item())

try:
    h.shape = (8, 3)
except AttributeError as e:
    print("AttributeError:", e)
try:
    del h.history
    print(h.history)
except AttributeError as e:
    print("AttributeError:", e)
