# The classic forum question: data loaded from NumPy is float64 while the model is float32.
# PyTorch refuses the product (it does not promote), the error names the dtypes, and the fix
# is converting the data (or the model).
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
data = torch.from_numpy(np.array([[0.5, -1.0, 2.0]]))
print(data.dtype, model.weight.dtype)
for x in (data, data[0], data.unsqueeze(0)):
    try:
        model(x)
    except RuntimeError as e:
        print("RuntimeError:", e)
print(model(data.float()))
print(model.double()(data).dtype)

w, b = torch.randn(2, 3), torch.randn(2, dtype=torch.float64)
try:
    F.linear(torch.ones(1, 3), w, b)
except RuntimeError as e:
    print(e)
try:
    F.linear(data, w)
except RuntimeError as e:
    print(e)

mask = torch.tensor([True, False])
try:
    print(+mask)
except RuntimeError as e:
    print(e)
print(+torch.tensor([1.5, -2.0]))
