import torch

torch.manual_seed(0)
# "why is my weight's grad None?": the scaling makes w a non-leaf
w = torch.randn(3, requires_grad=True) * 0.01
x = torch.tensor([1.0, 2.0, 3.0])
loss = (w * x).sum()
loss.backward()
print(w.is_leaf, w.grad)

# fix: scale first, then ask for gradients
w = (torch.randn(3) * 0.01).requires_grad_()
loss = (w * x).sum()
loss.backward()
print(w.is_leaf, w.grad)

# a dtype conversion also creates a non-leaf
v = torch.ones(2, requires_grad=True).double()
(v * 2).sum().backward()
print(v.grad, v.grad_fn.name())

# retain_grad keeps the grad of the intermediate
h = torch.ones(2, requires_grad=True) * 3
h.retain_grad()
(h ** 2).sum().backward()
print(h.grad, h.retains_grad)
