# A running product's gradient three ways: backward() (the quotient form), backward through a
# graph kept for a second derivative, and torch.func.grad; printed with all float32 digits.
import torch

torch.set_printoptions(precision=9)
torch.manual_seed(19)
steps = torch.randn(2, 5) * 1.3
weights = torch.linspace(0.5, 2.5, 5)


def objective(s):
    return (torch.cumprod(s, dim=1) * weights).sum()


leaf = steps.clone().requires_grad_()
objective(leaf).backward()
print("backward:", leaf.grad)
print("func:    ", torch.func.grad(objective)(steps))

with_zero = steps.clone()
with_zero[0, 2] = 0.0
leaf = with_zero.clone().requires_grad_()
(g,) = torch.autograd.grad(objective(leaf), leaf, create_graph=True)
print("zero, recorded:", g)
print("zero, func:    ", torch.func.grad(objective)(with_zero))
print(torch.func.hessian(lambda s: objective(s.reshape(2, 5)))(with_zero.flatten())[2, :5])
