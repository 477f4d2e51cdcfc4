# The "saving and loading a general checkpoint" recipe: save the epoch, the model's and the
# optimizer's state dicts and the last loss in one dict, load them into a fresh model and
# optimizer, and go on training (gradcli keeps the checkpoint in memory: it writes no files).
import torch
import torch.nn as nn
import torch.optim as optim
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 1)
    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))
net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(8, 4)
t = torch.randn(8, 1)
for epoch in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(net(x), t)
    loss.backward()
    optimizer.step()
PATH = "model.pt"
torch.save({
    'epoch': epoch,
    'model_state_dict': net.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, PATH)
model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
checkpoint = torch.load(PATH, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']
print(epoch, loss)
model.train()
optimizer.zero_grad()
l2 = nn.functional.mse_loss(model(x), t)
l2.backward()
optimizer.step()
print(l2, model.fc2.weight)
print(optimizer.state_dict()['param_groups'])

w = torch.randn(3, requires_grad=True)
adam = torch.optim.Adam([w], lr=0.1)
for i in range(3):
    adam.zero_grad()
    (w**2).sum().backward()
    adam.step()
torch.save(adam.state_dict(), "adam.pt")
w2 = w.detach().clone().requires_grad_(True)
adam2 = torch.optim.Adam([w2], lr=0.5)
adam2.load_state_dict(torch.load("adam.pt"))
for opt, p in ((adam, w), (adam2, w2)):
    opt.zero_grad()
    (p**2).sum().backward()
    opt.step()
print(torch.equal(w, w2), adam2.param_groups[0]["lr"], adam2.state[w2]["step"])
try:
    model.load_state_dict(torch.load("best.pt"))
except FileNotFoundError as e:
    print("FileNotFoundError:", e)
