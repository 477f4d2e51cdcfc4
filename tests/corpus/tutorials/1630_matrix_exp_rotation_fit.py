# Fit a rotation R = exp(W - W^T) to map a few points onto targets: the matrix exponential of a
# skew-symmetric generator is orthogonal, and autograd goes through torch.matrix_exp.
import math

import torch

torch.manual_seed(0)
angle = 0.7
target_rot = torch.tensor(
    [
        [math.cos(angle), -math.sin(angle), 0.0],
        [math.sin(angle), math.cos(angle), 0.0],
        [0.0, 0.0, 1.0],
    ]
)
points = torch.randn(6, 3)
targets = points @ target_rot.T

W = torch.zeros(3, 3, requires_grad=True)
opt = torch.optim.SGD([W], lr=0.1)
for step in range(40):
    skew = W - W.T
    R = torch.matrix_exp(skew)
    loss = ((points @ R.T - targets) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} loss {loss.item():.6f}")

R = torch.linalg.matrix_exp(W - W.T).detach()
print(R[:2, :2])
print("angle:", round(math.atan2(R[1, 0].item(), R[0, 0].item()), 4))
print("orthogonal:", torch.allclose(R @ R.T, torch.eye(3), atol=1e-5))
print("det:", round(torch.linalg.det(R).item(), 4))
print("small gradient:", W.grad.abs().max().item() < 1e-3)

# the gradient of a scalar of exp(W) at a fixed W, and a batch of generators
W0 = torch.tensor([[0.0, 0.3, -0.2], [0.1, 0.0, 0.5], [-0.4, 0.2, 0.0]], requires_grad=True)
torch.linalg.matrix_exp(W0).trace().backward()
print(W0.grad)
gens = torch.stack([W0.detach() * k for k in (0.5, 1.0, 4.0)])
print(torch.matrix_exp(gens).diagonal(dim1=-2, dim2=-1))
