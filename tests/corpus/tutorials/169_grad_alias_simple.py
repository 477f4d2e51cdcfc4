import torch

x = torch.tensor(1.5, requires_grad=True)
y = 2 * x
y.backward()
grad = x.grad
print(grad)

z = 3 * x
z.backward()
print(grad)   # x.grad was accumulated in place: grad sees it
print(x.grad)

x.grad.data.zero_()
print(grad)
