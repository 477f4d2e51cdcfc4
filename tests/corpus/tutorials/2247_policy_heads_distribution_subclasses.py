# Policy heads for an actor-critic agent built on subclassed distributions: actions kept with a
# trailing dim of 1, log-probabilities summed over action dims, a deterministic "mode" method,
# a tanh-squashed Gaussian for bounded actions, and a small hand-written diagonal Gaussian that
# reads the base class's private shape helpers.
import torch
import torch.nn as nn
from torch.distributions import Bernoulli, Categorical, Distribution, Normal, constraints
from torch.distributions import TransformedDistribution
from torch.distributions.transforms import TanhTransform


class ActionCategorical(Categorical):
    def sample(self):
        return super().sample().unsqueeze(-1)

    def log_probs(self, actions):
        lp = super().log_prob(actions.squeeze(-1))
        return lp.view(actions.size(0), -1).sum(-1).unsqueeze(-1)

    def mode(self):
        return self.probs.argmax(dim=-1, keepdim=True)


class ActionNormal(Normal):
    def log_probs(self, actions):
        return super().log_prob(actions).sum(-1, keepdim=True)

    def entropy(self):
        return super().entropy().sum(-1)

    def mode(self):
        return self.mean


class ActionBernoulli(Bernoulli):
    def log_probs(self, actions):
        return super().log_prob(actions).view(actions.size(0), -1).sum(-1).unsqueeze(-1)

    def mode(self):
        return torch.gt(self.probs, 0.5).float()


class Squashed(TransformedDistribution):
    def __init__(self, loc, scale):
        self.loc = loc
        self.scale = scale
        super().__init__(Normal(loc, scale), [TanhTransform(cache_size=1)])

    @property
    def mean(self):
        out = self.loc
        for t in self.transforms:
            out = t(out)
        return out


class DiagGaussian(Distribution):
    arg_constraints = {"mu": constraints.real, "log_std": constraints.real}
    has_rsample = True

    def __init__(self, mu, log_std, validate_args=None):
        self.mu, self.log_std = mu, log_std
        super().__init__(mu.shape[:-1], mu.shape[-1:], validate_args=validate_args)

    def rsample(self, sample_shape=torch.Size()):
        eps = torch.randn(self._extended_shape(sample_shape), dtype=self.mu.dtype)
        return self.mu + eps * self.log_std.exp()

    def log_prob(self, x):
        z = (x - self.mu) / self.log_std.exp()
        return (-0.5 * z**2 - self.log_std - 0.5 * torch.log(torch.tensor(2 * torch.pi))).sum(-1)


torch.manual_seed(3)
body = nn.Linear(4, 6).double()
obs = torch.randn(5, 4, dtype=torch.float64)
feat = body(obs)

pi = ActionCategorical(logits=feat[:, :3])
a = pi.sample()
print("actions:", a.squeeze(-1).tolist(), "mode:", pi.mode().squeeze(-1).tolist())
lp = pi.log_probs(a)
print(lp.shape, lp)
adv = torch.linspace(-1, 1, 5, dtype=torch.float64).unsqueeze(-1)
(-(lp * adv).mean() - 0.01 * pi.entropy().mean()).backward()
print("bias grad:", body.bias.grad)

body.zero_grad()
g = ActionNormal(feat[:, 3:5], torch.full((5, 2), 0.3, dtype=torch.float64))
act = g.sample()
print(g.log_probs(act).squeeze(-1), g.entropy())
print(torch.equal(g.mode(), feat[:, 3:5]), g.batch_shape, g._batch_shape)

flips = ActionBernoulli(logits=feat[:, 5:])
f = flips.sample()
print(f.squeeze(-1), flips.log_probs(f).squeeze(-1), flips.mode().squeeze(-1))

sq = Squashed(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 0.5]))
u = sq.rsample((3,))
print(u.abs().max() < 1, sq.log_prob(u).shape, sq.mean)
print(sq.batch_shape, sq.event_shape, isinstance(sq, TransformedDistribution))

mu = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
log_std = torch.full((2, 3), -0.5, dtype=torch.float64, requires_grad=True)
dg = DiagGaussian(mu, log_std)
print(dg._batch_shape, dg._event_shape, dg._validate_args, dg._extended_shape((4,)))
x = dg.rsample((4,))
print(x.shape, x.requires_grad, dg.sample().requires_grad)
dg.log_prob(x.detach()).mean().backward()
print(mu.grad)
print(log_std.grad)
print(DiagGaussian(mu, log_std, validate_args=False)._validate_args)
