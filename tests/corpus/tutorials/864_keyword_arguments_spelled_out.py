# Calls written with keyword arguments, as API docs and forum answers spell them out: each must
# run (none of these keywords may be refused) and print what PyTorch prints.
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(0)
x = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
y = torch.ones(2, 2)
w = torch.ones(3, 2)
b = torch.zeros(3)
print(torch.randn(2, generator=g).shape, torch.rand(2, 2, generator=g, dtype=torch.float64).dtype)
print(
    torch.sum(x, dim=0, keepdim=True, dtype=torch.float64), torch.max(x, dim=0, keepdim=True).values
)
print(F.cross_entropy(x, torch.tensor([0, 1]), label_smoothing=0.1, reduction="sum"))
print(
    torch.linspace(0, 1, steps=3, requires_grad=True),
    torch.tensor([1.0], dtype=torch.float64, requires_grad=True),
)
print(
    torch.zeros(2, dtype=torch.int64, device="cpu"),
    x.sum(dim=0),
    torch.cat(tensors=[x, y], dim=0).shape,
)
print(
    torch.stack([x, y], dim=1).shape,
    torch.mean(x, axis=0),
    torch.norm(x, p=2, dim=0),
    F.softmax(x, dim=-1, dtype=torch.float64),
)
print(
    torch.clamp(x, min=0),
    torch.where(condition=x > 0, input=x, other=y),
    torch.add(input=x, other=y, alpha=2),
)
print(
    torch.matmul(input=x, other=y),
    F.linear(input=x, weight=w, bias=b),
    torch.full((2,), fill_value=3.0),
)
print(
    torch.arange(start=0, end=5, step=2),
    torch.nn.init.normal_(torch.empty(2), mean=0.0, std=1.0, generator=g).shape,
)
out = (x**2).sum()
print(torch.autograd.grad(outputs=out, inputs=x, create_graph=True, retain_graph=True))
print(torch.einsum("ij->j", x), torch.randint(low=0, high=5, size=(3,), generator=g).shape)
print(
    x.mean(dim=1, keepdim=True),
    x.std(dim=0, unbiased=False),
    x.var(correction=0),
    x.max(dim=1).indices,
)
print(
    torch.topk(x, k=1, dim=1, largest=True, sorted=True).values,
    torch.sort(x, dim=0, descending=True, stable=True).values,
)
print(
    F.mse_loss(input=x, target=y, reduction="mean"),
    F.relu(input=x, inplace=False),
    torch.sigmoid(input=x, out=None),
)
print(
    torch.softmax(x, dim=0),
    torch.log_softmax(x, 1),
    F.dropout(x, p=0.0, training=True),
    x.clone(memory_format=torch.preserve_format).shape,
)
print(
    torch.zeros_like(x, dtype=torch.float64, requires_grad=True).dtype,
    torch.ones_like(input=x).shape,
    x.new_zeros((2,), dtype=torch.int32),
)
print(
    x.to(dtype=torch.float64).dtype,
    x.to(device="cpu", dtype=torch.float32).dtype,
    x.view(-1).unsqueeze(dim=0).shape,
)
print(
    torch.allclose(x, x, rtol=1e-5, atol=1e-8, equal_nan=True), torch.isclose(x, y, atol=1.0).sum()
)
print(
    torch.cumsum(x, dim=0, dtype=torch.float64),
    torch.prod(x, dim=1, keepdim=False),
    x.argmax(dim=1, keepdim=True),
)
print(
    F.normalize(x, p=2.0, dim=1, eps=1e-12), F.pad(x, pad=(1, 1), mode="constant", value=0.0).shape
)
print(
    torch.squeeze(x.unsqueeze(0), dim=0).shape,
    torch.flatten(x, start_dim=0, end_dim=-1).shape,
    x.permute(dims=(1, 0)).shape,
)
print(
    x.repeat(repeats=(1, 2)).shape if False else x.repeat(1, 2).shape,
    x.expand(size=(2, 2)).shape,
    torch.tile(x, dims=(1, 2)).shape,
)
print(
    torch.gather(x, dim=1, index=torch.tensor([[0], [1]])),
    x.scatter(dim=1, index=torch.tensor([[0], [1]]), value=0.0),
)
v = torch.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
for r in (torch.sort(v, stable=False), v.sort(stable=True), torch.sort(v, 0, True), v.sort()):
    print(r.values.grad_fn.name(), r.indices)
print(
    torch.msort(v).grad_fn.name(),
    v.argsort(stable=True),
    torch.argsort(v, descending=True, stable=True),
)
