#!/usr/bin/env python3
"""Rows ahead in registers or in a shared-memory ring: what a persistent grid gains from more rows
in flight, on a kernel shaped like layer_norm_backward (hand-written, not rkc's code).

Each CTA of 256 threads walks rows r = blockIdx.x, + gridDim.x, ... of two bf16 [M, N] inputs (N =
4096: two 16-byte vectors of each a thread), takes two sums over the row (x*dy and dy: a butterfly,
then one exchange through shared memory), and writes one bf16 row (x*s1 + dy*s2). Two ways to keep
the next rows' loads in flight:
  regs     the next row's vectors loaded into registers at the top of each row (rkc's ahead=1);
  colsum   regs, and each thread's 16 columns of x*dy and dy summed over its CTA's rows in
           registers, written once a CTA at the end (a dW/dB kernel's partials, not their combine);
  ring D   the next D rows copied by cp.async into a ring of D+1 row slots of shared memory, each
           thread copying the vectors it later reads itself (so no barrier guards the ring);
  cring D  ring D with the colsum variant's column partials;
  lnb      layer_norm_backward by hand (regs, with w, mean, rstd and its math), partials in
           registers; lnb_s the same with the partials in shared memory (rkc's smem=1).
Each variant is checked against a float64 reference on random inputs, then timed between events
after the L2 flush (a read of a buffer twice the L2), the median of REPS launches, under grids of
one, two and four CTAs an SM. Prints a line a point and a table last.

usage: python3 bench/ring.py [--reps 200] [--rows 4096,16384] [--only lnb,...] [--per-sm 1,2,4]
       (needs CuPy and a CUDA GPU of sm_80 or later)
"""
import argparse

import cupy as cp
import numpy as np

from cupy_timing import device_line, flushed_timer, print_table

N = 4096
T = 256
V = N // 8 // T  # 16-byte vectors of each input a thread: 2

COMMON = r"""
#include <cuda_bf16.h>
#define N %(N)d
#define V %(V)d
__device__ __forceinline__ void unpack(uint4 u, float *f) {
    const __nv_bfloat162 *h = (const __nv_bfloat162 *)&u;
    for (int i = 0; i < 4; i++) { float2 t = __bfloat1622float2(h[i]); f[2*i] = t.x; f[2*i+1] = t.y; }
}
__device__ __forceinline__ uint4 pack(const float *f) {
    uint4 u; __nv_bfloat162 *h = (__nv_bfloat162 *)&u;
    for (int i = 0; i < 4; i++) h[i] = __floats2bfloat162_rn(f[2*i], f[2*i+1]);
    return u;
}
// the thread's vectors of row q of both inputs
__device__ __forceinline__ void load_row(const uint4 *X, const uint4 *D, long q, uint4 *xn,
                                         uint4 *dn) {
    for (int k = 0; k < V; k++) {
        xn[k] = X[q * (N / 8) + threadIdx.x + k * blockDim.x];
        dn[k] = D[q * (N / 8) + threadIdx.x + k * blockDim.x];
    }
}
// a and b summed over the CTA's 8 warps, over N: a butterfly, then one exchange through red
// (2 x 8 floats of shared memory)
__device__ __forceinline__ void means(float &a, float &b, float *red) {
    for (int o = 16; o; o >>= 1) {
        a += __shfl_xor_sync(0xffffffffu, a, o); b += __shfl_xor_sync(0xffffffffu, b, o);
    }
    int w = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) { red[w] = a; red[8 + w] = b; }
    __syncthreads();
    a = 0.f; b = 0.f;
    for (int i = 0; i < 8; i++) { a += red[i]; b += red[8 + i]; }
    __syncthreads();
    a *= 1.f / N; b *= 1.f / N;
}
// the row's two sums, its output row
__device__ __forceinline__ void row(const uint4 *xv, const uint4 *dv, uint4 *out, long r,
                                    float *red) {
    float a = 0.f, b = 0.f, x[V][8], d[V][8];
    for (int k = 0; k < V; k++) {
        unpack(xv[k], x[k]); unpack(dv[k], d[k]);
        for (int e = 0; e < 8; e++) { a += x[k][e] * d[k][e]; b += d[k][e]; }
    }
    means(a, b, red);
    for (int k = 0; k < V; k++) {
        float y[8];
        for (int e = 0; e < 8; e++) y[e] = x[k][e] * a + d[k][e] * b;
        out[r * (N / 8) + threadIdx.x + k * blockDim.x] = pack(y);
    }
}
"""

AHEAD = r"""
// C: also the dW/dB-like partials: each thread sums its 16 columns' x*dy and dy over the rows its
// CTA walks, in registers, and writes them once at the end (the partials, not their combine; in
// the thread's own order, not the columns')
extern "C" __global__ void __launch_bounds__(256) %(NAME)s(const uint4 *__restrict__ X,
        const uint4 *__restrict__ D, uint4 *__restrict__ O, long M, float *__restrict__ P) {
    __shared__ float red[16];
    uint4 xn[V], dn[V];
    float cw[V][8], cb[V][8];
    for (int k = 0; k < V; k++) for (int e = 0; e < 8; e++) cw[k][e] = cb[k][e] = 0.f;
    long r = blockIdx.x;
    long rc = r < M ? r : M - 1;
    load_row(X, D, rc, xn, dn);
    for (; r < M; r += gridDim.x) {
        uint4 xv[V], dv[V];
        for (int k = 0; k < V; k++) { xv[k] = xn[k]; dv[k] = dn[k]; }
        long q = r + gridDim.x; q = q < M ? q : M - 1;
        load_row(X, D, q, xn, dn);
        if (%(C)d)
            accumulate(xv, dv, cw, cb);
        row(xv, dv, O, r, red);
    }
    if (%(C)d)
        partials(P, cw, cb);
}
"""

LNB = r"""
// layer_norm_backward itself, by hand: w [N] held, mean and rstd [M] loaded a row ahead with x and
// dy; xhat = (x - mean) rstd, g = w dy, dx = (g - xhat c1 - c2) rstd with c1, c2 the means of
// xhat g and g; dW += dy xhat and dB += dy in registers (S = 0) or in shared memory (S = 1, as
// rkc's smem=1: units of 4 floats, thread-minor), written once a CTA at the end
extern "C" __global__ void __launch_bounds__(256) %(NAME)s(const uint4 *__restrict__ X,
        const uint4 *__restrict__ D, uint4 *__restrict__ O, long M, float *__restrict__ P,
        const uint4 *__restrict__ W, const float *__restrict__ MU, const float *__restrict__ RS) {
    __shared__ float red[16];
    extern __shared__ float4 cs[];
    float cw[V][8], cb[V][8], w[V][8];
    for (int k = 0; k < V; k++) {
        unpack(W[threadIdx.x + k * blockDim.x], w[k]);
        for (int e = 0; e < 8; e++) cw[k][e] = cb[k][e] = 0.f;
        if (%(S)d)
            for (int h = 0; h < 4; h++) cs[(k * 4 + h) * blockDim.x + threadIdx.x] = make_float4(0, 0, 0, 0);
    }
    uint4 xn[V], dn[V];
    long r = blockIdx.x;
    long rc = r < M ? r : M - 1;
    float mn = MU[rc], rn = RS[rc];
    load_row(X, D, rc, xn, dn);
    for (; r < M; r += gridDim.x) {
        uint4 xv[V], dv[V];
        for (int k = 0; k < V; k++) { xv[k] = xn[k]; dv[k] = dn[k]; }
        float mu = mn, rs = rn;
        long q = r + gridDim.x; q = q < M ? q : M - 1;
        mn = MU[q]; rn = RS[q];
        load_row(X, D, q, xn, dn);
        float a = 0.f, b = 0.f, xh[V][8], g[V][8], d[V][8];
        for (int k = 0; k < V; k++) {
            float x[8];
            unpack(xv[k], x); unpack(dv[k], d[k]);
            for (int e = 0; e < 8; e++) {
                xh[k][e] = (x[e] - mu) * rs; g[k][e] = w[k][e] * d[k][e];
                a += xh[k][e] * g[k][e]; b += g[k][e];
            }
        }
        means(a, b, red);
        for (int k = 0; k < V; k++) {
            float y[8];
            for (int e = 0; e < 8; e++) y[e] = (g[k][e] - xh[k][e] * a - b) * rs;
            O[r * (N / 8) + threadIdx.x + k * blockDim.x] = pack(y);
            if (%(S)d) {
                for (int h = 0; h < 2; h++) {
                    float4 *pw = &cs[(k * 4 + h) * blockDim.x + threadIdx.x];
                    float4 *pb = &cs[(k * 4 + 2 + h) * blockDim.x + threadIdx.x];
                    float4 u = *pw, v = *pb;
                    u.x += d[k][4*h] * xh[k][4*h]; u.y += d[k][4*h+1] * xh[k][4*h+1];
                    u.z += d[k][4*h+2] * xh[k][4*h+2]; u.w += d[k][4*h+3] * xh[k][4*h+3];
                    v.x += d[k][4*h]; v.y += d[k][4*h+1]; v.z += d[k][4*h+2]; v.w += d[k][4*h+3];
                    *pw = u; *pb = v;
                }
            } else {
                for (int e = 0; e < 8; e++) { cw[k][e] += d[k][e] * xh[k][e]; cb[k][e] += d[k][e]; }
            }
        }
    }
    if (%(S)d)
        for (int k = 0; k < V; k++) for (int h = 0; h < 2; h++) {
            float4 u = cs[(k * 4 + h) * blockDim.x + threadIdx.x];
            float4 v = cs[(k * 4 + 2 + h) * blockDim.x + threadIdx.x];
            cw[k][4*h] = u.x; cw[k][4*h+1] = u.y; cw[k][4*h+2] = u.z; cw[k][4*h+3] = u.w;
            cb[k][4*h] = v.x; cb[k][4*h+1] = v.y; cb[k][4*h+2] = v.z; cb[k][4*h+3] = v.w;
        }
    partials(P, cw, cb);
}
"""

FETCH = r"""
__device__ __forceinline__ void copy16(uint4 *dst, const uint4 *src) {
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s), "l"(src) : "memory");
}
// slot s of the ring: the two inputs' rows, each thread's vectors where it reads them
__device__ __forceinline__ void fetch(uint4 *ring, int s, const uint4 *X, const uint4 *D, long q) {
    uint4 *p = ring + (long)s * 2 * (N / 8);
    for (int k = 0; k < V; k++) {
        int i = threadIdx.x + k * blockDim.x;
        copy16(p + i, X + q * (N / 8) + i);
        copy16(p + N / 8 + i, D + q * (N / 8) + i);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}
"""

PARTIALS = r"""
// a row's x*dy and dy into the thread's column partials
__device__ __forceinline__ void accumulate(const uint4 *xv, const uint4 *dv, float (*cw)[8],
                                           float (*cb)[8]) {
    for (int k = 0; k < V; k++) {
        float x[8], d[8];
        unpack(xv[k], x); unpack(dv[k], d);
        for (int e = 0; e < 8; e++) { cw[k][e] += x[e] * d[e]; cb[k][e] += d[e]; }
    }
}
// the CTA's partials, 16 bytes a store, thread-minor (a warp's stores contiguous)
__device__ __forceinline__ void partials(float *P, float (*cw)[8], float (*cb)[8]) {
    float4 *q = (float4 *)(P + (long)blockIdx.x * 2 * N);
    for (int k = 0; k < V; k++) for (int h = 0; h < 2; h++) {
        q[(k * 2 + h) * blockDim.x + threadIdx.x] =
            make_float4(cw[k][4*h], cw[k][4*h+1], cw[k][4*h+2], cw[k][4*h+3]);
        q[(2 * V + k * 2 + h) * blockDim.x + threadIdx.x] =
            make_float4(cb[k][4*h], cb[k][4*h+1], cb[k][4*h+2], cb[k][4*h+3]);
    }
}
"""

RING = r"""
// C: also the colsum variant's column partials, in registers
extern "C" __global__ void __launch_bounds__(256) %(NAME)s(const uint4 *__restrict__ X,
        const uint4 *__restrict__ D, uint4 *__restrict__ O, long M, float *__restrict__ P) {
    extern __shared__ uint4 ring[];
    __shared__ float red[16];
    float cw[V][8], cb[V][8];
    for (int k = 0; k < V; k++) for (int e = 0; e < 8; e++) cw[k][e] = cb[k][e] = 0.f;
    for (int d = 0; d < %(D)d; d++) {
        long q = blockIdx.x + (long)d * gridDim.x;
        fetch(ring, d, X, D, q < M ? q : M - 1);
    }
    int i = 0;
    for (long r = blockIdx.x; r < M; r += gridDim.x, i++) {
        long q = r + (long)%(D)d * gridDim.x;
        fetch(ring, (i + %(D)d) %% (%(D)d + 1), X, D, q < M ? q : M - 1);
        asm volatile("cp.async.wait_group %(D)d;" ::: "memory");
        uint4 *p = ring + (long)(i %% (%(D)d + 1)) * 2 * (N / 8);
        uint4 xv[V], dv[V];
        for (int k = 0; k < V; k++) {
            xv[k] = p[threadIdx.x + k * blockDim.x];
            dv[k] = p[N / 8 + threadIdx.x + k * blockDim.x];
        }
        if (%(C)d)
            accumulate(xv, dv, cw, cb);
        row(xv, dv, O, r, red);
    }
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    if (%(C)d)
        partials(P, cw, cb);
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--copy-gbps", type=float, default=3034.0)
    ap.add_argument("--rows", default="4096,16384", help="the row counts M, comma-separated")
    ap.add_argument("--only", default="", help="the variants to run, comma-separated (default: all)")
    ap.add_argument("--per-sm", default="1,2,4", help="the grids, in CTAs an SM")
    a = ap.parse_args()
    depths = (1, 2, 3, 4)
    names = [f"ring{d}" for d in depths] + [f"cring{d}" for d in depths]
    src = COMMON % {"N": N, "V": V} + PARTIALS + "".join(
        AHEAD % {"C": i, "NAME": n} for i, n in enumerate(("regs", "colsum"))) + "".join(
        LNB % {"S": i, "NAME": n} for i, n in enumerate(("lnb", "lnb_s"))) + FETCH + "".join(
        RING % {"D": int(n.lstrip("cring")), "C": int(n[0] == "c"), "NAME": n} for n in names)
    mod = cp.RawModule(code=src, options=("-std=c++17",))
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    timed = flushed_timer(a.reps)


    print(f"{device_line(a.reps)}, copy {a.copy_gbps:.0f} GB/s")
    rows = []
    for M in (int(x) for x in a.rows.split(",")):
        rng = np.random.default_rng(M)
        xh = rng.standard_normal((M, N)).astype(np.float32)
        dh = rng.standard_normal((M, N)).astype(np.float32)
        to_bf16 = lambda f: (f.view(np.uint32) + 0x8000 >> 16).astype(np.uint16)  # noqa: E731
        xb, db = to_bf16(xh), to_bf16(dh)
        x64 = (xb.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        d64 = (db.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        ref = x64 * ((x64 * d64).mean(1, keepdims=True)) + d64 * d64.mean(1, keepdims=True)
        X, D = cp.asarray(xb), cp.asarray(db)
        O = cp.empty_like(X)
        mb = 3 * M * N * 2 / 1e6
        P = cp.empty(4 * sms * 2 * N, dtype=cp.float32)
        W = cp.asarray(to_bf16(rng.standard_normal(N).astype(np.float32)))
        MU = cp.asarray(rng.standard_normal(M).astype(np.float32) * 0.1)
        RS = cp.asarray((1 + rng.random(M)).astype(np.float32))
        for name in ["regs", "colsum", "lnb", "lnb_s"] + names:
            if a.only and name not in a.only.split(","):
                continue
            fn = mod.get_function(name)
            ring = "ring" in name
            smem = (int(name.lstrip("cring")) + 1) * 2 * N * 2 if ring else 0
            smem = 2 * N * 4 if name == "lnb_s" else smem
            args = (X, D, O, cp.int64(M), P)
            args = (X, D, O, cp.int64(M), P, W, MU, RS) if name.startswith("lnb") else args
            if smem:
                fn.max_dynamic_shared_size_bytes = smem
            for per_sm in (int(x) for x in a.per_sm.split(",")):
                g = sms * per_sm
                launch = lambda: fn((g,), (T,), args, shared_mem=smem)  # noqa
                O.fill(0xFFFF)
                launch()
                cp.cuda.Device().synchronize()
                got = (cp.asnumpy(O).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
                want = ref
                if name.startswith("lnb"):
                    w64 = (cp.asnumpy(W).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
                    mu = cp.asnumpy(MU)[:, None].astype(np.float64)
                    rs = cp.asnumpy(RS)[:, None].astype(np.float64)
                    xh, gw = (x64 - mu) * rs, w64[None, :] * d64
                    want = (gw - xh * (xh * gw).mean(1, keepdims=True) -
                            gw.mean(1, keepdims=True)) * rs
                err = np.linalg.norm(got - want) / np.linalg.norm(want)
                us = timed(launch)
                pct = 100 * mb * 1e3 / us / a.copy_gbps
                ok = "ok" if err < 1e-2 else "WRONG"
                print(f"{name} M={M} grid={g} smem={smem} us={us:.2f} copy={pct:.1f}% "
                      f"err={err:.2e} {ok}", flush=True)
                rows.append((M, name, g, us, pct, ok))
    print_table(rows, "variant")


if __name__ == "__main__":
    main()
