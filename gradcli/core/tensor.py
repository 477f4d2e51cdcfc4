"""`Tensor`: a NumPy array with autograd bookkeeping, grad mode, and converting values to
tensors.

A tensor that an operation recorded has a `node` (see `core.op`); `backward` is installed by
`core.autograd` (it needs the records of `core.primitives`, which need this class), the
operators by `ops.arithmetic`, the PyTorch methods and the repr by `surface`.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from . import dtypes, hooks


class MadeIn(int):
    """The `_inf` of a tensor made while a torch.func transform runs: false (not an inference
    tensor), with the transform's level, which PyTorch prints such a tensor wrapped at
    (`GradTrackingTensor(lvl=1, value=...)`)."""

    def __new__(cls, level: int) -> MadeIn:
        made = super().__new__(cls, 0)
        made.level = level
        return made


class LevelHook:
    """A tensor hook registered on a tensor of a torch.func transform's level: it runs in the
    backward passes that level makes (`_GradMode.inference` is that level's `MadeIn`)."""

    __slots__ = ("fn", "level")

    def __init__(self, fn: Any, level: int):
        self.fn = fn
        self.level = level

    def active(self) -> bool:
        made = _GradMode.inference
        return type(made) is MadeIn and made.level == self.level

    def __call__(self, g: Any) -> Any:
        return self.fn(g)


class _GradMode:
    enabled = True
    # NumPy's errstate(all="ignore") is held by the caller (a backward pass, a program's run):
    # `apply` need not set it for every operation
    in_pass = False
    # How many function transforms (torch.func's grad, vjp, jvp, jacrev, jacfwd, vmap) are
    # running: inside one, PyTorch refuses requires_grad_(), backward() and custom Functions.
    transforms = 0
    # Inside `torch.inference_mode()`: the tensors made are inference tensors (`Tensor._inf`).
    # Inside a torch.func transform (outside inference mode) a falsy `MadeIn` of its level:
    # the tensors made there carry it (`Tensor._inf`), as PyTorch wraps them at the level.
    inference: Any = False
    # `torch.autograd.set_detect_anomaly(True, check_nan)`: a backward pass checks the gradients
    # each node computes for nan (when `anomaly_nan`).
    anomaly = False
    anomaly_nan = True
    # `torch.autograd.enforce_grad_layout_policy(enable)`: whether a leaf's first gradient is
    # laid out as the leaf (PyTorch's layout contract) even where the pass made it otherwise.
    grad_layout = True
    # Inside `torch.autograd.forward_ad.dual_level()`: `apply` carries tangents (`core.dual`).
    dual = False
    # While `core.forward.transposed_jvp` records an op's VJP to transpose it (forward mode):
    # every output's gradient is then defined, as in PyTorch's forward formulas (an op whose
    # backward skips the terms of outputs that got no gradient reads this).
    transposing = False
    # Inside `vmap`, for every batch element but the last: gradcli runs the function once per
    # element where PyTorch runs it once, so a backward through a graph made outside the
    # function keeps it for the next element (PyTorch's one pass frees it once).
    vmap_keep = False
    # Inside `vmap`: one weak set per level, of the tensors that depend on that level's mapped
    # inputs (PyTorch's BatchedTensors; `apply` adds its result where an input is in one), so
    # that what PyTorch refuses on a batched tensor (`.item()`, `if`, `.numpy()`, an in-place
    # write into a tensor that is not batched, out_dims=None) is refused here too, though
    # gradcli runs the function once per element. Empty outside vmap: `apply` checks only that.
    vmapped: list = []
    # Inside `vmap`, for every batch element but the first: PyTorch runs the function once,
    # so `print` prints only during the first element's run.
    vmap_quiet = False
    # The program code gradcli runs several times where PyTorch runs it once (`Repeated`):
    # a function vmap maps over, the hooks in jacrev's backward passes.
    repeats: list = []
    # Inside torch.func.jacrev's backward passes over two rows or more: PyTorch's one pass,
    # vmapped over the rows, meets each saved forward tensor (unbatched) expanded to the rows'
    # batch, not contiguous, so a kernel chosen by contiguity takes its other path (gelu's
    # backward: ATen's loop, not oneDNN's).
    rows_expanded = False


# sys.getrefcount of an object only `Repeated.seen` holds: its entry's tuple, the loop's
# name for the entry's object... measured once (`_only_seen`), as it depends on the Python.
def _only_seen() -> int:
    seen = {0: (object(), 0)}
    return max(sys.getrefcount(v[0]) for v in seen.values())


_ONLY_SEEN = _only_seen()


class Repeated:
    """Program code gradcli runs several times where PyTorch runs it once: a function vmap
    maps over (once per batch element, PyTorch once on the batch) or the hooks of jacrev's
    backward (once per row of the Jacobian, PyTorch once in its vmapped pass). `seen` keeps
    each object a run changes (id -> (object, run)): a later run changing it again would make
    the change once per run where PyTorch makes it once, so the language refuses that
    (`lang.pyobjects.repeated_change`), unless the change leaves the value as it was (the
    same constant assigned again). With `quiet`, `print` prints in the first run only."""

    __slots__ = ("index", "seen", "where", "unit", "hint", "quiet", "_was_quiet", "_kept")

    def __init__(self, where: str, unit: str, hint: str, quiet: bool = False):
        self.index = 0
        self.seen: dict[int, tuple[Any, int]] = {}
        self.where = where  # "the function vmap maps over"
        self.unit = unit  # "batch element": what gradcli runs the code once per
        self.hint = hint  # what to write instead
        self.quiet = quiet
        self._was_quiet = False
        self._kept = 0

    def __enter__(self) -> Repeated:
        _GradMode.repeats.append(self)
        self._was_quiet = _GradMode.vmap_quiet
        return self

    def __exit__(self, *exc: Any) -> None:
        _GradMode.repeats.remove(self)
        if self.quiet:
            _GradMode.vmap_quiet = self._was_quiet
        self.seen.clear()

    def grown(self) -> None:
        """`seen` holds its objects (an id must not be reused by another while it is a key):
        past twice its size at the last look, the objects nothing else holds are let go (the
        program can never change them again), so that a run making a new list at every step
        keeps no more than it holds itself."""
        seen = self.seen
        if len(seen) > self._kept * 2 + 1000:
            for k in [k for k, v in seen.items() if sys.getrefcount(v[0]) <= _ONLY_SEEN]:
                del seen[k]
            self._kept = len(seen)

    def run(self, index: int) -> None:
        """The code's run number `index` begins."""
        self.index = index
        if self.quiet:
            _GradMode.vmap_quiet = self._was_quiet or index > 0


def repeated_change(owner: Any, thing: str, same: bool = False) -> None:
    """`owner` (an object, a list, a tensor's storage) is about to change inside code gradcli
    runs several times where PyTorch runs it once (`Repeated`): refused when an earlier run
    changed it too (the change would be made once per run), unless `same` (the change leaves
    it as it was). `thing` names the change in the message: "the attribute .n of a Counter"."""
    for runs in _GradMode.repeats:
        first = runs.seen.get(id(owner))
        if first is None:
            runs.seen[id(owner)] = (owner, runs.index)
            runs.grown()
        elif first[1] < runs.index and not same:
            raise NotSupported(
                f"changing {thing} inside {runs.where} is not supported when the run for an "
                f"earlier {runs.unit} changed it too: PyTorch runs the code once, gradcli once "
                f"per {runs.unit}, so the change would be made once per {runs.unit}",
                hint=runs.hint,
            )


# The memory of tensors laid over a storage longer than their elements (torch.empty_strided
# with gaps): id of the NumPy array that owns it -> (a weak reference to it, its length in
# elements), gone with the array (`gapped`, `storage_elements`).
GAPPED: dict[int, tuple[Any, int]] = {}


def gapped(buffer: np.ndarray, n: int) -> None:
    """Record that `buffer` is the storage (of `n` elements) of a tensor with gaps."""
    key = id(buffer)
    GAPPED[key] = (weakref.ref(buffer, lambda _: GAPPED.pop(key, None)), n)


def storage_elements(root: Tensor) -> int:
    """The length in elements of the storage of `root` (a tensor that is no view)."""
    if GAPPED:
        buffer = storage_root(root)
        found = GAPPED.get(id(buffer))
        if found is not None and found[0]() is buffer:
            return found[1]
    return root.data.size


def storage_root(t: Tensor) -> Any:
    """The NumPy array that owns `t`'s memory (shared by all its views)."""
    a = t.data
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


VMAP_ITEM = (
    "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
    ".item() on a Tensor, please try to rewrite what you're doing with other operations. If "
    "error is occurring somewhere inside PyTorch internals, please file a bug report."
)
VMAP_CONTROL_FLOW = (
    "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
    "We don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues ."
)
VMAP_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"

# The torch.func transforms running now, innermost last ("grad", "vjp", "jvp", "jacrev",
# "jacfwd", "vmap"...): kept by surface.func, read where an op's rule depends on them.
TRANSFORMS: list[str] = []


def batched(t: Any) -> bool:
    """Whether `t` depends on the mapped inputs of a running vmap (a BatchedTensor in PyTorch)."""
    return any(t in level for level in _GradMode.vmapped)


def carry_batched(inputs: Any, out: Any) -> None:
    """`out` was computed from `inputs`: it is batched at every level one of them is."""
    for level in _GradMode.vmapped:
        for t in inputs:
            if t in level:
                level.add(out)
                break


# How PyTorch 2.13 words a batched value written by an in-place method into a tensor that is
# not batched (measured for each method with a tensor argument): `shape`, as add_ (its batching
# rule broadcasts first); `fallback`, an op without a batching rule (`aten::NAME`, the vmap
# level named, after a performance warning); `named`, the method's own name; anything else
# "inplace arithmetic".
_VMAP_WRITE_WORDS = {
    **dict.fromkeys(
        "add_ atan2_ arctan2_ copysign_ bitwise_and_ bitwise_or_ bitwise_xor_ "
        "bitwise_left_shift_ bitwise_right_shift_".split(),
        "shape",
    ),
    **dict.fromkeys("fill_ index_fill_ index_add_ scatter_add_ index_put_".split(), "named"),
    **dict.fromkeys(
        "floor_divide_ remainder_ fmod_ pow_ hypot_ clamp_ addcmul_ addcdiv_ lerp_ "
        "masked_scatter_ index_copy_ scatter_ put_ eq_ ne_ lt_ le_ gt_ ge_ greater_ "
        "greater_equal_ less_ less_equal_ not_equal_ xlogy_ ldexp_ nextafter_ heaviside_ "
        "float_power_ subtract_ addmm_ addmv_ addr_ baddbmm_ addbmm_ igamma_ igammac_".split(),
        "fallback",
    ),
}
_VMAP_WRITE_ALIASES = {"clip_": "clamp_"}


def vmap_write_error(name: str, x: Any, value: Any, level: int, size: int) -> GradcliError:
    """PyTorch's error for `x.NAME(value, ...)` inside vmap, `value` batched (at vmap level
    `level`, of batch `size`) and x not."""
    kind = _VMAP_WRITE_WORDS.get(name, "arith")
    if kind == "shape":
        try:
            full = [size, *np.broadcast_shapes(x.shape, value.shape)]
        except ValueError:
            full = [size, *value.shape]
        return GradcliError(
            f"output with shape {list(x.shape)} doesn't match the broadcast shape {full}"
        )
    op, where = "inplace arithmetic", "in a vmap"
    if kind == "named":
        op = name
    elif kind == "fallback":
        op, where = f"aten::{_VMAP_WRITE_ALIASES.get(name, name)}", f"at level {level}"
    return GradcliError(
        f"vmap: {op}(self, *extra_args) is not possible because there exists a Tensor `other` "
        "in extra_args that has more elements than `self`. This happened due to `other` being "
        f"vmapped over but `self` not being vmapped over {where}. Please try to use "
        f"out-of-place operators instead of {op}. If said operator is being called inside the "
        "PyTorch framework, please file a bug report instead."
    )


def check_batched_method(name: str, args: Any, kwargs: dict) -> None:
    """Inside vmap: refuse `x.NAME_(...)` (an in-place method: `name` ends with `_`) when an
    argument is batched and x is not, in PyTorch's words (gradcli would write each element's
    value into x in turn: the last one would stay)."""
    x = args[0]
    if not isinstance(x, Tensor):
        return
    levels = _GradMode.vmapped
    for i in range(len(levels) - 1, -1, -1):  # (the innermost first, as PyTorch)
        level = levels[i]
        if x in level:
            continue
        for v in (*args[1:], *kwargs.values()):
            if isinstance(v, Tensor) and v in level:
                raise vmap_write_error(name, x, v, i + 1, level.size)


def check_batched_write(x: Any, value: Any, shape: bool = False) -> None:
    """PyTorch's refusal of a batched value written in place into a tensor that is not (a
    level is a WeakSet that knows its batch size, `size`)."""
    for i, level in enumerate(_GradMode.vmapped):
        if value in level and x not in level:
            # add_'s words (its batching rule broadcasts first), or the generic ones
            raise vmap_write_error("add_" if shape else "", x, value, i + 1, level.size)


class no_grad:  # noqa: N801 - named like torch.no_grad
    """Context manager: operations inside record no graph."""

    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = False

    def __exit__(self, *exc: object) -> None:
        _GradMode.enabled = self.prev


class enable_grad(no_grad):  # noqa: N801
    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = True


class in_pass:  # noqa: N801
    """NumPy's errstate(all="ignore") for a whole backward pass or run, marked so that `apply`
    skips its own per-op errstate (a microsecond per operation)."""

    def __enter__(self) -> None:
        self.prev = _GradMode.in_pass
        self.state = np.errstate(all="ignore")
        self.state.__enter__()
        _GradMode.in_pass = True
        # The element limit `apply` checks, read once (a run's budget has read it already).
        limit = limits.TENSOR_ELEMENTS
        self.read = limit._cached is None
        if self.read:
            limit._cached = limit.read()

    def __exit__(self, *exc: object) -> None:
        _GradMode.in_pass = self.prev
        if self.read:
            limits.TENSOR_ELEMENTS._cached = None
        self.state.__exit__(*exc)


def grad_enabled() -> bool:
    return _GradMode.enabled


class recording:  # noqa: N801 - a context manager, like no_grad
    """While a program records a graph: the cyclic collector's older generations wait for the
    run's end. A recorded graph has no reference cycles (reference counting frees it), but
    the collector walks it anyway: every collection of the first generation moves the graph
    recorded since into the second, and each collection of the second (every tenth of the
    first) and of the third (the whole heap) walks all of it again, at a cost per object that
    grows with the graph (it no longer fits in the caches). A 100,000-step chain took 1.3-1.6x
    the time per step of a 1,000-step one. During a run, the first generation is collected
    every 10,000 new objects (cycles a program makes and drops are still collected: most of
    them die young), the older ones are not; after the run the thresholds are restored and
    the next collections catch up. Should the program's memory reach its limit first, a full
    collection runs before the limit is reported (`limits.RunBudget.check_memory`). And
    NumPy's errstate is set once for the run (`in_pass`), not for every operation."""

    THRESHOLD = 10_000
    # The older generations' thresholds during a run: collections of the generation below
    # between two of theirs (a billion: not during a run).
    HOLD = 1 << 30

    def __enter__(self) -> None:
        import gc

        self.prev = gc.get_threshold()
        if self.prev[0]:  # 0: the collector is switched off; leave it so
            gc.set_threshold(max(self.prev[0], self.THRESHOLD), self.HOLD, self.HOLD)
        self.quiet = in_pass()
        self.quiet.__enter__()

    def __exit__(self, *exc: object) -> None:
        import gc

        self.quiet.__exit__(*exc)
        gc.set_threshold(*self.prev)


class Settings:
    """Process-wide defaults a program runs with (set by `--dtype` / `--seed`).

    default_dtype  the float dtype tensors are made in when the program names none (PyTorch's
                   `get_default_dtype()`): float32 in `gradcli run`, as PyTorch; float64 in the
                   analysis commands and the library, for precise answers
    draw_dtype     the dtype random draws are made in when the program names none: PyTorch's
                   default (float32) unless the program called `set_default_dtype`, so that an
                   analysis run in float64 draws PyTorch's numbers and then widens them
    """

    default_dtype: np.dtype = np.dtype(np.float64)
    draw_dtype: np.dtype = np.dtype(np.float32)
    seed: int = 0
    # torch.__future__'s switches for a module's dtype conversion (`model.double()`): new
    # Parameter objects (overwrite), or the old ones' contents exchanged (swap)
    overwrite_module_params: bool = False
    swap_module_params: bool = False
    # torch.use_deterministic_algorithms(True) and torch.utils.deterministic's
    # fill_uninitialized_memory: both on, torch.empty and its kin fill their memory (NaN for
    # floats, the largest value for integers) as PyTorch then does
    deterministic: bool = False
    fill_uninitialized_memory: bool = True
    # torch.distributions.Distribution.set_default_validate_args: whether a distribution made
    # without validate_args checks its parameters and values (PyTorch's default: on)
    validate_distributions: bool = True


def deterministic_fill(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray | None:
    """The values PyTorch writes into new memory when deterministic algorithms and
    torch.utils.deterministic.fill_uninitialized_memory are both on (ATen's
    fill_empty_deterministic_: NaN for floats, a complex NaN's real part with a zero imaginary
    part, the largest value for integers, True for bool), or None when they are not."""
    if not (Settings.deterministic and Settings.fill_uninitialized_memory):
        return None
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.ones(shape, dtype=dtype)
    if dtype.kind in "iu":
        return np.full(shape, np.iinfo(dtype).max, dtype=dtype)
    if dtype == dtypes.BF16:
        out = np.full(shape, np.nan, dtype=np.float32).astype(dtype)
    else:
        out = np.full(shape, np.nan, dtype=dtype)
    FILLED[id(out)] = out
    return out


# The arrays `deterministic_fill` made (and resize_ grew into), while they live: their NaN is
# PyTorch's fill, not a result to warn of (`lang.runtime`'s check of non-finite values).
FILLED: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


# Whether a complex tensor was made in this process (the interpreter checks the calls of a
# program that has complex tensors for functions that do not take them: `lang.calls`).
COMPLEX = [False]
# Whether a tensor of uint16, uint32 or uint64 was ever made (`surface.uintgate` checks calls
# from then on).
WIDE_UINT = [False]


_CHANGED_HINT = "take the view again after the change (v = w[0]), or clone it under no_grad"


class HookList(list):
    """A non-leaf tensor's hooks (`Node.hooks`), numbered when its first hook was registered:
    PyTorch runs the hooks of a node's several outputs in that order (`autograd._sibling_hooks`)."""

    __slots__ = ("order",)
    COUNT = [0]

    def __init__(self) -> None:
        super().__init__()
        HookList.COUNT[0] += 1
        self.order = HookList.COUNT[0]


class Tensor:
    """A NumPy array with autograd bookkeeping, mirroring `torch.Tensor`'s semantics."""

    # _vc    the version counter, shared by every tensor that shares this one's storage (a
    #        one-item list; None until the storage is shared or changed in place: version 0)
    # _base  the tensor this one is a view of (None when it owns its storage)
    # _view  for a view made by basic indexing, (the tensor indexed, the index): a change in
    #        place of the view is a change of that tensor (PyTorch's CopySlices)
    # _hooks a leaf's gradient hooks (`register_hook`), None when it has none
    # _inf   an inference tensor: made inside `torch.inference_mode()` (or a view of one)
    # _attrs the program's own attributes (`x.tag = "input"`), a dict; None until one is
    #        given
    __slots__ = (
        "data",
        "requires_grad",
        "grad",
        "node",
        "retains_grad",
        "name",
        "_vc",
        "_base",
        "_view",
        "_vver",
        "_hooks",
        "_inf",
        "_attrs",
        "__weakref__",
    )
    __array_priority__ = 1000  # so `ndarray * Tensor` defers to Tensor.__rmul__

    def __init__(self, data: Any, requires_grad: bool = False, dtype: Any = None) -> None:
        arr = np.asarray(data, dtype=dtype)
        if arr.dtype == _BF16:
            arr = dtypes.settle_bf16(arr)  # values made bfloat16 (rounded once)
        elif FLUSH_DENORMAL[0] and arr.dtype.kind in "fc":
            arr = flush_denormal(arr)
        if _LENT and not arr.flags.writeable:
            arr = _owned_array(arr)  # a tensor on a lent leaf's data shares the leaf's copy
        if requires_grad and arr.dtype.kind not in "fc":
            raise GradcliError(
                "Only Tensors of floating point and complex dtype can require gradients",
                found=f"a tensor of dtype {dtypes.torch_name(arr.dtype)}",
                hint="integer data makes an int64 tensor: write 1.0 (or pass dtype=torch.float32)",
            )
        self.data = arr
        if arr.dtype.kind == "c":
            COMPLEX[0] = True
        elif arr.dtype.kind == "u" and arr.dtype.itemsize > 1:
            WIDE_UINT[0] = True
        if arr.nbytes >= hooks.REPORT_BYTES:
            hooks.observer.allocated(arr.nbytes)
        self.requires_grad = bool(requires_grad)
        self.grad: Tensor | None = None
        self.node: Any = None  # the `core.op.Node` that computed it, None for a leaf
        self.retains_grad = False
        self.name: str | None = None
        self._vc: list[int] | None = None
        self._base: Tensor | None = None
        self._view: tuple | None = None  # (the tensor indexed, the index): a basic-index view
        self._hooks: list | None = None
        self._inf = _GradMode.inference
        self._attrs: dict | None = None
        if DEFAULT_META[0]:
            META.add(self)  # (made inside `with torch.device('meta'):`)

    # --- plain properties -------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def is_leaf(self) -> bool:
        if NOGRAD_VIEWS and nograd_view_changed(self):
            raise GradcliError(nograd_changed_message(self), hint=_CHANGED_HINT).mirror(
                "RuntimeError"
            )
        return self.node is None

    @property
    def grad_fn(self) -> Any:
        if NOGRAD_VIEWS and nograd_view_changed(self):
            raise GradcliError(nograd_changed_message(self), hint=_CHANGED_HINT).mirror(
                "RuntimeError"
            )
        return self.node

    def numel(self) -> int:
        return int(self.data.size)

    def item(self) -> float:
        if _GradMode.vmapped and batched(self):
            raise GradcliError(VMAP_ITEM)
        if self.data.size != 1:
            raise GradcliError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar"
            )
        if META and self in META:
            raise GradcliError("Tensor.item() cannot be called on meta tensors").mirror(
                "RuntimeError"
            )
        return self.data.reshape(()).item()

    @property
    def _version(self) -> int:
        """How many times the storage was changed in place (PyTorch's `t._version`)."""
        if self._inf:
            raise GradcliError("Inference tensors do not track version counter.")
        return self._vc[0] if self._vc is not None else 0

    def is_inference(self) -> bool:
        return bool(self._inf)

    def detach(self) -> Tensor:
        """A tensor sharing this one's storage (and version counter), outside the graph
        (inside vmap, batched where this one is: PyTorch's detach of a BatchedTensor)."""
        out = share(self)
        if _GradMode.vmapped:
            carry_batched((self,), out)
        return out

    def detach_(self) -> Tensor:
        """Make this tensor a leaf that does not require grad (its consumers keep their edges);
        a view (of any tensor, requiring grad or not) is PyTorch's error."""
        if self._base is not None:
            raise GradcliError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is "
                "set as True, gradients are views of DDP buckets, and hence detach_() cannot "
                "be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.",
                hint="use y = x.detach() (a new tensor sharing the storage)",
            )
        if self.node is not None:
            detached_in_place(self)
        self.node = None
        self.requires_grad = False
        self.retains_grad = False
        return self

    def register_hook(self, hook: Any) -> Any:
        """Call `fn(grad)` when this tensor's gradient is computed; a value it returns replaces
        the gradient. Returns a handle whose `remove()` unregisters it."""
        if not self.requires_grad:
            raise GradcliError(
                "cannot register a hook on a tensor that doesn't require gradient",
                hint="create the tensor with requires_grad=True",
            )
        hook = hooks.as_callable(hook)
        if not callable(hook):
            raise GradcliError(
                f"register_hook expects a function, not {typename(hook)}",
                hint="pass a function of the gradient: x.register_hook(lambda g: g * 2)",
            )
        if type(self._inf) is MadeIn:
            # a tensor of a torch.func transform's level: PyTorch registers the hook on the
            # level's wrapper, so only that level's backward passes run it (not an enclosing
            # transform's pass through the same graph: grad(grad(f)))
            hook = LevelHook(hook, self._inf.level)
        if self.node is not None:
            hooks_list = self.node.hooks
            if hooks_list is None:
                hooks_list = self.node.hooks = HookList()
        else:
            hooks_list = self._hooks
            if hooks_list is None:
                hooks_list = self._hooks = []
            LEAF_HOOKS[0] = True
        hooks_list.append(hook)
        return HookHandle(hooks_list, hook)

    def register_post_accumulate_grad_hook(self, hook: Any) -> HookHandle:
        """`fn(t)` after a backward pass accumulated into this leaf's `.grad` (kept with the
        leaf's gradient hooks, which it does not take part in)."""
        if self.node is not None:
            raise GradcliError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        if not self.requires_grad:
            raise GradcliError(
                "cannot register a hook on a tensor that doesn't require gradient",
                hint="create the tensor with requires_grad=True",
            )
        hook = hooks.as_callable(hook)
        if not callable(hook):
            raise GradcliError(f"'{typename(hook)}' object is not callable").mirror("TypeError")
        hooks_list = self._hooks
        if hooks_list is None:
            hooks_list = self._hooks = []
        LEAF_HOOKS[0] = True
        entry = PostAccumulateHook(hook)
        hooks_list.append(entry)
        return HookHandle(hooks_list, entry)

    def numpy(self) -> np.ndarray:
        if _GradMode.vmapped and batched(self):
            raise GradcliError(VMAP_STORAGE)
        return self.data

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise GradcliError("can't retain_grad on Tensor that has requires_grad=False")
        if self.node is not None:
            self.retains_grad = True

    def requires_grad_(self, requires_grad: bool = True, method: bool = True) -> Tensor:
        """`t.requires_grad_(flag)` (`method`), or `t.requires_grad = flag`. On a non-leaf,
        PyTorch refuses False (saying what to do instead) and, as an assignment, True too."""
        if type(requires_grad) is not bool:
            if method:
                raise GradcliError(
                    "requires_grad_(): argument 'requires_grad' (position 1) must be bool, "
                    f"not {pytype_name(requires_grad)}"
                ).mirror("TypeError")
            raise GradcliError("requires_grad must be a bool")
        if self.node is not None and not requires_grad:
            raise GradcliError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if self.node is not None and not method:
            raise GradcliError(
                "you can only change requires_grad flags of leaf variables.",
                hint="a computed tensor already requires grad",
            )
        if requires_grad and self._inf and not _GradMode.inference:
            raise GradcliError(
                "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                "allowed.",
                hint="use a clone: y = y.clone().requires_grad_()",
            )
        if requires_grad and self.data.dtype.kind not in "fc":
            # PyTorch's method and its attribute setter word this differently
            kinds = "floating point" if method else "floating point and complex"
            raise GradcliError(
                f"only Tensors of {kinds} dtype can require gradients",
                found=f"a tensor of dtype {dtypes.torch_name(self.data.dtype)}",
                hint="convert it first: x = x.float()",
            )
        if self.node is None and requires_grad != self.requires_grad:
            if requires_grad:
                spans = LATE_LEAVES.setdefault(self, [])
                spans.append((_OFF_SINCE.pop(self, 0), SEQ[0]))
            else:
                _OFF_SINCE[self] = SEQ[0]
        self.requires_grad = bool(requires_grad)
        return self

    def __repr__(self) -> str:  # PyTorch's exact repr is installed by `surface.printing`
        return f"Tensor({self.data!r}, requires_grad={self.requires_grad})"

    def __format__(self, spec: str) -> str:
        # PyTorch's Tensor.__format__: a 0-dim tensor formats as its number (f"{p}" of a
        # tensor p in PyTorch's own Python code: module reprs, messages); any other as its text
        if self.ndim == 0:
            return format(self.data.reshape(()).item(), spec)
        return object.__format__(self, spec)

    def __len__(self) -> int:
        if self.ndim == 0:
            raise GradcliError("len() of a 0-d tensor").mirror("TypeError")
        return self.shape[0]

    def __bool__(self) -> bool:
        if _GradMode.vmapped and batched(self):
            raise GradcliError(VMAP_CONTROL_FLOW)
        if self.data.size != 1:
            raise GradcliError(
                "Boolean value of Tensor with more than one value is ambiguous",
                found=f"a tensor of {self.data.size} elements",
                hint="reduce it first: (x > 0).all() or .any()",
            )
        if META and self in META:
            raise GradcliError("Tensor.item() cannot be called on meta tensors").mirror(
                "RuntimeError"
            )
        return bool(self.data.reshape(()))


_new = object.__new__


_BF16 = dtypes.BF16
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


# torch.set_flush_denormal(True): PyTorch's x86 build sets the CPU's flush-to-zero and
# denormals-are-zero modes, so no float32/float64 tensor value is subnormal; gradcli zeroes
# them where every value is made (here and in the constructor), keeping the sign.
FLUSH_DENORMAL = [False]


def flush_denormal(arr: np.ndarray) -> np.ndarray:
    """arr with its subnormal float32/float64 (or complex parts') values made signed zeros."""
    if arr.dtype.kind == "c":
        parts = arr.real.dtype
        tiny = np.finfo(parts).tiny
        small = (np.abs(arr.real) < tiny) | (np.abs(arr.imag) < tiny)
        if not small.any():
            return arr
        re = np.where(np.abs(arr.real) < tiny, np.copysign(parts.type(0), arr.real), arr.real)
        im = np.where(np.abs(arr.imag) < tiny, np.copysign(parts.type(0), arr.imag), arr.imag)
        out = np.empty(arr.shape, arr.dtype)
        out.real, out.imag = re, im
        return out
    if arr.dtype != _F32 and arr.dtype != _F64:
        return arr
    small = (np.abs(arr) < np.finfo(arr.dtype).tiny) & (arr != 0)
    if not small.any():
        return arr
    return np.where(small, np.copysign(arr.dtype.type(0), arr), arr).astype(arr.dtype)


def wrap(arr: np.ndarray) -> Tensor:
    """`Tensor(arr)` for an array that is already one (an operation's result): the same new
    tensor, made without the constructor's conversions and checks."""
    if FLUSH_DENORMAL[0] and arr.dtype.kind in "fc":
        arr = flush_denormal(arr)
    dt = arr.dtype
    if dt is not _F32 and dt is not _F64:
        if dt == _BF16:
            arr = dtypes.settle_bf16(arr)  # every bfloat16 tensor holds bfloat16 values only
        elif dt.kind == "c":
            COMPLEX[0] = True  # (an op's first complex result: torch.polar, view_as_complex)
        elif dt.kind == "u" and dt.itemsize > 1:
            WIDE_UINT[0] = True
    t = _new(Tensor)
    t.data = arr
    t.requires_grad = False
    t.grad = None
    t.node = None
    t.retains_grad = False
    t.name = None
    t._vc = None
    t._base = None
    t._view = None
    t._hooks = None
    t._inf = _GradMode.inference
    if arr.nbytes >= hooks.REPORT_BYTES:
        hooks.observer.allocated(arr.nbytes)
    return t


NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information."
)


def read_grad(t: Tensor) -> Tensor | None:
    """`t.grad` as a program reads it: with PyTorch's warning when `t` is not a leaf, keeps
    no gradient, and has none."""
    g = t.grad
    if g is None and t.node is not None and not t.retains_grad:
        hooks.warn(NON_LEAF_GRAD, "call retain_grad() on it before backward() to keep its .grad")
    return g


class PostAccumulateHook:
    """A leaf's `register_post_accumulate_grad_hook(fn)`, among its gradient hooks."""

    __slots__ = ("fn",)

    def __init__(self, fn: Any) -> None:
        self.fn = fn


# The number of the next handle (PyTorch's `RemovableHandle.next_id`: one count for every
# handle of the process; gradcli's from 0 in each run).
HOOK_IDS = [0]


class HookHandle:
    """What `register_hook` returns: `remove()` unregisters the hook (again: nothing); `id`
    its number, the key of a module's hook tables (`m._forward_hooks`)."""

    __slots__ = ("_hooks", "_fn", "id")

    def __init__(self, hooks_list: list, fn: Any) -> None:
        self._hooks = hooks_list
        self._fn = fn
        self.id = HOOK_IDS[0]
        HOOK_IDS[0] += 1

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"

    def remove(self) -> None:
        for i, f in enumerate(self._hooks):
            if f is self._fn:
                del self._hooks[i]
                return


def counter(t: Tensor) -> list[int]:
    """`t`'s version counter, made when first needed (shared storage, a change in place)."""
    vc = t._vc
    if vc is None:
        vc = t._vc = [0]
    return vc


# --- lent data: a leaf on the caller's array, copied on its first write ---------------------
# `Program.run(overrides={"x": a})` gives the leaf `x` a read-only view of `a` instead of a copy
# (a copy of a large input costs a pass over memory and page faults). The view is *lent*: the
# first time anything could write into the leaf's storage or share it (a change in place, a
# view, `.detach()`, `.data`, `.numpy()`, an optimiser's step, a gradient accumulated into
# it...), `own` gives the leaf a copy of its own first, so that the caller's array is never
# written and the program sees PyTorch's semantics. A path that misses `own` cannot write into
# the caller's array: NumPy refuses to write into a read-only view (an internal error, loud).
# The registry, by id of the lent view (which it keeps alive, so that the id is not reused):
# (a weak reference to the leaf, the view).
_LENT: dict[int, tuple[Any, np.ndarray]] = {}


def lend(t: Tensor, a: np.ndarray) -> None:
    """Make `a` (C-contiguous, of t's shape and dtype) the data of the leaf `t`, read-only,
    until `own(t)`."""
    import weakref

    view = a.view()
    view.flags.writeable = False
    key = id(view)

    def forget(ref: Any, key: int = key) -> None:
        entry = _LENT.get(key)
        if entry is not None and entry[0] is ref:
            del _LENT[key]

    _LENT[key] = (weakref.ref(t, forget), view)
    t.data = view


def lent(t: Tensor) -> bool:
    """Whether t's data is still a lent (read-only) view of a caller's array."""
    if not _LENT:
        return False
    entry = _LENT.get(id(t.data))
    return entry is not None and entry[1] is t.data


def own(t: Tensor) -> None:
    """Give `t` a copy of its lent data (nothing when its data is its own)."""
    if _LENT:
        entry = _LENT.get(id(t.data))
        if entry is not None and entry[1] is t.data:
            del _LENT[id(t.data)]
            t.data = t.data.copy()
            if t.data.nbytes >= hooks.REPORT_BYTES:  # the copy counts against the memory limit
                hooks.observer.allocated(t.data.nbytes)


def _owned_array(arr: np.ndarray) -> np.ndarray:
    """`arr`, or, when it is a leaf's lent view (a tensor being made on another's data), the
    leaf's own copy, made now."""
    entry = _LENT.get(id(arr))
    if entry is None or entry[1] is not arr:
        return arr
    t = entry[0]()
    if t is None or t.data is not arr:
        return arr.copy()
    own(t)
    return t.data


def view_inf(base: Any) -> Any:
    """A view's `_inf`: its base's (a view of an inference tensor is one), or, of a normal
    tensor inside a torch.func transform, the transform's level (PyTorch wraps it there)."""
    if base or not _GradMode.transforms or type(_GradMode.inference) is not MadeIn:
        return base
    return _GradMode.inference


# id(x.detach() or x.data taken inside a torch.func transform) -> (a weak reference to it, x):
# PyTorch's alias of x there, which the function may change in place only where it may change x.
SHARED_FROM: dict[int, tuple[weakref.ref, Tensor]] = {}


def _forget_shared(key: int) -> Callable[[Any], None]:
    def gone(_ref: Any) -> None:
        entry = SHARED_FROM.get(key)
        if entry is not None and entry[0]() is None:
            del SHARED_FROM[key]

    return gone


def share(t: Tensor, version: bool = True) -> Tensor:
    """A new tensor outside the graph on `t`'s storage: `x.detach()`, sharing its version
    counter too, or (version=False) `x.data`, which PyTorch gives a counter of its own (so that
    `x.data.zero_()` goes unnoticed by autograd, as it does in PyTorch)."""
    own(t)
    out = Tensor(t.data)
    out._inf = view_inf(t._inf)  # a view of an inference tensor is one
    if META and t in META:
        META.add(out)
    elif DEFAULT_META[0]:
        META.discard(out)
    if version:
        out._vc = counter(t)
    if _GradMode.transforms:
        SHARED_FROM[id(out)] = (weakref.ref(out, _forget_shared(id(out))), t)
    return out


INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)


def check_mutable(t: Tensor) -> None:
    """PyTorch refuses to change an inference tensor in place outside inference mode."""
    if t._inf and not _GradMode.inference:
        raise GradcliError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.",
            hint="change a clone: y = y.clone()",
        )


# The arrays torch.empty and its kin made, while they live and nothing was written to them
# (`surface.constructors` adds them, `surface.printing` reads them): gradcli has no
# uninitialised memory (they are zeros), and PyTorch prints whatever its allocator held there.
# A change in place of one (`bumped`) takes it out, whichever tensor the program printed it
# through afterwards (`Variable(torch.Tensor(2, 3).zero_())`, `t.zero_().data`).
UNWRITTEN: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def bumped(t: Tensor) -> None:
    """Count one change in place of `t`'s storage (seen by every tensor sharing it). An
    inference tensor has no counter: outside inference mode PyTorch refuses the change here,
    after its kernel wrote the storage (the tensor keeps the new values)."""
    if UNWRITTEN:
        root = storage_root(t)
        if UNWRITTEN.get(id(root)) is root:
            del UNWRITTEN[id(root)]
    check_mutable(t)
    if _GradMode.repeats and not batched(t):
        # (a batched tensor is the element's own: a new one in every run)
        repeated_change(storage_root(t), "a tensor in place")
    vc = t._vc
    if vc is None:
        t._vc = [1]
    else:
        vc[0] += 1
    MUTATIONS[0] += 1
    if CONJ_VIEWS:
        sync_conj(t)
    if not _GradMode.enabled and (
        t.requires_grad or (t._base is not None and t._base.requires_grad)
    ):
        RESTATED_VIEWS[0] += 1


# --- conjugate views: `x.conj()` of a complex tensor --------------------------------------
# PyTorch's is a lazy view: x's storage read conjugated (`is_conj()`; its imaginary part
# `.imag` a negative view, `is_neg()`). gradcli's holds the conjugated values in an array of
# its own, linked to x: a change in place of either (through any view of it) is written into
# the other at once (`sync_conj`, from `bumped`), so the program sees one storage, as in
# PyTorch. By id of the conjugate's array: (a weak reference to it, the tensor it conjugates,
# whether it is a conjugate, is_conj(): a conjugate of a conjugate is x's values again).
CONJ_VIEWS: dict[int, tuple[weakref.ref, Tensor, bool]] = {}
# id(the storage of a tensor conjugated) -> the keys of CONJ_VIEWS of its conjugates
CONJ_OF: dict[int, set[int]] = {}


def conj_view(out: Tensor, src: Tensor) -> Tensor:
    """Make `out` (holding conj(src)'s values in an array of its own) src's conjugate view."""
    if out.data.base is not None:
        out.data = np.array(out.data, order="K")
    own(src)
    key = id(out.data)
    of = id(storage_root(src))

    def forget(ref: Any, key: int = key, of: int = of) -> None:
        entry = CONJ_VIEWS.get(key)
        if entry is not None and entry[0] is ref:
            del CONJ_VIEWS[key]
            keys = CONJ_OF.get(of)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del CONJ_OF[of]

    CONJ_VIEWS[key] = (weakref.ref(out.data, forget), src, not is_conj(src))
    CONJ_OF.setdefault(of, set()).add(key)
    out._vc = counter(src)
    out._base = src._base if src._base is not None else src
    out._vver = out._vc[0]
    out._inf = src._inf
    return out


def _conj_entry(t: Tensor) -> tuple[np.ndarray, tuple] | None:
    """The storage of the conjugate view `t` is (or is a view of), with its entry; None."""
    root = storage_root(t)
    entry = CONJ_VIEWS.get(id(root))
    if entry is None or entry[0]() is not root:
        return None
    return root, entry


def is_conj(t: Tensor) -> bool:
    """PyTorch's `t.is_conj()`: a complex tensor on a conjugate view's storage."""
    if not CONJ_VIEWS or t.data.dtype.kind != "c":
        return False
    found = _conj_entry(t)
    return found is not None and found[1][2]


def is_neg(t: Tensor) -> bool:
    """PyTorch's `t.is_neg()`: the imaginary parts of a conjugate view (`x.conj().imag`)."""
    if not CONJ_VIEWS or t.data.dtype.kind != "f":
        return False
    found = _conj_entry(t)
    if found is None or not found[1][2] or t.data.size == 0:
        return False
    root = found[0]
    offset = t.data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    return offset % root.itemsize != 0  # (an imaginary part: half a complex number in)


def check_unresolved(t: Tensor) -> None:
    """PyTorch's refusal of `t.numpy()` on a conjugate or negative view."""
    if CONJ_VIEWS and (is_conj(t) or is_neg(t)):
        bit = ("conjugate", "resolve_conj") if is_conj(t) else ("negative", "resolve_neg")
        raise GradcliError(
            f"Can't call numpy() on Tensor that has {bit[0]} bit set. Use "
            f"tensor.{bit[1]}().numpy() instead.",
            hint=f"call {bit[1]}() first (a copy)",
        ).mirror("RuntimeError")


def conj_address(t: Tensor) -> int | None:
    """The address PyTorch's `data_ptr()` gives a tensor on a conjugate view's storage: in
    the storage of the tensor conjugated (None for any other tensor)."""
    found = _conj_entry(t) if CONJ_VIEWS else None
    if found is None:
        return None
    offset = 0
    while found is not None:  # (a conjugate of a conjugate...: the first tensor's storage)
        root, (_ref, src, _flag) = found
        offset += t.data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        t = src
        found = _conj_entry(t)
    own(t)
    return t.data.__array_interface__["data"][0] + offset


def sync_conj(t: Tensor) -> None:
    """After a change in place of t's storage: write the conjugates of the new values into the
    storages linked to it by conjugate views (and theirs in turn)."""
    todo = [storage_root(t)]
    seen: set[int] = set()
    while todo:
        root = todo.pop()
        if id(root) in seen:
            continue
        seen.add(id(root))
        entry = CONJ_VIEWS.get(id(root))
        if entry is not None and entry[0]() is root:
            src = entry[1]  # a conjugate view changed: its tensor takes the new values
            if not src.data.flags.writeable:
                own(src)
            if not src.data.flags.writeable:
                raise NotSupported(
                    "gradcli does not support changing in place the conjugate of an expanded "
                    "tensor",
                    hint="conjugate a copy: x.clone().conj()",
                )
            np.copyto(src.data, np.conjugate(root))
            todo.append(storage_root(src))
        for key in list(CONJ_OF.get(id(root), ())):
            entry = CONJ_VIEWS.get(key)
            view = entry[0]() if entry is not None else None
            if view is not None and key not in seen and storage_root(entry[1]) is root:
                np.copyto(view, np.conjugate(entry[1].data))  # a conjugate of the changed one
                todo.append(view)


# The sequence number the next recorded node gets (`core.op.Node`; `op.SEQ` is this list).
SEQ = [0]

# Non-leaf tensors detached in place (`detach_()`): id -> (a weak reference to the tensor, the
# sequence number of the next node then). Nodes recorded before that used the tensor still
# differentiate through the node it had in PyTorch; gradcli's graph no longer reaches it, so a
# pass that meets such a use refuses (`graph.ancestors`) instead of a gradient without it.
DETACHED: dict[int, tuple[Any, int]] = {}


def detached_in_place(t: Tensor) -> None:
    import weakref

    key = id(t)

    def forget(ref: Any, key: int = key) -> None:
        entry = DETACHED.get(key)
        if entry is not None and entry[0] is ref:
            del DETACHED[key]

    DETACHED[key] = (weakref.ref(t, forget), SEQ[0])


def check_detached(t: Tensor, seq: int) -> None:
    """Refuse a use, by a node recorded at `seq`, of a tensor detached in place since."""
    entry = DETACHED.get(id(t))
    if entry is not None and entry[0]() is t and seq < entry[1]:
        raise NotSupported(
            "gradcli does not support differentiating through a tensor that was detached in "
            "place (detach_()) after it was used: PyTorch still differentiates the earlier "
            "uses through the operation that computed it",
            hint="use y = x.detach() (a new tensor) and keep x as it is, or call detach_() "
            "after the backward pass",
        )


# How many changes in place the process has made: a backward pass checks saved versions only
# for nodes recorded before the latest change (a node stores this count when it is made).
# Whether a program registered a hook on a leaf or on a leaf's AccumulateGrad node: the
# backward pass then runs each leaf's accumulation at PyTorch's time (`autograd._leaf_turns`).
# PyTorch's warning when a tensor that requires grad becomes a Python number (its __float__,
# a '%f' format, torch.tensor([t0, t1]))
# The leaves whose gradient's dtype a program set (`x.grad_dtype = torch.float64`): the dtype
# (None: any dtype, as it comes). A leaf not listed takes gradients of its own dtype. The
# engine casts each gradient flowing into a listed leaf to its dtype (`core.autograd`), before
# the leaf's hooks and its `.grad`, as PyTorch's validate_outputs casts to the input's
# metadata.
GRAD_DTYPES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def grad_dtype_of(t: Tensor) -> Any:
    """The dtype a leaf's gradients take (None: any)."""
    return GRAD_DTYPES.get(t, t.data.dtype) if GRAD_DTYPES else t.data.dtype


# While torch.jit.trace runs a program's function, and while what it gave runs (`lang.jit`):
# each tensor a program converts to a Python value (`if t:`, `int(t)`, `float(t)`, `t.item()`,
# `t.tolist()`) goes through it, `(kind, value) -> value`: a trace records the value (and
# warns, as PyTorch's tracer), a traced call gets the recorded one (a constant of the trace).
PYTHON_VALUE_HOOK: Any = None


def python_value(kind: str, value: Any) -> Any:
    """A tensor's value as the Python value a program asked for (`PYTHON_VALUE_HOOK`)."""
    hook = PYTHON_VALUE_HOOK
    return value if hook is None else hook(kind, value)


SCALAR_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
    "behavior.\nConsider using tensor.detach() first."
)

LEAF_HOOKS = [False]

MUTATIONS = [0]
# How many of them were recorded in the graph (a tensor that requires grad changed with
# grad mode on): until one is, no view can be stale (`graph.stale_views`).
RECORDED_CHANGES = [0]
# How many changes were made with grad mode off to tensors that require grad (an optimizer's
# step, `with torch.no_grad(): w[0] = 3`): a view taken before one is given a new node when
# next used, as after a recorded change (PyTorch regenerates its grad_fn, AsStridedBackward0).
RESTATED_VIEWS = [0]
# The views made with grad mode off of a tensor that requires grad (`with torch.no_grad():
# v = w[0]`): PyTorch gives them requires_grad=True but no grad_fn (they print
# `requires_grad=True`, and an operation on them with grad mode on is recorded), yet a backward
# pass accumulates no gradient into them, and changing one in place with grad mode on is
# refused (`inplace.check_target`). Empty unless a program makes one.
NOGRAD_VIEWS: weakref.WeakSet = weakref.WeakSet()
# The leaves that came to require grad after nodes taking them were recorded (`y = x * w`, then
# `w.requires_grad_()`: a module frozen for one forward pass): PyTorch's nodes recorded before
# have no edge to them, so a backward pass through those nodes gives them nothing. For each,
# the spans of node seqs recorded while it did not (`core.autograd` and `Node.next_functions`
# skip those nodes' edges: `no_edge`). Empty unless a program does this.
LATE_LEAVES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# The leaves set to requires_grad=False, from the seq of the next node (a span of LATE_LEAVES
# once they require grad again).
_OFF_SINCE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def no_edge(t: Tensor, seq: int) -> bool:
    """Whether the node of `seq` took the leaf `t` while `t` did not require grad (see
    LATE_LEAVES)."""
    spans = LATE_LEAVES.get(t)
    return spans is not None and any(lo <= seq < hi for lo, hi in spans)


# The views made with grad mode on of one of those (or of such a view): `e[0]`, e made under
# no_grad. Changing one in place with grad mode on is refused too (`inplace.check_target`).
NOGRAD_VIEWS_OF: weakref.WeakSet = weakref.WeakSet()
# Those of the two sets above that a custom Function's forward made and returned without a node
# (grad mode off, or the output not differentiable) and the views made of them with grad mode
# on: PyTorch keeps them as they are (requires_grad=True, no grad_fn) but its refusals to
# change them in place end with the custom Function's words (CreationMeta IN_CUSTOM_FUNCTION).
NOGRAD_CUSTOM: weakref.WeakSet = weakref.WeakSet()
# The views PyTorch forbids changing in place while gradients are recorded (`inplace`): the
# outputs of a function returning several views (`unbind`, `split`, `chunk`) and the views a
# custom Function made, and the views made of them with grad mode on (PyTorch's view keeps
# its base's CreationMeta): id -> (weak reference, output number, view's name, several, the
# Function's name). Empty unless a program makes one.
CUSTOM_VIEWS: dict[int, tuple[weakref.ref, int, str, bool, str]] = {}


# The tensors on the meta device (`torch.empty(3, 4, device='meta')`, `x.to('meta')`, the
# results of operations on them): PyTorch's tensors of shape, dtype and grad, without values.
# gradcli computes them as any tensor (their values zeros and never shown: printing, item(),
# tolist() and the like answer as PyTorch's meta tensors). Empty unless a program makes one.
META: weakref.WeakSet = weakref.WeakSet()
# How many `with torch.device('meta'):` blocks are open (the tensors made inside are meta).
DEFAULT_META = [0]


def on_meta(t: Any) -> bool:
    return bool(META) and t in META


# PyTorch's words for nonzero of a meta tensor (argwhere's and a boolean mask's too).
META_NONZERO = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
    "correct data-independent implementation does not exist. This implementation returns a "
    "fake value, assuming all elements of the tensor are non-zero. To enable this "
    "registration, please set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' "
    "to True."
)
META_NO_DATA = "Cannot copy out of meta tensor; no data!"


def no_meta_data(t: Any) -> None:
    """A meta tensor's values asked for (tolist(), .cpu(), a copy onto the CPU): PyTorch's
    NotImplementedError."""
    if META and t in META:
        raise GradcliError(
            META_NO_DATA,
            hint="a meta tensor has a shape and a dtype but no values: make it on the CPU, or "
            "move a module with module.to_empty(device='cpu') and initialise it",
        ).mirror("NotImplementedError")


def to_meta(t: Tensor) -> Tensor:
    """`t` on the meta device (marked in place: a new tensor of the caller's)."""
    META.add(t)
    return t


def nograd_view_changed(t: Tensor) -> bool:
    """Whether `t` is a view made under no_grad whose storage was changed in place since
    (through it or any other view): PyTorch then prints its grad_fn as <Invalid> and refuses
    its grad_fn, is_leaf, and any use of it with grad mode on."""
    return t in NOGRAD_VIEWS and t._vc is not None and t._vc[0] != t._vver


def nograd_changed_message(t: Tensor) -> str:
    """PyTorch's refusal to use the changed no_grad view `t` (`nograd_view_changed`)."""
    if t in NOGRAD_CUSTOM:
        return NOGRAD_VIEW_CHANGED.split(" Given", 1)[0] + " " + CUSTOM_VIEW_TAIL
    return NOGRAD_VIEW_CHANGED


CUSTOM_VIEW_TAIL = (
    "This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function."
)

NOGRAD_VIEW_CHANGED = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace with grad mode enabled. Given that this use case is ambiguous and "
    "error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked)."
)


def as_tensor(value: Any, like: Tensor | None = None) -> Tensor:
    """A Tensor for an operand: Tensors pass through, numbers take `like`'s float dtype, other
    data is inferred as `torch.tensor` infers it (int64 for integers, the default float dtype
    for floats, bool for booleans)."""
    if isinstance(value, Tensor):
        return value
    if like is not None and like.dtype.kind == "f" and isinstance(value, (int, float, bool)):
        return Tensor(np.asarray(value, dtype=like.dtype))
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise GradcliError(f"expected a Tensor or a number, not an array of {value.dtype}")
        return Tensor(value)
    if isinstance(value, (int, float, bool, list, tuple, np.generic)):
        return Tensor(data_array(value, None))
    raise GradcliError(f"expected a Tensor or a number, not {typename(value)}")


def constant(a: Any) -> Tensor:
    """A constant (no graph) Tensor of an array or of a tensor's data, e.g. a 0/1 mask from
    comparing values inside a VJP rule."""
    return Tensor(a.data if isinstance(a, Tensor) else a)


def mask_like(cond: np.ndarray, like: Tensor) -> Tensor:
    """A boolean array as a constant 0/1 Tensor of `like`'s dtype."""
    return Tensor(cond.astype(like.dtype))


def pytype_name(v: Any) -> str:
    """A value's class as Python's own messages (and PyTorch's argument parser) name it:
    `typename`, with None's class `NoneType` and NumPy's array `numpy.ndarray`."""
    if v is None:
        return "NoneType"
    return "numpy.ndarray" if type(v) is np.ndarray else typename(v)


# The language's `torch.typename` of one of its values that is not a tensor (a class: its
# qualified name; a function of the program: `__main__.f`; an instance: its class's), or None
# (set by `lang.builtins`, which knows the classes the program sees).
QUALNAME: list[Any] = [None]


def torch_typename(v: Any) -> str:
    """`torch.typename(v)`, as PyTorch's messages name a value (`nn.Sequential(nn.ReLU)`:
    "torch.nn.modules.activation.ReLU is not a Module subclass"): a tensor's legacy type
    (torch.FloatTensor), a class's qualified name, a function's module and name, else the
    qualified name of the value's class (builtins' without a module: `int`)."""
    if isinstance(v, Tensor):
        return dtypes.LEGACY_TYPES.get(v.dtype, "torch.Tensor")
    fn = QUALNAME[0]
    name = fn(v) if fn is not None else None
    return name if name is not None else typename(v)


def typename(v: Any) -> str:
    """A value's type as Python's messages name it (`Tensor`, `list`, `NoneType`...)."""
    if isinstance(v, Tensor):
        return "Tensor"
    t = type(v)
    named = getattr(t, "program_typename", None)  # a value of the interpreter names its type
    if named is not None:
        return named(v)
    if isinstance(v, np.generic):
        return f"numpy.{t.__name__}"  # as Python's messages name NumPy's scalars
    if t is HookHandle:
        return "RemovableHandle"  # PyTorch's class (`... must be Tensor, not RemovableHandle`)
    if t.__module__ == "datetime":
        return f"datetime.{t.__name__}"  # (Python's messages name them so)
    return {list: "list", tuple: "tuple", str: "str", type(None): "NoneType"}.get(t, t.__name__)


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


ARRAYS_IN_LIST = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor."
)


def data_array(
    data: Any, dtype: Any, float_dtype: Any = None, warn_arrays: bool = False
) -> np.ndarray:
    """Nested lists of numbers (or Tensors of one element) to an array, checked: the element
    limit, the nesting depth, numbers only, rectangular, integers within int64. Without `dtype`
    the dtype is inferred as `torch.tensor` does: bool for booleans only, int64 when there are
    integers and no floats, else the default float dtype (`float_dtype` when given: NumPy's
    float64); a Tensor element brings its own, and so do a Tensor and a NumPy array.

    warn_arrays: PyTorch's tensor constructors warn (once a process: here once a run) when the
    lists hold NumPy arrays and the tensor is not empty."""
    if isinstance(data, Tensor):
        return data.data.astype(data.dtype if dtype is None else dtype, copy=True)
    if isinstance(data, np.ndarray):
        return np.array(numpy_data(data), dtype=dtype, copy=True)
    count = [0]
    kinds: set[Any] = set()

    def walk(v: Any, depth: int) -> Any:
        if depth > 32:
            raise GradcliError("tensor data is nested too deeply", hint="at most 32 levels")
        if isinstance(v, (list, tuple, range)):  # a range is a sequence of ints, as a list
            return [walk(e, depth + 1) for e in v]
        if isinstance(v, Tensor):
            if v.data.size != 1:
                raise GradcliError(
                    "only one element tensors can be converted to Python scalars",
                    hint="use torch.stack or torch.cat to combine tensors (keeps gradients)",
                ).mirror("ValueError")
            if v.requires_grad:
                hooks.warn(
                    SCALAR_WARNING,
                    "the new tensor holds the values only: no gradient flows back through "
                    "it (torch.stack keeps gradients)",
                )
            kinds.add(v.dtype)
            v = v.data.reshape(()).item()
        elif isinstance(v, np.generic) and v.dtype.kind in "biuf":
            kinds.add(v.dtype if v.dtype in dtypes.TORCH_NAMES else np.dtype(np.float64))
            v = v.item()
        elif isinstance(v, np.ndarray) and v.ndim == 0 and warn_arrays and depth:
            # torch.tensor([np.array(1.5)]): PyTorch's reader takes the array for a sequence
            raise GradcliError(
                "len() of unsized object", hint="write its number: a.item(), or np.stack first"
            ).mirror("TypeError")
        elif isinstance(v, np.ndarray) and v.dtype.kind in "biuf":
            # A list of NumPy arrays (`np.array([a, b])`, `torch.tensor([arr1, arr2])`): their
            # numbers, counted before they are listed, with the arrays' dtype.
            count[0] += v.size
            if count[0] > limits.LIST_ITEMS.value:
                limits.LIST_ITEMS.check(count[0], "the number of numbers in the tensor data")
            kinds.add(v.dtype if v.dtype in dtypes.TORCH_NAMES else np.dtype(np.float64))
            arrays.append(True)
            return v.tolist()
        elif isinstance(v, bool):
            kinds.add(dtypes.BOOL)
        elif isinstance(v, int):
            if not _INT64_MIN <= v <= _INT64_MAX:
                # Fine in a float (or bool) tensor, as in PyTorch: refused below otherwise.
                if not big:
                    big.append(v)
                if not 0 <= v < 2**64:  # (kept an int in uint64's range: a uint64 tensor's)
                    v = float(v)
            kinds.add(dtypes.INT64)
        elif isinstance(v, float):
            kinds.add(None)  # the default float dtype
        elif isinstance(v, (complex, np.complexfloating)):
            if isinstance(v, np.complexfloating):
                kinds.add(v.dtype)
                v = v.item()
            else:
                kinds.add("c")  # the default float dtype's complex
        else:
            if isinstance(v, (str, bytes)):  # PyTorch's words for text where numbers belong
                if depth == 0 or isinstance(v, bytes):
                    raise GradcliError(f"new(): invalid data type '{typename(v)}'").mirror(
                        "TypeError"
                    )
                raise GradcliError("too many dimensions 'str'").mirror("ValueError")
            raise GradcliError(
                f"Could not infer dtype of {typename(v)}",
                expected="numbers, or nested lists of numbers",
            )
        count[0] += 1
        if count[0] > limits.LIST_ITEMS.value:
            limits.LIST_ITEMS.check(count[0], "the number of numbers in the tensor data")
        return v

    big: list[int] = []  # the first integer out of int64's range, if any
    arrays: list[bool] = []  # a NumPy array was among the elements
    clean = walk(data, 0)
    if dtype is None:
        dtype = _inferred(kinds, float_dtype)
    if ("c" in kinds or any(isinstance(k, np.dtype) and k.kind == "c" for k in kinds)) and (
        np.dtype(dtype).kind != "c"
    ):
        # PyTorch's words for a complex number where a real dtype was asked for
        raise GradcliError(
            "must be real number, not complex"
            if np.dtype(dtype).kind in "fb"
            else "'complex' object cannot be interpreted as an integer"
        ).mirror("TypeError")
    if (
        big
        and np.dtype(dtype).kind not in "fbc"
        and not (np.dtype(dtype) == np.uint64 and 0 <= big[0] < 2**64)
    ):
        raise GradcliError(
            "Overflow when unpacking long long",
            found=f"an integer of {big[0].bit_length()} bits, out of range for int64",
            expected="integers between -2**63 and 2**63 - 1 (int64)",
            hint="write it as a float (e.g. 1e20) for a float tensor",
        )
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            arr = np.array(clean, dtype=dtype)
    except OverflowError:
        arr = _wrapped_unsigned(clean, dtype)
        if arr is not None:
            return arr
        raise GradcliError(
            f"value cannot be converted to type {np.dtype(dtype).name} without overflow",
            hint="choose a wider dtype",
        ) from None
    except ValueError:
        raise _ragged(clean, np.dtype(dtype)) from None
    if warn_arrays and arrays and arr.size:
        hooks.warn(ARRAYS_IN_LIST, "np.array(list) first makes one array of them", once=True)
    return arr


def _wrapped_unsigned(clean: Any, dtype: Any) -> np.ndarray | None:
    """Integers for an unsigned dtype with negatives among them (`torch.tensor([-1],
    dtype=torch.uint8)`): PyTorch stores each within -max..max, a negative one wrapped modulo
    2**bits (255); None where the data is not such integers (the caller's overflow error)."""
    dt = np.dtype(dtype)
    if dt.kind != "u":
        return None
    try:
        ints = np.array(clean, dtype=np.int64)
    except (OverflowError, ValueError, TypeError):
        return None
    if ints.dtype.kind != "i" or not np.all(np.abs(ints) <= np.iinfo(dt).max):
        return None
    if np.array(clean).dtype.kind not in "ib":  # (floats among them: the caller's error)
        return None
    return ints.astype(dt)


def _ragged(data: list, dtype: np.dtype) -> GradcliError:
    """PyTorch's error for nested data that is not rectangular: its sizes are read along the
    first elements; the first sequence of another length, a number where a sequence belongs,
    or a sequence where a number belongs, is refused in its words."""
    sizes = []
    v: Any = data
    while isinstance(v, list):
        sizes.append(len(v))
        if not v:
            break
        v = v[0]

    def check(v: Any, dim: int) -> GradcliError | None:
        if dim == len(sizes):
            if isinstance(v, list):
                return GradcliError(
                    "must be real number, not list"
                    if dtype.kind == "f"
                    else "'list' object cannot be interpreted as an integer"
                ).mirror("TypeError")
            return None
        if not isinstance(v, list):
            return GradcliError("not a sequence").mirror("TypeError")
        if len(v) != sizes[dim]:
            return GradcliError(
                f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(v)})"
            ).mirror("ValueError")
        for e in v:
            err = check(e, dim + 1)
            if err is not None:
                return err
        return None

    return check(data, 0) or GradcliError(
        "expected a rectangular nested list (every row the same length)"
    ).mirror("ValueError")


def _inferred(kinds: set[Any], float_dtype: Any = None) -> np.dtype:
    """The dtype `torch.tensor` infers from the kinds of its elements."""
    default = Settings.default_dtype if float_dtype is None else np.dtype(float_dtype)
    out: np.dtype | None = None
    for k in kinds:
        k = default if k is None else dtypes.to_complex(default) if k == "c" else k
        out = k if out is None else dtypes.promote_types(out, k)
    return default if out is None else out


# PyTorch's words for a NumPy array of a dtype it has no tensor for.
_NUMPY_TYPES = (
    "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
    "uint32, uint16, uint8, and bool"
)


def numpy_data(a: np.ndarray) -> np.ndarray:
    """A NumPy array as tensor data: refused, in PyTorch's words, when gradcli has no tensor of
    its dtype."""
    if a.dtype not in dtypes.TORCH_NAMES:
        kind = a.dtype.type.__name__
        raise GradcliError(
            f"can't convert np.ndarray of type numpy.{kind}. The only supported types are: "
            + _NUMPY_TYPES
            + "."
        ).mirror("TypeError")
    return a


def carry_meta(ins: Any, result: Any) -> None:
    """The tensors a call or an operator makes of meta tensors outside a recorded operation
    (comparisons, masks, indices) are meta tensors too."""
    if not any(isinstance(a, Tensor) and a in META for a in ins):
        return
    for t in result if isinstance(result, (tuple, list)) else (result,):
        if isinstance(t, Tensor):
            META.add(t)
