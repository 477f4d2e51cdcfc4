# Older notebooks switch the default type with the deprecated set_default_tensor_type
import torch
from torch import nn

print(torch.set_default_tensor_type('torch.FloatTensor'))
x = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
print(x.dtype, torch.get_default_dtype())

torch.set_default_tensor_type(torch.DoubleTensor)
w = torch.tensor([1.0, -2.0, 0.25], requires_grad=True)
print(w, w.dtype, torch.zeros(2).dtype)
layer = nn.Linear(3, 1)
print(layer.weight.dtype)
y = (w ** 3).sum() / 3
y.backward()
print(w.grad)

for bad in ['torch.LongTensor', torch.float64, 'torch.cuda.FloatTensor']:
    try:
        torch.set_default_tensor_type(bad)
    except TypeError as e:
        print("TypeError:", e)

torch.set_default_tensor_type('torch.FloatTensor')
print(torch.ones(2, requires_grad=True) * 2)
print(torch.get_default_dtype())
