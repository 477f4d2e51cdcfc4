# Naming runs and checkpoints with the clock, and timing an epoch, as training scripts do.
from datetime import datetime, timedelta
import datetime as dt
import time

import torch

stamp = datetime.now().strftime("%Y%m%d_%H%M%S")
run_dir = f"runs/fashion_trainer_{stamp}"
print(len(stamp), stamp[8], run_dir.startswith("runs/fashion_trainer_2"))
checkpoint = "model_{}_{}".format(stamp, 4)
print(checkpoint.count("_"), len(checkpoint) == len("model__4") + 15)
log_name = "log-" + time.strftime("%Y%m%d-%H%M%S") + ".txt"
print(len(log_name), log_name[12])

started = datetime.now()
w = torch.ones(3, requires_grad=True)
(w * 2).sum().backward()
elapsed = datetime.now() - started
print(type(elapsed).__name__, elapsed >= timedelta(0), elapsed.total_seconds() < 60.0)

launch = datetime(2024, 2, 28, 22, 15, 5)
print(launch, repr(launch))
print(launch.strftime("%Y-%m-%d %H:%M:%S"), f"{launch:%d.%m.%Y}", f"ckpt-{launch:%H%M}.pt")
print(launch.isoformat(), launch.date(), launch.weekday(), launch.replace(month=3, day=1))
budget = timedelta(hours=2, minutes=30)
finish = launch + budget
print(finish, finish - launch == budget, finish > launch, finish.day, finish.hour)
per_epoch = budget / 8
print(per_epoch, per_epoch.total_seconds(), budget // timedelta(minutes=45), -per_epoch)
print(abs(launch - finish), (finish - launch) * 3, [timedelta(days=1, seconds=5)])
print(dt.date(2024, 3, 1) - dt.date(2024, 2, 1), dt.datetime.fromisoformat("2024-05-06T07:08"))
print({"started": launch}, str(timedelta(seconds=3725.25)))
print(launch.year, launch.month, launch.second, budget.seconds, budget.days)

for bad in (
    lambda: launch + 5,
    lambda: dt.datetime(2024, 13, 1),
    lambda: launch < dt.date(2024, 1, 1),
    lambda: f"{budget:%H}",
):
    try:
        print(bad())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
