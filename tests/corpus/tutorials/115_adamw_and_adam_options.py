import torch

def train(opt_cls, **kw):
    w = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
    opt = opt_cls([w], **kw)
    for _ in range(10):
        opt.zero_grad()
        loss = (w ** 2).sum() + w.prod()
        loss.backward()
        opt.step()
    return w

print(train(torch.optim.Adam, lr=0.1))
print(train(torch.optim.Adam, lr=0.1, weight_decay=0.1))
print(train(torch.optim.AdamW, lr=0.1))
print(train(torch.optim.AdamW, lr=0.1, weight_decay=0.5))
print(train(torch.optim.Adam, lr=0.05, betas=(0.8, 0.99), eps=1e-6))
print(train(torch.optim.Adam, lr=0.1, amsgrad=True))
