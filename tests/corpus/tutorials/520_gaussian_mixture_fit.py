# Fit a 1-D Gaussian mixture by maximum likelihood with MixtureSameFamily
import torch
import torch.distributions as D

torch.manual_seed(0)
true = D.MixtureSameFamily(
    D.Categorical(probs=torch.tensor([0.3, 0.7])),
    D.Normal(torch.tensor([-2.0, 1.5]), torch.tensor([0.4, 0.8])),
)
print(true)
data = true.sample((200,))
print(data.shape, data[:5])
print(true.mean, true.variance, true.batch_shape, true.event_shape)

logits = torch.zeros(2, requires_grad=True)
loc = torch.tensor([-1.0, 1.0], requires_grad=True)
log_scale = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([logits, loc, log_scale], lr=0.05)
for step in range(60):
    model = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(loc, log_scale.exp()))
    nll = -model.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 20 == 0:
        print(step, round(nll.item(), 5), loc.grad)
print(torch.softmax(logits, 0), loc, log_scale.exp())

# two mixtures at once, components with an event dimension (2-D points)
comp = D.Independent(D.Normal(torch.randn(2, 3, 2), torch.rand(2, 3, 2) + 0.5), 1)
mix = D.MixtureSameFamily(D.Categorical(logits=torch.randn(2, 3)), comp)
print(mix.batch_shape, mix.event_shape, mix.sample((4,)).shape)
print(mix.log_prob(torch.zeros(5, 2, 2)))
print(mix.mean)
