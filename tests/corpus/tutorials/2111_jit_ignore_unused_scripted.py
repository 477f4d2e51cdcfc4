# TorchScript's markers on a module's methods, scripted: an @torch.jit.ignore'd helper runs as
# Python's code (torch.jit.is_scripting() is False in it, True in the scripted forward), and
# an @torch.jit.unused method may run in the eager module but raises torch.jit.Error (not a
# RuntimeError) when the scripted module calls it.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.calls = 0

    @torch.jit.ignore
    def log(self, y):
        print("log: scripting =", torch.jit.is_scripting(), "shape", tuple(y.shape))

    @torch.jit.unused
    def noisy(self, y):
        return y + torch.randn_like(y)

    def forward(self, x):
        y = self.fc(x)
        self.log(y)
        if self.training:
            y = self.noisy(y)
        return y, torch.jit.is_scripting()


torch.manual_seed(0)
net = Net()
x = torch.randn(4, 3)
y, scripting = net(x)
print("eager:", y.shape, scripting)

scripted = torch.jit.script(net)
scripted.eval()
y, scripting = scripted(x)
print("scripted eval:", y.sum().item() == net.fc(x).sum().item(), scripting)

scripted.train()
try:
    scripted(x)
except RuntimeError:
    print("a RuntimeError")
except torch.jit.Error as e:
    print(type(e).__name__, "->", str(e).splitlines()[-1])

net.eval()
y, scripting = net(x)
y.sum().backward()
print("grad:", net.fc.weight.grad.shape, scripting)
