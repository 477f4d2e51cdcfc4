# Batched products the way forum answers write them: einsum for attention scores and for a
# plain matrix product, a shared weight matrix applied to a batch from the left (with and
# without requires_grad), and a transposed batch times a matrix; values printed in full.
import torch

torch.manual_seed(3)
q = torch.randn(2, 4, 30, requires_grad=True)
k = torch.randn(2, 3, 30, requires_grad=True)
scores = torch.einsum("bqd,bkd->bqk", q, k)
print(scores.tolist())
scores.backward(torch.randn(2, 4, 3))
print(q.grad[0, 0, :5].tolist())
print(k.grad[1, 2, :5].tolist())

a = torch.randn(5, 20, requires_grad=True)
b = torch.randn(20, 3)
r = torch.einsum("ij,jk->ik", a, b)
r.sum().backward()
print(r.tolist())
print(a.grad[0].tolist())

# one matrix applied to every sample of a batch: W @ X
X = torch.randn(3, 20, 5, requires_grad=True)
W = torch.randn(4, 20)
Y = W @ X
print(Y.grad_fn.name(), Y[1].tolist())
W.requires_grad_()
Y = W @ X
print(Y.grad_fn.name(), Y[2].tolist())
Y.backward(torch.randn(3, 4, 5))
print(W.grad[0].tolist())
print(X.grad[2, :2].tolist())

# a batch stored transposed times a matrix
Xt = torch.randn(3, 5, 20).transpose(1, 2)
M = torch.randn(5, 3)
Z = Xt @ M
print(Z.grad_fn, Z[0, :4].tolist())
M.requires_grad_()
Z = Xt @ M
print(Z.grad_fn.name(), Z[0, :4].tolist())
Z.sum().backward()
print(M.grad.tolist())

try:
    Xt @ torch.randn(4, 2)
except RuntimeError as e:
    print("RuntimeError:", e)
