# vmap over the products people write inside a per-example function: x @ W.t(), W @ x,
# torch.dot, torch.mv and F.linear, with the batch along dim 0 or dim 1, printed in full.
import torch
import torch.nn.functional as F
from torch.func import grad, vmap

torch.manual_seed(11)
torch.set_printoptions(precision=8)

W = torch.randn(4, 20)
b = torch.randn(4)
X = torch.randn(6, 20)
Xt = torch.randn(20, 6)

print(vmap(lambda x: x @ W.t())(X))
print(vmap(lambda x: W @ x)(X))
print(vmap(lambda x: W @ x, in_dims=1)(Xt))
print(vmap(F.linear, in_dims=(0, None, None))(X, W, b))
print(vmap(torch.dot)(X, X.flip(0)))
print(vmap(torch.dot, in_dims=(0, None))(X, X[2]))
print(vmap(torch.mv, in_dims=(None, 0))(W, X))

# a two-layer model's per-example gradient with respect to its input
W2 = torch.randn(3, 4)


def model(x):
    return torch.tanh(x @ W.t() + b) @ W2.t()


def loss(x):
    return model(x).pow(2).sum()


g = vmap(grad(loss))(X)
print(g[:, :5])
print(torch.equal(vmap(model)(X), model(X)))
