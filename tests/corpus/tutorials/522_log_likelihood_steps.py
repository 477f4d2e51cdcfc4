# A small Poisson regression fitted with plain gradient descent:
# the rate is exp(w * t + b), the loss the negative log-likelihood.
import torch

torch.manual_seed(3)
t = torch.linspace(0, 2, 25)
counts = torch.poisson(torch.exp(0.8 * t + 0.3))

w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.02
for step in range(30):
    rate = torch.exp(w * t + b)
    loss = (rate - counts * torch.log(rate)).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.8f} w {w.item():.8f} b {b.item():.8f}")

rate = torch.exp(w * t + b)
print("fitted rates:", rate.detach())
print("log of the rates:", torch.log(rate).detach())
print("std of residuals:", torch.sqrt(((counts - rate) ** 2).mean()).item())
