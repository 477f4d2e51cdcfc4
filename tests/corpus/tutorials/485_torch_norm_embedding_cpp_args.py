import torch
import torch.nn.functional as F

# torch.batch_norm / instance_norm / layer_norm / group_norm / embedding are PyTorch's C++
# functions: their arguments are not in F's order
torch.manual_seed(0)
x = torch.randn(4, 3, 5)
weight = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
bias = torch.tensor([0.0, -1.0, 1.0], requires_grad=True)
running_mean = torch.zeros(3)
running_var = torch.ones(3)

# torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
# cudnn_enabled): all nine, the affine parameters first
out = torch.batch_norm(x, weight, bias, running_mean, running_var, True, 0.2, 1e-5, False)
ref = F.batch_norm(x, running_mean.clone() * 0, torch.ones(3), weight, bias, True, 0.2, 1e-5)
print(out.grad_fn.name(), torch.allclose(out, ref))
print(running_mean, running_var)
out.sum().backward()
print(weight.grad, bias.grad)
try:
    torch.batch_norm(x, weight, bias, running_mean, running_var, True, 0.2, 1e-5)
except TypeError as e:
    print(e)

# torch.instance_norm: (input, weight, bias, running_mean, running_var, use_input_stats,
# momentum, eps, cudnn_enabled)
inst = torch.instance_norm(x, weight, bias, None, None, True, 0.1, 1e-5, False)
print(torch.allclose(inst, F.instance_norm(x, weight=weight, bias=bias)))

# torch.layer_norm / torch.group_norm take a last cudnn flag F's do not
print(torch.layer_norm(x, [5], None, None, 1e-5, True)[0, 0])
g = torch.group_norm(x, 1, weight, bias, 1e-5, False)
print(torch.allclose(g, F.group_norm(x, 1, weight, bias)))

# torch.embedding(weight, indices, padding_idx=-1, ...): the table first; -1 is no padding
table = torch.arange(12.0).reshape(4, 3).requires_grad_()
idx = torch.tensor([[0, 2], [3, 3]])
e = torch.embedding(table, idx)
print(e)
print(torch.equal(e, F.embedding(idx, table)))
for pad in (-1, 3, 9):
    table.grad = None
    torch.embedding(table, idx, pad).sum().backward()
    print(pad, table.grad[:, 0])
# torch.embedding's parser: padding_idx an int (an int tensor of one element too), the flags bools
for extra in [(True,), (1.5,), (torch.tensor(1),), (-1, 1), (-1, False, None)]:
    try:
        print(torch.embedding(table, torch.tensor([0, 1]), *extra).sum().item())
    except TypeError as e:
        print(e)
# torch.adaptive_max_pool1d (C++): the values and the indices, always; F's: the values
seq = torch.arange(8.0).reshape(1, 2, 4).requires_grad_()
values, indices = torch.adaptive_max_pool1d(seq, 3)
values.sum().backward()
print(indices, seq.grad, F.adaptive_max_pool1d(seq, 2))
try:
    torch.adaptive_max_pool1d(seq, 3, True)
except TypeError as e:
    print(e)
