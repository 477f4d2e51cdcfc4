# torch.linalg aliases and the _ex forms (info 0 for a matrix they can factor).
import torch
torch.manual_seed(0)
a = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
s = a @ a.t() + 3 * torch.eye(3, dtype=torch.float64)
b = torch.randn(3, 2, dtype=torch.float64)
print(torch.linalg.matmul(a, b).grad_fn.name(), torch.linalg.diagonal(a).grad_fn.name(), torch.linalg.diagonal(a))
print(torch.linalg.vecdot(a, b.t()[0]), torch.linalg.vecdot(a, a, dim=0).grad_fn.name())
inv, info = torch.linalg.inv_ex(s)
print(inv, info, inv.grad_fn.name())
L, info = torch.linalg.cholesky_ex(s)
print(L, info)
r = torch.linalg.solve_ex(s, b)
print(r)
(inv.sum() + L.sum() + r.result.sum()).backward()
print(a.grad)
try:
    torch.linalg.inv_ex(torch.zeros(2, 2), check_errors=True)
except RuntimeError as e:
    print("RuntimeError:", e)

# pre-0.4 init names, still called by older code (with a FutureWarning)
import torch.nn as nn
torch.manual_seed(1)
layer = nn.Linear(4, 3)
nn.init.xavier_uniform(layer.weight)
nn.init.constant(layer.bias, 0.0)
print(layer.weight, layer.bias)
