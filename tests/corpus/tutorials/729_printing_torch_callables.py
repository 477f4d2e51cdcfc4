# What do torch's functions, F's functions, Tensor methods and torch's classes look like
# when printed? (The addresses differ from run to run, so they are cut off.)
import torch
import torch.nn.functional as F


def shown(f):
    text = repr(f)
    for cut in (" at 0x", " of type object", " object at"):
        text = text.split(cut)[0]
    return text


x = torch.ones(2, requires_grad=True)
for name in ["relu", "sigmoid", "tanh", "exp", "sum", "matmul", "softmax", "abs", "mean", "sin",
             "mm", "cat", "stack", "zeros", "tensor", "randn", "where", "clamp", "pow", "sqrt",
             "norm", "einsum"]:
    print(f"torch.{name}:", shown(getattr(torch, name)))
for name in ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "mse_loss", "cross_entropy", "gelu", "leaky_relu",
             "linear", "dropout", "nll_loss", "silu", "elu", "softplus", "normalize", "pad"]:
    print(f"F.{name}:", shown(getattr(F, name)))
for name in ["relu", "sum", "backward", "exp", "view", "item", "register_hook", "detach"]:
    print(f"x.{name}:", shown(getattr(x, name)))
    print(f"torch.Tensor.{name}:", shown(getattr(torch.Tensor, name)))
print(torch.no_grad, torch.enable_grad)
print(torch.autograd.Function, torch.nn.Module, torch.Tensor)
print(torch.optim.Optimizer, torch.optim.lr_scheduler.LRScheduler)
print(torch.nn.Linear, torch.optim.Adam, torch.nn.MSELoss)
print(type(F.relu).__name__, type(x.relu).__name__, type(torch.exp).__name__, type(torch.relu).__name__)
print(F.relu.__name__, torch.exp.__name__, x.sum.__name__)
