# Hooks on a leaf's AccumulateGrad node, reached through grad_fn.next_functions, as
# gradient-accumulation and overlap-communication code registers them: the node's pre-hook
# sees the gradient before it reaches .grad (and may replace it), its hook runs once .grad
# holds the sum. The order relative to tensor hooks and post-accumulate-grad hooks is
# PyTorch's, and a node registered through a temporary graph without being kept loses its hook.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
events = []
grad_accs = []

for name, p in model.named_parameters():
    p_tmp = p.expand_as(p)
    acc = p_tmp.grad_fn.next_functions[0][0]
    print(name, acc.name(), acc.variable is p, acc.next_functions)

    def make_hook(name, p):
        def hook(*unused):
            events.append(f"{name} ready, grad norm {p.grad.norm():.4f}")
        return hook

    def make_pre(name):
        def pre(grad_outputs):
            events.append(f"{name} pre {tuple(grad_outputs[0].shape)}")
        return pre

    acc.register_hook(make_hook(name, p))
    acc.register_prehook(make_pre(name))
    p.register_hook(lambda g, name=name: events.append(f"{name} tensor hook"))
    p.register_post_accumulate_grad_hook(lambda q, name=name: events.append(f"{name} post-accumulate"))
    grad_accs.append(acc)

x = torch.randn(4, 3)
loss = model(x).pow(2).mean()
loss.backward()
for e in events:
    print(e)

# a pre-hook that returns a tuple replaces the gradient before it is accumulated
events.clear()
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = (w * w).sum()
acc_w = y.grad_fn.next_functions[0][0].next_functions[0][0]
print(acc_w is y.grad_fn.next_functions[0][0].next_functions[1][0])
handle = acc_w.register_prehook(lambda go: (go[0].clamp(-3, 3),))
y.backward()
print(w.grad)
handle.remove()
w.grad = None
(w * w).sum().backward()
print(w.grad)

# kept by nothing: the node, and the hook on it, go with the temporary graph
v = torch.ones(2, requires_grad=True)
v.expand_as(v).grad_fn.next_functions[0][0].register_hook(lambda gi, go: print("never printed"))
(3 * v).sum().backward()
print(v.grad)

# torch.autograd.grad does not accumulate: the node's hooks do not run
kept = (v * 1).grad_fn.next_functions[0][0]
kept.register_prehook(lambda go: print("pre", go))
kept.register_hook(lambda gi, go: print("hook", gi, go))
z = (v ** 2).sum()
print(torch.autograd.grad(z, v, retain_graph=True))
z.backward()
print(v.grad)
