# A one-parameter model fitted by hand, logging its scalar parameter with f-strings and
# %-formatting the way training loops do (a Parameter is not a plain Tensor when formatted).
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = nn.Parameter(torch.tensor(0.5))

    def forward(self, x):
        return self.k * x


model = Scale()
xs = torch.tensor([1.0, 2.0, 3.0])
ys = 2.0 * xs
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    opt.zero_grad()
    loss = ((model(xs) - ys) ** 2).mean()
    loss.backward()
    opt.step()
    print(f"step {step}: loss={loss:.4f} k={model.k.item():.4f} grad={model.k.grad:.3f}")

print(f"final parameter: {model.k}")
print("as text: {}".format(model.k))
try:
    print(f"{model.k:.2f}")
except TypeError as err:
    print("TypeError:", err)
print(f"{model.k.detach():.2f} | {model.k.data:.3f}")
print("%.3f | %d | %s" % (model.k.detach(), True, torch.tensor(False)))
try:
    print("%x" % torch.tensor(10.0))
except TypeError as err:
    print("TypeError:", err)
print("%x %o" % (torch.tensor(255), True))
