import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * w).sum().backward()
saved = w.grad
snapshot = w.grad.clone()

(w * w).sum().backward()
print(saved, snapshot)

w.grad.data.zero_()
print(saved)

# setting .grad to None makes the next backward allocate a fresh tensor
w.grad = None
(w * 5).sum().backward()
print(saved, w.grad, saved is w.grad)
