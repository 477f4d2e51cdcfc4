# Walking the autograd graph by hand after clamp with tensor limits, tril and lerp.
import torch

def walk(t, depth=0):
    fn = t.grad_fn if depth == 0 else t
    if fn is None:
        return
    print("  " * depth + fn.name())
    for child, _ in fn.next_functions:
        if child is None:
            print("  " * (depth + 1) + "None")
        else:
            walk(child, depth + 1)

torch.manual_seed(3)
w = torch.randn(3, 3, requires_grad=True)
floor = torch.full((3,), -0.5)
ceiling = torch.ones(3, requires_grad=True)

bounded = torch.clamp(w * 2, min=floor, max=ceiling)
walk(bounded)
lower = bounded.tril()
walk(lower)
mixed = torch.lerp(lower, w, 0.3)
walk(mixed)
blend = torch.lerp(w, ceiling, torch.linspace(0, 1, 3))
walk(blend)
scaled = torch.addcmul(w, w, ceiling, value=0.5)
walk(scaled)
only_min = w.clamp_min(floor)
walk(only_min)

loss = (mixed + blend + scaled + only_min).pow(2).sum()
loss.backward()
print(w.grad)
print(ceiling.grad)
