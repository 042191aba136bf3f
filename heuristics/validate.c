/* The one config validator: what codegen can emit at all, then what the target allows. */
#include "heuristics/heuristics.h"

/* Elements a thread holds per live value and chunk: past this the unrolled code is too big. */
enum { MAX_ELEMS_THREAD = 512, MAX_SPLIT = 65536 };
/* A CTA's static shared memory, which holds the cross-warp and the cluster partials (the dynamic
 * bound, MAX_DYN_SMEM, is heuristics.h's). (The kernel parameter space needs no check here: the
 * verifier's limit on parameters keeps it far inside ptxas's.) */
enum { MAX_STATIC_SMEM = 48 * 1024, MAX_CLUSTER = 16 };
/* The most CTAs of a persistent grid (config_parse's bound). */
enum { MAX_GRID = 1 << 20 };
/* The partials a lane of a cooperative row reads, unrolled (codegen's coop_cross). */
enum { MAX_COOP_READS = 32 };

static int
pow2(int64_t x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

int
config_smem_warps(const Kernel *k)
{
	int w = 32;
	while (w > 1 && (int64_t)k->plan->nred * w * 4 > MAX_STATIC_SMEM)
		w /= 2;
	return w;
}

int
config_check_emit(const Kernel *k, Type dtype, int64_t M, int64_t N, const Config *c, Diag *d)
{
	int size = config_elem_size(k, dtype);
	if (c->num_warps < 1 || c->num_warps > 32)
		return diag(d, "num_warps=%d: must be from 1 to 32", c->num_warps);
	/* a count that is not a power of two: a row spans the CTA's warps (sub-warp rows split a
	 * warp's threads in powers of two) */
	if (!pow2(c->num_warps) && c->m_block != 1)
		return diag(d,
			    "num_warps=%d with m_block=%d: a warp count that is not a power of two "
			    "needs m_block=1 (one row a CTA)",
			    c->num_warps, c->m_block);
	if (!pow2(c->m_block) || c->m_block > 32 * c->num_warps)
		return diag(d,
			    "m_block=%d: threads per row (32*num_warps/m_block) must be a power of "
			    "two from 1 to %d; with num_warps=%d, m_block may be 1, 2, 4, ..., %d",
			    c->m_block, 32 * c->num_warps, c->num_warps, 32 * c->num_warps);
	if (!pow2(c->vec) || c->vec > 16 || c->vec * size > 16)
		return diag(d,
			    "vec=%d: must be a power of two with vec*%d bytes <= 16 (at most %d)",
			    c->vec, size, 16 / size);
	int tpr = config_tpr(c);
	int64_t step = (int64_t)tpr * c->vec;
	if (c->r_block < step || c->r_block % step)
		return diag(d,
			    "r_block=%lld: must be a multiple of threads per row * vec = %d * %d = "
			    "%lld",
			    (long long)c->r_block, tpr, c->vec, (long long)step);
	if (c->r_block / tpr > MAX_ELEMS_THREAD)
		return diag(d,
			    "r_block=%lld gives %lld elements a thread (%d threads a row); at most "
			    "%d",
			    (long long)c->r_block, (long long)(c->r_block / tpr), tpr,
			    MAX_ELEMS_THREAD);
	if (c->persistent != 0 && c->persistent != 1)
		return diag(d, "persistent=%d: must be 0 (looped) or 1", c->persistent);
	if (c->split < 1 || c->split > MAX_SPLIT)
		return diag(d, "split=%d: must be from 1 to %d", c->split, MAX_SPLIT);
	if (c->evict != 0 && c->evict != 1)
		return diag(d, "evict=%d: must be 0 (no cache hints) or 1 (L2 eviction hints)",
			    c->evict);
	if (c->min_ctas < 0)
		return diag(d, "min_ctas=%d: must be at least 1", c->min_ctas);
	if (c->smem < 0 || c->smem > 2)
		return diag(d,
			    "smem=%d: must be 0, 1 or 2 (rows read again kept in shared memory; 2 "
			    "fills them with cp.async)",
			    c->smem);
	if (c->smem && c->persistent && k->plan->ncolsum && c->smem != 1)
		return diag(d,
			    "smem=%d fills the inputs a looped row's later passes read again by "
			    "cp.async; a persistent row keeps its colsum partials in shared memory "
			    "under smem=1",
			    c->smem);
	if (c->colpass != 0 && c->colpass != 1)
		return diag(d, "colpass=%d: must be 0 or 1", c->colpass);
	if (c->colpass && !k->plan->ncolsum)
		return diag(d, "colpass=1 sums columns in a pass of their own: this kernel has no "
			       "sum over rows (colsum)");
	if (c->colpass && c->smem && c->persistent)
		return diag(d, "colpass=1 keeps no colsum partials: a persistent row takes smem=0");
	if (c->smem && c->persistent && !k->plan->ncolsum)
		return diag(d,
			    "smem=%d keeps the inputs a looped row's later passes read again; a "
			    "persistent row is held in registers (use persistent=0 with smem=%d)",
			    c->smem, c->smem);
	if (c->smem && !c->persistent && !k->plan->nreread)
		return diag(d,
			    "smem=%d: no looped pass of this kernel reads an [M,N] input again (%d "
			    "pass(es)), so there is nothing to keep in shared memory",
			    c->smem, k->plan->npasses);
	if (c->stash != 0 && c->stash != 1)
		return diag(d, "stash=%d: must be 0 or 1", c->stash);
	if (c->stash && (!c->smem || c->persistent))
		return diag(d,
			    "stash=1 keeps values for the apply pass beside the rows kept on chip: "
			    "it needs persistent=0 and smem=1 or 2");
	if (c->stash && !k->plan->nstash)
		return diag(d,
			    "stash=1: this kernel's apply pass recomputes no transcendental or "
			    "division from the last reduction pass (%d pass(es)), so there is "
			    "nothing to stash",
			    k->plan->npasses);
	if (c->steps != 0 && c->steps != 1)
		return diag(d, "steps=%d: must be 0 or 1", c->steps);
	if (c->steps && !c->persistent)
		return diag(d, "steps=1 makes a persistent row's tail a vector at a time: it needs "
			       "persistent=1");
	if (c->steps && k->plan->tail < 0)
		return diag(
		    d,
		    "steps=1: this kernel's persistent row has no tail of element-wise work "
		    "after its last exchange (%s), so there is nothing to make a vector at a "
		    "time",
		    k->plan->ncolsum ? "it sums columns" : "a reduction comes last");
	if (c->steps && c->grid > 0)
		return diag(
		    d,
		    "steps=1 with grid=%d: a persistent grid issues and holds a row block's "
		    "[N] inputs whole (use one of them)",
		    c->grid);
	/* the kept inputs' sizes only under smem=2: the policy validates every candidate */
	int kept_size = c->smem == 2 ? smem_kept_min_size(k, dtype, c->stash) : 4;
	if (c->vec * kept_size < 4)
		return diag(
		    d,
		    "smem=2: cp.async copies 4, 8 or 16 bytes, and vec=%d of a %d-byte kept "
		    "input is %d byte(s) (vec=%d or more, or smem=1)",
		    c->vec, kept_size, c->vec * kept_size, 4 / kept_size);
	if (c->coop != 0 && c->coop != 1)
		return diag(d, "coop=%d: must be 0 or 1", c->coop);
	if (c->coop && c->cluster <= 1)
		return diag(d, "coop=1 spreads a row over cluster=K cooperating CTAs: it needs "
			       "cluster over 1");
	if (c->coop && cdiv(c->cluster, tpr < 32 ? tpr : 32) > MAX_COOP_READS)
		return diag(d,
			    "cluster=%d with coop=1: the first %d lane(s) of a row read the %d "
			    "CTAs' partials, at most %d each (more threads a row, or a smaller "
			    "cluster)",
			    c->cluster, tpr < 32 ? tpr : 32, c->cluster, MAX_COOP_READS);
	if (c->cluster < 0 || c->cluster > (c->coop ? MAX_COOP : MAX_CLUSTER))
		return c->coop ? diag(d, "cluster=%d with coop=1: must be from 2 to %d", c->cluster,
				      MAX_COOP)
			       : diag(d,
				      "cluster=%d: must be from 1 to %d (more CTAs a row with "
				      "coop=1)",
				      c->cluster, MAX_CLUSTER);
	if (c->cluster > 1 && c->split > 1)
		return diag(
		    d,
		    "split=%d with cluster=%d: both cut a row into segments; at most one of "
		    "them may be over 1",
		    c->split, c->cluster);
	if (c->split > 1 && !k->plan->split_ok)
		return diag(d,
			    "split=%d: row splitting needs one pass of plain reductions and no [N] "
			    "or [M,N] output; this kernel has %s",
			    c->split, plan_no_split(k->plan));
	if (c->grid < 0 || c->grid > MAX_GRID)
		return diag(d, "grid=%d: must be from 0 (a CTA per row block) to %d", c->grid,
			    MAX_GRID);
	/* a grid of bands (config_band_grid): each band of cluster CTAs, a hardware cluster or
	 * under coop=1 a cooperative group, walks whole rows, a segment a CTA: for sums over rows,
	 * whose rows run on a persistent grid whatever their count, and, cooperative only, for the
	 * rows of a kernel without them (docs/codegen.md, "A grid of cooperative bands") */
	if (c->grid > 0 && config_segments(c) > 1 &&
	    (c->split > 1 || (!k->plan->ncolsum && !c->coop)))
		return diag(d,
			    "grid=%d with %s=%d: a persistent grid walks whole rows; a row cut "
			    "into segments has a CTA per segment (grid=0), except under a grid of "
			    "bands (cluster over 1), which a kernel with sums over rows takes, and "
			    "one without them as cooperative bands (coop=1)",
			    c->grid, c->split > 1 ? "split" : "cluster", config_segments(c));
	if (config_band_grid(c) && c->grid % c->cluster)
		return diag(d,
			    "grid=%d with cluster=%d: a grid of bands launches whole bands of "
			    "cluster CTAs (grid a multiple of cluster)",
			    c->grid, c->cluster);
	if (config_band_grid(c) && (c->dynamic || c->ahead))
		return diag(d,
			    "%s=1 with cluster=%d: a grid of bands walks a static order, one "
			    "row at a time (dynamic=0, ahead=0)",
			    c->dynamic ? "dynamic" : "ahead", c->cluster);
	if (config_band_grid(c) && ws_colsums(k->plan->ncolsum, c, N) &&
	    !colsum_late(k->plan->ncolsum, k->plan->colsum_alone, c, N))
		return diag(d,
			    "cluster=%d: a band's CTA keeps the colsum partials of its segment "
			    "in shared memory or sums them in their own pass, and %lld bytes are "
			    "over %d where a colsum needs a row reduction (a larger cluster or a "
			    "smaller m_block)",
			    c->cluster,
			    (long long)k->plan->ncolsum * c->m_block * smem_colsum_cols(c, N) * 4,
			    MAX_DYN_SMEM);
	if ((c->dynamic != 0 && c->dynamic != 1) || c->ahead < 0 || c->ahead > AHEAD_RING_MAX)
		return diag(d, "dynamic=%d, ahead=%d: dynamic must be 0 or 1, ahead from 0 to %d",
			    c->dynamic, c->ahead, AHEAD_RING_MAX);
	if (c->grid == 0 && (c->dynamic || c->ahead))
		return diag(d,
			    "%s=%d needs a persistent grid (grid over 0): with a CTA per row block "
			    "there is no next block",
			    c->dynamic ? "dynamic" : "ahead", c->dynamic ? 1 : c->ahead);
	if (c->ahead && !c->persistent)
		return diag(d, "ahead=%d holds the next rows whole: it needs persistent=1",
			    c->ahead);
	if (c->ahead && !config_rows_aligned(c, N))
		return diag(d,
			    "ahead=%d needs rows that start aligned: N=%lld is not a multiple of "
			    "vec=%d (the next row's head and tail would move)",
			    c->ahead, (long long)N, c->vec);
	if (c->ahead >= 2 && c->dynamic)
		return diag(
		    d,
		    "ahead=%d with dynamic=1: the ring copies the blocks %d grid strides on, "
		    "which only a static grid knows (dynamic=0)",
		    c->ahead, c->ahead);
	for (int q = 0; c->ahead >= 2 && q < k->nparams; q++) {
		const Param *pa = &k->params[q];
		int bytes = c->vec * type_size(type_resolve(pa->type, dtype));
		if (pa->kind == P_IN && pa->shape == SH_TILE && bytes != 4 && bytes != 8 &&
		    bytes != 16)
			return diag(
			    d,
			    "ahead=%d copies each vector of '%s' by one cp.async of 4, 8 or 16 "
			    "bytes, and vec=%d makes it %d (ahead=0 or 1, or another vec)",
			    c->ahead, pa->name, c->vec, bytes);
	}
	if (k->plan->ncolsum && c->grid == 0)
		return diag(d,
			    "a sum over rows (colsum) needs a persistent grid (grid over 0): each "
			    "thread keeps its columns' partials over the rows its CTA walks");
	if (k->plan->ncolsum && c->dynamic)
		return diag(d,
			    "dynamic=1: a sum over rows (colsum) takes a static grid (dynamic=0)");
	if (k->plan->ncolsum && !config_rows_aligned(c, N))
		return diag(
		    d,
		    "a sum over rows (colsum) needs rows that start aligned: N=%lld is not a "
		    "multiple of vec=%d (a thread's columns would move from row to row)",
		    (long long)N, c->vec);
	int segs = config_segments(c);
	int64_t seg = (N + segs - 1) / segs;
	if (c->persistent && c->r_block < seg)
		return diag(
		    d,
		    "persistent needs r_block >= %s (%lld); r_block=%lld would leave part of "
		    "the row out",
		    c->split > 1     ? "the split segment"
		    : c->cluster > 1 ? "the cluster segment"
				     : "N",
		    (long long)seg, (long long)c->r_block);
	if (tpr > 32 && c->num_warps > config_smem_warps(k))
		return diag(
		    d,
		    "num_warps=%d: the cross-warp partials of %d reduction results need %lld "
		    "bytes of shared memory; at most %d (num_warps %d)",
		    c->num_warps, k->plan->nred, (long long)k->plan->nred * c->num_warps * 4,
		    MAX_STATIC_SMEM, config_smem_warps(k));
	Smem sm;
	smem_layout(k, dtype, N, c, &sm, NULL, NULL);
	if (sm.red_bytes + sm.cluster_bytes > MAX_STATIC_SMEM)
		return diag(d,
			    "the cluster partials of %d reduction results for %d row(s) a CTA need "
			    "%lld bytes of static shared memory, %lld with the cross-warp ones; at "
			    "most %d (a smaller m_block)",
			    k->plan->nred, c->m_block, (long long)sm.cluster_bytes,
			    (long long)(sm.red_bytes + sm.cluster_bytes), MAX_STATIC_SMEM);
	/* partials alone over MAX_DYN_SMEM live in the workspace (ws_colsums): here the rows
	 * kept beside them are what does not fit */
	if (sm.dyn_bytes > MAX_DYN_SMEM && smem_colsum_bytes(k->plan->ncolsum, c, N) > 0 &&
	    !c->persistent)
		return diag(d,
			    "a looped row keeps its colsum partials in shared memory: %d row "
			    "group(s) a CTA take %lld bytes%s; at most %d (%s)",
			    c->m_block, (long long)sm.dyn_bytes,
			    c->smem ? " with the rows kept on chip" : "", MAX_DYN_SMEM,
			    c->smem ? "smem=0" : "a smaller m_block");
	if (sm.dyn_bytes > MAX_DYN_SMEM && sm.ring_slot)
		return diag(d,
			    "ahead=%d: the ring's %d slots of %lld bytes take %lld bytes of shared "
			    "memory a CTA with the rest; at most %d (a smaller ahead, m_block or "
			    "smem=0)",
			    c->ahead, c->ahead + 1, (long long)sm.ring_slot,
			    (long long)sm.dyn_bytes, MAX_DYN_SMEM);
	if (sm.dyn_bytes > MAX_DYN_SMEM)
		return diag(
		    d,
		    smem_colsums(k->plan->ncolsum, c)
			? "smem=%d: %d row group(s) a CTA of colsum partials%s take %lld bytes "
			  "of shared memory; at most %d (a smaller m_block, or smem=0)"
			: "smem=%d: %d row(s) a CTA of the re-read inputs%s take %lld bytes of "
			  "shared memory; at most %d (a smaller m_block, or a cluster to cut "
			  "the row)",
		    c->smem, c->m_block, c->stash ? " and stashed values" : "",
		    (long long)sm.dyn_bytes, MAX_DYN_SMEM);
	int64_t blocks = M / c->m_block + (M % c->m_block != 0);
	if (blocks > INT32_MAX / segs)
		return diag(d,
			    "the grid of cdiv(M, m_block) * %d = cdiv(%lld, %d) * %d CTAs exceeds "
			    "2^31-1",
			    segs, (long long)M, c->m_block, segs);
	return 0;
}

int
config_check_target(const Kernel *k, Type dtype, int64_t N, const Config *c, const Target *t,
		    Diag *d)
{
	if (c->cluster > t->cluster_max && !c->coop)
		return t->cluster_max > 1
			   ? diag(d, "cluster=%d: %s takes at most %d CTAs a cluster", c->cluster,
				  t->arch, t->cluster_max)
			   : diag(d,
				  "cluster=%d: %s has no thread-block clusters (sm_90 and later "
				  "have them)",
				  c->cluster, t->arch);
	int per_sm = c->num_warps > 0 ? t->max_threads_sm / (32 * c->num_warps) : 0;
	int resident = t->sms * (per_sm < t->max_ctas_sm ? per_sm : t->max_ctas_sm);
	if (c->coop && c->cluster > resident)
		return diag(d,
			    "cluster=%d with coop=1: a row's CTAs must all be resident at once, "
			    "and %s holds at most %d CTAs of %d threads",
			    c->cluster, t->arch, resident, 32 * c->num_warps);
	Smem sm;
	smem_layout(k, dtype, N, c, &sm, NULL, NULL);
	int64_t all = sm.red_bytes + sm.cluster_bytes + sm.dyn_bytes;
	if (all > t->smem_per_cta)
		return diag(
		    d, "shared memory: %lld bytes a CTA (%lld of %s); %s gives a CTA at most %d",
		    (long long)all, (long long)sm.dyn_bytes,
		    sm.ring_slot			? "the ring of row blocks in flight"
		    : smem_colsums(k->plan->ncolsum, c) ? "colsum partials"
		    : c->stash				? "rows kept on chip and stashed values"
							: "rows kept on chip",
		    t->arch, t->smem_per_cta);
	if (32 * c->num_warps > t->max_threads_cta)
		return diag(d, "num_warps=%d: %s takes at most %d threads a CTA (num_warps %d)",
			    c->num_warps, t->arch, t->max_threads_cta, t->max_threads_cta / 32);
	int most = t->max_threads_sm / (32 * c->num_warps);
	most = most < t->max_ctas_sm ? most : t->max_ctas_sm;
	if (c->min_ctas > most)
		return diag(d,
			    "min_ctas=%d: must be from 1 to %d (CTAs of %d threads an SM of %s can "
			    "hold)",
			    c->min_ctas, most, 32 * c->num_warps, t->arch);
	return 0;
}
