# REINFORCE (the score-function gradient) with a small policy network: actions drawn from a
# Categorical over the policy's logits, the loss -(log_prob * normalised return); then the
# other distributions a policy-gradient notebook meets: Bernoulli and Uniform.
import torch
import torch.nn as nn
from torch.distributions import Bernoulli, Categorical, Uniform

torch.manual_seed(3)
policy = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
opt = torch.optim.Adam(policy.parameters(), lr=0.01)
for episode in range(4):
    log_probs, rewards = [], []
    for t in range(5):
        state = torch.randn(3)
        m = Categorical(logits=policy(state))
        action = m.sample()
        log_probs.append(m.log_prob(action))
        rewards.append(1.0 if action.item() == 1 else -0.5)
    returns = torch.tensor(rewards)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, round(loss.item(), 5), m.probs, m.entropy())
print(m)
print(Categorical(torch.tensor([[0.1, 0.9], [0.5, 0.5]])).sample((3,)))
b = Bernoulli(logits=torch.tensor([0.0, 2.0], requires_grad=True))
lp = b.log_prob(torch.tensor([1.0, 0.0])).sum()
lp.backward()
print(b, lp, b.sample((2,)), b.mean, b.variance)
u = Uniform(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 3.0]))
print(u.rsample(), u.entropy(), u.log_prob(torch.tensor([0.5, 3.0])), u.mean, u.stddev)
try:
    Categorical(logits=torch.zeros(3)).log_prob(torch.tensor(3))
except ValueError as e:
    print("ValueError:", e)
