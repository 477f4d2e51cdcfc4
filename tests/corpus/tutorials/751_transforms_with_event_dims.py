# Transforms with an event dimension, as a normalizing-flow notebook builds them: an affine
# map over a whole vector (event_dim=1), ComposeTransform of several, IndependentTransform of an
# elementwise one, ReshapeTransform and StackTransform, TransformedDistribution over them with
# log_prob summed as PyTorch sums it, samples and gradients of the flow's parameters.
import torch
from torch.distributions import Bernoulli, Independent, Normal, TransformedDistribution
from torch.distributions.transforms import (
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    IndependentTransform,
    ReshapeTransform,
    SigmoidTransform,
    StackTransform,
    TanhTransform,
)

torch.manual_seed(0)
loc = torch.zeros(3, requires_grad=True)
log_scale = torch.tensor([0.1, -0.2, 0.3], requires_grad=True)

base = Independent(Normal(torch.zeros(3), torch.ones(3)), 1)
flow = ComposeTransform([AffineTransform(loc, log_scale.exp(), event_dim=1), TanhTransform()])
print(flow)
print(flow.event_dim, flow.inv)
dist = TransformedDistribution(base, [flow])
print(dist.batch_shape, dist.event_shape)
x = dist.rsample((4,))
print(x)
lp = dist.log_prob(x)
print(lp)
loss = -lp.mean()
loss.backward()
print(loc.grad, log_scale.grad)

# an elementwise transform made to act on vectors
it = IndependentTransform(ExpTransform(), 1)
z = torch.tensor([[0.5, -1.0], [2.0, 0.0]])
print(it, it.event_dim)
print(it(z), it.log_abs_det_jacobian(z, it(z)))
print(IndependentTransform(SigmoidTransform(), 2).log_abs_det_jacobian(z, torch.sigmoid(z)))

# reshaping a flat event into a matrix
rt = ReshapeTransform((4,), (2, 2))
flat = TransformedDistribution(Normal(torch.zeros(5, 4), torch.ones(5, 4)), [rt])
print(flat.batch_shape, flat.event_shape)
m = flat.sample()
print(m.shape, flat.log_prob(m).shape)
print(rt.inv(m).shape, rt.log_abs_det_jacobian(rt.inv(m), m))

# one transform per column
st = StackTransform([ExpTransform(), AffineTransform(1.0, 3.0), SigmoidTransform()], dim=1)
w = torch.tensor([[0.1, 0.2, 0.3], [-1.0, 0.5, 2.0]])
y = st(w)
print(y)
print(st.inv(y))
print(st.log_abs_det_jacobian(w, y))
sd = TransformedDistribution(Normal(torch.zeros(2, 3), torch.ones(2, 3)), st)
print(sd.log_prob(y))

composed = TransformedDistribution(
    Normal(torch.zeros(2, 3), torch.ones(2, 3)),
    [AffineTransform(0.5, 2.0), IndependentTransform(ExpTransform(), 1)],
)
print(composed.batch_shape, composed.event_shape)
v = composed.sample()
print(composed.log_prob(v))

try:
    Bernoulli(torch.tensor([0.3])).icdf(torch.tensor([0.5]))
except NotImplementedError as e:
    print("NotImplementedError:", repr(str(e)))
try:
    ReshapeTransform((3,), (2, 2))
except ValueError as e:
    print(e)
try:
    ComposeTransform([ReshapeTransform((4,), (2, 2)), ExpTransform()]).event_dim
except ValueError as e:
    print(e)
