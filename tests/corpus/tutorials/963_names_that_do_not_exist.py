# Old blog posts and typos reach for names PyTorch does not have; Python's AttributeError
# says so, and hasattr/getattr can probe for them safely.
import torch
import torch.nn.functional as F

x = torch.linspace(-1.0, 1.0, 5, requires_grad=True)

probes = {
    "torch.autograd.jacobian (it lives in torch.autograd.functional)": lambda: torch.autograd.jacobian,
    "F.relu7": lambda: F.relu7,
    "torch.sigmod": lambda: torch.sigmod(x),
    "torch.linalg.normm": lambda: torch.linalg.normm(x),
    "x.summ()": lambda: x.summ(),
    "x.grads": lambda: x.grads,
    "torch.nn.Linearr": lambda: torch.nn.Linearr(2, 2),
    "torch.optim.Adamm": lambda: torch.optim.Adamm([x]),
}
for what, probe in probes.items():
    try:
        probe()
    except AttributeError as e:
        print(f"{what}: {e}")

print(hasattr(torch.autograd, "jacobian"), hasattr(torch.autograd.functional, "jacobian"))
print(hasattr(x, "grad"), hasattr(x, "grads"))
jac = getattr(torch.autograd, "jacobian", None) or torch.autograd.functional.jacobian
print(jac(torch.sin, x).diagonal())
loss = getattr(F, "mse_loss_typo", F.mse_loss)(x, torch.zeros(5))
loss.backward()
print(loss, x.grad)
