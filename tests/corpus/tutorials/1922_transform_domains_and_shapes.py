# Inspecting normalizing-flow building blocks: where each transform is defined (domain),
# where it lands (codomain), whether it is invertible, its monotonicity sign, and how it
# changes the event shape.
import torch
from torch.distributions import constraints
from torch.distributions import transforms as T

blocks = {
    "exp": T.ExpTransform(),
    "affine": T.AffineTransform(loc=1.0, scale=-3.0),
    "affine vector": T.AffineTransform(torch.zeros(4), torch.ones(4), event_dim=1),
    "sigmoid": T.SigmoidTransform(),
    "square": T.PowerTransform(2.0),
    "tanh": T.TanhTransform(),
    "softmax": T.SoftmaxTransform(),
    "stick breaking": T.StickBreakingTransform(),
    "abs": T.AbsTransform(),
    "softplus": T.SoftplusTransform(),
    "corr cholesky": T.CorrCholeskyTransform(),
    "log": T.ExpTransform().inv,
    "logit": T.SigmoidTransform().inv,
    "simplex to vector": T.StickBreakingTransform().inv,
    "flatten 2x3": T.ReshapeTransform((2, 3), (6,)),
    "independent exp": T.IndependentTransform(T.ExpTransform(), 1),
    "exp then negate": T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, -1.0)]),
    "scale then squash": T.ComposeTransform([T.AffineTransform(0.0, 2.0), T.TanhTransform()]),
}
for name, t in blocks.items():
    try:
        sign = t.sign
    except NotImplementedError:
        sign = "n/a"
    print(f"{name:18s} {t.domain} -> {t.codomain}  bijective={t.bijective} sign={sign}")
    print(f"{'':18s} event dims {t.domain.event_dim} -> {t.codomain.event_dim}")

print(
    blocks["exp"].codomain is constraints.positive,
    blocks["logit"].domain is constraints.unit_interval,
)
print(
    blocks["stick breaking"].forward_shape((5, 3)), blocks["stick breaking"].inverse_shape((5, 3))
)
print(blocks["simplex to vector"].forward_shape((4,)), blocks["corr cholesky"].forward_shape((6,)))
print(blocks["affine"].forward_shape((2, 3)), blocks["flatten 2x3"].forward_shape((7, 2, 3)))
print(blocks["flatten 2x3"].inverse_shape((7, 6)), blocks["exp then negate"].inverse_shape((8,)))
print(T.PowerTransform(torch.tensor([2.0, -0.5])).sign)
print(T.AffineTransform(0.0, torch.tensor([[1.0], [-2.0]])).forward_shape((3,)))
try:
    T.AffineTransform(0.0, torch.ones(2)).forward_shape((3,))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    blocks["flatten 2x3"].forward_shape((3, 2))
except ValueError as e:
    print("ValueError:", e)
