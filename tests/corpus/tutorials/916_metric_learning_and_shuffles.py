# Metric learning with a custom distance, pairwise distances within a batch, ShuffleNet's
# channel shuffle, and checking what kind of recurrent layer a model holds.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
embed = nn.Linear(4, 3)
anchor, positive, negative = (embed(torch.randn(5, 4)) for _ in range(3))

# the default distance is the Euclidean pairwise distance
triplet = nn.TripletMarginWithDistanceLoss()
print(triplet)
print(triplet(anchor, positive, negative))


# cosine distance, with the swap of Balntas et al.
def cosine_distance(x, y):
    return 1.0 - F.cosine_similarity(x, y)


cos_triplet = nn.TripletMarginWithDistanceLoss(distance_function=cosine_distance, margin=0.3, swap=True)
print(cos_triplet, cos_triplet.margin, cos_triplet.swap)
loss = cos_triplet(anchor, positive, negative)
loss.backward()
print(loss, embed.bias.grad)

per_sample = F.triplet_margin_with_distance_loss(
    anchor, positive, negative,
    distance_function=nn.PairwiseDistance(p=1),
    reduction="none",
)
print(per_sample)
# with the default distance it equals the classic TripletMarginLoss
print(torch.allclose(F.triplet_margin_with_distance_loss(anchor, positive, negative),
                     F.triplet_margin_loss(anchor, positive, negative)))
try:
    F.triplet_margin_with_distance_loss(anchor, positive, negative, margin=0.0)
except ValueError as e:
    print("ValueError:", e)

# all pairwise distances in a batch: N*(N-1)/2 of them
points = torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0], [0.0, 1.0]], requires_grad=True)
d = F.pdist(points)
print(d, torch.pdist(points, p=1))
d.sum().backward()
print(points.grad)
i, j = torch.triu_indices(4, 4, offset=1)
print(torch.allclose(d, torch.cdist(points, points)[i, j]))

# channel shuffle mixes the groups of a grouped convolution
x = torch.arange(8.0).view(1, 8, 1, 1)
print(F.channel_shuffle(x, 2).flatten(), torch.channel_shuffle(x, 4).flatten())
shuffle = nn.ChannelShuffle(groups=2)
print(shuffle, shuffle.groups)
feat = torch.randn(2, 4, 3, 3, requires_grad=True)
out = shuffle(feat)
print(out.grad_fn.name(), torch.equal(out[:, 1], feat[:, 2]))
(out * torch.arange(4.0).view(1, 4, 1, 1)).sum().backward()
print(feat.grad[0, :, 0, 0])

# the old bilinear upsampler: interpolate with align_corners=True
img = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
print(F.upsample_bilinear(img, scale_factor=2))
print(torch.equal(F.upsample_bilinear(img, size=(3, 3)),
                  F.interpolate(img, size=(3, 3), mode="bilinear", align_corners=True)))

# which layers are recurrent?
model = nn.ModuleDict({"enc": nn.LSTM(3, 4), "cell": nn.GRUCell(3, 4), "head": nn.Linear(4, 1)})
for name, m in model.items():
    print(name, isinstance(m, nn.RNNBase), isinstance(m, nn.RNNCellBase))
print(nn.RNNBase, nn.RNNCellBase)
