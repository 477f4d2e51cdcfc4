# Max-pooled bags of word vectors where some sentences are empty: an empty bag must come out
# as plain zeros (not -0 or nan), whatever the first row of the table holds.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
table = torch.randn(6, 4)
table[0] = torch.tensor([-1.5, float("inf"), -0.25, 2.0])
bag = nn.EmbeddingBag.from_pretrained(table, freeze=False, mode="max")

words = torch.tensor([4, 1, 1, 5, 2, 3])
starts = torch.tensor([0, 2, 2, 6])  # the second and the last sentence are empty
pooled = bag(words, starts)
print(pooled)
print(torch.signbit(pooled).any(dim=1), torch.isnan(pooled).any())

scores = (pooled * torch.linspace(-1.0, 1.0, 4)).sum()
scores.backward()
print(bag.weight.grad)

# the same with the functional form, padding rows left out, last offset included
w = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
with torch.no_grad():
    w[0] = -w[0].abs()
out = F.embedding_bag(
    torch.tensor([2, 2, 3, 1]),
    w,
    torch.tensor([0, 2, 2, 4]),
    mode="max",
    padding_idx=2,
    include_last_offset=True,
)
print(out)
out.pow(2).sum().backward()
print(w.grad)
