import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

y = x * 2
print(y.requires_grad)

with torch.no_grad():
    z = x * 2
print(z.requires_grad)
print(z)

# detach() gives the same values without history
w = (x * 2).detach()
print(w.requires_grad, torch.equal(w, z))
