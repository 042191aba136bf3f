/* Codegen: a verified kernel and a Config -> LLVM IR -> PTX; the launch manifest; ptxas reports. */
#ifndef RKC_CODEGEN_H
#define RKC_CODEGEN_H

#include "heuristics/heuristics.h"

/* What one compile is for: the arch, the storage type T and the shape the config was chosen for.
 * The kernel takes M and N at launch; it is correct for any M, and for any N that keeps the config
 * valid (r_block >= the row segment when persistent, N no larger than compiled when smem=1). When
 * the compile's N is not a multiple of vec, rows start misaligned and each row's misaligned head
 * and its tail are read element by element; compiled for such an N, the kernel is correct for any
 * N, else for multiples of vec. */
typedef struct {
	const char *arch; /* one of RKC_ARCHS */
	Type dtype;	  /* TY_BF16, TY_F16 or TY_F32 */
	int64_t M, N;
	Config cfg;
	int regions;	   /* --regions: stamp each phase's start and end (docs/regions.md) */
	int regions_every; /* --regions-every: 1 row block in this many stamped; 0: the rule */
} Compile;

/* One region of the workspace: round_up(per_row * M + fixed, align) bytes, after the region
 * before it. The caller zeroes the whole workspace once; docs/manifest.md says when again. */
typedef struct {
	const char *name;
	int64_t per_row, fixed;
	int align;
} WsRegion;
#define MAX_WS_REGIONS 6

/* The launch, as numbers for the compile's shape (docs/codegen.md gives the formulas). Each
 * field is written to the manifest (codegen/manifest.c) as it stands. */
typedef struct {
	int64_t grid_x; /* cdiv(M, rows_per_cta) * segments, at most grid_cap; grid_cap itself
			 * under columns */
	int64_t blocks; /* cdiv(M, rows_per_cta) * segments: grid_x without the cap (columns:
			 * grid_x, the --regions slots) */
	int columns;	/* colpass_whole: every CTA a slice of the columns, whatever M */
	int rows_per_cta;
	int segments;	  /* CTAs a row: split, or cluster */
	int64_t grid_cap; /* a persistent grid's CTAs (the config's grid); 0: none */
	int block_x;
	int cluster_x;		 /* CTAs a cluster: 1, or cluster (the PTX does not say it) */
	int cooperative;	 /* 1: launch cooperatively, every CTA resident (coop=1) */
	int64_t dynamic_smem;	 /* bytes, given at launch: the rows kept on chip */
	int64_t workspace_bytes; /* codegen_workspace_bytes at the compile's M; 0 for none */
	int nworkspace;		 /* workspace floats per (row, segment) */
	WsRegion ws[MAX_WS_REGIONS];
	int nws; /* 0 when the kernel takes no workspace */
} Launch;

/* The ABI (docs/codegen.md): the kernel's params in declaration order, then M and N (i64), then
 * a row stride (i64, in elements) for each [M,N] array in declaration order, then the workspace
 * when the kernel takes one, then --regions' stamp buffer. codegen_strides gives the [M,N]
 * arrays in that order (their param indices into of, when not NULL) and returns how many. */
int codegen_strides(const Kernel *k, int *of);
/* The bytes a vec-wide access of elements of size bytes is aligned to: vec*size, at most 16. */
int codegen_access_align(int vec, int size);
/* The bytes array param p's base address must be a multiple of: what its accesses under c need
 * (lower_mem.c): a vec-wide access for an [M,N] array that is loaded or stored, and for an [N]
 * array when rows start aligned (a shifted row reads it element by element); else its element
 * size ([M] arrays, gathers, vec 1). */
int codegen_array_align(const Kernel *k, const Compile *c, int p);

/* An arch codegen emits for (codegen/check.c holds the list). */
typedef struct {
	const char *name;    /* what --arch takes: "sm_100" */
	const char *cpu;     /* the CPU LLVM's NVPTX back end emits for: "sm_90" */
	const char *ptx_isa; /* NULL: the header LLVM writes; else the PTX ISA written over its
				.version, with .target the arch's name ("8.6") */
	int clusters;	     /* 1: thread-block clusters (sm_90 and later) */
	int fp8_cvt;	     /* 1: cvt.rn.satfinite to e4m3x2/e5m2x2 (sm_90 and later; sm_89's
				needs PTX ISA 8.1, over the 7.8 LLVM 19 writes for it) */
	int clc;	     /* 1: cluster launch control (sm_100, PTX ISA 8.6): a CTA cancels the
				launch of one not yet running and takes its work */
} Arch;
/* The spellings, as every message and --help lists them; test_codegen holds it to the table. */
#define RKC_ARCHS "sm_80, sm_86, sm_89, sm_90 or sm_100"

/* Checks everything LLVM would otherwise abort on: arch, dtype, shape, then the emit level of the
 * config validator (heuristics/validate.c). */
int codegen_check(const Kernel *k, const Compile *c, Diag *d);
int codegen_arch(const char *arch, Diag *d);	 /* 0 when codegen can emit for arch */
const Arch *codegen_arch_info(const char *arch); /* NULL when it cannot */
const Arch *codegen_archs(int *n);		 /* the table, n entries */
void codegen_launch(const Kernel *k, const Compile *c, Launch *l);
/* The lanes c's column pass takes (colpass_lanes) over the slice a CTA of its launch sums, at
 * its threads, min_ctas and a row's words (plan_colpass_row_words): lower_sched.c. rkc explain
 * names the same (heuristics: colpass_lanes_run); tests/codegen checks they agree. */
void codegen_colpass_lanes(const Kernel *k, const Compile *c, ColpassLanes *ln);
/* 1 when c's dynamic grid takes its next row block by cluster launch control, not the work
 * counter: the arch has it (lower_sched.c). */
int codegen_clc(const Compile *c);
/* The bytes of l's workspace for a launch of M rows. */
int64_t codegen_workspace_bytes(const Launch *l, int64_t M);
/* The byte offset of l's workspace region name for a launch of M rows. */
int64_t codegen_ws_offset(const Launch *l, const char *name, int64_t M);
/* FNV-1a, 64 bits, continuing from h (start with CODEGEN_FNV_BASIS): the manifest's kernel hash. */
#define CODEGEN_FNV_BASIS 0xcbf29ce484222325ull
uint64_t codegen_fnv1a(uint64_t h, const void *p, size_t n);

/* The PTX ISA of the PTX emitted for arch (its .version line): codegen/emit.c. */
const char *codegen_ptx_isa(const char *arch);

/* Lowers and emits PTX text into ptx (NUL-terminated). With llvm non-NULL, also the optimised
 * LLVM IR. Returns 0, or -1 with d set (config errors and LLVM errors alike; never aborts for a
 * config that codegen_check accepted). */
int codegen_ptx(const Kernel *k, const Compile *c, Buf *ptx, Buf *llvm, Diag *d);

/* Runs the kernel on the host CPU, for tests without a GPU: lowered as for the GPU but with
 * host pointers and the nvvm intrinsics as host functions, JIT-compiled, and launched over the
 * whole grid one CTA at a time with a thread per GPU thread, so shuffles and barriers behave as
 * on the GPU. args as for cuLaunchKernel: a pointer to each kernel parameter, in manifest order.
 * The approximate math is exact here: this checks the logic, not the rounding. */
int codegen_emulate(const Kernel *k, const Compile *c, void **args, Diag *d);
/* The most threads the emulator runs at once: a kernel with sums over rows, whose CTAs all wait at
 * the combine, is refused past this many in its grid. Under the sanitizers each thread takes
 * several memory maps: 32768 threads ran out of them. */
enum { EMU_POOL_THREADS = 8192 };

/* The manifest's version, which names the ABI too (docs/manifest.md): 3, row strides. The
 * compile cache keys on it, so an entry from before an ABI change is never read as current. */
#define CODEGEN_MANIFEST_VERSION 3

/* The launch manifest (docs/codegen.md), deterministic, with a trailing newline;
 * batch_invariant: whether the config was chosen in the batch-invariant mode. */
void codegen_manifest(Buf *b, const Kernel *k, const Compile *c, const char *policy,
		      int batch_invariant, const char *const *reasons, int nreasons);

/* One function of a ptxas -v report. Absent fields are 0. */
typedef struct {
	char name[128];
	int regs, barriers;
	long stack, spill_stores, spill_loads, smem, cum_stack;
} PtxasFunc;
/* Parses ptxas -v text (its stderr); returns the number of functions stored (at most max). */
int ptxas_parse(const char *text, PtxasFunc *out, int max);
/* The ptxas binary: PATH first, then $CUDA_HOME/bin, then /usr/local/cuda/bin; NULL when none. */
const char *ptxas_path(void);
/* Runs ptxas -v -arch=ARCH on the PTX text; log gets its stderr. Returns 0 when ptxas accepts. */
int ptxas_run(const char *ptx, const char *arch, Buf *log, Diag *d);
/* The same, keeping what ptxas writes: the cubin (an ELF, binary: cubin->len bytes). */
int ptxas_assemble(const char *ptx, const char *arch, Buf *cubin, Buf *log, Diag *d);

/* --regions: a kernel's regions in the order a CTA runs them (the stamp buffer's layout,
 * docs/regions.md). wait: its start is a CTA's arrival at a combine across the group's CTAs
 * (WAIT_GROUP: a cluster, or a split row's segments, group CTAs consecutive in x) or across the
 * whole grid (WAIT_GRID: after a grid's blocks, the colsum combine and the column pass's wait for
 * row values). The buffer is u64
 * [slot][2 + n]: a slot per row block (per CTA without a persistent grid), holding the CTA that
 * ran it + 1, then the n + 1 boundaries (region r from boundary r to r + 1), each the latest of
 * the CTA's warps to pass it. */
#define MAX_REGIONS 64
enum { WAIT_NONE, WAIT_GROUP, WAIT_GRID };
typedef struct {
	char name[32];
	int wait;
} Region;
typedef struct {
	Region r[MAX_REGIONS];
	int n, group;
	int every; /* 1 row block in every is stamped (regions_every) */
} Regions;
/* Sampling: without a persistent grid, row block rb (its CTAs: a split row's or a cluster's) is
 * stamped when rb % every == 0 or it is the last (so that the stamps span the launch's waves);
 * under a grid, a CTA's i-th block (from 0) when (i + ctaid) % every == 0, so the stamped blocks
 * are spread over every CTA's walk. A block that is not
 * stamped runs a copy of the row code without the stamps (docs/regions.md). every: the slots
 * (row blocks times the CTAs a row) over REGIONS_SAMPLES, from 1 to REGIONS_EVERY_MAX, or
 * c->regions_every when set (1 to REGIONS_EVERY_LIMIT: 1 stamps every block, so that a CTA's
 * whole life under a grid is measured). */
#define REGIONS_SAMPLES 64
#define REGIONS_EVERY_MAX 16
#define REGIONS_EVERY_LIMIT (1 << 20)
int regions_every(const Compile *c);
/* Whether slot s of a launch of blocks row blocks with a static order (no work counter) is
 * stamped: the rule above over the slot's row block (segments CTAs a row) or, under a grid of
 * grid CTAs, the CTA's walk. The lowering emits the same rule; the emulator's tests hold them
 * equal. */
int regions_slot_stamped(int every, int64_t s, int64_t grid, int segments, int64_t blocks);
/* The regions the lowering marks for c (none when c->regions is 0), from a lowering of its own
 * (emit.c): 0, or -1 with d set. */
int codegen_regions(const Kernel *k, const Compile *c, Regions *out, Diag *d);
/* The manifest's regions parameter and its block (a slot for each of l's blocks). */
void regions_manifest_param(Buf *b, const Regions *rs, const Launch *l);
void regions_manifest(Buf *b, const Regions *rs, const Launch *l);

/* lower.c: builds the kernel into an LLVM module (LLVMContextRef, LLVMModuleRef); host: for
 * the host CPU and the emulator instead of NVPTX. */
struct LLVMOpaqueContext;
struct LLVMOpaqueModule;
int lower_kernel(const Kernel *k, const Compile *c, int host, struct LLVMOpaqueContext *cx,
		 struct LLVMOpaqueModule *mod, Diag *d);
/* regions.c: the regions lower_kernel left in mod's metadata (rkc.regions), appended to out. */
void regions_read(struct LLVMOpaqueModule *mod, Regions *out);

#endif
