/* Emulation: the kernel lowered for the host, JIT-compiled, and run as a grid of CPU threads. */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen/codegen.h"

/* One CTA in flight: its barrier, a barrier per warp, the words a shuffle exchanges and its
 * shared memory (the lowering places every shared array in it, see shared_arrays). */
typedef struct {
	pthread_barrier_t cta;
	pthread_barrier_t warp[32];
	float xchg[1024];
	int vote; /* barrier0.or's */
	unsigned char *smem;
} Cta;

/* The CTAs of a cluster run together: the cluster barrier holds all their threads. */
typedef struct {
	Cta *cta;
	int n;
	pthread_barrier_t all;
} Cluster;

typedef struct Unit Unit;

typedef struct {
	void (*fn)(void **);
	void **args;
	Cluster *cl;
	Cta *cta;
	unsigned tid, ctaid, nctaid;
	Unit *unit;
} Thread;

/* The CTAs in flight: units (a cluster each, or one CTA without clusters) that start in ctaid
 * order as earlier ones finish, like CTAs taking the SMs that free up. next is the first ctaid
 * not yet started or taken off the launch by a running CTA's try_cancel (emu_clc_try_cancel). */
typedef struct {
	pthread_mutex_t mu;
	pthread_cond_t freed; /* a unit's last thread returned */
	int64_t next, grid;
	int misaligned; /* the first access at an address its alignment does not divide */
	uint64_t addr, align;
} Pool;

struct Unit {
	Cluster cl;
	Thread *th;
	pthread_t *pt;
	int live, busy; /* threads not yet returned; started and not yet joined */
	Pool *pool;
};

/* Threads one emulated cluster may start at once (a cluster of 8 CTAs of 1024 threads, as many
 * as a grid with sums over rows runs at once); threads in flight in a pool of several. */
enum { MAX_EMU_THREADS = EMU_POOL_THREADS };

static __thread Thread *self;

static unsigned
emu_tid(void)
{
	return self->tid;
}

static unsigned
emu_ctaid(void)
{
	return self->ctaid;
}

static unsigned
emu_nctaid(void)
{
	return self->nctaid;
}

/* Barriers passed and fences made, by any thread: while it moves, the CTAs a wait waits for are
 * not hung (emu_nanosleep). */
static unsigned long progress;

/* A barrier wait; one of the threads it lets go counts it as progress. */
static void
pass(pthread_barrier_t *b)
{
	if (pthread_barrier_wait(b) == PTHREAD_BARRIER_SERIAL_THREAD)
		__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
}

static void
emu_barrier0(void)
{
	pass(&self->cta->cta);
}

/* bar.red.or: the barrier, and whether any thread's predicate was non-zero. */
static int
emu_barrier0_or(int p)
{
	Cta *c = self->cta;
	if (p)
		__atomic_store_n(&c->vote, 1, __ATOMIC_SEQ_CST);
	pass(&c->cta);
	int r = __atomic_load_n(&c->vote, __ATOMIC_SEQ_CST);
	pass(&c->cta);
	if (self->tid == 0)
		__atomic_store_n(&c->vote, 0, __ATOMIC_SEQ_CST);
	pass(&c->cta);
	return r;
}

static void *
emu_smem_base(void)
{
	return self->cta->smem;
}

/* mapa: the same offset in another CTA of the cluster's shared memory. */
static void *
emu_mapa(void *p, int rank)
{
	return self->cl->cta[rank].smem + ((unsigned char *)p - self->cta->smem);
}

/* An access at an address its alignment does not divide (a GPU faults on it): the launch
 * keeps the first. */
static void
emu_misaligned(uint64_t addr, uint64_t align)
{
	Pool *p = self->unit->pool;
	if (!__atomic_exchange_n(&p->misaligned, 1, __ATOMIC_SEQ_CST)) {
		p->addr = addr;
		p->align = align;
	}
}

/* cp.async: the copy happens at once, so waiting for it does nothing; both addresses must be
 * aligned to its size. */
static void
cp_async(void *dst, const void *src, uintptr_t n)
{
	if (((uintptr_t)dst | (uintptr_t)src) % n)
		emu_misaligned((uintptr_t)dst % n ? (uintptr_t)dst : (uintptr_t)src, n);
	memcpy(dst, src, n);
}

static void
emu_cp_async_4(void *dst, const void *src)
{
	cp_async(dst, src, 4);
}

static void
emu_cp_async_8(void *dst, const void *src)
{
	cp_async(dst, src, 8);
}

static void
emu_cp_async_16(void *dst, const void *src)
{
	cp_async(dst, src, 16);
}

static void
emu_cp_async_commit(void)
{
}

static void
emu_cp_async_wait(int pending)
{
	(void)pending;
}

/* barrier.cluster: the lowering always waits right after it arrives, so arriving does nothing
 * and waiting is the whole barrier. */
static void
emu_cluster_arrive(void)
{
}

static void
emu_cluster_wait(void)
{
	pass(&self->cl->all);
}

/* clusterlaunchcontrol.try_cancel (sm_100's dynamic grid, codegen/lower_sched.c): the launch
 * gives up the next CTA it has not started, whose ctaid the caller takes as its next block; -1
 * when it has started them all. */
static int64_t
emu_clc_try_cancel(void)
{
	Pool *p = self->unit->pool;
	int64_t b = __atomic_fetch_add(&p->next, 1, __ATOMIC_SEQ_CST);
	return b < p->grid ? b : -1;
}

/* %globaltimer: a monotonic clock in ns. */
static uint64_t
emu_globaltimer(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A wait for other CTAs at an exchange (ws_arrive_wait, codegen/lower_red.c) naps until their
 * count is in, then fences. The CTAs it waits for run at the same time here, so a wait through
 * which no thread passed a barrier or fenced for EMU_WAIT_MAX_S never ends, and on the GPU the
 * kernel would hang: the run stops with that, where it would sit until ctest's timeout (the hang
 * of the sampled cooperative rows under --regions, commit e9e6ca8, did). A waiting CTA's other
 * threads sit at the barrier after the wait, so only the CTAs it waits for make progress. Wall
 * time alone is not enough: under ctest -j2 on two cores thousands of threads took over 60 s to
 * reach an exchange, and were not hung. */
#define EMU_WAIT_MAX_S 60
static __thread uint64_t wait_since; /* ns, when this thread's wait last saw progress; 0: none */
static __thread unsigned long wait_seen; /* the progress it saw then */

/* nanosleep in a CTA's wait for others: sleep, so the threads of the others run. */
static void
emu_nanosleep(int ns)
{
	(void)ns;
	uint64_t t = emu_globaltimer();
	unsigned long p = __atomic_load_n(&progress, __ATOMIC_RELAXED);
	if (!wait_since || p != wait_seen) {
		wait_since = t;
		wait_seen = p;
	} else if (t - wait_since > (uint64_t)EMU_WAIT_MAX_S * 1000000000u) {
		static int told;
		if (!__atomic_exchange_n(&told, 1, __ATOMIC_SEQ_CST))
			fprintf(
			    stderr,
			    "emulate: a CTA has waited at an exchange for %d s in which no thread "
			    "passed a barrier or fenced: the other CTAs never reach it; on the GPU "
			    "this kernel would hang\n",
			    EMU_WAIT_MAX_S);
		_exit(1); /* now, from this thread: the others are blocked at barriers */
	}
	nanosleep(&(struct timespec){0, 20000}, NULL);
}

/* the fence after a wait (and elsewhere): the wait, if any, is over */
static void
emu_membar(void)
{
	wait_since = 0;
	__atomic_add_fetch(&progress, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Every lane of the warp publishes its value, then reads its source lane's. */
static float
shuffle(float v, unsigned src)
{
	unsigned w = self->tid / 32;
	self->cta->xchg[self->tid] = v;
	pass(&self->cta->warp[w]);
	float r = self->cta->xchg[w * 32 + (src & 31)];
	pass(&self->cta->warp[w]);
	return r;
}

static float
emu_shfl_bfly(int mask, float v, int off, int clamp)
{
	(void)mask, (void)clamp;
	return shuffle(v, (self->tid % 32) ^ (unsigned)off);
}

static float
emu_shfl_idx(int mask, float v, int lane, int clamp)
{
	(void)mask, (void)clamp;
	return shuffle(v, (unsigned)lane);
}

static float
emu_ex2(float x)
{
	return exp2f(x);
}

/* ex2.approx.ftz: a subnormal input reads as 0, a result under 2^-126 is 0 */
static float
emu_ex2_ftz(float x)
{
	float r = exp2f(fabsf(x) < FLT_MIN ? 0.0f : x);
	return r < FLT_MIN ? 0.0f : r;
}

static float
emu_lg2(float x)
{
	return log2f(x);
}

/* lg2.approx.ftz: a subnormal input reads as 0 */
static float
emu_lg2_ftz(float x)
{
	return log2f(fabsf(x) < FLT_MIN ? 0.0f : x);
}

static float
emu_rsqrt(float x)
{
	return 1 / sqrtf(x);
}

static float
emu_sqrt(float x)
{
	return sqrtf(x);
}

static float
emu_rcp(float x)
{
	return 1 / x;
}

static float
emu_div(float x, float y)
{
	return x / y;
}

static const struct {
	const char *name;
	void *fn;
} host_fns[] = {
    {"emu.read.ptx.sreg.tid.x", (void *)emu_tid},
    {"emu.read.ptx.sreg.ctaid.x", (void *)emu_ctaid},
    {"emu.read.ptx.sreg.nctaid.x", (void *)emu_nctaid},
    {"emu.barrier0", (void *)emu_barrier0},
    {"emu.barrier0.or", (void *)emu_barrier0_or},
    {"emu.smem.base", (void *)emu_smem_base},
    {"emu.mapa", (void *)emu_mapa},
    {"emu.cp.async.ca.shared.global.4", (void *)emu_cp_async_4},
    {"emu.cp.async.ca.shared.global.8", (void *)emu_cp_async_8},
    {"emu.cp.async.cg.shared.global.16", (void *)emu_cp_async_16},
    {"emu.cp.async.commit.group", (void *)emu_cp_async_commit},
    {"emu.cp.async.wait.group", (void *)emu_cp_async_wait},
    {"emu.barrier.cluster.arrive", (void *)emu_cluster_arrive},
    {"emu.barrier.cluster.wait", (void *)emu_cluster_wait},
    {"emu.membar.gl", (void *)emu_membar},
    {"emu.nanosleep", (void *)emu_nanosleep},
    {"emu.read.ptx.sreg.globaltimer", (void *)emu_globaltimer},
    {"emu.shfl.sync.bfly.f32", (void *)emu_shfl_bfly},
    {"emu.shfl.sync.idx.f32", (void *)emu_shfl_idx},
    {"emu.ex2.approx.f", (void *)emu_ex2},
    {"emu.ex2.approx.ftz.f", (void *)emu_ex2_ftz},
    {"emu.lg2.approx.f", (void *)emu_lg2},
    {"emu.lg2.approx.ftz.f", (void *)emu_lg2_ftz},
    {"emu.clc.try_cancel", (void *)emu_clc_try_cancel},
    {"emu.rsqrt.approx.f", (void *)emu_rsqrt},
    {"emu.sqrt.approx.f", (void *)emu_sqrt},
    {"emu.rcp.approx.ftz.f", (void *)emu_rcp},
    {"emu.div.approx.f", (void *)emu_div},
    {"emu.misaligned", (void *)emu_misaligned},
};
#define NHOST (sizeof host_fns / sizeof host_fns[0])

static void *
run_thread(void *arg)
{
	self = arg;
	self->fn(self->args);
	Unit *u = self->unit;
	pthread_mutex_lock(&u->pool->mu);
	if (--u->live == 0)
		pthread_cond_broadcast(&u->pool->freed);
	pthread_mutex_unlock(&u->pool->mu);
	return NULL;
}

/* Joins the threads of every unit that has finished; -1 when none is free after that. */
static int
reap(Unit *u, int n, int all)
{
	int free = -1;
	for (int i = 0; i < n; i++) {
		if (u[i].busy && u[i].live == 0) {
			for (int t = 0; t < all; t++)
				pthread_join(u[i].pt[t], NULL);
			u[i].busy = 0;
		}
		if (!u[i].busy && free < 0)
			free = i;
	}
	return free;
}

static int
take(Diag *d, const char *what, LLVMErrorRef e)
{
	char *m = LLVMGetErrorMessage(e);
	diag(d, "emulator: %s: %s", what, m);
	LLVMDisposeErrorMessage(m);
	return -1;
}

/* Runs the grid: clusters one after another (so the split rows' last CTA is whichever comes
 * last), the threads of a cluster's CTAs (a cooperative row block's; one CTA without clusters)
 * all at once. A kernel with sums over rows, whose combine has every CTA wait for the others,
 * runs the whole grid at once (up to EMU_POOL_THREADS threads; the column pass has no combine,
 * so its CTAs start as the others). Shared memory starts as 0xff bytes (NaN), so a read of a word
 * nobody wrote shows; an access its alignment does not divide (check_alignment) fails the launch.
 */
static int
launch(void (*fn)(void **), const Kernel *k, const Compile *c, void **args, Diag *d)
{
	Launch l;
	codegen_launch(k, c, &l);
	Smem sm;
	smem_layout(k, c->dtype, c->N, &c->cfg, &sm, NULL, NULL);
	int64_t at[3];
	size_t bytes = (size_t)smem_block(&sm, at);
	/* a cooperative row block's CTAs wait for each other: they run together like a cluster */
	int nt = l.block_x, K = l.cooperative ? l.segments : l.cluster_x, all = nt * K;
	if (all > MAX_EMU_THREADS)
		return diag(d, "emulator: %s of %d CTA(s) of %d threads is over %d threads",
			    l.cooperative ? "a cooperative row block" : "a cluster", K, nt,
			    MAX_EMU_THREADS);
	int64_t units = (l.grid_x + K - 1) / K;
	int n = 1;
	if (k->plan->ncolsum &&
	    (!colsum_column(k->plan->ncolsum, &c->cfg) || !k->plan->colsum_alone)) {
		if (units * all > EMU_POOL_THREADS)
			return diag(d,
				    "emulator: a sum over rows runs its %lld CTAs of %d threads at "
				    "once, over %d threads",
				    (long long)(units * K), nt, EMU_POOL_THREADS);
		n = (int)units;
	}
	Pool pool = {.next = 0, .grid = l.grid_x};
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.freed, NULL);
	Unit *u = calloc((size_t)n, sizeof *u);
	for (int i = 0; i < n; i++) {
		u[i].cl = (Cluster){.cta = calloc((size_t)K, sizeof(Cta)), .n = K};
		u[i].th = calloc((size_t)all, sizeof *u[i].th);
		u[i].pt = calloc((size_t)all, sizeof *u[i].pt);
		u[i].pool = &pool;
		pthread_barrier_init(&u[i].cl.all, NULL, (unsigned)all);
		for (int r = 0; r < K; r++) {
			Cta *cta = &u[i].cl.cta[r];
			cta->smem = malloc(bytes ? bytes : 1);
			pthread_barrier_init(&cta->cta, NULL, (unsigned)nt);
			for (int w = 0; w < nt / 32; w++)
				pthread_barrier_init(&cta->warp[w], NULL, 32);
		}
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 18);
	int rc = 0;
	for (int64_t b;
	     rc == 0 && (b = __atomic_fetch_add(&pool.next, K, __ATOMIC_SEQ_CST)) < l.grid_x;) {
		pthread_mutex_lock(&pool.mu);
		int i;
		while ((i = reap(u, n, all)) < 0)
			pthread_cond_wait(&pool.freed, &pool.mu);
		u[i].busy = 1;
		u[i].live = all;
		pthread_mutex_unlock(&pool.mu);
		for (int r = 0; r < K; r++)
			memset(u[i].cl.cta[r].smem, 0xff, bytes);
		for (int t = 0; t < all; t++) {
			u[i].th[t] = (Thread){fn,
					      args,
					      &u[i].cl,
					      &u[i].cl.cta[t / nt],
					      (unsigned)(t % nt),
					      (unsigned)(b + t / nt),
					      (unsigned)l.grid_x,
					      &u[i]};
			if (pthread_create(&u[i].pt[t], &attr, run_thread, &u[i].th[t]) != 0) {
				/* the started threads wait at a barrier forever: nothing to do but
				 * fail, and leave them */
				rc = diag(d, "emulator: cannot start %d threads", all);
				break;
			}
		}
	}
	if (rc == 0) {
		pthread_mutex_lock(&pool.mu);
		for (int i = 0; i < n; i++)
			while (u[i].busy && u[i].live > 0)
				pthread_cond_wait(&pool.freed, &pool.mu);
		reap(u, n, all);
		pthread_mutex_unlock(&pool.mu);
		for (int i = 0; i < n; i++) {
			for (int r = 0; r < K; r++) {
				Cta *cta = &u[i].cl.cta[r];
				pthread_barrier_destroy(&cta->cta);
				for (int w = 0; w < nt / 32; w++)
					pthread_barrier_destroy(&cta->warp[w]);
				free(cta->smem);
			}
			pthread_barrier_destroy(&u[i].cl.all);
			free(u[i].th);
			free(u[i].pt);
			free(u[i].cl.cta);
		}
		free(u);
		pthread_cond_destroy(&pool.freed);
		pthread_mutex_destroy(&pool.mu);
	}
	pthread_attr_destroy(&attr);
	if (rc == 0 && pool.misaligned)
		rc = diag(d,
			  "emulator: an access at 0x%llx that its alignment %llu does not divide "
			  "(a GPU faults on it)",
			  (unsigned long long)pool.addr, (unsigned long long)pool.align);
	return rc;
}

/* Every load, store and atomic whose alignment is over 1 first checks its address against it
 * (emu.align.check, inlined; O3 drops the checks it proves): the x86 back end runs a misaligned
 * access where the GPU faults on it, so the emulator reports it instead. */
static void
check_alignment(LLVMContextRef cx, LLVMModuleRef mod)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(cx), vt = LLVMVoidTypeInContext(cx);
	LLVMTypeRef at[2] = {i64, i64};
	LLVMTypeRef ft = LLVMFunctionType(vt, at, 2, 0);
	LLVMValueRef bad = LLVMAddFunction(mod, "emu.misaligned", ft);
	LLVMValueRef chk = LLVMAddFunction(mod, "emu.align.check", ft);
	LLVMSetLinkage(chk, LLVMInternalLinkage);
	unsigned inl = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
	LLVMAddAttributeAtIndex(chk, LLVMAttributeFunctionIndex,
				LLVMCreateEnumAttribute(cx, inl, 0));
	LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(cx, chk, "");
	LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(cx, chk, "fail");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(cx, chk, "done");
	LLVMPositionBuilderAtEnd(b, entry);
	LLVMValueRef a = LLVMGetParam(chk, 0), al = LLVMGetParam(chk, 1);
	LLVMValueRef low = LLVMBuildAnd(b, a, LLVMBuildSub(b, al, LLVMConstInt(i64, 1, 0), ""), "");
	LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, low, LLVMConstInt(i64, 0, 0), ""), fail,
			done);
	LLVMPositionBuilderAtEnd(b, fail);
	LLVMValueRef args[2] = {a, al};
	LLVMBuildCall2(b, ft, bad, args, 2, "");
	LLVMBuildBr(b, done);
	LLVMPositionBuilderAtEnd(b, done);
	LLVMBuildRetVoid(b);
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		if (f == chk)
			continue;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
			     in = LLVMGetNextInstruction(in)) {
				LLVMOpcode op = LLVMGetInstructionOpcode(in);
				int ptr = op == LLVMStore ? 1 : 0;
				if ((op != LLVMLoad && op != LLVMStore && op != LLVMAtomicRMW &&
				     op != LLVMAtomicCmpXchg) ||
				    LLVMGetAlignment(in) <= 1)
					continue;
				LLVMPositionBuilderBefore(b, in);
				LLVMValueRef ca[2] = {
				    LLVMBuildPtrToInt(b, LLVMGetOperand(in, (unsigned)ptr), i64,
						      ""),
				    LLVMConstInt(i64, LLVMGetAlignment(in), 0)};
				LLVMBuildCall2(b, ft, chk, ca, 2, "");
			}
	}
	LLVMDisposeBuilder(b);
}

int
codegen_emulate(const Kernel *k, const Compile *c, void **args, Diag *d)
{
	if (codegen_check(k, c, d))
		return -1;
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
	LLVMOrcLLJITRef jit;
	LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, NULL);
	if (e)
		return take(d, "creating the JIT", e);
	int rc = -1;
	LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
	LLVMContextRef cx = LLVMOrcThreadSafeContextGetContext(tsc);
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext(k->name, cx);
	LLVMSetTarget(mod, LLVMOrcLLJITGetTripleString(jit));
	LLVMSetDataLayout(mod, LLVMOrcLLJITGetDataLayoutStr(jit));
	LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);
	LLVMOrcCSymbolMapPair syms[NHOST];
	for (size_t i = 0; i < NHOST; i++) {
		syms[i].Name = LLVMOrcLLJITMangleAndIntern(jit, host_fns[i].name);
		syms[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)host_fns[i].fn;
		syms[i].Sym.Flags.GenericFlags =
		    LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
		syms[i].Sym.Flags.TargetFlags = 0;
	}
	LLVMOrcDefinitionGeneratorRef gen;
	char *err = NULL;
	if ((e = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(syms, NHOST)))) {
		take(d, "defining the host functions", e);
		LLVMDisposeModule(mod);
		goto out;
	}
	/* libm for what the x86 back end lowers to calls (roundevenf, ...) */
	if ((e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
		 &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL))) {
		take(d, "searching the process", e);
		LLVMDisposeModule(mod);
		goto out;
	}
	LLVMOrcJITDylibAddGenerator(jd, gen);
	if (lower_kernel(k, c, 1, cx, mod, d)) {
		LLVMDisposeModule(mod);
		goto out;
	}
	if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &err)) {
		diag(d, "emulator: invalid LLVM IR for '%s': %s", k->name, err);
		LLVMDisposeMessage(err);
		LLVMDisposeModule(mod);
		goto out;
	}
	LLVMDisposeMessage(err);
	check_alignment(cx, mod);
	/* the GPU path runs O3 too: undefined behaviour it would exploit shows up here as well */
	LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
	e = LLVMRunPasses(mod, "default<O3>", NULL, opts);
	LLVMDisposePassBuilderOptions(opts);
	if (e) {
		take(d, "optimising", e);
		LLVMDisposeModule(mod);
		goto out;
	}
	if ((e = LLVMOrcLLJITAddLLVMIRModule(jit, jd,
					     LLVMOrcCreateNewThreadSafeModule(mod, tsc)))) {
		take(d, "adding the module", e);
		goto out;
	}
	char name[160];
	snprintf(name, sizeof name, "%s.host", k->name);
	LLVMOrcExecutorAddress addr;
	if ((e = LLVMOrcLLJITLookup(jit, &addr, name))) {
		take(d, "looking up the kernel", e);
		goto out;
	}
	void (*fn)(void **);
	memcpy(&fn, &(uintptr_t){(uintptr_t)addr}, sizeof fn);
	/* launched at the M its arguments give (the ABI's i64 after the parameters), which may
	 * differ from the compiled one: the grid and the workspace follow it */
	Compile at = *c;
	at.M = *(const int64_t *)args[k->nparams];
	rc = launch(fn, k, &at, args, d);
out:
	LLVMOrcDisposeThreadSafeContext(tsc);
	LLVMOrcDisposeLLJIT(jit);
	return rc;
}
