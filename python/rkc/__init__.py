"""rkc from Python: load a reduction kernel, call it on torch tensors.

    k = rkc.load("rms_norm.rk")
    y, rstd = k(x, w, eps=1e-6)        # compiled for x's shape, dtype and GPU (cached on disk)
    rkc.explain("rms_norm.rk", (4096, 4096), "bf16", "sm_90")   # the config and its reasons

Without torch: k.compile(shape, dtype, arch) gives the PTX and manifest, and its launch() runs it
through the CUDA driver on device pointers. Errors are rkc.RkcError with rkc's diagnostic.
"""
from ._kernel import Compiled, Kernel, explain, load, shape_of
from ._lib import RkcError, archs, version

__version__ = version()
__all__ = ["Compiled", "Kernel", "RkcError", "explain", "load", "shape_of", "version", "archs"]
