# Reproducible data for a PyTorch experiment with NumPy's newer random API: a SeedSequence
# spawning one stream per worker, explicit bit generators, and saving / restoring the
# legacy global state around a draw.
import numpy as np
import torch

root = np.random.SeedSequence(2024)
streams = [np.random.default_rng(child) for child in root.spawn(3)]
print(root.entropy, [int(s.integers(0, 1000)) for s in streams])

gen = np.random.Generator(np.random.PCG64(7))
x = gen.normal(size=(4, 2))
y = x @ np.array([1.5, -0.5]) + 0.1 * gen.standard_normal(4)
print(np.round(x, 4), np.round(y, 4), sep="\n")
data = torch.from_numpy(x).float()
print(data.dtype, data.shape)

same = np.random.default_rng(gen)
print(same is gen, np.random.Generator(np.random.MT19937(1)).random())
print(np.random.default_rng(np.random.Philox(3)).integers(10, size=3))
children = np.random.default_rng(11).spawn(2)
print([round(float(c.random()), 6) for c in children])

np.random.seed(0)
state = np.random.get_state()
first = np.random.rand(3)
np.random.set_state(state)
print(state[0], state[1][:2], state[2], np.array_equal(first, np.random.rand(3)))

try:
    np.random.SeedSequence(-1)
except ValueError as e:
    print("ValueError:", e)
