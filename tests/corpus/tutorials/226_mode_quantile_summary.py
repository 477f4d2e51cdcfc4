# A quick statistical summary of some integer labels and float scores.
import torch

labels = torch.tensor([[2, 0, 2, 1, 1, 2], [0, 0, 1, 1, 3, 3]])
print(torch.mode(labels, dim=1))
print(labels.flatten().mode())

scores = torch.tensor([0.3, 2.5, 1.1, 0.9, 4.2, 1.7, 3.3], requires_grad=True)
q = torch.quantile(scores, torch.tensor([0.25, 0.5, 0.75]))
print(q)
iqr = q[2] - q[0]
iqr.backward()
print("d IQR / d scores:", scores.grad)

print(torch.quantile(scores.detach(), 0.4, interpolation="nearest"))
print(torch.quantile(scores.detach(), 0.4, interpolation="midpoint"))
print(torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])))
