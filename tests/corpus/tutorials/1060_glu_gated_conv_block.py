# A gated linear unit block, as in "Language Modeling with Gated Convolutional Networks":
# a linear layer doubles the width, GLU gates one half with the sigmoid of the other.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class GatedBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, 2 * width)
        self.glu = nn.GLU(dim=-1)

    def forward(self, x):
        return self.glu(self.proj(x)) + x


block = GatedBlock(8)
x = torch.randn(4, 8)
out = block(x)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())

# gradient of a weighted sum, checked element by element
h = torch.randn(3, 64, requires_grad=True)
y = F.glu(h, dim=1)
w = torch.randn(3, 32)
(y * w).sum().backward()
print(h.grad[:, :6])
print(h.grad[:, 32:38])
print(h.grad.sum().item())

# the gate along the first dimension
z = torch.randn(10, 3, requires_grad=True)
F.glu(z, 0).backward(torch.full((5, 3), 0.5))
print(z.grad)

# a halving dimension of odd size is an error
try:
    F.glu(torch.randn(3, 5))
except RuntimeError as e:
    print("RuntimeError:", e)
