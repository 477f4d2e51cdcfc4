# torch.chain_matmul still works but warns (once) that it is deprecated in favour of
# torch.linalg.multi_dot; one matrix comes back as a copy, and its errors are its own.
import torch

torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
b = torch.randn(4, 2, dtype=torch.float64)
c = torch.randn(2, 5, dtype=torch.float64)
out = torch.chain_matmul(a, b, c)
print(out.shape, out.grad_fn.name())
print(torch.allclose(out, torch.linalg.multi_dot([a, b, c])))
out.sum().backward()
print(a.grad.sum().round(decimals=6))
single = torch.chain_matmul(a)
print(single.grad_fn.name(), single is a)
for bad in [(), (torch.ones(3), torch.ones(3, 2))]:
    try:
        torch.chain_matmul(*bad)
    except RuntimeError as e:
        print(e)
