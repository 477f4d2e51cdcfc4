import torch

a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b)
print(a + b)

X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
print(X[-1], X[1:3])

X[1, 2] = 17
print(X)

X[:2, :] = 12
print(X)

X[1:, ::2] = -1
print(X)
