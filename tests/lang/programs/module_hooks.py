import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(2, 2)
x = torch.tensor([[1.0, -1.0]])
calls = []


def bw(module, grad_input, grad_output):
    calls.append("bw")
    print("grad_input", grad_input)
    print("grad_output", grad_output)


h = lin.register_full_backward_hook(bw)
out = lin(x)
print(out.grad_fn.name())
out.sum().backward()
print(calls, lin.bias.grad)
h.remove()
print(lin(x).grad_fn.name())


class Twice(nn.Module):
    def forward(self, a, b, scale=1.0):
        return a * b * scale, a + b


m = Twice()
log = []
m.register_forward_pre_hook(lambda mod, args: log.append(("pre", len(args))))
m.register_forward_hook(lambda mod, args, out: log.append(("post", type(out).__name__)))
m.register_full_backward_pre_hook(lambda mod, go: print("pre-backward", go))
m.register_full_backward_hook(lambda mod, gi, go: print("backward", gi, go))
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([5.0, 7.0])
p, q = m(a, b, 2.0)
print(log, p.grad_fn.name(), q.grad_fn.name())
(p.sum() + 10 * q.sum()).backward()
print(a.grad)


# a backward pre-hook that scales the output's gradient, a forward hook that replaces the output
lin2 = nn.Linear(2, 1)
lin2.register_full_backward_pre_hook(lambda mod, go: (go[0] * 100,))
z = torch.tensor([[0.5, 0.25]], requires_grad=True)
lin2(z).sum().backward()
print(z.grad, lin2.weight.grad)
hf = lin2.register_forward_hook(lambda mod, args, out: out * 0 + 7)
print(lin2(z))
hf.remove()
hp = lin2.register_forward_pre_hook(lambda mod, args: args[0] * 0)
print(lin2(z))
hp.remove()

# hooks of modules inside a Sequential run, in order, prepend first
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
order = []
seq[0].register_forward_hook(lambda mod, i, o: order.append("first"))
seq[0].register_forward_hook(lambda mod, i, o: order.append("prepended"), prepend=True)
seq[1].register_forward_hook(lambda mod, i, o: order.append(type(mod).__name__))
seq(x)
print(order)

# no input requires grad: the hook sees None; under no_grad nothing backward is set up
lin3 = nn.Linear(2, 1)
lin3.register_full_backward_hook(lambda mod, gi, go: print("gi", gi, "go", go))
lin3(x).sum().backward()
with torch.no_grad():
    print(lin3(x).requires_grad)
