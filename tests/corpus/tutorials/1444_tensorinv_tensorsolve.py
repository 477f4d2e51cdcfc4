import torch

torch.manual_seed(0)

# A linear map from 2x3 arrays to 2x3 arrays, stored as a 2x3x2x3 tensor
M = torch.randn(6, 6, dtype=torch.float64) + 4 * torch.eye(6, dtype=torch.float64)
T = M.reshape(2, 3, 2, 3)

# its inverse, with the output dimensions first
T_inv = torch.linalg.tensorinv(T, ind=2)
print(T_inv.shape)
X = torch.randn(2, 3, dtype=torch.float64)
Y = torch.tensordot(T, X, dims=2)
print(torch.allclose(torch.tensordot(T_inv, Y, dims=2), X))

# solving T . X = Y directly
X_solved = torch.linalg.tensorsolve(T, Y)
print(X_solved)
print(torch.allclose(X_solved, X))

# the dimensions of the unknown can sit first: move them with dims=
T_first = T.permute(2, 3, 0, 1)
print(torch.allclose(torch.linalg.tensorsolve(T_first, Y, dims=(0, 1)), X))

# gradients flow through both
W = T.clone().requires_grad_()
Yg = Y.clone().requires_grad_()
out = torch.linalg.tensorsolve(W, Yg)
out.pow(2).sum().backward()
print(Yg.grad)
print(W.grad.shape)
inv = torch.linalg.tensorinv(W, ind=2)
print(inv.grad_fn.name(), inv.stride())

# misuse
for args in [(T, 0), (torch.randn(2, 3, 4), 1)]:
    try:
        torch.linalg.tensorinv(*args)
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.linalg.tensorinv(torch.zeros(2, 2, 2, 2), ind=2)
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
try:
    torch.linalg.tensorsolve(T, torch.ones(4))
except RuntimeError as e:
    print("RuntimeError:", e)
