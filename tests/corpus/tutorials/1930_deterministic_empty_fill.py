# Reproducibility settings from a "deterministic training" write-up: with deterministic
# algorithms on, PyTorch fills freshly allocated memory so stale values cannot leak in.
import torch
import torch.utils.deterministic

torch.manual_seed(0)
print("fill by default:", torch.utils.deterministic.fill_uninitialized_memory)
print("mode before:", torch.get_deterministic_debug_mode())

torch.use_deterministic_algorithms(True)
print("enabled:", torch.are_deterministic_algorithms_enabled())

buf = torch.empty(2, 3)
print(buf)
print(torch.empty(4, dtype=torch.int32))
print(torch.empty(3, dtype=torch.long).new_empty(2))
print(torch.empty_like(torch.ones(2, dtype=torch.float64)))
print(torch.empty(2, dtype=torch.bool), torch.empty(2, dtype=torch.uint8))
print(torch.empty(2, dtype=torch.complex64))
print(torch.Tensor(3))

# a buffer that grows keeps its old values and fills the rest
acc = torch.arange(3.0)
acc.resize_(5)
print(acc)

# whatever is written afterwards is what you see
w = torch.empty(3, 2)
torch.nn.init.constant_(w, 0.5)
print(w.sum())
h = torch.empty(2, 2, requires_grad=True)
with torch.no_grad():
    h.fill_(1.0)
(h * h).sum().backward()
print(h.grad)

torch.set_deterministic_debug_mode("warn")
print("warn only:", torch.is_deterministic_algorithms_warn_only_enabled())
print("mode:", torch.get_deterministic_debug_mode())

torch.utils.deterministic.fill_uninitialized_memory = False
print("fill now:", torch.utils.deterministic.fill_uninitialized_memory)
z = torch.empty(3).zero_()
print(z)

for bad in (1, "yes"):
    try:
        torch.utils.deterministic.fill_uninitialized_memory = bad
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.set_deterministic_debug_mode("strict")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.set_deterministic_debug_mode(3)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.use_deterministic_algorithms(1)
except TypeError as e:
    print("TypeError:", e)

torch.set_deterministic_debug_mode(0)
print("enabled at the end:", torch.are_deterministic_algorithms_enabled())
