/* librkc's one public header: a request in; facts, plan, config, reasons, PTX and manifest out. */
#ifndef RKC_H
#define RKC_H

#include "codegen/codegen.h"

/* What to compile: a verified kernel (frontends' parse_kernel), the shape its config is chosen
 * for, the storage dtype, the arch and the policy. forced overrides knobs of the policy's choice
 * ("r_block=2048,num_warps=8", the --config syntax); cfg, when set, replaces the choice whole
 * (rkc tune's candidates). Either way the config passes the one validator or the request fails. */
typedef struct {
	const Kernel *k;
	int64_t M, N;
	Type dtype;
	const char *arch; /* NULL: sm_90 */
	Policy policy;
	const char *forced; /* or NULL */
	const Config *cfg;  /* or NULL */
	/* 1: batch-invariant (rkc policy only): a row's output bits do not depend on M or on the
	 * row's place in the batch (docs/heuristics.md, "Batch-invariant mode"); forced knobs and
	 * a whole cfg may not change the row's reduction order */
	int batch_invariant;
	int emit; /* 0: stop at the config and its reasons (explain); 1: PTX and manifest */
	/* 1: the spill guard (driver/driver.c): the policy's pick assembled by ptxas, where one is
	 * found, and its min_ctas lowered while ptxas spills SPILL_GUARD bytes or more a thread.
	 * The commands set it; golden points (the policy's own picks) and the tests do not. */
	int guard;

	/* 1: stamp each phase's start and end into a buffer (docs/regions.md); regions_every: 1
	 * row block in this many stamped (0: the sampling rule, regions_every) */
	int regions, regions_every;
} Request;

/* Everything a request produced. choice.reasons are the manifest's: notes on a forced config or
 * a borrowed target first, then the policy's reason for each knob. */
typedef struct {
	Target
	    target; /* the arch's data; an arch without a file borrows sm_80's (a reason says so) */
	Facts facts;
	const Plan *plan; /* the kernel's (k->plan) */
	int passes;	 /* how many times the code streams each row: plan_streams for the config */
	Choice choice;	 /* the config, its modelled cost and the reasons */
	Compile compile; /* what codegen was given */
	Buf ptx, manifest;
	/* explain --ptxas: what ptxas took for the kernel (ptxas.regs 0: not assembled), set by
	 * rkc_explain_ptxas, and the CTAs an SM the cost model counts at those registers */
	PtxasFunc ptxas;
	int ptxas_ctas;
	const char *ptxas_limit;
} Result;

/* Runs the stages in order (driver/driver.c). 0, or -1 with d set; r is valid either way and
 * must be freed with rkc_result_free. */
int rkc_compile(const Request *rq, Result *r, Diag *d);
void rkc_result_free(Result *r);

/* Assembles r's PTX (rq->emit set) with ptxas for its arch and fills r->ptxas, r->ptxas_ctas and
 * r->ptxas_limit (driver/explain.c). 0, or -1 with d set (no ptxas, or it refused the PTX). */
int rkc_explain_ptxas(const Request *rq, Result *r, Diag *d);
/* explain's JSON object for a request and its result (driver/explain.c; docs/heuristics.md lists
 * the fields): malloc'd, indented, keys sorted. */
char *rkc_explain_json(const Request *rq, const Result *r);
/* The spelling every command prints a dtype with: bf16, fp16, fp32 (what --dtype lists). */
const char *rkc_dtype_name(Type t);

/* The on-disk cache (driver/cache.c; docs/cache.md). What a compile left to keep: the PTX, the
 * manifest, and the cubin when one was asked for. */
typedef struct {
	Buf ptx, manifest, cubin; /* cubin.len 0 unless asked for */
	int hit;		  /* 1: read from the cache, nothing compiled */
	char warning[300];	  /* the cache could not be used (the result stands): why; or "" */
} Artifact;

/* The cache's directory: $RKC_CACHE_DIR, else $XDG_CACHE_HOME/rkc, else $HOME/.cache/rkc. */
int rkc_cache_dir(Buf *dir, Diag *d);
/* rkc_compile's PTX and manifest for rq (emit is implied), and ptxas's cubin when cubin is set,
 * through the cache in dir (NULL: rkc_cache_dir; "": none). The key is the kernel's canonical
 * text, shape, dtype, arch, policy, forced knobs or whole config, batch_invariant, the cubin flag
 * (and ptxas's path) and the rkc version and PTX ISA. A cache that cannot be read or written
 * only costs a compile (a->warning says why). 0, or -1 with d set; free a with
 * rkc_artifact_free either way. */
int rkc_compile_cached(const Request *rq, int cubin, const char *dir, Artifact *a, Diag *d);
void rkc_artifact_free(Artifact *a);

/* The spellings every command accepts, decided here once. */
int rkc_parse_arch(const char *s, Diag *d);		 /* RKC_ARCHS (codegen/codegen.h) */
int rkc_parse_dtype(const char *s, Type *t, Diag *d);	 /* bf16, fp16 or f16, fp32 or f32 */
int rkc_parse_policy(const char *s, Policy *p, Diag *d); /* rkc or helion2828 */

#endif
