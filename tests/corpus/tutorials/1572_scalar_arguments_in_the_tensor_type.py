# The numbers an op takes besides its tensors (clamp's bounds, threshold's threshold and
# value, alpha, addcmul's value, lerp's weight) are converted to the tensor's type first.
import torch
import torch.nn.functional as F

counts = torch.tensor([1, 200, 40], dtype=torch.uint8)
deltas = torch.tensor([-3, -1, 2, 9], dtype=torch.int8)


def attempt(name, make):
    try:
        print(name, make())
    except RuntimeError as err:
        print(name, "RuntimeError:", err)


attempt("clamp(-5, 100)", lambda: counts.clamp(-5, 100))  # -5 is 251 for uint8
attempt("clamp(min=-1)", lambda: counts.clamp(min=-1))
attempt("clamp(-256)", lambda: counts.clamp(-256))
attempt("threshold(-1, 7)", lambda: F.threshold(counts, -1, 7))
attempt("threshold(-1.5, -100.0)", lambda: F.threshold(deltas, -1.5, -100.0))
attempt("threshold(0, 300)", lambda: F.threshold(deltas, 0, 300))
attempt("hardtanh uint8", lambda: F.hardtanh(counts))
attempt("relu6 uint8", lambda: F.relu6(counts))
attempt("hardtanh(-2, 300)", lambda: F.hardtanh(deltas, -2, 300))
attempt("addcmul value=-1", lambda: torch.addcmul(counts, counts, counts, value=-1))
attempt("addcmul value=300", lambda: torch.addcmul(deltas, deltas, deltas, value=300))
attempt("add alpha=-3", lambda: counts.add(counts, alpha=-3))
attempt("sub alpha=-129", lambda: deltas.sub(deltas, alpha=-129))

w = torch.tensor([0.5, -2.0, 3.0], requires_grad=True)
attempt("add alpha=1e39", lambda: w.add(w, alpha=1e39))
attempt("addcdiv value=1e39", lambda: torch.addcdiv(w, w, w, value=1e39))
attempt("lerp weight=1e39", lambda: torch.lerp(w, torch.zeros(3), 1e39))
attempt("threshold value=1e39", lambda: F.threshold(w, 0.0, 1e39))
half = torch.tensor([1.0, -0.5], dtype=torch.float16)
attempt("half lerp weight=1e5", lambda: half.lerp(torch.zeros(2, dtype=torch.float16), 1e5))
attempt("half add alpha=1e5", lambda: half.add(half, alpha=1e5))
attempt("half hardtanh", lambda: F.hardtanh(half, -1e5, 0.5))

loss = (torch.addcmul(w, w, w, value=2.0) + torch.lerp(w, torch.ones(3), 0.25)).sum()
loss = loss + w.add(w, alpha=3).sum() + F.threshold(w, 0.0, -1.0).sum()
loss.backward()
print(w.grad)
