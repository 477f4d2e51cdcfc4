# Forward mode through divisions, as torch.func.hessian uses it: hessian(f) is
# jacfwd(jacrev(f)), so the tangents of the outer jacfwd run through the divisions of the
# gradient. Printed with all the digits float32 has, the values are PyTorch's own rounding
# of its forward formula (dx - dy * out) / y.
import torch
from torch.func import hessian, jacfwd, jacrev, jvp

torch.set_printoptions(precision=10)

x = torch.tensor([0.5, 1.25, -2.0, 3.0])


def damped(v):
    # a bump that decays like 1 / v away from 0
    return (v / (1 + v * v)).sum()


print("forward-over-reverse Hessian:")
print(hessian(damped)(x))
print("reverse-over-reverse Hessian:")
print(jacrev(jacrev(damped))(x))


def share(v):
    # each entry's share of the total
    return v / v.sum()


print("Jacobian of the shares, forward mode:")
print(jacfwd(share)(x.abs() + 1))

# a ratio of two tensors, both moving
num = torch.tensor([1.0, -3.5, 0.25])
den = torch.tensor([7.0, 0.3, -1.1])
_, both = jvp(
    torch.div, (num, den), (torch.tensor([0.3, 0.6, -0.9]), torch.tensor([1.7, 0.2, 0.4]))
)
print("d(num/den) with both moving:", both)
_, only_den = jvp(lambda d: num / d, (den,), (torch.tensor([1.7, 0.2, 0.4]),))
print("d(num/den) with den moving:", only_den)

# the larger of two curves: where they tie, forward mode takes the mean of their slopes
a = torch.tensor([1.0, 2.0, 3.0, -0.5])
b = torch.tensor([1.0, 2.5, 2.0, -0.5])
da = torch.tensor([0.7, -1.3, 0.2, 0.9])
db = torch.tensor([-0.4, 0.8, 0.6, 0.3])
print("slope of maximum:", jvp(torch.maximum, (a, b), (da, db))[1])
print("slope of minimum:", jvp(torch.minimum, (a, b), (da, db))[1])
print("slope of maximum, a moving only:", jvp(lambda u: torch.maximum(u, b), (a,), (da,))[1])
