# Per-task scales kept in parameter containers, grown with the operators PyTorch gives them:
# `+=` on a ParameterList, `|` and `|=` on a ParameterDict.
import torch
import torch.nn as nn

torch.manual_seed(2)

scales = nn.ParameterList([nn.Parameter(torch.ones(3))])
scales += [torch.full((3,), 0.5)]  # a plain tensor is made a Parameter
print(scales)
print(type(scales[1]).__name__, scales[1].requires_grad)

offsets = nn.ParameterDict({"task_a": nn.Parameter(torch.zeros(3))})
more = offsets | {"task_b": torch.randn(3)}
offsets |= {"task_c": nn.Parameter(torch.ones(3))}
print(list(more.keys()), list(offsets.keys()))
print(more["task_a"] is offsets["task_a"])

x = torch.randn(4, 3)
loss = sum(((x * s + b) ** 2).mean() for s, b in zip(scales, more.values()))
loss.backward()
print(round(loss.item(), 5))
print(scales[0].grad)
print(more["task_b"].grad)
