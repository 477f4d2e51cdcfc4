# Forgetting that .grad starts as None (or that a rebinding under no_grad drops the
# leaf) is a classic first-week mistake; the errors Python raises name 'NoneType'.
import torch

w = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
print(w.grad, b.grad)

attempts = {
    "zero a grad that is not there yet": lambda: w.grad.zero_(),
    "read it as a number": lambda: w.grad.item(),
    "index it": lambda: w.grad[0],
    "iterate over it": lambda: [g for g in w.grad],
    "take its length": lambda: len(w.grad),
    "negate it": lambda: -w.grad,
    "add to it": lambda: w.grad + 1,
    "call it": lambda: w.grad(),
}
for what, attempt in attempts.items():
    try:
        attempt()
    except (AttributeError, TypeError) as e:
        print(f"{what}: {type(e).__name__}: {e}")

try:
    w.grad.note = "x"
except AttributeError as e:
    print("set an attribute on it:", e)

# the rebinding mistake: w is a new tensor after the update, without a grad
x = torch.tensor([1.0, 2.0, 3.0])
y = 2 * x
for step in range(2):
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w = w - 0.1 * w.grad
    try:
        w.grad.zero_()
    except AttributeError as e:
        print(f"step {step}: {e}; w is now {w}")
        break

for v in (None, 3, 2.5, "s", [1], (1,)):
    try:
        v.requires_grad = True
    except AttributeError as e:
        print(e)
