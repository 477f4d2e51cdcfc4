import torch

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")

v = torch.tensor([[0.1, 1.0, 0.0001, 2.0, -1.0]]).t().expand(5, 4).contiguous()
inp.grad = None
out.backward(v)
print(inp.grad)
