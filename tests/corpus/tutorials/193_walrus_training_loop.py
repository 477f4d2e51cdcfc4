# Python 3.8's assignment expressions in a small fitting loop, the way newer notebooks
# write "compute, test and keep" in one line.
import torch

torch.manual_seed(0)
x = torch.linspace(0, 1, 20).unsqueeze(1)
y = 3 * x - 0.5 + 0.05 * torch.randn(20, 1)

model = torch.nn.Linear(1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
step = 0
while (loss := torch.nn.functional.mse_loss(model(x), y)).item() > 1e-3 and step < 200:
    opt.zero_grad()
    loss.backward()
    opt.step()
    if (step := step + 1) % 25 == 0:
        print(f"step {step:3d}  loss {loss.item():.6f}")
print("stopped at", step, "with", round(loss.item(), 6))

# keep only the gradients whose norm is large, remembering the last norm computed
grads = [g for p in model.parameters() if (g := p.grad) is not None and (n := g.norm()) > 0]
print(len(grads), n)

# a running maximum inside a comprehension binds in the enclosing scope
best = -1.0
history = [best := max(best, v) for v in [0.3, 0.1, 0.7, 0.5]]
print(history, best)


def summarize(t):
    if (m := t.abs().max()) > 1:
        return f"large ({m.item():.3f})"
    return f"small ({m.item():.3f})"


print(summarize(model.weight), summarize(model.bias))
