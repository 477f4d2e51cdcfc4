# A WGAN-GP style critic whose hidden activation works in place, its gradient penalty
# computed inside a helper function (the interpolated batch and the critic's output are
# dropped when it returns), plus a retained intermediate gradient seen after a
# create_graph pass and after the backward that follows it.
import torch
import torch.nn as nn

torch.manual_seed(7)
critic = nn.Sequential(
    nn.Linear(3, 5),
    nn.LeakyReLU(0.2, inplace=True),
    nn.Linear(5, 4),
    nn.ReLU(inplace=True),
    nn.Linear(4, 1),
)


def gradient_penalty(real, fake):
    eps = torch.rand(real.size(0), 1)
    mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
    scores = critic(mixed)
    grads = torch.autograd.grad(
        outputs=scores,
        inputs=mixed,
        grad_outputs=torch.ones_like(scores),
        create_graph=True,
        retain_graph=True,
    )[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


opt = torch.optim.SGD(critic.parameters(), lr=0.05)
for step in range(3):
    real = torch.randn(6, 3) + 1.0
    fake = torch.randn(6, 3)
    opt.zero_grad()
    gp = gradient_penalty(real, fake)
    loss = critic(fake).mean() - critic(real).mean() + 10 * gp
    loss.backward()
    opt.step()
    print(f"step {step}: gp {gp.item():.5f} loss {loss.item():.5f}")
print(critic[0].weight.grad)

x = torch.tensor([0.3, -1.2, 0.8], requires_grad=True)
h = x * 2
h.retain_grad()
(g,) = torch.autograd.grad(torch.sigmoid(h).sum(), x, create_graph=True)
print(h.grad)
(g**2).sum().backward()
print(h.grad)
print(x.grad)
