"""The CUDA driver API through ctypes: $RKC_LIBCUDA (a stand-in driver in tests), else
libcuda.so.1. Every entry point is fetched with cuGetProcAddress_v2 at the 12.0 ABI, as
runtime/cuda.c does, so a driver library that exports only that (tests/runtime/fakecuda.c) works."""
import ctypes
import os

from ._lib import RkcError, archs

ABI_VERSION = 12000
ATTR_CC_MAJOR, ATTR_CC_MINOR = 75, 76
FUNC_MAX_DYNAMIC_SHARED, FUNC_NON_PORTABLE_CLUSTER = 8, 14
LAUNCH_COOPERATIVE = 2
LAUNCH_CLUSTER_DIMENSION = 4
PORTABLE_CLUSTER = 8

u, vp = ctypes.c_uint, ctypes.c_void_p
P = ctypes.POINTER


class LaunchAttribute(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_uint * 16)]


class LaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", u), ("gridDimY", u), ("gridDimZ", u), ("blockDimX", u),
                ("blockDimY", u), ("blockDimZ", u), ("sharedMemBytes", u), ("hStream", vp),
                ("attrs", P(LaunchAttribute)), ("numAttrs", u)]


# name: argument types (each returns a CUresult)
_FNS = {
    "cuInit": [u],
    "cuDeviceGet": [P(ctypes.c_int), ctypes.c_int],
    "cuDeviceGetAttribute": [P(ctypes.c_int), ctypes.c_int, ctypes.c_int],
    "cuDevicePrimaryCtxRetain": [P(vp), ctypes.c_int],
    "cuCtxSetCurrent": [vp],
    "cuCtxSynchronize": [],
    "cuMemAlloc": [P(ctypes.c_uint64), ctypes.c_size_t],
    "cuMemFree": [ctypes.c_uint64],
    "cuMemsetD8": [ctypes.c_uint64, ctypes.c_ubyte, ctypes.c_size_t],
    "cuModuleLoadData": [P(vp), ctypes.c_char_p],
    "cuModuleGetFunction": [P(vp), vp, ctypes.c_char_p],
    "cuFuncSetAttribute": [vp, ctypes.c_int, ctypes.c_int],
    "cuLaunchKernelEx": [P(LaunchConfig), vp, P(vp), P(vp)],
    "cuGetErrorName": [ctypes.c_int, P(ctypes.c_char_p)],
}


class Driver:
    """The entry points rkc launches with, checked: a failed call raises RkcError."""

    def __init__(self, path=None):
        path = path or os.environ.get("RKC_LIBCUDA") or "libcuda.so.1"
        try:
            self.lib = ctypes.CDLL(path)
            get = self.lib.cuGetProcAddress_v2
        except (OSError, AttributeError) as e:
            raise RkcError(f"no CUDA driver: {path}: {e} (RKC_LIBCUDA names the driver "
                           "library)") from None
        get.restype = ctypes.c_int
        get.argtypes = [ctypes.c_char_p, P(vp), ctypes.c_int, ctypes.c_uint64, P(ctypes.c_int)]
        self.path = path
        self.fns = {}
        for name, args in _FNS.items():
            fp, st = vp(), ctypes.c_int()
            if get(name.encode(), ctypes.byref(fp), ABI_VERSION, 0, ctypes.byref(st)) or not fp:
                raise RkcError(f"CUDA driver {path} has no {name}")
            self.fns[name] = ctypes.CFUNCTYPE(ctypes.c_int, *args)(fp.value)
        self.call("cuInit", 0)
        self.ctx = {}

    def call(self, name, *args):
        r = self.fns[name](*args)
        if r:
            s = ctypes.c_char_p()
            self.fns["cuGetErrorName"](r, ctypes.byref(s))
            raise RkcError(f"CUDA: {name} failed: {(s.value or b'?').decode()} ({r})")

    def context(self, ordinal=0):
        """Makes device ordinal's primary context (the one PyTorch uses) current."""
        if ordinal not in self.ctx:
            dev, ctx = ctypes.c_int(), vp()
            self.call("cuDeviceGet", ctypes.byref(dev), ordinal)
            self.call("cuDevicePrimaryCtxRetain", ctypes.byref(ctx), dev)
            self.ctx[ordinal] = (dev.value, ctx)
        self.call("cuCtxSetCurrent", self.ctx[ordinal][1])
        return self.ctx[ordinal][0]

    def arch(self, ordinal=0):
        """The newest arch rkc emits for (librkc's list) that the device runs: its own, or an
        older one's PTX for a newer device (the driver compiles PTX forward)."""
        dev = self.context(ordinal)
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.call("cuDeviceGetAttribute", ctypes.byref(major), ATTR_CC_MAJOR, dev)
        self.call("cuDeviceGetAttribute", ctypes.byref(minor), ATTR_CC_MINOR, dev)
        cc = major.value * 10 + minor.value
        known = [int(a[3:]) for a in archs()]
        fits = [a for a in known if a <= cc]
        if not fits:
            raise RkcError(f"device {ordinal} is sm_{cc}: rkc emits for sm_{min(known)} and newer")
        return f"sm_{max(fits)}"

    def alloc(self, n):
        p = ctypes.c_uint64()
        self.call("cuMemAlloc", ctypes.byref(p), max(int(n), 1))
        return p.value

    def free(self, p):
        self.call("cuMemFree", ctypes.c_uint64(p))

    def zero(self, p, n):
        self.call("cuMemsetD8", ctypes.c_uint64(p), 0, int(n))

    def load(self, ptx, entry):
        """(module, function) for the PTX text's entry."""
        mod, fn = vp(), vp()
        self.call("cuModuleLoadData", ctypes.byref(mod), ptx.encode() + b"\0")
        self.call("cuModuleGetFunction", ctypes.byref(fn), mod, entry.encode())
        return mod, fn

    def launch(self, fn, grid, block, smem, cluster, params, stream=0, cooperative=False):
        """cuLaunchKernelEx: params is a void*[] of argument addresses (manifest order); a
        cooperative launch (the manifest's "cooperative") has every CTA resident at once."""
        if smem > 48 * 1024:
            self.call("cuFuncSetAttribute", fn, FUNC_MAX_DYNAMIC_SHARED, int(smem))
        if cluster > PORTABLE_CLUSTER:
            self.call("cuFuncSetAttribute", fn, FUNC_NON_PORTABLE_CLUSTER, 1)
        # a grid of clusters with sums over rows is both clustered and cooperative
        attrs = (LaunchAttribute * 2)()
        n = 0
        if cluster > 1:
            attrs[n].id = LAUNCH_CLUSTER_DIMENSION
            attrs[n].value[0], attrs[n].value[1], attrs[n].value[2] = cluster, 1, 1
            n += 1
        if cooperative:
            attrs[n].id = LAUNCH_COOPERATIVE
            attrs[n].value[0] = 1
            n += 1
        cfg = LaunchConfig(grid, 1, 1, block, 1, 1, smem, vp(stream or None),
                           ctypes.cast(attrs, P(LaunchAttribute)), n)
        self.call("cuLaunchKernelEx", ctypes.byref(cfg), fn, params, None)


_driver = None


def driver():
    """The process's driver, opened on first use."""
    global _driver
    if _driver is None:
        _driver = Driver()
    return _driver


def reset():
    """Forget the opened driver (tests switch $RKC_LIBCUDA)."""
    global _driver
    _driver = None
