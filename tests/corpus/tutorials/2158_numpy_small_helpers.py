# Small NumPy helpers met in answers around PyTorch code: np.s_ slices kept in a variable,
# np.fromiter over a generator, piecewise functions, formatting floats for a log line,
# complex results of np.emath, and bit packing of a mask.
import numpy as np
import torch

crop = np.s_[1:3, ::2]
image = np.arange(20.0).reshape(4, 5)
print(image[crop], torch.from_numpy(image)[crop].sum().item(), np.index_exp[2])

squares = np.fromiter((k * k for k in range(6)), dtype=np.float32)
print(squares, np.fromiter(range(100), dtype=np.int64, count=4))

x = np.linspace(-2.0, 2.0, 9)
huber = np.piecewise(
    x, [np.abs(x) <= 1, np.abs(x) > 1], [lambda v: 0.5 * v**2, lambda v: np.abs(v) - 0.5]
)
print(huber)
print(
    torch.nn.functional.huber_loss(
        torch.from_numpy(x), torch.zeros(9, dtype=torch.float64), reduction="none"
    ).numpy()
)

loss = np.float32(0.123456789)
print(
    "loss " + np.format_float_positional(loss, precision=4),
    np.format_float_scientific(1234.5, precision=2),
)
print(
    np.format_float_positional(np.float64(1) / 3, unique=False, precision=6),
    np.format_float_positional(3.0, trim="-"),
)
print(np.emath.sqrt([-4.0, 9.0]), np.emath.log(-1.0), np.emath.logn(2, 32))
mask = np.array([1, 0, 1, 1, 0, 0, 0, 1, 1], dtype=np.uint8)
packed = np.packbits(mask)
print(
    packed,
    np.unpackbits(packed)[: mask.size],
    np.binary_repr(int(packed[0]), width=8),
    np.base_repr(255, 16),
)
print(
    np.True_,
    np.False_ | True,
    np.astype(np.arange(3), np.float32),
    np.bitwise_count(np.array([7, 8, 255])),
)
