# nn.LazyLinear before its first call: what its weight shows and refuses, then after
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
print(model)
w = model[0].weight
print(w, type(w), w.requires_grad, w.dtype, w.grad, w.size())
print(list(model.parameters()))


def attempt(label, fn):
    try:
        print(label, fn())
    except (RuntimeError, ValueError) as e:
        print(label, type(e).__name__ + ":", str(e).split(" at 0x")[0].split(". This")[0])


attempt("shape", lambda: w.shape)
attempt("sum", lambda: w.sum())
attempt("add", lambda: w + 1)
attempt("neg", lambda: -w)
attempt("matmul", lambda: torch.ones(2, 3) @ w)
attempt("mean", lambda: w.mean())
attempt("numel", lambda: w.numel())
attempt("torch.sum", lambda: torch.sum(w))
attempt("eq", lambda: w == 0)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(5, 3)
loss = model(x).pow(2).mean()
loss.backward()
opt.step()
print(model)
print(w is model[0].weight, w.shape, type(w), round(loss.item(), 4))
print(model[0].weight.grad.shape, model[2].bias.grad.shape)
