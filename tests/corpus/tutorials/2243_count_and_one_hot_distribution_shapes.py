# Shapes and moments of the count and one-hot distributions: what param_shape, batch_shape and
# event_shape say, and which moments a distribution does not define.
import torch
import torch.distributions as dist

torch.manual_seed(5)
logits = torch.tensor([[0.5, -0.2, 1.0], [0.0, 0.3, -1.2]], dtype=torch.float64)

families = {
    "binomial": dist.Binomial(total_count=torch.tensor([6.0, 9.0]), logits=logits[:, 0]),
    "multinomial": dist.Multinomial(total_count=7, logits=logits),
    "one_hot": dist.OneHotCategorical(logits=logits),
    "cont_bernoulli": dist.ContinuousBernoulli(probs=torch.tensor([0.1, 0.5, 0.8])),
    "neg_binomial": dist.NegativeBinomial(total_count=3.0, probs=torch.tensor([0.25, 0.5])),
}

for name, d in families.items():
    print(
        f"{name:15s} param {tuple(d.param_shape)} batch {tuple(d.batch_shape)} "
        f"event {tuple(d.event_shape)}"
    )
    print("  ", d)  # reading param_shape computes nothing: the repr shows the given parameter
    print("   mean", d.mean)
    print("   std ", d.stddev)
    try:
        print("   mode", d.mode)
    except NotImplementedError as err:
        print("   mode ->", err)

# expanded over a batch of 4 environments
wide = families["multinomial"].expand(torch.Size([4, 2]))
print(wide.param_shape, wide.batch_shape, wide.sample().shape)
onehot = families["one_hot"].expand([4, 2])
print(onehot.param_shape, onehot.enumerate_support().shape)

# the entropy of a continuous Bernoulli and the log-density of its mean
cb = families["cont_bernoulli"]
print(cb.entropy())
print(cb.log_prob(cb.mean))


class Flat(dist.Distribution):
    arg_constraints = {}

    def __init__(self, width):
        self.width = width
        super().__init__(batch_shape=width.shape)

    @property
    def variance(self):
        return self.width**2 / 12


flat = Flat(torch.tensor([1.0, 3.0]))
print(flat.stddev)
for attr in ("mode", "mean"):
    try:
        getattr(flat, attr)
    except NotImplementedError as err:
        print(attr, "->", repr(str(err)))
