# Most likely values of Beta and Dirichlet priors, e.g. for a click-through-rate model:
# compare mode and mean, and differentiate the mode with respect to the concentrations.
import torch
from torch.distributions import Beta, Dirichlet

prior = Beta(torch.tensor([2.0, 8.0, 0.5]), torch.tensor([5.0, 2.0, 0.5]))
print("mean:", prior.mean)
print("mode:", prior.mode)

alpha = torch.tensor([[3.0, 2.0, 6.0],
                      [1.0, 1.5, 2.0],
                      [0.3, 0.8, 0.6]], requires_grad=True)
topics = Dirichlet(alpha)
mode = topics.mode
print(mode)
mode[0, 2].backward()
print(alpha.grad)

# a posterior after observing counts: the mode moves toward the data
counts = torch.tensor([4.0, 0.0, 1.0])
post = Dirichlet(alpha.detach()[0] + counts)
print(post.mode, post.mean)
print(Beta(torch.tensor(3.0, dtype=torch.float64), torch.tensor(3.0, dtype=torch.float64)).mode)
