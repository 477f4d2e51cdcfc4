# How complex tensors print: widths, scientific notation, dtypes, f-strings.
import torch

print(torch.tensor(1 + 2j))
print(torch.tensor([1e-5 + 1j, 100 + 2j]))
print(torch.tensor([[1e10 + 1j], [1 - 1e-10j]], dtype=torch.complex128))
print(torch.tensor([0.1 + 0.2j, -0.3 - 0.4j, 5.0 + 0j]))
print(torch.tensor([1j] * 12).reshape(3, 4))
print(torch.arange(6.0).reshape(2, 3) * (1 - 1j))
z = torch.tensor(0.5 - 1.25j)
print(f"{z}", str(z), repr(z))
print(f"{z.item():.3f}", f"{z.item()!r}", "{:>14}".format(z.item()))
print(torch.tensor([float("inf") + 1j, float("nan") * 1j]))
print(torch.zeros(0, dtype=torch.cfloat), torch.zeros(2, 0, dtype=torch.cdouble))
torch.set_default_dtype(torch.float64)
print(torch.tensor([1 + 1j]), torch.tensor([1 + 1j], dtype=torch.cfloat))
print(torch.tensor(2j).dtype)
