import torch

x = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.6, 0.8]], requires_grad=True)
losses = (x - 0.5) ** 2

try:
    losses.backward()
except RuntimeError as err:
    print(err)

losses.backward(torch.ones_like(losses) / losses.numel())
print(x.grad)

x.grad = None
losses = (x - 0.5) ** 2
losses.mean().backward()
print(x.grad)
