"""`torch.nn`'s recurrent modules: RNN, LSTM, GRU and their cells (RNNCell, LSTMCell, GRUCell).

Each is composed of gradcli's recorded operations (matmul, add, sigmoid, tanh, relu, mul, chunk,
stack, cat...), so backward, the Jacobian commands and the finite-difference checks need
nothing new. The composition follows ATen's CPU implementation (aten/src/ATen/native/RNN.cpp)
step for step, so that the float results and the grad_fn names a program prints are PyTorch's:

* a layer computes the input projection of all its steps at once (`x @ W_ih^T + b_ih` over the
  sequence flattened to (T * B, input)), then per step `h @ W_hh^T + b_hh`, to which it adds the
  step's projection;
* LSTM: gates chunked in the order i, f, g, o; c' = f * c + i * g; h' = o * tanh(c') (then
  `h' @ W_hr^T` with proj_size);
* GRU: gates r, z, n; r and z are sigmoid(hh + ih); n = tanh(ih_n + hh_n * r) (b_hn is inside
  hh_n, as PyTorch's); h' = (h - n) * z + n;
* a layer's outputs are stacked over time (StackBackward0); the reverse direction runs over the
  reversed steps and its outputs are put back in time order before stacking; the two
  directions are concatenated on the last dimension (CatBackward0); h_n stacks every layer's
  (and direction's) last state;
* dropout between layers, in training only, with PyTorch's F.dropout on the layer's output
  (the same draws from the generator);
* batch_first transposes at the start and end (RNN/GRU's output transposed in place:
  TransposeBackward1), unbatched input is unsqueezed and the results squeezed.

PyTorch 2.13 runs a float32 LSTM without proj_size through oneDNN on CPU: its output's grad_fn
is MkldnnRnnLayerBackward0 (shown so here) and its float32 values may differ from these in the
last bits (oneDNN's own matrix products and activations).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported, call_did_not_fit
from ..core import hooks as core_hooks
from ..core.tensor import Tensor, typename
from ..ops import arithmetic as A
from . import composite as CO
from . import functional as F
from . import packed as P
from .declare import declare
from .nn import Module, _constructor, _draw_dtype, reset_dtype, rewrite
from .packed import PackedSequence
from .sampling import R

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _err(message: str, kind: str = "RuntimeError") -> GradcliError:
    return GradcliError(message).mirror(kind)


def _int_size(v: Any, what: str) -> int:
    if not isinstance(v, (int, np.integer)):
        raise _err(f"{what} should be of type int, got: {typename(v)}", "TypeError")
    return int(v)


def _check_total(shapes: list[tuple[int, ...]], count: int, what: str) -> None:
    """The parameters' sizes against the limits before anything is drawn: `shapes` are those
    of one layer and direction, `count` how many there are."""
    limits.LIST_ITEMS.check(count * len(shapes), f"the number of parameters of {what}")
    total = 0
    for s in shapes:
        limits.TENSOR_ELEMENTS.check(math.prod(s), f"a parameter of {what}")
        total += math.prod(s)
    limits.check_parameters(total * count, what)


# --- the arithmetic of one step -------------------------------------------------------------


def _linear(x: Tensor, w: Tensor, b: Tensor | None, fused: bool = True) -> Tensor:
    """x @ w^T + b for a matrix x: PyTorch's addmm, whose bias MKL adds as F.linear's does
    (`addmm_bias`: inside a product of inner size 1, the input projection of a one-feature
    sequence, where a separate sum rounds twice); `fused` False: at::linear's matmul then
    add_ (rounded after the product)."""
    out = A.matmul(x, F.t(w))
    if b is None:
        return out
    return A.addmm_bias(out, x, w, b) if fused else A.named(A.add_t(out, b), "AddmmBackward0")


def _project_all(x: Tensor, w: Tensor, b: Tensor | None) -> tuple[Tensor, ...]:
    """The input projection of every step at once, as at::linear takes the (T, B, in)
    sequence: contiguous (dimensions of size 1 aside, as NumPy's flag), one addmm of the
    (T * B, in) rows; a batch_first input transposed, a matmul and then the bias; then the
    steps unbound."""
    steps, batch = x.shape[0], x.shape[1]
    fused = bool(x.data.flags.c_contiguous)
    flat = F.reshape(x, (steps * batch, x.shape[2]))
    out = F.reshape(_linear(flat, w, b, fused), (steps, batch, w.shape[0]))
    return CO.unbind(out, 0)


def _simple_cell(relu: bool) -> Any:
    def cell(xp: Tensor, h: Tensor, p: dict) -> Tensor:
        pre = A.add_t(_linear(h, p["w_hh"], p.get("b_hh")), xp)
        return F.relu(pre) if relu else A.tanh(pre)

    return cell


def _lstm_cell(xp: Tensor, hc: tuple[Tensor, Tensor], p: dict) -> tuple[Tensor, Tensor]:
    h, c = hc
    gates = A.add_t(_linear(h, p["w_hh"], p.get("b_hh")), xp)
    i, f, g, o = CO.chunk(gates, 4, 1)
    i, f, g, o = A.sigmoid(i), A.sigmoid(f), A.tanh(g), A.sigmoid(o)
    cy = A.add_t(A.mul_t(f, c), A.mul_t(i, g))
    hy = A.mul_t(o, A.tanh(cy))
    if "w_hr" in p:
        hy = A.matmul(hy, F.t(p["w_hr"]))
    return hy, cy


def _gru_cell(xp: Tensor, h: Tensor, p: dict) -> Tensor:
    # ATen's GRUCell adds the reset and update gates into the chunks of the hidden projection
    # and takes their sigmoid in place there: on a view whose rows are hidden_size apart of
    # 3 * hidden_size, a float32 loop per row (`sleef32.split_loop`), so the gates are summed
    # whole and taken as the same strided chunks here.
    hg = _linear(h, p["w_hh"], p.get("b_hh"))
    hr_ir, hz_iz, _ = CO.chunk(A.add_t(hg, xp), 3, 1)
    in_ = CO.chunk(xp, 3, 1)[2]
    hn = CO.chunk(hg, 3, 1)[2]
    r = A.sigmoid(hr_ir)
    z = A.sigmoid(hz_iz)
    n = A.tanh(A.add_t(in_, A.mul_t(hn, r)))
    return A.add_t(A.mul_t(A.sub_t(h, n), z), n)


def _out(hidden: Any) -> Tensor:
    return hidden[0] if isinstance(hidden, tuple) else hidden


# --- the sequence modules -------------------------------------------------------------------


class RNNBase(Module):
    METHODS = Module.METHODS + ("flatten_parameters", "reset_parameters")
    ATTRIBUTES = (
        "training",
        "mode",
        "input_size",
        "hidden_size",
        "num_layers",
        "bias",
        "batch_first",
        "dropout",
        "bidirectional",
        "proj_size",
        "all_weights",
    )
    KIND = "RNN"

    def __init__(
        self,
        mode: str,
        input_size: Any,
        hidden_size: Any,
        num_layers: Any = 1,
        bias: Any = True,
        batch_first: Any = False,
        dropout: Any = 0.0,
        bidirectional: Any = False,
        proj_size: Any = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        # PyTorch's checks, in its order and words.
        if (
            isinstance(dropout, bool)
            or not isinstance(dropout, (int, float, np.integer, np.floating))
            or not 0 <= dropout <= 1
        ):
            raise _err(
                "dropout should be a number in range [0, 1] representing the probability of "
                "an element being zeroed",
                "ValueError",
            )
        if not isinstance(num_layers, (int, np.integer)):
            raise _err(
                f"'{typename(num_layers)}' object cannot be interpreted as an integer", "TypeError"
            )
        if dropout > 0 and num_layers == 1:
            core_hooks.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                f"dropout expects num_layers greater than 1, but got dropout={dropout} and "
                f"num_layers={num_layers}"
            )
        if not isinstance(bias, bool):
            raise _err(f"bias should be of type bool, got: {typename(bias)}", "TypeError")
        if not isinstance(batch_first, bool):
            raise _err(
                f"batch_first should be of type bool, got: {typename(batch_first)}", "TypeError"
            )
        input_size = _int_size(input_size, "input_size")
        if input_size <= 0:
            raise _err("input_size must be greater than zero", "ValueError")
        hidden_size = _int_size(hidden_size, "hidden_size")
        if hidden_size <= 0:
            raise _err("hidden_size must be greater than zero", "ValueError")
        if num_layers <= 0:
            raise _err("num_layers must be greater than zero", "ValueError")
        if not isinstance(proj_size, (int, np.integer)):
            raise _err(f"proj_size should be of type int, got: {typename(proj_size)}", "TypeError")
        if proj_size < 0:
            raise _err(
                "proj_size should be a positive integer or zero to disable projections",
                "ValueError",
            )
        if proj_size >= hidden_size:
            raise _err("proj_size has to be smaller than hidden_size", "ValueError")
        self.mode = mode
        self.input_size, self.hidden_size = input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = int(num_layers), bias, batch_first
        self.dropout = float(dropout)
        self.bidirectional = bool(bidirectional)
        self.proj_size = int(proj_size)
        directions = 2 if self.bidirectional else 1
        gates = _GATES[mode] * hidden_size
        real = self.proj_size or hidden_size
        # The largest layer's parameters, counted for every layer and direction.
        widest = max(input_size, real * directions)
        shapes: list[tuple[int, ...]] = [(gates, widest), (gates, real)]
        if bias:
            shapes += [(gates,), (gates,)]
        if self.proj_size:
            shapes.append((self.proj_size, hidden_size))
        _check_total(shapes, self.num_layers * directions, self.KIND)
        self._register_drawn(self._drawn(_draw_dtype(dtype)), dtype)

    def _drawn(self, draw: Any) -> Any:
        """PyTorch's reset_parameters: every parameter uniform in +-1/sqrt(hidden_size), in
        registration order."""
        drawn = R.init_rnn(
            None,
            self.mode,
            self.input_size,
            self.hidden_size,
            self.num_layers,
            self.bias,
            self.bidirectional,
            self.proj_size,
            draw,
        )
        return [(name, values, 1) for name, values in drawn]

    def reset_parameters(self) -> None:
        _reset_uniform(self)

    @property
    def name(self) -> str:
        return self.KIND

    def flatten_parameters(self) -> None:
        """Packs cuDNN's weights on a GPU; nothing to do on the CPU (as PyTorch there)."""
        return None

    def _names(self, layer: int, direction: int) -> list[str]:
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        names = ["weight_ih", "weight_hh"]
        if self.bias:
            names += ["bias_ih", "bias_hh"]
        if self.proj_size:
            names.append("weight_hr")
        return [n + suffix for n in names]

    @property
    def all_weights(self) -> list[list[Tensor]]:
        d = 2 if self.bidirectional else 1
        return [
            [self._parameters[n] for n in self._names(layer, k)]
            for layer in range(self.num_layers)
            for k in range(d)
        ]

    def _params(self, layer: int, direction: int) -> dict:
        keys = {"weight_ih": "w_ih", "weight_hh": "w_hh", "bias_ih": "b_ih"}
        keys.update({"bias_hh": "b_hh", "weight_hr": "w_hr"})
        out = {}
        for n in self._names(layer, direction):
            p = self._parameters.get(n)
            if p is None:
                raise GradcliError(f"the parameter {n} of {self.KIND} was set to None")
            out[keys[n.split("_l")[0]]] = p
        return out

    # -- forward -----------------------------------------------------------------------------
    def _check_input(self, x: Tensor) -> None:
        w = self._parameters.get("weight_ih_l0")
        if w is not None and x.dtype != w.dtype:
            raise _err(
                f"RNN input dtype ({_dt(x)}) does not match weight dtype ({_dt(w)}). Convert "
                f"input: input.to({_dt(w)}), or convert model: model.to({_dt(x)})",
                "ValueError",
            )
        if x.shape[-1] != self.input_size:
            raise _err(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {x.shape[-1]}"
            )

    def _expected(self, x: Tensor, cell: bool = False) -> tuple[int, int, int]:
        batch = x.shape[0] if self.batch_first else x.shape[1]
        size = self.hidden_size if cell or not self.proj_size else self.proj_size
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    @staticmethod
    def _check_hidden(h: Tensor, expected: tuple, msg: str) -> None:
        if tuple(h.shape) != expected:
            raise _err(msg.format(expected, list(h.shape)))

    def forward(self, input: Any, hx: Any = None) -> Any:  # noqa: A002 - PyTorch's name
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        x = _tensor_or(input)
        if x.ndim not in (2, 3):
            tail = " tensor" if self.mode.startswith("RNN") else ""
            raise _err(
                f"{self.KIND}: Expected input to be 2D or 3D, got {x.ndim}D{tail} instead",
                "ValueError",
            )
        batched = x.ndim == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            x = F.unsqueeze(x, batch_dim)
        lstm = self.mode == "LSTM"
        if hx is not None:
            hx = self._given_state(hx, batched, lstm)
        if hx is None:
            self._check_input(x)
        batch = x.shape[0] if self.batch_first else x.shape[1]
        d = 2 if self.bidirectional else 1
        if hx is None:
            real = self.proj_size or self.hidden_size
            h0 = Tensor(np.zeros((self.num_layers * d, batch, real), x.dtype))
            c0 = Tensor(np.zeros((self.num_layers * d, batch, self.hidden_size), x.dtype))
            hx = (h0, c0) if lstm else h0
        else:
            self._check_input(x)
            if lstm:
                self._check_hidden(hx[0], self._expected(x), "Expected hidden[0] size {}, got {}")
                self._check_hidden(
                    hx[1], self._expected(x, True), "Expected hidden[1] size {}, got {}"
                )
            else:
                self._check_hidden(hx, self._expected(x), "Expected hidden size {}, got {}")
        if x.shape[1 - batch_dim] == 0:
            raise _err("Expected sequence length to be larger than 0 in RNN")
        out, h_n = self._run(x, hx)
        if not batched:
            out = A.named(F.squeeze(out, batch_dim), "SqueezeBackward1")
            if lstm:
                h_n = tuple(A.named(F.squeeze(t, 1), "SqueezeBackward1") for t in h_n)
            else:
                h_n = A.named(F.squeeze(h_n, 1), "SqueezeBackward1")
        return out, h_n

    # -- a packed batch (ATen's PackedLayer / ReversedPackedLayer) ------------------------------
    def _forward_packed(self, packed: PackedSequence, hx: Any) -> tuple[PackedSequence, Any]:
        data, sizes_t, sorted_indices, unsorted_indices = packed
        x = _tensor_or(data)
        sizes = P.batch_sizes_list(packed)
        if not sizes:
            raise _err("index 0 is out of bounds for dimension 0 with size 0", "IndexError")
        if sum(sizes) != (x.shape[0] if x.ndim else 1):
            raise _err(
                f"the PackedSequence's batch_sizes add up to {sum(sizes)}, its data has "
                f"{x.shape[0] if x.ndim else 0} rows",
                "RuntimeError",
            )
        lstm = self.mode == "LSTM"
        d = 2 if self.bidirectional else 1
        batch = sizes[0]
        if hx is None:
            real = self.proj_size or self.hidden_size
            h0 = Tensor(np.zeros((self.num_layers * d, batch, real), x.dtype))
            if lstm:
                c0 = Tensor(np.zeros((self.num_layers * d, batch, self.hidden_size), x.dtype))
                hx = (h0, c0)
            else:
                hx = h0
        elif lstm:
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                self._given_state(hx, True, True)  # PyTorch's refusal of a bad state
            hx = tuple(_permute(_state_tensor(t, "hx"), sorted_indices) for t in hx)
        else:
            hx = _permute(_state_tensor(hx, "hx"), sorted_indices)
        if not lstm:  # PyTorch's LSTM leaves the checks of a packed batch to ATen's arithmetic
            w = self._parameters.get("weight_ih_l0")
            if w is not None and x.dtype != w.dtype:
                raise _err(
                    f"RNN input dtype ({_dt(x)}) does not match weight dtype ({_dt(w)}). Convert "
                    f"input: input.to({_dt(w)}), or convert model: model.to({_dt(x)})",
                    "ValueError",
                )
            if x.ndim != 2:
                raise _err(f"input must have 2 dimensions, got {x.ndim}")
            if x.shape[-1] != self.input_size:
                raise _err(
                    "input.size(-1) must be equal to input_size. Expected "
                    f"{self.input_size}, got {x.shape[-1]}"
                )
            self._check_hidden(
                hx,
                (self.num_layers * d, batch, self.hidden_size),
                "Expected hidden size {}, got {}",
            )
        out, h_n = self._run_packed(x, sizes, hx)
        result = PackedSequence(out, sizes_t, sorted_indices, unsorted_indices)
        if lstm:
            return result, tuple(_permute(t, unsorted_indices) for t in h_n)
        return result, _permute(h_n, unsorted_indices)

    def _run_packed(self, x: Tensor, sizes: list[int], hx: Any) -> tuple[Tensor, Any]:
        lstm = self.mode == "LSTM"
        d = 2 if self.bidirectional else 1
        if lstm:
            states: list[Any] = list(zip(CO.unbind(hx[0], 0), CO.unbind(hx[1], 0)))
        else:
            states = list(CO.unbind(hx, 0))
        cell = {
            "LSTM": _lstm_cell,
            "GRU": _gru_cell,
            "RNN_TANH": _simple_cell(False),
            "RNN_RELU": _simple_cell(True),
        }[self.mode]
        if lstm and self.proj_size and x.dtype == np.float32:
            core_hooks.warn(
                "LSTM with projections is not supported with oneDNN. Using default implementation.",
                once=True,
            )
        finals: list[Any] = []
        layer_input = x
        for layer in range(self.num_layers):
            outs = []
            for k in range(d):
                p = self._params(layer, k)
                w = p["w_ih"]
                if layer_input.dtype != w.dtype:
                    names = {np.float64: "Double", np.float32: "Float", np.float16: "Half"}
                    a = names.get(layer_input.dtype.type, str(layer_input.dtype))
                    b = names.get(w.dtype.type, str(w.dtype))
                    raise _err(f"mat1 and mat2 must have the same dtype, but got {a} and {b}")
                if layer_input.ndim != 2:
                    raise _err(
                        f"mat1 and mat2 shapes cannot be multiplied ("
                        f"{1 if layer_input.ndim < 2 else layer_input.shape[0]}x"
                        f"{layer_input.shape[-1] if layer_input.ndim else 1} and "
                        f"{w.shape[1]}x{w.shape[0]})"
                    )
                projected = _linear(layer_input, p["w_ih"], p.get("b_ih"))
                run = _packed_backward if k else _packed_forward
                out, hidden = run(cell, projected, sizes, states[layer * d + k], p)
                outs.append(out)
                finals.append(hidden)
            layer_input = outs[0] if d == 1 else F.cat(outs, 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                from .sampling import dropout

                layer_input = dropout(layer_input, self.dropout, True)
        if lstm:
            return layer_input, (
                F.stack([f[0] for f in finals], 0),
                F.stack([f[1] for f in finals], 0),
            )
        return layer_input, F.stack(finals, 0)

    def _given_state(self, hx: Any, batched: bool, lstm: bool) -> Any:
        if lstm:
            # PyTorch's LSTM.forward reads hx[0] and hx[1] (a tensor given alone is indexed
            # along its first dimension) and checks their dims in this order
            want = 3 if batched else 2
            kind = "batched 3-D" if batched else "unbatched 2-D"
            h = _state_tensor(_state_item(hx, 0), "hx")
            if h.ndim != want:
                c = _state_tensor(_state_item(hx, 1), "hx")
                raise _err(
                    f"For {kind} input, hx and cx should also be {want}-D but got "
                    f"({h.ndim}-D, {c.ndim}-D) tensors"
                )
            c = _state_tensor(_state_item(hx, 1), "hx")
            if c.ndim != want:
                raise _err(
                    f"For {kind} input, hx and cx should also be {want}-D but got "
                    f"({h.ndim}-D, {c.ndim}-D) tensors"
                )
            if not isinstance(hx, (tuple, list)):
                raise _err(
                    "LSTM expects its state as a tuple (h_0, c_0), got "
                    f"{typename(hx)} (PyTorch's lstm() refuses it)",
                    "TypeError",
                )
            if len(hx) != 2:
                raise _err("lstm expects two hidden states")
            if not batched:
                h, c = F.unsqueeze(h, 1), F.unsqueeze(c, 1)
            return (h, c)
        if not isinstance(hx, Tensor):
            raise _err(f"'{typename(hx)}' object has no attribute 'dim'", "AttributeError")
        want = 3 if batched else 2
        if hx.ndim != want:
            kind = "batched 3-D" if batched else "unbatched 2-D"
            raise _err(f"For {kind} input, hx should also be {want}-D but got {hx.ndim}-D tensor")
        return hx if batched else F.unsqueeze(hx, 1)

    def _run(self, x: Tensor, hx: Any) -> tuple[Tensor, Any]:
        lstm = self.mode == "LSTM"
        if self.batch_first:
            x = F.transpose(x, 0, 1)
        d = 2 if self.bidirectional else 1
        if lstm:
            hs, cs = CO.unbind(hx[0], 0), CO.unbind(hx[1], 0)
            states: list[Any] = list(zip(hs, cs))
        else:
            states = list(CO.unbind(hx, 0))
        cell = {
            "LSTM": _lstm_cell,
            "GRU": _gru_cell,
            "RNN_TANH": _simple_cell(False),
            "RNN_RELU": _simple_cell(True),
        }[self.mode]
        # oneDNN runs PyTorch's float32 LSTM (no projection) on CPU: its layer's node.
        mkldnn = lstm and not self.proj_size and x.dtype == np.float32
        if lstm and self.proj_size and x.dtype == np.float32:
            core_hooks.warn(
                "LSTM with projections is not supported with oneDNN. Using default implementation.",
                once=True,
            )
        finals: list[Any] = []
        layer_input = x
        for layer in range(self.num_layers):
            outs = []
            for k in range(d):
                p = self._params(layer, k)
                steps = _project_all(layer_input, p["w_ih"], p.get("b_ih"))
                if k:
                    steps = steps[::-1]
                hidden = states[layer * d + k]
                collected = []
                for xp in steps:
                    limits.BUDGET.tick()
                    hidden = cell(xp, hidden, p)
                    collected.append(_out(hidden))
                if k:
                    collected.reverse()
                stacked = F.stack(collected, 0)
                if mkldnn:
                    stacked = A.named(stacked, "MkldnnRnnLayerBackward0")
                outs.append(stacked)
                finals.append(hidden)
            layer_input = outs[0] if d == 1 else F.cat(outs, outs[0].ndim - 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                from .sampling import dropout

                layer_input = dropout(layer_input, self.dropout, True)
        out = layer_input
        if self.batch_first:
            label = "TransposeBackward0" if lstm else "TransposeBackward1"
            out = A.named(F.transpose(out, 0, 1), label)
        if lstm:
            h_n = (F.stack([f[0] for f in finals], 0), F.stack([f[1] for f in finals], 0))
            return out, h_n
        return out, F.stack(finals, 0)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


def _permute(h: Tensor, permutation: Any) -> Tensor:
    """PyTorch's permute_hidden: the batch (dim 1) of a state reordered."""
    if permutation is None:
        return h
    from .rearrange import index_select

    return index_select(h, 1, permutation)


def _rows(h: Any, start: int, stop: int) -> Any:
    """ATen's hidden_slice: rows start:stop of a state (both of an LSTM's pair)."""
    if isinstance(h, tuple):
        return tuple(_rows(t, start, stop) for t in h)
    from .rearrange import narrow

    return narrow(h, 0, start, stop - start)


def _concat(hs: list[Any]) -> Any:
    """ATen's hidden_concat: states stacked along the batch (an LSTM's pairs member-wise)."""
    if isinstance(hs[0], tuple):
        return tuple(F.cat([h[i] for h in hs], 0) for i in range(len(hs[0])))
    return F.cat(hs, 0)


def _packed_forward(
    cell: Any, projected: Tensor, sizes: list[int], hidden: Any, p: dict
) -> tuple[Tensor, Any]:
    """One direction over a packed batch, first step first: the states of the sequences that
    have ended are set aside as the batch shrinks, and joined (longest first) at the end."""
    from .rearrange import narrow

    outputs, done = [], []
    offset, last = 0, sizes[0]
    for size in sizes:
        limits.BUDGET.tick()
        step = narrow(projected, 0, offset, size)
        offset += size
        if size < last:
            done.append(_rows(hidden, size, last))
            hidden = _rows(hidden, 0, size)
        last = size
        hidden = cell(step, hidden, p)
        outputs.append(_out(hidden))
    done.append(hidden)
    done.reverse()
    return F.cat(outputs, 0), _concat(done)


def _packed_backward(
    cell: Any, projected: Tensor, sizes: list[int], initial: Any, p: dict
) -> tuple[Tensor, Any]:
    """The reverse direction: from the last step back, the batch growing by the initial states
    of the sequences that start (at their own ends) as it goes."""
    from .rearrange import narrow

    outputs = []
    offset, last = projected.shape[0], sizes[-1]
    hidden = _rows(initial, 0, last)
    for size in reversed(sizes):
        limits.BUDGET.tick()
        if size > last:
            hidden = _concat([hidden, _rows(initial, last, size)])
        step = narrow(projected, 0, offset - size, size)
        offset -= size
        last = size
        hidden = cell(step, hidden, p)
        outputs.append(_out(hidden))
    outputs.reverse()
    return F.cat(outputs, 0), hidden


def _dt(t: Tensor) -> str:
    from ..core.dtypes import torch_name

    return torch_name(t.dtype)


def _tensor_or(v: Any) -> Tensor:
    if not isinstance(v, Tensor):
        raise _err(f"'{typename(v)}' object has no attribute 'dim'", "AttributeError")
    return v


def _state_item(hx: Any, i: int) -> Any:
    """`hx[i]` of an LSTM's state as Python and PyTorch index it (a tuple, a list, or a tensor
    along its first dimension), their IndexError / TypeError when it has no such item."""
    if isinstance(hx, (tuple, list)):
        if i >= len(hx):
            raise _err(f"{typename(hx)} index out of range", "IndexError")
        return hx[i]
    if isinstance(hx, Tensor):
        if hx.ndim == 0:
            raise _err(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number",
                "IndexError",
            )
        if i >= hx.shape[0]:
            raise _err(
                f"index {i} is out of bounds for dimension 0 with size {hx.shape[0]}",
                "IndexError",
            )
        from .indexing import getitem

        return getitem(hx, i)
    raise _err(f"'{typename(hx)}' object is not subscriptable", "TypeError")


def _state_tensor(v: Any, what: str) -> Tensor:
    if not isinstance(v, Tensor):
        raise _err(f"'{typename(v)}' object has no attribute 'dim'", "AttributeError")
    return v


class RNN(RNNBase):
    ATTRIBUTES = RNNBase.ATTRIBUTES + ("nonlinearity",)
    KIND = "RNN"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise _err(
                "proj_size argument is only supported for LSTM, not RNN or GRU", "ValueError"
            )
        if len(args) > 3:  # RNN(input, hidden, layers, nonlinearity, bias, ...)
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise _err(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.",
                "ValueError",
            )
        try:
            super().__init__(mode, *args, **kwargs)
        except TypeError as e:
            if not call_did_not_fit(e, here=True):
                raise
            # the call itself did not fit: the program's arguments (RNN(2, 3, inputs=1))
            raise _err(
                str(e).replace("RNNBase.__init__()", "RNN.__init__()"), "TypeError"
            ) from None


class LSTM(RNNBase):
    KIND = "LSTM"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    KIND = "GRU"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise _err(
                "proj_size argument is only supported for LSTM, not RNN or GRU", "ValueError"
            )
        super().__init__("GRU", *args, **kwargs)


# --- the cells ------------------------------------------------------------------------------


def _reset_uniform(m: Module) -> None:
    """The recurrent modules' reset_parameters, as PyTorch's: each of the parameters the module
    has now, in order, uniform in +-1/sqrt(hidden_size). (The constructor's `random.init_rnn`
    / `init_rnn_cell` are these draws for the parameters it registers.)"""
    stdv = 1.0 / math.sqrt(m.hidden_size) if m.hidden_size > 0 else 0
    for p in m.parameters():
        rewrite(p, R.uniform_(p.shape, -stdv, stdv, dtype=reset_dtype([p])))


class RNNCellBase(Module):
    METHODS = Module.METHODS + ("reset_parameters",)
    ATTRIBUTES = ("training", "input_size", "hidden_size", "bias")
    KIND = "RNNCell"
    MODE = "RNN_TANH"

    def __init__(
        self,
        input_size: Any,
        hidden_size: Any,
        bias: Any = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        for v in (input_size, hidden_size):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise _err(
                    "empty(): argument 'size' (position 1) must be tuple of ints, but found "
                    f"element of type {typename(v)} at pos 0",
                    "TypeError",
                )
            if v < 0:
                raise _err(
                    f"Trying to create tensor with negative dimension {v}: "
                    f"[{_GATES[self.MODE] * int(hidden_size)}, {int(input_size)}]"
                )
        self.input_size, self.hidden_size, self.bias = int(input_size), int(hidden_size), bias
        gates = _GATES[self.MODE] * self.hidden_size
        shapes: list[tuple[int, ...]] = [(gates, self.input_size), (gates, self.hidden_size)]
        if bias:
            shapes += [(gates,), (gates,)]
        _check_total(shapes, 1, self.KIND)
        self._register_drawn(self._drawn(_draw_dtype(dtype)), dtype)

    def _drawn(self, draw: Any) -> Any:
        """PyTorch's reset_parameters: weight_ih, weight_hh, bias_ih, bias_hh uniform in
        +-1/sqrt(hidden_size)."""
        drawn = R.init_rnn_cell(
            None, self.MODE, self.input_size, self.hidden_size, bool(self.bias), draw
        )
        return [(name, values, 1) for name, values in drawn]

    def reset_parameters(self) -> None:
        _reset_uniform(self)

    @property
    def name(self) -> str:
        return self.KIND

    def _p(self) -> dict:
        p = {"w_ih": self._parameters["weight_ih"], "w_hh": self._parameters["weight_hh"]}
        if self.bias:
            p["b_ih"], p["b_hh"] = self._parameters["bias_ih"], self._parameters["bias_hh"]
        if any(v is None for v in p.values()):
            raise GradcliError(f"a parameter of {self.KIND} was set to None")
        return p

    def _input(self, input: Any) -> tuple[Tensor, bool]:  # noqa: A002
        x = _tensor_or(input)
        if x.ndim not in (1, 2):
            raise _err(
                f"{self.KIND}: Expected input to be 1D or 2D, got {x.ndim}D instead", "ValueError"
            )
        return x, x.ndim == 2

    def _check(self, x: Tensor, hs: list[Tensor]) -> None:
        """ATen's checks of a cell's input and states (after unsqueezing unbatched ones)."""
        if x.shape[1] != self.input_size:
            raise _err(
                f"input has inconsistent input_size: got {x.shape[1]} expected {self.input_size}"
            )
        for i, h in enumerate(hs):
            if h.shape[0] != x.shape[0]:
                raise _err(
                    f"Input batch size {x.shape[0]} doesn't match hidden{i} batch size {h.shape[0]}"
                )
            if h.ndim != 2:
                raise _err(f"hidden{i} must be a matrix (batch, hidden_size), got {h.ndim}-D")
            if h.shape[1] != self.hidden_size:
                raise _err(
                    f"hidden{i} has inconsistent hidden_size: got {h.shape[1]}, expected "
                    f"{self.hidden_size}"
                )
        w = self._parameters.get("weight_ih")
        if w is not None and x.dtype != w.dtype:
            names = {np.float64: "Double", np.float32: "Float", np.float16: "Half"}
            a = names.get(x.dtype.type, str(x.dtype))
            b = names.get(w.dtype.type, str(w.dtype))
            raise _err(f"mat1 and mat2 must have the same dtype, but got {a} and {b}")

    def _state(self, hx: Any, batched: bool, x: Tensor, what: str) -> Tensor:
        if hx is None:
            return Tensor(np.zeros((x.shape[0], self.hidden_size), x.dtype))
        h = _state_tensor(hx, what)
        if h.ndim not in (1, 2):
            raise _err(
                f"{self.KIND}: Expected {what} to be 1D or 2D, got {h.ndim}D instead", "ValueError"
            )
        return h if batched else F.unsqueeze(h, 0)

    def _step(self, x: Tensor, h: Tensor, p: dict) -> Tensor:
        return A.add_t(_linear(h, p["w_hh"], p.get("b_hh")), _linear(x, p["w_ih"], p.get("b_ih")))

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        return s


class RNNCell(RNNCellBase):
    ATTRIBUTES = RNNCellBase.ATTRIBUTES + ("nonlinearity",)
    KIND = "RNNCell"

    def __init__(
        self,
        input_size: Any,
        hidden_size: Any,
        bias: Any = True,
        nonlinearity: Any = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, device, dtype)

    def forward(self, input: Any, hx: Any = None) -> Tensor:  # noqa: A002
        x, batched = self._input(input)
        if hx is not None:
            _state_tensor(hx, "hidden")
            if hx.ndim not in (1, 2):
                raise _err(
                    f"RNNCell: Expected hidden to be 1D or 2D, got {hx.ndim}D instead", "ValueError"
                )
        if not batched:
            x = F.unsqueeze(x, 0)
        h = self._state(hx, batched, x, "hidden")
        if self.nonlinearity not in ("tanh", "relu"):
            raise _err(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check(x, [h])
        pre = self._step(x, h, self._p())
        out = F.relu(pre) if self.nonlinearity == "relu" else A.tanh(pre)
        return out if batched else A.named(F.squeeze(out, 0), "SqueezeBackward1")

    def extra_repr(self) -> str:
        s = super().extra_repr()
        if self.nonlinearity != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class LSTMCell(RNNCellBase):
    KIND = "LSTMCell"
    MODE = "LSTM"

    def forward(self, input: Any, hx: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        x, batched = self._input(input)
        if hx is not None:
            if not isinstance(hx, (tuple, list)):
                raise _err(
                    "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                    f"{typename(hx) if not isinstance(hx, Tensor) else 'Tensor'}",
                    "TypeError",
                )
            for i, v in enumerate(hx):
                v = _state_tensor(v, "hx")
                if v.ndim not in (1, 2):
                    raise _err(
                        f"LSTMCell: Expected hx[{i}] to be 1D or 2D, got {v.ndim}D instead",
                        "ValueError",
                    )
            if len(hx) != 2:
                raise _err(f"lstm_cell expects two hidden states, got {len(hx)}")
        if not batched:
            x = F.unsqueeze(x, 0)
        if hx is None:
            h = c = self._state(None, batched, x, "hx")
        else:
            h, c = (v if batched else F.unsqueeze(v, 0) for v in hx)
        self._check(x, [h, c])
        p = self._p()
        hy, cy = _lstm_cell(_linear(x, p["w_ih"], p.get("b_ih")), (h, c), p)
        if not batched:
            return (
                A.named(F.squeeze(hy, 0), "SqueezeBackward1"),
                A.named(F.squeeze(cy, 0), "SqueezeBackward1"),
            )
        return hy, cy


class GRUCell(RNNCellBase):
    KIND = "GRUCell"
    MODE = "GRU"

    def forward(self, input: Any, hx: Any = None) -> Tensor:  # noqa: A002
        x, batched = self._input(input)
        if hx is not None:
            _state_tensor(hx, "hidden")
            if hx.ndim not in (1, 2):
                raise _err(
                    f"GRUCell: Expected hidden to be 1D or 2D, got {hx.ndim}D instead", "ValueError"
                )
        if not batched:
            x = F.unsqueeze(x, 0)
        h = self._state(hx, batched, x, "hidden")
        self._check(x, [h])
        p = self._p()
        out = _gru_cell(_linear(x, p["w_ih"], p.get("b_ih")), h, p)
        return out if batched else A.named(F.squeeze(out, 0), "SqueezeBackward1")


def _base_class(cls: type, instead: str) -> Callable[..., Module]:
    """nn.RNNBase / nn.RNNCellBase as a program uses them: the base of the recurrent modules
    for isinstance; made directly (PyTorch's own building blocks), refused in plain words."""

    def make(*args: Any, **kwargs: Any) -> Module:
        raise NotSupported(
            f"making an nn.{cls.__name__} directly is not supported by gradcli",
            hint=f"use {instead}; nn.{cls.__name__} is there for isinstance",
        )

    make.__name__ = cls.__name__
    make.__wrapped__ = cls  # type: ignore[attr-defined]
    make.class_functions = {}  # type: ignore[attr-defined]
    return make


_ON = "composition of matmul permute add reshape index"
NAMES = declare(
    ("RNNBase", "nn", _base_class(RNNBase, "nn.RNN, nn.LSTM or nn.GRU"), ""),
    ("RNNCellBase", "nn", _base_class(RNNCellBase, "nn.RNNCell, nn.LSTMCell or nn.GRUCell"), ""),
    ("RNN", "nn", _constructor(RNN), f"{_ON} tanh relu stack cat"),
    ("LSTM", "nn", _constructor(LSTM), f"{_ON} sigmoid tanh mul stack cat"),
    ("GRU", "nn", _constructor(GRU), f"{_ON} sigmoid tanh mul sub stack cat"),
    ("RNNCell", "nn", _constructor(RNNCell), "composition of matmul permute add tanh relu"),
    (
        "LSTMCell",
        "nn",
        _constructor(LSTMCell),
        "composition of matmul permute add index sigmoid tanh mul",
    ),
    (
        "GRUCell",
        "nn",
        _constructor(GRUCell),
        "composition of matmul permute add index sigmoid tanh mul sub",
    ),
)
