# Batched matrix-vector products with torch.func.vmap: each sample has its own weight
# matrix, and vmap turns the per-sample product into one batched product.
import torch
from torch.func import vmap

torch.manual_seed(7)

batch, features, outputs = 4, 48, 24
inputs = torch.randn(batch, features)
weights = torch.randn(batch, features, outputs) / features**0.5
mats = torch.randn(batch, outputs, features) / features**0.5


def apply_map(x, w):
    return x @ w


per_sample = vmap(apply_map)(inputs, weights)
print(per_sample.shape)
print(per_sample[0, :6].tolist())
print(per_sample.sum(dim=1).tolist())

back = vmap(torch.mv)(mats, inputs)
print(back[:, :5].tolist())

# the same with an explicit batched product
direct = torch.bmm(inputs.unsqueeze(1), weights).squeeze(1)
print(torch.equal(direct, per_sample))
print((direct - per_sample).abs().max().item())
