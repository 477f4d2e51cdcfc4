# In-place view methods on intermediate tensors, then backward through them.
import torch

torch.manual_seed(0)

w = torch.randn(3, 4, requires_grad=True)
h = w.clone()
h.unsqueeze_(0)  # add a batch dim in place
print(h.shape, h.grad_fn.name())
(h * torch.arange(4.0)).sum().backward()
print(w.grad)

w.grad = None
k = w * 2
k.t_()
k.unsqueeze_(-1)
k.squeeze_()
print(k.shape, k.grad_fn.name())
(k**2).sum().backward()
print(w.grad)

s = torch.tensor(2.5, requires_grad=True)
print(s.movedim(0, -1), torch.gather(s, 0, torch.tensor(0)))
(s.movedim(0, 0) * torch.gather(s, -1, torch.tensor(0))).backward()
print(s.grad)
