/* Codegen: config checks, the pass plan, the manifest against expected files, the ptxas -v parser
 * on captured text, and properties of the emitted PTX that performance depends on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "frontends/frontends.h"
#include "tests/testutil.h"

static Compile
point(const char *arch, Type dt, int64_t M, int64_t N, const char *cfg)
{
	Compile c = {.arch = arch, .dtype = dt, .M = M, .N = N};
	Diag d = {0};
	if (config_parse(cfg, &c.cfg, &d))
		fail_msg("%s", d.msg);
	return c;
}

static void
test_ptxas_parse(void **state)
{
	(void)state;
	char *text = slurp_file("tests/codegen/ptxas_report.txt");
	PtxasFunc f[4];
	assert_int_equal(ptxas_parse(text, f, 4), 3);
	assert_string_equal(f[0].name, "rmsnorm_bf16");
	assert_int_equal(f[0].regs, 17);
	assert_int_equal(f[0].barriers, 1);
	assert_int_equal(f[0].smem, 128);
	assert_int_equal(f[0].spill_stores, 0);
	/* a .func: a stack line and no "Used" line */
	assert_string_equal(f[1].name, "helper");
	assert_int_equal(f[1].stack, 8);
	assert_int_equal(f[1].regs, 0);
	assert_string_equal(f[2].name, "spill_probe");
	assert_int_equal(f[2].regs, 255);
	assert_int_equal(f[2].stack, 72);
	assert_int_equal(f[2].spill_stores, 68);
	assert_int_equal(f[2].spill_loads, 68);
	assert_int_equal(f[2].cum_stack, 72);
	assert_int_equal(ptxas_parse(text, f, 1), 1);
	assert_int_equal(ptxas_parse("", f, 4), 0);
	free(text);
}

/* Each bad config names the knob and the rule; none reaches LLVM. */
static void
test_check(void **state)
{
	(void)state;
	static const struct {
		const char *arch, *cfg, *want;
		int64_t N;
	} bad[] = {
	    {"sm_120", "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=1",
	     "unsupported arch 'sm_120'", 4096},
	    {"sm_90", "persistent=1,r_block=4096,m_block=2,num_warps=3,vec=8,split=1",
	     "num_warps=3 with m_block=2", 4096},
	    {"sm_90", "persistent=1,r_block=4096,m_block=256,num_warps=4,vec=8,split=1",
	     "m_block=256", 4096},
	    {"sm_90", "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=16,split=1", "vec=16",
	     4096},
	    {"sm_90", "persistent=1,r_block=1000,m_block=1,num_warps=4,vec=8,split=1",
	     "multiple of threads per row * vec = 128 * 8", 4096},
	    {"sm_90", "persistent=1,r_block=2048,m_block=1,num_warps=4,vec=8,split=1",
	     "persistent needs r_block >= N", 4096},
	    {"sm_90", "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=2",
	     "row splitting needs one pass of plain reductions", 4096},
	    {"sm_90", "persistent=1,r_block=131072,m_block=1,num_warps=4,vec=8,split=1",
	     "elements a thread", 4096},
	};
	Kernel *k = load_kernel("rms_norm");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		Compile c = point(bad[i].arch, TY_BF16, 64, bad[i].N, bad[i].cfg);
		Diag d = {0};
		Buf ptx = {0};
		assert_int_equal(codegen_ptx(k, &c, &ptx, NULL, &d), -1);
		if (!strstr(d.msg, bad[i].want))
			fail_msg("%s: got '%s', want '%s'", bad[i].cfg, d.msg, bad[i].want);
		assert_null(ptx.s);
	}
	Compile ok = point("sm_90", TY_BF16, 64, 4096,
			   "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=1");
	Diag d = {0};
	assert_int_equal(codegen_check(k, &ok, &d), 0);
	Compile odd = point("sm_90", TY_BF16, 64, 4100,
			    "persistent=1,r_block=5120,m_block=1,num_warps=4,vec=8,split=1");
	assert_int_equal(codegen_check(k, &odd, &d), 0);
	kernel_free(k);
}

/* Reduction passes when looped: max+sum fuse into one online pass; layer_norm needs two. */
static void
test_plan(void **state)
{
	(void)state;
	static const struct {
		const char *kernel;
		int npasses, tile_store, split;
	} want[] = {
	    {"softmax", 1, 1, 0},	{"cross_entropy", 1, 0, 0}, {"layer_norm", 2, 1, 0},
	    {"rms_norm", 1, 1, 0},	{"sum", 1, 0, 1},	    {"long_sum", 1, 0, 1},
	    {"dynamic_quant", 1, 1, 0}, {"welford", 1, 1, 0},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		Kernel *k = load_kernel(want[i].kernel);
		const Plan *p = k->plan;
		if (p->nreduce != want[i].npasses || (p->nstores > 0) != want[i].tile_store ||
		    p->split_ok != want[i].split)
			fail_msg("%s: %d passes, tile store %d, split %d", want[i].kernel,
				 p->nreduce, p->nstores > 0, p->split_ok);
		kernel_free(k);
	}
}

static void
check_manifest(const char *kernel, Compile c, const char *expected)
{
	Kernel *k = load_kernel(kernel);
	Buf b = {0};
	const char *reasons[] = {"a reason with \"quotes\"", "another"};
	codegen_manifest(&b, k, &c, "rkc", 0, reasons, 2);
	if (getenv("RKC_UPDATE")) { /* RKC_UPDATE=1 rewrites the expected file */
		FILE *f = fopen(expected, "w");
		assert_non_null(f);
		fputs(b.s, f);
		fclose(f);
	}
	char *want = slurp_file(expected);
	if (strcmp(b.s, want))
		fail_msg("manifest differs from %s:\n%s", expected, b.s);
	free(want);
	buf_free(&b);
	kernel_free(k);
}

static void
test_manifest(void **state)
{
	(void)state;
	check_manifest("rms_norm",
		       point("sm_90", TY_BF16, 4097, 4096,
			     "persistent=1,r_block=4096,m_block=2,num_warps=8,vec=8,split=1"),
		       "tests/codegen/rms_norm.json");
	check_manifest("long_sum",
		       point("sm_80", TY_F32, 3, 1048576,
			     "persistent=0,r_block=8192,m_block=1,num_warps=8,vec=4,split=16"),
		       "tests/codegen/long_sum.json");
}

static char *
ptx_of(const char *kernel, Compile c)
{
	Kernel *k = load_kernel(kernel);
	Buf b = {0};
	Diag d = {0};
	if (codegen_ptx(k, &c, &b, NULL, &d))
		fail_msg("%s: %s", kernel, d.msg);
	kernel_free(k);
	return b.s;
}

static int
count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* The most loads of `what` in one straight run of PTX: lines with no label or branch between. */
static int
load_run(const char *s, const char *what)
{
	int best = 0, run = 0;
	for (const char *p = s; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char line[256];
		snprintf(line, sizeof line, "%.*s", (int)(n < 255 ? n : 255), p);
		if (line[0] == '$' || strstr(line, "bra"))
			run = 0;
		else if (strstr(line, what) && ++run > best)
			best = run;
		p += n + (e != NULL);
	}
	return best;
}

/* Scalar accesses (vec 1) at an odd width: the whole chunks of 64 elements a thread issue their
 * 64 loads in one run, no column compared and no branch between them (codegen/lower_rows.c,
 * chunk_loop); only the last chunk, cut by the row's end, masks each element. */
static void
test_ptx_whole_chunks(void **state)
{
	(void)state;
	char *s = ptx_of("cross_entropy",
			 point("sm_90", TY_BF16, 64, 50257,
			       "persistent=0,r_block=8192,m_block=1,num_warps=4,vec=1,split=1"));
	assert_true(load_run(s, "ld.global.nc.u16") >= 64);
	free(s);
	/* at 16-byte accesses a chunk is one span of masked vectors, as before */
	s = ptx_of("cross_entropy",
		   point("sm_90", TY_BF16, 64, 50264,
			 "persistent=0,r_block=8192,m_block=1,num_warps=4,vec=8,split=1"));
	assert_true(load_run(s, "ld.global.nc.v4.u32") <= 1);
	free(s);
}

/* The instruction rules of a streamed row (docs/codegen.md, "Instructions an element"), on
 * cross_entropy_backward bf16, 16 elements a thread a chunk, two looped passes. Kept in shared
 * memory (smem=2): no cvt.f32.bf16 (bf16 words unpacked by shift and mask), each pass's 16 exps of
 * x - max one fma with log2 e, the row select's mask made once through one inline mov. Read from
 * global memory (smem=0): the bf16 conversions stay cvt.f32.bf16, 16 a pass. A persistent row
 * keeps the plain exp. */
static void
test_ptx_instruction_rules(void **state)
{
	(void)state;
	char *s = ptx_of(
	    "cross_entropy_backward",
	    point(
		"sm_90", TY_BF16, 4096, 151936,
		"persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,split=1,cluster=4,smem=2"));
	assert_int_equal(count(s, "cvt.f32.bf16"), 0);
	assert_int_equal(count(s, ", 0f3FB8AA3B, "), 32);
	assert_int_equal(count(s, "begin inline asm"), 1);
	free(s);
	s = ptx_of("cross_entropy_backward",
		   point("sm_90", TY_BF16, 4096, 151936,
			 "persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,split=1"));
	assert_int_equal(count(s, "cvt.f32.bf16"), 2 * 16);
	assert_int_equal(count(s, ", 0f3FB8AA3B, "), 32);
	free(s);
	s = ptx_of("cross_entropy_backward",
		   point("sm_90", TY_F32, 64, 4096,
			 "persistent=1,r_block=4096,m_block=1,num_warps=8,vec=4,split=1"));
	assert_int_equal(count(s, ", 0f3FB8AA3B, "), 0);
	free(s);
	/* a sum over rows of a product adds it as an fma (dw += dy * xh: 16 elements a thread, 16
	 * fma where the mul and the add were apart), and at one row a block without a select */
	s = ptx_of("layer_norm_backward",
		   point("sm_90", TY_BF16, 4096, 4096,
			 "persistent=1,r_block=4096,m_block=1,num_warps=8,vec=8,grid=264"));
	assert_int_equal(count(s, "fma.rn.f32"), 76); /* 16 more: g - sg * (1/N) */
	assert_int_equal(count(s, "selp.f32"), 36);
	free(s);
	/* two rows a block: the select stays, on the fma's result */
	s = ptx_of("layer_norm_backward",
		   point("sm_90", TY_BF16, 65536, 768,
			 "persistent=1,r_block=768,m_block=2,num_warps=2,vec=8,grid=924,smem=1"));
	assert_int_equal(count(s, "fma.rn.f32"), 114);
	assert_int_equal(count(s, "selp.f32"), 86); /* 20 fewer at a constant N: 1/N, masks */
	free(s);
	/* the read-back: the apply pass loads h back from its output (4 plain 16-byte loads a
	 * chunk), not x and res again (8 of the 12 non-coherent ones are the first pass's) */
	s = ptx_of("fused_add_rmsnorm",
		   point("sm_90", TY_BF16, 37, 4194304,
			 "persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,cluster=16"));
	assert_int_equal(count(s, "ld.global.v4.b32"), 4);
	assert_int_equal(count(s, "ld.global.nc.v4.u32"), 12);
	free(s);
	/* a row kept on chip keeps h in shared memory, not x and res (4 stores and 4 loads of 16
	 * bytes a chunk, not 8 and 8), and reads nothing back from global memory */
	s = ptx_of("fused_add_rmsnorm",
		   point("sm_90", TY_BF16, 37, 65536,
			 "persistent=0,r_block=4096,m_block=1,num_warps=4,vec=8,cluster=2,smem=1"));
	assert_int_equal(count(s, "st.shared.v4.b32"), 4);
	assert_int_equal(count(s, "ld.shared.v4.b32"), 4);
	assert_int_equal(count(s, "ld.global.v4.b32"), 0);
	free(s);
}

/* What the bandwidth bar depends on, checked in the PTX text. */
static void
test_ptx_shape(void **state)
{
	(void)state;
	/* bf16 row of 4096 held by 128 threads: 4 x 16-byte read-only loads of x and of w, 4 vector
	 * stores, no local memory, one barrier for the 4 warps of the row */
	char *s = ptx_of("rms_norm",
			 point("sm_90", TY_BF16, 4096, 4096,
			       "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=1"));
	assert_int_equal(count(s, "ld.global.nc.v4.u32"), 8);
	assert_int_equal(count(s, "st.global.v4.b32"), 4);
	assert_int_equal(count(s, ".local"), 0);
	assert_int_equal(count(s, "bar.sync"), 1);
	assert_true(count(s, "rsqrt.approx.f32") == 1);
	assert_true(count(s, "fma.rn.f32") > 0);
	assert_true(count(s, ".entry rms_norm(") == 1);
	assert_true(count(s, ".maxntid 128, 1, 1") == 1);
	assert_true(count(s, ".minnctapersm 1") == 1);
	assert_int_equal(count(s, "cache_hint"), 0);
	free(s);
	/* evict=1 on a persistent row: x read once, evict_first; w, read by every CTA, evict_last;
	 * min_ctas=3 binds ptxas to three CTAs an SM */
	s = ptx_of("rms_norm",
		   point("sm_90", TY_BF16, 4096, 4096,
			 "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=1,"
			 "evict=1,min_ctas=3"));
	assert_int_equal(count(s, "ld.global.nc.L2::cache_hint.v4.b32"), 8);
	assert_int_equal(count(s, "createpolicy.fractional.L2::evict_first.b64"), 1);
	assert_int_equal(count(s, "createpolicy.fractional.L2::evict_last.b64"), 1);
	assert_true(count(s, ".minnctapersm 3") == 1);
	free(s);
	/* looped softmax: the online max/sum pass reads x again later, evict_last; the apply pass
	 * is its last read, evict_first */
	s = ptx_of("softmax", point("sm_90", TY_BF16, 64, 32768,
				    "persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,split=1,"
				    "evict=1"));
	assert_int_equal(count(s, "ld.global.nc.L2::cache_hint.v4.b32"), 4);
	assert_int_equal(count(s, "createpolicy.fractional.L2::evict_last.b64"), 1);
	assert_int_equal(count(s, "createpolicy.fractional.L2::evict_first.b64"), 1);
	free(s);
	/* N = 4100 is not a multiple of 8: each thread's body vectors of x and of y still move 16
	 * bytes (4: the fifth of r_block 5120 starts past the compiled N for every thread, so it
	 * folds away); the weight's columns are misaligned with the row's, so the body reads it 2
	 * bytes at a time (32), and the row's head and tail are one more element of x and w */
	s = ptx_of("rms_norm",
		   point("sm_90", TY_BF16, 64, 4100,
			 "persistent=1,r_block=5120,m_block=1,num_warps=4,vec=8,split=1"));
	assert_int_equal(count(s, "ld.global.nc.v4.u32"), 4);
	assert_int_equal(count(s, "st.global.v4.b32"), 4);
	assert_int_equal(count(s, "ld.global.nc.u16"), 34);
	assert_int_equal(count(s, "st.global.b16"), 1);
	free(s);
	/* looped jsd: dX needs no reduction, so it is stored in the loss's pass: X and Y are read
	 * once (2 vectors a thread each), not again in an apply pass */
	s = ptx_of("jsd", point("sm_90", TY_BF16, 64, 32768,
				"persistent=0,r_block=8192,m_block=1,num_warps=16,vec=8,split=1"));
	assert_int_equal(count(s, "ld.global.nc.v4.u32"), 4);
	assert_int_equal(count(s, "st.global.v4.b32"), 2);
	free(s);
	/* looped softmax: one online max/sum pass and the apply pass, exp through ex2.approx.ftz
	 * (one MUFU.EX2; the form without .ftz takes three more instructions) */
	s = ptx_of("softmax",
		   point("sm_80", TY_F32, 64, 50000,
			 "persistent=0,r_block=2048,m_block=1,num_warps=8,vec=4,split=1"));
	assert_int_equal(count(s, "ld.global.nc.v4.f32"), 4);
	assert_true(count(s, "ex2.approx.ftz.f32") > 0);
	assert_int_equal(count(s, "ex2.approx.f32"), 0);
	assert_int_equal(count(s, "div.rn"), 0);
	assert_int_equal(count(s, ".target sm_80"), 1);
	free(s);
	/* cross-entropy's gradient: the column compared with the label in 32 bits (16 of the 2 x
	 * 8 elements of a thread's chunk in each pass), dx converted a pair at a time, with no
	 * 16-bit select of a converted element */
	s = ptx_of("cross_entropy_backward",
		   point("sm_90", TY_BF16, 4096, 151936,
			 "persistent=0,r_block=4096,m_block=1,num_warps=8,vec=8,split=1"));
	/* (with the compiled N, LLVM counts the chunk loop's exits and one column in 64 bits) */
	assert_int_equal(count(s, "setp.eq.s32") + count(s, "setp.eq.s64"), 2 + 32);
	assert_true(count(s, "setp.eq.s32") >= 31);
	assert_int_equal(count(s, "setp.ne.s64"), 1); /* the label against ignore_index */
	assert_int_equal(count(s, "cvt.rn.bf16x2.f32"), 8);
	assert_int_equal(count(s, "cvt.rn.bf16.f32"), 0);
	assert_int_equal(count(s, "selp.b16"), 0);
	free(s);
	/* split rows: partials, a fence, a counter, and the last CTA's merge, on its first warp (a
	 * partial a lane, the counter's answer shuffled from lane 0, a butterfly) where a row spans
	 * whole warps, else on lane 0, a load a segment */
	s = ptx_of("long_sum",
		   point("sm_90", TY_F32, 2, 1 << 20,
			 "persistent=0,r_block=4096,m_block=1,num_warps=8,vec=4,split=8"));
	assert_int_equal(count(s, "atom.global.add.u32"), 1);
	assert_int_equal(count(s, "membar.gl"), 2);
	assert_int_equal(count(s, "ld.volatile.global.f32"), 1);
	assert_int_equal(count(s, "shfl.sync.idx"), 1);
	free(s);
	s = ptx_of("long_sum",
		   point("sm_90", TY_F32, 4, 1 << 16,
			 "persistent=0,r_block=512,m_block=2,num_warps=1,vec=4,split=8"));
	assert_int_equal(count(s, "atom.global.add.u32"), 1);
	assert_int_equal(count(s, "membar.gl"), 2);
	assert_int_equal(count(s, "ld.volatile.global.f32"), 8);
	assert_int_equal(count(s, "shfl.sync.idx"), 0);
	free(s);
}

/* The arch table is the list RKC_ARCHS spells; every arch's PTX names it in .target, and an arch
 * LLVM does not know gets its PTX ISA in .version and its code emitted for the CPU it names. */
static void
test_archs(void **state)
{
	(void)state;
	int n;
	const Arch *a = codegen_archs(&n);
	Buf list = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&list, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", a[i].name);
	assert_string_equal(list.s, RKC_ARCHS);
	buf_free(&list);
	Kernel *k = load_kernel("softmax");
	for (int i = 0; i < n; i++) {
		Compile c = point(a[i].name, TY_BF16, 64, 4096,
				  "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=1");
		Diag d = {0};
		Buf ptx = {0};
		if (codegen_ptx(k, &c, &ptx, NULL, &d))
			fail_msg("%s: %s", a[i].name, d.msg);
		char want[64];
		snprintf(want, sizeof want, "\n.target %s\n", a[i].name);
		assert_non_null(strstr(ptx.s, want));
		snprintf(want, sizeof want, "\n.version %s\n", a[i].ptx_isa ? a[i].ptx_isa : "7.8");
		assert_non_null(strstr(ptx.s, want));
		assert_ptr_equal(codegen_arch_info(a[i].name), &a[i]);
		buf_free(&ptx);
	}
	/* a dynamic grid: cluster launch control where the arch has it (sm_100 only; the emulator
	 * takes the next CTA off its launch, tests/codegen/emulate_modes.txt); the work counter
	 * elsewhere */
	for (int i = 0; i < n; i++) {
		Compile c = point(a[i].name, TY_BF16, 4096, 4096,
				  "persistent=1,r_block=4096,m_block=1,num_warps=4,vec=8,split=1,"
				  "grid=132,dynamic=1");
		assert_int_equal(codegen_clc(&c), strcmp(a[i].name, "sm_100") == 0);
		assert_int_equal(a[i].clc, strcmp(a[i].name, "sm_100") == 0);
	}
	kernel_free(k);
	assert_null(codegen_arch_info("sm_90a"));
	assert_null(codegen_arch_info(NULL));
}

/* Random configs, good and bad: whatever the checker accepts compiles, whatever it rejects says
 * why, and nothing reaches LLVM that would make it abort. */
static void
test_random_configs(void **state)
{
	(void)state;
	static const char *const kernels[] = {"rms_norm", "softmax", "sum", "welford", "grpo"};
	static const int warps[] = {1, 2, 3, 4, 8, 16, 32, 64};
	static const int mblocks[] = {1, 2, 3, 4, 8, 64, 1024};
	static const int vecs[] = {1, 2, 3, 4, 8, 16};
	static const int64_t widths[] = {1, 7, 64, 1000, 4096, 50257};
	static const int splits[] = {1, 1, 2, 3, 8};
	uint64_t x = 88172645463325252u;
	int accepted = 0, rejected = 0;
	for (int it = 0; it < 200; it++) {
		uint64_t r[8];
		for (int i = 0; i < 8; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r[i] = x >> 8;
		}
		Kernel *k = load_kernel(kernels[r[0] % 5]);
		Compile c = {.arch = r[1] % 7 ? "sm_90" : "sm_80",
			     .dtype = r[1] % 2 ? TY_BF16 : TY_F32};
		c.M = 1 + (int64_t)(r[2] % 70);
		c.N = widths[r[3] % 6];
		Config *g = &c.cfg;
		g->num_warps = warps[r[4] % 8];
		g->m_block = mblocks[(r[4] >> 8) % 7];
		g->vec = vecs[(r[4] >> 16) % 6];
		while (r[7] % 3 && c.N % g->vec) /* mostly a vec that divides N */
			g->vec /= 2;
		g->split = splits[(r[4] >> 24) % 5];
		g->persistent = r[5] % 2;
		int64_t step = (int64_t)g->num_warps * 32 / g->m_block * g->vec;
		g->r_block = r[6] % 4 == 0 ? c.N : (step > 0 ? step : 1) * (int64_t)(1 + r[6] % 5);
		Diag d = {0};
		Buf ptx = {0};
		if (codegen_check(k, &c, &d) == 0) {
			if (codegen_ptx(k, &c, &ptx, NULL, &d))
				fail_msg("accepted config failed to compile: %s", d.msg);
			assert_non_null(strstr(ptx.s, ".entry"));
			accepted++;
		} else {
			assert_true(strlen(d.msg) > 10);
			assert_int_equal(codegen_ptx(k, &c, &ptx, NULL, &d), -1);
			rejected++;
		}
		buf_free(&ptx);
		kernel_free(k);
	}
	if (accepted < 10 || rejected < 10)
		fail_msg("%d accepted, %d rejected: too few of one", accepted, rejected);
}

/* The column pass's lanes: codegen's (codegen_colpass_lanes) and those rkc explain names
 * (colpass_lanes_run) at the policy's pick, over rows aligned and not, few and many, at sm_90
 * and sm_80. */
static void
test_colpass_lanes_agree(void **state)
{
	(void)state;
	static const char *const kernels[] = {"testdata/kernels/rms_norm_backward.rk",
					      "testdata/kernels/layer_norm_backward.rk",
					      "tests/heuristics/kernels/bias_gelu_erf_back.rk",
					      "tests/heuristics/kernels/bias_silu_back.rk",
					      "tests/heuristics/kernels/colsum_only.rk",
					      "tests/codegen/colpass_whole.rk",
					      "tests/codegen/colpass_i8.rk"};
	static const int64_t shapes[][2] = {{65, 8333},	  {64, 50257},	{1743, 74429},
					    {8, 1000003}, {4096, 4096}, {777, 100003},
					    {11, 6467},	  {3000, 20011}};
	static const char *const archs[] = {"sm_90", "sm_80"};
	int compared = 0, misaligned = 0;
	for (size_t a = 0; a < 2; a++) {
		Target t;
		Diag d = {0};
		if (target_load(archs[a], &t, &d))
			fail_msg("%s", d.msg);
		for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
			Kernel *k = load_kernel_file(kernels[i]);
			for (int dt = 0; dt < 2; dt++) {
				Facts f;
				facts_compute(k, dt ? TY_F32 : TY_BF16, &f);
				for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
					Compile c = {.arch = archs[a],
						     .dtype = dt ? TY_F32 : TY_BF16,
						     .M = shapes[s][0],
						     .N = shapes[s][1]};
					Choice pick;
					if (choose(k, &f, c.M, c.N, &t, POLICY_RKC, &pick, &d))
						fail_msg("%s", d.msg);
					if (!colsum_column(f.colsums, &pick.cfg))
						continue;
					c.cfg = pick.cfg;
					ColpassLanes cg, ex;
					codegen_colpass_lanes(k, &c, &cg);
					colpass_lanes_run(k, &f, &pick.cfg, c.M, c.N, &t, &ex,
							  NULL);
					if (cg.lanes != ex.lanes || cg.u != ex.u ||
					    cg.turns != ex.turns)
						fail_msg(
						    "%s %s %s %lldx%lld: codegen %lld lanes, %lld "
						    "rows a trip; explain %lld, %lld",
						    kernels[i], archs[a], dt ? "fp32" : "bf16",
						    (long long)c.M, (long long)c.N,
						    (long long)cg.lanes, (long long)cg.u,
						    (long long)ex.lanes, (long long)ex.u);
					compared++;
					misaligned += !colpass_wide(&pick.cfg, c.N);
				}
			}
			kernel_free(k);
		}
	}
	if (compared < 100 || misaligned < 60)
		fail_msg("%d column passes compared, %d misaligned: too few", compared, misaligned);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ptxas_parse),
	    cmocka_unit_test(test_check),
	    cmocka_unit_test(test_plan),
	    cmocka_unit_test(test_manifest),
	    cmocka_unit_test(test_ptx_shape),
	    cmocka_unit_test(test_ptx_instruction_rules),
	    cmocka_unit_test(test_ptx_whole_chunks),
	    cmocka_unit_test(test_random_configs),
	    cmocka_unit_test(test_archs),
	    cmocka_unit_test(test_colpass_lanes_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
