# torch.compiler.is_compiling() inside and outside compiled functions, and the force_eager
# stance as a call, a block and a decorator (gradcli runs everything eagerly; the answers are
# PyTorch's).
import torch


@torch.compile
def shifted(x):
    if torch.compiler.is_compiling():
        return x + 1
    return x - 1


def plain(x):
    return x * 2 if torch.compiler.is_compiling() else x * 3


x = torch.zeros(3)
print(shifted(x), torch.compiler.is_compiling(), torch._dynamo.is_compiling())
compiled_plain = torch.compile(plain)
print(plain(torch.ones(2)), compiled_plain(torch.ones(2)))


@torch.compiler.set_stance("force_eager")
def eager_call(x):
    return shifted(x)


print(eager_call(x), shifted(x))
with torch.compiler.set_stance("force_eager"):
    print(shifted(x))
print(shifted(x))
torch.compiler.set_stance("force_eager")
print(shifted(x))
torch.compiler.set_stance("default")
print(shifted(x))


@torch.compile
@torch.no_grad()
def frozen(w):
    return (w * 2, torch.is_grad_enabled(), torch.compiler.is_compiling())


w = torch.ones(2, requires_grad=True)
out, grad_on, compiling = frozen(w)
print(out.requires_grad, grad_on, compiling, torch.is_grad_enabled())
