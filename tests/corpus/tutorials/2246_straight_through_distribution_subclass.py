# Straight-through estimators and tweaked distributions by subclassing torch.distributions
# classes: a one-hot sampler whose samples carry the gradient of the probabilities, a normal
# with a tempered log-likelihood, and a categorical that masks out invalid actions.
import torch
import torch.nn.functional as F
from torch.distributions import Bernoulli, Categorical, Normal, OneHotCategorical


class StraightThroughOneHot(OneHotCategorical):
    has_rsample = True

    def rsample(self, sample_shape=torch.Size()):
        hard = self.sample(sample_shape)
        soft = self._categorical.probs
        return hard + soft - soft.detach()


class TemperedNormal(Normal):
    def __init__(self, loc, scale, temperature=2.0, validate_args=None):
        super().__init__(loc, scale, validate_args=validate_args)
        self.temperature = temperature

    def log_prob(self, value):
        return super().log_prob(value) / self.temperature

    @property
    def mean(self):
        return super().mean + 0.0


class MaskedCategorical(Categorical):
    def __init__(self, logits, mask):
        self.mask = mask
        masked = logits.masked_fill(~mask, float("-inf"))
        super().__init__(logits=masked)

    def greedy(self):
        return self.probs.argmax(dim=-1)


class NoisyCoin(Bernoulli):
    def flip_all(self, n):
        return self.sample((n,)).sum(0)


torch.manual_seed(7)

# 1. straight-through one-hot samples into a tiny decoder
logits = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)
dist = StraightThroughOneHot(logits=logits)
print(dist)
print("has_rsample:", dist.has_rsample, StraightThroughOneHot.has_rsample)
print("batch/event:", dist.batch_shape, dist.event_shape, dist._batch_shape, dist._event_shape)
codes = dist.rsample()
print(codes)
values = torch.linspace(-1, 1, 5, dtype=torch.float64)
loss = (codes * values).sum()
loss.backward()
print("grad of logits:", logits.grad)
probs = F.softmax(logits.detach(), dim=-1)
print("expected grad:", probs * (values - (probs * values).sum(-1, keepdim=True)))
print(dist.rsample((3,)).shape, dist.log_prob(dist.sample()))
try:  # hard + soft - soft is one-hot only up to rounding: the support check sees it
    dist.log_prob(codes.detach())
except ValueError as e:
    print("ValueError:", e)
print(isinstance(dist, OneHotCategorical), issubclass(StraightThroughOneHot, OneHotCategorical))
print(type(dist).__name__, dist._validate_args)

# 2. tempered normal: its own log_prob, the base's sampling and entropy
mu = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
tn = TemperedNormal(mu, torch.full((3,), 0.5, dtype=torch.float64), temperature=4.0)
print(tn, tn.temperature)
x = torch.tensor([0.0, 0.0, 1.0], dtype=torch.float64)
lp = tn.log_prob(x)
print(lp)
lp.sum().backward()
print("d log_prob / d mu:", mu.grad)
print(tn.mean, tn.stddev, tn.entropy())
print(tn.sample((2,)).shape, tn.rsample().requires_grad)
try:
    TemperedNormal(torch.zeros(2), -torch.ones(2))
except ValueError as e:
    print("ValueError:", e)

# 3. masked categorical for invalid actions
scores = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.3, 0.1, 0.2, 0.4]])
mask = torch.tensor([[True, False, True, True], [False, True, True, False]])
mc = MaskedCategorical(scores, mask)
print(mc, mc._num_events, mc._param.shape)
print("greedy:", mc.greedy())
print("probs:", mc.probs)
print("samples:", mc.sample((6,)))
print("entropy:", mc.entropy())

# 4. a Bernoulli with a method of its own
coin = NoisyCoin(probs=torch.tensor([0.1, 0.5, 0.9]))
print(coin.flip_all(20), coin.mode, coin._param)
print(coin)
