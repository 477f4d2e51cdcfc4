# Forward-mode derivatives of pairwise distances: torch.cdist and torch.pdist have no forward
# formula in PyTorch (dual tensors, torch.func.jvp, jacfwd and the forward-mode Jacobian all
# refuse them); a distance written by hand works in forward mode too.
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jacfwd, jacrev, jvp

torch.manual_seed(0)
pts = torch.randn(4, 2)
centers = torch.randn(3, 2)


def rbf(x):
    return torch.exp(-(torch.cdist(x, centers) ** 2)).sum(1)


def by_hand(x):
    d2 = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
    return torch.exp(-d2).sum(1)


with fwAD.dual_level():
    x = fwAD.make_dual(pts, torch.ones_like(pts))
    try:
        rbf(x)
    except NotImplementedError as e:
        print("dual cdist:", str(e).splitlines()[0])
    try:
        torch.pdist(x)
    except NotImplementedError as e:
        print("dual pdist:", str(e).splitlines()[0])
    print(fwAD.unpack_dual(by_hand(x)).tangent)

for name, f in [
    ("jvp", lambda: jvp(rbf, (pts,), (torch.ones_like(pts),))),
    ("jacfwd", lambda: jacfwd(rbf)(pts)),
    ("jacfwd pdist", lambda: jacfwd(torch.pdist)(pts)),
    (
        "functional",
        lambda: torch.autograd.functional.jacobian(
            rbf, pts, strategy="forward-mode", vectorize=True
        ),
    ),
]:
    try:
        f()
    except NotImplementedError as e:
        print(name + ":", str(e).splitlines()[0])

J = jacrev(by_hand)(pts)
print(J.shape)
print(torch.allclose(J, jacfwd(by_hand)(pts), atol=1e-6))
print(jvp(by_hand, (pts,), (torch.ones_like(pts),))[1])
