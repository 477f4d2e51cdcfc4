# A linear layer's gradients written with NumPy's einsum, the way an autodiff lesson derives
# them before trusting autograd: per-example weight gradients as an outer product ('na,nb->nab'),
# summed over the batch, then the same with torch.einsum and with autograd.
import numpy as np
import torch

rng = np.random.RandomState(1)
x = rng.random((5, 3)).astype("float32")
w = rng.randn(3, 2)
y = rng.randn(5, 2)

pred = np.einsum("na,ab->nb", x, w)
diff = pred - y
per_example = np.einsum("na,nb->nab", x, 2 * diff)
grad_w = per_example.sum(0)
print(per_example.shape, per_example.dtype)
print(grad_w)
print("trace of x^T x:", np.einsum("ii", np.einsum("na,nb->ab", x, x)))
print("row norms:", np.einsum("ij,ij->i", x, x))

xt = torch.from_numpy(x).double()
wt = torch.from_numpy(w).requires_grad_()
loss = ((torch.einsum("na,ab->nb", xt, wt) - torch.from_numpy(y)) ** 2).sum()
loss.backward()
print(wt.grad)
print("same:", np.allclose(grad_w, wt.grad.numpy()))
try:
    np.einsum("na,nb->nab", x, np.ones((4, 2)))
except ValueError as e:
    print("ValueError:", e)
