# Spectral normalisation, both forms: the parametrization (power iterations on _u and _v) and
# the older hook (weight_orig, weight_u, weight_v), trained, evaluated and removed.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.utils.parametrizations.spectral_norm(nn.Linear(5, 4))
print(m)
print(m.parametrizations.weight[0]._u, m.parametrizations.weight[0]._v)
print(m.weight)
print(sorted(m.state_dict().keys()))
x = torch.randn(3, 5)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i in range(3):
    opt.zero_grad()
    loss = m(x).pow(2).sum()
    loss.backward()
    opt.step()
    print(loss.item())
m.eval()
print(m(x))
c = nn.utils.spectral_norm(nn.Conv2d(2, 3, 3))
print([n for n, _ in c.named_parameters()], [n for n, _ in c.named_buffers()])
print(c.weight_u, c.weight_v.shape)
y = c(torch.randn(1, 2, 5, 5))
print(y.sum(), c.weight.grad_fn.name())
y.sum().backward()
print(c.weight_orig.grad.sum())
nn.utils.remove_spectral_norm(c)
print([n for n, _ in c.named_parameters()], c.weight.sum())
t = nn.utils.parametrizations.spectral_norm(nn.ConvTranspose1d(2, 3, 2))
print(t.weight.shape, t.parametrizations.weight[0]._u.shape)
