# Code written for PyTorch 0.4 passes beta and alpha positionally: torch.addmm(beta, M, alpha,
# mat1, mat2), M.addmm_(beta, mat1, mat2), exp_avg_sq.addcmul_(1 - beta2, g, g). PyTorch still
# accepts these overloads (warning once per process) and computes beta * M + alpha * (...).
# Also: nn.Module methods called with a wrong keyword or too many arguments, in Python's words.
import torch
import torch.nn as nn

torch.manual_seed(0)
M = torch.randn(2, 2)
mat1 = torch.randn(2, 3)
mat2 = torch.randn(3, 2)
print(torch.addmm(0.5, M, 2.0, mat1, mat2))
print(torch.addmm(M, mat1, mat2, beta=0.5, alpha=2.0))
print(torch.addmm(0.5, M, mat1, mat2))
print(M.addmm(0.5, 2.0, mat1, mat2))
print(M.addmm(0.5, mat1, mat2))
acc = M.clone()
acc.addmm_(0.1, 3.0, mat1, mat2)
print(acc)

v = torch.randn(3)
bias = torch.randn(2)
print(torch.addmv(2, bias, 3, mat1, v))
print(bias.addmv(0.5, mat1, v))

u = torch.randn(2)
print(torch.addr(1.5, M, 0.5, u, u))
print(M.addr(2, u, bias))

b1 = torch.randn(2, 2, 3)
b2 = torch.randn(2, 3, 2)
B = torch.randn(2, 2, 2)
print(torch.baddbmm(0.5, B, 2, b1, b2))
print(B.baddbmm(0.25, b1, b2))
print(torch.addbmm(1, M, 0.5, b1, b2))
print(M.clone().addbmm_(2, b1, b2))

# an old hand-written Adam step
grad = torch.randn(4)
exp_avg = torch.zeros(4)
exp_avg_sq = torch.zeros(4)
beta1, beta2 = 0.9, 0.999
exp_avg.mul_(beta1).add_(1 - beta1, grad)
exp_avg_sq.mul_(beta2).addcmul_(1 - beta2, grad, grad)
print(exp_avg, exp_avg_sq)
print(torch.addcdiv(exp_avg, -0.01, exp_avg, exp_avg_sq.sqrt() + 1e-8))

# gradients flow through the deprecated forms as through the current ones
x = torch.randn(2, 3, requires_grad=True)
y = torch.addmm(0.5, M, 2.0, x, mat2).sum()
y.backward()
print(x.grad)

model = nn.Linear(3, 2)
for call in (
    lambda: model.named_parameters(foo=1),
    lambda: model.parameters(True, 2, 3),
    lambda: model.zero_grad(foo=True),
    lambda: model.state_dict(bar=1),
    lambda: model.train(mode=True, x=1),
    lambda: model.named_modules(depth=2),
):
    try:
        call()
    except TypeError as e:
        print(e)
print(model.parameters)
