# torch.trace of float32 matrices: PyTorch adds the diagonal in double and rounds once, which
# a float32 sum can miss by a last bit. A Hutchinson-style check of trace(A^T A) and trace's
# gradient (the identity).
import torch

torch.manual_seed(11)
for n in (8, 64, 500):
    B = torch.randn(n, n)
    A = B.T @ B
    print(n, torch.trace(A).item(), A.trace(), torch.trace(B))
W = torch.randn(40, 40, requires_grad=True)
t = torch.trace(W @ W.T)
t.backward()
print(t)
print(torch.allclose(W.grad, 2 * W), W.grad[0, :3])
est = torch.zeros(())
for _ in range(20):
    v = torch.randint(0, 2, (40,)).float() * 2 - 1
    est += v @ (W.detach() @ W.detach().T) @ v
print(torch.trace(W.detach() @ W.detach().T), est / 20)
print(torch.trace(torch.ones(3, 5)), torch.trace(torch.eye(4, dtype=torch.float64) * 0.1))
