import torch

x = torch.ones(2, 3, requires_grad=True)
errors = [
    lambda: torch.ones(2, 3) @ torch.ones(2, 3),
    lambda: x.sum().backward() or x.sum().backward() or (x * x).backward(),
    lambda: torch.tensor([1.0, 2.0]) + torch.tensor([1.0, 2.0, 3.0]),
    lambda: x.view(4),
    lambda: [1, 2][5],
    lambda: {"a": 1}["b"],
    lambda: int("seven"),
]
for i, make in enumerate(errors):
    try:
        make()
        print(i, "no error")
    except RuntimeError as e:
        print(i, "RuntimeError:", e)
    except Exception as e:
        print(i, type(e).__name__, e)

try:
    y = x * 2
    y.backward()
except RuntimeError as err:
    msg = str(err)
    print(msg.split(" ")[0], len(msg) > 10)
finally:
    print("finally")


def check(t):
    assert t.shape == (2, 3), f"bad shape {t.shape}"
    return t.sum().item()


print(check(x))
try:
    check(torch.ones(3))
except AssertionError as e:
    print("AssertionError:", e)
