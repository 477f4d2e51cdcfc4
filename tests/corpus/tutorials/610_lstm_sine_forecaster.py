# Time-series forecasting with an LSTM: predict the next value of a sine wave
import torch
import torch.nn as nn

torch.manual_seed(0)

# build sliding windows over a sine wave
t = torch.linspace(0, 8 * 3.14159, 120)
series = torch.sin(t)
window = 12
xs, ys = [], []
for i in range(len(series) - window):
    xs.append(series[i:i + window])
    ys.append(series[i + window])
X = torch.stack(xs).unsqueeze(-1)   # (N, window, 1)
y = torch.stack(ys).unsqueeze(-1)   # (N, 1)
print("X:", X.shape, "y:", y.shape)


class LSTMForecaster(nn.Module):
    def __init__(self, hidden_size=16, num_layers=1):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=hidden_size,
                            num_layers=num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, 1)

    def forward(self, x):
        out, (h_n, c_n) = self.lstm(x)
        return self.fc(out[:, -1, :])


model = LSTMForecaster()
print(model)
print(sum(p.numel() for p in model.parameters()), "parameters")

criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(15):
    optimizer.zero_grad()
    pred = model(X)
    loss = criterion(pred, y)
    loss.backward()
    optimizer.step()
    if epoch % 3 == 0:
        print(f"epoch {epoch:2d}  loss {loss.item():.4f}")

with torch.no_grad():
    test = series[-window:].reshape(1, window, 1)
    print("next value:", round(model(test).item(), 3))
