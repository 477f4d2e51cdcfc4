# What does autograd keep for backward? Every grad_fn exposes the tensors it saved as
# _saved_<name> attributes (the names come from derivatives.yaml).
import torch

torch.manual_seed(1)
x = torch.randn(4, requires_grad=True)

# sin needs its input for the backward pass (d/dx sin x = cos x)
s = x.sin()
print(s.grad_fn.name(), s.grad_fn._saved_self is x)

# exp saves its *output* instead (d/dx e^x = e^x)
e = x.exp()
saved = e.grad_fn._saved_result
print(e.grad_fn.name(), saved.equal(e), saved is e)
print(saved.grad_fn is e.grad_fn, saved.requires_grad)

# tanh and sigmoid also save their result
t = x.tanh()
print(torch.allclose(1 - t.grad_fn._saved_result ** 2, torch.autograd.grad(t.sum(), x)[0]))
sg = torch.sigmoid(x)
r = sg.grad_fn._saved_result
print(r)

# relu keeps its result, log and cos their input
print(x.relu().grad_fn._saved_result)
print(x.abs().log().grad_fn._saved_self)
print(x.cos().grad_fn._saved_self is x)
