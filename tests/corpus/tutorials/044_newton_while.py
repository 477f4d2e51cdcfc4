import torch

# Newton's method for f(x) = x^3 - 2x - 5, derivatives from autograd
x = torch.tensor(2.0, requires_grad=True)
it = 0
while True:
    f = x ** 3 - 2 * x - 5
    (df,) = torch.autograd.grad(f, x)
    step = f / df
    with torch.no_grad():
        x -= step
    it += 1
    print(f"iteration {it}: x = {x.item():.6f}, f = {f.item():.3e}")
    if abs(step.item()) < 1e-6 or it >= 10:
        break

print("root:", round(x.item(), 5))
