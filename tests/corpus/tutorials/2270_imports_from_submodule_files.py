# Course notebooks and older repositories import classes from the file that defines them
# (torch.distributions.one_hot_categorical, torch.optim.adam, torch.autograd.grad_mode...)
# instead of from the package. Both spellings name the same objects.
import torch
import torch.distributions.normal as normal_mod
from torch.autograd.grad_mode import no_grad, enable_grad
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.categorical import Categorical
from torch.distributions.kl import kl_divergence
from torch.distributions.one_hot_categorical import (
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
)
from torch.distributions.relaxed_bernoulli import RelaxedBernoulli
from torch.nn.modules.activation import ReLU
from torch.nn.modules.linear import Linear
from torch.nn.parameter import Parameter
from torch.optim.adam import Adam
from torch.optim.lr_scheduler import StepLR
from torch.utils.data.dataloader import DataLoader
from torch.utils.data.dataset import TensorDataset

torch.manual_seed(0)

# a tiny Gumbel-softmax style sampler: hard one-hot samples with straight-through gradients
logits = torch.zeros(2, 3, requires_grad=True)
print(OneHotCategorical(logits=torch.zeros(2, 3)).sample())
st = OneHotCategoricalStraightThrough(logits=logits).rsample()
(st * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(st)
print(logits.grad)

print(OneHotCategorical is torch.distributions.OneHotCategorical)
print(normal_mod.Normal is torch.distributions.Normal)
print(torch.distributions.one_hot_categorical.OneHotCategorical is OneHotCategorical)

p = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
q = Categorical(probs=torch.tensor([1 / 3, 1 / 3, 1 / 3]))
print(kl_divergence(p, q))
print(Bernoulli(probs=0.25).entropy())
print(RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor(0.3)).rsample().shape)
print(RelaxedBernoulli(torch.tensor(0.5), logits=torch.zeros(2)).batch_shape)
print(normal_mod.Normal(0.0, 2.0).log_prob(torch.tensor(1.0)))

x = torch.linspace(-1, 1, 8).reshape(8, 1)
y = 3 * x + 0.5
loader = DataLoader(TensorDataset(x, y), batch_size=4)
model = torch.nn.Sequential(Linear(1, 4), ReLU(), Linear(4, 1))
model.register_parameter("bias_shift", Parameter(torch.zeros(1)))
opt = Adam(model.parameters(), lr=0.05)
sched = StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(4):
    total = 0.0
    for xb, yb in loader:
        loss = ((model(xb) + model.bias_shift - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    print(epoch, round(total, 4), sched.get_last_lr())

with no_grad():
    out = model(x[:2])
    with enable_grad():
        print(out.requires_grad, (x * 1).requires_grad)

try:
    from torch.distributions.normal import Gaussian
except ImportError as err:
    print(type(err).__name__ + ":", str(err).split(" (")[0])
