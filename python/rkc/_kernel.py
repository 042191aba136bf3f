"""Kernels: a .rk file loaded, compiled for a shape (through librkc's cache), launched as its
manifest (docs/manifest.md) says."""
import ctypes
import hashlib
import json
import os
import re
import sys
import threading

from . import _cuda, _lib
from ._lib import RkcError



def shape_of(shape):
    """(M, N) from (M, N), (B, L, N) (M = B*L rows) or "MxN" / "BxLxN"."""
    if isinstance(shape, str):
        if not re.fullmatch(r"\d+(x\d+){1,2}", shape):
            raise RkcError(f"bad shape '{shape}' (expected MxN or BxLxN)")
        shape = [int(v) for v in shape.split("x")]
    dims = [int(v) for v in shape]
    if len(dims) < 2:
        raise RkcError(f"bad shape {tuple(shape)}: rows of N elements need at least (M, N)")
    M = 1
    for v in dims[:-1]:
        M *= v
    return M, dims[-1]


def dtype_name(dtype):
    """rkc's spelling of a dtype given as rkc's (bf16, fp16, f16, fp32, f32) or a torch dtype."""
    s = str(dtype)
    return {"torch.bfloat16": "bf16", "torch.float16": "fp16", "torch.float32": "fp32"}.get(s, s)


def _ceil(a, b):
    return -(-a // b)


class Compiled:
    """One compile of a kernel: the PTX, its manifest (a dict), the cubin when asked for, and
    whether it came from the cache. launch() runs it through the CUDA driver."""

    def __init__(self, kernel, M, N, dtype, arch, ptx, manifest, cubin, hit, warning):
        self.kernel, self.M, self.N, self.dtype, self.arch = kernel, M, N, dtype, arch
        self.ptx, self.cubin, self.hit, self.warning = ptx, cubin, hit, warning
        self.manifest = json.loads(manifest)
        self.manifest_text = manifest
        self.params = self.manifest["params"]
        self.entry = self.manifest["entry"]
        self._fn = {}  # (driver, device) -> (module, function)
        self._ws = {}  # (driver, device) -> (pointer, bytes, M it is zeroed for)
        self._lock = threading.Lock()

    def grid(self, M=None):
        """CTAs for a launch of M rows (docs/manifest.md: cdiv(M, rows_per_cta) * segments,
        capped by "cap" when the manifest has one)."""
        g = self.manifest["grid"]
        if g.get("columns"):  # the whole kernel in the column pass: the cap at every M
            return g["cap"]
        x = _ceil(self.M if M is None else M, g["rows_per_cta"]) * g["segments"]
        return min(x, g["cap"]) if "cap" in g else x

    def workspace_bytes(self, M=None):
        """The workspace for M rows: the sum of its regions (0 when the kernel takes none)."""
        w = self.manifest.get("workspace")
        M = self.M if M is None else M
        return sum(_ceil(r["per_row"] * M + r["fixed"], r["align"]) * r["align"]
                   for r in (w or {}).get("regions", []))

    def check_rows(self, M):
        v = self.manifest["valid"]["M"]
        if not v["min"] <= M <= v["max"]:
            raise RkcError(f"{self.entry}: M={M} is outside the manifest's {v['min']}..{v['max']}")

    def align(self, name):
        """The bytes array name's base address must be a multiple of: the manifest's "align"
        for it (what the PTX's accesses of it need; 16 for every array before version 3)."""
        p = next((p for p in self.params if p["name"] == name and p["kind"] in ("in", "out")),
                 None)
        if p is None:
            raise RkcError(f"{self.entry}: no array '{name}'")
        return p.get("align", self.manifest.get("array_align", 16))

    def stride_error(self, name, stride):
        """None when the [M,N] array name may have rows stride elements apart, else why not:
        the manifest's stride_rule (at least N, and N plus a multiple of its modulus)."""
        N = self.N
        if stride == N:
            return None
        if not any(p["kind"] == "stride" for p in self.params):
            return (f"'{name}' has rows {stride} elements apart, but this manifest (version "
                    f"{self.manifest.get('manifest_version', 1)}) has no row strides: rows "
                    f"are N={N} apart")
        r = self.manifest["stride_rule"]
        mod, res = r["modulus"], r["residue"]
        if stride < N or stride % mod != res:
            return (f"'{name}': row stride {stride} breaks the manifest's stride rule: at "
                    f"least N={N} and stride % {mod} == {res} (N plus a multiple of {mod})")
        return None

    def pack(self, values, M=None, strides=None):
        """The launch's kernelParams: (a void*[] array, the argument storage it points into),
        in manifest order. values maps each array's and the workspace's name to a device
        pointer, and may map a param's name to a number (else its default). strides maps an
        [M,N] array's name to its row stride in elements (else N: dense rows)."""
        M = self.M if M is None else M
        strides = dict(strides or {})
        tiles = {p["name"] for p in self.params if p["kind"] in ("in", "out")
                 and p["shape"] == "[M,N]"}
        for name in strides:
            if name not in tiles:
                raise RkcError(f"{self.entry}: a row stride for '{name}', which is not an "
                               f"[M,N] array (those are: {', '.join(sorted(tiles))})")
        slots = []
        for p in self.params:
            name, kind = p["name"], p["kind"]
            if kind in ("in", "out", "workspace"):
                if name not in values:
                    raise RkcError(f"{self.entry}: no argument for '{name}'")
                ptr = int(values[name])
                align = self.align(name) if kind != "workspace" else 4
                if ptr % align:
                    raise RkcError(f"{self.entry}: '{name}' at 0x{ptr:x} is not aligned to "
                                   f"{align} bytes")
                err = name in tiles and self.stride_error(name, int(strides.get(name, self.N)))
                if err:
                    raise RkcError(f"{self.entry}: {err}")
                slots.append(ctypes.c_uint64(ptr))
            elif kind == "stride":
                slots.append(ctypes.c_int64(int(strides.get(p["of"], self.N))))
            elif kind == "param":
                slots.append(ctypes.c_float(float(values.get(name, p["default"]))))
            elif kind == "dim":
                v = M if name == "M" else self.N
                slots.append(ctypes.c_int32(v) if p["type"] == "i32" else ctypes.c_int64(v))
            else:
                raise RkcError(f"{self.entry}: unknown parameter kind '{kind}' ({name})")
        array = (ctypes.c_void_p * len(slots))(*(ctypes.addressof(s) for s in slots))
        return array, slots

    def function(self, drv, device=0):
        key = (id(drv), device)
        with self._lock:
            if key not in self._fn:
                drv.context(device)
                self._fn[key] = drv.load(self.ptx, self.entry)
            return self._fn[key][1]

    def workspace(self, drv, device, M):
        """This compile's workspace on the device, zeroed once when made and again when M
        grows past what it was zeroed for (docs/manifest.md, "The workspace")."""
        need = self.workspace_bytes(M)
        key = (id(drv), device)
        with self._lock:
            ptr, size, zeroed_for = self._ws.get(key, (0, 0, 0))
            if size < need:
                ptr, size, zeroed_for = drv.alloc(need), need, 0
            if M > zeroed_for:
                drv.zero(ptr, size)
                zeroed_for = M
            self._ws[key] = (ptr, size, zeroed_for)
            return ptr

    def launch(self, values, M=None, stream=0, device=0, driver=None, strides=None):
        """Launches on the stream (a CUstream handle; 0 the default stream) with the arguments
        in values and the row strides in strides (see pack); the workspace, when the kernel
        takes one and values does not give it, is this compile's own. Returns what was
        launched: grid, block, dynamic shared memory, cluster, whether it was cooperative and
        the packed argument values."""
        M = self.M if M is None else int(M)
        self.check_rows(M)
        drv = driver or _cuda.driver()
        fn = self.function(drv, device)
        if self.manifest.get("workspace") and "workspace" not in values:
            values = dict(values, workspace=self.workspace(drv, device, M))
        array, slots = self.pack(values, M, strides)
        m = self.manifest
        plan = {"grid": self.grid(M), "block": m["block"]["x"], "smem": m["dynamic_smem"],
                "cluster": m.get("cluster", {}).get("x", 1),
                "cooperative": bool(m.get("cooperative", False))}
        drv.context(device)
        drv.launch(fn, plan["grid"], plan["block"], plan["smem"], plan["cluster"], array, stream,
                   cooperative=plan["cooperative"])
        plan["args"] = [s.value for s in slots]
        return plan


class Kernel:
    """A kernel loaded from .rk (or JSON) text. compile() and explain() take a shape, dtype and
    arch; calling it with torch tensors compiles for theirs and launches (rkc._torch)."""

    def __init__(self, text, file="<kernel>", policy=None, config=None, batch_invariant=False,
                 cache=True, cache_dir=None):
        self.text, self.file = text, file
        self.policy, self.config, self.batch_invariant = policy, config, bool(batch_invariant)
        self.cache_dir = cache_dir if cache else ""
        self.ir = _lib.kernel_json(text, file)  # parsed and verified here: errors come early
        self.name = self.ir["kernel"]
        self.params = self.ir["params"]
        self.inputs = [p for p in self.params if p["kind"] == "in"]
        self.outputs = [p for p in self.params if p["kind"] == "out"]
        self.scalars = [p for p in self.params if p["kind"] == "param"]
        opts = json.dumps([text, policy, config, self.batch_invariant])
        self.key = hashlib.sha256(opts.encode()).hexdigest()[:12]
        self._compiled = {}
        self._lock = threading.Lock()
        self._op = None
        if "torch" in sys.modules:  # the custom op now, so that torch.compile never makes one
            from . import _torch
            _torch.op(self)

    def __repr__(self):
        return f"<rkc.Kernel {self.name} from {self.file}>"

    def compile(self, shape, dtype, arch="sm_90", cubin=False):
        """A Compiled for the shape ((M, N), (B, L, N) or "MxN"), dtype (bf16, fp16, fp32) and
        arch: from this object's memory, else librkc's disk cache, else compiled."""
        M, N = shape_of(shape)
        dtype = dtype_name(dtype)
        key = (M, N, dtype, arch, bool(cubin))
        with self._lock:
            c = self._compiled.get(key)
        if c is None:
            ptx, man, cub, hit, warning = _lib.compile(
                self.text, self.file, M, N, dtype, arch, self.policy, self.config,
                self.batch_invariant, cubin, self.cache_dir)
            c = Compiled(self, M, N, dtype, arch, ptx, man, cub, hit, warning)
            with self._lock:
                c = self._compiled.setdefault(key, c)
        return c

    def explain(self, shape, dtype, arch="sm_90"):
        """rkc explain --json's object: the config, the modelled cost, the reasons, the facts."""
        M, N = shape_of(shape)
        return _lib.explain(self.text, self.file, M, N, dtype_name(dtype), arch, self.policy,
                            self.config, self.batch_invariant)

    def __call__(self, *args, **kwargs):
        """Torch tensors in (the kernel's inputs, in order or by name; params by name or after
        the inputs), its outputs out: one tensor, or a tuple in the kernel's order."""
        from . import _torch
        return _torch.call(self, args, kwargs)


def _read(path_or_text):
    s = os.fspath(path_or_text)
    if "\n" not in s and os.path.isfile(s):
        with open(s, encoding="utf-8") as f:
            return f.read(), s
    return s, "<text>"


def load(path_or_text, policy=None, config=None, batch_invariant=False, cache=True,
         cache_dir=None):
    """A Kernel from a .rk (or JSON) file's path, or from the text itself. config forces knobs
    ("num_warps=8,vec=4", rkc's --config); cache=False compiles every new shape afresh;
    cache_dir overrides $RKC_CACHE_DIR (docs/cache.md)."""
    text, file = _read(path_or_text)
    return Kernel(text, file, policy, config, batch_invariant, cache, cache_dir)


def explain(path_or_text, shape, dtype, arch="sm_90", policy=None, config=None,
            batch_invariant=False):
    """The config rkc picks for the shape, dtype and arch, and why, as a dict."""
    text, file = _read(path_or_text)
    M, N = shape_of(shape)
    return _lib.explain(text, file, M, N, dtype_name(dtype), arch, policy, config,
                        batch_invariant)
