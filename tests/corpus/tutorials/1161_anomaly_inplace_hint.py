# Debugging an in-place change with anomaly detection: the error's hint depends on whether
# anomaly mode is on when backward (or a grad_fn's saved value) reads the changed tensor.
import torch


def report(what, fn):
    try:
        fn()
        print(what, "ran")
    except RuntimeError as err:
        print(what, "->", err)


torch.manual_seed(3)
w = torch.randn(4, requires_grad=True)

# recorded and run without anomaly mode
act = torch.tanh(w)
act.mul_(0.5)
report("plain", lambda: act.sum().backward())

# the same mistake, backward inside detect_anomaly
with torch.autograd.detect_anomaly(check_nan=False):
    act = torch.tanh(w)
    act.mul_(0.5)
    report("detect_anomaly", lambda: act.sum().backward())

# recorded inside the block, run after it: anomaly mode is already off again
with torch.autograd.detect_anomaly():
    sq = w.sigmoid()
sq += 1
report("after the block", lambda: torch.autograd.grad(sq.sum(), w))

# switched on for the rest of the program
torch.autograd.set_detect_anomaly(True)
print("enabled:", torch.is_anomaly_enabled())
e = w.exp()
e[1] = 0.0
report("global", lambda: (e * 2).sum().backward())
e2 = w.exp()
node = e2.grad_fn
e2.add_(1)
report("saved result", lambda: node._saved_result)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a


h = w * 1.0
out = Scale.apply(h, w)
h.zero_()
report("custom Function", lambda: out.sum().backward())

torch.autograd.set_detect_anomaly(False)
print("enabled:", torch.is_anomaly_enabled())
report("custom Function, anomaly off", lambda: out.sum().backward())
ok = torch.tanh(w)
ok = ok * 0.5
ok.sum().backward()
print(w.grad)
