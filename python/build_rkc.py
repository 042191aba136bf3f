"""The package's PEP 517 build backend: a wheel of rkc/ plus librkc.so (CMake's rkc_shared
target) and the shared libraries it needs that a host without LLVM may lack (libjansson), beside
it where its $ORIGIN rpath finds them. Written with zipfile so `pip install ./python` needs no
setuptools, wheel or network.

Which librkc.so: $RKC_LIB (absolute, or relative to the repository's root), else ../build-rel/librkc.so (the static build, for another host), else
../build/librkc.so. The version is the library's own (rkc_c_version: RKC_VERSION, analysis/ir.h)."""
import base64
import ctypes
import hashlib
import os
import subprocess
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CARRY = ("libjansson.so", "libzstd.so")  # not on every host
TAG = "py3-none-linux_x86_64"


def library():
    given = os.environ.get("RKC_LIB")
    if given:
        # pip runs this in python/: a relative path is taken from there, else from the root
        for p in (given, os.path.join(HERE, "..", given)):
            if os.path.isfile(p):
                return os.path.abspath(p)
        raise SystemExit(f"RKC_LIB={given}: no such file")
    for d in ("build-rel", "build"):
        p = os.path.join(HERE, "..", d, "librkc.so")
        if os.path.isfile(p):
            return os.path.abspath(p)
    raise SystemExit("librkc.so not found: build it (cmake --build build --target rkc_shared; "
                     "for another host: cmake -S . -B build-rel -DRKC_STATIC=ON "
                     "-DCMAKE_BUILD_TYPE=Release -DRKC_TESTS=OFF && cmake --build build-rel "
                     "--target rkc_shared) and set RKC_LIB to it")


def version(lib):
    f = ctypes.CDLL(lib).rkc_c_version
    f.restype = ctypes.c_char_p
    return f().decode()


def carried(lib):
    """(name, path) of each library in CARRY that lib loads, as the dynamic linker finds it."""
    out = subprocess.run(["ldd", lib], capture_output=True, text=True).stdout
    return [(p[0], p[2]) for p in (line.split() for line in out.splitlines())
            if len(p) >= 3 and p[1] == "=>" and p[0].startswith(CARRY)]


def _metadata(ver):
    return (f"Metadata-Version: 2.1\nName: rkc\nVersion: {ver}\nRequires-Python: >=3.9\n"
            "Summary: rkc reduction kernels from Python and PyTorch (librkc through ctypes)\n"
            "Provides-Extra: torch\nRequires-Dist: torch>=2.4; extra == \"torch\"\n")


def _files():
    """(name in the wheel, bytes) of everything but the dist-info."""
    lib = library()
    files = []
    pkg = os.path.join(HERE, "rkc")
    for name in sorted(os.listdir(pkg)):
        if name.endswith(".py"):
            with open(os.path.join(pkg, name), "rb") as f:
                files.append((f"rkc/{name}", f.read()))
    with open(lib, "rb") as f:
        files.append(("rkc/librkc.so", f.read()))
    for name, path in carried(lib):
        with open(path, "rb") as f:
            files.append((f"rkc/{name}", f.read()))
    return lib, files


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    ver = version(library())
    d = os.path.join(metadata_directory, f"rkc-{ver}.dist-info")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as f:
        f.write(_metadata(ver))
    return os.path.basename(d)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    lib, files = _files()
    ver = version(lib)
    info = f"rkc-{ver}.dist-info"
    files += [(f"{info}/METADATA", _metadata(ver).encode()),
              (f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: build_rkc\n"
                                f"Root-Is-Purelib: false\nTag: {TAG}\n".encode())]
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    name = f"rkc-{ver}-{TAG}.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in files:
            zi = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if n.endswith(".so") or ".so." in n else 0o644) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    return name
