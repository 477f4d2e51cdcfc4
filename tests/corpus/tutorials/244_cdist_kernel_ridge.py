# A Gaussian (RBF) kernel from torch.cdist, kernel ridge regression with torch.linalg.solve,
# and the gradient of the fitted values with respect to the length scale.
import torch

X = torch.tensor([[0.0], [1.0], [2.0], [3.0]])
y = torch.tensor([0.0, 0.8, 0.9, 0.1])
ell = torch.tensor(1.0, requires_grad=True)

D = torch.cdist(X, X)
print(D)
K = torch.exp(-D ** 2 / (2 * ell ** 2))
print(K)
alpha = torch.linalg.solve(K + 0.1 * torch.eye(4), y)
print(alpha)
fit = K @ alpha
print(fit)
fit.sum().backward()
print(ell.grad)

P = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
Q = torch.tensor([[0.0, 0.0], [1.0, 1.0], [6.0, 8.0]])
d1 = torch.cdist(P, Q, p=1)
print(d1)
d1.sum().backward()
print(P.grad)
print(torch.cdist(P.detach(), Q, p=float('inf')))
