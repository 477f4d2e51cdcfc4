# A training script names its checkpoint and log files from a run directory; the names are
# only printed (nothing is written), so os.path's text functions are all it needs.
import os
import os.path as osp

import torch

run_dir = osp.join("runs", "mlp", "seed0")
ckpt = os.path.join(run_dir, "epoch_{:03d}.pt".format(3))
stem, ext = osp.splitext(osp.basename(ckpt))
print(ckpt, stem, ext)
print(osp.dirname(ckpt), osp.split(ckpt)[0] == osp.dirname(ckpt))
print(osp.normpath("runs/./mlp/../mlp/seed0"), osp.isabs(run_dir), osp.isabs("/tmp"))

torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
loss = (w**2).sum()
loss.backward()
print(f"{stem}: loss={loss.item():.4f}", w.grad)
try:
    osp.join(run_dir, 7)
except TypeError as err:
    print("TypeError:", err)
