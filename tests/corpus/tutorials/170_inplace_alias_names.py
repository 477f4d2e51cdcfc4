import torch

a = b = torch.zeros(2)
a += 1
print(a)
print(b)

weights = torch.tensor([1.0, 2.0, 3.0])
alias = weights
alias *= 2
print(weights)

c = weights.clone()
c -= 1
print(weights, c)
