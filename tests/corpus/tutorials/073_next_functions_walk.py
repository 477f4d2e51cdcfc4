import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = c + a.sin()
e = d.sum()

print(e.grad_fn.name())
print([(f.name(), i) for f, i in e.grad_fn.next_functions])


def walk(fn, depth=0):
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        if nxt is not None:
            walk(nxt, depth + 1)


walk(e.grad_fn)
acc = c.grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is a)
print(torch.equal(acc.variable, a))
