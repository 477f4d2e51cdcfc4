# Mistakes a tutorial reader makes on the way, caught and printed: a method used without its
# call (y.float, model.forward), a string glued to a number, a list scaled by a float. Python
# and PyTorch say what went wrong in their own words.
import torch
import torch.nn as nn


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)


def scale(v):
    return 2 * v


torch.manual_seed(0)
net = TinyNet()
x = torch.tensor([[0.5, -1.0, 2.0]])
y = torch.tensor([1.0])
loss = ((net(x).squeeze(1) - y) ** 2).mean()

mistakes = {
    "y.float without ()": lambda: net(x).squeeze(1) - y.float,
    "x.sum not called": lambda: x * x.sum,
    "forward not called": lambda: x + net.forward,
    "a function not called": lambda: scale + x,
    "the len builtin": lambda: x / len,
    "power of a method": lambda: x ** x.mean,
    "matmul with a function": lambda: x @ scale,
    "compare with a method": lambda: x < x.max,
    "a class": lambda: x - nn.Linear,
    "a dtype": lambda: x + torch.float32,
    "string and float": lambda: "loss: " + loss.item(),
    "string and tensor": lambda: "loss: " + loss,
    "string times float": lambda: "=" * 2.5,
    "string times tensor": lambda: "-" * x,
    "list times float": lambda: [0.1, 0.2] * 1.5,
    "list plus int": lambda: [1, 2] + 3,
    "tuple plus list": lambda: (1, 2) + [3],
    "list plus shape": lambda: [1] + x.shape,
    "shape plus list": lambda: x.shape + [1],
}
for name, mistake in mistakes.items():
    try:
        mistake()
        print(f"{name}: no error")
    except TypeError as e:
        print(f"{name}: {e}")

print("x == x.sum:", x == x.sum, "x != scale:", x != scale)
print("=" * 3, "-" * torch.tensor(4), [0] * True, "ab" * True)
print("loss: " + f"{loss.item():.4f}", "|", "loss: " + str(round(loss.item(), 2)))
print(type(x.sum), type(net.forward), type(scale), type(len), type(torch.float32))
