# Compounding returns with cumprod, and the sensitivity of the final wealth to each return.
import torch

returns = torch.tensor([0.05, -0.02, 0.03, 0.10, -0.04], requires_grad=True)
growth = 1 + returns
wealth = torch.cumprod(growth, dim=0)
print(wealth)

wealth[-1].backward()
print("d final / d returns:", returns.grad)

# log-space bookkeeping: cumsum of log growth is the log of the cumulative product
log_wealth = torch.cumsum(torch.log(growth.detach()), dim=0)
print((log_wealth.exp() - wealth.detach()).abs().max() < 1e-5)

# a running log-sum-exp, as used for streaming normalisers
scores = torch.tensor([[0.5, 1.5, -0.3, 2.0], [1.0, 1.0, 1.0, 1.0]], requires_grad=True)
norm = torch.logcumsumexp(scores, dim=1)
print(norm)
norm[:, -1].sum().backward()
print(scores.grad)
