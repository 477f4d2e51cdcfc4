# Freezing parameters for one forward pass and unfreezing them before backward: the ops
# recorded while a parameter needed no gradient have no edge to it, so it gets nothing from
# them (what PyTorch does; a common surprise in GAN and distillation code).
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # (float32 products differ by CPU in the last digit)
net = torch.nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)

warm = net(x).pow(2).sum()          # recorded while the parameters require grad
for p in net.parameters():
    p.requires_grad_(False)
frozen = net(x).sum()                # recorded while they do not
for p in net.parameters():
    p.requires_grad_(True)

(warm + 10 * frozen).backward()
print(net.weight.grad)
print(net.bias.grad)
print(x.grad)
print([(f if f is None else f.name(), k) for f, k in frozen.grad_fn.next_functions])

# a plain tensor switched on after use
w = torch.tensor([2.0, -1.0])
b = torch.tensor(0.5)
y = (x[0, :2] * w).sum() + b
w.requires_grad_()
b.requires_grad = True
y.backward()
print(w.grad, b.grad)
print([f.name() for f, _ in (x[0, :2] * w).sum().grad_fn.next_functions[0][0].next_functions])
try:
    torch.autograd.grad((x[1, :2] * w.detach()).sum() * b, [w])
except RuntimeError as e:
    print("RuntimeError:", e)
