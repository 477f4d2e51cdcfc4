# Building smooth activations by hand from exp, log, sqrt and tanh, and
# comparing their gradients. Values are printed in full so the last digits show.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=8)

x = torch.randn(12) * 3
x.requires_grad_(True)

# softplus written out: log(1 + exp(x))
soft = torch.log(1 + torch.exp(x))
print("softplus by hand:", soft)
soft.sum().backward()
print("its gradient:", x.grad)
x.grad = None

# a tanh-based gate
gate = torch.tanh(x) * 0.5 + 0.5
print("tanh gate:", gate)
gate.sum().backward()
print("gate gradient:", x.grad)
x.grad = None

# root-mean-square of the inputs, and the root of each magnitude
rms = torch.sqrt((x ** 2).mean())
print("rms:", rms.item())
rms.backward()
print("rms gradient:", x.grad)
x.grad = None

mag = x.abs().sqrt()
print("sqrt |x|:", mag)
mag.sum().backward()
print("gradient of sqrt |x|:", x.grad)
