# torch.amax / amin against max / min: the same values, but amax's gradient is
# (g / number of ties) * (x == result): the other elements get g * 0, which is -0. for a
# negative upstream gradient, and a result that is NaN gives NaN to the whole group.
import torch

scores = torch.tensor(
    [[0.1, 0.1, 0.1, -2.0], [0.7, 0.3, 0.7, 0.7], [1.5, -1.0, 0.2, 1.5]], requires_grad=True
)

best = scores.amax(dim=1)
print(best)
print(best.tolist())
(best * torch.tensor([0.7, -0.3, 2.0])).sum().backward()
print(scores.grad)

scores.grad = None
worst = scores.amin(dim=0, keepdim=True)
print(worst)
(-worst).sum().backward()
print(scores.grad)

scores.grad = None
top = scores.amax()
(-3 * top).backward()
print(top, scores.grad)

scores.grad = None
top = scores.max()
(-3 * top).backward()
print(top, scores.grad)

scores.grad = None
both = scores.amax(dim=(0, 1))
both.backward()
print(both, scores.grad)

with_nan = torch.tensor([[1.0, float("nan"), 0.5], [2.0, 2.0, -1.0]], requires_grad=True)
m = with_nan.amax(dim=1)
print(m)
m.sum().backward()
print(with_nan.grad)
with_nan.grad = None
with_nan.amax().backward()
print(with_nan.grad)
with_nan.grad = None
with_nan.max().backward()
print(with_nan.grad)
