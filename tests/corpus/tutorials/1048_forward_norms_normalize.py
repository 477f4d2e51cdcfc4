# Forward-mode derivatives of norms, distances and normalized vectors (as in
# tutorials on unit vectors and cosine similarity), printed in full precision.
import torch
import torch.nn.functional as F
from torch.func import jacfwd, jvp, hessian

torch.manual_seed(1)
v = torch.randn(4)
print(jacfwd(torch.norm)(v).tolist())
print(jacfwd(lambda t: t / t.norm())(v)[0].tolist())
print(jacfwd(lambda t: F.normalize(t, dim=0))(v)[1].tolist())
print(jacfwd(lambda t: F.cosine_similarity(t, torch.ones(4), dim=0))(v).tolist())
print(jvp(lambda t: torch.dist(t, torch.zeros(4)), (v,), (torch.ones(4),))[1].item())
print(hessian(lambda t: t.norm())(v)[0].tolist())
print(jacfwd(lambda t: t.norm(dim=1))(torch.randn(2, 3)))
print(jacfwd(lambda t: (t * 0).norm())(v))
