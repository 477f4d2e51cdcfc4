# Swapping two tensors in place: every name (and every module or optimizer) that holds one of
# them keeps the same object, which now carries the other's values, shape, dtype and flags.
import torch
import torch.nn as nn

torch.manual_seed(3)

small = torch.arange(2)
big = torch.arange(5, dtype=torch.float64).reshape(1, 5)
small_again = small
torch.utils.swap_tensors(small, big)
print(small, small.shape, small.dtype)
print(big, big.shape, big.dtype)
print("same object:", small_again is small)

# attributes and gradients travel with the contents
a = torch.tensor([1.0, -2.0], requires_grad=True)
a.note = "first"
(a * 3).sum().backward()
b = torch.zeros(3)
b.note = "second"
torch.utils.swap_tensors(a, b)
print(a, a.grad, a.note, a.requires_grad)
print(b, b.grad, b.note, b.requires_grad)

# a module's parameter replaced behind the optimizer's back
model = nn.Linear(2, 1, bias=False)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
held = model.weight
fresh = nn.Parameter(torch.tensor([[0.25, -0.5]]))
torch.utils.swap_tensors(model.weight, fresh)
print(held is model.weight, opt.param_groups[0]["params"][0] is model.weight)
print(model.weight)
loss = model(torch.tensor([[2.0, 4.0]])).pow(2).sum()
print(round(loss.item(), 4))
loss.backward()
opt.step()
print(model.weight)
print(type(fresh).__name__, fresh.shape)

# a graph recorded before the swap cannot send gradients to the swapped leaf
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([5.0, 6.0], requires_grad=True)
total = x.sum()
torch.utils.swap_tensors(x, y)
try:
    total.backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:56])
print(x.grad, y.grad)

try:
    torch.utils.swap_tensors(x, [1.0, 2.0])
except AttributeError as err:
    print("AttributeError:", err)
