# torch.func.linearize: evaluate f once, then push many tangents through its linearisation
# (the JAX-style API PyTorch documents), checked against torch.func.jvp.
import torch
from torch.func import linearize
x = torch.tensor([0.5, 1.0, 2.0])
out, jvp_fn = linearize(torch.sin, x)
print(out)
print(jvp_fn(torch.ones(3)))
print(jvp_fn(torch.tensor([1.0, 0.0, 2.0])))
def f(a, b):
    return (a * b).sum() + a.exp()
o, fn = linearize(f, x, torch.ones(3))
print(o, fn(torch.ones(3), torch.zeros(3)))
try:
    jvp_fn(torch.ones(2))
except Exception as e:
    print(type(e).__name__, e)
