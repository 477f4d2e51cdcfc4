# A diagonal (elementwise) recurrent cell unrolled over a short sequence, with
# a tanh nonlinearity, and the gradients of the last hidden state's norm.
import torch

torch.manual_seed(7)
a = torch.randn(6, requires_grad=True)
w = (torch.randn(6) * 0.5).requires_grad_()
seq = torch.randn(5, 6) * 2

h = torch.zeros(6)
for step, x_t in enumerate(seq):
    h = torch.tanh(a * x_t + w * h)
    print(f"h[{step}] =", h.tolist())

norm = h.pow(2).sum().sqrt()
print("norm of the last state:", norm.item())
norm.backward()
print("grad a:", a.grad.tolist())
print("grad w:", w.grad.tolist())

z = torch.linspace(-4, 4, 17)
print("tanh on a grid:", torch.tanh(z).tolist())
print("exp on a grid:", torch.exp(z).tolist())
print("sqrt on a grid:", torch.sqrt(z.abs() + 0.1).tolist())
print("pow 0.5:", (z.abs() + 0.1).pow(0.5).tolist())
print("** 0.5:", ((z.abs() + 0.1) ** 0.5).tolist())
print("log on a grid:", torch.log(z.abs() + 0.1).tolist())
print("rsqrt:", torch.rsqrt(z.abs() + 0.1).tolist())
