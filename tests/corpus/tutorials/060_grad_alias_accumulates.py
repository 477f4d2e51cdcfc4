import torch

x = torch.tensor(1.0, requires_grad=True)
(2 * x).backward()
g = x.grad
print(g)

(3 * x).backward()
print(g)          # the same tensor, accumulated in place
print(x.grad)
print(g is x.grad)

x.grad.zero_()
print(g)
