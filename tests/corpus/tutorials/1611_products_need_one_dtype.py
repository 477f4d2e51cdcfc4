# Notebook: mixing float64 data with a float32 model in product-style ops. Each mistake is
# caught and printed; then the same computations with everything converted to one dtype.
import torch
import torch.nn as nn
import torch.nn.functional as F

data = torch.linspace(-1, 1, 6, dtype=torch.float64).view(2, 3)
weight = torch.arange(6.0).view(2, 3) / 4
vec = torch.tensor([0.5, -1.0, 2.0])
bil = nn.Bilinear(3, 3, 2)
with torch.no_grad():
    bil.weight.copy_(torch.arange(18.0).view(2, 3, 3) / 8)
    bil.bias.fill_(0.25)

attempts = {
    "addmv with a double bias": lambda: torch.addmv(torch.zeros(2, dtype=torch.float64), weight, vec),
    "addmv with long vector": lambda: torch.addmv(torch.zeros(2), weight, vec.long()),
    "inner double . float": lambda: torch.inner(data, vec),
    "multi_dot of mixed chain": lambda: torch.linalg.multi_dot([weight, data.T, weight]),
    "Bilinear fed doubles": lambda: bil(data, data),
    "masked_scatter double source": lambda: weight.masked_scatter(weight > 0.5, data),
}
for name, fn in attempts.items():
    try:
        fn()
        print(name, "-> ran")
    except RuntimeError as err:
        print(name, "->", err)

x = data.float().requires_grad_()
out = torch.addmv(torch.ones(2), weight, vec, beta=0.5) + torch.inner(x, vec)
chain = torch.linalg.multi_dot([weight, x.T, weight])
y = bil(x, x)
filled = weight.masked_scatter(weight > 0.5, x)
print(out, chain, y, filled, sep="\n")
(out.sum() + chain.sum() + y.sum() + filled.sum()).backward()
print(x.grad)
