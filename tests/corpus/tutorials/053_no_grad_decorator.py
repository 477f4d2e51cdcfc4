import torch


@torch.no_grad()
def sgd_update(params, lr):
    for p in params:
        p -= lr * p.grad
        p.grad.zero_()


@torch.no_grad()
def evaluate(w, x):
    return (w * x).sum()


w = torch.tensor([1.0, -1.0], requires_grad=True)
x = torch.tensor([2.0, 3.0])

for _ in range(3):
    loss = ((w * x).sum() - 1.0) ** 2
    loss.backward()
    sgd_update([w], 0.05)
    print(round(loss.item(), 4), w.tolist())

out = evaluate(w, x)
print(out, out.requires_grad)
