# Newton's method wants the Hessian. For logistic regression the loss's curvature comes
# from sigmoid(w . x); a log-partition function gets its curvature from logsumexp. Both
# Hessians here are torch.func.hessian's, forward-over-reverse, printed to the last digit.
import torch
from torch.func import hessian, jvp

torch.set_printoptions(precision=10)

X = torch.tensor([[1.0, 0.5, -1.5], [0.2, -0.3, 0.8], [-1.1, 2.0, 0.4], [0.7, 0.7, 0.7]])
t = torch.tensor([1.0, 0.0, 1.0, 0.0])
w = torch.tensor([0.3, -0.2, 0.5])


def mean_squared_prob_error(w):
    p = torch.sigmoid(X @ w)
    return ((p - t) ** 2).mean()


H = hessian(mean_squared_prob_error)(w)
print("Hessian of the probability error:")
print(H)
print("symmetric:", torch.equal(H, H.T))

# the gradient a Newton step would use with it
g = torch.func.grad(mean_squared_prob_error)(w)
print("gradient:", g)


def log_partition(theta):
    return torch.logsumexp(X @ theta, dim=0)


print("curvature of the log-partition function:")
print(hessian(log_partition)(w))
print("its directional derivative:", jvp(log_partition, (w,), (torch.tensor([1.0, 0.0, -1.0]),))[1])
scores = X @ w
print("row-wise logsumexp, moved:", jvp(lambda s: s.logsumexp(dim=1), (X,), (X.flip(0),))[1])
print("sigmoid's own slope:", jvp(torch.sigmoid, (scores,), (torch.ones(4),))[1])
