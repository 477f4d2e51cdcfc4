# A heteroscedastic regression head (mean and variance) trained with GaussianNLLLoss, and a
# multi-label classifier's MultiLabelSoftMarginLoss, with the gradients they send back.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mu = torch.randn(5, 2, requires_grad=True)
var = (torch.rand(5, 2) + 0.1).requires_grad_()
y = torch.randn(5, 2)
crit = nn.GaussianNLLLoss()
print(crit)
loss = crit(mu, y, var)
print(loss)
loss.backward()
print(mu.grad, var.grad)
print(F.gaussian_nll_loss(mu, y, var, full=True, reduction="sum"))
print(F.gaussian_nll_loss(mu, y, torch.ones(5, requires_grad=True), reduction="none"))
print(F.gaussian_nll_loss(mu, y, 0.5))
v0 = torch.tensor([[0.0, 1.0]] * 5, requires_grad=True)
l = F.gaussian_nll_loss(mu, y, v0)
l.backward()
print(l, v0.grad)
x = torch.randn(3, 4, requires_grad=True)
t = torch.tensor([[1., 0., 1., 0.], [0., 0., 1., 1.], [1., 1., 1., 0.]])
m = nn.MultiLabelSoftMarginLoss()
print(m)
out = m(x, t)
out.backward()
print(out, x.grad)
print(F.multilabel_soft_margin_loss(x, t, weight=torch.tensor([1., 2., 3., 4.]), reduction="none"))
for bad in [lambda: F.gaussian_nll_loss(mu, y, -1.0), lambda: F.gaussian_nll_loss(mu, y, torch.ones(3)), lambda: F.gaussian_nll_loss(mu, y, var, reduction="avg")]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
