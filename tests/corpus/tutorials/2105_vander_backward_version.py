# A Vandermonde matrix for polynomial fitting: its values, then PyTorch's own failure when a
# loss tries to send gradients back through torch.vander (ATen fills it in place), and the
# torch.linalg.vander spelling that does differentiate.
import torch

nodes = torch.tensor([0.5, 1.0, 1.5, 2.0], requires_grad=True)
basis = torch.vander(nodes, N=3, increasing=True)
print(basis)
coeffs = torch.tensor([1.0, -2.0, 0.5])
fit = basis @ coeffs
print(fit)
try:
    fit.pow(2).sum().backward()
except RuntimeError as err:
    print("backward failed:", err)
print(nodes.grad)

print(torch.vander(torch.tensor([2, 3], dtype=torch.int16)))
print(torch.vander(nodes.detach(), N=1))

nodes.grad = None
torch.linalg.vander(nodes, N=3).matmul(coeffs).pow(2).sum().backward()
print(nodes.grad)
