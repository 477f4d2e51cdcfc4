# allow_mutation_on_saved_tensors and changes made through views: PyTorch keeps a saved value
# when the change is made through a tensor starting at the same place in memory (the tensor
# itself, h[0], a view of its first row), and otherwise differentiates with the changed values.
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors


def set_first(h):
    h[0] = 5.0


def set_second(h):
    h[1] = 5.0


changes = {
    "h[1:].add_(1)": lambda h: h[1:].add_(1),
    "h[0:2].add_(1)": lambda h: h[0:2].add_(1),
    "h[0] = 5": set_first,
    "h[1] = 5": set_second,
    "h.view(2, 2)[0].zero_()": lambda h: h.view(2, 2)[0].zero_(),
    "h.view(2, 2)[1].zero_()": lambda h: h.view(2, 2)[1].zero_(),
    "h.data.mul_(2)": lambda h: h.data.mul_(2),
}
for name, change in changes.items():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    with allow_mutation_on_saved_tensors():
        h = x * 1.5
        loss = (h**3).sum()
        change(h)
        loss.backward()
        print(f"{name:24s}", x.grad)
