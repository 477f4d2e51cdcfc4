# ruff: noqa: UP031, F502, F506, F508  (printf-style formatting is what the program shows)
# Logging a training step with named printf fields: '%(loss).4f' % stats looks up the
# dict's items; a field the dict lacks is Python's KeyError.
import torch

torch.manual_seed(0)
w = torch.randn(4, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
template = "step %(step)2d | loss %(loss).5f | grad norm %(gnorm)8.4f | lr %(lr)g"
for step in range(3):
    opt.zero_grad()
    loss = (w - 1).pow(2).sum()
    loss.backward()
    stats = {"step": step, "loss": loss.item(), "gnorm": w.grad.norm(), "lr": 0.1}
    print(template % stats)
    opt.step()
print("weights %(w)s (%(n)d values)" % {"w": w.detach(), "n": w.numel()})
print("first %s, then %(w)r" % {"w": 1})
print("%-*s|%*.*f|" % (10, "padded", 9, 2, loss.item()))
try:
    print("%(missing)s" % stats)
except KeyError as e:
    print("KeyError:", e)
try:
    print("%(loss)s" % (1.0,))
except TypeError as e:
    print("TypeError:", e)
