# The Hessian of a function four ways with torch.func (forward-over-forward,
# reverse-over-reverse, forward-over-reverse, reverse-over-forward) and with
# torch.autograd.functional, for elementwise maps and scalar losses.
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jacrev

x = torch.tensor([0.5, -1.0, 2.0])

def cube(t):
    return t ** 3

def loss(t):
    return (t.sin() * t.exp()).sum() + F.softplus(t).pow(2).mean()

for name, f in [("sin", torch.sin), ("cube", cube), ("tanh", torch.tanh),
                ("sigmoid", torch.sigmoid), ("reciprocal", torch.reciprocal),
                ("softsign", F.softsign), ("loss", loss)]:
    print(f"== {name}")
    print("fwd-fwd", jacfwd(jacfwd(f))(x))
    print("rev-rev", jacrev(jacrev(f))(x))
    print("fwd-rev", jacfwd(jacrev(f))(x))
    print("rev-fwd", jacrev(jacfwd(f))(x))

H = torch.autograd.functional.hessian(loss, x)
print(H)
print(torch.allclose(H, hessian(loss)(x)))
