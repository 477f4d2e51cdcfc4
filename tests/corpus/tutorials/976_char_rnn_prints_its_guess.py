# A tiny character model taught to shift a word by one letter, printing its guess a character
# at a time with sys.stdout.write (as lecture scripts do), then the loss on the same line.
import sys

import torch
import torch.nn as nn

torch.manual_seed(5)
chars = ["a", "b", "c", "d"]
x_ids = [0, 1, 2, 3, 2]
y_ids = [1, 2, 3, 2, 1]
inputs = torch.eye(4)[x_ids]
labels = torch.tensor(y_ids)


class CharModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.RNNCell(4, 6)
        self.out = nn.Linear(6, 4)

    def forward(self, x, h):
        h = self.cell(x.view(1, 4), h)
        return h, self.out(h)


model = CharModel()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(30):
    optimizer.zero_grad()
    h = torch.zeros(1, 6)
    loss = 0
    if epoch % 5 == 4:
        sys.stdout.write("guess: ")
    for x, y in zip(inputs, labels):
        h, logits = model(x, h)
        loss = loss + criterion(logits, y.view(1))
        if epoch % 5 == 4:
            sys.stdout.write(chars[logits.argmax(1).item()])
    if epoch % 5 == 4:
        sys.stdout.flush()
        print(f", epoch {epoch + 1}, loss {loss.item():.4f}")
    loss.backward()
    optimizer.step()
written = sys.stdout.write("done\n")
print(written, "characters")
