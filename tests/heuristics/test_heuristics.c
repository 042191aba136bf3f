/* Facts, live counts, the register model, the config check, and policy helion2828 against the
 * decisions Helion PR #2828's rules give on Helion's test split where our facts match Helion's
 * (docs/heuristics.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/frontends.h"
#include "heuristics/heuristics.h"
#include "heuristics/rkc.h"
#include "tests/testutil.h"

/* Both levels of the validator, as a forced config meets them. */
static int
check_both(const Config *c, const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
	   Diag *d)
{
	return config_check_emit(k, f->dtype, M, N, c, d) ||
		       config_check_target(k, f->dtype, N, c, t, d)
		   ? -1
		   : 0;
}

static Target
h100(void)
{
	Target t;
	Diag d = {0};
	if (target_load("sm_90", &t, &d))
		fail_msg("%s", d.msg);
	return t;
}

/* Our Helion-style count and our persistent held count, for every kernel of testdata/kernels.
 * docs/heuristics.md says why each differs from Helion's measured count where it does. */
static void
live_counts(void **state)
{
	static const struct {
		const char *k;
		int helion, held;
	} want[] = {
	    {"rms_norm", 3, 2},
	    {"layer_norm", 3, 3},
	    {"softmax", 2, 1},
	    {"sum", 1, 1},
	    {"long_sum", 1, 1},
	    {"cross_entropy", 2, 1},
	    {"kl_div", 4, 2},
	    {"jsd", 6, 2},
	    {"welford", 3, 3},
	    {"fused_add_rmsnorm", 4, 2},
	    {"fused_add_layernorm", 4, 3},
	    {"gated_rmsnorm", 3, 2},
	    {"scaled_masked_softmax", 3, 2},
	    {"cross_entropy_ls_zloss", 2, 1},
	    {"dynamic_quant", 2, 1},
	    {"grpo", 2, 1},
	    {"fused_linear_jsd", 7, 2},
	    {"cross_entropy_backward", 4, 3},
	    {"fp8_quant", 2, 1},
	    {"gelu_tanh_gated", 4, 2},
	    /* x, dy and w cross the sum; each colsum's partial is held from the first row on */
	    {"rms_norm_backward", 5, 4},
	    {"layer_norm_backward", 5, 5},
	};
	int n;
	char **names = kernel_names(&n);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		size_t j = 0;
		while (j < sizeof want / sizeof want[0] && strcmp(want[j].k, names[i]))
			j++;
		if (j == sizeof want / sizeof want[0])
			fail_msg("%s: no expected live counts in live_counts", names[i]);
		Kernel *k = load_kernel(names[i]);
		Facts f;
		facts_compute(k, TY_BF16, &f);
		if (f.helion_live != want[j].helion || f.held_tiles != want[j].held)
			fail_msg("%s: helion-style %d held %d, want %d and %d", want[j].k,
				 f.helion_live, f.held_tiles, want[j].helion, want[j].held);
		kernel_free(k);
	}
	kernel_names_free(names);
}

/* Co-liveness, not node count, sets the Helion-style count (as in the divergence test of PR #2828's
 * author: two bodies of about as many instructions, one a chain and one co-live). */
static void
live_sequential_vs_colive(void **state)
{
	Kernel *seq = parse_text("inline.rk",
				 "kernel seq\nin x: T[M,N]\nout y: f32[M]\n"
				 "%a = load x\n%b = exp %a\n%c = exp %b\n%d = exp %c\n%e = exp %d\n"
				 "%s = sum %e\nstore y, %s\n");
	Kernel *co = parse_text(
	    "inline.rk", "kernel co\nin x: T[M,N]\nout y: f32[M]\n"
			 "%a = load x\n%b = exp %a\n%c = exp %a\n%d = exp %a\n%e = add %b, %c\n"
			 "%f = add %e, %d\n%s = sum %f\nstore y, %s\n");
	assert_int_equal(live_helion(seq), 2);
	assert_int_equal(live_helion(co), 4);
	kernel_free(seq);
	kernel_free(co);
}

/* The Helion-style count is of the program as written: store y follows the sum there, so y is
 * live beside x and z (3), though order_stores moves the store up to %y (where the count would
 * be 2), and the kernel's statements are in the moved order. */
static void
live_helion_source_order(void **state)
{
	Kernel *k = parse_text("inline.rk", "kernel late\nin x: T[M,N]\nout y: T[M,N]\n"
					    "out s: f32[M]\n%x = load x\n%y = mul %x, 2\n"
					    "%z = exp %x\n%t = sum %z\nstore y, %y\nstore s, %t\n");
	assert_int_equal(k->ins[2].op, OP_STORE);
	assert_int_equal(k->ins[2].src, 4);
	assert_int_equal(live_helion(k), 3);
	kernel_free(k);
}

/* A colsum moves up to where its operand dies but for it, before that value's stores: after %p
 * (whose store moved there), not after the row values between; after %d, the last read of %x
 * before it; and a colsum of a load nothing else reads stays where written, the row's load with
 * it. */
static void
order_colsums(void **state)
{
	Kernel *k = parse_text(
	    "inline.rk", "kernel c\nin x: T[M,N]\nout p: T[M,N]\nout ps: f32[N]\nout z: f32[M]\n"
			 "%x = load x\n%m = max %x\n%d = sub %x, %m\n%e = exp %d\n%s = sum %e\n"
			 "%p = div %e, %s\nstore p, %p\n%l = log %s\n%z = mul %l, %l\n"
			 "%c = colsum %p\nstore ps, %c\nstore z, %z\n");
	assert_int_equal(k->ins[6].op, OP_COLSUM);
	assert_int_equal(k->ins[6].src, 9);
	assert_int_equal(k->ins[7].op, OP_STORE);
	assert_int_equal(k->ins[7].src, 6);
	assert_int_equal(k->ins[8].src, 7);
	kernel_free(k);
	Kernel *x =
	    parse_text("inline.rk", "kernel c\nin x: T[M,N]\nout cs: f32[N]\nout o: f32[M]\n"
				    "%x = load x\n%m = max %x\n%d = sub %x, %m\n%s = sum %d\n"
				    "%c = colsum %x\nstore cs, %c\nstore o, %s\n");
	assert_int_equal(x->ins[3].op, OP_COLSUM);
	assert_int_equal(x->ins[3].src, 4);
	kernel_free(x);
	Kernel *lone = parse_text(
	    "inline.rk", "kernel c\nin x: T[M,N]\nin y: T[M,N]\nout o: T[M,N]\nout cs: f32[N]\n"
			 "%x = load x\n%y = load y\n%s = sum %x\n%d = mul %x, %s\nstore o, %d\n"
			 "%c = colsum %y\nstore cs, %c\n");
	assert_int_equal(lone->ins[5].op, OP_COLSUM);
	assert_int_equal(lone->ins[5].src, 5);
	kernel_free(lone);
}

/* With the colsums out of the rows, a load only they read is not the rows' (Facts.rows_tile_bytes,
 * the cost model's rows bytes), and of the colsums' inputs only those the rows read too can be in
 * L2 for the column pass (Facts.colsum_rows_bytes). */
static void
rows_bytes(void **state)
{
	Facts f;
	Kernel *k = parse_text(
	    "inline.rk", "kernel m\nin x: T[M,N]\nin keep: bool[M,N]\nout s: f32[N]\n"
			 "out cnt: f32[M]\n%x = load x\n%k = load keep\n%xk = select %k, %x, 0\n"
			 "%s = colsum %xk\n%o = select %k, 1, 0\n%c = sum %o\nstore s, %s\n"
			 "store cnt, %c\n");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.tile_in_bytes, 3);
	assert_int_equal(f.colsum_tile_bytes, 3);
	assert_int_equal(f.rows_tile_bytes, 1); /* the mask alone */
	assert_int_equal(f.colsum_rows_bytes, 1);
	kernel_free(k);
	/* the rows read x for their max: every input is theirs */
	k = parse_text("inline.rk", "kernel c\nin x: T[M,N]\nout cs: f32[N]\nout m: T[M]\n"
				    "%x = load x\n%c = colsum %x\n%m = max %x\nstore cs, %c\n"
				    "store m, %m\n");
	facts_compute(k, TY_F32, &f);
	assert_int_equal(f.rows_tile_bytes, 4);
	assert_int_equal(f.colsum_rows_bytes, 4);
	kernel_free(k);
	/* layer_norm_backward's rows read x and dy for dx: both theirs */
	k = load_kernel("layer_norm_backward");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.rows_tile_bytes, f.tile_in_bytes);
	kernel_free(k);
}

/* The column pass's [M,N] arrays (plan_colpass_arrays: what colpass_lanes weighs at misaligned
 * rows): made whole, every [M,N] load and store and the instructions of the whole kernel; after
 * rows that reduce, only the colsums' inputs. */
static void
colpass_arrays_counted(void **state)
{
	(void)state;
	Facts f;
	Kernel *k =
	    parse_text("inline.rk", "kernel g\nin x: T[M,N]\nin dy: T[M,N]\nout dx: T[M,N]\n"
				    "out db: f32[N]\n%x = load x\n%dy = load dy\n"
				    "%g = mul %x, %dy\n%db = colsum %g\nstore dx, %g\n"
				    "store db, %db\n");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.colpass_arrays.n, 3);
	assert_int_equal(f.colpass_arrays.stores, 1);
	assert_int_equal(f.colpass_arrays.bytes, 6);
	assert_int_equal(f.colpass_arrays.isz, 2);
	assert_int_equal(f.colpass_arrays.ops, f.ops);
	kernel_free(k);
	k = parse_text("inline.rk", "kernel c\nin x: T[M,N]\nin y: T[M,N]\nout cs: f32[N]\n"
				    "out m: T[M]\n%x = load x\n%y = load y\n%c = colsum %x\n"
				    "%xy = add %x, %y\n%m = max %xy\nstore cs, %c\nstore m, %m\n");
	facts_compute(k, TY_F32, &f);
	assert_int_equal(f.colpass_arrays.n, 1);
	assert_int_equal(f.colpass_arrays.stores, 0);
	assert_int_equal(f.colpass_arrays.bytes, 4);
	assert_true(f.colpass_arrays.ops < f.ops);
	kernel_free(k);
}

/* A tile recomputable from held ones is not held; one that is not recomputable is. */
static void
held_remat(void **state)
{
	Kernel *k =
	    parse_text("inline.rk", "kernel r\nin x: T[M,N]\nout y: T[M,N]\n"
				    "%x = load x\n%s = sum %x\n%d = sub %x, %s\n%t = sum %d\n"
				    "%u = add %x, %t\n%y = mul %u, %d\nstore y, %y\n");
	int w;
	/* across sum %d, both %x and %d are used later; %d = x - s recomputes from %x */
	assert_int_equal(live_held(k, TY_BF16, &w), 1);
	assert_int_equal(w, 1);
	kernel_free(k);
	Kernel *two = parse_text(
	    "inline.rk", "kernel r\nin x: T[M,N]\nout y: T[M,N]\n"
			 "%x = load x\n%s = sum %x\n%d = exp %x\n%t = sum %d\n"
			 "%u = add %x, %t\n%v = add %u, %s\n%y = mul %v, %d\nstore y, %y\n");
	/* exp is recomputable too: only what cannot be rebuilt from the held set stays */
	assert_int_equal(live_held(two, TY_BF16, &w), 1);
	kernel_free(two);
	Kernel *keep =
	    parse_text("inline.rk", "kernel r\nin x: T[M,N]\nin z: T[M,N]\nout y: T[M,N]\n"
				    "%x = load x\n%z = load z\n%d = mul %x, %z\n%s = sum %d\n"
				    "%u = add %x, %s\n%y = mul %u, %d\nstore y, %y\n");
	/* %d needs %z, which is not held: %x and %d both cross the sum */
	assert_int_equal(live_held(keep, TY_BF16, &w), 2);
	kernel_free(keep);
	Kernel *i64 =
	    parse_text("inline.rk", "kernel j\nin x: i64[M,N]\nout y: f32[M,N]\n"
				    "%x = load x\n%f = cast.f32 %x\n%s = sum %f\n%g = cast.f32 %x\n"
				    "%y = add %g, %s\nstore y, %y\n");
	assert_int_equal(live_held(i64, TY_F32, &w), 1);
	assert_int_equal(w, 2); /* an i64 element is two registers */
	kernel_free(i64);
}

static void
facts_passes(void **state)
{
	Facts f;
	Kernel *k = load_kernel("layer_norm");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.levels, 2);
	assert_int_equal(f.passes, 3);
	assert_true(f.row_reread && f.full_width_output && !f.split_ok);
	assert_int_equal(f.compute_isz, 4);
	assert_int_equal(f.load_isz, 2);
	assert_string_equal(f.chain, "sum -> sum -> apply");
	kernel_free(k);

	k = load_kernel("cross_entropy");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.online, 1);
	assert_int_equal(f.passes, 1); /* max and sum(exp(x - max)) in one online pass */
	assert_false(f.split_ok);
	kernel_free(k);

	k = load_kernel("sum");
	facts_compute(k, TY_F32, &f);
	assert_true(f.split_ok && !f.row_reread);
	assert_int_equal(f.compute_isz, 4);
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.compute_isz, 2);
	kernel_free(k);

	k = load_kernel("fused_linear_jsd");
	facts_compute(k, TY_F32, &f);
	assert_int_equal(f.levels, 2);
	assert_int_equal(f.passes, 3);
	assert_int_equal(f.pass_tile_bytes[0], 8); /* both logits in pass one */
	kernel_free(k);

	/* a full-width store rides with the first pass knowing its value (analysis/plan.c) */
	k = load_kernel("jsd");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.passes, 1); /* dX needs no reduction: one read of the row */
	assert_int_equal(f.pass_tile_bytes[0], 4);
	assert_string_equal(f.chain, "sum");
	kernel_free(k);

	k = load_kernel("fused_add_rmsnorm");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.passes, 2); /* h in the sum's pass, y in the apply pass */
	assert_int_equal(f.pass_tile_bytes[0], 4);
	assert_int_equal(f.pass_tile_bytes[1], 4);
	assert_int_equal(f.pass_vec_bytes[1], 2);
	kernel_free(k);
}

/* Loads that fold into a reduction as they arrive (heuristics.h FOLD_VECS): every load of sum,
 * long_sum and kl_div dies in its reduction; softmax's, rms_norm's and welford's rows are used
 * again after it. */
static void
folded_loads(void **state)
{
	static const struct {
		const char *name;
		int folded;
	} want[] = {{"sum", 1},	    {"long_sum", 1}, {"kl_div", 1},
		    {"softmax", 0}, {"rms_norm", 0}, {"welford", 0}};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		Kernel *k = load_kernel(want[i].name);
		Facts f;
		facts_compute(k, TY_BF16, &f);
		if (f.folded != want[i].folded)
			fail_msg("%s: folded %d, want %d", want[i].name, f.folded, want[i].folded);
		kernel_free(k);
	}
	/* the cost: a round trip every FOLD_VECS vectors of a persistent row, one without */
	Kernel *k = load_kernel("long_sum");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	Config c = {.persistent = 1,
		    .r_block = 15872,
		    .m_block = 1,
		    .num_warps = 1,
		    .vec = 8,
		    .split = 64,
		    .min_ctas = 1,
		    .cluster = 1};
	Cost o;
	cost_model(&f, &c, 1, 1000003, &t, &o);
	assert_true(o.dram_ns == 21 * t.mem_latency_ns); /* 62 vectors a thread */
	f.folded = 0;
	cost_model(&f, &c, 1, 1000003, &t, &o);
	assert_true(o.dram_ns == t.mem_latency_ns);
	kernel_free(k);
}

/* The CTAs' start bounds the memory time from below (cost.c): 4096 CTAs of one warp reading
 * 2.2 MB wait on their start (dispatch_ns apart) and the last one's latency; the same rows in 512
 * CTAs of eight warps do not, and a config with no dispatch cost falls back to the HBM time. */
static void
dispatch_bound(void **state)
{
	Kernel *k = load_kernel("sum");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	Config c = {.persistent = 1,
		    .r_block = 16,
		    .m_block = 16,
		    .num_warps = 1,
		    .vec = 8,
		    .split = 1,
		    .min_ctas = 1,
		    .cluster = 1};
	Cost o;
	cost_model(&f, &c, 65536, 16, &t, &o);
	assert_int_equal(o.ctas, 4096);
	assert_true(o.dispatch_bound);
	assert_true(fabs(o.dispatch_us - 4096 * t.dispatch_ns / 1e3) < 1e-12);
	assert_true(fabs(o.mem_us - (o.dispatch_us + o.cta_us)) < 1e-12);
	assert_true(o.mem_us > o.stream_us);
	c.m_block = 128;
	c.num_warps = 8;
	cost_model(&f, &c, 65536, 16, &t, &o);
	assert_int_equal(o.ctas, 512);
	assert_false(o.dispatch_bound);
	assert_true(o.mem_us == o.stream_us);
	t.dispatch_ns = 0;
	c.m_block = 16;
	c.num_warps = 1;
	cost_model(&f, &c, 65536, 16, &t, &o);
	assert_true(o.mem_us >= o.cta_us && o.mem_us == o.stream_us);
	kernel_free(k);
}

/* A warp access's row part (cost.c): under a 32-byte sector its [M,N] bytes count 32 / span
 * times; exactly one sector on rows of a line or more, ONE_SECTOR times (each request to L2 one
 * sector); two rows sharing a line, or two sectors a row, once. */
static void
one_sector(void **state)
{
	Kernel *k = load_kernel("rms_norm");
	Facts f;
	facts_compute(k, TY_F32, &f);
	Target t = h100();
	Config c = {.persistent = 1,
		    .r_block = 32,
		    .m_block = 16,
		    .num_warps = 1,
		    .vec = 4,
		    .split = 1,
		    .min_ctas = 1,
		    .cluster = 1};
	Cost a, b;
	/* fp32 rows of 32 columns (128 bytes) over 2 threads: 32 bytes a row an access */
	cost_model(&f, &c, 1048576, 32, &t, &a);
	assert_int_equal(a.span, 32);
	assert_true(a.sector > 1 && a.sector < 2);
	/* over 4 threads: 64 bytes, two sectors a request */
	Config d = c;
	d.num_warps = 2;
	cost_model(&f, &d, 1048576, 32, &t, &b);
	assert_int_equal(b.span, 64);
	assert_true(b.sector == 1);
	assert_true(a.hbm_bytes > b.hbm_bytes * 1.05);
	/* over 1 thread: 16 bytes, under a sector */
	Config e = c;
	e.m_block = 32;
	cost_model(&f, &e, 1048576, 32, &t, &b);
	assert_true(b.span == 16 && b.sector == 2);
	kernel_free(k);
	/* bf16 rows of 32 columns (64 bytes) over 2 threads: two rows share each line */
	k = load_kernel("rms_norm");
	facts_compute(k, TY_BF16, &f);
	Config g = c;
	g.vec = 8;
	cost_model(&f, &g, 1048576, 32, &t, &b);
	assert_true(b.span == 32 && b.sector == 1);
	/* at 64 columns (128 bytes) each row its own line: one sector a request */
	g.r_block = 64;
	cost_model(&f, &g, 1048576, 64, &t, &b);
	assert_true(b.span == 32 && b.sector == a.sector);
	kernel_free(k);
	(void)state;
}

/* The issue term (heuristics.h): a short row's element slots, padding included, at the
 * instructions an element plus one, and BLOCK_OPS a warp's row block; the memory time where it is
 * over the HBM's; none for rows over SHORT_ROW or kernels with sums over rows; fp8 counted at the
 * hardware's conversions where the target has them. */
static void
issue_term(void **state)
{
	Kernel *k = load_kernel("cross_entropy");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	/* 48 columns: 4 threads of 2 vectors (64 slots) against 2 threads of 3 (48) */
	Config pad = {.persistent = 1,
		      .r_block = 64,
		      .m_block = 16,
		      .num_warps = 2,
		      .vec = 8,
		      .split = 1,
		      .min_ctas = 1,
		      .cluster = 1};
	Config fit = pad;
	fit.r_block = 48;
	fit.m_block = 32;
	assert_int_equal(issue_slots(&pad, 48), 16);
	assert_int_equal(issue_slots(&fit, 48), 24);
	int64_t M = 524288;
	double rate = t.sub_partitions * t.sms * t.issue_ghz * 1e3;
	Cost a, b;
	cost_model(&f, &pad, M, 48, &t, &a);
	cost_model(&f, &fit, M, 48, &t, &b);
	assert_true(fabs(a.issue_us - M / 16 * 2 * (16.0 * (f.ops + 1) + BLOCK_OPS) / rate) < 1e-9);
	assert_true(fabs(b.issue_us - M / 32 * 2 * (24.0 * (f.ops + 1) + BLOCK_OPS) / rate) < 1e-9);
	assert_true(a.issue_us > b.issue_us);
	/* a slow enough clock binds it: the memory time is the issue term, not the dispatch */
	t.issue_ghz = 0.05;
	cost_model(&f, &pad, M, 48, &t, &a);
	assert_true(a.issue_bound && !a.dispatch_bound);
	assert_true(a.mem_us == a.issue_us && a.mem_us > a.stream_us);
	/* a looped row runs each pass over every chunk's slots */
	Config lo = fit;
	lo.persistent = 0;
	lo.r_block = 16;
	assert_int_equal(issue_slots(&lo, 48), 24);
	/* past SHORT_ROW columns, none */
	Config wide = {.persistent = 1,
		       .r_block = 512,
		       .m_block = 2,
		       .num_warps = 2,
		       .vec = 8,
		       .split = 1,
		       .min_ctas = 1,
		       .cluster = 1};
	cost_model(&f, &wide, M, SHORT_ROW + 256, &t, &a);
	assert_true(a.issue_us == 0 && !a.issue_bound);
	kernel_free(k);
	/* sums over rows: none */
	k = load_kernel("rms_norm_backward");
	facts_compute(k, TY_BF16, &f);
	cost_model(&f, &fit, M, 48, &t, &a);
	assert_true(a.issue_us == 0);
	kernel_free(k);
	/* fp8 stores: one instruction an element at the hardware's cvt, more in software */
	k = load_kernel("fp8_quant");
	facts_compute(k, TY_BF16, &f);
	assert_true(f.issue_ops < f.ops);
	t.fp8_cvt = 1;
	cost_model(&f, &fit, M, 48, &t, &a);
	t.fp8_cvt = 0;
	cost_model(&f, &fit, M, 48, &t, &b);
	assert_true(a.issue_us < b.issue_us);
	kernel_free(k);
}

/* Past SPLIT_UNROLL segments the last CTA's merge loop adds SPLIT_MERGE_NS a partial to the
 * kernel's time (heuristics.h). */
static void
split_merge(void **state)
{
	Kernel *k = load_kernel("sum");
	Facts f;
	facts_compute(k, TY_F32, &f);
	Target t = h100();
	Config c = {.persistent = 1,
		    .r_block = 256,
		    .m_block = 1,
		    .num_warps = 2,
		    .vec = 4,
		    .min_ctas = 1,
		    .cluster = 1};
	Cost at[3];
	const int S[3] = {SPLIT_UNROLL, SPLIT_UNROLL + 1, 512};
	for (int i = 0; i < 3; i++) {
		c.split = S[i];
		cost_model(&f, &c, 1, (int64_t)S[i] * 256, &t, &at[i]);
	}
	/* in the launch term, with the split's combine */
	assert_true(fabs(at[1].launch_us - at[0].launch_us - SPLIT_MERGE_NS / 1e3) < 1e-12);
	assert_true(fabs(at[2].launch_us - at[0].launch_us -
			 (512 - SPLIT_UNROLL) * SPLIT_MERGE_NS / 1e3) < 1e-12);
	kernel_free(k);
}

static void
register_model(void **state)
{
	Kernel *k = load_kernel("rms_norm");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	/* x crosses the sum as f32 (4 bytes an element) beside x*x (4) before it, and beside w,
	 * still bf16 (2), after it: 8 bytes in program order, 6 element by element; persistent
	 * lands 30% of the way up, 6.6 bytes, in quarter bytes 26 */
	assert_int_equal(f.held_bytes, 26);
	assert_true(f.row_regs + 2 * 16 > f.row_peak);
	/* base + an address an array + row values + 90% of the bytes x elements, in words */
	int base = REG_BASE + f.nptrs + f.row_regs;
	assert_int_equal(regs_predict(&f, 1, 16, 8), base + (26 * 16 * 90 / 100 + 15) / 16);
	assert_int_equal(live_bytes_thread(&f, 1, 16, 8), 4 * 24);
	/* scalar accesses: a predicate for each masked element */
	assert_int_equal(regs_predict(&f, 1, 16, 1), base + 24 + 16);
	/* looped: the apply pass's chunk holds x and w in bf16 until y is stored (4 bytes), x*r
	 * and y are f32 (6 in program order); a chunk lands 80% of the way up, 5.6 bytes; plus
	 * the loop's state and the sum's partial */
	assert_int_equal(f.loop_bytes, 22);
	assert_int_equal(regs_predict(&f, 0, 8, 8), base + REG_LOOP + (22 * 8 + 15) / 16 + 1);
	/* under a cap the scalars shrink to 12 and the row's words stay, the whole persistent peak
	 * (26 quarter bytes x 16 elements): an estimate over a 64-register limit (32 warps) that
	 * the capped count fits is no spill; of a looped chunk 85% stays */
	assert_int_equal(regs_capped(&f, 1, 16, 8), 12 + 26);
	assert_int_equal(regs_capped(&f, 0, 8, 8), 12 + (22 * 8 * 85 / 100 + 15) / 16 + 1);
	assert_true(regs_capped(&f, 1, 16, 8) < regs_predict(&f, 1, 16, 8));
	/* a misaligned row: 4 threads a row hold cdiv(2*7, 4) = 4 edge elements of 2 words and a
	 * predicate each, the weight read element by element (8 elements: 2), and the bounds (4);
	 * at 32 threads a row one element; scalar accesses add nothing */
	assert_int_equal(regs_edge(&f, 8, 8, 4), 4 * (2 + 1) + 1 * 8 / 4 + 4);
	assert_int_equal(regs_edge(&f, 8, 8, 32), 2 + 1 + 2 + 4);
	assert_int_equal(regs_edge(&f, 8, 1, 4), 0);
	kernel_free(k);

	Kernel *sum = load_kernel("sum");
	facts_compute(sum, TY_BF16, &f);
	/* nothing crosses a barrier or is stored: ptxas folds each bf16 load into the partial as it
	 * arrives, so the row counts half its 2 bytes */
	assert_int_equal(f.held_bytes, 4);
	facts_compute(sum, TY_F32, &f);
	assert_int_equal(f.held_bytes, 8);
	/* a looped chunk of f32 elements folds into the sum: 8 quarter bytes an element */
	assert_int_equal(f.pass_bytes[0], 8);
	kernel_free(sum);

	/* three sums of the same loads wait on none of each other: they share one exchange and fold
	 * their partials in one walk over the row, so nothing is held across a barrier */
	Kernel *three =
	    parse_text("inline.rk", "kernel three\nin a: T[M,N]\nin b: T[M,N]\n"
				    "out c: f32[M]\n%a = load a\n%b = load b\n"
				    "%ab = mul %a, %b\n%aa = mul %a, %a\n%bb = mul %b, %b\n"
				    "%x = sum %ab\n%y = sum %aa\n%z = sum %bb\n"
				    "%p = mul %y, %z\n%q = div %x, %p\nstore c, %q\n");
	assert_int_equal(three->plan->row_exchanges, 1);
	facts_compute(three, TY_BF16, &f);
	assert_true(f.folded);
	/* the loads element by element (2 bf16 bytes each, halved), the three f32 products in
	 * program order (halved too), 30% of the way up: 3 bytes, in quarter bytes 12 */
	assert_int_equal(f.held_bytes, 12);
	kernel_free(three);

	/* argmax's column as f32, made before the max's exchange, is held there with registers to
	 * spare and recomputed after it under a cap */
	Kernel *am =
	    parse_text("inline.rk", "kernel am\nin x: T[M,N]\nout i: f32[M]\n"
				    "%x = load x\n%m = max %x\n%j = col\n%jf = cast.f32 %j\n"
				    "%c = eq %x, %m\n%s = select %c, %jf, N\n%a = min %s\n"
				    "store i, %a\n");
	facts_compute(am, TY_F32, &f);
	assert_true(f.held_spare > f.held_bytes);
	kernel_free(am);

	/* the combine of sums over rows: 4 registers a 16-byte load and a turn's sums; 16 loads a
	 * trip spill under the 64 registers of 32 warps, 9 fit; a trip of 3 loads is unrolled 4
	 * times
	 */
	assert_int_equal(regs_combine(16, 1, 0), REG_BASE + 15 + 4 * 17);
	assert_true(regs_combine(16, 1, 1) > 64 && regs_combine(9, 1, 1) <= 64);
	assert_int_equal(regs_combine(3, 1, 0), REG_BASE + 15 + 4 * (12 + 1));

	Kernel *ce = load_kernel("cross_entropy");
	facts_compute(ce, TY_BF16, &f);
	/* the online max/sum pass takes the chunk's max before its exps: the chunk is held, f32 */
	assert_int_equal(f.loop_bytes, 16);
	kernel_free(ce);

	Kernel *grpo = load_kernel("grpo");
	facts_compute(grpo, TY_BF16, &f);
	/* grpo's [M] epilogue outlives its chunk: a small chunk costs the epilogue's registers */
	assert_true(f.row_peak > f.row_regs + 4);
	assert_int_equal(regs_predict(&f, 0, 1, 8), REG_BASE + REG_LOOP + f.nptrs + f.row_peak);
	kernel_free(grpo);
}

/* A config whose estimate is over its limit but whose capped count fits does not spill, and its
 * occupancy is the limit's; one whose capped count is over spills. */
static void
cost_at_cap(void **state)
{
	Kernel *k = load_kernel("layer_norm");
	Facts f;
	facts_compute(k, TY_F32, &f);
	Target t = h100();
	Config c = {
	    .persistent = 1, .r_block = 16384, .m_block = 1, .num_warps = 32, .vec = 4, .split = 1};
	Cost o;
	cost_model(&f, &c, 4096, 16384, &t, &o);
	assert_int_equal(o.reg_limit, 64);
	assert_true(o.regs > o.reg_limit);
	assert_int_equal(o.spills, 0);
	assert_int_equal(o.ctas_per_sm, 1); /* 64 registers x 1024 threads fill the file */
	c.num_warps = 8;
	c.r_block = 65536;
	cost_model(&f, &c, 4096, 65536, &t, &o);
	assert_true(regs_capped(&f, 1, 256, 4) > o.reg_limit);
	assert_int_equal(o.spills, 1);
	kernel_free(k);
}

/* cost_occupancy at a given register count (explain --ptxas's CTAs an SM), and cost_model's count
 * is it at the model's own registers: 96 registers a thread of 128 take 5 CTAs an SM, 70 (72
 * allocated) 7, 40 12, 32 the 16 the threads allow. */
static void
occupancy_at_regs(void **state)
{
	Kernel *k = load_kernel("layer_norm");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	Config c = {
	    .persistent = 1, .r_block = 4096, .m_block = 1, .num_warps = 4, .vec = 8, .split = 1};
	const char *lim = NULL;
	assert_int_equal(cost_occupancy(&f, &c, 4096, &t, 96, &lim), 5);
	assert_string_equal(lim, "registers");
	assert_int_equal(cost_occupancy(&f, &c, 4096, &t, 70, &lim), 7);
	assert_int_equal(cost_occupancy(&f, &c, 4096, &t, 40, &lim), 12);
	assert_int_equal(cost_occupancy(&f, &c, 4096, &t, 32, &lim), 16);
	assert_string_equal(lim, "threads");
	Cost o;
	c.min_ctas = 5;
	cost_model(&f, &c, 4096, 4096, &t, &o);
	int regs = o.regs < o.reg_limit ? o.regs : o.reg_limit;
	assert_int_equal(o.ctas_per_sm, cost_occupancy(&f, &c, 4096, &t, regs, &lim));
	assert_string_equal(o.limit, lim);
	kernel_free(k);
	(void)state;
}

/* The pre-sum: a persistent row of several row groups writes one slot a CTA and takes the groups'
 * partial rows of shared memory (2 colsums x 4 groups x 1024 floats = 32 KiB), which the
 * occupancy counts (64 KiB of them leave 3 CTAs an SM of sm_90's 228 KiB); a looped row, one
 * group, or partial rows over PRESUM_MAX_BYTES (2 x 2 x 8192 floats) keep a slot a group. */
static void
presum_layout(void **state)
{
	Kernel *k = load_kernel("layer_norm_backward");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(f.colsums, 2);
	Target t = h100();
	Config c = {.persistent = 1,
		    .r_block = 1024,
		    .m_block = 4,
		    .num_warps = 8,
		    .vec = 8,
		    .split = 1,
		    .grid = 264};
	ColsumLayout cl;
	colsum_layout(&c, 2, 1024, &cl);
	assert_int_equal(cl.per_cta, 1);
	assert_int_equal(cl.slots, 264);
	assert_int_equal(smem_presum_bytes(2, &c, 1024), 32768);
	Smem sm;
	smem_layout(k, TY_BF16, 1024, &c, &sm, NULL, NULL);
	assert_true(sm.dyn_bytes >= 32768);
	c.persistent = 0;
	colsum_layout(&c, 2, 1024, &cl);
	assert_int_equal(cl.per_cta, 4);
	assert_int_equal(cl.slots, 1056);
	assert_int_equal(smem_presum_bytes(2, &c, 1024), 0);
	c.persistent = 1;
	c.m_block = 1;
	colsum_layout(&c, 2, 1024, &cl);
	assert_int_equal(cl.per_cta, 1);
	assert_int_equal(smem_presum_bytes(2, &c, 1024), 0);
	c.m_block = 2;
	c.r_block = 8192;
	colsum_layout(&c, 2, 8192, &cl);
	assert_int_equal(cl.per_cta, 2);
	assert_false(colsum_presum(2, &c, 8192));
	c = (Config){.persistent = 1,
		     .r_block = 2048,
		     .m_block = 4,
		     .num_warps = 4,
		     .vec = 8,
		     .split = 1,
		     .grid = 264};
	const char *lim = NULL;
	assert_int_equal(smem_presum_bytes(2, &c, 2048), 65536);
	assert_int_equal(cost_occupancy(&f, &c, 2048, &t, 32, &lim), 3);
	assert_string_equal(lim, "shared memory");
	kernel_free(k);
	(void)state;
}

/* The one slot: a grid of one band (one CTA, or one cluster's segments) of one row group, unless
 * its partials stay in the workspace while the rows stream; then the launch is not cooperative
 * and takes no shared memory for a combine. */
static void
one_slot(void **state)
{
	Config c = {.persistent = 0,
		    .r_block = 1024,
		    .m_block = 1,
		    .num_warps = 4,
		    .vec = 4,
		    .split = 1,
		    .grid = 4,
		    .cluster = 4};
	assert_true(colsum_one_slot(2, 1, &c, 30000));
	assert_false(config_cooperative(&c, 2, 1, 30000));
	assert_int_equal(smem_combine_bytes(2, 1, &c, 30000), 0);
	c.grid = 8; /* two bands: a slot each, and the combine */
	assert_false(colsum_one_slot(2, 1, &c, 30000));
	assert_true(config_cooperative(&c, 2, 1, 30000));
	assert_int_equal(smem_combine_bytes(2, 1, &c, 30000), 128 * 16);
	c = (Config){.persistent = 1,
		     .r_block = 1024,
		     .m_block = 2,
		     .num_warps = 8,
		     .vec = 8,
		     .split = 1,
		     .grid = 1};
	assert_false(colsum_one_slot(2, 1, &c, 1024)); /* two row groups, two slots */
	c.m_block = 1;
	assert_true(colsum_one_slot(2, 1, &c, 1024));
	assert_false(colsum_one_slot(0, 1, &c, 1024));
	c.grid = 0;
	assert_false(colsum_one_slot(2, 1, &c, 1024));
	/* past shared memory: the own pass stores its sums; partials kept in the workspace (a
	 * colsum that needs a row reduction) keep the combine */
	c = (Config){.persistent = 0,
		     .r_block = 4096,
		     .m_block = 1,
		     .num_warps = 8,
		     .vec = 4,
		     .split = 1,
		     .grid = 1};
	assert_true(ws_colsums(1, &c, 100000));
	assert_true(colsum_one_slot(1, 1, &c, 100000));
	assert_false(colsum_one_slot(1, 0, &c, 100000));
	assert_true(config_cooperative(&c, 1, 0, 100000));
	c.coop = 1; /* cooperative rows are cooperative whatever the slots */
	assert_true(config_cooperative(&c, 1, 1, 100000));
	(void)state;
}

/* A grid of clusters holds the cluster CTAs' remote addresses through its rows (LLVM hoists
 * them out of the grid's loop): 2 registers a CTA of the cluster in both counts; a cluster row
 * without a grid makes them at the exchange. */
static void
remote_regs(void **state)
{
	Kernel *k = load_kernel("layer_norm_backward");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	Config c = {.persistent = 0,
		    .r_block = 4096,
		    .m_block = 1,
		    .num_warps = 16,
		    .vec = 8,
		    .split = 1,
		    .smem = 1,
		    .grid = 16,
		    .cluster = 16,
		    .min_ctas = 1};
	Cost grid, row;
	cost_model(&f, &c, 1, 262144, &t, &grid);
	assert_int_equal(grid.remote_regs, 32);
	c.cluster = 8;
	c.grid = 8;
	Cost eight;
	cost_model(&f, &c, 1, 262144, &t, &eight);
	assert_int_equal(eight.remote_regs, 16);
	assert_int_equal(grid.regs - eight.regs, 16);
	assert_int_equal(grid.capped - eight.capped, 16);
	Kernel *r = load_kernel("layer_norm");
	Facts g;
	facts_compute(r, TY_BF16, &g);
	c.grid = 0;
	cost_model(&g, &c, 1, 262144, &t, &row);
	assert_int_equal(row.remote_regs, 0);
	kernel_free(r);
	kernel_free(k);
	(void)state;
}

/* Clusters of 4 CTAs or more fill each GPC on its own (sm_90's gpc_sms, six of 17 SMs and two of
 * 15): 16-CTA clusters at 2 CTAs an SM run 14 clusters at once, 224 CTAs, where the 132 SMs as one
 * pool would hold 256, in a grid of several waves and in one of 128 CTAs alike; 2-CTA clusters are
 * counted over the SMs and fill all 264 slots. */
static void
cluster_slots(void **state)
{
	Kernel *k = load_kernel("fused_linear_jsd");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	assert_int_equal(t.ngpc, 8);
	Config c = {.r_block = 512,
		    .m_block = 8,
		    .num_warps = 8,
		    .vec = 8,
		    .split = 1,
		    .min_ctas = 2,
		    .smem = 1,
		    .cluster = 16};
	Cost o;
	cost_model(&f, &c, 4096, 50257, &t, &o);
	assert_int_equal(o.ctas_per_sm, 2);
	assert_int_equal(o.ctas, 8192);
	assert_true(fabs(o.waves - 8192.0 / 224) < 1e-9);
	c.m_block = 1;
	c.cluster = 2;
	c.r_block = 4096;
	cost_model(&f, &c, 4096, 50257, &t, &o);
	assert_true(fabs(o.waves - 8192.0 / 264) < 1e-9);
	c.m_block = 8;
	c.cluster = 16;
	c.r_block = 512;
	cost_model(&f, &c, 64, 50257, &t, &o); /* 128 CTAs: one wave, GPC by GPC too */
	assert_string_equal(o.slots_by, "GPC by GPC");
	assert_true(fabs(o.waves - 128.0 / 224) < 1e-9);
	c.m_block = 1;
	c.cluster = 2;
	c.r_block = 4096;
	cost_model(&f, &c, 64, 50257, &t, &o); /* 128 CTAs of 2-CTA clusters: the pool's count */
	assert_string_equal(o.slots_by, "over the SMs");
	assert_true(fabs(o.waves - 128.0 / 264) < 1e-9);
	kernel_free(k);
}

/* Where the target lists the driver's count (sm_90's cluster_ctas, measured on the H200) and the
 * row blocks fill the SMs, a cluster size's slots are the fewer of it and the GPCs': clusters of
 * 16 at 5 CTAs an SM, 608 by the GPCs and 560 by the driver (at 4096 rows; at 37, the GPCs'); of
 * 4 at 3 an SM, 376 and 368; of 16 at 1 an SM, 96 by the GPCs where the driver holds 112 (not
 * taken); at 9 CTAs an SM nothing is listed. */
static void
cluster_slots_driver(void **state)
{
	Target t = h100();
	Config c = {.cluster = 16, .m_block = 1};
	const char *by;
	assert_int_equal(cost_slots(&c, &t, 5, 4096, &by), 560);
	assert_string_equal(by, "as the driver holds them");
	assert_int_equal(cost_slots(&c, &t, 5, 37, &by), 608);
	assert_string_equal(by, "GPC by GPC");
	assert_int_equal(cost_slots(&c, &t, 5, 132, NULL), 560);
	c.m_block = 2; /* 66 row blocks of 132 rows */
	assert_int_equal(cost_slots(&c, &t, 5, 132, NULL), 608);
	c.m_block = 1;
	assert_int_equal(cost_slots(&c, &t, 1, 4096, &by), 96);
	assert_string_equal(by, "GPC by GPC");
	assert_int_equal(cost_slots(&c, &t, 9, 4096, &by), 6 * 144 + 2 * 128);
	assert_string_equal(by, "GPC by GPC");
	c.cluster = 4;
	assert_int_equal(cost_slots(&c, &t, 3, 4096, &by), 368);
	c.coop = 1; /* cooperating CTAs are not placed in a GPC */
	assert_int_equal(cost_slots(&c, &t, 3, 4096, &by), 396);
	assert_string_equal(by, "over the SMs");
	(void)state;
}

/* A target without a positive issue_ghz is refused: the issue term divides by it. */
static void
issue_ghz_refused(void **state)
{
	Diag d = {0};
	char *file = read_file("heuristics/targets/sm_90.json", NULL, &d);
	if (!file)
		fail_msg("%s", d.msg);
	char *at = strstr(file, "\"issue_ghz\": 1.98");
	assert_non_null(at);
	Buf src = {0};
	buf_printf(&src, "%.*s\"issue_ghz\": 0%s", (int)(at - file), file,
		   at + strlen("\"issue_ghz\": 1.98"));
	Target t;
	assert_int_not_equal(target_parse("x", src.s, &t, &d), 0);
	assert_string_equal(d.msg, "error: target x: sms, hbm_gbps, max_threads_cta, "
				   "sub_partitions and issue_ghz must be positive");
	buf_free(&src);
	free(file);
	(void)state;
}

/* A target's cluster_ctas that is not what cost_slots can read is refused with one diagnostic:
 * sm_90's file with its table replaced by each of these. */
static void
cluster_ctas_refused(void **state)
{
	static const char *const bad[] = {
	    "[1]",		 /* not an object */
	    "{\"3x\": [3]}",	 /* not a size */
	    "{\"1\": [1]}",	 /* under 2 */
	    "{\"32\": [32]}",	 /* over cluster_max */
	    "{\"4\": []}",	 /* no counts */
	    "{\"4\": [6]}",	 /* not whole clusters */
	    "{\"4\": [4, 400]}", /* over 2 CTAs an SM of 132 SMs */
	    "{\"4\": [4.5]}",	 /* not an integer */
	};
	Diag d = {0};
	char *file = read_file("heuristics/targets/sm_90.json", NULL, &d);
	if (!file)
		fail_msg("%s", d.msg);
	char *from = strstr(file, "\"cluster_ctas\": "),
	     *to = strstr(file, "\"cluster_ctas_note\"");
	assert_non_null(from);
	assert_non_null(to);
	from += strlen("\"cluster_ctas\": ");
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		Buf src = {0};
		buf_printf(&src, "%.*s%s, %s", (int)(from - file), file, bad[i], to);
		Target t;
		assert_int_not_equal(target_parse("x", src.s, &t, &d), 0);
		assert_string_equal(d.msg,
				    "error: target x: 'cluster_ctas' maps a cluster size (2 to "
				    "cluster_max) to 1 to 32 counts of CTAs, each a "
				    "multiple of the size and at most sms times the CTAs an SM");
		buf_free(&src);
	}
	Buf src = {0}; /* the file itself parses */
	buf_printf(&src, "%s", file);
	Target t;
	assert_int_equal(target_parse("x", src.s, &t, &d), 0);
	assert_int_equal(t.ncluster_ctas[16], 8);
	buf_free(&src);
	free(file);
	(void)state;
}

/* A forced config keeps the policy's other knobs but works out min_ctas again for its own
 * threads, unless min_ctas is forced too: the pick's two CTAs an SM are three once the CTA has
 * 16 warps of 33 predicted registers, one at 32 warps (40 x 1024 fills more than half the file). */
static void
forced_min_ctas(void **state)
{
	Kernel *k = load_kernel("rms_norm");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	Diag d = {0};
	Config c = {1, 4096, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(
	    config_force(&c, "num_warps=16", k, &f, 4096, 4096, &t, POLICY_RKC, NULL, &d), 0);
	assert_int_equal(c.num_warps, 16);
	assert_int_equal(c.min_ctas, 3);
	c = (Config){1, 4096, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(config_force(&c, "num_warps=32,r_block=8192", k, &f, 4096, 4096, &t,
				      POLICY_RKC, NULL, &d),
			 0);
	assert_int_equal(c.min_ctas, 1);
	c = (Config){1, 4096, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(
	    config_force(&c, "num_warps=16", k, &f, 4096, 4096, &t, POLICY_HELION2828, NULL, &d),
	    0);
	assert_int_equal(c.min_ctas, 1);
	c = (Config){1, 4096, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(
	    config_force(&c, "min_ctas=3", k, &f, 4096, 4096, &t, POLICY_RKC, NULL, &d), 0);
	assert_int_equal(c.min_ctas, 3);
	assert_int_equal(config_force(&c, "num_warps=32,min_ctas=3", k, &f, 4096, 4096, &t,
				      POLICY_RKC, NULL, &d),
			 -1);
	/* threads a row forced without r_block: the choice's r_block rounded up to whole steps */
	c = (Config){1, 4096, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(
	    config_force(&c, "num_warps=3", k, &f, 4096, 4096, &t, POLICY_RKC, NULL, &d), 0);
	assert_int_equal(c.r_block, 4608);
	c = (Config){0, 2048, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(
	    config_force(&c, "num_warps=3", k, &f, 4096, 4096, &t, POLICY_RKC, NULL, &d), 0);
	assert_int_equal(c.r_block, 2304);
	c = (Config){1, 4096, 1, 8, 8, 1, 0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(config_force(&c, "num_warps=3,r_block=4096", k, &f, 4096, 4096, &t,
				      POLICY_RKC, NULL, &d),
			 -1);
	kernel_free(k);
}

/* rkc tune's list: the policy's pick first, then other configs that pass the user's check, none
 * twice. */
static void
candidates_start_with_the_pick(void **state)
{
	static const struct {
		const char *k;
		int64_t M, N;
	} pts[] = {
	    {"rms_norm", 4096, 4096}, {"cross_entropy", 4096, 50257}, {"long_sum", 8, 2097152}};
	Target t = h100();
	for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
		Kernel *k = load_kernel(pts[i].k);
		Facts f;
		facts_compute(k, TY_BF16, &f);
		Choice pick, *cs = calloc(16, sizeof *cs);
		Diag d = {0};
		assert_int_equal(choose(k, &f, pts[i].M, pts[i].N, &t, POLICY_RKC, &pick, &d), 0);
		int n = rkc_candidates(k, &f, pts[i].M, pts[i].N, &t, cs, 16);
		assert_true(n > 1);
		assert_true(config_equal(&cs[0].cfg, &pick.cfg));
		assert_int_equal(cs[0].nreasons, pick.nreasons);
		for (int a = 0; a < n; a++) {
			assert_int_equal(check_both(&cs[a].cfg, k, &f, pts[i].M, pts[i].N, &t, &d),
					 0);
			for (int b = 0; b < a; b++)
				assert_false(config_equal(&cs[a].cfg, &cs[b].cfg));
		}
		free(cs);
		kernel_free(k);
	}
}

static void
check_rejects(void **state)
{
	static const struct {
		const char *config, *err;
	} bad[] = {
	    {"num_warps=3,m_block=2",
	     "num_warps=3 with m_block=2: a warp count that is not a power of two needs m_block=1 "
	     "(one row a CTA)"},
	    {"num_warps=3", "r_block=4096: must be a multiple of threads per row * vec = 96 * 8"},
	    {"m_block=512", "m_block=512: threads per row"},
	    {"vec=16", "vec=16: must be a power of two with vec*2 bytes <= 16 (at most 8)"},
	    {"r_block=1000", "r_block=1000: must be a multiple of threads per row * vec"},
	    {"split=2", "split=2: row splitting needs one pass of plain reductions"},
	    {"persistent=1,r_block=2048", "persistent needs r_block >= N (4096)"},
	    {"min_ctas=9",
	     "min_ctas=9: must be from 1 to 8 (CTAs of 256 threads an SM of sm_90 can hold)"},
	    {"coop=1",
	     "coop=1 spreads a row over cluster=K cooperating CTAs: it needs cluster over 1"},
	    {"persistent=0,r_block=8,m_block=256,cluster=64,coop=1",
	     "cluster=64 with coop=1: the first 1 lane(s) of a row read the 64 CTAs' partials, at "
	     "most "
	     "32 each"},
	    {"persistent=1,r_block=8192,num_warps=32,cluster=1024,coop=1",
	     "cluster=1024 with coop=1: a row's CTAs must all be resident at once, and sm_90 holds "
	     "at "
	     "most 264 CTAs of 1024 threads"},
	    {"stash=1",
	     "stash=1 keeps values for the apply pass beside the rows kept on chip: it needs "
	     "persistent=0 and smem=1 or 2"},
	    {"persistent=0,r_block=2048,smem=1,stash=1",
	     "stash=1: this kernel's apply pass recomputes no transcendental or division from the "
	     "last reduction pass (2 pass(es)), so there is nothing to stash"},
	    {"persistent=0,r_block=2048,steps=1",
	     "steps=1 makes a persistent row's tail a vector at a time: it needs persistent=1"},
	    {"steps=1,grid=132", "steps=1 with grid=132: a persistent grid issues and holds"},
	};
	Kernel *k = load_kernel("rms_norm");
	Target t = h100();
	Facts f;
	facts_compute(k, TY_BF16, &f);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		Config c = {1, 4096, 1, 8, 8, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0};
		Diag d = {0};
		assert_int_equal(config_parse(bad[i].config, &c, &d), 0);
		assert_int_equal(check_both(&c, k, &f, 2048, 4096, &t, &d), -1);
		if (!strstr(d.msg, bad[i].err))
			fail_msg("%s: got '%s'", bad[i].config, d.msg);
	}
	Config ok = {1, 4096, 1, 8, 8, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	Diag d = {0};
	assert_int_equal(check_both(&ok, k, &f, 2048, 4096, &t, &d), 0);
	/* steps=1: rms_norm's row has a tail (its scaling by the weight), sum's ends on its
	 * reduction
	 */
	Config st = ok;
	st.steps = 1;
	assert_int_equal(check_both(&st, k, &f, 2048, 4096, &t, &d), 0);
	Kernel *ks = load_kernel("sum");
	Facts fs;
	facts_compute(ks, TY_BF16, &fs);
	assert_int_equal(check_both(&st, ks, &fs, 2048, 4096, &t, &d), -1);
	if (!strstr(d.msg, "steps=1: this kernel's persistent row has no tail"))
		fail_msg("steps=1 on sum: got '%s'", d.msg);
	d = (Diag){0};
	/* a warp count that is not a power of two: one row a CTA, whose vectors it may split evenly
	 * (5120 columns of bf16 are 640 vectors of 8, 4 a thread of 5 warps) */
	Config odd = ok;
	assert_int_equal(config_parse("num_warps=5,r_block=5120", &odd, &d), 0);
	assert_int_equal(check_both(&odd, k, &f, 2048, 5120, &t, &d), 0);
	/* sums over rows: the combine's lanes divide the CTA's threads, so its row lanes are whole
	 * (a slice of 320 vectors: a CTA of 160 threads takes 32 lanes and 5 row lanes, one of 256
	 * threads 256 lanes) */
	ColsumLayout cl;
	ColsumSlices sl;
	odd.grid = 16;
	colsum_layout(&odd, 1, 20480, &cl);
	colsum_slices(&cl, &odd, 1, 16, &sl);
	assert_int_equal(sl.vectors, 320);
	assert_int_equal(sl.lanes, 32);
	odd.num_warps = 8;
	colsum_slices(&cl, &odd, 1, 16, &sl);
	assert_int_equal(sl.lanes, 256);
	assert_int_equal(config_parse("warps=8", &ok, &d), -1);
	/* config_parse takes evict 0 or 1 only; config_check still judges a Config built in code */
	Config ev = {1, 4096, 1, 8, 8, 1, 2, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	d = (Diag){0};
	assert_int_equal(check_both(&ev, k, &f, 2048, 4096, &t, &d), -1);
	assert_non_null(
	    strstr(d.msg, "evict=2: must be 0 (no cache hints) or 1 (L2 eviction hints)"));
	/* a cluster given over a cooperative pick is a hardware cluster unless coop is given too;
	 * split over 1 undoes both */
	Config co = {1, 4096, 1, 8, 8, 1, 0, 1, 0, 33, 0, 0, 0, 1, 0, 0, 0};
	assert_int_equal(config_parse("cluster=4", &co, &d), 0);
	assert_int_equal(co.cluster * 10 + co.coop, 40);
	assert_int_equal(config_parse("cluster=8,coop=1", &co, &d), 0);
	assert_int_equal(co.cluster * 10 + co.coop, 81);
	assert_int_equal(config_parse("num_warps=16", &co, &d), 0);
	assert_int_equal(co.coop, 1);
	assert_int_equal(config_parse("split=2", &co, &d), 0);
	assert_int_equal(co.cluster * 10 + co.coop, 10);
	/* a grid of bands given over a grid with the next row ahead and a work counter walks a
	 * static order: both off, unless given */
	Config ga = {1, 4096, 1, 8, 8, 1, 0, 1, 0, 1, 264, 1, 1, 0, 0, 0, 0};
	assert_int_equal(config_parse("grid=20,cluster=5,coop=1", &ga, &d), 0);
	assert_int_equal(ga.dynamic * 10 + ga.ahead, 0);
	Config gb = {1, 4096, 1, 8, 8, 1, 0, 1, 0, 1, 264, 0, 1, 0, 0, 0, 0};
	assert_int_equal(config_parse("grid=20,cluster=5,ahead=1", &gb, &d), 0);
	assert_int_equal(gb.ahead, 1);
	/* a grid given over a grid of bands resizes the bands' grid, its cluster and coop kept,
	 * where it is whole bands; else, and over a CTA a row segment, it walks whole rows */
	Config gc = {1, 8192, 1, 32, 8, 1, 0, 1, 0, 4, 132, 0, 0, 1, 0, 0, 0};
	assert_int_equal(config_parse("grid=8", &gc, &d), 0);
	assert_int_equal(gc.cluster * 10000 + gc.coop * 1000 + gc.grid, 41008);
	Config gd = {0, 8192, 1, 32, 8, 1, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0};
	assert_int_equal(config_parse("grid=8", &gd, &d), 0);
	assert_int_equal(gd.cluster * 100 + gd.grid, 108);
	Config ge = {1, 8192, 1, 32, 8, 1, 0, 1, 0, 4, 132, 0, 0, 1, 0, 0, 0};
	assert_int_equal(config_parse("grid=6", &ge, &d), 0);
	assert_int_equal(ge.cluster * 10000 + ge.coop * 1000 + ge.grid, 10006);
	kernel_free(ks);
	kernel_free(k);
}

/* PR #2828's rules on Helion's test split with Helion's facts, worked out by hand, where our
 * facts match Helion's: P/L, chunk, M_BLOCK, warps (docs/heuristics.md). */
static void
helion2828_decisions(void **state)
{
	static const struct {
		const char *k, *dt;
		int64_t M, N;
		int persistent;
		int64_t r_block;
		int m_block, warps;
	} want[] = {
	    /* rms_norm, layer_norm: all persistent; w4 at 896, w8 1280..4096, w16 above */
	    {"rms_norm", "fp32", 16384, 896, 1, 1024, 1, 4},
	    {"rms_norm", "fp32", 8192, 1280, 1, 2048, 1, 8},
	    {"rms_norm", "fp32", 2048, 4096, 1, 4096, 1, 8},
	    {"rms_norm", "fp32", 2048, 10240, 1, 16384, 1, 16},
	    {"rms_norm", "bf16", 16384, 896, 1, 1024, 1, 1}, /* the narrow 1-warp rule */
	    {"layer_norm", "fp32", 16384, 896, 1, 1024, 1, 4},
	    {"layer_norm", "fp32", 2048, 6144, 1, 8192, 1, 16},
	    {"layer_norm", "bf16", 16384, 896, 1, 1024, 1, 1},
	    /* softmax: persistent to 40960 (w32 past 16384), 98304 loops at 16384 */
	    {"softmax", "fp32", 131072, 128, 1, 128, 8, 4},
	    {"softmax", "bf16", 131072, 128, 1, 128, 8, 1},
	    {"softmax", "bf16", 8192, 896, 1, 1024, 1, 1},
	    {"softmax", "fp32", 2048, 16384, 1, 16384, 1, 16},
	    {"softmax", "fp32", 2048, 40960, 1, 65536, 1, 32},
	    {"softmax", "fp32", 512, 98304, 0, 16384, 1, 32},
	    /* sum: persistent through 16384 wide; flips to looped 16384 at N >= 18432 */
	    {"sum", "fp32", 4096, 10240, 1, 16384, 1, 16},
	    {"sum", "bf16", 4096, 16384, 1, 16384, 1, 16},
	    {"sum", "fp32", 4096, 18432, 0, 16384, 1, 32},
	    {"sum", "bf16", 2048, 24576, 0, 16384, 1, 32},
	    /* long_sum: all looped 16384, w32 */
	    {"long_sum", "fp32", 160, 131072, 0, 16384, 1, 32},
	    {"long_sum", "bf16", 8, 2097152, 0, 16384, 1, 32},
	    /* cross_entropy fp32: persistent to 50257, looped 16384 from 114688 */
	    {"cross_entropy", "fp32", 8192, 32768, 1, 32768, 1, 32},
	    {"cross_entropy", "fp32", 2048, 50257, 1, 65536, 1, 32},
	    {"cross_entropy", "fp32", 4096, 114688, 0, 16384, 1, 32},
	    {"cross_entropy", "fp32", 1024, 250000, 0, 16384, 1, 32},
	    /* welford: persistent for every test N; the narrow rule at bf16 896 */
	    {"welford", "fp32", 8192, 14336, 1, 16384, 1, 16},
	    {"welford", "bf16", 16384, 896, 1, 1024, 1, 1},
	    /* fused_linear_jsd: 7 live tiles, 7*32000*4 > 737280, loops at pp2(245760/28) */
	    {"fused_linear_jsd", "fp32", 8192, 32000, 0, 8192, 1, 32},
	    {"fused_linear_jsd", "fp32", 16384, 32000, 0, 8192, 1, 32},
	    {"fused_linear_jsd", "bf16", 4096, 128256, 0, 8192, 1, 32},
	};
	Target t = h100();
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		Kernel *k = load_kernel(want[i].k);
		Type dt;
		assert_int_equal(dtype_parse(want[i].dt, &dt), 0);
		Facts f;
		facts_compute(k, dt, &f);
		Choice c;
		Diag d = {0};
		assert_int_equal(choose(k, &f, want[i].M, want[i].N, &t, POLICY_HELION2828, &c, &d),
				 0);
		const Config *g = &c.cfg;
		if (g->persistent != want[i].persistent || g->r_block != want[i].r_block ||
		    g->m_block != want[i].m_block || g->num_warps != want[i].warps)
			fail_msg("%s %s %lldx%lld: got %s r%lld m%d w%d, want %s r%lld m%d w%d",
				 want[i].k, want[i].dt, (long long)want[i].M, (long long)want[i].N,
				 g->persistent ? "P" : "L", (long long)g->r_block, g->m_block,
				 g->num_warps, want[i].persistent ? "P" : "L",
				 (long long)want[i].r_block, want[i].m_block, want[i].warps);
		assert_int_equal(g->split, 1);
		kernel_free(k);
	}
}

/* The rkc policy never picks a config its own model says spills, and every pick passes the
 * check a user-forced config must pass. */
static void
rkc_picks_are_valid(void **state)
{
	static const char *kernels[] = {"rms_norm",	 "softmax",	     "long_sum",
					"cross_entropy", "fused_linear_jsd", "dynamic_quant"};
	static const int64_t shapes[][2] = {{1, 1},	  {3, 37},	 {8, 2097152},
					    {16384, 896}, {4096, 50257}, {131072, 128}};
	Target t = h100();
	for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
		Kernel *k = load_kernel(kernels[i]);
		for (int dt = 0; dt < 2; dt++) {
			Facts f;
			facts_compute(k, dt ? TY_F32 : TY_BF16, &f);
			for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
				Choice c;
				Diag d = {0};
				int64_t M = shapes[s][0], N = shapes[s][1];
				assert_int_equal(choose(k, &f, M, N, &t, POLICY_RKC, &c, &d), 0);
				if (check_both(&c.cfg, k, &f, M, N, &t, &d) || c.cost.spills)
					fail_msg("%s %lldx%lld: %s (regs %d)", kernels[i],
						 (long long)M, (long long)N, d.msg, c.cost.regs);
				assert_true(c.nreasons >= 6);
			}
		}
		kernel_free(k);
	}
}

/* A long row with few rows is cut over CTAs (split or a cluster); narrow rows pack several rows
 * per CTA. */
static void
rkc_split_and_pack(void **state)
{
	Target t = h100();
	Kernel *k = load_kernel("long_sum");
	Facts f;
	facts_compute(k, TY_F32, &f);
	Choice c;
	Diag d = {0};
	assert_int_equal(choose(k, &f, 8, 2097152, &t, POLICY_RKC, &c, &d), 0);
	assert_true(config_segments(&c.cfg) > 1);
	kernel_free(k);
	k = load_kernel("rms_norm");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(choose(k, &f, 16384, 896, &t, POLICY_RKC, &c, &d), 0);
	assert_true(c.cfg.m_block > 1);
	kernel_free(k);
}

/* On the shapes where the H100 punished a lone CTA or few warps (docs/heuristics.md, the
 * measured occupancy table), the pick keeps two CTAs and 16 warps an SM at its predicted
 * registers. For layer_norm the bytes alone favour a lone CTA of two rows and 16 warps. */
static void
rkc_occupancy(void **state)
{
	static const struct {
		const char *k;
		int64_t M, N;
	} pts[] = {{"layer_norm", 2048, 10240},	   {"gated_rmsnorm", 8192, 768},
		   {"cross_entropy", 2048, 50257}, {"cross_entropy", 4096, 49152},
		   {"welford", 16384, 5120},	   {"jsd", 8192, 32768}};
	Target t = h100();
	for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
		Kernel *k = load_kernel(pts[i].k);
		Facts f;
		facts_compute(k, TY_BF16, &f);
		Choice c;
		Diag d = {0};
		assert_int_equal(choose(k, &f, pts[i].M, pts[i].N, &t, POLICY_RKC, &c, &d), 0);
		if (c.cost.ctas_per_sm < 2 || c.cost.ctas_per_sm * c.cfg.num_warps < 16)
			fail_msg("%s %lldx%lld: %d CTAs x %d warps an SM", pts[i].k,
				 (long long)pts[i].M, (long long)pts[i].N, c.cost.ctas_per_sm,
				 c.cfg.num_warps);
		kernel_free(k);
	}
	Kernel *k = load_kernel("layer_norm");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Choice c;
	Diag d = {0};
	assert_int_equal(choose(k, &f, 2048, 10240, &t, POLICY_RKC, &c, &d), 0);
	Config lone = {1, 10240, 2, 16, 8, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0};
	Cost o;
	cost_model(&f, &lone, 2048, 10240, &t, &o);
	assert_int_equal(o.ctas_per_sm, 1);
	assert_true(o.us < c.cost.us);
	kernel_free(k);
}

/* The combine's round trip fits the CTA (colsum_unroll): every target has COLSUM_REGFILE
 * registers an SM, each CTA size's trip counts under seven eighths of a thread's share under a
 * cap, and a CTA of 32 warps with sums over rows is within the budget again, so the policy's rules
 * for one CTA an SM of 32 warps have their candidates (layer_norm_backward bf16 1024x65536). */
static void
combine_trip_fits(void **state)
{
	(void)state;
	for (const char *const *a = target_names(); *a; a++) {
		Target t;
		Diag d = {0};
		assert_int_equal(target_load(*a, &t, &d), 0);
		assert_int_equal(t.regs_per_sm, COLSUM_REGFILE);
	}
	for (int w = 1; w <= 32; w *= 2)
		for (int k = 1; k <= 4; k *= 2) {
			int u, per, cap = colsum_thread_regs(32 * w, k);
			colsum_unroll(264, 8, 32 * w, k, &u, &per);
			assert_true(u >= 1 && per >= 1);
			if (u * per > 1 && regs_combine(u * per, per, 1) > cap)
				fail_msg(
				    "%d warps, %d CTAs: %d slots of %d turns take %d regs > %d", w,
				    k, u, per, regs_combine(u * per, per, 1), cap);
		}
	int u, per;
	colsum_unroll(264, 8, 256, 1, &u, &per); /* room to spare: the full trip */
	assert_int_equal(u, COLSUM_UNROLL);
	Kernel *k = load_kernel("rms_norm_backward");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Target t = h100();
	Config c = {.r_block = 8192,
		    .m_block = 1,
		    .num_warps = 32,
		    .vec = 8,
		    .split = 1,
		    .evict = 1,
		    .min_ctas = 1,
		    .cluster = 1,
		    .grid = 132};
	Cost o;
	cost_model(&f, &c, 1024, 65536, &t, &o);
	assert_true(o.combine_regs > 0);
	assert_true(o.regs <= o.reg_limit - o.reg_limit / 8);
	kernel_free(k);
	k = load_kernel("layer_norm_backward");
	facts_compute(k, TY_BF16, &f);
	Choice ch;
	Diag d = {0};
	assert_int_equal(choose(k, &f, 1024, 65536, &t, POLICY_RKC, &ch, &d), 0);
	assert_int_equal(ch.cfg.num_warps, 32);
	assert_int_equal(ch.cost.ctas_per_sm, 1);
	kernel_free(k);
}

/* Sums over rows past shared memory whose colsums need no row reduction: streamed bands, one row
 * a CTA and two CTAs an SM, take the own pass's place where their partials are light
 * (rms_norm_backward, one colsum against 6 bytes an element at bf16), not where they are heavy
 * (layer_norm_backward bf16: two against 6); and where a whole row's partials fit only at chunks
 * of a few hundred columns (58001 and 29050 columns), those chunks are not the pick
 * (ONCHIP_SLACK). */
static void
streamed_bands(void **state)
{
	(void)state;
	Target t = h100();
	Kernel *k = load_kernel("rms_norm_backward");
	Facts f;
	facts_compute(k, TY_BF16, &f);
	Choice c;
	Diag d = {0};
	assert_int_equal(choose(k, &f, 1024, 65536, &t, POLICY_RKC, &c, &d), 0);
	assert_true(c.cfg.cluster > 1 && !c.cfg.coop && !c.cfg.smem && !c.cfg.persistent);
	assert_true(c.cfg.m_block == 1 && c.cost.ctas_per_sm >= 2 && c.cfg.grid > 0);
	assert_int_equal(choose(k, &f, 1024, 58001, &t, POLICY_RKC, &c, &d), 0);
	assert_true(c.cfg.r_block >= 4096);
	kernel_free(k);
	k = load_kernel("layer_norm_backward");
	facts_compute(k, TY_BF16, &f);
	assert_int_equal(choose(k, &f, 1024, 65536, &t, POLICY_RKC, &c, &d), 0);
	assert_int_equal(c.cfg.cluster, 1);
	assert_int_equal(choose(k, &f, 1024, 29050, &t, POLICY_RKC, &c, &d), 0);
	assert_true(c.cfg.r_block >= 4096);
	kernel_free(k);
}

/* Bands over rows stream their rows (smem=0) at few rows where the rows in flight and the
 * outputs they write fit the L2 and a thread's chunk stays under the registers the grid's CTAs an
 * SM leave it (rkc_band_streams): dynamic_quant fp32 64x4194304 takes two streamed bands; welford
 * fp32 16x4194304, whose two rows and outputs (67 MB) pass the L2, does not; and each condition
 * at its edge. */
static void
rows_streamed_bands(void **state)
{
	(void)state;
	Target t = h100();
	Kernel *k = load_kernel("dynamic_quant");
	Facts f;
	facts_compute(k, TY_F32, &f);
	Choice c;
	Diag d = {0};
	assert_int_equal(choose(k, &f, 64, 4194304, &t, POLICY_RKC, &c, &d), 0);
	assert_true(c.cfg.coop && c.cfg.cluster > 1 && !c.cfg.smem && !c.cfg.persistent);
	assert_true(c.cfg.grid >= 2 * c.cfg.cluster);
	BandHold h;
	assert_true(rkc_band_streams(&f, &c.cfg, 4194304, &t, &h));
	Config e = c.cfg;
	e.grid = 2 * t.sms;
	e.cluster = t.sms;
	e.num_warps = 16; /* two CTAs of 512 threads an SM: 64 registers a thread */
	e.r_block = 32 * config_tpr(&e);
	assert_true(rkc_band_streams(&f, &e, 4194304, &t, &h));
	assert_int_equal(h.regs, 64);
	assert_int_equal(h.words, 32);
	e.r_block = 64 * config_tpr(&e); /* a chunk of as many words as registers */
	assert_false(rkc_band_streams(&f, &e, 4194304, &t, &h));
	e.r_block = 32 * config_tpr(&e);
	int64_t n = t.l2_bytes / (2 * (f.tile_in_bytes + f.tile_out_bytes));
	assert_true(rkc_band_streams(&f, &e, n, &t, &h));
	assert_false(rkc_band_streams(&f, &e, n + 1, &t, &h)); /* a column more passes it */
	kernel_free(k);
	k = load_kernel("welford");
	facts_compute(k, TY_F32, &f);
	assert_int_equal(choose(k, &f, 16, 4194304, &t, POLICY_RKC, &c, &d), 0);
	assert_false(c.cfg.coop && !c.cfg.smem);
	kernel_free(k);
}

/* The column pass's slices start on whole 32-byte sectors of the narrowest [M,N] array
 * (colpass_slice: 4 positions of 4 columns at 2 bytes, 2 at 4, 8 at 1, 1 at 8); its lanes
 * (colpass_lanes) are row lanes where the slice is narrow, every thread a position where it is
 * wider than the CTA; over misaligned rows, those of the least modelled time. */
static void
colpass_slices(void **state)
{
	(void)state;
	assert_int_equal(colpass_slice(4096, 396, 2), 4);
	assert_int_equal(colpass_slice(4096, 256, 2), 4);
	assert_int_equal(colpass_slice(4096, 396, 4), 4);
	assert_int_equal(colpass_slice(4096, 528, 4), 2);
	assert_int_equal(colpass_slice(4096, 396, 1), 8);
	assert_int_equal(colpass_slice(4096, 396, 8), 3);
	assert_int_equal(colpass_slice(131072, 396, 2), 84);
	assert_int_equal(colpass_slice(1000003, 528, 2), 476);
	assert_int_equal(colpass_slice(7, 1, 0), 2);
	ColpassLanes ln;
	ColpassArrays none = {0};
	/* a narrow slice: row lanes */
	colpass_lanes(4, 2048, 256, 3, 4, 2, 1, &none, &ln, NULL);
	assert_int_equal(ln.lanes, 4);
	assert_int_equal(ln.row_lanes, 64);
	/* wider than the CTA: every thread a position */
	colpass_lanes(1000, 8, 256, 1, 4, 2, 1, &none, &ln, NULL);
	assert_int_equal(ln.lanes, 256);
	assert_int_equal(ln.turns, 4);
	/* many rows at one row a trip: 64-byte runs (8 lanes at 2 bytes, 4 at 4), not the 4 lanes
	 * of 2 bytes whose 21 turns tie with 11 in round trips (rms_colsum bf16 4096x131072 at 396
	 * CTAs of 16 warps, 3 an SM) */
	colpass_lanes(84, 4096, 512, 3, 4, 2, 1, &none, &ln, NULL);
	assert_int_equal(ln.lanes, 8);
	assert_int_equal(ln.turns, 11);
	/* 4 bytes: 4 lanes, not 2 over 9 turns (rms_colsum fp32 3000x200000, CTAs of a warp) */
	colpass_lanes(18, 3000, 32, 23, 4, 4, 1, &none, &ln, NULL);
	assert_int_equal(ln.lanes, 4);
	assert_int_equal(ln.turns, 5);
	/* a slice of one sector: its 4 lanes */
	colpass_lanes(4, 4096, 512, 3, 4, 2, 1, &none, &ln, NULL);
	assert_int_equal(ln.lanes, 4);
	assert_int_equal(ln.turns, 1);
	/* misaligned rows, the longer of bytes and accesses: bias_silu_back fp32 256x20011 at 528
	 * CTAs of 8 warps (two inputs, one output): one turn of 16 lanes, not 3 of 4 whose strips'
	 * edges read the rows again (ran 0.38x) */
	ColpassArrays silu = {.n = 3, .stores = 1, .bytes = 12, .isz = 4, .ops = 11};
	colpass_lanes(10, 256, 256, 4, 14, 4, 0, &silu, &ln, NULL);
	assert_int_equal(ln.lanes, 16);
	assert_int_equal(ln.turns, 1);
	/* wb_grad 4096x50257 at 264 CTAs of 8 warps (two inputs): at fp32 the bytes, one turn of
	 * 64 lanes (ran 0.91x 3 turns of 16); at bf16 the accesses, 3 turns of 16 (one of 64 ran
	 * 1.30x) */
	ColpassArrays wb32 = {.n = 2, .bytes = 8, .isz = 4, .ops = 4};
	ColpassArrays wb16 = {.n = 2, .bytes = 4, .isz = 2, .ops = 6};
	colpass_lanes(48, 4096, 256, 2, 8, 4, 0, &wb32, &ln, NULL);
	assert_int_equal(ln.lanes, 64);
	assert_int_equal(ln.turns, 1);
	colpass_lanes(48, 4096, 256, 2, 4, 2, 0, &wb16, &ln, NULL);
	assert_int_equal(ln.lanes, 16);
	assert_int_equal(ln.turns, 3);
	/* a quarter of the shorter term: bias_gelu_erf_back fp32 12288x135173 at 132 CTAs of 16
	 * warps (erf's 37 instructions an element make the accesses the longer term): 17 turns of
	 * 16 lanes, not the 33 of 8 whose edges the longer term alone hid (they ran 1.35x) */
	ColpassArrays erf32 = {.n = 3, .stores = 1, .bytes = 12, .isz = 4, .ops = 37};
	colpass_lanes(258, 12288, 512, 1, 14, 4, 0, &erf32, &ln, NULL);
	assert_int_equal(ln.lanes, 16);
	assert_int_equal(ln.turns, 17);
	ColpassTried tried;
	colpass_lanes(258, 12288, 512, 1, 14, 4, 0, &erf32, &ln, &tried);
	assert_int_equal(tried.n, 8); /* 4 lanes (a 64-byte run) to 512 */
	assert_int_equal(tried.v[0].lanes, 4);
	for (int i = 0; i < tried.n; i++)
		assert_true(tried.v[i].ns >= ln.ns);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(live_counts),
	    cmocka_unit_test(live_sequential_vs_colive),
	    cmocka_unit_test(live_helion_source_order),
	    cmocka_unit_test(order_colsums),
	    cmocka_unit_test(rows_bytes),
	    cmocka_unit_test(colpass_arrays_counted),
	    cmocka_unit_test(held_remat),
	    cmocka_unit_test(facts_passes),
	    cmocka_unit_test(folded_loads),
	    cmocka_unit_test(split_merge),
	    cmocka_unit_test(dispatch_bound),
	    cmocka_unit_test(register_model),
	    cmocka_unit_test(cost_at_cap),
	    cmocka_unit_test(occupancy_at_regs),
	    cmocka_unit_test(presum_layout),
	    cmocka_unit_test(one_slot),
	    cmocka_unit_test(remote_regs),
	    cmocka_unit_test(cluster_slots),
	    cmocka_unit_test(cluster_slots_driver),
	    cmocka_unit_test(cluster_ctas_refused),
	    cmocka_unit_test(forced_min_ctas),
	    cmocka_unit_test(candidates_start_with_the_pick),
	    cmocka_unit_test(check_rejects),
	    cmocka_unit_test(helion2828_decisions),
	    cmocka_unit_test(rkc_picks_are_valid),
	    cmocka_unit_test(rkc_split_and_pack),
	    cmocka_unit_test(rkc_occupancy),
	    cmocka_unit_test(one_sector),
	    cmocka_unit_test(issue_term),
	    cmocka_unit_test(issue_ghz_refused),
	    cmocka_unit_test(combine_trip_fits),
	    cmocka_unit_test(colpass_slices),
	    cmocka_unit_test(streamed_bands),
	    cmocka_unit_test(rows_streamed_bands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
