# Ensembling/per-sample tricks with vmap and BatchNorm: a module that tracks running
# statistics cannot be vmapped in training mode; eval mode or track_running_stats=False can.
import torch
import torch.nn.functional as F
from torch.func import vmap

torch.manual_seed(0)
x = torch.randn(3, 5, 2, dtype=torch.float64)  # 3 groups of 5 samples with 2 features

bn = torch.nn.BatchNorm1d(2).double()
try:
    vmap(bn)(x)
except RuntimeError as err:
    print("training, tracked:", err)
print(bn.running_mean, bn.num_batches_tracked)

free = torch.nn.BatchNorm1d(2, track_running_stats=False).double()
out = vmap(free)(x)
print("per-group means ~ 0:", bool(out.mean(dim=1).abs().max() < 1e-12), out[1, 2])

bn.eval()
print("eval:", vmap(bn)(x)[0, 0])

rm = torch.zeros(2, dtype=torch.float64)
rv = torch.ones(2, dtype=torch.float64)
try:
    vmap(lambda t: F.batch_norm(t, rm, rv, training=True))(x)
except RuntimeError as err:
    print("functional:", str(err).splitlines()[0])
print(vmap(lambda t: F.batch_norm(t, None, None, training=True))(x).std(dim=1, unbiased=False))
