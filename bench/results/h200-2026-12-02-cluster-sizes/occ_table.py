"""cuOccupancyMaxActiveClusters for clusters of 1-16 CTAs at 1-8 CTAs an SM (set by dynamic
shared memory) for one compiled kernel: prints a table, one row per CTAs-an-SM."""
import json, sys
from cuda.bindings import driver as cu
def ok(r):
    if r[0] != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(str(r[0]))
    return r[1] if len(r) == 2 else r[1:]
ptx, man = sys.argv[1], json.load(open(sys.argv[2]))
ok(cu.cuInit(0)); dev = ok(cu.cuDeviceGet(0)); ctx = ok(cu.cuDevicePrimaryCtxRetain(dev))
cu.cuCtxSetCurrent(ctx)
mod = ok(cu.cuModuleLoadData(open(ptx, "rb").read() + b"\0"))
fn = ok(cu.cuModuleGetFunction(mod, man["entry"].encode()))
fa = cu.CUfunction_attribute
cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)
smsm = 233472
print("per_sm " + " ".join(f"c{K}" for K in range(1, 17)))
for per in range(1, 5):
    smem = smsm // per - 1024 - 2048
    row = []
    print("set", cu.cuFuncSetAttribute(fn, fa.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)[0], file=sys.stderr)
    for K in range(1, 17):
        cfg = cu.CUlaunchConfig()
        cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = K * 1024, 1, 1
        cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = 128, 1, 1
        cfg.sharedMemBytes = smem
        at = cu.CUlaunchAttribute()
        at.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        at.value.clusterDim.x, at.value.clusterDim.y, at.value.clusterDim.z = K, 1, 1
        cfg.attrs, cfg.numAttrs = [at], 1
        r = cu.cuOccupancyMaxActiveClusters(fn, cfg)
        row.append(str(r[1] * K) if r[0] == cu.CUresult.CUDA_SUCCESS else "err")
    print(f"{per} " + " ".join(row))
