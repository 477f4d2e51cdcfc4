# "RNN from scratch": a hand-written Elman RNN checked against nn.RNN
import torch
import torch.nn as nn

torch.manual_seed(1)
input_size, hidden_size, seq_len, batch = 4, 3, 5, 2

rnn = nn.RNN(input_size, hidden_size)
print(rnn)
for name, param in rnn.named_parameters():
    print(name, tuple(param.shape))

x = torch.randn(seq_len, batch, input_size)
h0 = torch.randn(1, batch, hidden_size)
out, h_n = rnn(x, h0)
print("output:", out.shape, "h_n:", h_n.shape)
print(out.grad_fn.name(), h_n.grad_fn.name())

# the same computation by hand
W_ih, W_hh = rnn.weight_ih_l0, rnn.weight_hh_l0
b_ih, b_hh = rnn.bias_ih_l0, rnn.bias_hh_l0
h = h0[0]
outputs = []
for t in range(seq_len):
    h = torch.tanh(x[t] @ W_ih.T + b_ih + h @ W_hh.T + b_hh)
    outputs.append(h)
manual = torch.stack(outputs)
print("max difference:", (manual - out).abs().max().item() < 1e-6)
print(torch.allclose(manual, out, atol=1e-6), torch.allclose(h, h_n[0], atol=1e-6))

# gradients flow back through time
loss = out[-1].sum()
loss.backward()
print(rnn.weight_hh_l0.grad)
print(rnn.bias_ih_l0.grad)

# an RNNCell unrolled by hand gives the same final state
cell = nn.RNNCell(input_size, hidden_size)
with torch.no_grad():
    cell.weight_ih.copy_(W_ih)
    cell.weight_hh.copy_(W_hh)
    cell.bias_ih.copy_(b_ih)
    cell.bias_hh.copy_(b_hh)
hx = h0[0]
for t in range(seq_len):
    hx = cell(x[t], hx)
print(hx)
print(torch.allclose(hx, h_n[0], atol=1e-6))

# unbatched input works too
out1, h1 = rnn(x[:, 0])
print(out1.shape, h1.shape, out1.grad_fn.name())
