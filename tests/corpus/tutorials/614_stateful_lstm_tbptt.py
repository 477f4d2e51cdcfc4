# Truncated backpropagation through time: a 2-layer LSTM whose state is carried
# (detached) from one chunk of a long sequence to the next
import torch
import torch.nn as nn

torch.manual_seed(3)
seq = torch.cumsum(torch.randn(40, 1, 2) * 0.1, dim=0)  # (time, batch=1, features)
target = seq.roll(-1, dims=0)

lstm = nn.LSTM(input_size=2, hidden_size=8, num_layers=2, dropout=0.1)
head = nn.Linear(8, 2)
params = list(lstm.parameters()) + list(head.parameters())
print(lstm)
print([name for name, _ in lstm.named_parameters()][:5])
opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)

chunk = 10
for epoch in range(3):
    h = torch.zeros(2, 1, 8)
    c = torch.zeros(2, 1, 8)
    total = 0.0
    for start in range(0, seq.size(0), chunk):
        x = seq[start:start + chunk]
        y = target[start:start + chunk]
        h, c = h.detach(), c.detach()
        out, (h, c) = lstm(x, (h, c))
        loss = ((head(out) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: mean chunk loss {total / 4:.5f}")

lstm.eval()
with torch.no_grad():
    out, (h, c) = lstm(seq)
print(out.shape, h.shape, c.shape)
print(h[-1].abs().sum().item() > 0, c.requires_grad)
print(lstm.weight_hh_l1.grad.shape)
