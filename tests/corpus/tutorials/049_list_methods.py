import torch

x = torch.tensor([0.5, -0.5], requires_grad=True)
outputs = []
for k in range(1, 4):
    outputs.append((x ** k).sum())
outputs.extend([x.exp().sum(), x.sin().sum()])
print(len(outputs))

grads = []
for out in outputs:
    (g,) = torch.autograd.grad(out, x)
    grads.append(g)

last = grads.pop()
print(last)
grads.insert(0, torch.zeros(2))
print(len(grads), grads[0], grads[-1])

values = [o.item() for o in outputs]
print(values.index(max(values)))
values.sort()
print([round(v, 4) for v in values])
values.reverse()
print([round(v, 4) for v in values[:2]])
print(values.count(values[0]))
stacked = torch.stack(grads[1:])
print(stacked)
