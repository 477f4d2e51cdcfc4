# Per-example gradients of a negative log-likelihood with torch.func: the gradient with respect
# to the log-probabilities is -1/N at each label and exactly zero at the other classes.
import torch
import torch.nn.functional as F
from torch.func import grad, jacrev, vmap

log_probs = torch.tensor([[-0.2, -1.9, -2.5], [-1.1, -0.6, -1.8], [-2.2, -0.9, -0.7]])
labels = torch.tensor([0, 2, 1])


def mean_nll(lp):
    return F.nll_loss(lp, labels)


print(grad(mean_nll)(log_probs))
print(jacrev(lambda lp: F.nll_loss(lp, labels, reduction="sum"))(log_probs))


def one(lp, y):
    return F.nll_loss(lp.unsqueeze(0), y.unsqueeze(0))


print(vmap(grad(one))(log_probs, labels))

lp = log_probs.clone().requires_grad_()
(g,) = torch.autograd.grad(F.nll_loss(lp, labels, ignore_index=2), lp, create_graph=True)
print(g.detach())
