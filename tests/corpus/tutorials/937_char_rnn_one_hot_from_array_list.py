# A character RNN as Korean/Japanese tutorials write it: the one-hot rows are NumPy arrays in a
# Python list, turned into a tensor in one call (PyTorch warns that this is slow), then a few
# training steps of nn.RNN + nn.Linear.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)
text = "hello"
chars = sorted(set(text))
char_to_index = {c: i for i, c in enumerate(chars)}
x_data = [[char_to_index[c] for c in text[:-1]]]
y_data = [[char_to_index[c] for c in text[1:]]]
x_one_hot = [np.eye(len(chars))[x] for x in x_data]
print(type(x_one_hot[0]).__name__, x_one_hot[0].dtype, len(x_one_hot))

X = torch.FloatTensor(x_one_hot)
Y = torch.LongTensor(y_data)
print(X.shape, X.dtype, Y)


class Net(nn.Module):
    def __init__(self, input_dim, hidden_dim):
        super().__init__()
        self.rnn = nn.RNN(input_dim, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, input_dim)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out)


net = Net(len(chars), 6)
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(net.parameters(), lr=0.1)
for i in range(30):
    optimizer.zero_grad()
    outputs = net(X)
    loss = criterion(outputs.view(-1, len(chars)), Y.view(-1))
    loss.backward()
    optimizer.step()
    if i % 10 == 9:
        result = outputs.data.numpy().argmax(axis=2)
        print(i, round(loss.item(), 4), "".join(chars[c] for c in np.squeeze(result)))

ids = torch.tensor([np.array([0, 1]), np.array([2, 3])])
print(ids, ids.dtype)
print(net.rnn.weight_hh_l0.grad.abs().sum() > 0)
