import torch
torch.manual_seed(0)
print(torch.randn(size=(), requires_grad=True))
print(torch.zeros(size=(2, 3)), torch.ones(size=[2]), torch.rand(size=(2,)), torch.empty(size=(1,)).shape)
print(torch.ones(2).new_zeros(size=(3,)), torch.ones(2).new_ones(2))
print(torch.zeros(size=torch.Size([2])))
try:
    torch.zeros(2, size=(2,))
except TypeError as e:
    print(e)
try:
    torch.randn(size=2)
except TypeError as e:
    print(e)
