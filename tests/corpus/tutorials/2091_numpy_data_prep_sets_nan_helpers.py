# Data preparation in NumPy before the tensors: which labels are missing from a split, a
# feature table with gaps summarized with NaN-skipping reductions, axes moved with array
# methods, integer limits for a label dtype.
import numpy as np
import torch

np.random.seed(0)
labels_train = np.array([0, 1, 2, 2, 3, 5, 5])
labels_val = np.array([1, 2, 4, 6])
print("only in train:", np.setdiff1d(labels_train, labels_val))
print("in both:", np.intersect1d(labels_train, labels_val))
common, i_tr, i_va = np.intersect1d(labels_train, labels_val, return_indices=True)
print(common, i_tr, i_va)
print("all classes:", np.union1d(labels_train, labels_val), np.setxor1d([1, 2, 3], [2, 3, 4]))

feats = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan], [7.0, 8.0, 9.0], [np.nan, 2.0, 1.0]])
print("column medians:", np.nanmedian(feats, axis=0))
print("row argmax:", np.nanargmax(feats, axis=1), "argmin:", np.nanargmin(feats))
print("quartiles:", np.nanquantile(feats, [0.25, 0.75], axis=0))
print("quantile of a column:", np.quantile(feats[2], 0.5), np.nanpercentile(feats, 90))
filled = np.where(np.isnan(feats), np.nanmean(feats, axis=0), feats)
print(filled.round(3))

img = np.arange(24, dtype=np.float32).reshape(2, 3, 4)  # H, W, C -> C, H, W
chw = np.rollaxis(img, 2)
print(chw.shape, img.swapaxes(0, 2).shape, np.ndim(img), np.size(img, 1))
print(np.flipud(img[:, :, 0]), np.fliplr(img[:, :, 0])[0])
print(img[:, :, 0].diagonal(), img[:, :, 1].trace(), img.take([0, 5, 7]))
rows, cols = img[:, :, 0].nonzero()
print(rows, cols, np.flatnonzero(img[0, :, 0] > 2))
order = np.argsort(-img[:, :, 0], axis=1)
print(np.take_along_axis(img[:, :, 0], order, axis=1))
print(np.partition(np.array([9, 1, 7, 3, 5]), 2)[:2], np.trim_zeros(np.array([0, 0, 4, 5, 0])))
print(np.extract(img[0, :, 0] > 3, img[0, :, 0]), np.vdot([1, 2, 3], [4, 5, 6]))

info = np.iinfo(np.int16)
print(info.min, info.max, info.bits, np.iinfo(np.uint8).max, np.iinfo("int32").max)
print(np.iinfo(np.int64))
flags = np.array([5, 6, 12], dtype=np.uint8)
print(np.bitwise_and(flags, 4), np.bitwise_or(flags, 1), np.bitwise_xor(flags, 3), round(np.euler_gamma, 6))
y = torch.from_numpy(np.setdiff1d(labels_train, labels_val)).float()
print(y.mean().item(), torch.from_numpy(chw).sum(dim=(1, 2)))
try:
    np.iinfo(np.float32)
except ValueError as e:
    print("ValueError:", e)
