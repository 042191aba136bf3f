// synccheck probe: a 512-thread CTA reduces with shuffles, combines across warps through shared
// memory behind __syncthreads, then across a cluster through distributed shared memory
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;
__device__ __forceinline__ void csync(int raw)
{
	if (raw)
		asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
	else
		cg::this_cluster().sync();
}
template <int MINB>
__global__ void __launch_bounds__(512, MINB) k(const float *x, float *y, int n, int heavy)
{
	__shared__ float part[16][5];
	__shared__ float tot[5];
	cg::cluster_group cl = cg::this_cluster();
	int row = blockIdx.x / cl.num_blocks(), rank = cl.block_rank();
	float s[5] = {0, 0, 0, 0, 0};
	int seg = (n + cl.num_blocks() - 1) / cl.num_blocks();
	int lo = rank * seg, hi = min(n, lo + seg);
	for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) {
		float v = x[(size_t)row * n + i];
		for (int j = 0; j < ((heavy & 1) ? 5 : 1); j++)
			s[j] += v * (j + 1);
	}
	for (int j = 0; j < 5; j++)
		for (int o = 16; o; o >>= 1)
			s[j] += __shfl_xor_sync(0xffffffff, s[j], o);
	if ((threadIdx.x & 31) == 0)
		for (int j = 0; j < 5; j++)
			part[threadIdx.x >> 5][j] = s[j];
	__syncthreads();
	if (threadIdx.x < 5) {
		float t = 0;
		for (int w = 0; w < 16; w++)
			t += part[w][threadIdx.x];
		tot[threadIdx.x] = t;
	}
	csync(heavy & 2);
	if (rank == 0 && threadIdx.x < 5) {
		float t = 0;
		for (int r = 0; r < (int)cl.num_blocks(); r++)
			t += cl.map_shared_rank(tot, r)[threadIdx.x];
		y[row * 5 + threadIdx.x] = t;
	}
	csync(heavy & 2);
}
int main(int argc, char **argv)
{
	int csize = atoi(argv[1]), rows = atoi(argv[2]), n = atoi(argv[3]), heavy = atoi(argv[4]);
	float *x, *y;
	cudaMalloc(&x, sizeof(float) * rows * n);
	cudaMalloc(&y, sizeof(float) * rows * 5);
	cudaMemset(x, 0, sizeof(float) * rows * n);
	int minb = argc > 5 ? atoi(argv[5]) : 1;
	void (*f)(const float *, float *, int, int) = minb == 2 ? k<2> : k<1>;
	cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	cudaLaunchConfig_t c = {};
	c.gridDim = dim3(rows * csize);
	c.blockDim = dim3(512);
	cudaLaunchAttribute a[1];
	a[0].id = cudaLaunchAttributeClusterDimension;
	a[0].val.clusterDim.x = csize;
	a[0].val.clusterDim.y = 1;
	a[0].val.clusterDim.z = 1;
	c.attrs = a;
	c.numAttrs = 1;
	cudaError_t e = cudaLaunchKernelEx(&c, f, (const float *)x, y, n, heavy);
	cudaError_t e2 = cudaDeviceSynchronize();
	printf("cluster %d rows %d n %d heavy %d minb %d: %s %s\n", csize, rows, n, heavy, minb, cudaGetErrorString(e),
	       cudaGetErrorString(e2));
	return 0;
}
