import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
h = torch.tanh(w @ x)
loss = (h - 1).pow(2).mean()


def walk(fn, depth=0):
    if fn is None:
        return
    print("  " * depth + fn.name())
    for nxt, _ in fn.next_functions:
        walk(nxt, depth + 1)


walk(loss.grad_fn)
print(loss.grad_fn.next_functions[0][1])
acc = h.grad_fn.next_functions[0][0].next_functions
print([type(f).__name__ for f, _ in acc])
