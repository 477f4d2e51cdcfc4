# A research-style training script that logs with Python's logging: a module logger, basicConfig
# at WARNING (so the per-epoch INFO records are dropped, as Python drops them), %-style
# arguments, a child logger raised to ERROR; what it checks about its loggers it prints. (Log
# records go to standard error, which the corpus keeps free of anything but warnings.)
import logging

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)
logger.info("building the model")
logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
quiet = logging.getLogger("trainer.data")
logging.getLogger("trainer").setLevel(logging.ERROR)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(32, 3)
y = (x**2).sum(dim=1, keepdim=True)

for epoch in range(4):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
    opt.step()
    logger.info("epoch %d loss %.4f grad norm %.3f", epoch, loss.item(), gnorm.item())
    quiet.warning("batch of %d", x.shape[0])  # the child's ERROR level drops it
    if logger.isEnabledFor(logging.DEBUG):
        print("never: DEBUG is below WARNING")
    print(f"epoch {epoch}: loss {loss.item():.4f}")

print(logger.getEffectiveLevel(), quiet.getEffectiveLevel(), quiet.isEnabledFor(logging.WARNING))
print(logger, quiet, logging.getLogger("trainer").level)
logger.setLevel(logging.DEBUG)
print(logger.getEffectiveLevel(), logger.isEnabledFor(logging.DEBUG), logging.CRITICAL)
