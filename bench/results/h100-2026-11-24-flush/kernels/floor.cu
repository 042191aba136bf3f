// Hand-written references for the floor study: dx = x + dy in bf16, 16-byte accesses.
#include <cuda_bf16.h>
#include <stdint.h>

__device__ __forceinline__ uint4 add8(uint4 a, uint4 b) {
  uint4 r;
  uint32_t *pa = (uint32_t *)&a, *pb = (uint32_t *)&b, *pr = (uint32_t *)&r;
#pragma unroll
  for (int k = 0; k < 4; k++) {
    __nv_bfloat162 x = *(__nv_bfloat162 *)&pa[k], y = *(__nv_bfloat162 *)&pb[k];
    float2 fx = __bfloat1622float2(x), fy = __bfloat1622float2(y);
    __nv_bfloat162 z = __floats2bfloat162_rn(fx.x + fy.x, fx.y + fy.y);
    pr[k] = *(uint32_t *)&z;
  }
  return r;
}

// U vectors of 8 elements a thread, blocks of 512 threads, one block a chunk; loads first.
template <int U>
__device__ void chunk(const uint4 *x, const uint4 *y, uint4 *o, long n) {
  long base = (long)blockIdx.x * blockDim.x * U + threadIdx.x;
  uint4 a[U], b[U];
#pragma unroll
  for (int u = 0; u < U; u++) {
    long i = base + (long)u * blockDim.x;
    if (i < n) { a[u] = __ldg(x + i); b[u] = __ldg(y + i); }
  }
#pragma unroll
  for (int u = 0; u < U; u++) {
    long i = base + (long)u * blockDim.x;
    if (i < n) o[i] = add8(a[u], b[u]);
  }
}
extern "C" __global__ void __launch_bounds__(512) chunk4(const uint4 *x, const uint4 *y, uint4 *o, long n) { chunk<4>(x, y, o, n); }
extern "C" __global__ void __launch_bounds__(512) chunk1(const uint4 *x, const uint4 *y, uint4 *o, long n) { chunk<1>(x, y, o, n); }
extern "C" __global__ void __launch_bounds__(512) chunk2(const uint4 *x, const uint4 *y, uint4 *o, long n) { chunk<2>(x, y, o, n); }

// A grid of SMs x k CTAs striding over the vectors, 4 in flight a thread.
extern "C" __global__ void __launch_bounds__(512) stride4(const uint4 *x, const uint4 *y, uint4 *o, long n) {
  long step = (long)gridDim.x * blockDim.x;
  for (long i0 = (long)blockIdx.x * blockDim.x + threadIdx.x; i0 < n; i0 += 4 * step) {
    uint4 a[4], b[4];
#pragma unroll
    for (int u = 0; u < 4; u++) { long i = i0 + u * step; if (i < n) { a[u] = __ldg(x + i); b[u] = __ldg(y + i); } }
#pragma unroll
    for (int u = 0; u < 4; u++) { long i = i0 + u * step; if (i < n) o[i] = add8(a[u], b[u]); }
  }
}

extern "C" __global__ void empty(int *p) { if (p && threadIdx.x == 1000) *p = 1; }

extern "C" __global__ void rd(const uint4 *p, long n, int *out) {
  uint32_t acc = 0;
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678u) *out = (int)acc;
}
