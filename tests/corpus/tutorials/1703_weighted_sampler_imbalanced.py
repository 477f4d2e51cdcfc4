# Oversampling a rare class with WeightedRandomSampler (the sampler module's spelling).
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.sampler import WeightedRandomSampler

torch.manual_seed(7)
labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 0, 2])
features = torch.arange(10, dtype=torch.float64).unsqueeze(1)
counts = torch.bincount(labels)
class_weight = 1.0 / counts.double()
sample_weight = class_weight[labels]
print("weights:", sample_weight)

sampler = torch.utils.data.sampler.WeightedRandomSampler(
    sample_weight, num_samples=len(sample_weight), replacement=True
)
print("len:", len(sampler), sampler.num_samples, sampler.replacement)
print("draw:", list(sampler))
loader = DataLoader(TensorDataset(features, labels), batch_size=4, sampler=sampler)
seen = torch.zeros(3, dtype=torch.long)
for x, y in loader:
    print(x.squeeze(1).tolist(), y.tolist())
    seen += torch.bincount(y, minlength=3)
print("per class:", seen)

g = torch.Generator().manual_seed(123)
no_repeat = WeightedRandomSampler([1, 2, 3, 4, 5], 4, replacement=False, generator=g)
print("without replacement:", list(no_repeat))

for bad in (dict(weights=[1.0, 2.0], num_samples=0),
            dict(weights=[1.0, 2.0], num_samples=2, replacement="yes"),
            dict(weights=[[1.0, 2.0]], num_samples=2)):
    try:
        WeightedRandomSampler(**bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    list(WeightedRandomSampler([1.0, 2.0], 3, replacement=False))
except RuntimeError as e:
    print("RuntimeError:", e)
