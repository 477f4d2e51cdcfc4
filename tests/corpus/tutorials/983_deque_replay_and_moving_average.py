# A replay buffer and a moving average of the loss with collections.deque
import random
from collections import deque

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)

buffer = deque(maxlen=5)
for step in range(8):
    buffer.append((torch.randn(2), step % 2))
print(len(buffer), buffer.maxlen, [label for _, label in buffer])

window = deque([], maxlen=3)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(6):
    x = torch.stack([s for s, _ in buffer])
    y = torch.tensor([float(l) for _, l in buffer]).unsqueeze(1)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    window.append(round(loss.item(), 4))
    print(step, window, round(sum(window) / len(window), 4))

q = deque(range(5))
q.rotate(2)
print(q)
q.appendleft(-1)
q.extend([7, 8])
q.extendleft([10, 11])
print(q, q[0], q[-1], 7 in q, q.count(7), q.index(8))
print(q.pop(), q.popleft(), q)
q[0] = 100
del q[1]
q.remove(7)
print(q, list(reversed(q)), sorted(q), max(q))
q.reverse()
print(q, bool(q), bool(deque()), isinstance(q, deque), type(q))
q.clear()
try:
    q.pop()
except IndexError as e:
    print("IndexError:", e)
try:
    deque(maxlen=-1)
except ValueError as e:
    print("ValueError:", e)
sample = random.sample(list(buffer), 2)
print([label for _, label in sample])
