# Which .grad values a hook can already read in the middle of backward(): every parameter
# whose gradient was finished earlier in the same pass, in the order the engine reaches them.
import torch
import torch.nn as nn

torch.manual_seed(3)
model = nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.Linear(4, 2)).double()
names = {id(p): n for n, p in model.named_parameters()}


def report(p):
    ready = [names[id(q)] for q in model.parameters() if q.grad is not None]
    print(f"{names[id(p)]:>8} accumulated; ready so far: {ready}")


for p in model.parameters():
    p.register_post_accumulate_grad_hook(report)

inp = torch.randn(5, 3, dtype=torch.float64)
loss = model(inp).pow(2).mean()
loss.backward()

# an optimizer step per parameter, run from its hook (each sees the others' state)
opt = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}


def step_now(p):
    opt[p].step()
    opt[p].zero_grad()


for p in model.parameters():
    p.register_post_accumulate_grad_hook(step_now)
for step in range(3):
    loss = model(inp).pow(2).mean()
    loss.backward()
    print(f"step {step}: loss {loss.item():.6f}")

# two leaves: the hook of the first reads the second's gradient, finished before it
a = torch.tensor([1.0, -2.0], requires_grad=True)
c = torch.tensor([0.5, 3.0], requires_grad=True)
a.register_hook(lambda g: print("a's hook: c.grad =", c.grad))
((a * 2).sum() * (c * c).sum()).backward()


# saved_tensors_hooks: the unpack hook runs during backward, after the bias is done
def unpack(t):
    print("unpack: bias grad =", bias.grad)
    return t


bias = torch.zeros(2, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
    out = (a * c).tanh()
(out + bias).sum().backward()
print(a.grad, c.grad)
