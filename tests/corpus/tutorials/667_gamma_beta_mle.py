# Maximum likelihood for every parameter of a Gamma (shape and rate, kept positive through
# softplus) and a Beta, by Adam on log_prob, then the fitted entropies and a KL divergence to
# a reference; the gradients flow through lgamma and digamma (float32 lgamma / digamma can
# differ from PyTorch's in the last bit: the Beta fit prints 4 digits).
import torch
import torch.nn.functional as F
from torch.distributions import Beta, Dirichlet, Gamma, kl_divergence

torch.manual_seed(17)
data = Gamma(torch.tensor(3.0), torch.tensor(1.5)).sample((200,))
raw = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([raw], lr=0.05)
for step in range(120):
    shape, rate = F.softplus(raw).unbind(0)
    nll = -Gamma(shape, rate).log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 40 == 0:
        print(f"step {step}: nll {nll.item():.5f} shape {shape.item():.4f} rate {rate.item():.4f}")
fit = Gamma(*F.softplus(raw).detach().unbind(0))
print(fit, fit.mean, fit.entropy())
print(kl_divergence(fit, Gamma(torch.tensor(3.0), torch.tensor(1.5))))

ratios = Beta(torch.tensor(2.0), torch.tensor(5.0)).sample((150,))
log_ab = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([log_ab], lr=0.05)
for step in range(100):
    a, b = log_ab.exp().unbind(0)
    nll = -Beta(a, b).log_prob(ratios).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
a, b = log_ab.exp().tolist()
print(f"beta: a {a:.4f} b {b:.4f} nll {nll.item():.4f}")
conc = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = Dirichlet(conc)
loss = d.entropy() + d.log_prob(torch.tensor([0.2, 0.3, 0.5]))
loss.backward()
print(loss, conc.grad)
