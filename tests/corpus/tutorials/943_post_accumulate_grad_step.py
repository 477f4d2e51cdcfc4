# Optimizer step in backward: a post-accumulate-grad hook on each parameter updates it as soon
# as its gradient is accumulated. The hook runs as part of the backward pass, in no-grad mode
# (unless create_graph=True), so an in-place update of the leaf is allowed there.
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
lr = 0.1
modes = []


def sgd_step(p):
    modes.append(torch.is_grad_enabled())
    p.add_(p.grad, alpha=-lr)
    p.grad = None


handles = [p.register_post_accumulate_grad_hook(sgd_step) for p in model.parameters()]
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
target = torch.tensor([[1.0], [0.0]])
for step in range(3):
    loss = ((model(x) - target) ** 2).mean()
    loss.backward()
    print(step, f"{loss.item():.6f}", model.weight.grad)
print(model.weight)
print(model.bias)
print("grad mode inside the hook:", set(modes))
for h in handles:
    h.remove()

v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-0.01))
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v, v.grad)

w = torch.tensor([1.0, 2.0], requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-0.1))
try:
    (w**2).sum().backward(create_graph=True)
except RuntimeError as e:
    print("with create_graph:", e)
