"""The PyTorch side: a kernel's inputs checked, compiled for their shape, dtype and device's
arch, outputs allocated with torch, launched on torch's current stream. Each kernel is a
torch.library custom op with a fake (meta) implementation, so torch.compile calls it without a
graph break."""
import os

import torch

from . import _cuda
from ._lib import RkcError

_RKC_DTYPE = {torch.bfloat16: "bf16", torch.float16: "fp16", torch.float32: "fp32"}
_T = {"bf16": "bf16", "fp16": "f16", "fp32": "f32"}  # the IR's type for T at each dtype
_TORCH = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
          "i64": torch.int64, "i32": torch.int32, "i8": torch.int8, "bool": torch.bool,
          "f8e4m3": getattr(torch, "float8_e4m3fn", None)}
_ops = {}  # op name -> custom op, one per kernel text and options in the process
_archs = {}  # device ordinal -> arch


def _host_tensors():
    """Tests without a GPU: CPU tensors' host pointers go to the stand-in driver as device
    pointers (RKC_TORCH_HOST_TENSORS=1 with RKC_LIBCUDA naming tests/runtime/fakecuda)."""
    return os.environ.get("RKC_TORCH_HOST_TENSORS") == "1"


def bind(k, args, kwargs):
    """(the input tensors in the kernel's order, the params as floats in its order)."""
    names_in = [p["name"] for p in k.inputs]
    order = names_in + [p["name"] for p in k.scalars]
    if len(args) > len(order):
        raise RkcError(f"{k.name} takes {len(order)} arguments ({', '.join(order)}), "
                       f"{len(args)} given")
    vals = dict(zip(order, args))
    for n, v in kwargs.items():
        if n not in order:
            raise RkcError(f"{k.name} has no input or param '{n}' (it takes {', '.join(order)})")
        if n in vals:
            raise RkcError(f"{k.name}: '{n}' given twice")
        vals[n] = v
    missing = [n for n in names_in if n not in vals]
    if missing:
        raise RkcError(f"{k.name}: missing input(s): {', '.join(missing)}")
    params = []
    for p in k.scalars:
        v = vals.get(p["name"], p["default"])
        if isinstance(v, torch.Tensor):
            raise RkcError(f"{k.name}: param '{p['name']}' is a number, not a tensor")
        params.append(float(v))
    return [vals[n] for n in names_in], params


def geometry(k, inputs, check=True):
    """(dtype, M, N, leading dims) from the inputs: the dtype from the first input of type T,
    N and the rows from the first [M,N] input (its leading dims flattened, as BxLxN). With check,
    every input's type, shape, device, layout and alignment as the kernel needs them."""
    dtype = lead = N = None
    for p, t in zip(k.inputs, inputs):
        if not isinstance(t, torch.Tensor):
            raise RkcError(f"{k.name}: input '{p['name']}' must be a torch.Tensor, not "
                           f"{type(t).__name__}")
        if p["type"] == "T" and dtype is None:
            if t.dtype not in _RKC_DTYPE:
                raise RkcError(f"{k.name}: input '{p['name']}' is {t.dtype}; rkc kernels take "
                               "bfloat16, float16 or float32")
            dtype = _RKC_DTYPE[t.dtype]
        if p["shape"] == "[M,N]" and N is None:
            if t.dim() < 2:
                raise RkcError(f"{k.name}: input '{p['name']}' is [M,N]: it needs 2 or more "
                               f"dims, it has {t.dim()}")
            lead, N = tuple(t.shape[:-1]), t.shape[-1]
    if N is None:
        raise RkcError(f"{k.name}: no [M,N] input to take the shape from")
    dtype = dtype or "fp32"
    M = 1
    for d in lead:  # sizes stay symbolic in the fake implementation; run() makes them ints
        M = M * d
    if check:
        dev = inputs[0].device
        for p, t in zip(k.inputs, inputs):
            _check_input(k, p, t, dtype, lead, N, dev)
    return dtype, M, N, lead


def _check_input(k, p, t, dtype, lead, N, dev):
    name = p["name"]
    want_t = _TORCH[_T[dtype] if p["type"] == "T" else p["type"]]
    want_shape = {"[M,N]": lead + (N,), "[M]": lead, "[N]": (N,)}[p["shape"]]
    if t.dtype != want_t:
        raise RkcError(f"{k.name}: input '{name}' is {t.dtype}, the kernel wants {want_t}")
    if tuple(t.shape) != tuple(want_shape):
        raise RkcError(f"{k.name}: input '{name}' has shape {tuple(t.shape)}, the kernel wants "
                       f"{tuple(want_shape)} ({p['shape']})")
    if t.device != dev:
        raise RkcError(f"{k.name}: input '{name}' is on {t.device}, '{k.inputs[0]['name']}' on "
                       f"{dev}")
    if dev.type != "cuda" and not (_host_tensors() and dev.type == "cpu"):
        raise RkcError(f"{k.name}: input '{name}' is on {dev}; rkc kernels run on CUDA devices")
    if p["shape"] == "[M,N]":
        if row_stride(t) is None:
            raise RkcError(f"{k.name}: input '{name}' is not rows of contiguous elements "
                           f"(strides {t.stride()}): rkc kernels take an [M,N] input with "
                           "column stride 1 and one stride between its rows (its leading "
                           "dims flattened): pass .contiguous()")
    elif not t.is_contiguous():
        raise RkcError(f"{k.name}: input '{name}' is not contiguous (strides {t.stride()}); "
                       f"rkc kernels take {p['shape']} inputs contiguous: pass .contiguous()")
    if t.numel() and t.data_ptr() % t.element_size():
        raise RkcError(f"{k.name}: input '{name}' starts at an address that is not a multiple "
                       f"of its {t.element_size()}-byte element: pass .clone()")


def row_stride(t):
    """The elements between consecutive rows of an [M,N] tensor (its leading dims flattened
    into M rows), or None when its layout is not rows: the last dim must have stride 1 (unless
    it has one element) and the leading dims one stride between rows, as a row slice x[a:b],
    a column slice x[:, :N] of a wider tensor or a padded allocation have. Dims of size 1 do
    not count; with one row the stride is N."""
    if t.dim() < 1:
        return None
    N = t.shape[-1]
    if N > 1 and t.stride(-1) != 1:
        return None
    s, rows = None, 1  # the row stride, and the rows the dims inside this one span
    for i in range(t.dim() - 2, -1, -1):
        n = t.shape[i]
        if n == 1:
            continue
        if s is None:
            s = t.stride(i)
        elif t.stride(i) != s * rows:
            return None
        rows *= n
    return N if s is None else s


def _out_shape(p, lead, N):
    return {"[M,N]": lead + (N,), "[M]": lead, "[N]": (N,)}[p["shape"]]


def _out_dtype(p, dtype):
    return _TORCH[_T[dtype] if p["type"] == "T" else p["type"]]


def _arch(drv, ordinal):
    if ordinal not in _archs:
        _archs[ordinal] = drv.arch(ordinal)
    return _archs[ordinal]


def run(k, inputs, params):
    """The real implementation: compile for the inputs, allocate the outputs, launch on the
    current stream. Returns the outputs in the kernel's order."""
    dtype, M, N, lead = geometry(k, inputs)
    M, N, lead = int(M), int(N), tuple(int(d) for d in lead)
    dev = inputs[0].device
    outs = [torch.empty(_out_shape(p, lead, N), dtype=_out_dtype(p, dtype), device=dev)
            for p in k.outputs]
    if M == 0:
        return outs
    ordinal = (dev.index if dev.index is not None else torch.cuda.current_device()) \
        if dev.type == "cuda" else 0
    drv = _cuda.driver()
    c = k.compile((M, N), dtype, _arch(drv, ordinal))
    values = {p["name"]: t.data_ptr() for p, t in zip(k.inputs, inputs)}
    values.update({p["name"]: t.data_ptr() for p, t in zip(k.outputs, outs)})
    values.update({p["name"]: v for p, v in zip(k.scalars, params)})
    strides = {}
    for p, t in zip(k.inputs, inputs):  # the outputs are dense: their strides are N
        if t.numel() and t.data_ptr() % c.align(p["name"]):
            raise RkcError(f"{k.name}: input '{p['name']}' starts at 0x{t.data_ptr():x}, not a "
                           f"multiple of {c.align(p['name'])} bytes, which this compile's "
                           f"accesses of it need (a view at an odd offset?): pass .clone()")
        if p["shape"] == "[M,N]":
            strides[p["name"]] = row_stride(t)
            err = c.stride_error(p["name"], strides[p["name"]])
            if err:
                raise RkcError(f"{k.name}: input {err}; pass .contiguous()")
    if c.manifest.get("workspace"):
        values["workspace"] = _workspace(c, dev, M).data_ptr()
    stream = torch.cuda.current_stream(dev).cuda_stream if dev.type == "cuda" else 0
    c.launch(values, M=M, stream=stream, device=ordinal, driver=drv, strides=strides)
    return outs


def _workspace(c, dev, M):
    """The compile's workspace on dev, a torch allocation zeroed once (the kernel leaves it
    zeroed; docs/manifest.md). One compile is for one M, so it never needs zeroing again."""
    ws = getattr(c, "_torch_ws", None)
    if ws is None:
        ws = c._torch_ws = {}
    if dev not in ws:
        ws[dev] = torch.zeros(c.workspace_bytes(M), dtype=torch.uint8, device=dev)
    return ws[dev]


def op(k):
    """The kernel's custom op, rkc::<kernel>_<key>, made once per kernel text and options."""
    if k._op is not None:
        return k._op
    name = f"rkc::{k.name}_{k.key}"
    if name not in _ops:
        n_in = len(k.inputs)
        args = [f"Tensor {p['name']}" for p in k.inputs] + [f"float {p['name']}" for p in
                                                           k.scalars]
        rets = "Tensor" if len(k.outputs) == 1 else \
            "(" + ", ".join("Tensor" for _ in k.outputs) + ")"
        schema = f"({', '.join(args)}) -> {rets}"

        def impl(*a):
            outs = run(k, list(a[:n_in]), list(a[n_in:]))
            return outs[0] if len(outs) == 1 else tuple(outs)

        def fake(*a):
            dtype, M, N, lead = geometry(k, list(a[:n_in]), check=False)
            x = a[0]
            outs = [x.new_empty(_out_shape(p, lead, N), dtype=_out_dtype(p, dtype))
                    for p in k.outputs]
            return outs[0] if len(outs) == 1 else tuple(outs)

        o = torch.library.custom_op(name, impl, mutates_args=(), schema=schema)
        o.register_fake(fake)
        _ops[name] = o
    k._op = _ops[name]
    return k._op


def _compiling():
    f = getattr(torch.compiler, "is_compiling", None)
    return bool(f and f())


def call(k, args, kwargs):
    inputs, params = bind(k, args, kwargs)
    if not _compiling():  # bad tensors as RkcError before the dispatcher sees the arguments
        geometry(k, inputs)
    return op(k)(*inputs, *params)
