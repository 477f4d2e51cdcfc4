# Hooks on a single saved tensor of a node: what the pack hook is given, what reading the
# saved value and backward do with the unpack hook, for a saved input and a saved result.
import torch

log = []


def pack_hook(t):
    log.append("pack")
    print("  pack got", t, "| requires_grad:", t.requires_grad, "| grad_fn:", t.grad_fn)
    return t.clone()


def unpack_hook(t):
    log.append("unpack")
    print("  unpack got", t)
    return t


x = torch.linspace(0.0, 1.0, 3, requires_grad=True)
y = x.sin()
print("register on", y.grad_fn.name())
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print("read _saved_self:")
saved = y.grad_fn._saved_self
print(saved, saved is x, saved.equal(x))
print("backward:")
y.sum().backward()
print(x.grad)

z = (x * 2).tanh()
print("register on", z.grad_fn.name())
z.grad_fn._raw_saved_result.register_hooks(pack_hook, unpack_hook)
print("read _saved_result:", z.grad_fn._saved_result.grad_fn.name())
z.backward(torch.ones(3))
print(x.grad)
print(log)

try:
    z2 = x.exp()
    z2.grad_fn._raw_saved_result.register_hooks(pack_hook, unpack_hook)
    z2.grad_fn._raw_saved_result.register_hooks(pack_hook, unpack_hook)
except RuntimeError as err:
    print("RuntimeError:", err)
