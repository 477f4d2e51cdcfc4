# Matrix products save both operands (plus their sizes and strides); add/sub save alpha.
import torch

torch.manual_seed(5)
A = torch.randn(2, 3, requires_grad=True)
B = torch.randn(3, 4, requires_grad=True)
C = A @ B
fn = C.grad_fn
print(fn.name(), fn._saved_self is A, fn._saved_mat2 is B)
print(fn._saved_self_sym_sizes, fn._saved_mat2_sym_sizes)
print(fn._saved_self_sym_strides, fn._saved_mat2_sym_strides)

# mm with a transposed operand: the strides show the transpose
D = A.mm(A.t())
print(D.grad_fn._saved_mat2_sym_strides, D.grad_fn._saved_mat2.shape)

# only what the other gradient needs is saved
frozen = torch.randn(3, 4)
E = A.mm(frozen)
print(E.grad_fn._saved_self, E.grad_fn._saved_mat2_sym_strides)

v = torch.randn(3)
print((A @ v).grad_fn.name(), (A @ v).grad_fn._saved_vec)
u = torch.randn(3, requires_grad=True)
print((A[0] @ u).grad_fn.name(), (A[0] @ u).grad_fn._saved_tensor is u)

s = A + A
print(s.grad_fn.name(), s.grad_fn._saved_alpha)
print((A - 1).grad_fn._saved_alpha)
