# Old optimizer code passes the step size first: p.data.add_(-lr, grad). PyTorch still takes
# that overload (warning once), but refuses alpha written positionally after a tensor, a
# Boolean alpha on a float result, and a fractional alpha on an integer result.
import warnings

import torch

w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.no_grad():
        w.data.add_(-0.1, w.grad)       # the deprecated (Number alpha, Tensor other)
        w.sub_(0.05, w.grad)            # no second warning: once for all such overloads
    print("after two steps:", w)
    print("warnings seen:", len(caught))
    print(str(caught[0].message).splitlines()[0])

shifted = torch.add(torch.zeros(3), 2, torch.tensor([1.0, 2.0, 3.0]))
print("torch.add(input, alpha, other):", shifted)
print("method form:", torch.ones(2).sub(3, torch.tensor([1.0, -1.0])))

a = torch.tensor([1.0, 2.0])
b = torch.tensor([10.0, 20.0])
attempts = [
    ("torch.add(a, b, 2)", lambda: torch.add(a, b, 2)),
    ("a.sub(b, 2)", lambda: a.sub(b, 2)),
    ("a.add_(b, 0.5)", lambda: a.clone().add_(b, 0.5)),
    ("torch.sub(a, 2, b, alpha=1)", lambda: torch.sub(a, 2, b, alpha=1)),
    ("a.add(2, b, alpha=1)", lambda: a.add(2, b, alpha=1)),
    ("a.add(b, alpha=True)", lambda: a.add(b, alpha=True)),
    ("a.long().add(b.long(), alpha=0.5)", lambda: a.long().add(b.long(), alpha=0.5)),
    ("a.long().sub(3, alpha=1.5)", lambda: a.long().sub(3, alpha=1.5)),
    ("torch.subtract(a, 2, b)", lambda: torch.subtract(a, 2, b)),
    ("a.subtract(b, 3)", lambda: a.subtract(b, 3)),
    ("a.clone().subtract_(2, b)", lambda: a.clone().subtract_(2, b)),
    ("a.add(torch.tensor([2.0]), b)", lambda: a.add(torch.tensor([2.0]), b)),
]
for text, attempt in attempts:
    try:
        print(text, "->", attempt())
    except (TypeError, RuntimeError) as e:
        print(text, "->", type(e).__name__ + ":", str(e).splitlines()[0])

print("allowed:", a.long().add(b, alpha=0.5), torch.subtract(a, 2, 3), a.add(torch.tensor(2.0), b))
print("bool + bool:", torch.tensor([True, False]).add(torch.tensor([False, False]), alpha=True))
