# The induced 1- and inf-norms of a matrix (largest absolute column / row sum), as a forum
# answer computes a Lipschitz bound of a linear layer, with their gradients and graphs.
import torch

torch.manual_seed(11)
W = torch.randn(9, 13, requires_grad=True)

col = torch.linalg.matrix_norm(W, 1)
row = torch.linalg.matrix_norm(W, float("inf"))
print(col.item(), row.item())
print(col.grad_fn.name(), col.grad_fn.next_functions[0][0].name())

bound = col * row
bound.backward()
print(W.grad.abs().sum().item(), W.grad.nonzero().shape)

print(torch.linalg.norm(W.detach(), 1), torch.linalg.norm(W.detach(), -float("inf")))
print(torch.linalg.matrix_norm(W.detach(), -1, dim=(1, 0), keepdim=True))

batch = torch.randn(3, 6, 5, dtype=torch.float64)
print(torch.linalg.matrix_norm(batch, 1))
print(torch.linalg.matrix_norm(batch, float("inf"), dim=(0, 2)))
