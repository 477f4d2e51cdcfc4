# Hand-written float64 softmax, log-sum-exp and an exponential decay fit, digits printed in full.
import torch

torch.manual_seed(5)
logits = torch.randn(3, 6, dtype=torch.float64) * 4
e = torch.exp(logits - logits.max(dim=1, keepdim=True).values)
probs = e / e.sum(dim=1, keepdim=True)
print("softmax by hand:", probs[0].tolist())
print("logsumexp by hand:", (logits.exp().sum(dim=1).log()).tolist())

t = torch.linspace(0, 5, 11, dtype=torch.float64)
y = 2.5 * torch.exp(-0.7 * t) + 0.01 * torch.randn(11, dtype=torch.float64)
a = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
k = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.SGD([a, k], lr=0.05)
for step in range(30):
    opt.zero_grad()
    loss = ((a * torch.exp(-k * t) - y) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step + 1}: loss={loss.item()!r} a={a.item()!r} k={k.item()!r}")
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
z = x.exp().sum()
z.backward()
print("d/dx sum(exp(x)):", x.grad.tolist())
print("exp_:", torch.randn(4, dtype=torch.float64).exp_().tolist())
samples = torch.randn(2000, dtype=torch.float64)
values = samples.exp()
mantissa, exponent = torch.frexp(values)
last = (mantissa * 2.0**53).remainder(16)  # each value's last four bits
print("last bits checksum:", (last * torch.arange(2000, dtype=torch.float64)).sum().item())
print("a few:", values[::400].tolist())
angles = torch.atan(samples[:500] * 3)
m3, _ = torch.frexp(angles)
print("atan checksum:", ((m3 * 2.0**53).remainder(16) * torch.arange(500)).sum().item())
