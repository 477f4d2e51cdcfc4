# torch.Tensor.scatter_reduce, as the documentation shows it, then its gradients
import torch

src = torch.tensor([1., 2., 3., 4., 5., 6.])
index = torch.tensor([0, 1, 0, 1, 2, 1])
input = torch.tensor([1., 2., 3., 4.])
print(input.scatter_reduce(0, index, src, reduce="sum"))
print(input.scatter_reduce(0, index, src, reduce="sum", include_self=False))
input2 = torch.tensor([5., 4., 3., 2.])
print(input2.scatter_reduce(0, index, src, reduce="amax"))
print(input2.scatter_reduce(0, index, src, reduce="amax", include_self=False))

# every reduction, with and without the input's own values
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
        s = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)
        out = torch.scatter_reduce(x, 0, index, s, reduce, include_self=include_self)
        w = torch.tensor([1., -2., 0.5, 3.])
        (out * w).sum().backward()
        print(reduce, include_self, out.grad_fn.name())
        print("  out   ", out.detach())
        print("  x.grad", x.grad)
        print("  s.grad", s.grad)

# ties share the gradient evenly; zeros in a product get the product of the others
a = torch.tensor([2., 0., 1.], requires_grad=True)
b = torch.tensor([2., 5., 2., 0., 3., 0., 0.], requires_grad=True)
idx = torch.tensor([0, 0, 0, 1, 1, 2, 2])
m = a.scatter_reduce(0, idx, b, "amax")
m.sum().backward()
print(m, a.grad, b.grad)
a.grad = None
b.grad = None
p = a.scatter_reduce(0, idx, b, "prod", include_self=False)
p.backward(torch.tensor([1., 1., 1.]))
print(p, a.grad, b.grad)

# a 2-D example along dim 1, in place
t = torch.zeros(2, 3)
t.scatter_reduce_(1, torch.tensor([[0, 2, 2, 1], [1, 1, 0, 0]]), torch.arange(8.).reshape(2, 4), "mean", include_self=False)
print(t)
# integer tensors round a mean down
print(torch.tensor([1, 2, 3, 4]).scatter_reduce(0, index, torch.tensor([1, 2, 3, 4, 5, 6]), "mean"))
