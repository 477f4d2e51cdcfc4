# Running products in float32 printed with all their digits, and the gradient of a product
# taken by torch.func (which builds the products of the other factors) beside backward's.
import torch

torch.set_printoptions(precision=10)
torch.manual_seed(11)
growth = 1 + torch.rand(8) / 7
print("cumprod:", torch.cumprod(growth, dim=0))
print("half:   ", torch.cumprod(growth.half() * 1.5, dim=0))
rates = torch.randn(2, 5) * 2
print(rates.cumprod(dim=1))

factors = torch.randn(7) * 1.7
via_func = torch.func.grad(lambda f: f.prod())(factors)
leaf = factors.clone().requires_grad_()
leaf.prod().backward()
print("func.grad:", via_func)
print("backward: ", leaf.grad)
print("per row:  ", torch.func.grad(lambda f: f.prod(dim=1).sum())(rates))
print(torch.func.jacrev(lambda f: torch.cumprod(f, 0))(factors[:3]))
