# torch.compile and TorchScript change how PyTorch runs code, not what it computes:
# the compiled model trains to the same numbers as the eager one.
import torch
import torch.nn as nn

torch.manual_seed(42)


class TinyRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 6)
        self.out = nn.Linear(6, 1)

    def forward(self, x):
        return self.out(torch.tanh(self.hidden(x)))


net = TinyRegressor()
fast_net = torch.compile(net)
optimizer = torch.optim.Adam(fast_net.parameters(), lr=0.05)
inputs = torch.randn(10, 3)
targets = inputs.sum(dim=1, keepdim=True)
for epoch in range(4):
    optimizer.zero_grad()
    loss = ((fast_net(inputs) - targets) ** 2).mean()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.5f}")


@torch.compile
def smooth_abs(x, eps=1e-2):
    return torch.sqrt(x * x + eps)


@torch.compile(mode="max-autotune", dynamic=False)
def scaled(x):
    return 3 * x


@torch.jit.script
def cubic(x):
    return x * x * x


z = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
(smooth_abs(z) + scaled(z) + cubic(z)).sum().backward()
print(z.grad)
torch._dynamo.reset()

scripted = torch.jit.script(nn.Linear(2, 2))
print(scripted(torch.ones(1, 2)).shape)

try:
    torch.compile(z, mode="fastest")
except RuntimeError as e:
    print("compile:", e)
