# AC circuit analysis with complex tensors: impedances, currents I = V / Z, admittances
# 1 / Z and complex power, in both complex dtypes, for a bank of loads and a broadcast
# source. The quotients are printed with every digit (tolist), and also summarized as the
# integer sum of their float bits, so any last-bit difference shows.
import math

import torch

torch.manual_seed(3)


def bits(z):
    real_dtype = torch.float32 if z.dtype == torch.complex64 else torch.float64
    int_dtype = torch.int32 if z.dtype == torch.complex64 else torch.int64
    return z.contiguous().view(real_dtype).view(int_dtype).sum().item() % 1000003


v = torch.tensor(0.8 + 0.6j, dtype=torch.complex128)
w = torch.tensor(3 - 1j, dtype=torch.complex128)
print(v * w, (v * w).real.item(), (v / w).tolist(), (w / v).item())
print((0.1 + 0.2j) / torch.tensor([0.7 - 0.3j], dtype=torch.complex128))

omega = 2 * math.pi * 50.0
for dtype in (torch.complex64, torch.complex128):
    for loads in (1, 3, 5, 8, 13, 21):
        r = torch.rand(loads, dtype=torch.float64) * 100 + 1
        ind = torch.rand(loads, dtype=torch.float64) * 0.2
        z = torch.complex(r, omega * ind).to(dtype)
        source = torch.tensor(230 + 0j, dtype=dtype)
        current = source / z
        admittance = 1 / z
        power = source * current.conj()
        print(dtype, loads, bits(current), bits(admittance), bits(power), bits(z.reciprocal()))
        print(current[-1].item(), admittance[0].item())
    phases = torch.randn(4, 1, dtype=dtype)
    ratio = z[:6].reshape(1, 6) / phases
    print(bits(ratio), ratio[1].tolist()[:2], bits(z[:6] / z[0]), bits(z[:5] * (0.3 - 1.7j)))
    z.div_(1.5 + 0.5j)
    print(bits(z), torch.div(z, z.flip(0)).tolist()[:2], bits(torch.true_divide(z, 2 + 1j)))
