import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()

print(x.grad)
# y is not a leaf: its .grad is not kept (PyTorch warns about it)
print(y.grad)
print(y.is_leaf)
