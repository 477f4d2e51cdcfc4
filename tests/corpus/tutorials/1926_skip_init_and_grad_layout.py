# Making layers without their default initialisation, then choosing the values by hand, and
# how the layout of a non-contiguous parameter's .grad follows torch's layout policy.
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.utils.skip_init(nn.Linear, 4, 2)
print(layer)
print(layer.weight.shape, layer.bias.shape, layer.weight.requires_grad)
# skip_init drew nothing from the generator: this is the seed's first draw
print(torch.rand(3))
with torch.no_grad():
    layer.weight.copy_(torch.arange(8.0).reshape(2, 4) / 10)
    layer.bias.fill_(0.5)
print(layer(torch.ones(1, 4)))

conv = nn.utils.skip_init(nn.Conv1d, 1, 2, kernel_size=3, bias=False, dtype=torch.float64)
nn.init.constant_(conv.weight, 0.25)
print(conv(torch.arange(6.0, dtype=torch.float64).view(1, 1, 6)))

for cls in (nn.ReLU, nn.Module, float):
    try:
        nn.utils.skip_init(cls)
    except RuntimeError as e:
        print("RuntimeError:", e)

# the layout contract: .grad is laid out as its parameter ...
p = torch.zeros(2, 3, 4).permute(2, 0, 1).requires_grad_()
(p * 3).sum().backward()
print(p.stride(), p.grad.stride(), p.grad.is_contiguous())
# ... unless the policy is relaxed: the gradient the pass made is kept as it is
p.grad = None
with torch.autograd.enforce_grad_layout_policy(False):
    (p * 3).sum().backward()
print(p.grad.stride(), p.grad.is_contiguous(), p.grad[0, 0])
p.grad = None
(p * p).sum().backward()
print(p.grad.stride())

w = torch.ones(3, 2).t().requires_grad_()
torch.autograd.enforce_grad_layout_policy(False)
(w.exp() * 2).sum().backward()
print(w.grad.stride())
torch.autograd.enforce_grad_layout_policy(True)
w.grad = None
(w * 2).sum().backward()
print(w.grad.stride())

# an activation-memory budget only means something under torch.compile
x = torch.ones(3, requires_grad=True)
try:
    with torch.autograd.graph.region_activation_memory_budget(0.5):
        y = (x * 2).sum()
except RuntimeError as e:
    print(e)
for bad in (2.0, "half"):
    try:
        torch.autograd.graph.region_activation_memory_budget(bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
