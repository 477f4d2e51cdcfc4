# RReLU and torch.func: jacrev works, but vmap (and jacfwd, built on vmap) has no batching
# rule for its random slopes.
import torch
import torch.nn.functional as F
from torch.func import jacfwd, jacrev, vmap

x = torch.tensor([-2.0, -0.5, 0.5, 1.5], dtype=torch.float64)
print(jacrev(F.rrelu)(x))

attempts = {
    "jacfwd": lambda: jacfwd(F.rrelu)(x),
    "vmap": lambda: vmap(F.rrelu)(x.reshape(2, 2)),
    "vmap training": lambda: vmap(lambda r: F.rrelu(r, training=True), randomness="different")(
        x.reshape(2, 2)
    ),
    "vmap in place": lambda: vmap(lambda r: F.rrelu_(r.clone()))(x.reshape(2, 2)),
}
for name, run in attempts.items():
    try:
        run()
    except RuntimeError as e:
        print(name, "->", e)

# outside the transforms, evaluation mode is leaky_relu with the mean slope
y = F.rrelu(x, lower=0.1, upper=0.3)
print(y)
