# grad_dtype (PyTorch 2.10+): a leaf can ask for its gradient in another dtype than its own.
# The backward pass still computes in the tensor's dtype; the gradient is cast as it reaches
# the leaf (before its hooks and its .grad). None lets any dtype through.
import torch

torch.set_printoptions(precision=10)

w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
print(w.grad_dtype)
w.grad_dtype = torch.float64
print(w.grad_dtype)
w.register_hook(lambda g: print("hook sees", g.dtype))
loss = (w * 0.3).sum()
loss.backward()
print(w.grad)  # float32's 0.3, widened
(w * w).sum().backward()
print(w.grad)

(gw,) = torch.autograd.grad((w**3).sum(), w)
print(gw.dtype, gw)

# a parameter keeping a bfloat16 gradient
p = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
p.grad_dtype = torch.bfloat16
(p * 1.7).sum().backward()
print(p.grad)

# .grad assignments must match grad_dtype
q = torch.ones(2, requires_grad=True)
q.grad_dtype = torch.float16
try:
    q.grad = torch.ones(2)
except RuntimeError as e:
    print("RuntimeError:", e)
q.grad = torch.full((2,), 0.5, dtype=torch.float16)
print(q.grad)
try:
    q.grad_dtype = torch.float64
except RuntimeError as e:
    print("RuntimeError:", e)
q.grad = None
q.grad_dtype = None
print(q.grad_dtype)
q.grad = torch.ones(2, dtype=torch.float64)
print(q.grad)

# only on leaves
h = w * 2
try:
    h.grad_dtype
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    w.grad_dtype = "double"
except RuntimeError as e:
    print("RuntimeError:", e)

# setting it back to the tensor's own dtype
w.grad = None
w.grad_dtype = torch.float32
(w * 0.3).sum().backward()
print(w.grad)
