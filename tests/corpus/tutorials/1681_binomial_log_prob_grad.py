# Fitting a Binomial's success probability by maximum likelihood: log_prob, its gradient with
# respect to the logits, entropy and enumerate_support, printed to every digit.
import torch
import torch.distributions as D

torch.set_printoptions(precision=8)
successes = torch.tensor([3., 7., 12., 0., 20.])
trials = torch.tensor([10., 10., 20., 5., 20.])

logits = torch.zeros(5, requires_grad=True)
opt = torch.optim.SGD([logits], lr=0.05)
for step in range(4):
    dist = D.Binomial(total_count=trials, logits=logits)
    loss = -dist.log_prob(successes).sum()
    opt.zero_grad()
    loss.backward()
    print(step, loss.item(), logits.grad)
    opt.step()

dist = D.Binomial(trials, logits=logits.detach())
print(dist)
print(dist.probs)
print(dist)
print(dist.mean, dist.variance, dist.mode, sep="\n")

p = torch.tensor([0.1, 0.35, 0.5, 0.9], requires_grad=True)
coin = D.Binomial(12, probs=p)
lp = coin.log_prob(torch.tensor([1., 4., 6., 11.]))
print(lp)
lp.sum().backward()
print(p.grad)
h = coin.entropy()
print(h)
print(coin.enumerate_support().shape, coin.enumerate_support(expand=False).shape)

q = torch.tensor([0.2, 0.6], dtype=torch.float64, requires_grad=True)
d64 = D.Binomial(torch.tensor([30., 30.], dtype=torch.float64), q)
lp = d64.log_prob(torch.tensor([5., 19.], dtype=torch.float64))
lp.sum().backward()
print(lp, q.grad)

try:
    D.Binomial(trials, probs=torch.tensor([0.5, 1.2, 0.3, 0.2, 0.1]))
except ValueError as e:
    print("ValueError:", e)
try:
    coin.log_prob(torch.tensor([13., 1., 1., 1.]))
except ValueError as e:
    print("ValueError:", e)
try:
    D.Binomial(trials, logits=logits.detach()).entropy()
except NotImplementedError as e:
    print("NotImplementedError:", e)
