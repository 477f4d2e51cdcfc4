# The angle of a point seen through atan2, and how fast it turns, for points very close to
# the origin in half precision. Near the origin y^2 + x^2 is tiny: in float16 it is a
# subnormal number whose reciprocal overflows, and PyTorch's backward shows that overflow,
# while its forward mode divides once and stays finite. At the origin itself both
# gradients are 0 in backward; forward mode divides 0 by 0.
import torch
import torch.autograd.forward_ad as fwAD

ys = torch.tensor([2e-3, 5e-4, 0.0, 0.25, -1e-3], dtype=torch.float16, requires_grad=True)
xs = torch.tensor([2e-3, -5e-4, 0.0, 0.5, 3e-3], dtype=torch.float16, requires_grad=True)

angle = torch.atan2(ys, xs)
print("angle:", angle)
angle.sum().backward()
print("d angle / d y:", ys.grad)
print("d angle / d x:", xs.grad)

# the same points moved along y only, then along both coordinates
with fwAD.dual_level():
    y_dual = fwAD.make_dual(ys.detach(), torch.ones(5, dtype=torch.float16))
    turn = fwAD.unpack_dual(torch.atan2(y_dual, xs.detach())).tangent
    print("turning rate along y:", turn)
    x_dual = fwAD.make_dual(xs.detach(), torch.full((5,), 0.5, dtype=torch.float16))
    both = fwAD.unpack_dual(torch.atan2(y_dual, x_dual)).tangent
    print("turning rate along (1, 0.5):", both)

# in single precision the squares stay normal numbers: the two modes agree
y32 = ys.detach().float().requires_grad_()
x32 = xs.detach().float()
torch.atan2(y32, x32).sum().backward()
print("float32 backward:", y32.grad)
rate = torch.func.jvp(lambda y: torch.atan2(y, x32), (y32.detach(),), (torch.ones(5),))[1]
print("float32 forward: ", rate)

# a batch of directions at once, through vmap over jvp
directions = torch.eye(2)
point = torch.tensor([0.3, -0.4])


def polar_angle(p):
    return torch.atan2(p[1], p[0])


rows = torch.vmap(lambda d: torch.func.jvp(polar_angle, (point,), (d,))[1])(directions)
print("gradient of the polar angle by forward mode:", rows)
print("and by reverse mode:", torch.func.grad(polar_angle)(point))
