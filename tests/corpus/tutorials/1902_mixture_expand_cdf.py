# A Gaussian mixture shared by a batch of series: expand it instead of copying parameters
import torch
from torch.distributions import Categorical, MixtureSameFamily, MultivariateNormal, Normal

torch.manual_seed(11)
weights = torch.tensor([0.2, 0.5, 0.3])
gmm = MixtureSameFamily(
    Categorical(probs=weights),
    Normal(torch.tensor([-2.0, 0.0, 3.0]), torch.tensor([0.5, 1.0, 0.8])),
)
batch = gmm.expand(torch.Size([4]))
print(batch)
print(batch.batch_shape, batch.event_shape)
print(batch.mixture_distribution.probs.shape, batch.component_distribution.loc.shape)
x = torch.tensor([-2.0, 0.1, 1.5, 3.2])
print("log_prob:", batch.log_prob(x))
print("cdf:", batch.cdf(x))
print("mean:", batch.mean, "variance:", batch.variance)
print(batch.sample((2,)))
print("support:", batch.support, batch.support.check(x))

# expanding a batched mixture adds leading dimensions
rows = MixtureSameFamily(
    Categorical(logits=torch.tensor([[0.0, 1.0], [2.0, -1.0]])),
    Normal(torch.tensor([[0.0, 1.0], [-1.0, 2.0]]), torch.ones(2, 2)),
)
grid = rows.expand((3, 2))
print(grid.batch_shape, grid.log_prob(torch.tensor(0.5)))
try:
    rows.expand((3,))
except RuntimeError as e:
    print("cannot expand:", e)

# two-dimensional components keep their event shape
blobs = MixtureSameFamily(
    Categorical(torch.ones(2)),
    MultivariateNormal(torch.tensor([[0.0, 0.0], [3.0, 3.0]]), torch.eye(2).expand(2, 2, 2)),
)
many = blobs.expand([5])
print(many.batch_shape, many.event_shape, many.support)
print(many.log_prob(torch.tensor([1.0, 1.0])))
print(many.sample().shape)
