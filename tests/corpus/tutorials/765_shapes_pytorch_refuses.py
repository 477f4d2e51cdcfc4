# Mistakes PyTorch stops at, and which must not give a number: a Linear weight set through
# .data to a vector, a 3-D weight in F.linear, a custom Function marking a new tensor dirty;
# and requires_grad_ with its keyword.
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(2, 1)
model.weight.data = torch.tensor([1.0, 1.0])
model.bias.data = torch.tensor([0.0])
try:
    print(model(torch.tensor([1.0, 2.0])))
except RuntimeError as e:
    print("RuntimeError:", e)
model.weight.data = torch.tensor([[1.0, 1.0]])
print(model(torch.tensor([1.0, 2.0])))
print(F.linear(torch.ones(3, 2), torch.tensor([0.5, 2.0])))
for w in (torch.ones(1, 2, 2), torch.ones(2)):
    try:
        print(F.linear(torch.ones(4, 2), w, torch.zeros(1)))
    except RuntimeError as e:
        print("RuntimeError:", e)


class Doubler(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.repeat_interleave(2)
        ctx.mark_dirty(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.view(-1, 2).sum(1)


try:
    Doubler.apply(torch.tensor([1.0, 2.0], requires_grad=True))
except RuntimeError as e:
    print("RuntimeError:", e)

y = torch.tensor(1.0)
y.requires_grad_(requires_grad=True)
print(y, y.requires_grad_(False).requires_grad)
