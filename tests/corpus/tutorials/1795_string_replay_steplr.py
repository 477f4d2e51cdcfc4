# Three habits of the official tutorials in one script: the letters of a char-RNN come from
# string's constants, a replay memory is a deque sampled with random.sample, and the
# transformer tutorial's scheduler is StepLR(optimizer, 1.0, gamma=0.95).
import random
import string
from collections import deque

import torch
from torch import nn

all_letters = string.ascii_letters + " .,;'"
print(len(all_letters), all_letters.index("Z"), string.digits, string.punctuation[:6])


def letter_to_tensor(letter):
    t = torch.zeros(1, len(all_letters))
    t[0][all_letters.find(letter)] = 1
    return t


print(letter_to_tensor("J").argmax().item())

random.seed(7)
memory = deque([], maxlen=6)
for step in range(10):
    memory.append((step, step * step))
batch = random.sample(memory, 3)
print(batch, len(memory))

torch.manual_seed(0)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=5.0)
sched = torch.optim.lr_scheduler.StepLR(opt, 1.0, gamma=0.95)
for epoch in range(3):
    loss = model(torch.ones(2, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), sched.step_size)
