import torch

# A real signal whose total is wanted as a complex number (e.g. to add a phase later).
signal = torch.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=torch.float64, requires_grad=True)

total = torch.sum(signal, dtype=torch.complex128)
print(total)

# Reductions that convert to a complex dtype hand a complex gradient back to the real
# input, which autograd refuses.
for name, make in [
    ("sum", lambda: signal.sum(dtype=torch.complex128)),
    ("sum over dim 0", lambda: signal.sum(0, dtype=torch.complex64)),
    ("mean", lambda: signal.mean(dtype=torch.complex128)),
]:
    out = make()
    try:
        out.backward(torch.ones_like(out))
        print(name, "gradient:", signal.grad)
    except RuntimeError as e:
        print(name, "->", e)

# Converting first works: the gradient of a real tensor is the real part.
signal.grad = None
phase = torch.tensor(0.5 + 0.5j, dtype=torch.complex128)
z = (signal.to(torch.complex128) * phase).sum()
z.real.backward()
print(signal.grad)

# A real dtype= keeps the usual gradient.
signal.grad = None
signal.sum(dtype=torch.float32).backward()
print(signal.grad)
