// A CUDA C kernel with the shape of rkc's cluster rows, for telling compute-sanitizer's synccheck
// reports apart from rkc's code: each CTA of 512 threads sums its slice of a row, combines its
// warps by shuffles and shared memory behind __syncthreads, and the cluster's rank 0 adds the
// CTAs' sums through distributed shared memory between two cluster barriers.
// usage: cluster_probe CLUSTER ROWS N MIN_CTAS   (a row a cluster; MIN_CTAS 1 or 2 an SM)
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;

template <int MIN_CTAS>
__global__ void __launch_bounds__(512, MIN_CTAS) row_sum(const float *x, float *y, int n)
{
	__shared__ float part[16];
	__shared__ float cta_sum;
	cg::cluster_group cl = cg::this_cluster();
	int size = cl.num_blocks(), rank = cl.block_rank(), row = blockIdx.x / size;
	int seg = (n + size - 1) / size, lo = rank * seg, hi = min(n, lo + seg);
	float s = 0;
	for (int i = lo + threadIdx.x; i < hi; i += blockDim.x)
		s += x[(size_t)row * n + i];
	for (int o = 16; o; o >>= 1)
		s += __shfl_xor_sync(0xffffffff, s, o);
	if ((threadIdx.x & 31) == 0)
		part[threadIdx.x >> 5] = s;
	__syncthreads();
	if (threadIdx.x == 0) {
		float t = 0;
		for (int w = 0; w < 16; w++)
			t += part[w];
		cta_sum = t;
	}
	cl.sync();
	if (rank == 0 && threadIdx.x == 0) {
		float t = 0;
		for (int r = 0; r < size; r++)
			t += *cl.map_shared_rank(&cta_sum, r);
		y[row] = t;
	}
	cl.sync(); /* no CTA leaves while rank 0 reads its shared memory */
}

__global__ void
fill(float *x, size_t count)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < count)
		x[i] = 1;
}

int
main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: cluster_probe CLUSTER ROWS N MIN_CTAS\n");
		return 2;
	}
	int size = atoi(argv[1]), rows = atoi(argv[2]), n = atoi(argv[3]), min_ctas = atoi(argv[4]);
	void (*f)(const float *, float *, int) = min_ctas == 2 ? row_sum<2> : row_sum<1>;
	float *x, *y, *h = (float *)malloc(sizeof(float) * rows);
	cudaMalloc(&x, sizeof(float) * rows * n);
	cudaMalloc(&y, sizeof(float) * rows);
	fill<<<(rows * n + 255) / 256, 256>>>(x, (size_t)rows * n); /* each row sums to n exactly */
	cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
	cudaLaunchAttribute a = {};
	a.id = cudaLaunchAttributeClusterDimension;
	a.val.clusterDim.x = size, a.val.clusterDim.y = 1, a.val.clusterDim.z = 1;
	cudaLaunchConfig_t c = {};
	c.gridDim = dim3(rows * size), c.blockDim = dim3(512), c.attrs = &a, c.numAttrs = 1;
	cudaError_t e = cudaLaunchKernelEx(&c, f, (const float *)x, y, n);
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	int bad = 0;
	if (e == cudaSuccess) {
		cudaMemcpy(h, y, sizeof(float) * rows, cudaMemcpyDeviceToHost);
		for (int r = 0; r < rows; r++)
			bad += h[r] != (float)n;
	}
	printf("cluster %d, %d rows of %d, %d CTAs an SM: %s, %d rows wrong\n", size, rows, n,
	       min_ctas, cudaGetErrorString(e), bad);
	return e != cudaSuccess || bad;
}
