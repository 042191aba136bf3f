/* Runtime: inputs from a seed, the CUDA driver runner (dlopen'd), checks against the interpreter.
 */
#ifndef RKC_RUNTIME_H
#define RKC_RUNTIME_H

#include "analysis/analysis.h"

/* Element storage: bf16 and f16 round to nearest even, the way a GPU stores them. */
uint16_t bf16_from_f32(float f);
float bf16_to_f32(uint16_t h);
uint16_t f16_from_f32(float f);
float f16_to_f32(uint16_t h);
/* Element i of an array of type t (resolved, not TY_T); store rounds and saturates. */
double elem_get(Type t, const void *p, int64_t i);
void elem_set(Type t, void *p, int64_t i, double v);
/* Elements of a shape: [M,N] is M*N, [M] is M, [N] is N. */
int64_t shape_count(Shape s, int64_t M, int64_t N);

/* The launch manifest that `rkc compile` writes beside the PTX. */
/* MP_IN, MP_OUT and MP_PARAM are in ParamKind's order. */
typedef enum { MP_IN, MP_OUT, MP_PARAM, MP_DIM, MP_WORKSPACE, MP_REGIONS, MP_STRIDE } MKind;
typedef struct {
	char name[72];
	MKind kind;
	Type type;     /* resolved; f32 for params, i64 for dims and strides */
	Shape shape;   /* SH_SCALAR for params, dims, strides and workspace */
	double def;    /* MP_PARAM: the default value */
	int64_t bytes; /* MP_WORKSPACE: zeroed once before the first launch; MP_REGIONS */
	int align;     /* MP_IN, MP_OUT: the base address is a multiple of this (16 before v3) */
	char of[64];   /* MP_STRIDE: the [M,N] array whose row stride it is */
} MParam;

#define MAX_MPARAMS 132	   /* 64 params, a stride each, M, N, the workspace, the stamps */
#define MANIFEST_VERSION 3 /* the newest this reader takes; docs/manifest.md */

/* The manifest's regions block (rkc compile --regions, docs/regions.md): the stamp buffer is
 * u64 [slots][words]: a slot per row block (per CTA without a persistent grid) holding the CTA
 * that ran it + 1, then words - 1 = n + 1 boundaries in ns (region r from boundary r to r + 1);
 * 1 block in every is stamped, the others' slots stay zero; a region with wait set starts at a
 * CTA's arrival at a combine over group consecutive CTAs, or with grid also set over the whole
 * launch (after a grid's blocks: a CTA's arrival is in the slot of its last stamped block). n is
 * 0 without the block. */
#define MAX_MREGIONS 64
typedef struct {
	int n, group, every;
	int64_t slots;
	int words;
	struct {
		char name[32];
		int wait;
		int grid; /* the wait is over every CTA of the launch ("over": "grid") */
	} r[MAX_MREGIONS];
} MRegions;

typedef struct {
	int version; /* manifest_version: 1 when absent */
	char kernel[64], entry[128], arch[16], policy[32];
	char config[256]; /* the chosen config, compact, for reports */
	Type dtype;
	int64_t M, N;
	MParam params[MAX_MPARAMS];
	int nparams;
	unsigned grid[3], block[3];
	unsigned cluster[3]; /* CTAs a cluster; 1, 1, 1 for none */
	int cooperative;     /* launch cooperatively: every CTA resident at once (coop=1) */
	unsigned dynamic_smem;
	MRegions regions;
	int strides; /* the PTX takes row strides (MP_STRIDE params; version 3) */
	int64_t stride_mod, stride_res; /* stride_rule: stride % mod == res (1 and 0 without) */
} Manifest;

int manifest_parse(Manifest *m, const char *file, const char *json, Diag *d);
/* A kernel and a manifest describe the same params (names, kinds, types, shapes), and a
 * manifest with row strides has one for each [M,N] array. */
int manifest_match(const Manifest *m, const Kernel *k, Diag *d);
/* Whether an [M,N] array (named array) may have rows stride elements apart under the manifest's
 * stride rule (at least N, and N plus a multiple of its modulus): 0, or -1 with d saying why. */
int manifest_stride_check(const Manifest *m, const char *array, int64_t stride, Diag *d);

/* The regions block (block a JSON object) into r: 0, or -1 with d set (runtime/regions.c). */
struct json_t;
int regions_parse(MRegions *r, struct json_t *block, const char *file, Diag *d);

/* One region over the stamped row blocks (slots): the median, mean and max of its duration; its
 * share, the sum over the blocks over the blocks' times summed (a block's first boundary to its
 * last); its kernel level, the share times the stamps' span: the CTA-time spent in it over the
 * mean number of CTAs resident, so the regions' levels add up to the span. For a wait region, the
 * time from a CTA's arrival (the region's start) to its group's last. */
typedef struct {
	char name[32];
	int wait;
	int64_t blocks;
	double med_ns, mean_ns, max_ns, share, level_us;
	double wait_med_ns, wait_max_ns;
	double cta_med_ns,
	    cta_max_ns; /* over CTAs of a CTA's time in it (RegionTable.lives_ctas) */
} RegionStat;
typedef struct {
	RegionStat r[MAX_MREGIONS];
	int n;
	int every;	       /* 1 row block in every was stamped (the manifest's) */
	int64_t ctas;	       /* CTAs that stamped a block */
	int64_t blocks;	       /* slots stamped: row blocks (CTAs without a persistent grid) */
	double kernel_us;      /* the launch's time (events) */
	double floor_us;       /* an empty kernel's launch of the same grid and block (gpu_floor) */
	double span_us;	       /* the first start to the last end, over the stamped blocks */
	double sum_med_us;     /* the regions' medians summed: a row block's time */
	double block_med_us;   /* the median of a stamped block's time */
	double blocks_per_cta; /* the row blocks (slots) over the CTAs launched */
	double cta_us;	       /* sum_med_us * blocks_per_cta: a CTA's life, estimated */
	double sum_level_us;
	double resident; /* CTAs resident on average: the blocks' times (all, estimated from the
			    stamped ones) summed over the span */
	double tick_ns; /* the smallest step between two different stamps: the timer's resolution */
	int dominant;	/* the region with the largest share */
	/* CTAs' whole lives, when the stamps hold them (every block stamped, or a block a CTA):
	 * the CTAs (0 under a sampled grid: none measured), the regions' medians over CTAs of a
	 * CTA's time in each (cta_med_ns) summed, and the median and max of a CTA's life (its
	 * blocks' times summed) */
	int64_t lives_ctas;
	double lives_sum_med_us, life_med_us, life_max_us;
	/* the launch's occupancy, when the runner knows it (0 else): CTAs an SM, SMs, waves */
	int per_sm, sms;
	int64_t grid;
} RegionTable;
/* Reduces the stamps (u64 [info->slots][info->words]) of a launch of nctas CTAs: 0, or -1 with d
 * set when no CTA stamped, or a slot's stamps go backwards, are half written or name no CTA of
 * the launch. */
int regions_reduce(RegionTable *t, const MRegions *info, const uint64_t *stamps, int64_t nctas,
		   Diag *d);
/* The table as rkc run prints it. */
void regions_report(Buf *b, const RegionTable *t);

/* Input distributions, as data (testdata/inputs.json). */
typedef enum {
	D_NORMAL,   /* mean, std */
	D_UNIFORM,  /* lo, hi */
	D_LOGPROBS, /* a row's log-softmax of normal(0, std) logits */
	D_PROBS,    /* a row's softmax: non-negative, sums to one */
	D_LABELS,   /* integers uniform in [0, N); ignore with probability frac, and at row 1 */
	D_MASK,	    /* additive: value with probability frac, else 0; never a whole row */
	D_SELECTED, /* log-prob of the labelled token at a temperature, plus normal(0, std) noise */
	D_BERNOULLI, /* 1 with probability frac, else 0 */
	D_COUNT
} DistKind;

typedef struct {
	DistKind kind;
	double a, b;	    /* normal: mean, std; uniform: lo, hi; (log)probs, selected: std;
			       mask: frac, value; bernoulli: frac; labels: frac, ignore */
	int logits, labels; /* D_SELECTED: the params it reads */
	double temperature; /* D_SELECTED */
} Dist;

/* Each input's distribution from the spec (the whole inputs.json text): the kernel's own entry
 * where it names the input, else the default for the input's type. */
int inputs_spec(Dist *dists, const Kernel *k, const char *file, const char *json, Diag *d);

/* A host array per kernel param: inputs filled, outputs allocated, scalar params holding one
 * element. Storage type, with the interpreter reading exactly what the GPU reads. */
typedef struct {
	Type type;
	int64_t count;
	void *data; /* malloc'd; NULL for none */
} Tensor;

/* Rows are generated independently from (seed, param, row), so the result does not depend on
 * the thread count and a sampled row is the row of the full tensor. */
int inputs_make(Tensor *ts, const Kernel *k, Type dtype, int64_t M, int64_t N, uint64_t seed,
		const Dist *dists, Diag *d);
/* The same, with the rows first_row .. first_row+M-1 of the stream of rows (inputs_make's are
 * 0 .. M-1): the same row lands at another position in a batch of another size. [N] inputs are
 * the same whatever first_row. */
int inputs_make_rows(Tensor *ts, const Kernel *k, Type dtype, int64_t M, int64_t N, uint64_t seed,
		     int64_t first_row, const Dist *dists, Diag *d);
void tensors_free(Tensor *ts, int n);

/* Runs fn over [0, n) split into contiguous ranges, one thread each (RKC_THREADS, default the
 * online CPUs, at most 64); fn must only touch its own range. */
void parallel_for(int64_t n, void (*fn)(void *ctx, int64_t lo, int64_t hi), void *ctx);

/* Rows to compare: all of them when M*N is small enough to interpret whole or the kernel sums
 * over rows (a colsum's output needs every row), else an even spread of 256 that includes the
 * first and the last. Returns the count. */
int64_t sample_rows(const Kernel *k, int64_t M, int64_t N, int64_t **rows);
/* The float64 reference on the sampled rows: ref[p] for each output p, rows packed in order;
 * a colsum's [N] output is the sum over all the rows given. */
int reference_rows(double **ref, const Kernel *k, const Tensor *ts, int64_t M, int64_t N,
		   const int64_t *rows, int64_t nrows, Diag *d);

/* The precision a kernel's results are judged at: the narrowest float array it reads or writes
 * at dtype (bf16 before f16 before f32), so an explicit bf16 array at --dtype fp32 is judged as
 * bf16. Tolerances are looked up by it. */
Type check_dtype(const Kernel *k, Type dtype);
/* Helion's tolerance table, as data (testdata/tolerances.json): the relative L2 bound for the
 * ith output of a kernel at a dtype. */
int tolerance(double *tol, const char *kernel, int out_index, Type dtype, const char *file,
	      const char *json, Diag *d);

/* One output against the reference. Two launches poisoned differently give run1 and run2: an
 * element that differs between them was not written (or not deterministically). Floats compare
 * by relative L2 error, integers within 1. A non-finite element fails unless it is one the
 * reference has too, rounded to the output's type (a true value past fp16's range is inf in
 * both): those are counted in as_ref, left out of the error, and only the checked rows' can be
 * (a non-finite element of an unchecked row fails). */
typedef struct {
	const char *name;
	Type type; /* the output's */
	int is_int;
	double err; /* relative L2 error, or the largest difference for integers */
	double tol;
	int64_t count, nonfinite, unwritten;
	int64_t as_ref;	     /* non-finite in the checked rows as the rounded reference is */
	int64_t pad_written; /* strided rows: padding elements the kernel wrote (rows_unpad) */
	int64_t rows, total_rows;
	int pass;
} Check;

void check_output(Check *c, Type t, const void *run1, const void *run2, int64_t count, int64_t cols,
		  const int64_t *rows, int64_t nrows, const double *ref, double tol);

/* Strided rows (rkc run --pad, the emulator's padded points): rows of cols elements of size
 * bytes, stride elements apart (cols <= stride). rows_pad lays dense src out in dst with the
 * padding after each row (columns cols..stride-1) set to the byte poison; rows_unpad gathers
 * them back into dense dst and returns how many padding elements are no longer all poison: a
 * kernel wrote where it must not have. */
void rows_pad(void *dst, const void *src, int64_t rows, int64_t cols, int64_t stride, size_t size,
	      unsigned char poison);
int64_t rows_unpad(void *dst, const void *src, int64_t rows, int64_t cols, int64_t stride,
		   size_t size, unsigned char poison);

/* The CUDA driver, opened with dlopen: RKC_LIBCUDA names the library, default libcuda.so.1. */
typedef struct Gpu Gpu;
typedef struct GpuFn GpuFn;

Gpu *gpu_open(Diag *d);
void gpu_close(Gpu *g);
const char *gpu_describe(const Gpu *g); /* name, compute capability, SMs, L2, driver */
int gpu_alloc(Gpu *g, uint64_t *ptr, size_t n, Diag *d);
void gpu_free(Gpu *g, uint64_t ptr);
int gpu_upload(Gpu *g, uint64_t dst, const void *src, size_t n, Diag *d);
int gpu_download(Gpu *g, void *dst, uint64_t src, size_t n, Diag *d);
int gpu_fill(Gpu *g, uint64_t dst, unsigned char byte, size_t n, Diag *d);
/* Loads PTX through the driver JIT; the JIT's log goes into the diagnostic on failure. */
GpuFn *gpu_load(Gpu *g, const char *ptx, const char *entry, Diag *d);
void gpu_unload(Gpu *g, GpuFn *f);
/* Registers, local (spill) bytes per thread and static shared bytes the driver JIT gave. */
void gpu_fn_info(const GpuFn *f, int *regs, int *local_bytes, int *shared_bytes);
/* The SMs, and the CTAs of the manifest's launch (block, dynamic shared memory) that fit an SM
 * at once, by the driver's occupancy calculator. */
int gpu_occupancy(Gpu *g, GpuFn *f, const Manifest *m, int *per_sm, int *sms, Diag *d);
/* Launches as the manifest says (grid, block, cluster, dynamic shared memory) and waits, so a
 * fault is reported against this launch. */
int gpu_launch(Gpu *g, GpuFn *f, const Manifest *m, void **args, Diag *d);
/* Median GPU time of launches, each after the L2 is flushed by reading a buffer twice its size. */
int gpu_time(Gpu *g, GpuFn *f, const Manifest *m, void **args, double *median_us, int *reps,
	     Diag *d);
/* The GPU time of one launch after the L2 is flushed as gpu_time flushes it. */
int gpu_time_once(Gpu *g, GpuFn *f, const Manifest *m, void **args, double *us, Diag *d);
/* The GPU time of an empty kernel launched with m's grid and block (no shared memory, cluster or
 * cooperation), timed as gpu_time_once times one: a launch's floor, median of several. */
int gpu_floor(Gpu *g, const Manifest *m, double *us, Diag *d);
/* Device-to-device copy bandwidth, bytes read plus written, GB/s (median of several). */
int gpu_copy_gbps(Gpu *g, double *gbps, Diag *d);

/* A point's host inputs and, once a check has needed it, the reference on its sampled rows:
 * made once and shared by every config run at that point (rkc tune), since both cost more than
 * a launch on wide rows. */
typedef struct RunData RunData;

/* One kernel at one shape: inputs, launch per the manifest, check, time. */
typedef struct {
	uint64_t seed;
	int64_t first_row; /* the inputs are rows first_row.. of the seed's stream (default 0) */
	int64_t
	    digest_row; /* with check: a digest of each output's row at this position; -1 none */
	int check, time;
	int regions;	  /* one more launch, L2 flushed, whose region stamps are reduced */
	double copy_gbps; /* 0: measure it in this run */
	const char *inputs_file, *inputs_json;
	const char *tol_file, *tol_json;
	RunData *data; /* NULL: run_point makes its own for the one run */
	/* with time and regions: the same kernel compiled without --regions and its manifest, timed
	 * before and after the stamped one on the same buffers (RunResult.plain_us); NULL: not */
	const char *plain_ptx;
	const Manifest *plain_m;
	int64_t pad; /* rkc run --pad: [M,N] arrays have rows of N+pad elements, the pad poisoned */
} RunOpts;

#define MAX_CHECKS 8

typedef struct {
	Check checks[MAX_CHECKS];
	int nchecks;
	int pass;
	double us, gbps, copy_gbps;
	int reps;
	double plain_us[2]; /* RunOpts.plain_ptx's time before and after us's run; 0: not timed */
	/* rkc run --time --regions under the sampling rule: the other stamping, run too and not
	 * reported because its stamps cost more (docs/regions.md, "Which stamping"): its every,
	 * its time and its plain kernel's; other_every 0: none */
	int other_every;
	double other_us, other_plain_us[2];
	int64_t bytes;	    /* each input read once, each output written once */
	int64_t digest_row; /* the stream row the digests are of (first_row + position); -1 */
	uint64_t digest[MAX_CHECKS]; /* per output (checks' order), FNV-1a 64 of that row's bytes */
	unsigned char digest_batch[MAX_CHECKS]; /* 1: an [N] output, its digest the whole batch's */
	int regs, local_bytes;
	int64_t pad; /* RunOpts.pad: [M,N] rows N+pad elements apart */
	int has_regions;
	RegionTable regions; /* with RunOpts.regions */
} RunResult;

int run_point(RunResult *r, Gpu *g, const Kernel *k, const Manifest *m, const char *ptx,
	      const RunOpts *o, Diag *d);
/* What a run's stamps cost: its time against the mean of the plain kernel's around it (0 when
 * that was not timed). */
double run_stamps_cost(double us, const double plain_us[2]);
/* The shared data of kernel k at M x N and dtype, from o's seed and input spec; NULL with d set. */
RunData *run_data_new(const Kernel *k, Type dtype, int64_t M, int64_t N, const RunOpts *o, Diag *d);
void run_data_free(RunData *rd);
/* What run_point found, as the lines `rkc run` prints. */
void run_report(Buf *b, const Kernel *k, const Manifest *m, const RunResult *r);

#endif
