# Directional derivatives of softmax-based losses with torch.func.jvp and the
# Jacobian of a softmax layer with jacfwd (the tangent along all-ones is 0).
import torch
import torch.nn.functional as F
from torch.func import jacfwd, jvp

torch.manual_seed(0)
logits = torch.randn(5)
target = torch.tensor([2])

_, d = jvp(lambda z: torch.softmax(z, dim=0), (logits,), (torch.ones(5),))
print(d)
_, d = jvp(lambda z: F.log_softmax(z, dim=0), (logits,), (torch.ones(5),))
print(d)
_, d = jvp(lambda z: F.cross_entropy(z.unsqueeze(0), target), (logits,), (torch.ones(5),))
print(d)
print(jacfwd(lambda z: torch.softmax(z, dim=0))(logits[:3]))
print(jacfwd(lambda z: torch.logsumexp(z, dim=0))(logits).tolist())
print(jacfwd(lambda z: F.log_softmax(z, dim=-1))(logits[:3]).tolist())
batch = torch.randn(2, 3)
print(jacfwd(lambda z: F.softmax(z, dim=1))(batch).sum(dim=(1, 3)))
