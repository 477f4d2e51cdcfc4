# Layer normalisation of float64 activations: outputs and gradients printed to the last digit,
# with and without the affine parameters, for rows shorter and longer than a vector register.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
for width in (3, 8, 13, 70):
    x = (torch.randn(4, width, dtype=torch.float64) * 5 + 1).requires_grad_()
    norm = nn.LayerNorm(width).double()
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.2, 0.2)
    y = norm(x)
    upstream = torch.linspace(-1, 1, 4 * width, dtype=torch.float64).reshape(4, width)
    y.backward(upstream)
    print(width, y[1, :3].tolist())
    print(x.grad[2, :3].tolist())
    print(norm.weight.grad[:3].tolist(), norm.bias.grad[:3].tolist())

# no affine parameters: each row has mean 0 and (population) variance close to 1
z = torch.randn(2, 3, 10, dtype=torch.float64, requires_grad=True)
out = F.layer_norm(z, (10,))
print(out.var(dim=-1, unbiased=False).tolist())
(out**3).sum().backward()
print(z.grad[1, 2].tolist())

# normalising over the last two dimensions
w = torch.randn(3, 4, 5, dtype=torch.float64, requires_grad=True)
print(F.layer_norm(w, (4, 5))[0, 0].tolist())
