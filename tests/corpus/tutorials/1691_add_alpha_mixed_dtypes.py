# add/sub with alpha= when the operands have different dtypes: the product is taken
# in the result's dtype.
import torch

acc = torch.tensor([1.0, 2.0], dtype=torch.float64)
step = torch.tensor([3.0, 4.0])  # float32
print(acc.add(step, alpha=1e300))
print(torch.sub(acc, step, alpha=1e300))
print(acc.add(step, alpha=0.1).tolist())

buf = acc.clone()
buf.add_(step, alpha=1e300)
print(buf)
buf.sub_(step, alpha=1e300)
print(buf)
out = torch.empty(2, dtype=torch.float64)
torch.add(acc, step, alpha=1e300, out=out)
print(out)
print(torch.rsub(step, acc, alpha=1e300))

half = torch.tensor([1.0, 2.0], dtype=torch.float16)
print(step.add(half, alpha=70000))
print(torch.zeros(3).add(0.3, alpha=0.1).tolist())
print(torch.addcmul(acc, step, step, value=1e300))
print(torch.addcdiv(step, half, half, value=70000.0))

w = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
g = torch.tensor([3.0, 4.0], requires_grad=True)
z = w.add(g, alpha=1e300)
z.sum().backward()
print(z)
print(w.grad, g.grad)
