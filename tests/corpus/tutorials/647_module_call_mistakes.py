# Calling torch.nn's activation and loss modules with the wrong number of inputs: the
# TypeError of the module's forward, as Python words it; and the input by its name.
import torch
import torch.nn as nn

torch.manual_seed(0)
logits = torch.randn(3, 4)
labels = torch.tensor([0, 1, 2])
calls = [
    ("CrossEntropyLoss with three inputs", lambda: nn.CrossEntropyLoss()(logits, labels, labels)),
    ("MSELoss with one", lambda: nn.MSELoss()(logits)),
    ("ReLU with two", lambda: nn.ReLU()(logits, logits)),
    ("Softmax with none", lambda: nn.Softmax(dim=1)()),
    ("Tanh by keyword", lambda: nn.Tanh()(input=logits).shape),
    ("MSELoss by keywords", lambda: nn.MSELoss()(input=logits, target=torch.zeros(3, 4))),
    ("Sigmoid, a wrong keyword", lambda: nn.Sigmoid()(x=logits)),
]
for what, call in calls:
    try:
        print(what, "->", call())
    except TypeError as err:
        print(what, "-> TypeError:", err)
