# Common slips when moving code between machines, caught and reported: a misspelled device
# name, a dtype handed to .cuda(), a CPU device given to .cuda(), and clamp() called without
# bounds on a complex signal.
import torch

x = torch.linspace(-1.0, 1.0, 5)
model = torch.nn.Linear(5, 2)

for name in ("gpu", "cuda:0", "cpu", "GPU:0"):
    try:
        print(name, "->", torch.device(name))
    except RuntimeError as e:
        print(name, "-> RuntimeError:", e)

for arg in (torch.float64, torch.device("cpu"), "cpu", 2.0, None):
    try:
        x.cuda(arg)
    except TypeError as e:
        print("TypeError:", e)
    except AssertionError as e:
        print("AssertionError:", e)
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    model.cuda(torch.float16)
except TypeError as e:
    print("module TypeError:", e)
try:
    x.cuda(device=torch.int64)
except TypeError as e:
    print("keyword TypeError:", e)

signal = torch.polar(torch.ones(3), torch.tensor([0.0, 1.0, 2.0]))
for call in (lambda: torch.clamp(signal), lambda: signal.clip(), lambda: signal.clamp(max=1.0)):
    try:
        call()
    except NotImplementedError as e:
        print("NotImplementedError:", e)
    except RuntimeError as e:
        print("RuntimeError:", e)
print(torch.clamp(signal.abs(), max=0.5), x.clamp(min=-0.5))
