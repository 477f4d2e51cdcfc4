# Calling a layer's forward directly (no hooks run) and by keyword, printing the bound
# methods, and subclassing torch's layers with super().forward(input=...): the ways people
# poke at `forward` while learning what `model(x)` does.
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(3, 2)
relu = nn.ReLU()
loss_fn = nn.MSELoss()
for f in (lin.forward, relu.forward, loss_fn.forward, nn.Conv1d(1, 1, 2).forward):
    print(f.__name__, f)
print(lin.forward == lin.forward)

calls = []
lin.register_forward_hook(lambda m, args, out: calls.append("hook"))
x = torch.randn(4, 3)
direct = lin.forward(input=x)
through_call = lin(x)
print(calls, torch.equal(direct, through_call))
print(relu.forward(input=torch.tensor([-1.0, 2.0])))
print(loss_fn.forward(torch.zeros(2), target=torch.ones(2)))

for bad in (lambda: lin.forward(), lambda: lin.forward(x, input=x), lambda: relu.forward(x=x)):
    try:
        bad()
    except TypeError as e:
        print("TypeError:", e)


class ScaledLinear(nn.Linear):
    def forward(self, input):
        return super().forward(input=input) * 0.5


class LeakyPlusOne(nn.LeakyReLU):
    def forward(self, x):
        return super().forward(input=x) + 1


class SameAsLinear(nn.Linear):
    pass


class Forgot(nn.Module):
    pass


s = ScaledLinear(3, 2)
print(s.forward)
y = s(x)
y.sum().backward()
print(torch.allclose(s.weight.grad, 0.5 * x.sum(0).expand(2, 3)))
print(LeakyPlusOne(0.1)(torch.tensor([-2.0, 3.0])))
same = SameAsLinear(3, 1)
print(same.forward)
print(same(input=x).shape)
print(Forgot().forward)
try:
    Forgot()(x)
except NotImplementedError as e:
    print("NotImplementedError:", e)
