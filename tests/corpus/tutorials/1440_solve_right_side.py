import torch

# Solving X A = B (the unknown on the left) with linalg.solve(..., left=False)
A = torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], requires_grad=True)
B = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], requires_grad=True)

X = torch.linalg.solve(A, B, left=False)
print(X)
print(X.grad_fn.name())
print(torch.allclose(X @ A, B, atol=1e-6))

loss = (X ** 2).sum()
loss.backward()
print(A.grad)
print(B.grad)

# the same in double precision, with a batch of right-hand sides
Ad = A.detach().double()
Bd = torch.stack([B.detach(), 2 * B.detach()]).double()
Xd = torch.linalg.solve(Ad, Bd, left=False)
print(Xd)
print(Xd.shape)

# a vector right-hand side is a column, which cannot sit to the left of A
for rhs in [torch.ones(3), torch.ones(2, 4), torch.ones(4, 2)]:
    try:
        torch.linalg.solve(A.detach(), rhs, left=False)
    except RuntimeError as e:
        print("RuntimeError:", e)

try:
    torch.linalg.solve(torch.tensor([[2.0]]), torch.tensor([3.0]), left=False)
except RuntimeError as e:
    print("RuntimeError:", e)
# the hint of that message, followed
print(torch.tensor([3.0]) / torch.tensor([[2.0]]).squeeze(-1))
