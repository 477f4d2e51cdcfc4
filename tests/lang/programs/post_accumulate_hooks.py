# register_post_accumulate_grad_hook: after backward accumulated into a leaf's .grad (not for
# torch.autograd.grad), after the leaf's gradient hooks; refused on a non-leaf.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
# (`print(...) or g * 2`: Python tests only the first operand, so a tensor may come last)
w.register_hook(lambda g: print("grad hook", g) or g * 2)
h = w.register_post_accumulate_grad_hook(lambda p: print("after", p.grad))
(w * w).sum().backward()
(w * 3).sum().backward()
torch.autograd.grad((w * w).sum(), w)
h.remove()
(w * 1).sum().backward()
print(w.grad)
try:
    (w * 2).register_post_accumulate_grad_hook(print)
except RuntimeError as e:
    print(e)
try:
    torch.ones(2).register_post_accumulate_grad_hook(print)
except RuntimeError as e:
    print(e)
