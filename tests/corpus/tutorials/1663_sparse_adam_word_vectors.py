# SparseAdam for the embedding, Adam for the rest (a common word-vector setup)
import torch
import torch.nn as nn


class BagOfWords(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, sparse=True)
        self.out = nn.Linear(dim, classes)

    def forward(self, x):
        return self.out(self.emb(x).mean(dim=1))


torch.manual_seed(4)
model = BagOfWords(12, 4, 3)
x = torch.randint(0, 12, (6, 5))
y = torch.randint(0, 3, (6,))

sparse_opt = torch.optim.SparseAdam(list(model.emb.parameters()), lr=0.05)
dense_opt = torch.optim.Adam(model.out.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(5):
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    sparse_opt.step()
    dense_opt.step()
    print(epoch, round(loss.item(), 6))

print(model.emb.weight.data[:4])
state = sparse_opt.state[model.emb.weight]
print(state["step"], state["exp_avg"][:2])
print(sparse_opt)

# Adam alone refuses the sparse gradient, SparseAdam a dense one
loss_fn(model(x), y).backward()
try:
    torch.optim.Adam(model.parameters(), lr=0.01).step()
except RuntimeError as e:
    print(e)
try:
    torch.optim.SparseAdam(model.out.parameters()).step()
except RuntimeError as e:
    print(e)
try:
    torch.optim.RMSprop(model.emb.parameters()).step()
except RuntimeError as e:
    print(e)
