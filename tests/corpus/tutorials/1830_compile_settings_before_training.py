# Settings a torch.compile walkthrough writes before compiling a small model, then
# training it a few steps; eager and compiled results are compared.
import torch
import torch.nn as nn
import torch._dynamo
import torch._inductor.config as inductor_config
from torch._dynamo import config as dynamo_config

torch._dynamo.config.suppress_errors = True
torch._dynamo.config.cache_size_limit = 32
dynamo_config.verbose = False
inductor_config.coordinate_descent_tuning = True
inductor_config.triton.cudagraphs = False
torch._functorch.config.donated_buffer = False
torch.compiler.config.force_disable_caches = True

print("recompile limit:", torch._dynamo.config.recompile_limit)
print("cache_size_limit:", dynamo_config.cache_size_limit)
print("max_autotune default:", inductor_config.max_autotune)
print("cudagraphs:", torch._inductor.config.triton.cudagraphs)
print("backends:", torch._dynamo.list_backends())

try:
    torch._dynamo.config.supress_errors = True
except AttributeError as err:
    print("typo:", err)

torch._dynamo.reset()
torch.compiler.reset()

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).double()
compiled = torch.compile(model, mode="reduce-overhead")


@torch.compile(fullgraph=True)
def mse(pred, target):
    return ((pred - target) ** 2).mean()


@torch.compiler.disable
def report(step, loss):
    print(f"step {step}: loss {loss.item():.6f} compiling={torch.compiler.is_compiling()}")


x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3)
y = x.sum(dim=1, keepdim=True).sin()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = mse(compiled(x), y)
    loss.backward()
    opt.step()
    report(step, loss)

torch._dynamo.mark_dynamic(x, 0)
with torch.compiler.set_stance("force_eager"):
    print(torch.allclose(compiled(x), model(x)))
print(model[0].weight.grad)
