"""How many clusters of 1-16 CTAs a GPU holds at once for one compiled kernel: the driver's
cuOccupancyMaxActiveClusters, for the cost model's GPC data (heuristics/targets/*.json, gpc_sms).

usage: python3 bench/occupancy_clusters.py K.ptx [K.json]
  K.ptx and its manifest K.json are what `rkc compile` writes; the kernel is launched (in the
  query) with the manifest's block and dynamic shared memory, and the grid's CTAs.
Needs cuda-bindings (cuda.bindings.driver) and a GPU."""
import json
import sys

from cuda.bindings import driver as cu


def ok(r):
    if r[0] != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(str(r[0]))
    return r[1] if len(r) == 2 else r[1:]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    ptx_path = sys.argv[1]
    man = json.load(open(sys.argv[2] if len(sys.argv) == 3 else ptx_path[:-4] + ".json"))
    ok(cu.cuInit(0))
    dev = ok(cu.cuDeviceGet(0))
    ctx = ok(cu.cuDevicePrimaryCtxRetain(dev))
    if cu.cuCtxSetCurrent(ctx)[0] != cu.CUresult.CUDA_SUCCESS:
        sys.exit("cannot make the context current")
    attr = cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    print("sms", ok(cu.cuDeviceGetAttribute(attr, dev)))
    mod = ok(cu.cuModuleLoadData(open(ptx_path, "rb").read() + b"\0"))
    fn = ok(cu.cuModuleGetFunction(mod, man["entry"].encode()))
    fa = cu.CUfunction_attribute
    smem = man.get("dynamic_smem", 0)
    cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)
    cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)
    for K in (1, 2, 4, 8, 16):
        cfg = cu.CUlaunchConfig()
        cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = man["grid"]["x"], 1, 1
        cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = man["block"]["x"], 1, 1
        cfg.sharedMemBytes = smem
        at = cu.CUlaunchAttribute()
        at.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        at.value.clusterDim.x, at.value.clusterDim.y, at.value.clusterDim.z = K, 1, 1
        cfg.attrs, cfg.numAttrs = [at], 1
        r = cu.cuOccupancyMaxActiveClusters(fn, cfg)
        n = r[1] if r[0] == cu.CUresult.CUDA_SUCCESS else None
        print(f"cluster {K:2d}: active clusters {n if n is not None else r[0]}"
              + (f", CTAs {n * K}" if n is not None else ""))


if __name__ == "__main__":
    main()
