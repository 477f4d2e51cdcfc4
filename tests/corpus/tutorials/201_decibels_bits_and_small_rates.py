# Logs and exponentials in other bases, as signal-processing and information-theory code
# writes them: decibels (log10), bits (log2), 2**x schedules (exp2), and expm1 / log1p for
# small rates where exp(x) - 1 would lose digits.
import torch

# Power in decibels and its sensitivity to the amplitude.
amp = torch.tensor([0.01, 0.1, 1.0, 10.0], requires_grad=True)
db = 10 * torch.log10(amp ** 2)
print("dB:", db)
db.sum().backward()
print("d dB / d amp:", amp.grad)

# Entropy in bits of a softmax distribution, and its gradient w.r.t. the logits.
logits = torch.tensor([2.0, 1.0, 0.1, -1.0], requires_grad=True)
p = torch.softmax(logits, dim=0)
bits = -(p * torch.log2(p)).sum()
print(f"entropy: {bits.item():.5f} bits")
bits.backward()
print("d entropy / d logits:", logits.grad)

# A learning-rate schedule that halves every 10 steps, written with exp2.
step = torch.arange(0, 40, 10, dtype=torch.float32)
print("lr:", 0.1 * torch.exp2(-step / 10))

# Compound growth at small rates: expm1 keeps the digits that exp(r) - 1 loses.
r = torch.tensor([1e-7, 1e-4, 0.05], requires_grad=True)
growth = torch.expm1(r)
print("expm1:", growth, "exp - 1:", torch.exp(r) - 1)
growth.sum().backward()
print("d expm1 / d r:", r.grad)

# Inverse square root normalisation (as in RMSNorm), and reciprocal.
x = torch.tensor([[1.0, 2.0, 2.0], [3.0, 0.0, 4.0]], requires_grad=True)
inv_rms = torch.rsqrt((x ** 2).mean(dim=1, keepdim=True) + 1e-6)
y = x * inv_rms
print(y)
y[:, 0].sum().backward()
print(x.grad)
print(torch.reciprocal(torch.tensor([4.0, -0.5, 8.0])), torch.tensor([2.0, 3.0]).square())
