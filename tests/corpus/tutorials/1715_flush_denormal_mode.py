# Subnormal numbers with and without torch.set_flush_denormal (the reference page's example,
# widened: arithmetic results, float32 and float64, complex parts, gradients).
import torch

tiny64 = torch.tensor([1e-323, 3e-310, 1.0], dtype=torch.float64)
print(tiny64, tiny64 / 4)
print(torch.set_flush_denormal(True))
print(torch.tensor([1e-323], dtype=torch.float64))
x = torch.tensor([2e-38, 1e-39, -1e-40, 1.5])
print(x, x * 0.5, x.sum())
w = torch.tensor([1e-20, 3.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
print(w.grad, (w * 1e-20).tolist())
z = torch.tensor([1e-39 + 2j, 3 - 1e-40j])
print(z.real, z.imag)
print(torch.set_flush_denormal(False))
print(torch.tensor([1e-323], dtype=torch.float64), torch.tensor([1e-39]))
