"""`nn.AdaptiveLogSoftmaxWithLoss` (Grave et al.'s efficient softmax approximation): a head
Linear over the shortlist of frequent classes plus one entry per cluster of rarer ones, each
cluster a two-Linear projection; built, drawn and computed as PyTorch's module is (its Python
forward, step for step, through the surface's own functions). Also PyTorch's other softmax loss
over a Linear: `F.linear_cross_entropy` and `nn.LinearCrossEntropyLoss` (reference path)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from ..core.tensor import Tensor
from ..ops import arithmetic as A
from . import names as N
from .indexing import getitem, setitem
from .linalg import ReturnTuple
from .nn import Linear, Module, ModuleList, Sequential
from .printing import format_value


class ASMOutput(ReturnTuple):
    """The module's `_ASMoutput(output, loss)` namedtuple."""

    def __new__(cls, output: Tensor, loss: Tensor) -> ASMOutput:
        return super().__new__(cls, "_ASMoutput", ("output", "loss"), (output, loss))

    def program_attribute(self, attr: str) -> Any:
        if attr in self.fields:
            return self[self.fields.index(attr)]
        raise GradcliError(f"'_ASMoutput' object has no attribute '{attr}'").mirror(
            "AttributeError"
        )

    def __repr__(self) -> str:
        return f"_ASMoutput(output={format_value(self[0])}, loss={format_value(self[1])})"

    __str__ = __repr__


class AdaptiveLogSoftmaxWithLoss(Module):
    METHODS = Module.METHODS + ("log_prob", "predict", "reset_parameters")
    ATTRIBUTES = (
        "training",
        "in_features",
        "n_classes",
        "cutoffs",
        "div_value",
        "head_bias",
        "shortlist_size",
        "n_clusters",
        "head_size",
    )

    def __init__(
        self,
        in_features: int,
        n_classes: int,
        cutoffs: Any,
        div_value: float = 4.0,
        head_bias: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise GradcliError("cutoffs should be a sequence of length larger than 0").mirror(
                "ValueError"
            )
        if (
            cutoffs != sorted(cutoffs)
            or min(cutoffs) <= 0
            or max(cutoffs) > n_classes - 1
            or len(set(cutoffs)) != len(cutoffs)
            or any(int(c) != c for c in cutoffs)
        ):
            raise GradcliError(
                "cutoffs should be a sequence of unique, positive integers sorted in an "
                "increasing order, where each value is between 1 and n_classes-1"
            ).mirror("ValueError")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.add_module("head", Linear(in_features, self.head_size, bias=head_bias, dtype=dtype))
        tail = ModuleList()
        for i in range(self.n_clusters):
            limits.BUDGET.tick()  # (a cluster a step: the clock and the run's budget)
            try:
                hsz = int(in_features // (div_value ** (i + 1)))
            except OverflowError as e:  # Python's, as in PyTorch's constructor
                raise GradcliError(str(e)).mirror("OverflowError") from None
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            tail.append(
                Sequential(
                    Linear(in_features, hsz, bias=False, dtype=dtype),
                    Linear(hsz, osz, bias=False, dtype=dtype),
                )
            )
        self.add_module("tail", tail)

    def reset_parameters(self) -> None:
        self._modules["head"].reset_parameters()
        for projection in self._modules["tail"]._modules.values():
            for layer in projection._modules.values():
                layer.reset_parameters()

    def forward(self, input_: Any, target_: Any) -> ASMOutput:
        t, m, f = N.FUNCTIONS, N.METHODS, N.NN_FUNCTIONAL
        x, target = A.tensor_arg(input_, "input_"), A.tensor_arg(target_, "target_")
        size = f"torch.Size({list(x.shape)})"
        if target.ndim == 1:
            if x.shape[0] != target.shape[0]:
                raise GradcliError(
                    "Input and target should have the same size in the batch dimension."
                )
            if x.ndim != 2:
                raise GradcliError(
                    f"1D target tensor expects 2D input tensors, but found inputs with size {size}"
                )
        elif target.ndim == 0:
            if x.ndim != 1:
                raise GradcliError(
                    f"0D target tensor expects 1D input tensors, but found inputs with size {size}"
                )
        else:
            raise GradcliError("0D or 1D target tensor expected, multi-target not supported")
        batched = target.ndim > 0
        if not batched:
            x, target = m["unsqueeze"](x, 0), m["unsqueeze"](target, 0)
        used = 0
        batch = target.shape[0]
        output = m["new_zeros"](x, batch)
        gather_inds = m["new_zeros"](target, batch)
        bounds = [0, *self.cutoffs]
        tail = list(self._modules["tail"]._modules.values())
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            mask = t["logical_and"](t["ge"](target, low), t["lt"](target, high))
            rows = m["squeeze"](m["nonzero"](mask))
            if rows.data.size == 0:
                continue
            if i == 0:
                gather_inds = t["index_copy"](gather_inds, 0, rows, getitem(target, mask))
            else:
                relative = t["sub"](getitem(target, mask), low)
                cluster_output = tail[i - 1](t["index_select"](x, 0, rows))
                gather_inds = t["index_fill"](gather_inds, 0, rows, self.shortlist_size + i - 1)
                cluster_logprob = f["log_softmax"](cluster_output, dim=1)
                local = t["gather"](cluster_logprob, 1, m["unsqueeze"](relative, 1))
                output = t["index_copy"](output, 0, rows, m["squeeze"](local, 1))
            used += int(rows.data.size)
        if used != batch:
            lo, hi = m["item"](m["min"](target)), m["item"](m["max"](target))
            raise GradcliError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{lo}, {hi}] were found. "
            )
        head_logprob = f["log_softmax"](self._modules["head"](x), dim=1)
        picked = m["squeeze"](t["gather"](head_logprob, 1, m["unsqueeze"](gather_inds, 1)))
        output = t["add"](output, picked)
        loss = t["mean"](t["neg"](output))
        if not batched:
            output = m["squeeze"](output, 0)
        return ASMOutput(output, loss)

    def _full_log_prob(self, x: Tensor, head_output: Tensor) -> Tensor:
        """The log-probabilities of all n_classes, written into an empty tensor as PyTorch's
        does (CopySlices): the head's shortlist, then each cluster's log_softmax plus the
        head's log-probability of the cluster."""
        m, f = N.METHODS, N.NN_FUNCTIONAL
        out = m["new_empty"](x, (head_output.shape[0], self.n_classes))
        head_logprob = f["log_softmax"](head_output, dim=1)
        short = self.shortlist_size
        setitem(
            out,
            (slice(None), slice(None, short)),
            getitem(head_logprob, (slice(None), slice(None, short))),
        )
        tail = list(self._modules["tail"]._modules.values())
        for i, projection in enumerate(tail):
            start, stop = self.cutoffs[i], self.cutoffs[i + 1]
            cluster_logprob = f["log_softmax"](projection(x), dim=1)
            col = getitem(head_logprob, (slice(None), short + i))
            setitem(
                out, (slice(None), slice(start, stop)), cluster_logprob + m["unsqueeze"](col, 1)
            )
        return out

    def log_prob(self, input: Any) -> Tensor:  # noqa: A002
        x = A.tensor_arg(input, "input")
        return self._full_log_prob(x, self._modules["head"](x))

    def predict(self, input: Any) -> Tensor:  # noqa: A002
        t = N.FUNCTIONS
        x = A.tensor_arg(input, "input")
        head_output = self._modules["head"](x)
        output = t["argmax"](head_output, dim=1)
        outside = t["ge"](output, self.shortlist_size)
        if not bool(outside.data.any()):
            return output
        if bool(outside.data.all()):
            return t["argmax"](self._full_log_prob(x, head_output), dim=1)
        sub = self._full_log_prob(getitem(x, outside), getitem(head_output, outside))
        picked = t["argmax"](sub, dim=1)
        data = output.data.copy()
        data[outside.data] = picked.data
        return Tensor(data)


# --- F.linear_cross_entropy and nn.LinearCrossEntropyLoss ------------------------------------


def _shape_text(shape: Any) -> str:
    """A shape as PyTorch's f-strings show a Python tuple: `(4,)`, `(2, 3)`."""
    return repr(tuple(int(n) for n in shape))


def linear_cross_entropy(
    input: Any,  # noqa: A002
    linear_weight: Any,
    target: Any,
    *,
    linear_bias: Any = None,
    weight: Any = None,
    reduction: str = "mean",
    ignore_index: int | None = None,
    label_smoothing: float = 0.0,
    options: Any = None,
) -> Tensor:
    """`F.linear_cross_entropy` on PyTorch's reference path (`options=None`): the logits of
    `linear(input, linear_weight, linear_bias)` reshaped to (*N, C, *out_features), then
    `cross_entropy` (so its values, gradients and grad_fn names are cross_entropy's)."""
    m, f = N.METHODS, N.NN_FUNCTIONAL
    if options is not None:
        raise NotSupported(
            "F.linear_cross_entropy(..., options=LinearCrossEntropyOptions(...)) (PyTorch's "
            "chunked path) is not supported by gradcli",
            hint="leave options=None: the reference path computes the same loss",
        )
    x = A.tensor_arg(input, "input")
    w = A.tensor_arg(linear_weight, "linear_weight")
    target = A.tensor_arg(target, "target")
    if x.ndim < 1 or x.ndim > 2:
        raise GradcliError(f"expected input with dimensionality 1 or 2, got {x.ndim}").mirror(
            "RuntimeError"
        )
    if w.ndim < 2:
        raise GradcliError(
            f"expected linear_weight with dimensionality at least 2, got {w.ndim}"
        ).mirror("RuntimeError")
    batches, in_features = tuple(x.shape[:-1]), x.shape[-1]
    if in_features != w.shape[-1]:
        raise GradcliError(
            "expected equal input and linear_weight last dimensions (in_features), "
            f"got {in_features} and {w.shape[-1]}, respectively"
        ).mirror("RuntimeError")
    classes, out_features = w.shape[0], tuple(w.shape[1:-1])
    if linear_bias is not None:
        linear_bias = A.tensor_arg(linear_bias, "linear_bias")
        if tuple(linear_bias.shape) != (classes, *out_features):
            raise GradcliError(
                f"expected linear_bias shape {_shape_text((classes, *out_features))}, got "
                f"{_shape_text(linear_bias.shape)}"
            ).mirror("RuntimeError")
    if out_features and not batches:
        raise GradcliError(
            f"K-dimensional loss defined by linear_weight shape {_shape_text(w.shape)} requires "
            f"batched input, (N, {in_features}), got unbatched input with shape "
            f"{_shape_text(x.shape)}"
        ).mirror("RuntimeError")
    logits_shape = (*batches, classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise GradcliError(
            "ignore_index cannot be specified when target contains probabilities"
        ).mirror("RuntimeError")
    ignore_index = -100 if ignore_index is None else ignore_index
    if out_features:
        rows = classes * int(np.prod(out_features))
        w = m["reshape"](w, (rows, in_features))
        if linear_bias is not None:
            linear_bias = m["reshape"](linear_bias, rows)
    logits = m["reshape"](f["linear"](x, w, linear_bias), logits_shape)
    return f["cross_entropy"](
        logits,
        target,
        weight=weight,
        reduction=reduction,
        ignore_index=ignore_index,
        label_smoothing=label_smoothing,
    )


class LinearCrossEntropyLoss(Module):
    """PyTorch's module: a bias-optional `Linear(in_features, C * prod(out_features))` whose
    flat weight is reshaped to (C, *out_features, in_features) at each call, then
    `F.linear_cross_entropy` with the module's settings."""

    ATTRIBUTES = (
        "training",
        "num_classes",
        "out_features",
        "reduction",
        "ignore_index",
        "label_smoothing",
        "options",
    )

    def __init__(
        self,
        in_features: int,
        num_classes: int,
        *,
        out_features: Any = (),
        bias: bool = False,
        device: Any = None,
        dtype: Any = None,
        reduction: str = "mean",
        weight: Any = None,
        ignore_index: int | None = None,
        label_smoothing: float = 0.0,
        options: Any = None,
    ) -> None:
        if weight is not None:
            w = A.tensor_arg(weight, "weight")
            if tuple(w.shape) != (num_classes,):
                raise GradcliError(
                    f"expected weight shape to be {_shape_text((num_classes,))}, got "
                    f"{_shape_text(w.shape)}"
                ).mirror("RuntimeError")
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise GradcliError(
                f"expected label_smoothing to be in range [0, 1], got {label_smoothing}"
            ).mirror("RuntimeError")
        if options is not None:
            raise NotSupported(
                "nn.LinearCrossEntropyLoss(..., options=LinearCrossEntropyOptions(...)) "
                "(PyTorch's chunked path) is not supported by gradcli",
                hint="leave options=None: the reference path computes the same loss",
            )
        super().__init__()
        self.reduction = reduction
        self.register_buffer("weight", weight)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        self.options = None
        rows = num_classes
        for n in out_features:
            limits.BUDGET.tick()
            rows *= n
        self.add_module("linear", Linear(in_features, rows, bias=bias, dtype=dtype))

    def forward(self, input: Any, target: Any) -> Tensor:  # noqa: A002
        m = N.METHODS
        lin = self._modules["linear"]
        w = m["reshape"](
            lin._parameters["weight"], (self.num_classes, *self.out_features, lin.in_features)
        )
        b = lin._parameters["bias"]
        if b is not None:
            b = m["reshape"](b, (self.num_classes, *self.out_features))
        return linear_cross_entropy(
            input,
            w,
            target,
            linear_bias=b,
            weight=self._buffers["weight"],
            reduction=self.reduction,
            ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing,
        )

    def extra_repr(self) -> str:
        lin = self._modules["linear"]
        return (
            f"in_features={lin.in_features}, num_classes={self.num_classes}, "
            f"out_features={self.out_features!r}, bias={lin._parameters['bias'] is not None}, "
            f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
            f"label_smoothing={self.label_smoothing}, options=None"
        )
