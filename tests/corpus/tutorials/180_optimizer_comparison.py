import torch

target = torch.tensor([1.0, -2.0])
optimizers = {
    "sgd": lambda p: torch.optim.SGD(p, lr=0.1),
    "nesterov": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    "sgd_wd": lambda p: torch.optim.SGD(p, lr=0.1, weight_decay=0.1),
    "adam": lambda p: torch.optim.Adam(p, lr=0.1),
    "adamw": lambda p: torch.optim.AdamW(p, lr=0.1, weight_decay=0.1),
}

results = {}
for name, make in optimizers.items():
    w = torch.zeros(2, requires_grad=True)
    opt = make([w])
    for _ in range(20):
        opt.zero_grad()
        loss = ((w - target) ** 2).sum()
        loss.backward()
        opt.step()
    results[name] = loss.item()
    print("{:<9} w={} loss={:.6f}".format(name, w.detach().tolist(), loss.item()))

best = sorted(results, key=results.get)[0]
print("best:", best)
