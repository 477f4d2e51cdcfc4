# The fourth seed: backward() inside loops accumulates into a.grad, and out.backward(g)
# with a non-scalar out needs the upstream gradient g ("it's all in the chain rule").
#   gradcli run examples/loops.py
import torch

a = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.float, requires_grad=True)
for i in range(2):
    for j in range(3):
        out = a[i, j] * a[i, j]
        out.backward()
print(a.grad)  # tensor([[ 2.,  4.,  6.], [ 8., 10., 12.]])

# Passing a itself as the upstream gradient: a.grad = 2 * a * a
a.grad.zero_()
out = a * a
out.backward(a, retain_graph=True)
print(a.grad)  # tensor([[ 2.,  8., 18.], [32., 50., 72.]])

# With all ones as the upstream gradient: a.grad = 2 * a
a.grad.zero_()
out.backward(torch.ones(2, 3))
print(a.grad)  # tensor([[ 2.,  4.,  6.], [ 8., 10., 12.]])
