# Learning binary gates with the concrete (relaxed Bernoulli) trick: a low temperature
# pushes the relaxed samples toward 0 and 1, and the gate logits get gradients.
import torch
from torch.distributions import RelaxedBernoulli

torch.manual_seed(11)
gate_logits = torch.tensor([1.5, -0.5, 0.0, -2.0], requires_grad=True)
features = torch.tensor([0.8, -1.2, 2.0, 0.4])
opt = torch.optim.SGD([gate_logits], lr=0.5)
for temperature in (1.0, 0.5, 0.1):
    dist = RelaxedBernoulli(torch.tensor(temperature), logits=gate_logits)
    gates = dist.rsample((3,))
    loss = ((gates * features).sum(-1) - 1.0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(temperature, gates, loss.item())
    print(gate_logits.grad)

dist = RelaxedBernoulli(torch.tensor([2.2]), probs=torch.tensor([0.1, 0.2, 0.3, 0.99]))
x = dist.sample()
print(dist, dist.temperature, dist.probs)
print(x, dist.log_prob(x))
print(dist.base_dist, dist.batch_shape, dist.has_rsample)
