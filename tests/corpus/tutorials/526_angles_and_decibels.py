# Slopes to angles and back, and a decibel scale: small numeric checks of tan, atan, log10
# and log2 on random data, with the gradients of the angle.
import torch

torch.manual_seed(7)
torch.set_printoptions(precision=8)  # show every digit float32 carries
slopes = torch.randn(10) * 2
slopes.requires_grad_()

angles = torch.atan(slopes)
print("angles (rad):", angles)
print("back to slopes:", torch.tan(angles))
angles.sum().backward()
print("d angle / d slope:", slopes.grad)

theta = torch.linspace(-1.4, 1.4, 9, requires_grad=True)
t = torch.tan(theta)
t.sum().backward()
print("tan:", t)
print("sec^2:", theta.grad)

power = torch.rand(3, 5) * 100 + 1e-3
print("decibels:")
print(10 * torch.log10(power))
print("bits needed:", torch.log2(power).ceil())
print("log2 of powers of two:", torch.log2(torch.tensor([1.0, 2.0, 1024.0, 0.125])))
wide = torch.randn(3, 8) * 3
print("atan of wider data:")
print(torch.atan(wide))
print("tan of wider data:")
print(torch.tan(wide))
