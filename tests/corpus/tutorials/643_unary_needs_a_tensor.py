# torch's elementwise functions take a tensor, not a Python number: the TypeError a
# tutorial shows when someone writes torch.exp(2.0), and math.exp for plain numbers.
import math
import numpy as np
import torch

for fn, arg in [(torch.exp, 2.0), (torch.sin, 1), (torch.sigmoid, [1.0, 2.0]),
                (torch.sqrt, True), (torch.tanh, None), (torch.log1p, np.array([0.5])),
                (torch.abs, -3), (torch.neg, 2)]:
    try:
        fn(arg)
    except TypeError as err:
        print(err)

print(math.exp(2.0), torch.exp(torch.tensor(2.0)))
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = torch.exp(input=x) + torch.sin(input=x)
y.sum().backward()
print(y, x.grad)
