# torch.func.jacrev of a function with several outputs: one Jacobian per output, each row a
# VJP of all of them (the other outputs' cotangents zero). Where the branches of two outputs
# meet, the zero cross terms add up as PyTorch's do, so the printed zeros have PyTorch's signs.
import torch
from torch.func import jacrev, jacfwd

angles = torch.tensor([1.5, -0.3, -2.2, 2.8])


def unit_circle(t):
    return t.sin(), t.cos()


js, jc = jacrev(unit_circle)(angles)
print(js)
print(jc)


def polar(r, theta):
    return r * theta.cos(), r * theta.sin(), (r * r).sqrt()


r = torch.tensor([1.0, 2.0, 0.5])
theta = torch.tensor([0.3, -1.2, 2.5])
(jxr, jxt), (jyr, jyt), (jnr, jnt) = jacrev(polar, argnums=(0, 1))(r, theta)
print(jxr, jxt, sep="\n")
print(jyr, jyt, sep="\n")
print(jnr, jnt, sep="\n")

# the same numbers by forward mode, output by output
fs, fc = jacfwd(unit_circle)(angles)
print(torch.equal(fs, js), torch.equal(fc, jc))


# a dict of outputs and an output that does not depend on the input
def stats(v):
    return {"sq": v * v, "const": torch.ones(2), "mean": v.mean()}


j = jacrev(stats)(angles)
for k in sorted(j):
    print(k, j[k])

# torch.autograd.functional.jacobian with vectorize=True is the same joint VJP (vmapped);
# without it, each output's rows are its own backward passes
from torch.autograd.functional import jacobian

print(jacobian(unit_circle, angles, vectorize=True))
print(jacobian(unit_circle, angles))
