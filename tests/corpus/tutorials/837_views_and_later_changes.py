# Views and changes in place in the order gradients can follow: a view used before its tensor
# changes keeps the old values' gradient; a view taken again after the change sees it; a
# change made under no_grad (an optimizer's) is not part of any gradient.
import torch

x = torch.tensor([[0.3, -1.2, 2.0], [0.5, 1.5, -0.25]], requires_grad=True)

h = x * 1
row = h[0]
before = (row * 2.0).sum()  # uses the view before the change (keeps no value)
h.mul_(3)
after = (h[0] ** 2).sum()  # a view taken again after the change
(before + after).backward()
print(x.grad)

# a column changed through the view itself (recorded on the tensor, as PyTorch's CopySlices)
x.grad = None
h = x * 1
h[:, 1] += 10
loss = (h**2).sum()
loss.backward()
print(x.grad)

# a weight's transpose taken once, the weight stepped under no_grad between uses
w = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
wt = w.t()
inp = torch.tensor([[1.0, -1.0]])
for step in range(3):
    out = (inp @ wt).pow(2).sum()
    out.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
    print(step, round(out.item(), 4), w.grad)
    w.grad = None

# reshaping after the change
h = x * 1
h.add_(1.0)
flat = h.reshape(-1)
x.grad = None
(flat * torch.arange(6.0)).sum().backward()
print(x.grad)
