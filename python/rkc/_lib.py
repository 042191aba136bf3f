"""librkc's C ABI (driver/capi.c) through ctypes: compile, explain, a kernel's parameters."""
import ctypes
import json
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


class RkcError(Exception):
    """An error rkc reported (the message is rkc's diagnostic text), or a bad call."""


def _path():
    return os.environ.get("RKC_LIB") or os.path.join(_HERE, "librkc.so")


_lib = None


def lib():
    """librkc.so: $RKC_LIB, else the copy installed inside the package."""
    global _lib
    if _lib is not None:
        return _lib
    path = _path()
    try:
        L = ctypes.CDLL(path)
    except OSError as e:
        raise RkcError(f"cannot load librkc ({path}): {e}") from None
    s, i, ll, sz = ctypes.c_char_p, ctypes.c_int, ctypes.c_longlong, ctypes.c_size_t
    out = ctypes.POINTER(ctypes.c_void_p)
    L.rkc_c_version.restype = s
    L.rkc_c_version.argtypes = []
    L.rkc_c_archs.restype = s
    L.rkc_c_archs.argtypes = []
    L.rkc_c_free.restype = None
    L.rkc_c_free.argtypes = [ctypes.c_void_p]
    L.rkc_c_kernel.restype = i
    L.rkc_c_kernel.argtypes = [s, s, out, out]
    L.rkc_c_explain.restype = i
    L.rkc_c_explain.argtypes = [s, s, ll, ll, s, s, s, s, i, out, out]
    L.rkc_c_compile.restype = i
    L.rkc_c_compile.argtypes = [s, s, ll, ll, s, s, s, s, i, i, s, out, out, out,
                                ctypes.POINTER(sz), ctypes.POINTER(i), out]
    _lib = L
    return L


def _take(p, n=None):
    """The bytes librkc returned at p (NUL-terminated, or n of them), freed."""
    if not p.value:
        return None
    b = ctypes.string_at(p.value, n) if n is not None else ctypes.string_at(p.value)
    lib().rkc_c_free(p.value)
    return b


def _enc(s):
    return None if s is None else str(s).encode()


def version():
    """The rkc version librkc was built as (RKC_VERSION, analysis/ir.h)."""
    return lib().rkc_c_version().decode()


def archs():
    """The archs librkc emits for, oldest first ("sm_80", ...)."""
    return lib().rkc_c_archs().decode().split(",")


def kernel_json(text, file):
    """The kernel parsed and verified, as its JSON form (docs/ir.md)."""
    js, msg = ctypes.c_void_p(), ctypes.c_void_p()
    rc = lib().rkc_c_kernel(_enc(text), _enc(file), ctypes.byref(js), ctypes.byref(msg))
    j, m = _take(js), _take(msg)
    if rc:
        raise RkcError(m.decode())
    return json.loads(j)


def explain(text, file, M, N, dtype, arch, policy=None, config=None, batch_invariant=False):
    """rkc explain --json's object as a dict."""
    js, msg = ctypes.c_void_p(), ctypes.c_void_p()
    rc = lib().rkc_c_explain(_enc(text), _enc(file), int(M), int(N), _enc(dtype), _enc(arch),
                             _enc(policy), _enc(config), int(bool(batch_invariant)),
                             ctypes.byref(js), ctypes.byref(msg))
    j, m = _take(js), _take(msg)
    if rc:
        raise RkcError(m.decode())
    return json.loads(j)


def compile(text, file, M, N, dtype, arch, policy=None, config=None, batch_invariant=False,
            cubin=False, cache_dir=None):
    """(ptx text, manifest text, cubin bytes or None, hit, warning or None). cache_dir None:
    librkc's default directory; "": no cache."""
    ptx, man, cub, msg = (ctypes.c_void_p() for _ in range(4))
    n, hit = ctypes.c_size_t(), ctypes.c_int()
    rc = lib().rkc_c_compile(_enc(text), _enc(file), int(M), int(N), _enc(dtype), _enc(arch),
                             _enc(policy), _enc(config), int(bool(batch_invariant)),
                             int(bool(cubin)), _enc(cache_dir), ctypes.byref(ptx),
                             ctypes.byref(man), ctypes.byref(cub), ctypes.byref(n),
                             ctypes.byref(hit), ctypes.byref(msg))
    p, mf, c, m = _take(ptx), _take(man), _take(cub, n.value), _take(msg)
    if rc:
        raise RkcError(m.decode())
    return p.decode(), mf.decode(), c, bool(hit.value), m.decode() if m else None
