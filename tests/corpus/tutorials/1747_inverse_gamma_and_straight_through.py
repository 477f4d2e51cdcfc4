# A conjugate prior on a noise variance (InverseGamma) and a discrete choice trained with the
# straight-through estimator (OneHotCategoricalStraightThrough).
import torch
from torch.distributions import InverseGamma, Normal, OneHotCategoricalStraightThrough

torch.manual_seed(17)

prior = InverseGamma(torch.tensor(3.0), torch.tensor(2.0))
print(prior, prior.mean, prior.mode, prior.variance, prior.entropy())
sigma2 = prior.sample((4,))
print(sigma2, prior.log_prob(sigma2))

# posterior after observing residuals: alpha + n/2, beta + sum(r^2)/2
residuals = torch.tensor([0.3, -1.1, 0.8, 0.1, -0.4])
post = InverseGamma(
    prior.concentration + residuals.numel() / 2, prior.rate + residuals.pow(2).sum() / 2
)
print(post.concentration, post.rate, post.mean)
print(Normal(0.0, post.mean.sqrt()).log_prob(residuals).sum())

logits = torch.zeros(3, 4, requires_grad=True)
opt = torch.optim.SGD([logits], lr=0.5)
reward = torch.tensor([0.0, 1.0, 0.2, -1.0])
for step in range(5):
    choice = OneHotCategoricalStraightThrough(logits=logits).rsample()
    loss = -(choice * reward).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, choice.argmax(-1).tolist(), round(loss.item(), 4))
print(logits.detach().round(decimals=4))
print(torch.softmax(logits.detach(), -1).argmax(-1))
