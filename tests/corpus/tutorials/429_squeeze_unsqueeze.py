import torch

x = torch.zeros(2, 1, 3, 1)
print(x.squeeze().shape)
print(x.squeeze(1).shape, x.squeeze(0).shape, x.squeeze(-1).shape)
print(x.squeeze((1, 3)).shape)
print(torch.squeeze(x).shape)
v = torch.tensor([1, 2, 3])
print(v.unsqueeze(0), v.unsqueeze(1), v.unsqueeze(-1).shape)
print(torch.unsqueeze(v, 0).shape)
print(v.unsqueeze(0).unsqueeze(0).shape)
s = torch.tensor([[[5.0]]])
print(s.squeeze(), s.squeeze().shape, s.squeeze().item())
y = torch.ones(3)
y.unsqueeze_(0)
print(y.shape)
y.squeeze_()
print(y.shape)
try:
    v.unsqueeze(3)
except IndexError as e:
    print("IndexError:", e)
try:
    x.squeeze(4)
except IndexError as e:
    print("IndexError:", e)
print(v[:, None].shape == v.unsqueeze(1).shape)
