# A pre-norm transformer-style MLP block (LayerNorm -> Linear -> GELU -> Linear, with a
# residual): one forward and backward pass, the loss and the LayerNorm's gradients printed
# with every digit.
import torch
import torch.nn as nn

torch.manual_seed(591)


class Block(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, hidden)
        self.act = nn.GELU()
        self.down = nn.Linear(hidden, d)

    def forward(self, x):
        return x + self.down(self.act(self.up(self.norm(x))))


model = Block(24, 48)
head = nn.Linear(24, 1)
x = torch.randn(32, 24, requires_grad=True)
target = torch.randn(32, 1)
normed = model.norm(x)
print(normed[0, :4].tolist())
print(normed.mean(dim=1)[:3].tolist(), normed.var(dim=1, unbiased=False)[:3].tolist())
out = head(model(x))
loss = ((out - target) ** 2).mean()
loss.backward()
print(loss.item())
print(model.norm.weight.grad[:6].tolist())
print(model.norm.bias.grad[:6].tolist())
print(x.grad[0, :6].tolist())
print(model.up.bias.grad[:6].tolist())
