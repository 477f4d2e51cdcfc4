import torch

x = torch.tensor(2.0, requires_grad=True)
loss = (x - 0.5) ** 3
loss.backward()

print(f"{loss=}")
print(f"{loss.item()=:.3f}")
print(f"x.grad = {x.grad.item():.4f}")
print(f"grad in sci: {x.grad.item():.2e}")
print(f"as percent: {0.123456:.1%}")
print(f"padded: [{x.item():>8.2f}] [{x.item():<8.2f}] [{x.item():^8.2f}]")
step = 7
print(f"step {step:03d} / {100:5d}")
print(f"{'name':>6}|{'value':<7}|")
print(f"tensor inside: {x.grad}")
print(f"repr: {x!r}")
print(f"{x.grad.item():+.3f} {-x.grad.item():+.3f}")
width, prec = 10, 3
print(f"nested spec: {x.grad.item():{width}.{prec}f}|")
print(f"{1234567.891:,.2f}")
