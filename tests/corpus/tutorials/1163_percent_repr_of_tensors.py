# ruff: noqa: UP031, F503, F507  (printf-style formatting is what the program shows)
# Old-style logging in training scripts: '%r' shows a value's repr(), tensors included,
# the same text as f'{x!r}'; a dict on the right of % is one value when no field names a key.
import torch
from torch import nn

torch.manual_seed(3)
w = torch.tensor([0.5, -1.25, 2.0], requires_grad=True)
loss = (w**2).sum()
loss.backward()

print("loss = %r" % loss)
print("grad = %r, step = %r" % (w.grad, 3))
print("parts: %r" % ([w[0].detach(), w.grad.norm()],))
print("%r|%30r|" % (torch.float32, torch.Size([2, 3])))
print("model: %r" % nn.Linear(3, 1, bias=False))
print("config: %r" % {"lr": 0.01, "momentum": torch.tensor(0.9)})
print("as text: %s" % {"epochs": 3})
print("same as f-string:", "%r" % w == f"{w!r}")
try:
    print("%s and %s" % {"a": 1})
except TypeError as e:
    print("TypeError:", e)
