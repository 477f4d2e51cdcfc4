# Operands a tensor does not take, as a forum answer tries them: Python's and PyTorch's TypeErrors,
# caught; == and != with them answer by identity.
import torch
x = torch.ones(2)
attempts = [
    lambda: x * [1, 2], lambda: x + [1, 2], lambda: [1, 2] + x, lambda: (1, 2) + x, lambda: x - (1, 2),
    lambda: x / [1, 2], lambda: x ** [1, 2], lambda: x + None, lambda: None * x, lambda: x * "a",
    lambda: x + "a", lambda: x @ [1.0, 2.0], lambda: x // None, lambda: x % "a", lambda: 2 ** None,
    lambda: x < None, lambda: x >= "a", lambda: [1] > x, lambda: x & None,
]
for i, f in enumerate(attempts):
    try:
        print(i, f())
    except TypeError as e:
        print(i, "TypeError:", e)
print(x == None, x != "a", x == [1, 1], [1, 1] == x, None != x, x == (1, 1))
print(x + 1, x * True, x == 1)
x = torch.ones(2)
for v in ["a", None, [1], [1, 2.0], torch.ones(2), torch.tensor(3.0), True, 2, 1.5]:
    try:
        print(x.fill_(v))
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
w = torch.ones(2)
for v in [1, "yes", None, True]:
    try:
        w.requires_grad_(v)
        print("requires_grad_", v, w.requires_grad)
    except TypeError as e:
        print("TypeError", e)
    try:
        w.requires_grad = v
        print("requires_grad =", v, w.requires_grad)
    except RuntimeError as e:
        print("RuntimeError", e)
