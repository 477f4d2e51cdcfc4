# A float64 RNN and LSTM checked digit by digit: tanh, sqrt and their gradients printed in full.
import torch

torch.manual_seed(3)
x = torch.linspace(-4, 4, 9, dtype=torch.float64)
print("tanh:", torch.tanh(x).tolist())
print("nn.Tanh:", torch.nn.Tanh()(x * 0.37).tolist())
print("sqrt:", torch.sqrt(x.abs() + 0.1).tolist())
print("pow 0.5:", ((x * x + 2) ** 0.5).tolist())

rnn = torch.nn.RNN(input_size=3, hidden_size=4, dtype=torch.float64)
seq = torch.randn(6, 2, 3, dtype=torch.float64)
out, h = rnn(seq)
print("rnn last hidden:", h[0, 0].tolist())

lstm = torch.nn.LSTM(input_size=3, hidden_size=4, num_layers=2, dtype=torch.float64)
out, (h, c) = lstm(seq)
loss = out.pow(2).mean()
loss.backward()
print(f"lstm loss = {loss.item()!r}")
print("cell state:", c[1, 1].tolist())
print("grad norm:", lstm.weight_hh_l0.grad.norm().item())

w = torch.randn(5, dtype=torch.float64, requires_grad=True)
y = torch.tanh(w * 2.5).sum() + torch.sqrt(w.abs() + 1).sum()
y.backward()
print("y =", y.item())
print("dy/dw:", w.grad.tolist())
