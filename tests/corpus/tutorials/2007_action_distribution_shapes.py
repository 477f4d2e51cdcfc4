# Shapes of an action distribution in a small policy-gradient setup: the parameter's shape
# (param_shape) next to the batch and event shapes, for discrete and binary actions.
import torch
from torch.distributions import Bernoulli, Categorical

torch.manual_seed(4)
logits = torch.randn(3, 5)
pi = Categorical(logits=logits)
print("param", pi.param_shape, "batch", pi.batch_shape, "event", pi.event_shape)
actions = pi.sample()
print(actions, pi.log_prob(actions))
wide = pi.expand((2, 3))
print(wide.param_shape, wide.sample().shape)

press = Bernoulli(probs=torch.tensor([0.25, 0.75]))
print(press.param_shape, press.sample((4,)))
print(Bernoulli(0.5).param_shape)
