# Muon orthogonalises the momentum of each weight matrix (a few Newton-Schulz steps in
# bfloat16) before the step; biases and other non-matrix parameters go to AdamW, as the
# PyTorch docs suggest. A small two-layer regression (in float64) trained with the pair.
import torch
import torch.nn as nn

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(5, 8), nn.GELU(), nn.Linear(8, 2)).double()
matrices = [p for p in net.parameters() if p.ndim == 2]
others = [p for p in net.parameters() if p.ndim != 2]
muon = torch.optim.Muon(matrices, lr=0.02, momentum=0.9, weight_decay=0.01)
adamw = torch.optim.AdamW(others, lr=3e-3)
print(muon)

inputs = torch.randn(24, 5, dtype=torch.float64)
targets = torch.stack([inputs[:, 0] - inputs[:, 1], inputs[:, 2] * 0.5], dim=1)
for epoch in range(6):
    muon.zero_grad()
    adamw.zero_grad()
    loss = nn.functional.mse_loss(net(inputs), targets)
    loss.backward()
    muon.step()
    adamw.step()
    print(f"epoch {epoch}: loss {loss.item():.6f}")

print(net[0].weight)
print(muon.state[net[0].weight]["momentum_buffer"][:2])
print(type(muon))

# the other learning-rate rule, plain momentum, fewer Newton-Schulz steps
w = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Muon([w], lr=0.05, nesterov=False, ns_steps=3,
                       adjust_lr_fn="match_rms_adamw")
for _ in range(3):
    opt.zero_grad()
    (w.tanh() ** 2).sum().backward()
    opt.step()
print(w)
print(opt.param_groups[0]["adjust_lr_fn"], opt.defaults["ns_coefficients"])

# what Muon refuses
for bad in [dict(lr=-0.1), dict(momentum=-1.0), dict(adjust_lr_fn="rms")]:
    try:
        torch.optim.Muon([w], **bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    torch.optim.Muon(net.parameters())
except ValueError as e:
    print("ValueError:", e)
