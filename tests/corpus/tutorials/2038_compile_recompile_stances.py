# torch.compiler.set_stance("fail_on_recompile") and ("eager_on_recompile"), as the
# set_stance tutorial uses them: a call whose tensors fit a graph compiled before runs it; a
# call that would compile again fails (with the guard that failed) or runs eagerly.
import torch


@torch.compile
def scaled_relu(x):
    return torch.relu(x) * 2


scaled_relu(torch.randn(3))
with torch.compiler.set_stance("fail_on_recompile"):
    print(scaled_relu(torch.ones(3)))
    for bad in (torch.ones(4), torch.ones(3, dtype=torch.float64), torch.ones(3, 1)):
        try:
            scaled_relu(bad)
        except RuntimeError as e:
            first, *rest = str(e).splitlines()
            print(first.split(". filename")[0])
            print("\n".join(rest))


@torch.compile
def smooth(x, y):
    return torch.tanh(x) + y


smooth(torch.zeros(2), torch.zeros(2))


@torch.compiler.set_stance("eager_on_recompile")
def smooth_eagerly(x, y):
    return smooth(x, y)


grad_in = torch.ones(5, requires_grad=True)
print(smooth_eagerly(grad_in, torch.ones(5)).grad_fn.name())
print(smooth_eagerly(torch.zeros(2), torch.ones(2)))
print(smooth(grad_in, torch.ones(5)).grad_fn.name())
with torch.compiler.set_stance("fail_on_recompile"):
    print(smooth(torch.ones(7, requires_grad=True), torch.ones(7)).shape)
    try:
        smooth(torch.ones(7), torch.ones(7))
    except RuntimeError as e:
        print("\n".join(str(e).splitlines()[1:]))
torch._dynamo.reset()
print(smooth(torch.ones(2, 2), torch.ones(2, 2)).shape)
