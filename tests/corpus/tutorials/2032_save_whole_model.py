# Saving a whole model with torch.save(model, path), as the "Saving and loading models"
# tutorial shows it: since PyTorch 2.6 torch.load's default weights_only=True refuses the
# module's class, and weights_only=False gives the model back (a copy of it).
import torch
import torch.nn as nn

torch.manual_seed(0)


class TheModelClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(3, 1)
        self.version = 2

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = TheModelClass()
torch.save(model, "entire_model.pt")

try:
    torch.load("entire_model.pt")
except Exception as err:
    print(type(err).__name__)
    print(str(err).splitlines()[3].strip())

loaded = torch.load("entire_model.pt", weights_only=False)
loaded.eval()
print(loaded)
print(type(loaded).__name__, loaded.version, loaded is model)
x = torch.randn(2, 4)
print(torch.equal(loaded(x), model(x)))

with torch.no_grad():
    loaded.fc1.weight.zero_()
print(model.fc1.weight.abs().sum() > 0)

checkpoint = {"epoch": 5, "model": nn.Sequential(nn.Linear(2, 2), nn.Tanh()), "loss": 0.25}
torch.save(checkpoint, "checkpoint.tar")
try:
    torch.load("checkpoint.tar", weights_only=True)
except Exception as err:
    print(str(err).splitlines()[3].strip()[:96])
restored = torch.load("checkpoint.tar", weights_only=False)
print(restored["epoch"], restored["loss"], restored["model"])

torch.save(model.state_dict(), "weights.pt")
fresh = TheModelClass()
print(fresh.load_state_dict(torch.load("weights.pt", weights_only=True)))
