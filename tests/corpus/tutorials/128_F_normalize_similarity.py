import torch
import torch.nn.functional as F

a = torch.tensor([[3.0, 4.0], [1.0, 0.0]], requires_grad=True)
b = torch.tensor([[4.0, 3.0], [-1.0, 0.0]])

n = F.normalize(a, dim=1)
print(n)
print(F.normalize(a.detach(), p=1, dim=0))

cos = F.cosine_similarity(a, b, dim=1)
print(cos)
cos.sum().backward()
print(a.grad)

print(F.pairwise_distance(a.detach(), b))
print(F.pairwise_distance(a.detach(), b, p=1.0))
print(torch.nn.CosineSimilarity(dim=0)(a.detach(), b))
