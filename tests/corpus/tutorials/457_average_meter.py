# The AverageMeter of the PyTorch ImageNet example: running averages printed through __str__
# with a format string, grouped by a ProgressMeter.
import torch


class AverageMeter:
    """Computes and stores the average and current value"""

    def __init__(self, name, fmt=":f"):
        self.name = name
        self.fmt = fmt
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(name=self.name, val=self.val, avg=self.avg)


class ProgressMeter:
    def __init__(self, num_batches, meters, prefix=""):
        self.num_batches = num_batches
        self.meters = meters
        self.prefix = prefix

    def display(self, batch):
        entries = [self.prefix + f"[{batch}/{self.num_batches}]"]
        entries += [str(meter) for meter in self.meters]
        print("\t".join(entries))


torch.manual_seed(5)
losses = AverageMeter("Loss", ":.4e")
top1 = AverageMeter("Acc@1", ":6.2f")
progress = ProgressMeter(4, [losses, top1], prefix="Epoch: [0]")
model = torch.nn.Linear(5, 3)
for i in range(4):
    x = torch.randn(8, 5)
    target = torch.randint(0, 3, (8,))
    out = model(x)
    loss = torch.nn.functional.cross_entropy(out, target)
    acc = (out.argmax(dim=1) == target).float().mean() * 100
    losses.update(loss.item(), x.size(0))
    top1.update(acc.item(), x.size(0))
    progress.display(i)
print(losses.count, round(losses.avg, 6))
losses.reset()
print(losses)
