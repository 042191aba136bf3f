/* Policy helion2828: Helion PR #2828's reduction seed on our facts (docs/heuristics.md, "Helion's
 * reduction seed, as implemented", gives each rule and constant). */
#include <string.h>

#include "heuristics/heuristics.h"

enum {
	LOOPED_CHUNK = 16384,
	ROW_PERSIST_MAX_BYTES = 245760,
	LIVE_PERSIST_BUDGET = 3 * ROW_PERSIST_MAX_BYTES,
	ELEMENT_CAP = 1 << 20,
	NARROW_W1_MAX_BYTES = 2048,
	NARROW_W1_OCC_BYTE_LIMIT = 262144,
	GRID_BLOCKS_PER_SM = 64,
};

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* M_BLOCK: the floor raise_grid_block_minimums sets, then the cap for full-width outputs. */
static int
m_block(const Facts *f, int64_t M, int64_t N, int isz, int ff, const Target *t, Choice *out)
{
	int64_t max_blocks = (int64_t)t->sms * GRID_BLOCKS_PER_SM;
	int64_t rn = np2(N);
	int def = rn <= 128 ? 32 : rn <= 256 ? 16 : 1;
	int64_t min_block = min64(M / max_blocks, def);
	int64_t floor = min_block >= 2 ? pp2(min_block) : 1;
	int64_t m = floor;
	char cap[160] = "no cap (no full-width output)";
	if (f->full_width_output) {
		int64_t c = pp2(ROW_PERSIST_MAX_BYTES / (N * isz * ff) > 1
				    ? ROW_PERSIST_MAX_BYTES / (N * isz * ff)
				    : 1);
		snprintf(cap, sizeof cap,
			 "cap pp2(245760/(N*isz*live) = 245760/(%lld*%d*%d)) = %lld", (long long)N,
			 isz, ff, (long long)c);
		m = min64(m, c);
	}
	choice_reason(out,
		      "m_block=%lld: floor pp2(min(M/(SMs*64) = %lld/%lld, default %d for "
		      "np2(N)=%lld)) = %lld, %s (Helion's _block_floor, _m_block_cap)",
		      (long long)m, (long long)M, (long long)max_blocks, def, (long long)rn,
		      (long long)floor, cap);
	return (int)m;
}

/* r_block: persistent only to capture a re-read, under the single-tile and multi-tile ceilings. */
static int64_t
r_block(const Facts *f, int64_t N, int m, int isz, int ff, int *persistent, Choice *out)
{
	int64_t rd = np2(N), one = (int64_t)m * N * isz, all = ff * one;
	const char *why = NULL;
	if (!f->row_reread)
		why = "no row re-read (ties go to looping)";
	else if (N > ELEMENT_CAP)
		why = "N over the 2^20 element cap";
	else if (one > ROW_PERSIST_MAX_BYTES)
		why = "m*N*isz over ROW_PERSIST_MAX_BYTES 245760";
	else if (all > LIVE_PERSIST_BUDGET)
		why = "live*m*N*isz over LIVE_PERSIST_BUDGET 737280";
	int64_t r;
	if (!why)
		r = rd;
	else
		r = min64(LOOPED_CHUNK, pp2(ROW_PERSIST_MAX_BYTES / ((int64_t)m * isz * ff)));
	r = r < rd ? r : rd;
	*persistent = r >= rd;
	if (!why)
		choice_reason(
		    out,
		    "persistent r_block=np2(N)=%lld: row re-read, m*N*isz=%lld <= 245760, "
		    "live*m*N*isz=%d*%lld=%lld <= 737280 (Helion's _reduction_rblock)",
		    (long long)rd, (long long)one, ff, (long long)one, (long long)all);
	else if (*persistent)
		choice_reason(
		    out,
		    "persistent r_block=%lld: not held (%s; m*N*isz=%lld, live*...=%lld), "
		    "but the looped chunk min(16384, pp2(245760/(m*isz*live))) reaches "
		    "np2(N), so it is persistent (Helion's _reduction_rblock)",
		    (long long)rd, why, (long long)one, (long long)all);
	else
		choice_reason(out,
			      "looped r_block=%lld = min(16384, pp2(245760/(m*isz*live) = "
			      "245760/(%d*%d*%d))): not held because %s (m*N*isz=%lld, "
			      "live*m*N*isz=%lld); persistent np2(N)=%lld rejected (Helion's "
			      "_reduction_rblock)",
			      (long long)r, m, isz, ff, why, (long long)one, (long long)all,
			      (long long)rd);
	return r;
}

/* num_warps: one warp for narrow rows on a full grid, else a ramp on N. */
static int
num_warps(const Facts *f, int64_t M, int64_t N, int load_isz, const Target *t, Choice *out)
{
	int64_t row_bytes = N * load_isz, occ = M / t->sms;
	if (row_bytes <= NARROW_W1_MAX_BYTES && occ * row_bytes <= NARROW_W1_OCC_BYTE_LIMIT) {
		choice_reason(out,
			      "num_warps=1: narrow rule, row bytes N*load_isz=%lld <= 2048 and "
			      "(M/SMs)*row bytes=%lld*%lld=%lld <= 262144 (Helion's _num_warps)",
			      (long long)row_bytes, (long long)occ, (long long)row_bytes,
			      (long long)(occ * row_bytes));
		return 1;
	}
	int w = N <= 1024 ? 4 : N <= 4096 ? 8 : N <= 16384 ? 16 : 32;
	choice_reason(out,
		      "num_warps=%d: ramp on N=%lld (<=1024: 4, <=4096: 8, <=16384: 16, else 32); "
		      "the 1-warp rule fails: row bytes %lld %s 2048, (M/SMs)*row bytes %lld %s "
		      "262144 (Helion's _num_warps)",
		      w, (long long)N, (long long)row_bytes, row_bytes <= 2048 ? "<=" : ">",
		      (long long)(occ * row_bytes), occ * row_bytes <= 262144 ? "<=" : ">");
	return w;
}

void
choose_helion2828(const Kernel *k, const Facts *f, int64_t M, int64_t N, const Target *t,
		  Choice *out)
{
	int isz = f->compute_isz > 0 ? f->compute_isz : 1;
	int load_isz = f->load_isz > 0 ? f->load_isz : config_elem_size(k, f->dtype);
	int ff = f->helion_live;
	int measured = helion_measured_live(k->name);
	char mbuf[48] = "";
	if (measured >= 0)
		snprintf(mbuf, sizeof mbuf, "; Helion measured %d", measured);
	choice_reason(out,
		      "facts: live=%d (body_live_tiles counted on our body%s), isz=%d (input of "
		      "the last reduction), load isz=%d, row re-read %s, full-width output %s",
		      ff, mbuf, isz, load_isz, f->row_reread ? "yes" : "no",
		      f->full_width_output ? "yes" : "no");
	choice_reason(
	    out, "differs from Helion: standard track with footprint factor=live for every "
		 "kernel (our IR has no user tiles; Helion's softmax, kl_div, jsd, welford and "
		 "grpo are user-tiled with factor 1); 0 carried [M,R] tiles (our codegen "
		 "carries scalar partials; Helion's kl_div carries 1, jsd 2); arithmetic in "
		 "f32, so isz is 4 wherever a reduction reads computed values");

	Config *c = &out->cfg;
	c->m_block = m_block(f, M, N, isz, ff, t, out);
	c->r_block = r_block(f, N, c->m_block, isz, ff, &c->persistent, out);
	c->num_warps = num_warps(f, M, N, load_isz, t, out);
	if (c->m_block > 32 * c->num_warps) {
		int w = c->num_warps;
		while (c->m_block > 32 * w)
			w *= 2;
		choice_reason(out,
			      "num_warps raised %d -> %d: our rows need at least one thread each "
			      "(m_block=%d)",
			      c->num_warps, w, c->m_block);
		c->num_warps = w;
	}
	if (c->num_warps > config_smem_warps(k)) {
		int w = config_smem_warps(k);
		choice_reason(
		    out,
		    "num_warps lowered %d -> %d: our codegen keeps a float a warp for each "
		    "of the %d reduction results in static shared memory (48 KiB)",
		    c->num_warps, w, k->plan->nred);
		c->num_warps = w;
		c->m_block = c->m_block < 32 * w ? c->m_block : 32 * w;
	}
	c->vec = config_vec(k, f->dtype, N);
	choice_reason(out,
		      "vec=%d: not a Helion knob (Triton picks the width); ours is always 16 bytes "
		      "over each row's aligned body, a misaligned head and tail element by element "
		      "(N=%lld)",
		      c->vec, (long long)N);
	int64_t step = (int64_t)config_tpr(c) * c->vec;
	if (c->r_block < step) {
		choice_reason(
		    out,
		    "r_block raised %lld -> %lld: our codegen needs a multiple of threads "
		    "per row * vec = %d*%d",
		    (long long)c->r_block, (long long)step, config_tpr(c), c->vec);
		c->r_block = step;
	}
	c->split = 1;
	choice_reason(out, "split=1: Helion's seed never splits a row across programs");
	/* Helion's eviction rule, standard track: 'first' on every load of a one-load kernel,
	 * 'last' on the re-read load of a looped row with 'first' elsewhere, persistent rows
	 * unhinted */
	c->evict = f->nloads == 1 || (f->row_reread && !c->persistent);
	if (f->nloads == 1)
		choice_reason(out,
			      "evict=%d: one load, so 'first' on every load (ours keeps a row that "
			      "a later looped pass reads again evict_last until that read)",
			      c->evict);
	else
		choice_reason(out, "evict=%d: %s", c->evict,
			      c->evict ? "the row is re-read and looped: 'last' until its last "
					 "read, 'first' elsewhere"
				       : "persistent or not re-read: no hints");
	c->min_ctas = 1;
	choice_reason(out, "min_ctas=1: Helion sets no occupancy bound; one CTA an SM lets ptxas "
			   "take what it wants");
	cost_model(f, c, M, N, t, &out->cost);
	choice_reason(out,
		      "predicted %d registers/thread, limit %d at %d threads%s; modelled %.1f us "
		      "(our cost model, for comparison only)",
		      out->cost.regs, out->cost.reg_limit, 32 * c->num_warps,
		      out->cost.spills ? ": this config spills" : "", out->cost.us);
}

/* body_live_tiles as PR #2828's author measured it on Helion's own versions of the 17 kernels
 * (a property of each kernel's graph, not of its shape); shown beside our count. */
int
helion_measured_live(const char *kernel)
{
	static const struct {
		const char *name;
		int live;
	} table[] = {
	    {"fused_linear_jsd", 7},
	    {"rms_norm", 3},
	    {"layer_norm", 3},
	    {"softmax", 2},
	    {"sum", 2},
	    {"long_sum", 2},
	    {"cross_entropy", 2},
	    {"welford", 3},
	    {"kl_div", 6},
	    {"jsd", 12},
	    {"fused_add_rmsnorm", 4},
	    {"fused_add_layernorm", 4},
	    {"gated_rmsnorm", 4},
	    {"scaled_masked_softmax", 3},
	    {"cross_entropy_ls_zloss", 3},
	    {"dynamic_quant", 3},
	    {"grpo", 2},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].name, kernel))
			return table[i].live;
	return -1;
}
