import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.5, -2.0])
with fwAD.dual_level() as level:
    print("level:", level)
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.0, 0.0]))
    print(d)
    print(d * 2)
    s = (d ** 3).sum()
    print(s)
    print(d[0], d.mean())
    print(fwAD.unpack_dual(d))
    print(fwAD.unpack_dual(x))
    p, t = fwAD.unpack_dual(torch.exp(d))
    print(p)
    print(t)
    big = fwAD.make_dual(torch.ones(2, 3, dtype=torch.float64), torch.full((2, 3), 0.25, dtype=torch.float64))
    print(big.t())
# outside the level the tangent is gone
print(d)
print(fwAD.unpack_dual(d).tangent)
