import torch

def run(**kwargs):
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.05, **kwargs)
    for _ in range(5):
        opt.zero_grad()
        loss = ((w - torch.tensor([0.5, 0.5, 0.5])) ** 2).sum()
        loss.backward()
        opt.step()
    return w.detach()

print("plain     ", run())
print("wd        ", run(weight_decay=0.1))
print("momentum  ", run(momentum=0.9))
print("nesterov  ", run(momentum=0.9, nesterov=True))
print("dampening ", run(momentum=0.9, dampening=0.5))
print("all       ", run(momentum=0.8, nesterov=True, weight_decay=0.01))
print("maximize  ", run(maximize=True))
