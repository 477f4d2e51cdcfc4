# Tracing a small model with torch.jit.trace and looking at what comes back:
# its printed form, its class, shared parameters, and the mode frozen at trace time.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.head = nn.Sequential(nn.ReLU(), nn.Dropout(0.5), nn.Linear(4, 2))
        self.scale = 3.0

    def extra_repr(self):
        return "my gate"

    def forward(self, x):
        return self.head(torch.tanh(self.proj(x))) * self.scale


model = Gate()
model.eval()
example = torch.rand(3, 4)
traced = torch.jit.trace(model, example)
print(model)
print(traced)
print(type(traced))
print(type(traced).__name__, type(traced.head).__name__, type(traced.proj).__name__)
print(isinstance(traced, nn.Module), isinstance(traced, Gate))
print(isinstance(traced, torch.jit.ScriptModule), isinstance(traced.proj, nn.Linear))
print(traced.original_name, traced.head.original_name)
print(traced.proj.weight is model.proj.weight)
print([name for name, _ in traced.named_parameters()])
print(hasattr(traced, "scale"), hasattr(traced, "proj"))

# the trace was taken in eval mode: switching to train() does not bring dropout back
traced.train()
print(traced.training, model.training)
out = traced(example)
print(torch.allclose(out, model(example)))
print(out.shape)

scripted = torch.jit.script(model)
print(scripted)
print(type(scripted).__name__, scripted.scale)


def axpy(a, x):
    return 2 * a + x


traced_fn = torch.jit.trace(axpy, (torch.ones(2), torch.ones(2)))
print(type(traced_fn), traced_fn.name)
print(traced_fn(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.5])))
try:
    traced_fn.__name__
except AttributeError as e:
    print("AttributeError:", e)


# a print inside forward runs while tracing (PyTorch runs the module three times), never in
# the traced calls afterwards
class Noisy(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        print("forward runs")
        return x.relu()


noisy = Noisy()
traced_noisy = torch.jit.trace(noisy, torch.ones(2))
print(traced_noisy(torch.tensor([-1.0, 2.0, -3.0])))
print(noisy(torch.tensor([-1.0])))
once = torch.jit.trace(noisy, torch.ones(3), check_trace=False)
