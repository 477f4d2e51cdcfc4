# Training a sparse embedding with SGD (plain, momentum, nesterov)
import torch
import torch.nn as nn

torch.manual_seed(2)
targets = torch.randn(4, 5, 3)
batch = torch.randint(0, 8, (4, 5))

for kwargs in [dict(), dict(momentum=0.9), dict(momentum=0.5, dampening=0.1),
               dict(momentum=0.8, nesterov=True)]:
    torch.manual_seed(3)
    emb = nn.Embedding(8, 3, sparse=True)
    opt = torch.optim.SGD(emb.parameters(), lr=0.05, **kwargs)
    for step in range(4):
        opt.zero_grad()
        loss = ((emb(batch) - targets) ** 2).mean()
        loss.backward()
        opt.step()
    print(kwargs, f"loss={loss.item():.6f}")
    print(emb.weight.data[:3].tolist())
    if "momentum" in kwargs:
        buf = opt.state[emb.weight]["momentum_buffer"]
        print("buffer nnz:", buf._nnz(), buf.is_coalesced())
        print(buf.to_dense()[:2].tolist())

# zero_grad(set_to_none=False) keeps an empty sparse gradient
opt.zero_grad(set_to_none=False)
print(emb.weight.grad)
