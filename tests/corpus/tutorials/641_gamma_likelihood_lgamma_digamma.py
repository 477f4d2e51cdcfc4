# Maximum likelihood for a Gamma(shape k, rate r) model written out by hand with lgamma,
# plus the digamma / polygamma derivatives autograd finds for it.
import math

import torch

torch.manual_seed(0)
# a Gamma(3, 2) sample: the sum of 3 exponentials of rate 2
data = -torch.log(torch.rand(500, 3)).sum(dim=1) / 2.0
print("sample mean", data.mean().item())


def gamma_log_likelihood(log_k, log_r, x):
    k, r = log_k.exp(), log_r.exp()
    return (k * torch.log(r) - torch.lgamma(k) + (k - 1) * torch.log(x) - r * x).sum()


log_k = torch.tensor(0.0, requires_grad=True)
log_r = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([log_k, log_r], lr=0.05)
for step in range(301):
    opt.zero_grad()
    nll = -gamma_log_likelihood(log_k, log_r, data) / len(data)
    nll.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step}: nll={nll.item():.4f} k={log_k.exp().item():.4f} r={log_r.exp().item():.4f}")

k = log_k.detach().exp()
r = log_r.detach().exp()
ll = gamma_log_likelihood(log_k.detach(), log_r.detach(), data)
print(f"log-likelihood: {ll.item():.3f}, mean k / r: {(k / r).item():.5f}")
# at the optimum, log(k) - digamma(k) = log(mean) - mean(log x)
print(torch.log(k) - torch.digamma(k), torch.log(data.mean()) - torch.log(data).mean())

# d/dk lgamma(k) = digamma(k), d2/dk2 = polygamma(1, k)
kk = torch.tensor([0.5, 1.0, 2.5, 10.0], requires_grad=True)
(g,) = torch.autograd.grad(torch.lgamma(kk).sum(), kk, create_graph=True)
print(g)
print(torch.digamma(kk.detach()))
(h,) = torch.autograd.grad(g.sum(), kk)
print(h)
print(torch.polygamma(1, kk.detach()), kk.detach().polygamma(2))
print(torch.special.psi(torch.tensor(1.0)), -0.5772156649015329)
print(torch.special.gammaln(torch.tensor([1.0, 5.0, 0.5])), math.log(24), math.log(math.pi) / 2)
print(torch.mvlgamma(torch.tensor([2.5, 4.0]), p=3))
print(torch.special.multigammaln(torch.tensor(3.0), 2))

# xlogy makes 0 * log(0) = 0: the entropy of distributions with zeros
probs = torch.tensor([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.2, 0.3, 0.5]], requires_grad=True)
H = -torch.xlogy(probs, probs).sum(dim=1)
print(H)
print(torch.special.entr(probs).sum(dim=1))
H.sum().backward()
print(probs.grad)
print(torch.logaddexp(torch.tensor([-1000.0, 0.0]), torch.tensor([-1000.0, 1.0])))
print(torch.special.i0(torch.tensor([0.0, 1.0, 5.0])), torch.special.i1e(torch.tensor([0.5, 50.0])))
