import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y ** 2
y.detach_()
print(y.requires_grad, y.grad_fn, y.is_leaf)
print(z.grad_fn.name())

w = x.exp()
w2 = w.detach()
w2.zero_()      # shares storage with w
print(w)

out = (x * 3).sum()
out.backward()
print(x.grad)
