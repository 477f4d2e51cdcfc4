import torch

x = torch.tensor([0.5, 1.5], requires_grad=True)
y = torch.exp(x)
z = y * 3
out = z.mean()

print(y.grad_fn.name())
print(z.grad_fn.name())
print(out.grad_fn.name())
print(x.grad_fn)

fn = out.grad_fn
while fn is not None:
    print(fn.name())
    nexts = [f for f, _ in fn.next_functions if f is not None]
    fn = nexts[0] if nexts else None
