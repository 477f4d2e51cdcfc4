# Writing a small Bernoulli-like distribution by hand with the helpers of
# torch.distributions.utils (broadcast_all, probs_to_logits, logits_to_probs, clamp_probs),
# then checking it against the library's own Bernoulli.
import torch
from torch.distributions import Bernoulli
from torch.distributions.utils import (
    broadcast_all,
    clamp_probs,
    logits_to_probs,
    probs_to_logits,
)


class Coin:
    def __init__(self, probs, value_shape_hint=0.0):
        self.probs, _ = broadcast_all(probs, value_shape_hint)
        self.logits = probs_to_logits(self.probs, is_binary=True)

    def log_prob(self, value):
        logits, value = broadcast_all(self.logits, value)
        return -torch.nn.functional.binary_cross_entropy_with_logits(
            logits, value, reduction="none"
        )


p = torch.tensor([0.1, 0.5, 0.9], dtype=torch.float64, requires_grad=True)
coin = Coin(p)
ref = Bernoulli(probs=p)
v = torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64)
print(coin.log_prob(v))
print(ref.log_prob(v))
print(torch.allclose(coin.logits, ref.logits))
coin.log_prob(v).sum().backward()
print(p.grad)

scores = torch.tensor([[2.0, 0.0, -1.0], [0.5, 0.5, 0.5]], dtype=torch.float64)
probs = logits_to_probs(scores)
print(probs, probs.sum(-1))
print(probs_to_logits(probs) - torch.log_softmax(scores, -1))
print(logits_to_probs(torch.tensor([0.0, 3.0]), is_binary=True))
print(clamp_probs(torch.tensor([0.0, 1.0])), clamp_probs(torch.tensor([0.0], dtype=torch.float64)))
a, b, c = broadcast_all(torch.zeros(2, 1), 1, 2.5)
print(a.shape, b, c.dtype)
print(broadcast_all(1, 2))
try:
    broadcast_all(torch.ones(2), [1.0, 2.0])
except ValueError as e:
    print("ValueError:", e)
