#!/usr/bin/env python3
"""Writes the L2 holds past a launch's end: a copy and a write of S MB timed like `rkc run --time`.

A launch ends when its last store reaches the L2; the L2 writes its dirty lines back to HBM later,
so a launch that writes fewer bytes than the L2 holds need not wait for them. Each kernel moves
16-byte vectors, two a thread, in CTAs of 256 threads; each launch is timed between its own events
after the L2 is flushed as `rkc run --time` flushes it (a read of a buffer twice the L2), the median
of REPS launches after a warm-up. Prints one line a point (`COPY MB us gbps`, `WRITE ...`, `READ
...`, bytes moved over the time less the empty launch of as many CTAs), then the least-squares fit
of time = a + bytes / BW over the points of 256 MB and more, and what each smaller point's time
says the HBM did not move within the launch: bytes - (us - a) x BW.

usage: python3 bench/absorb.py [--reps 100]     (needs CuPy and a CUDA GPU)
"""
import argparse

import cupy as cp

from cupy_timing import device_line, flushed_timer

SRC = r"""
extern "C" __global__ void empty() {}
extern "C" __global__ void copy(const uint4 *__restrict__ x, uint4 *__restrict__ y) {
    long i = (long)blockIdx.x * blockDim.x * 2 + threadIdx.x;
    uint4 a = __ldcs(x + i), b = __ldcs(x + i + blockDim.x);
    y[i] = a;
    y[i + blockDim.x] = b;
}
extern "C" __global__ void write(uint4 *__restrict__ y) {
    long i = (long)blockIdx.x * blockDim.x * 2 + threadIdx.x;
    uint4 v = make_uint4(i, i + 1, i + 2, i + 3);
    y[i] = v;
    y[i + blockDim.x] = v;
}
extern "C" __global__ void read(const uint4 *__restrict__ x, float *__restrict__ y) {
    long i = (long)blockIdx.x * blockDim.x * 2 + threadIdx.x;
    uint4 a = __ldcs(x + i), b = __ldcs(x + i + blockDim.x);
    float s = __int_as_float(a.x ^ a.y ^ b.z ^ b.w);
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) y[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = s;
}
"""

B = 256  # threads a CTA; 32 bytes a thread


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=100)
    a = ap.parse_args()

    mod = cp.RawModule(code=SRC)
    timed = flushed_timer(a.reps)


    print(device_line(a.reps))
    sizes = (4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024)
    x = cp.empty(max(sizes) << 20, dtype=cp.uint8)
    x[:] = cp.random.randint(0, 255, x.size, dtype=cp.uint8)
    y = cp.empty_like(x)
    r = cp.empty(1 << 24, dtype=cp.float32)
    empty, copy, write, read = (mod.get_function(n) for n in ("empty", "copy", "write", "read"))
    pts = {"COPY": [], "WRITE": [], "READ": []}
    for mb in sizes:
        g = (mb << 20) // (32 * B)
        floor = timed(lambda: empty((g,), (B,), ()))
        for name, fn, args, moved in (("COPY", copy, (x, y), 2), ("WRITE", write, (y,), 1),
                                      ("READ", read, (x, r), 1)):
            us = timed(lambda: fn((g,), (B,), args))
            nbytes = moved * (mb << 20)
            pts[name].append((nbytes, us))
            print(f"{name} MB={mb} CTAs={g} us={us:.3f} empty={floor:.3f} "
                  f"gbps={nbytes / (us - floor) / 1e3:.0f}", flush=True)

    print("\nfit over 256 MB and more: us = a + bytes / BW; below it, the bytes the HBM did not "
          "move within the launch")
    for name, p in pts.items():
        big = [(b, u) for b, u in p if b >= (256 << 20)]
        n = len(big)
        mx = sum(b for b, _ in big) / n
        my = sum(u for _, u in big) / n
        slope = sum((b - mx) * (u - my) for b, u in big) / sum((b - mx) ** 2 for b, _ in big)
        c = my - slope * mx
        bw = 1 / slope / 1e3  # GB/s
        print(f"{name}: a = {c:.2f} us, BW = {bw:.0f} GB/s; " + ", ".join(
            f"{b >> 20} MB: {(b - (u - c) * bw * 1e3) / 1e6:.1f} MB" for b, u in p
            if b < (256 << 20)))


if __name__ == "__main__":
    main()
