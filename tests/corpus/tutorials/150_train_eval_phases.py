import torch
import torch.nn as nn

torch.manual_seed(0)
data = {
    "train": (torch.randn(8, 3), torch.randint(0, 2, (8,))),
    "val": (torch.randn(4, 3), torch.randint(0, 2, (4,))),
}
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Dropout(0.2), nn.Linear(4, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(3):
    for phase in ["train", "val"]:
        if phase == "train":
            model.train()
        else:
            model.eval()
        inputs, labels = data[phase]
        optimizer.zero_grad()
        with torch.set_grad_enabled(phase == "train"):
            outputs = model(inputs)
            _, preds = torch.max(outputs, 1)
            loss = criterion(outputs, labels)
            if phase == "train":
                loss.backward()
                optimizer.step()
        acc = (preds == labels).sum().item() / len(labels)
        print("%d %-5s loss: %.4f acc: %.2f" % (epoch, phase, loss.item(), acc))
