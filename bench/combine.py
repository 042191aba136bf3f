#!/usr/bin/env python3
"""The cross-CTA combine of a dW/dB kernel's column partials: what each way of summing them costs
over none, on ring.py's hand-written layer_norm_backward (rows of 4096 bf16, not rkc's code).

Every variant runs ring.py's `lnb` (a persistent grid of CTAs of 256 threads, each thread's 16
columns of dy*xhat and dy summed over its CTA's rows in registers), then combines the CTAs' partial
rows (2 x 4096 floats a CTA) into dW and dB in a fixed order:
  none     writes the partial rows only (no dW, dB: the floor);
  grid     writes them, every CTA counts in at one counter and waits for all (a one-wave grid: a
           grid the register file cannot hold at once is skipped), then each CTA sums its slice of
           the columns over all partial rows;
  second   writes them, and a second kernel of 128 CTAs sums them (two launches timed together);
  grid_warp  grid, a warp to a vector of 4 columns, its lanes on 32 rows (each load 32 rows' 16
           bytes, where grid's reads 4 rows' 128);
  grid_sc  grid with a full fence after the wait;
  cluster  clusters of 8 CTAs first sum their 8 partial rows in distributed shared memory, one row
           a cluster written, then as `grid` over the clusters' rows. Only when --only names it:
           on the H100 a grid of 264 CTAs is more clusters of 8 than the GPCs hold at once, so its
           wait never ends (the run hangs until killed).
dW and dB are checked against a float64 reference (dX too), then timed as ring.py times (the L2
flushed before each launch, the median of REPS). Prints a line a point and a table last.

usage: python3 bench/combine.py [--reps 200] [--rows 264,1056,4096,16384] [--per-sm 1,2] [--only ...]
       (needs CuPy and a GPU of sm_90: clusters)
"""
import argparse

import cupy as cp
import numpy as np

from cupy_timing import device_line, flushed_timer, print_table
from ring import COMMON, LNB, N, PARTIALS, T, V

F = 2 * N // 4  # float4 positions of a partial row (dW's then dB's, in partials()' order)

COMBINE = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __forceinline__ unsigned ld_acquire(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
// every CTA of the grid counts in at c[0] and waits for all; the last to leave (c[1]) resets both
__device__ __forceinline__ void arrive_wait(unsigned *c) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(c, 1u);
        while (ld_acquire(c) < gridDim.x)
            __nanosleep(32);
    }
    __syncthreads();
}
__device__ __forceinline__ void leave(unsigned *c) {
    if (threadIdx.x == 0 && atomicAdd(c + 1, 1u) == gridDim.x - 1) {
        c[0] = 0;
        c[1] = 0;
    }
}
// float4 positions [p0, p0 + per) of `rows` partial rows at P (F float4 a row) summed in row order
// into Out: per positions x (256 / per) row lanes, each lane's rows, then the lanes in order
__device__ __forceinline__ void slice_sum(const float4 *P, float4 *Out, int rows, int p0, int per) {
    __shared__ float4 acc[256];
    int lanes = blockDim.x / per, pos = p0 + threadIdx.x % per, lane = threadIdx.x / per;
    float4 s = make_float4(0, 0, 0, 0);
    if (lane < lanes && pos < %(F)d)
        for (int r = lane; r < rows; r += lanes) {
            float4 v = __ldcg(P + (long)r * %(F)d + pos);
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
    acc[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x < per && pos < %(F)d) {
        float4 t = acc[threadIdx.x];
        for (int l = 1; l < lanes; l++) {
            float4 v = acc[l * per + threadIdx.x];
            t.x += v.x; t.y += v.y; t.z += v.z; t.w += v.w;
        }
        Out[pos] = t;
    }
}
// the same slice, a warp to a position: its 32 lanes sum rows l, l + 32, ..., then a butterfly (each
// load of a warp reads 32 rows' 16 bytes)
__device__ __forceinline__ void slice_sum_warp(const float4 *P, float4 *Out, int rows, int p0,
                                               int per) {
    int lane = threadIdx.x & 31;
    for (int pos = p0 + (threadIdx.x >> 5); pos < p0 + per && pos < %(F)d; pos += blockDim.x >> 5) {
        float4 s = make_float4(0, 0, 0, 0);
        for (int r = lane; r < rows; r += 32) {
            float4 v = __ldcg(P + (long)r * %(F)d + pos);
            s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
        }
        for (int o = 16; o; o >>= 1) {
            s.x += __shfl_xor_sync(~0u, s.x, o); s.y += __shfl_xor_sync(~0u, s.y, o);
            s.z += __shfl_xor_sync(~0u, s.z, o); s.w += __shfl_xor_sync(~0u, s.w, o);
        }
        if (lane == 0)
            Out[pos] = s;
    }
}
extern "C" __global__ void __launch_bounds__(256) second(const float4 *__restrict__ P,
        float4 *__restrict__ Out, int rows) {
    slice_sum(P, Out, rows, blockIdx.x * 16, 16);
}
"""

GRID = """
    arrive_wait(C);
    { int per = (%(F)d + gridDim.x - 1) / gridDim.x;
      slice_sum((const float4 *)P, (float4 *)Out, gridDim.x, blockIdx.x * per, per); }
    leave(C);
"""

GRID_WARP = GRID.replace("slice_sum(", "slice_sum_warp(")
GRID_SC = GRID.replace("arrive_wait(C);", "arrive_wait(C); __threadfence();")

CLUSTER = """
    { cg::cluster_group cl = cg::this_cluster();
      float4 *q = cs;
      for (int k = 0; k < V; k++) for (int h = 0; h < 2; h++) {
          q[(k * 2 + h) * blockDim.x + threadIdx.x] =
              make_float4(cw[k][4*h], cw[k][4*h+1], cw[k][4*h+2], cw[k][4*h+3]);
          q[(2 * V + k * 2 + h) * blockDim.x + threadIdx.x] =
              make_float4(cb[k][4*h], cb[k][4*h+1], cb[k][4*h+2], cb[k][4*h+3]);
      }
      cl.sync();
      int per = %(F)d / 8, r = cl.block_rank();
      for (int p = r * per + threadIdx.x; p < (r + 1) * per; p += blockDim.x) {
          float4 t = make_float4(0, 0, 0, 0);
          for (int j = 0; j < 8; j++) {
              float4 v = cl.map_shared_rank(cs, j)[p];
              t.x += v.x; t.y += v.y; t.z += v.z; t.w += v.w;
          }
          ((float4 *)P)[(long)(blockIdx.x / 8) * %(F)d + p] = t;
      }
      cl.sync();
      arrive_wait(C);
      int rows = gridDim.x / 8; per = (%(F)d + gridDim.x - 1) / gridDim.x;
      slice_sum((const float4 *)P, (float4 *)Out, rows, blockIdx.x * per, per);
      leave(C); }
"""


def variant(name, body, partials=True, cluster=False):
    """ring.py's lnb kernel under `name`, partials in registers, `body` after them."""
    k = LNB % {"S": 0, "NAME": name}
    k = k.replace("long M, float *__restrict__ P,",
                  "long M, float *__restrict__ P, float *__restrict__ Out, unsigned *C,")
    if cluster:
        k = k.replace("extern \"C\" __global__ void", "extern \"C\" __global__ void "
                      "__cluster_dims__(8, 1, 1)")
    tail = "    partials(P, cw, cb);\n}"
    assert tail in k
    return k.replace(tail, ("    partials(P, cw, cb);\n" if partials else "") + body % {"F": F}
                     + "}")


def column_of_position():
    """The column each float (of the 2N) of a partial row holds, as partials() lays them out."""
    col = np.empty(2 * N, dtype=np.int64)
    for t in range(T):
        for k in range(V):
            for h in range(2):
                c0 = 8 * (t + k * T) + 4 * h
                col[4 * ((k * 2 + h) * T + t):][:4] = np.arange(c0, c0 + 4)
                col[4 * ((2 * V + k * 2 + h) * T + t):][:4] = N + np.arange(c0, c0 + 4)
    return col


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--copy-gbps", type=float, default=3034.0)
    ap.add_argument("--rows", default="264,1056,4096,16384")
    ap.add_argument("--per-sm", default="1,2", help="the grids, in CTAs an SM")
    ap.add_argument("--only", default="none,grid,grid_warp,grid_sc,second",
                    help="the combines to run (cluster only when named: see above)")
    a = ap.parse_args()
    src = COMMON % {"N": N, "V": V} + PARTIALS + COMBINE.replace("%(F)d", str(F)) + \
        variant("none", "") + variant("grid", GRID) + variant("grid_warp", GRID_WARP) + \
        variant("grid_sc", GRID_SC) + variant("second_rows", "") + \
        variant("cluster", CLUSTER, partials=False, cluster=True)
    mod = cp.RawModule(code=src, options=("-std=c++17",))
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    timed = flushed_timer(a.reps)
    col = column_of_position()
    print(f"{device_line(a.reps)}, copy {a.copy_gbps:.0f} GB/s")
    to_bf16 = lambda f: (f.view(np.uint32) + 0x8000 >> 16).astype(np.uint16)  # noqa: E731
    f64 = lambda b: (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)  # noqa: E731
    rows = []
    for M in (int(x) for x in a.rows.split(",")):
        rng = np.random.default_rng(M)
        xb = to_bf16(rng.standard_normal((M, N)).astype(np.float32))
        db = to_bf16(rng.standard_normal((M, N)).astype(np.float32))
        wb = to_bf16(rng.standard_normal(N).astype(np.float32))
        mu = (rng.standard_normal(M) * 0.1).astype(np.float32)
        rs = (1 + rng.random(M)).astype(np.float32)
        x64, d64, w64 = f64(xb), f64(db), f64(wb)
        xh = (x64 - mu[:, None]) * rs[:, None]
        gw = w64[None, :] * d64
        dx = (gw - xh * (xh * gw).mean(1, keepdims=True) - gw.mean(1, keepdims=True)) * rs[:, None]
        dwb = np.concatenate([(d64 * xh).sum(0), d64.sum(0)])
        X, D, W = cp.asarray(xb), cp.asarray(db), cp.asarray(wb)
        MU, RS = cp.asarray(mu), cp.asarray(rs)
        O = cp.empty_like(X)
        P = cp.empty(2 * sms * 2 * N, dtype=cp.float32)
        Out = cp.empty(2 * N, dtype=cp.float32)
        C = cp.zeros(2, dtype=cp.uint32)
        mb = 3 * M * N * 2 / 1e6
        for name in a.only.split(","):
            kname = "second_rows" if name == "second" else name
            fn = mod.get_function(kname)
            smem = 2 * N * 4 if name == "cluster" else 0
            if smem:
                fn.max_dynamic_shared_size_bytes = smem
            args = (X, D, O, cp.int64(M), P, Out, C, W, MU, RS)
            held = 65536 // (fn.num_regs * T)  # the register file's limit, the one that binds
            for per_sm in (int(x) for x in a.per_sm.split(",")):
                g = sms * per_sm
                waits = name.startswith("grid") or name == "cluster"
                if name == "cluster" and g % 8 or waits and per_sm > held:
                    print(f"{name} M={M} grid={g}: skipped (one wave holds {held} a SM)")
                    continue
                if name == "second":
                    sec = mod.get_function("second")
                    launch = lambda: (fn((g,), (T,), args),  # noqa: E731
                                      sec((F // 16,), (T,), (P, Out, np.int32(g))))
                else:
                    launch = lambda: fn((g,), (T,), args, shared_mem=smem)  # noqa: E731
                O.fill(0xFFFF)
                Out.fill(np.nan)
                launch()
                cp.cuda.Device().synchronize()
                e_dx = np.linalg.norm(f64(cp.asnumpy(O)) - dx) / np.linalg.norm(dx)
                got = np.empty(2 * N)
                got[col] = cp.asnumpy(Out)
                e_dw = 0.0 if name == "none" else np.abs(got - dwb).max() / np.abs(dwb).max()
                us = timed(launch)
                pct = 100 * mb * 1e3 / us / a.copy_gbps
                ok = "ok" if e_dx < 1e-2 and e_dw < 1e-4 else "WRONG"
                print(f"{name} M={M} grid={g} us={us:.2f} copy={pct:.1f}% err_dx={e_dx:.1e} "
                      f"err_dwdb={e_dw:.1e} {ok}", flush=True)
                rows.append((M, name, g, us, pct, ok))
    print_table(rows, "combine")


if __name__ == "__main__":
    main()
