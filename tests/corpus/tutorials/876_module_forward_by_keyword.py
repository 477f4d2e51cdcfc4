# Calling torch.nn modules with their inputs by keyword, as some tutorials and wrappers do.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(4, 3)
y = torch.randn(4, 2)

fc = nn.Linear(3, 2)
loss_fn = nn.MSELoss()
pred = fc(input=x)
loss = loss_fn(input=pred, target=y)
loss.backward()
print(pred)
print(loss, fc.bias.grad)

# a recurrent layer with its initial state by name
rnn = nn.GRU(input_size=3, hidden_size=2, batch_first=True)
h0 = torch.zeros(1, 4, 2)
out, hn = rnn(input=x.unsqueeze(1), hx=h0)
print(out.shape, hn.shape, torch.equal(out[:, -1], hn[0]))

# convolution, pooling, normalisation and embedding layers
conv = nn.Conv1d(in_channels=1, out_channels=2, kernel_size=2)
pool = nn.MaxPool1d(kernel_size=2)
norm = nn.BatchNorm1d(num_features=2)
feat = pool(input=norm(input=conv(input=x.unsqueeze(1))))
print(feat.shape, feat.grad_fn.name())
emb = nn.Embedding(num_embeddings=10, embedding_dim=3)
print(emb(input=torch.tensor([[1, 2], [3, 9]])).shape)

# attention with its options by name
attn = nn.MultiheadAttention(embed_dim=3, num_heads=1, batch_first=True)
seq = x.unsqueeze(0)
o, w = attn(query=seq, key=seq, value=seq, need_weights=True)
print(o.shape, w.shape, w.sum(-1))

# a wrapper passing the inputs on by keyword
def run(module, **inputs):
    return module(**inputs)

print(run(nn.Tanh(), input=torch.tensor([0.0, 1.0])))
print(run(nn.CrossEntropyLoss(), input=torch.tensor([[2.0, 0.5]]), target=torch.tensor([1])))

# a name PyTorch's forward does not take is Python's TypeError
for call in (lambda: fc(x=x), lambda: loss_fn(pred, targets=y), lambda: rnn(x, h0=h0), lambda: fc()):
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
