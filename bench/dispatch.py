#!/usr/bin/env python3
"""CTA dispatch on the GPU: a launch's time against its number of CTAs, with no work and with a
fixed number of bytes read by more or fewer CTAs. The target's dispatch_ns is fitted to it.

Each launch is timed between its own events after the L2 is flushed as `rkc run --time` flushes
it (a read of a buffer twice the L2), the median of REPS launches after a warm-up. Prints one
line a point (`EMPTY G B us`, `READ MB B V G us gbps`), then the least-squares slope of the
empty launch's time over its CTAs, per block size, from GMIN CTAs up.

usage: python3 bench/dispatch.py [--reps 200] [--gmin 1056]     (needs CuPy and a CUDA GPU)
"""
import argparse

import cupy as cp

from cupy_timing import device_line, flushed_timer

SRC = r"""
extern "C" __global__ void empty() {}

// Each thread reads V 16-byte vectors (a CTA's vectors consecutive, thread-minor, streaming) and
// its warp writes one float: the bytes move, the math is a few adds.
#define READ(V)                                                                     \
extern "C" __global__ void read##V(const uint4 *__restrict__ x, float *__restrict__ y) { \
    long base = (long)blockIdx.x * blockDim.x * V + threadIdx.x;                        \
    uint4 v[V];                                                                         \
    _Pragma("unroll") for (int i = 0; i < V; i++) v[i] = __ldcs(x + base + (long)i * blockDim.x); \
    float s = 0.f;                                                                      \
    _Pragma("unroll") for (int i = 0; i < V; i++)                                       \
        s += __int_as_float(v[i].x ^ v[i].y ^ v[i].z ^ v[i].w);                         \
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);                \
    if ((threadIdx.x & 31) == 0) y[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = s;   \
}
READ(1)
READ(2)
READ(4)
READ(8)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--gmin", type=int, default=1056)
    a = ap.parse_args()

    mod = cp.RawModule(code=SRC)
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    timed = flushed_timer(a.reps, warmup=5)


    print(device_line(a.reps))
    empty = mod.get_function("empty")
    fits = {}
    for b in (32, 128, 512, 1024):
        pts = []
        for g in (sms, 2 * sms, 4 * sms, 8 * sms, 16 * sms, 32 * sms, 64 * sms, 128 * sms,
                  256 * sms, 512 * sms):
            us = timed(lambda: empty((g,), (b,), ()))
            print(f"EMPTY G={g} B={b} us={us:.3f}", flush=True)
            if g >= a.gmin:
                pts.append((g, us))
        n = len(pts)
        mx = sum(g for g, _ in pts) / n
        my = sum(u for _, u in pts) / n
        slope = sum((g - mx) * (u - my) for g, u in pts) / sum((g - mx) ** 2 for g, _ in pts)
        fits[b] = (slope * 1e3, my - slope * mx)

    x = cp.empty(256 << 20, dtype=cp.uint8)
    x[:] = cp.random.randint(0, 255, x.size, dtype=cp.uint8)
    y = cp.empty(1 << 24, dtype=cp.float32)
    for mb in (2, 8, 32, 128):
        for b in (32, 128, 512):
            for v in (1, 2, 4, 8):
                g = (mb << 20) // (16 * b * v)
                fn = mod.get_function(f"read{v}")
                us = timed(lambda: fn((g,), (b,), (x, y)))
                print(f"READ MB={mb} B={b} V={v} G={g} us={us:.3f} "
                      f"gbps={(mb << 20) / us / 1e3:.0f}", flush=True)

    print("\nempty launch: us = a + G x slope, over G >= %d" % a.gmin)
    print("| block | slope ns a CTA | a us |\n|---|---|---|")
    for b, (s, c) in fits.items():
        print(f"| {b} | {s:.3f} | {c:.2f} |")


if __name__ == "__main__":
    main()
