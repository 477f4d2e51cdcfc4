# The XOR problem with a 2-4-1 network, Sigmoid output and nn.BCELoss, trained with SGD:
# losses every 500 epochs and the rounded predictions.
import torch
import torch.nn as nn

torch.manual_seed(2)
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])


class XOR(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Linear(2, 4)
        self.layer2 = nn.Linear(4, 1)
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        x = self.sigmoid(self.layer1(x))
        return self.sigmoid(self.layer2(x))


model = XOR()
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.5)
for epoch in range(600):
    optimizer.zero_grad()
    out = model(X)
    loss = criterion(out, Y)
    loss.backward()
    optimizer.step()
    if epoch % 150 == 0:
        print(f"Epoch: {epoch}, Loss: {loss.item():.4f}")

with torch.no_grad():
    pred = model(X)
    print(pred.round())
    print((pred > 0.5).float().eq(Y).all().item())
    print(pred.squeeze().tolist() == [round(v, 0) for v in pred.squeeze().tolist()])
