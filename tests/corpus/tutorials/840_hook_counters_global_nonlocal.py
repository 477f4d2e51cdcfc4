# Counting how often hooks fire: a module-level counter behind `global`, and a closure
# counter behind `nonlocal`, the two ways forum answers keep state between hook calls.
import torch
import torch.nn as nn

torch.manual_seed(0)

grad_calls = 0
seen_norms = []


def count_grad(grad):
    global grad_calls
    grad_calls += 1
    seen_norms.append(round(grad.norm().item(), 4))
    return grad * 0.5  # halve the gradient on its way back


def make_step_counter():
    steps = 0
    last = None

    def on_forward(module, inputs, output):
        nonlocal steps, last
        steps += 1
        last = output.detach().sum().item()

    def report():
        return steps, round(last, 4)

    return on_forward, report


net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
hook_fn, report = make_step_counter()
net[0].register_forward_hook(hook_fn)
opt = torch.optim.SGD(net.parameters(), lr=0.1)

x = torch.randn(5, 3)
target = torch.randn(5, 1)
for epoch in range(3):
    opt.zero_grad()
    h = net[0](x)
    h.register_hook(count_grad)
    out = net[2](net[1](h))
    loss = ((out - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")

print("gradient hook calls:", grad_calls)
print("norms seen:", seen_norms)
print("forward calls, last output sum:", report())

best = None


def keep_best(value):
    global best
    if best is None or value < best:
        best = value
    return best


for v in [3.0, 1.5, 2.0, 0.5]:
    keep_best(v)
print("best:", best)


def scaled_square():
    scale = 1.0

    def f(t):
        return (t * scale) ** 2

    def set_scale(s):
        nonlocal scale
        scale = s

    return f, set_scale


f, set_scale = scaled_square()
w = torch.tensor([1.0, -2.0], requires_grad=True)
f(w).sum().backward()
print(w.grad)
w.grad = None
set_scale(3.0)
f(w).sum().backward()
print(w.grad)
