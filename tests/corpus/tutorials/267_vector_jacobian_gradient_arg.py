import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = a ** 2 + 3 * a
b.backward(gradient=torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
print(a.grad)
try:
    (a * 2).backward()
except RuntimeError as e:
    print(e)
