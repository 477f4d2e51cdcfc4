import torch

x = torch.linspace(-2, 2, 9)
xb = x.to(torch.bfloat16)
print(xb)

fns = {
    "exp": torch.exp,
    "sin": torch.sin,
    "cos": torch.cos,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "relu": torch.relu,
}
for name, fn in fns.items():
    exact = fn(x)
    low = fn(xb)
    err = (low.float() - exact).abs().max()
    print(f"{name:8s} {low.dtype} max error {err.item():.6f}")
    print(low)

pos = torch.tensor([0.001, 0.5, 2.0, 1000.0], dtype=torch.bfloat16)
print(torch.log(pos), torch.sqrt(pos), pos.reciprocal())
print(pos**2, pos**3, pos**-1, pos**1.5)
print(torch.abs(-pos), -pos, torch.clamp(pos, 0.1, 10.0))
