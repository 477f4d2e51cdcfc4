# Plain SGD, momentum, Nesterov and weight decay compared on the same small least-squares
# problem; the loss after each block of steps.
import torch

torch.manual_seed(0)
A = torch.randn(20, 3)
b = A @ torch.tensor([1.0, -2.0, 0.5]) + 0.1 * torch.randn(20)

configs = {
    "sgd": dict(lr=0.01),
    "momentum": dict(lr=0.01, momentum=0.9),
    "nesterov": dict(lr=0.01, momentum=0.9, nesterov=True),
    "dampening": dict(lr=0.01, momentum=0.9, dampening=0.5),
    "weight_decay": dict(lr=0.01, momentum=0.5, weight_decay=0.1),
}
for name, kwargs in configs.items():
    x = torch.zeros(3, requires_grad=True)
    opt = torch.optim.SGD([x], **kwargs)
    losses = []
    for step in range(30):
        opt.zero_grad()
        loss = ((A @ x - b) ** 2).mean()
        loss.backward()
        opt.step()
        if step % 10 == 9:
            losses.append(round(loss.item(), 4))
    print(f"{name:>12}: {losses} x={x.detach()}")
