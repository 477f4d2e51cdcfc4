import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2

try:
    y.backward()
except RuntimeError as e:
    print(e)

try:
    y.backward(torch.ones(2), retain_graph=True)
except RuntimeError as e:
    print(e)

try:
    y.backward(torch.ones(3, dtype=torch.float64), retain_graph=True)
except RuntimeError as e:
    print(e)

y.backward(torch.tensor([0.1, 1.0, 0.0001]))
print(x.grad)

z = (x * x).unsqueeze(0)
z.backward(torch.ones_like(z))
print(x.grad)
