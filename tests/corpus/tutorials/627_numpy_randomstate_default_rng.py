# NumPy's own generators beside torch's, as data-preparation code writes them: a legacy
# RandomState of its own seed and the newer default_rng Generator.
import numpy as np
import torch
rs = np.random.RandomState(42)
print(rs.randn(3), rs.rand(2), rs.randint(0, 10, size=4), rs.normal(1.0, 2.0, size=2))
print(rs.choice(5, 3, replace=False), rs.permutation(4), rs.uniform(-1, 1, (2, 2)))
rs.seed(1)
print(rs.random_sample(2))
rng = np.random.default_rng(0)
print(rng.random(3), rng.normal(size=2), rng.integers(0, 100, size=5), rng.uniform(1, 2, 2))
print(rng.choice([10, 20, 30], size=2), rng.permutation(5), rng.standard_normal((2, 2)))
a = np.arange(6)
rng.shuffle(a)
print(a, rng.exponential(2.0, 3), rng.integers(5, size=3, endpoint=True))
x = torch.tensor(rng.normal(size=(2, 3)), dtype=torch.float32)
print(x)
