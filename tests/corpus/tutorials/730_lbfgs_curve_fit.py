# Fitting a decaying exponential y = a * exp(-b t) + c to noisy samples with L-BFGS and the
# strong Wolfe line search: the closure re-evaluates the loss, as torch.optim.LBFGS requires.
import torch

torch.manual_seed(0)
t = torch.linspace(0, 4, 40)
y = 2.5 * torch.exp(-1.3 * t) + 0.4 + 0.05 * torch.randn(40)

params = torch.tensor([1.0, 1.0, 0.0], requires_grad=True)
optimizer = torch.optim.LBFGS([params], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    optimizer.zero_grad()
    a, b, c = params
    pred = a * torch.exp(-b * t) + c
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    return loss


for step in range(3):
    loss = optimizer.step(closure)
    print(f"step {step}: loss {loss.item():.6f}")

a, b, c = params.detach().tolist()
print(f"a = {a:.4f}, b = {b:.4f}, c = {c:.4f}")
state = optimizer.state[params]
print("function evaluations:", state["func_evals"], "iterations:", state["n_iter"])
print(closure().item())
