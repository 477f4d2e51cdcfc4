# Fitting complex numbers with torch.optim: PyTorch steps a complex parameter as the pairs of
# real numbers it holds (torch.view_as_real), with complex optimizer state.
import torch

target = torch.tensor([0.5 - 1.0j, -2.0 + 0.25j, 1.5 + 1.5j])


def loss_of(z):
    return (z - target).abs().pow(2).sum() + 0.1 * (z.real * z.imag).sum()


for name, kwargs in [
    ("SGD", {"lr": 0.1, "momentum": 0.8}),
    ("Adam", {"lr": 0.2}),
    ("AdamW", {"lr": 0.2, "weight_decay": 0.1, "amsgrad": True}),
    ("RMSprop", {"lr": 0.05, "centered": True}),
    ("Adagrad", {"lr": 0.5}),
    ("NAdam", {"lr": 0.2}),
]:
    z = torch.zeros(3, dtype=torch.complex64, requires_grad=True)
    opt = getattr(torch.optim, name)([z], **kwargs)
    for step in range(20):
        opt.zero_grad()
        loss = loss_of(z)
        loss.backward()
        opt.step()
    print(f"{name:8s} loss {loss.item():.4f} z {z.detach()}")

# the state holds complex tensors, keyed by the parameter
z = torch.tensor([1.0 + 1.0j, -1.0j], dtype=torch.complex128, requires_grad=True)
opt = torch.optim.Adam([z], lr=0.1)
(z.abs() ** 2).sum().backward()
opt.step()
state = opt.state[z]
print(state["step"], state["exp_avg"], state["exp_avg_sq"], sep="\n")
print(z, z._version)
