# Recurrent cells written the way tutorials write them, printed to ten digits: nn.GRU (two
# layers, both directions), nn.GRUCell, nn.LSTMCell, and an LSTM step by hand whose gates
# are `chunk`s of one matrix product. PyTorch takes the sigmoid and tanh of those gates on
# strided views (rows hidden_size long, 3 or 4 times that apart), a loop per row.
import torch
import torch.nn as nn

torch.manual_seed(1)
torch.set_printoptions(precision=10)

gru = nn.GRU(input_size=6, hidden_size=20, num_layers=2, bidirectional=True)
x = torch.randn(4, 3, 6, requires_grad=True)
h0 = torch.randn(4, 3, 20)
out, h_n = gru(x, h0)
print(out[3, 0, :20])
print(h_n[1, 2])
loss = out.tanh().sum() + h_n.pow(2).sum()
loss.backward()
print(x.grad[2])
print(gru.weight_hh_l0.grad[40:43, :6])
print(gru.bias_hh_l1_reverse.grad[:20])

cell = nn.GRUCell(6, 20)
h = torch.zeros(3, 20)
for t in range(4):
    h = cell(x[t].detach(), h)
print(h[0])

lstm_cell = nn.LSTMCell(6, 20)
hx, cx = lstm_cell(x[0].detach())
print(hx[1], cx[1, :10])

W = torch.randn(6 + 20, 4 * 20) * 0.5
state = (torch.zeros(3, 20), torch.zeros(3, 20))
for t in range(4):
    h_prev, c_prev = state
    gates = torch.cat([x[t].detach(), h_prev], dim=1) @ W
    i, f, g, o = gates.chunk(4, dim=1)
    i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
    c = f * c_prev + i * g
    state = (o * torch.tanh(c), c)
print(state[0][2])
print(i.is_contiguous(), i.stride())
