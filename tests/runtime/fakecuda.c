/* A stand-in CUDA driver for tests on machines without a GPU: memory is host memory, a launch
 * checks its entry and does nothing (so every output keeps its poison), time advances by 10 µs
 * per event. It lets `rkc run` go through its whole path here. A kernel that reads %globaltimer
 * (rkc compile --regions) gets made-up stamps in its last parameter's buffer, unless
 * RKC_FAKE_STAMPS=0: CTA c's region r for 50 + 5r ns (stamp() says when). With
 * $RKC_FAKECUDA_LOG set, each launch appends a line to that file: the entry, grid, block, dynamic
 * shared memory, cluster and every argument as the PTX's .param list types it, so a test can
 * check what a caller passed. With RKC_FAKE_SCRIBBLE=B (a byte, 0 to 255) a launch writes B over
 * the whole of every allocation its arguments point at, padding between rows included, so a
 * test can see a runner catch writes where none belong. With RKC_FAKE_PTX_DIR set, each module
 * loaded is written to that directory as ENTRY.ptx (ENTRY its first .entry), so a test can
 * assemble what the runtime loads. With RKC_FAKE_SLOW=N, a launch of a module whose PTX is over N
 * bytes takes 12 µs, so a test can time one kernel slower than another. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char *ptx;	 /* a copy, as the driver keeps none of the caller's memory */
	char entry[128]; /* the function last got from it */
} Module;

static int clock_us;

/* The allocations, so a launch knows how large the stamp buffer is. */
static struct {
	CUdeviceptr p;
	size_t n;
} allocs[64];

static CUresult
fInit(unsigned flags)
{
	return CUDA_SUCCESS;
}

static CUresult
fDriverGetVersion(int *v)
{
	*v = 13000;
	return CUDA_SUCCESS;
}

static CUresult
fDeviceGet(CUdevice *d, int ordinal)
{
	*d = ordinal;
	return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

static CUresult
fDeviceGetName(char *name, int len, CUdevice d)
{
	snprintf(name, (size_t)len, "fake GPU");
	return CUDA_SUCCESS;
}

static CUresult
fDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	*v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9
	     : a == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT   ? 4
	     : a == CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE	       ? 1 << 20
							       : 0;
	return CUDA_SUCCESS;
}

static CUresult
fDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	*c = (CUcontext)&clock_us;
	return CUDA_SUCCESS;
}

static CUresult
fOk1(void *a)
{
	return CUDA_SUCCESS;
}

static CUresult
fOk0(void)
{
	return CUDA_SUCCESS;
}

static CUresult
fMemAlloc(CUdeviceptr *p, size_t n)
{
	void *m = malloc(n);
	*p = (CUdeviceptr)(uintptr_t)m;
	for (int i = 0; m && i < 64; i++)
		if (!allocs[i].p) {
			allocs[i].p = *p;
			allocs[i].n = n;
			break;
		}
	return m ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

static CUresult
fMemFree(CUdeviceptr p)
{
	for (int i = 0; p && i < 64; i++)
		if (allocs[i].p == p)
			allocs[i].p = 0;
	free((void *)(uintptr_t)p);
	return CUDA_SUCCESS;
}

static CUresult
fMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	memcpy((void *)(uintptr_t)dst, src, n);
	return CUDA_SUCCESS;
}

static CUresult
fMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	memcpy(dst, (void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

static CUresult
fMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	memcpy((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
	return CUDA_SUCCESS;
}

static CUresult
fMemsetD8(CUdeviceptr p, unsigned char v, size_t n)
{
	memset((void *)(uintptr_t)p, v, n);
	return CUDA_SUCCESS;
}

static CUresult
fMemsetD32Async(CUdeviceptr p, unsigned v, size_t n, CUstream s)
{
	for (size_t i = 0; i < n; i++)
		((unsigned *)(uintptr_t)p)[i] = v;
	return CUDA_SUCCESS;
}

static void
save_ptx(const char *ptx)
{
	const char *dir = getenv("RKC_FAKE_PTX_DIR"), *e = strstr(ptx, ".entry ");
	if (!dir || !*dir || !e)
		return;
	e += strlen(".entry ");
	size_t n = strcspn(e, "( \t\n");
	char path[1024];
	snprintf(path, sizeof path, "%s/%.*s.ptx", dir, (int)(n < 200 ? n : 200), e);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(ptx, f);
		fclose(f);
	}
}

static CUresult
fModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *o, void **v)
{
	if (!strstr(image, ".entry")) {
		for (unsigned i = 0; i < n; i++)
			if (o[i] == CU_JIT_ERROR_LOG_BUFFER)
				snprintf(v[i], 64, "fake JIT: no .entry in the PTX");
		return CUDA_ERROR_INVALID_PTX;
	}
	Module *mod = malloc(sizeof *mod);
	mod->ptx = strdup(image);
	*m = (CUmodule)mod;
	save_ptx(mod->ptx);
	return CUDA_SUCCESS;
}

static CUresult
fModuleLoadData(CUmodule *m, const void *image)
{
	return fModuleLoadDataEx(m, image, 0, NULL, NULL);
}

static CUresult
fModuleUnload(CUmodule m)
{
	free(((Module *)m)->ptx);
	free(m);
	return CUDA_SUCCESS;
}

static CUresult
fModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	char key[256];
	snprintf(key, sizeof key, ".entry %s(", name);
	*f = (CUfunction)m;
	snprintf(((Module *)m)->entry, sizeof((Module *)m)->entry, "%s", name);
	return strstr(((Module *)m)->ptx, key) ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

static CUresult
fFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
	*v = a == CU_FUNC_ATTRIBUTE_NUM_REGS ? 32 : 0;
	return CUDA_SUCCESS;
}

static CUresult
fFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	return CUDA_SUCCESS;
}

/* Two CTAs an SM, whatever the kernel. */
static CUresult
fOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block, size_t smem)
{
	*n = 2;
	return CUDA_SUCCESS;
}

/* The made-up stamps of a kernel compiled with --regions: its last parameter is the buffer, u64
 * [slot][2 + n], n + 1 the boundaries the PTX stamps (a red.global.max each, without a
 * persistent grid; under one, whose loop head stamps too, or where LLVM copied a stamp into the
 * blocks before it, RKC_FAKE_STAMPS gives 2 + n). Slot s (a
 * row block) is CTA s % ctas's (s / ctas)th block, as a static grid walks them (a CTA a slot
 * without one); the CTA + 1, then boundaries from 10^6 + 1000c ns, region r lasting 50 + 5r
 * ns, a CTA's blocks back to back. */
static void
stamp(const char *ptx, unsigned ctas, void **args)
{
	const char *e = getenv("RKC_FAKE_STAMPS");
	const char *entry = strstr(ptx, ".entry"), *close = entry ? strchr(entry, ')') : NULL;
	if ((e && !strcmp(e, "0")) || !strstr(ptx, "%globaltimer") || !close)
		return;
	int np = 0;
	for (const char *q = entry; (q = strstr(q, ".param")) && q < close; q++)
		np++;
	size_t w = 1;
	for (const char *q = ptx; (q = strstr(q, "red.global.max.u64")); q++)
		w++;
	if (e && atoi(e) >= 2)
		w = (size_t)atoi(e);
	CUdeviceptr buf = *(CUdeviceptr *)args[np - 1];
	size_t bytes = 0;
	for (int i = 0; i < 64; i++)
		if (allocs[i].p == buf)
			bytes = allocs[i].n;
	size_t slots = bytes / 8 / w, life = 0;
	for (size_t r = 0; r + 2 < w; r++)
		life += 50 + 5 * r;
	uint64_t *st = (uint64_t *)(uintptr_t)buf;
	for (size_t s = 0; s < slots && w > 2 && slots * w * 8 == bytes; s++) {
		size_t c = s % ctas;
		uint64_t t = 1000000 + 1000 * c + life * (s / ctas);
		st[s * w] = c + 1;
		st[s * w + 1] = t;
		for (size_t r = 0; r + 2 < w; r++)
			st[s * w + 2 + r] = t += 50 + 5 * r;
	}
}

/* RKC_FAKE_SCRIBBLE: every allocation an argument points at, overwritten. */
static void
scribble(const Module *m, void **args)
{
	const char *b = getenv("RKC_FAKE_SCRIBBLE");
	char key[160];
	snprintf(key, sizeof key, ".entry %s(", m->entry);
	const char *p = b ? strstr(m->ptx, key) : NULL, *end = p ? strchr(p, ')') : NULL;
	for (int i = 0; p && end && (p = strstr(p, ".param .")) && p < end; i++, p++) {
		CUdeviceptr v = *(CUdeviceptr *)args[i];
		for (int a = 0; !strncmp(p, ".param .u64", 11) && a < 64; a++)
			if (allocs[a].p && allocs[a].p == v)
				memset((void *)(uintptr_t)v, atoi(b), allocs[a].n);
	}
}

/* The launch's line in $RKC_FAKECUDA_LOG: each argument read as its .param type in the PTX. */
static void
log_launch(const Module *m, const unsigned *dims, unsigned smem, unsigned cluster, int coop,
	   void **args)
{
	const char *path = getenv("RKC_FAKECUDA_LOG");
	FILE *f = path ? fopen(path, "a") : NULL;
	if (!f)
		return;
	fprintf(f, "launch %s grid=%u,%u,%u block=%u,%u,%u smem=%u cluster=%u%s args=", m->entry,
		dims[0], dims[1], dims[2], dims[3], dims[4], dims[5], smem, cluster,
		coop ? " cooperative" : "");
	char key[160];
	snprintf(key, sizeof key, ".entry %s(", m->entry);
	const char *p = strstr(m->ptx, key), *end = p ? strchr(p, ')') : NULL;
	for (int i = 0; p && end && (p = strstr(p, ".param .")) && p < end; i++) {
		p += strlen(".param .");
		const char *sep = i ? "," : "";
		if (!strncmp(p, "u64", 3) || !strncmp(p, "b64", 3))
			fprintf(f, "%s%llu", sep, (unsigned long long)*(uint64_t *)args[i]);
		else if (!strncmp(p, "f32", 3))
			fprintf(f, "%s%.9g", sep, (double)*(float *)args[i]);
		else if (!strncmp(p, "u32", 3) || !strncmp(p, "b32", 3))
			fprintf(f, "%s%u", sep, *(unsigned *)args[i]);
		else
			fprintf(f, "%s?", sep);
	}
	fputc('\n', f);
	fclose(f);
}

static CUresult
launch(CUfunction f, const unsigned *dims, unsigned smem, unsigned cluster, int coop, void **args)
{
	for (int i = 0; i < 6; i++)
		if (!dims[i])
			return CUDA_ERROR_INVALID_VALUE;
	if (!args)
		return CUDA_ERROR_INVALID_VALUE;
	/* events are 10 us apart; the runner's empty kernel (a launch's floor) takes 3 */
	if (!strcmp(((const Module *)f)->entry, "rkc_empty"))
		clock_us -= 7;
	const char *slow = getenv("RKC_FAKE_SLOW");
	if (slow && strlen(((const Module *)f)->ptx) > strtoul(slow, NULL, 10))
		clock_us += 2;
	log_launch((const Module *)f, dims, smem, cluster, coop, args);
	scribble((const Module *)f, args);
	stamp(((const Module *)f)->ptx, dims[0] * dims[1] * dims[2], args);
	return CUDA_SUCCESS;
}

static CUresult
fLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
	      unsigned bz, unsigned smem, CUstream s, void **args, void **extra)
{
	unsigned dims[6] = {gx, gy, gz, bx, by, bz};
	return launch(f, dims, smem, 1, 0, args);
}

/* A cluster launch: the grid must be whole clusters of at most 16 CTAs. A cooperative one: the
 * grid must fit what the stand-in device holds at once, FAKE_RESIDENT CTAs. */
enum { FAKE_RESIDENT = 64 };
static CUresult
fLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **args, void **extra)
{
	unsigned cluster = 1;
	int coop = 0;
	for (unsigned i = 0; i < c->numAttrs; i++)
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) {
			if (c->attrs[i].value.cooperative &&
			    (unsigned long long)c->gridDimX * c->gridDimY * c->gridDimZ >
				FAKE_RESIDENT)
				return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
			coop = c->attrs[i].value.cooperative != 0;
		} else if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
			unsigned x = c->attrs[i].value.clusterDim.x;
			if (!x || x > 16 || c->gridDimX % x)
				return CUDA_ERROR_INVALID_CLUSTER_SIZE;
			cluster = x;
		}
	unsigned dims[6] = {c->gridDimX,  c->gridDimY,	c->gridDimZ,
			    c->blockDimX, c->blockDimY, c->blockDimZ};
	return launch(f, dims, c->sharedMemBytes, cluster, coop, args);
}

/* The clusters of c's shape the stand-in device holds at once: FAKE_RESIDENT CTAs' worth. */
static CUresult
fOccupancyMaxActiveClusters(int *n, CUfunction f, const CUlaunchConfig *c)
{
	unsigned x = 1;
	for (unsigned i = 0; i < c->numAttrs; i++)
		if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
			x = c->attrs[i].value.clusterDim.x;
	*n = (int)(FAKE_RESIDENT / (x ? x : 1));
	return CUDA_SUCCESS;
}

static CUresult
fEventCreate(CUevent *e, unsigned flags)
{
	*e = calloc(1, sizeof(int));
	return CUDA_SUCCESS;
}

static CUresult
fEventDestroy(CUevent e)
{
	free(e);
	return CUDA_SUCCESS;
}

static CUresult
fEventRecord(CUevent e, CUstream s)
{
	clock_us += 10;
	*(int *)e = clock_us;
	return CUDA_SUCCESS;
}

static CUresult
fEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	*ms = (float)(*(int *)b - *(int *)a) / 1000.0f;
	return CUDA_SUCCESS;
}

static CUresult
fGetErrorName(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
		 ? "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"
		 : "CUDA_ERROR_FAKE";
	return CUDA_SUCCESS;
}

static CUresult
fGetErrorString(CUresult r, const char **s)
{
	*s = "an error from the fake driver";
	return CUDA_SUCCESS;
}

static const struct {
	const char *name;
	void *fn;
} table[] = {
    {"cuInit", (void *)fInit},
    {"cuDriverGetVersion", (void *)fDriverGetVersion},
    {"cuDeviceGet", (void *)fDeviceGet},
    {"cuDeviceGetName", (void *)fDeviceGetName},
    {"cuDeviceGetAttribute", (void *)fDeviceGetAttribute},
    {"cuDevicePrimaryCtxRetain", (void *)fDevicePrimaryCtxRetain},
    {"cuDevicePrimaryCtxRelease", (void *)fOk1},
    {"cuCtxSetCurrent", (void *)fOk1},
    {"cuCtxSynchronize", (void *)fOk0},
    {"cuMemAlloc", (void *)fMemAlloc},
    {"cuMemFree", (void *)fMemFree},
    {"cuMemcpyHtoD", (void *)fMemcpyHtoD},
    {"cuMemcpyDtoH", (void *)fMemcpyDtoH},
    {"cuMemcpyDtoDAsync", (void *)fMemcpyDtoDAsync},
    {"cuMemsetD8", (void *)fMemsetD8},
    {"cuMemsetD32Async", (void *)fMemsetD32Async},
    {"cuModuleLoadDataEx", (void *)fModuleLoadDataEx},
    {"cuModuleLoadData", (void *)fModuleLoadData},
    {"cuModuleUnload", (void *)fModuleUnload},
    {"cuModuleGetFunction", (void *)fModuleGetFunction},
    {"cuFuncGetAttribute", (void *)fFuncGetAttribute},
    {"cuFuncSetAttribute", (void *)fFuncSetAttribute},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor",
     (void *)fOccupancyMaxActiveBlocksPerMultiprocessor},
    {"cuOccupancyMaxActiveClusters", (void *)fOccupancyMaxActiveClusters},
    {"cuLaunchKernel", (void *)fLaunchKernel},
    {"cuLaunchKernelEx", (void *)fLaunchKernelEx},
    {"cuEventCreate", (void *)fEventCreate},
    {"cuEventDestroy", (void *)fEventDestroy},
    {"cuEventRecord", (void *)fEventRecord},
    {"cuEventSynchronize", (void *)fOk1},
    {"cuEventElapsedTime", (void *)fEventElapsedTime},
    {"cuGetErrorName", (void *)fGetErrorName},
    {"cuGetErrorString", (void *)fGetErrorString},
};

CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
		    CUdriverProcAddressQueryResult *status)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(symbol, table[i].name)) {
			*pfn = table[i].fn;
			*status = CU_GET_PROC_ADDRESS_SUCCESS;
			return CUDA_SUCCESS;
		}
	*pfn = NULL;
	*status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return CUDA_ERROR_NOT_FOUND;
}

/* The same functions under their exported names (cuda.h's _v2 renames included), for a
 * program linked against this library as libcuda (docs/manifest.md's example). */
CUresult
cuInit(unsigned flags)
{
	return fInit(flags);
}

CUresult
cuDeviceGet(CUdevice *d, int ordinal)
{
	return fDeviceGet(d, ordinal);
}

CUresult
cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	return fDevicePrimaryCtxRetain(c, d);
}

CUresult
cuCtxSetCurrent(CUcontext c)
{
	return CUDA_SUCCESS;
}

CUresult
cuCtxSynchronize(void)
{
	return CUDA_SUCCESS;
}

CUresult
cuModuleLoadData(CUmodule *m, const void *image)
{
	return fModuleLoadData(m, image);
}

CUresult
cuModuleUnload(CUmodule m)
{
	return fModuleUnload(m);
}

CUresult
cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	return fModuleGetFunction(f, m, name);
}

CUresult
cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	return CUDA_SUCCESS;
}

CUresult
cuMemAlloc(CUdeviceptr *p, size_t n)
{
	return fMemAlloc(p, n);
}

CUresult
cuMemFree(CUdeviceptr p)
{
	return fMemFree(p);
}

CUresult
cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n)
{
	return fMemsetD8(p, v, n);
}

CUresult
cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **args, void **extra)
{
	return fLaunchKernelEx(c, f, args, extra);
}

CUresult
cuGetErrorName(CUresult r, const char **s)
{
	return fGetErrorName(r, s);
}
