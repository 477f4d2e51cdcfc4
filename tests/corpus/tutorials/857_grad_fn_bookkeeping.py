# Peeking at autograd's bookkeeping: which output of its grad_fn a tensor is, how many times
# it was changed in place, and the exact bits of a gradient (a forum-style debugging session).
import math

import torch

torch.manual_seed(0)
x = torch.randn(6, requires_grad=True)
h = x.tanh()

# unbind / split / chunk make several outputs of one grad_fn: output_nr says which one
first, second, third = h.view(3, 2).unbind(0)
print([t.output_nr for t in (first, second, third)])
print(first.grad_fn.name(), x.output_nr, h.output_nr)
parts = torch.split(h, [1, 2, 3])
print([p.output_nr for p in parts], [p.shape[0] for p in parts])
m, s = torch.std_mean(h.view(2, 3), dim=1)
print(m.output_nr, s.output_nr)
z = first * second.sum() + third
print([(fn.name(), nr) for fn, nr in z.grad_fn.next_functions[0][0].next_functions])

# _version counts the changes in place
w = torch.ones(3)
print(w._version)
w.add_(1)
w[0] = 5
w *= 2
print(w._version, w)

# The gradient's exact bits, as people compare them across runs
loss = (h**2).sum()
loss.backward()
g = x.grad[0].item()
print(g, float.hex(g), float.fromhex(float.hex(g)) == g)
print(math.frexp(g), math.isqrt(1000), math.comb(6, 2), math.gcd(12, 18))
print((255).bit_length(), int("ff", 16), hex(255), bin(5), (2.5).real)

# Python's set and dict operators on the names of the parameters
names = {"weight", "bias"}
frozen = {"bias"}
print(sorted(names - frozen), sorted(names & frozen), sorted(names | {"scale"}))
config = {"lr": 0.1, "momentum": 0.9}
config |= {"lr": 0.01}
print(config, dict.fromkeys(sorted(names), 0.0))
print(", ".join(map(str.upper, sorted(names))), "model.pt".removesuffix(".pt"))
