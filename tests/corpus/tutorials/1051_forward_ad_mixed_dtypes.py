# torch.autograd.forward_ad with a float32 dual tensor meeting float64 tensors:
# the result is promoted to float64 and carries its tangent along.
import torch
import torch.autograd.forward_ad as fwAD

scale = torch.tensor([2.0, 3.0], dtype=torch.float64)
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, -1.0]))
    y = x * scale
    print(fwAD.unpack_dual(y))
    z = torch.maximum(x, torch.tensor(1.5, dtype=torch.float64))
    print(fwAD.unpack_dual(z).tangent)
    w = torch.where(x > 1, x, torch.zeros(2, dtype=torch.float64))
    print(fwAD.unpack_dual(w).tangent)
    print(fwAD.unpack_dual(x + torch.tensor([1, 2])).tangent)
