# An embedding whose looked-up rows are renormalised to max_norm in place (nn.Embedding's
# max_norm): the rescaled rows printed to every digit, for three norms.
import torch
import torch.nn as nn
import torch.nn.functional as F

for p in (1.0, 2.0, 3.0):
    torch.manual_seed(11)
    emb = nn.Embedding(12, 6, max_norm=1.5, norm_type=p)
    ids = torch.tensor([[3, 7, 3], [0, 11, 7]])
    out = emb(ids)
    print(p, emb.weight[3].tolist())
    print(emb.weight[11].tolist(), out.sum().item())
    print(emb.weight.norm(p, dim=1)[[0, 3, 7, 11]])
torch.manual_seed(2)
table = torch.randn(20, 33)
print(F.embedding(torch.tensor([1, 4, 4, 19]), table, max_norm=2.5).sum(1).tolist())
print(table[4, :4].tolist())
