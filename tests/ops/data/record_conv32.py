"""Record PyTorch's float32 convolutions for tests/ops/test_conv32_order.py (torch 2.13 CPU, one
thread: /work/torchenv/bin/python tests/ops/data/record_conv32.py). Each case names a shape of
one of ATen's backends (see gradcli/ops/conv_order.py); the inputs are NumPy's, drawn from the
case's seed, so the test rebuilds them without torch; a result is stored as the SHA-256 of its
float32 bytes (a few KB for all cases; any element one bit off changes it): the output, and
the input, weight and bias gradients for an output gradient drawn from the seed too."""

import hashlib
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)

# (kind, n, c, o, kernel, stride, dilation, padding, groups, spatial, bias)
CASES = [
    ("slow", 1, 4, 8, (3, 3), 1, 1, 1, 1, (5, 5), True),  # the docs' conv2d example
    ("slow", 1, 3, 16, (3, 3), 1, 1, 0, 1, (12, 10), True),
    ("slow", 1, 16, 1, (3, 3), 1, 1, 1, 1, (9, 11), True),  # one output channel: gemv
    ("slow", 1, 1, 6, (1, 1), 1, 1, 0, 1, (7, 7), True),  # inner size 1: the bias fused
    ("slow", 1, 48, 12, (3, 3), 1, 1, 1, 1, (6, 6), True),  # inner 432: two blocks
    ("slow", 1, 8, 5, (3, 3), 1, 1, 0, 1, (3, 3), True),  # one position
    ("slow", 1, 5, 7, (2, 3), 2, 1, 1, 1, (9, 8), False),
    ("slow", 3, 6, 4, (1, 1), 1, 1, 0, 2, (5, 5), True),  # 1x1 unstrided: slow for n < 16
    ("slow", 1, 6, 10, (3,), 1, 1, 1, 1, (40,), True),  # conv1d
    ("dilated", 1, 4, 6, (3, 3), 1, 2, 2, 1, (9, 9), True),
    ("direct", 8, 3, 16, (3, 3), 1, 1, 0, 1, (12, 20), True),  # first layer, plain input
    ("direct", 4, 1, 32, (3, 3), 1, 1, 1, 1, (10, 10), True),
    ("direct", 2, 4, 8, (5, 5), 1, 1, 0, 1, (9, 9), True),
    ("direct", 4, 16, 32, (3, 3), 1, 1, 1, 1, (8, 8), True),
    ("direct", 2, 40, 20, (3, 3), 2, 1, 1, 1, (9, 7), True),  # 3 chunks of 16, padded
    ("direct", 2, 64, 16, (3, 3), 1, 1, 1, 1, (6, 6), False),
    ("direct", 4, 1, 32, (3, 3), 1, 1, 1, 1, (12, 12), True),  # v04's layers
    ("direct", 2, 32, 64, (3, 3), 1, 1, 1, 1, (4, 5), True),
    ("direct", 3, 20, 40, (5,), 1, 1, 2, 1, (17,), True),
    ("direct", 4, 16, 32, (3,), 1, 1, 1, 1, (30,), True),  # conv1d
    ("direct", 2, 32, 4, (5,), 2, 1, 2, 1, (21,), True),
    ("direct", 2, 24, 16, (1, 1), 2, 1, 0, 1, (9, 7), True),  # 1x1 strided, odd sizes
    ("1x1", 2, 32, 32, (1, 1), 2, 1, 0, 1, (8, 8), True),
    ("1x1", 16, 20, 8, (1, 1), 1, 1, 0, 1, (4, 4), True),
    ("1x1", 2, 4, 1, (1,), 1, 2, 0, 1, (12,), True),
    ("depthwise", 2, 8, 8, (3, 3), 1, 1, 1, 8, (7, 7), True),
    ("depthwise", 2, 16, 16, (5,), 1, 1, 2, 16, (20,), True),
    ("grouped", 2, 8, 16, (3, 3), 1, 1, 1, 2, (6, 6), True),
    ("grouped", 2, 32, 64, (3, 3), 1, 1, 1, 2, (5, 5), True),
    # strided: the input gradient is oneDNN's brgemm strided kernel (conv_order._column_calls)
    ("direct", 5, 4, 4, (3,), 2, 1, 0, 1, (8,), True),  # even width: columns apart
    ("direct", 5, 4, 4, (3,), 2, 1, 1, 1, (9,), True),  # uneven width: one chain
    ("direct", 2, 3, 5, (5,), 3, 1, 2, 1, (12,), True),
    ("direct", 16, 4, 4, (3,), 2, 1, 0, 1, (8,), False),
    ("direct", 2, 8, 40, (5,), 2, 1, 3, 1, (20,), True),  # partial, full, partial columns
    ("direct", 4, 4, 8, (7,), 3, 1, 4, 1, (18,), True),
    ("direct", 8, 3, 16, (3, 3), 2, 1, 1, 1, (16, 16), True),  # a CIFAR-like first layer
    ("direct", 4, 16, 32, (3, 3), 2, 1, 1, 1, (15, 15), True),
    ("direct", 2, 8, 20, (4, 4), 2, 1, 1, 1, (12, 10), True),
    ("direct", 3, 6, 12, (5, 5), 3, 1, 2, 1, (12, 11), True),
    ("direct", 1, 3, 8, (5, 5), 2, 1, 2, 1, (16, 16), True),  # one sample, 5x5: oneDNN
    ("direct", 12, 2, 6, (3, 3), 3, 1, 0, 1, (9, 10), True),
    ("direct", 4, 4, 8, (3, 3), 2, 2, 2, 1, (13, 13), True),  # dilated: forward only
    # strided 1x1 (jit_1x1): the weight gradient a chain a sample, the sums added
    ("1x1", 16, 8, 16, (1, 1), 2, 1, 0, 1, (8, 8), True),  # a ResNet shortcut
    ("1x1", 3, 20, 8, (1, 1), 3, 1, 0, 1, (9, 12), False),
    ("1x1", 5, 4, 8, (1,), 2, 1, 0, 1, (40,), True),
    # depthwise (jit_dw): its input gradient undilated, its weight gradient for kernels at most
    # 3 wide (conv_order.dw_backward); MobileNet-like blocks
    ("depthwise", 8, 32, 32, (3, 3), 2, 1, 1, 32, (16, 16), True),
    ("depthwise", 4, 32, 32, (3, 3), 1, 1, 1, 32, (14, 14), False),
    ("depthwise", 1, 24, 24, (3, 3), 1, 1, 1, 24, (9, 11), True),  # channels padded to 32
    ("depthwise", 3, 16, 16, (3, 3), 1, 1, 1, 16, (20, 20), True),  # rows past one block
    ("depthwise", 2, 12, 12, (3, 3), 2, 1, 1, 12, (11, 11), True),
    ("depthwise", 2, 16, 16, (3, 3), 1, 1, 0, 16, (10, 10), True),
    ("depthwise", 4, 16, 16, (3,), 1, 1, 1, 16, (40,), True),  # conv1d
    ("depthwise", 3, 20, 20, (3,), 2, 1, 1, 20, (17,), True),
    ("depthwise", 2, 16, 16, (5, 5), 1, 1, 2, 16, (9, 9), True),  # 5 wide: the input gradient
    ("depthwise", 2, 16, 16, (5, 3), 2, 1, 1, 16, (12, 9), True),
    # grouped (oneDNN's direct kernel, conv_order.direct_backward): the input gradient in
    # blocks of 16, 8 or 4 output channels (strided too, or the brgemm strided kernel), the
    # weight gradient where groups have a multiple of 8 channels
    ("grouped", 2, 32, 64, (3, 3), 1, 1, 1, 2, (8, 8), True),  # blocks of 16, both
    ("grouped", 2, 16, 32, (3, 3), 1, 1, 1, 2, (8, 8), True),  # blocks of 8 (avx2 weights)
    ("grouped", 2, 8, 16, (3, 3), 1, 1, 1, 2, (6, 6), True),  # blocks of 4: input only
    ("gemm", 4, 64, 16, (3, 3), 1, 1, 1, 4, (7, 9), False),  # more inputs: gemm forward
    ("grouped", 2, 32, 32, (3, 3), 2, 1, 1, 2, (9, 9), True),  # strided, direct
    ("grouped", 2, 32, 64, (3, 3), 2, 1, 1, 2, (8, 8), True),  # strided, brgemm (> 16 out)
    ("grouped", 3, 48, 48, (3,), 1, 1, 1, 3, (30,), True),  # conv1d
    ("gemm", 8, 64, 24, (2,), 3, 1, 1, 2, (15,), True),  # direct refuses: brgemm (avx2)
    ("gemm", 8, 64, 24, (2,), 2, 1, 1, 2, (15,), True),  # ... and takes this one
    ("grouped", 2, 24, 48, (5, 5), 1, 1, 2, 3, (11, 10), True),
    # dilated, one group: the input gradient (unstrided), the weight gradient with 1-3 or 16
    # or more input channels
    ("direct", 4, 4, 8, (3, 3), 1, 2, 2, 1, (13, 13), True),  # input only
    ("direct", 2, 3, 16, (3, 3), 1, 2, 2, 1, (11, 11), True),
    ("direct", 2, 16, 32, (3, 3), 1, 2, 2, 1, (10, 10), True),
    ("direct", 2, 20, 8, (3,), 1, 3, 3, 1, (30,), True),
    ("direct", 2, 1, 8, (5, 5), 1, 2, 4, 1, (11, 11), False),
    ("grouped", 2, 32, 32, (3, 3), 2, 1, 1, 2, (8, 10), True),  # strided direct, even width
    # slow_conv2d with several samples (an unstrided 1x1 kernel): each sample's gradients, the
    # weight gradient's sum sample by sample (one position: fused, a chain); and
    # slow_conv_dilated2d's gradients (one sample)
    ("slow", 8, 16, 32, (1, 1), 1, 1, 0, 1, (8, 8), False),  # a MobileNet pointwise conv
    ("slow", 3, 3, 17, (1, 1), 1, 1, 0, 1, (20, 20), True),  # 400 positions: two blocks
    ("slow", 6, 24, 8, (1,), 1, 1, 0, 1, (1,), True),  # one position
    ("slow", 15, 5, 3, (1,), 1, 1, 0, 1, (30,), True),
    ("dilated", 1, 16, 16, (3, 3), 1, 2, 2, 1, (9, 9), True),  # an atrous conv
    ("dilated", 1, 3, 8, (3,), 2, 3, 1, 1, (20,), True),
    ("dilated", 1, 8, 4, (2, 2), 1, 2, 0, 1, (7, 11), False),
    # unstrided 1x1 with 16 samples or more (jit_1x1): the input gradient one chain over the
    # output channels (to 256), the weight gradient a chain a sample
    ("1x1", 32, 32, 64, (1, 1), 1, 1, 0, 1, (4, 4), True),  # a pointwise conv in training
    ("1x1", 16, 64, 256, (1, 1), 1, 1, 0, 1, (2, 2), True),
    ("1x1", 16, 4, 64, (1,), 1, 1, 0, 1, (7,), True),
    ("1x1", 20, 96, 200, (1, 1), 1, 1, 0, 1, (3, 3), False),
    ("1x1", 16, 16, 512, (1, 1), 1, 1, 0, 1, (1, 2), True),  # past 256: not mirrored
]


def draw(shape, seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def inputs(case, seed: int):
    _, n, c, o, kernel, *_rest = case
    groups, spatial, bias = case[8], case[9], case[10]
    x = draw((n, c, *spatial), seed)
    w = draw((o, c // groups, *kernel), seed + 1)
    b = draw((o,), seed + 2) if bias else None
    return x, w, b


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.float32).tobytes()).hexdigest()[:24]


def main() -> None:
    out = []
    for i, case in enumerate(CASES):
        x, w, b = inputs(case, 7 * i)
        conv = F.conv1d if len(case[4]) == 1 else F.conv2d
        xt = torch.from_numpy(x).requires_grad_()
        wt = torch.from_numpy(w).requires_grad_()
        bt = None if b is None else torch.from_numpy(b).requires_grad_()
        y = conv(xt, wt, bt, stride=case[5], dilation=case[6], padding=case[7], groups=case[8])
        g = draw(tuple(y.shape), 7 * i + 3)
        y.backward(torch.from_numpy(g))
        grads = [digest(t.grad.numpy()) for t in (xt, wt, bt) if t is not None]
        rec = {"case": case, "seed": 7 * i, "sha": digest(y.detach().numpy()), "grads": grads}
        out.append(rec)
    path = Path(__file__).parent / "conv32_results.json"
    path.write_text("[\n" + ",\n".join(json.dumps(r) for r in out) + "\n]\n")


if __name__ == "__main__":
    main()
