# A Hessian assembled row by row: each row of second derivatives is added into a matrix
# through a slice of it (h[i, i:].add_(...)), and the mirrored column through another slice.
# The slices are temporaries; the matrix keeps the graph, so the third derivative of the
# function can be taken through it. Also: several in-place changes through rows, columns
# and single elements of one tensor that requires grad, then first and second derivatives.
import torch


def hessian_by_rows(f, x):
    n = x.numel()
    h = f.new_zeros(n, n)
    (g,) = torch.autograd.grad(f, x, create_graph=True)
    g = g.reshape(-1)
    for i in range(n):
        (row,) = torch.autograd.grad(g[i], x, retain_graph=True, create_graph=True)
        row = row.reshape(-1)[i:]
        h[i, i:].add_(row)
        if i + 1 < n:
            h[i + 1 :, i].add_(row[1:])
    return h


x = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
f = (x[0] * x[1] ** 2 + torch.sin(x[2]) * x[0] ** 3).sum()
h = hessian_by_rows(f, x)
print(h)
print(
    torch.autograd.functional.hessian(lambda t: t[0] * t[1] ** 2 + torch.sin(t[2]) * t[0] ** 3, x)
)
(third,) = torch.autograd.grad(h.sum(), x)
print(third)

w = torch.tensor([0.3, -0.8, 1.2], requires_grad=True)
y = torch.stack([w * 2, w - 1, w**2])
y[0].add_(w * 0.5)
y[2, 0].mul_(w[1])
y[1:, 2:].pow_(2)
y[:, 1].exp_()
print(y)
loss = (y * torch.arange(9.0).reshape(3, 3)).sum() + (y**2).sum()
(g,) = torch.autograd.grad(loss, w, create_graph=True)
print(g)
g.sum().backward()
print(w.grad)

# the result of a change in place is the view itself: changing it again is refused
h2 = w * 1
h2[2].tanh_()
h2[2].mul_(3)
try:
    (h2 * h2).sum().backward()
except RuntimeError as e:
    print(e)
