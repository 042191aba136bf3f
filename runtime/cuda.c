/* The CUDA driver API, loaded with dlopen so rkc builds and runs its other commands without one. */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

/* Entry points are fetched by cuGetProcAddress at the 12.0 ABI: CUDA 13's headers remap names
 * (cuMemAlloc -> _v2, cuEventElapsedTime -> _v2), and asking by version keeps us off that. */
#define ABI_VERSION 12000

#define CU_FNS(X)                                                                                  \
	X(Init, v2000)                                                                             \
	X(DriverGetVersion, v2020)                                                                 \
	X(DeviceGet, v2000)                                                                        \
	X(DeviceGetName, v2000)                                                                    \
	X(DeviceGetAttribute, v2000)                                                               \
	X(DevicePrimaryCtxRetain, v7000)                                                           \
	X(DevicePrimaryCtxRelease, v11000)                                                         \
	X(CtxSetCurrent, v4000)                                                                    \
	X(CtxSynchronize, v2000)                                                                   \
	X(MemAlloc, v3020)                                                                         \
	X(MemFree, v3020)                                                                          \
	X(MemcpyHtoD, v3020)                                                                       \
	X(MemcpyDtoH, v3020)                                                                       \
	X(MemcpyDtoDAsync, v3020)                                                                  \
	X(MemsetD8, v3020)                                                                         \
	X(MemsetD32Async, v3020)                                                                   \
	X(ModuleLoadDataEx, v2010)                                                                 \
	X(ModuleUnload, v2000)                                                                     \
	X(ModuleGetFunction, v2000)                                                                \
	X(FuncGetAttribute, v2020)                                                                 \
	X(FuncSetAttribute, v9000)                                                                 \
	X(OccupancyMaxActiveBlocksPerMultiprocessor, v6050)                                        \
	X(LaunchKernel, v4000)                                                                     \
	X(LaunchKernelEx, v11060)                                                                  \
	X(EventCreate, v2000)                                                                      \
	X(EventDestroy, v4000)                                                                     \
	X(EventRecord, v2000)                                                                      \
	X(EventSynchronize, v2000)                                                                 \
	X(EventElapsedTime, v2000)                                                                 \
	X(GetErrorName, v6000)                                                                     \
	X(GetErrorString, v6000)

struct Gpu {
	void *lib;
#define X(f, v) PFN_cu##f##_##v f;
	CU_FNS(X)
#undef X
	/* optional: only the message of a refused grid of clusters asks it (cooperative_refused) */
	PFN_cuOccupancyMaxActiveClusters_v11070 OccupancyMaxActiveClusters;
	CUdevice dev;
	CUcontext ctx;
	int l2_bytes, sms;
	CUdeviceptr flush; /* read before each timed launch to evict the L2 (ensure_flush) */
	size_t flush_bytes;
	GpuFn *flush_fn; /* the kernel that reads it (FLUSH_PTX) */
	GpuFn *empty_fn; /* a kernel that does nothing (EMPTY_PTX, gpu_floor) */
	char desc[256];
};

struct GpuFn {
	CUmodule mod;
	CUfunction fn;
	int regs, local_bytes, shared_bytes;
};

static void
cu_error(Gpu *g, CUresult r, char *buf, size_t n)
{
	const char *name = NULL, *str = NULL;
	if (g->GetErrorName)
		g->GetErrorName(r, &name);
	if (g->GetErrorString)
		g->GetErrorString(r, &str);
	snprintf(buf, n, "%s (%d): %s", name ? name : "?", (int)r, str ? str : "");
}

/* Every driver call goes through this: the call's text and the driver's word on the error. */
static int
cu_check(Gpu *g, CUresult r, const char *what, Diag *d)
{
	if (r == CUDA_SUCCESS)
		return 0;
	char why[256];
	cu_error(g, r, why, sizeof why);
	return diag(d, "CUDA: %s failed: %s", what, why);
}
#define CU(g, fn, args, d) cu_check((g), (g)->fn args, "cu" #fn, (d))

Gpu *
gpu_open(Diag *d)
{
	const char *path = getenv("RKC_LIBCUDA");
	if (!path || !*path)
		path = "libcuda.so.1";
	Gpu *g = calloc(1, sizeof *g);
	g->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!g->lib) {
		diag(d,
		     "no CUDA driver: %s (this command needs an NVIDIA GPU and its driver; "
		     "RKC_LIBCUDA names the driver library)",
		     dlerror());
		free(g);
		return NULL;
	}
	PFN_cuGetProcAddress_v12000 get;
	*(void **)&get = dlsym(g->lib, "cuGetProcAddress_v2");
	if (!get) {
		diag(d, "CUDA driver %s has no cuGetProcAddress_v2: it predates CUDA 12", path);
		goto fail;
	}
	CUdriverProcAddressQueryResult st;
#define X(f, v)                                                                                    \
	if (get("cu" #f, (void **)&g->f, ABI_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st) ||         \
	    !g->f) {                                                                               \
		diag(d, "CUDA driver %s has no cu" #f, path);                                      \
		goto fail;                                                                         \
	}
	CU_FNS(X)
#undef X
	if (get("cuOccupancyMaxActiveClusters", (void **)&g->OccupancyMaxActiveClusters,
		ABI_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &st))
		g->OccupancyMaxActiveClusters = NULL;
	int ver = 0, major = 0, minor = 0, sms = 0;
	char name[128] = "";
	if (CU(g, Init, (0), d) || CU(g, DriverGetVersion, (&ver), d) ||
	    CU(g, DeviceGet, (&g->dev, 0), d) ||
	    CU(g, DeviceGetName, (name, sizeof name, g->dev), d) ||
	    CU(g, DeviceGetAttribute,
	       (&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g->dev), d) ||
	    CU(g, DeviceGetAttribute,
	       (&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g->dev), d) ||
	    CU(g, DeviceGetAttribute, (&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev),
	       d) ||
	    CU(g, DeviceGetAttribute, (&g->l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, g->dev),
	       d) ||
	    CU(g, DevicePrimaryCtxRetain, (&g->ctx, g->dev), d))
		goto fail;
	if (CU(g, CtxSetCurrent, (g->ctx), d)) {
		g->DevicePrimaryCtxRelease(g->dev);
		g->ctx = NULL;
		goto fail;
	}
	g->sms = sms;
	snprintf(g->desc, sizeof g->desc, "%s, sm_%d%d, %d SMs, %d MiB L2, driver CUDA %d.%d", name,
		 major, minor, sms, g->l2_bytes >> 20, ver / 1000, ver % 1000 / 10);
	return g;
fail:
	dlclose(g->lib);
	free(g);
	return NULL;
}

void
gpu_close(Gpu *g)
{
	if (!g)
		return;
	if (g->flush)
		g->MemFree(g->flush);
	gpu_unload(g, g->flush_fn);
	gpu_unload(g, g->empty_fn);
	g->DevicePrimaryCtxRelease(g->dev);
	dlclose(g->lib);
	free(g);
}

const char *
gpu_describe(const Gpu *g)
{
	return g->desc;
}

int
gpu_alloc(Gpu *g, uint64_t *ptr, size_t n, Diag *d)
{
	CUdeviceptr p = 0;
	if (CU(g, MemAlloc, (&p, n ? n : 1), d))
		return -1;
	*ptr = p;
	return 0;
}

void
gpu_free(Gpu *g, uint64_t ptr)
{
	if (ptr)
		g->MemFree((CUdeviceptr)ptr);
}

int
gpu_upload(Gpu *g, uint64_t dst, const void *src, size_t n, Diag *d)
{
	return n ? CU(g, MemcpyHtoD, ((CUdeviceptr)dst, src, n), d) : 0;
}

int
gpu_download(Gpu *g, void *dst, uint64_t src, size_t n, Diag *d)
{
	return n ? CU(g, MemcpyDtoH, (dst, (CUdeviceptr)src, n), d) : 0;
}

int
gpu_fill(Gpu *g, uint64_t dst, unsigned char byte, size_t n, Diag *d)
{
	return n ? CU(g, MemsetD8, ((CUdeviceptr)dst, byte, n), d) || CU(g, CtxSynchronize, (), d)
		 : 0;
}

GpuFn *
gpu_load(Gpu *g, const char *ptx, const char *entry, Diag *d)
{
	static char info[16384], error[16384];
	info[0] = error[0] = 0;
	CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
			       CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
			       CU_JIT_LOG_VERBOSE};
	void *vals[] = {info, (void *)(uintptr_t)sizeof info, error,
			(void *)(uintptr_t)sizeof error, (void *)(uintptr_t)1};
	GpuFn *f = calloc(1, sizeof *f);
	CUresult r = g->ModuleLoadDataEx(&f->mod, ptx, 5, opts, vals);
	if (r != CUDA_SUCCESS) {
		char why[256];
		cu_error(g, r, why, sizeof why);
		diag(d, "CUDA: loading the PTX failed: %s; JIT log: %s", why,
		     error[0] ? error : info);
		free(f);
		return NULL;
	}
	if (CU(g, ModuleGetFunction, (&f->fn, f->mod, entry), d) ||
	    CU(g, FuncGetAttribute, (&f->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f->fn), d) ||
	    CU(g, FuncGetAttribute, (&f->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f->fn),
	       d) ||
	    CU(g, FuncGetAttribute, (&f->shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f->fn),
	       d)) {
		g->ModuleUnload(f->mod);
		free(f);
		return NULL;
	}
	return f;
}

void
gpu_unload(Gpu *g, GpuFn *f)
{
	if (!f)
		return;
	g->ModuleUnload(f->mod);
	free(f);
}

void
gpu_fn_info(const GpuFn *f, int *regs, int *local_bytes, int *shared_bytes)
{
	*regs = f->regs;
	*local_bytes = f->local_bytes;
	*shared_bytes = f->shared_bytes;
}

int
gpu_occupancy(Gpu *g, GpuFn *f, const Manifest *m, int *per_sm, int *sms, Diag *d)
{
	*sms = g->sms;
	return CU(g, OccupancyMaxActiveBlocksPerMultiprocessor,
		  (per_sm, f->fn, (int)(m->block[0] * m->block[1] * m->block[2]),
		   (size_t)m->dynamic_smem),
		  d);
}

/* The driver refuses a cooperative grid that cannot be resident at once with an error that names
 * neither the grid nor the registers. Where that is why, d says both: a forced config can leave
 * ptxas more registers (a lower min_ctas) than the CTAs an SM the grid needs allow. Only on the
 * failed launch (the attribute for the dynamic shared memory is set by then), so a launch that
 * works costs no query. A grid of clusters (lc's first attribute its shape) is held GPC by GPC,
 * not SM by SM: there the driver counts the clusters it holds at once for lc's shape alone (a
 * driver without that query leaves its own word). */
static int
cooperative_refused(Gpu *g, GpuFn *f, const Manifest *m, const CUlaunchConfig *lc, Diag *d)
{
	unsigned csize = m->cluster[0] * m->cluster[1] * m->cluster[2];
	unsigned long long grid = (unsigned long long)m->grid[0] * m->grid[1] * m->grid[2], fit;
	char held[160];
	Diag q = {0};
	if (csize > 1) {
		CUlaunchConfig c = *lc;
		int clusters = 0;
		c.numAttrs = 1;
		if (!g->OccupancyMaxActiveClusters ||
		    CU(g, OccupancyMaxActiveClusters, (&clusters, f->fn, &c), &q))
			return -1;
		fit = (unsigned long long)clusters * csize;
		snprintf(held, sizeof held,
			 "the device holds %d clusters of %u at once (%llu CTAs)", clusters, csize,
			 fit);
	} else {
		int per_sm = 0, sms = 0;
		if (gpu_occupancy(g, f, m, &per_sm, &sms, &q))
			return -1;
		fit = (unsigned long long)per_sm * sms;
		snprintf(held, sizeof held, "%d fit an SM, %llu over %d SMs", per_sm, fit, sms);
	}
	if (grid <= fit)
		return -1;
	char was[sizeof d->msg];
	snprintf(was, sizeof was, "%s", strncmp(d->msg, "error: ", 7) ? d->msg : d->msg + 7);
	*d = (Diag){0};
	return diag(d,
		    "a cooperative grid of %llu CTAs must be resident at once, but at %d registers "
		    "a thread and %u bytes of dynamic shared memory a CTA, %s: force a higher "
		    "min_ctas (a tighter register cap) or a smaller grid (%s)",
		    grid, f->regs, m->dynamic_smem, held, was);
}

/* Dynamic shared memory always sets the attribute: past 48 KiB a kernel must opt in, and the 48
 * KiB count the static shared memory too (a CTA with 48 KiB of rows and its partials needs it).
 * Past 8 CTAs a cluster must opt in too. A cluster's shape is not in the PTX (LLVM 19 cannot emit
 * .reqnctapercluster), so it goes with the launch, through cuLaunchKernelEx; so does a cooperative
 * launch (coop=1), whose row blocks' CTAs wait for each other. */
static int
launch(Gpu *g, GpuFn *f, const Manifest *m, void **args, Diag *d)
{
	unsigned smem = m->dynamic_smem;
	unsigned csize = m->cluster[0] * m->cluster[1] * m->cluster[2];
	if (smem > 0 && CU(g, FuncSetAttribute,
			   (f->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem), d))
		return -1;
	if (csize == 1 && !m->cooperative)
		return CU(g, LaunchKernel,
			  (f->fn, m->grid[0], m->grid[1], m->grid[2], m->block[0], m->block[1],
			   m->block[2], smem, NULL, args, NULL),
			  d);
	if (csize > 8 && CU(g, FuncSetAttribute,
			    (f->fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1), d))
		return -1;
	/* a grid of clusters with sums over rows is both */
	CUlaunchAttribute at[2];
	unsigned n = 0;
	if (csize > 1) {
		at[n] = (CUlaunchAttribute){.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
		at[n].value.clusterDim.x = m->cluster[0];
		at[n].value.clusterDim.y = m->cluster[1];
		at[n++].value.clusterDim.z = m->cluster[2];
	}
	if (m->cooperative) /* the driver refuses a grid that cannot be resident at once */
		at[n++] = (CUlaunchAttribute){.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE,
					      .value.cooperative = 1};
	CUlaunchConfig lc = {.gridDimX = m->grid[0],
			     .gridDimY = m->grid[1],
			     .gridDimZ = m->grid[2],
			     .blockDimX = m->block[0],
			     .blockDimY = m->block[1],
			     .blockDimZ = m->block[2],
			     .sharedMemBytes = smem,
			     .attrs = at,
			     .numAttrs = n};
	if (CU(g, LaunchKernelEx, (&lc, f->fn, args, NULL), d))
		return m->cooperative ? cooperative_refused(g, f, m, &lc, d) : -1;
	return 0;
}

int
gpu_launch(Gpu *g, GpuFn *f, const Manifest *m, void **args, Diag *d)
{
	return launch(g, f, m, args, d) || CU(g, CtxSynchronize, (), d);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The L2 is flushed by reading a buffer twice its size, not by writing one. A write leaves the L2
 * full of dirty lines, and the timed kernel then pays for writing them back as its own lines
 * evict them: on the H100, 8 us at 100 MB, so a memcpy of 100 MB timed after a write ran at 87%
 * of the 1 GiB copy rate, and at 101% after a read (docs/design.md, "Timing"). The reading kernel
 * folds every word it loads into one, stored only if it equals a value the zero-filled buffer
 * cannot give, so no load can be dropped. */
static const char FLUSH_PTX[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry rkc_flush(.param .u64 p, .param .u64 n)\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<10>;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd2, [n];\n"
    "\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
    "\tmov.u32 %r4, %nctaid.x;\n\tmul.wide.u32 %rd3, %r1, %r2;\n\tcvt.u64.u32 %rd4, %r3;\n"
    "\tadd.s64 %rd3, %rd3, %rd4;\n\tmul.wide.u32 %rd5, %r4, %r2;\n\tmov.u32 %r5, 0;\n"
    "LOOP:\n\tsetp.ge.u64 %p1, %rd3, %rd2;\n\t@%p1 bra DONE;\n\tshl.b64 %rd6, %rd3, 4;\n"
    "\tadd.s64 %rd7, %rd1, %rd6;\n\tld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd7];\n"
    "\txor.b32 %r5, %r5, %r6;\n\txor.b32 %r5, %r5, %r7;\n\txor.b32 %r5, %r5, %r8;\n"
    "\txor.b32 %r5, %r5, %r9;\n\tadd.s64 %rd3, %rd3, %rd5;\n\tbra.uni LOOP;\n"
    "DONE:\n\tsetp.ne.u32 %p2, %r5, 1;\n\t@%p2 bra END;\n\tst.global.u32 [%rd1], %r5;\n"
    "END:\n\tret;\n}\n";

static int
ensure_flush(Gpu *g, Diag *d)
{
	if (g->flush)
		return 0;
	g->flush_bytes = (size_t)(g->l2_bytes > 0 ? g->l2_bytes : 64 << 20) * 2;
	if (!g->flush_fn && !(g->flush_fn = gpu_load(g, FLUSH_PTX, "rkc_flush", d)))
		return -1;
	CUdeviceptr p = 0;
	if (CU(g, MemAlloc, (&p, g->flush_bytes), d))
		return -1;
	if (gpu_fill(g, p, 0, g->flush_bytes, d)) {
		g->MemFree(p);
		return -1;
	}
	g->flush = p;
	return 0;
}

/* One pass over the flush buffer, 16 bytes a thread a step, four CTAs of 512 threads an SM. */
static int
flush_l2(Gpu *g, Diag *d)
{
	CUdeviceptr p = g->flush;
	unsigned long long n = g->flush_bytes / 16;
	void *args[] = {&p, &n};
	return CU(g, LaunchKernel,
		  (g->flush_fn->fn, (unsigned)(g->sms > 0 ? g->sms : 1) * 4, 1, 1, 512, 1, 1, 0,
		   NULL, args, NULL),
		  d);
}

/* Each timed launch is bracketed by its own events after a flush of the L2; the median of the
 * per-launch times keeps a stray slow launch (clock ramp, another process) out of the figure. */
static int
time_loop(Gpu *g, GpuFn *f, const Manifest *m, void **args, CUdeviceptr src, CUdeviceptr dst,
	  size_t copy_bytes, int reps, double *ms, Diag *d)
{
	CUevent *ev = calloc((size_t)reps * 2, sizeof(CUevent));
	int rc = 0, made = 0;
	for (; made < reps * 2 && !rc; made++)
		rc = CU(g, EventCreate, (&ev[made], CU_EVENT_DEFAULT), d);
	if (rc)
		made--;
	for (int i = 0; i < reps && !rc; i++) {
		rc = flush_l2(g, d);
		if (!rc)
			rc = CU(g, EventRecord, (ev[2 * i], NULL), d);
		if (!rc)
			rc = f ? launch(g, f, m, args, d)
			       : CU(g, MemcpyDtoDAsync, (dst, src, copy_bytes, NULL), d);
		if (!rc)
			rc = CU(g, EventRecord, (ev[2 * i + 1], NULL), d);
	}
	if (!rc)
		rc = CU(g, CtxSynchronize, (), d);
	for (int i = 0; i < reps && !rc; i++) {
		float t = 0;
		rc = CU(g, EventElapsedTime, (&t, ev[2 * i], ev[2 * i + 1]), d);
		ms[i] = t;
	}
	for (int i = 0; i < made; i++)
		g->EventDestroy(ev[i]);
	free(ev);
	return rc;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
gpu_time(Gpu *g, GpuFn *f, const Manifest *m, void **args, double *median_us, int *reps, Diag *d)
{
	double probe[5];
	if (ensure_flush(g, d) || gpu_launch(g, f, m, args, d) ||
	    time_loop(g, f, m, args, 0, 0, 0, 5, probe, d))
		return -1;
	/* About 0.3 s of kernel time, at least 20 and at most 1000 launches. */
	double est = median(probe, 5);
	int n = est > 0 ? (int)(300.0 / est) : 1000;
	n = n < 20 ? 20 : n > 1000 ? 1000 : n;
	double *ms = malloc(sizeof(double) * (size_t)n);
	int rc = time_loop(g, f, m, args, 0, 0, 0, n, ms, d);
	if (!rc) {
		*median_us = median(ms, n) * 1e3;
		*reps = n;
	}
	free(ms);
	return rc;
}

int
gpu_time_once(Gpu *g, GpuFn *f, const Manifest *m, void **args, double *us, Diag *d)
{
	double ms = 0;
	if (ensure_flush(g, d) || time_loop(g, f, m, args, 0, 0, 0, 1, &ms, d))
		return -1;
	*us = ms * 1e3;
	return 0;
}

/* A launch's floor: a kernel that returns at once, launched with m's grid and block (no shared
 * memory, cluster or cooperation) and timed as gpu_time_once times one, the median of
 * FLOOR_REPS. What the events of a launch count that no CTA's work does: the launch itself, the
 * CTAs' dispatch and retirement. */
static const char EMPTY_PTX[] = ".version 7.0\n.target sm_80\n.address_size 64\n"
				".visible .entry rkc_empty()\n{\n\tret;\n}\n";
enum { FLOOR_REPS = 21 };

int
gpu_floor(Gpu *g, const Manifest *m, double *us, Diag *d)
{
	if (ensure_flush(g, d) ||
	    (!g->empty_fn && !(g->empty_fn = gpu_load(g, EMPTY_PTX, "rkc_empty", d))))
		return -1;
	Manifest *e = calloc(1, sizeof *e);
	if (!e)
		return diag(d, "out of memory for a launch's floor");
	memcpy(e->grid, m->grid, sizeof e->grid);
	memcpy(e->block, m->block, sizeof e->block);
	e->cluster[0] = e->cluster[1] = e->cluster[2] = 1;
	void *none[1] = {NULL};
	double ms[FLOOR_REPS];
	int rc = time_loop(g, g->empty_fn, e, none, 0, 0, 0, FLOOR_REPS, ms, d);
	if (!rc)
		*us = median(ms, FLOOR_REPS) * 1e3;
	free(e);
	return rc;
}

int
gpu_copy_gbps(Gpu *g, double *gbps, Diag *d)
{
	/* 1 GiB each way: the L2 holds a negligible part of it. */
	size_t bytes = (size_t)1 << 30;
	CUdeviceptr src = 0, dst = 0;
	double ms[20];
	int rc = ensure_flush(g, d) || CU(g, MemAlloc, (&src, bytes), d) ||
		 CU(g, MemAlloc, (&dst, bytes), d) || CU(g, MemsetD8, (src, 0x5a, bytes), d) ||
		 time_loop(g, NULL, NULL, NULL, src, dst, bytes, 20, ms, d);
	if (!rc)
		*gbps = 2.0 * (double)bytes / (median(ms, 20) * 1e-3) / 1e9;
	if (dst)
		g->MemFree(dst);
	if (src)
		g->MemFree(src);
	return rc ? -1 : 0;
}
