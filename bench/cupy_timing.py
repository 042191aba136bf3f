"""Timing for the CuPy benchmarks (dispatch.py, absorb.py, ring.py, combine.py): each launch between its own
events after the L2 is flushed as `rkc run --time` flushes it (a read of a buffer twice the L2),
the median of `reps` launches after a warm-up, in µs."""
import statistics

import cupy as cp


def device_line(reps):
    """The device's name, SMs and L2, for a script's first line."""
    dev = cp.cuda.Device()
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"].decode()
    return (f"device: {name}, {dev.attributes['MultiProcessorCount']} SMs, "
            f"L2 {dev.attributes['L2CacheSize'] >> 20} MiB, {reps} launches a point")


def flushed_timer(reps, warmup=3):
    """A function timing fn() as above."""
    l2 = cp.cuda.Device().attributes["L2CacheSize"]
    flush = cp.zeros(max(l2, 32 << 20) * 2 // 4, dtype=cp.int32)

    def timed(fn):
        ev = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(reps)]
        for _ in range(warmup):
            fn()
        for s, e in ev:
            flush.max()
            s.record()
            fn()
            e.record()
        cp.cuda.Device().synchronize()
        return statistics.median(cp.cuda.get_elapsed_time(s, e) for s, e in ev) * 1e3

    return timed


def print_table(rows, what):
    """ring.py's and combine.py's last table: rows of (M, name, grid, us, % of copy, check), the
    name column headed `what`."""
    print(f"\n| M x 4096 bf16 | {what} | grid | µs | % of copy | check |\n|---|---|---|---|---|---|")
    for M, name, g, us, pct, ok in rows:
        print(f"| {M} | {name} | {g} | {us:.2f} | {pct:.1f} | {ok} |")
