# Binary regression two ways: a logit link and a probit link, fit by gradient descent.
# The probit model's log-likelihood uses torch.special.log_ndtr, which stays finite far in
# the tails where log(ndtr(x)) would underflow to -inf.
import torch

torch.manual_seed(0)

n = 200
X = torch.randn(n, 2)
true_w = torch.tensor([1.5, -2.0])
p_true = torch.special.expit(X @ true_w + 0.3)
y = torch.bernoulli(p_true)


def logit_nll(w, b):
    eta = X @ w + b
    # log p = log sigmoid(eta), log (1 - p) = log sigmoid(-eta)
    return -(y * torch.nn.functional.logsigmoid(eta) + (1 - y) * torch.nn.functional.logsigmoid(-eta)).mean()


def probit_nll(w, b):
    eta = X @ w + b
    return -(y * torch.special.log_ndtr(eta) + (1 - y) * torch.special.log_ndtr(-eta)).mean()


for name, nll in [("logit", logit_nll), ("probit", probit_nll)]:
    w = torch.zeros(2, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=0.5)
    for step in range(101):
        opt.zero_grad()
        loss = nll(w, b)
        loss.backward()
        opt.step()
        if step % 25 == 0:
            print(f"{name} step {step:3d}  nll {loss.item():.5f}")
    print(name, "w =", w.data, "b =", b.data)

# The probit coefficients are about the logit ones divided by 1.6-1.8
# (the logistic's standard deviation is pi / sqrt(3)).
with torch.no_grad():
    eta = X[:5] @ w + b
    print("probit probabilities:", torch.special.ndtr(eta))
    print("back to the linear predictor:", torch.special.ndtri(torch.special.ndtr(eta)))

# logit and its inverse; eps clamps the probabilities away from 0 and 1
p = torch.tensor([0.0, 1e-8, 0.25, 0.5, 0.999, 1.0], requires_grad=True)
z = torch.logit(p, eps=1e-6)
print(z)
z.sum().backward()
print(p.grad)
print(torch.logit(torch.tensor([0.2, 0.8])), torch.special.logit(torch.tensor(0.9)))
q = torch.tensor([0.1, 0.4], requires_grad=True)
print(torch.special.expit(torch.logit(q)))
print(torch.special.erfinv(torch.tensor([-0.5, 0.0, 0.5, 0.999])))
print(torch.special.ndtri(torch.tensor([0.025, 0.5, 0.975])))
