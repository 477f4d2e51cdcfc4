# Old forum answers pass the legacy tensor types around as values: a `dtype` argument that is
# torch.FloatTensor, a print of it, isinstance checks against it, x.type(torch.LongTensor).
# They are classes in PyTorch (of the metaclass torch.tensortype) and print as such.
import torch


def describe(kind):
    t = torch.zeros(2).type(kind)
    print("kind:", kind, "->", t.type(), t.dtype)
    return t


for kind in (torch.FloatTensor, torch.DoubleTensor, torch.LongTensor, torch.ByteTensor):
    describe(kind)

x = torch.FloatTensor([0.5, 1.5])
print(isinstance(x, torch.FloatTensor), isinstance(x, torch.DoubleTensor))
print(isinstance(x.long(), (torch.IntTensor, torch.LongTensor)))
print(torch.FloatTensor.__name__, type(torch.LongTensor))
print(f"{torch.BoolTensor}", str(torch.IntTensor), repr(torch.DoubleTensor))
print(torch.FloatTensor == torch.FloatTensor, torch.FloatTensor != torch.DoubleTensor)
try:
    torch.FloatTensor.zeros
except AttributeError as e:
    print("AttributeError:", e)
