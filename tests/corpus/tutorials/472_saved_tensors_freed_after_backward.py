# Saved tensors are released by backward() unless retain_graph=True.
import torch

torch.manual_seed(3)
w = torch.randn(5, requires_grad=True)
y = (w * w).sin()
loss = y.sum()
loss.backward(retain_graph=True)
print(y.grad_fn._saved_self.shape)  # still there

loss.backward()  # frees the graph this time
try:
    y.grad_fn._saved_self
except RuntimeError as err:
    print("RuntimeError:", str(err)[:60])

# shapes and other non-tensor values survive the backward pass
z = w.pow(2)
z.sum().backward()
print(z.grad_fn._saved_exponent)
try:
    print(z.grad_fn._saved_self)
except RuntimeError as err:
    print("freed:", "retain_graph=True" in str(err))

m = torch.randn(2, 3, requires_grad=True)
total = m.sum()
total.backward()
print(total.grad_fn._saved_self_sym_sizes)
avg = m.mean(dim=1, keepdim=True)
print(avg.grad_fn._saved_self_sym_numel, avg.grad_fn._saved_keepdim, avg.grad_fn._saved_self_sym_sizes)
