# Repeated experiments with recurrent models: the same LSTM / GRU objects are re-initialised
# before each run with reset_parameters() (PyTorch's uniform draws again), and the runs agree
# with a model built fresh after the same seed.
import torch
import torch.nn as nn

torch.manual_seed(3)
seq = torch.randn(4, 6, 2)  # batch, time, features
target = torch.randn(4, 1)


class Regressor(nn.Module):
    def __init__(self, cell="lstm"):
        super().__init__()
        rnn = nn.LSTM if cell == "lstm" else nn.GRU
        self.rnn = rnn(input_size=2, hidden_size=5, num_layers=2, batch_first=True,
                       dropout=0.0, bidirectional=True)
        self.out = nn.Linear(10, 1)

    def forward(self, x):
        y, _ = self.rnn(x)
        return self.out(y[:, -1])

    def reset(self):
        for layer in self.children():
            if hasattr(layer, "reset_parameters"):
                layer.reset_parameters()


for cell in ["lstm", "gru"]:
    model = Regressor(cell)
    r = model.rnn
    print(r._get_name(), r.input_size, r.hidden_size, r.num_layers, r.batch_first,
          r.bidirectional, r.dropout, r.proj_size, r.bias, r.mode)
    finals = []
    for run in range(2):
        torch.manual_seed(100 + run)
        model.reset()
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        for step in range(5):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(seq), target)
            loss.backward()
            opt.step()
        finals.append(loss.item())
        print(f"{cell} run {run}: final loss {loss.item():.6f}")
    torch.manual_seed(101)
    fresh = Regressor(cell)
    torch.manual_seed(101)
    model.reset()
    same = all(torch.equal(a, b) for a, b in zip(model.parameters(), fresh.parameters()))
    print(f"{cell}: reset equals fresh build after the same seed: {same}")

cell = nn.GRUCell(3, 4)
print(cell.input_size, cell.hidden_size, cell.bias)
torch.manual_seed(0)
cell.reset_parameters()
print(cell.weight_hh)
print(cell.bias_ih)
