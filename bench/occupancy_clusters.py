"""How many clusters of 1-16 CTAs a GPU holds at once for one compiled kernel: the driver's
cuOccupancyMaxActiveClusters, for the cost model's cluster data (heuristics/targets/*.json,
gpc_sms and cluster_ctas).

usage: python3 bench/occupancy_clusters.py [--table] K.ptx [K.json]
  K.ptx and its manifest K.json are what `rkc compile` writes; the kernel is launched (in the
  query) with the manifest's block and dynamic shared memory, and the grid's CTAs. With --table
  the dynamic shared memory is set for 1 to 8 CTAs an SM instead, and the CTAs held in clusters of
  2, 4, 8 and 16 at each print as a target's "cluster_ctas" (give it a kernel of few registers
  and at most 4 warps, so that shared memory is what limits; the line "CTAs an SM" checks that).
Needs cuda-bindings (cuda.bindings.driver) and a GPU."""
import json
import sys

from cuda.bindings import driver as cu


def ok(r):
    if r[0] != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(str(r[0]))
    return r[1] if len(r) == 2 else r[1:]


def held(fn, block, grid, smem, K):
    """Clusters of K CTAs held at once, or the driver's error."""
    cfg = cu.CUlaunchConfig()
    cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = grid, 1, 1
    cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = block, 1, 1
    cfg.sharedMemBytes = smem
    at = cu.CUlaunchAttribute()
    at.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    at.value.clusterDim.x, at.value.clusterDim.y, at.value.clusterDim.z = K, 1, 1
    cfg.attrs, cfg.numAttrs = [at], 1
    r = cu.cuOccupancyMaxActiveClusters(fn, cfg)
    return r[1] if r[0] == cu.CUresult.CUDA_SUCCESS else r[0]


def table(fn, man, dev, sms):
    """cluster_ctas: the CTAs held at 1 to 8 CTAs an SM, the dynamic shared memory a CTA being an
    SM's over that count, less the 1 KiB the hardware reserves and 2 KiB for static memory."""
    fa = cu.CUfunction_attribute
    attr = cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
    per_sm_bytes = ok(cu.cuDeviceGetAttribute(attr, dev))
    sizes = (1, 2, 4, 8, 16)
    rows = {K: [] for K in sizes}
    for per in range(1, 9):
        smem = per_sm_bytes // per - 1024 - 2048
        cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)
        for K in sizes:
            n = held(fn, man["block"]["x"], K * 1024, smem, K)
            rows[K].append(n * K if isinstance(n, int) else str(n))
    print("CTAs an SM", [n / sms if isinstance(n, int) else n for n in rows[1]])
    print(json.dumps({str(K): rows[K] for K in sizes[1:]}))


def main():
    args = sys.argv[1:]
    as_table = args[:1] == ["--table"]
    args = args[1:] if as_table else args
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    ptx_path = args[0]
    man = json.load(open(args[1] if len(args) == 2 else ptx_path[:-4] + ".json"))
    ok(cu.cuInit(0))
    dev = ok(cu.cuDeviceGet(0))
    ctx = ok(cu.cuDevicePrimaryCtxRetain(dev))
    if cu.cuCtxSetCurrent(ctx)[0] != cu.CUresult.CUDA_SUCCESS:
        sys.exit("cannot make the context current")
    attr = cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    sms = ok(cu.cuDeviceGetAttribute(attr, dev))
    print("sms", sms)
    mod = ok(cu.cuModuleLoadData(open(ptx_path, "rb").read() + b"\0"))
    fn = ok(cu.cuModuleGetFunction(mod, man["entry"].encode()))
    fa = cu.CUfunction_attribute
    cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)
    if as_table:
        return table(fn, man, dev, sms)
    smem = man.get("dynamic_smem", 0)
    cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)
    for K in (1, 2, 4, 8, 16):
        n = held(fn, man["block"]["x"], man["grid"]["x"], smem, K)
        print(f"cluster {K:2d}: active clusters {n}"
              + (f", CTAs {n * K}" if isinstance(n, int) else ""))


if __name__ == "__main__":
    main()
