# torch.rsub (other - input) and the in-place forms torch has as functions.
import torch

x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
y = torch.tensor([3.0, 2.0, 1.0], requires_grad=True)

r = torch.rsub(x, y)  # y - x
print(r)
print(r.grad_fn.name(), len(r.grad_fn.next_functions))
s = torch.rsub(x, 1.0)  # 1 - x
print(s)
loss = (r * s).sum()
loss.backward()
print(x.grad, y.grad)

# broadcasting and dtypes follow subtraction
print(torch.rsub(torch.ones(2, 1), torch.arange(3.0)))
print(torch.rsub(torch.tensor([1, 2, 3]), 10))
print(torch.rsub(torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([5, 7])))

# gradient check of rsub in float64
a = torch.randn(3, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(torch.rsub, (a, b)))

# in-place functions on data, as preprocessing code writes them
t = torch.tensor([-3.0, -0.5, 0.25, 4.0])
torch.clip_(t, -1.0, 1.0)
print(t)
angles = torch.tensor([0.0, 90.0, 180.0])
torch.deg2rad_(angles)
print(angles)
torch.rad2deg_(angles)
print(angles)
v = torch.tensor([1.0, -2.0])
torch.negative_(v)
print(v)
g = torch.tensor([12, 18, 7])
torch.gcd_(g, torch.tensor([8, 12, 21]))
print(g)
m = torch.tensor([4, 6, 5])
torch.lcm_(m, torch.tensor([6, 4, 3]))
print(m)
