import torch

W = torch.tensor([[1.0, 2.0, 0.0], [-1.0, 0.5, 3.0]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
x = torch.tensor([1.0, 2.0, -1.0])

y = W @ x + b
print(y)
loss = (y ** 2).sum()
loss.backward()

print(W.grad)
print(b.grad)
# dloss/dW = 2 y x^T
print(torch.outer(2 * y, x))
