# Attributes a program gives its tensors, as torch.Tensor keeps them in its __dict__: a tag on
# each parameter sorts them into optimizer groups (weight decay on the weights only), a running
# record hangs on a tensor, and a mistaken `w.retain_grad = True` hides the method (Python's
# TypeError when it is called). Properties without a setter keep PyTorch's AttributeError.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
for name, p in net.named_parameters():
    p.kind = "bias" if name.endswith("bias") else "weight"

groups = [
    {"params": [p for p in net.parameters() if p.kind == "weight"], "weight_decay": 0.1},
    {"params": [p for p in net.parameters() if p.kind == "bias"], "weight_decay": 0.0},
]
opt = torch.optim.SGD(groups, lr=0.1)
print([len(g["params"]) for g in opt.param_groups], sorted(net.state_dict()))

x = torch.randn(8, 3)
target = torch.randn(8, 1)
for step in range(3):
    opt.zero_grad()
    loss = ((net(x) - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.6f}")

# A record kept on the tensor itself.
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w.norms = []
for k in range(3):
    (w * w).sum().backward()
    w.norms.append(round(w.grad.norm().item(), 4))
print(w.norms, hasattr(w, "norms"), getattr(w, "label", "no label"))

# The mistake: an attribute named like a method hides it.
w.retain_grad = True
try:
    w.retain_grad()
except TypeError as e:
    print("TypeError:", e)
del w.retain_grad
h = torch.tanh(w)
h.retain_grad()
h.sum().backward()
print(h.grad)

# Other tensors are other objects: copies follow Python's copy module.
print(hasattr(w.detach(), "norms"), hasattr(w[:2], "norms"), hasattr(w.clone(), "norms"))
shallow, deep = copy.copy(w), copy.deepcopy(w)
print(shallow.norms is w.norms, deep.norms is w.norms, deep.norms == w.norms)

for name in ["shape", "grad_fn", "is_leaf"]:
    try:
        setattr(w, name, None)
    except AttributeError as e:
        print("AttributeError:", e)
try:
    print(w.velocity)
except AttributeError as e:
    print("AttributeError:", e)
