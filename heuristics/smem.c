/* Shared memory: the one layout of a config's shared memory, read by codegen, the launch and the
 * models. */
#include "heuristics/heuristics.h"

/* A row segment's columns: under split or cluster, cdiv(N, segments) rounded up to the segment
 * granule (the last segment may be shorter), else the row. */
static int64_t
segment_len(const Config *c, int64_t N)
{
	int s = config_segments(c);
	if (s == 1)
		return N;
	int64_t g = config_segment_granule(c), len = cdiv(cdiv(N, s), g) * g;
	return len < N ? len : N;
}

/* The inputs smem keeps: a looped pass's [M,N] load that a later pass reads again (last:
 * plan_last_reads). */
static int
kept_load(const Kernel *k, const Instr *in, const int *last)
{
	int i = (int)(in - k->ins);
	return in->op == OP_LOAD && last[i] > k->plan->first_read[i] &&
	       k->params[in->param].shape == SH_TILE;
}

int
smem_kept_min_size(const Kernel *k, Type dtype, int stash)
{
	int size = 0;
	const int *last = plan_last_reads(k->plan, k, dtype, stash);
	for (int i = 0; i < k->nins; i++)
		if (kept_load(k, &k->ins[i], last)) {
			int s = type_size(type_resolve(k->params[k->ins[i].param].type, dtype));
			size = size && size < s ? size : s;
		}
	return size ? size : 4;
}

void
smem_layout(const Kernel *k, Type dtype, int64_t N, const Config *c, Smem *s, int64_t *row_off,
	    int64_t *row_bytes)
{
	const Plan *p = k->plan;
	/* the warps' partials, then a dynamic grid's 16-byte hand-off word (lower_sched.c), which
	 * an 8-byte access reads: the partials round up to 8 bytes (odd warp counts) */
	s->red_bytes = (config_tpr(c) > 32 ? (p->nred * c->num_warps * 4 + 7) / 8 * 8 : 0) +
		       (c->grid > 0 && c->dynamic ? 16 : 0);
	s->cluster_bytes = c->cluster > 1 ? p->nred * c->m_block * 4 : 0;
	s->dyn_bytes = 0;
	int64_t seg = segment_len(c, N);
	int rows = c->smem && !c->persistent, stash = rows && c->stash;
	int back = rows && !stash && plan_reads_back(p, k, dtype);
	const int *last = plan_last_reads(k->plan, k, dtype, stash);
	/* the ring (ahead >= 2): slot 0's region of each [M,N] input, the widest elements first, so
	 * that every region starts aligned to its cp.async (vec elements, 4 to 16 bytes) */
	s->ring_slot = 0;
	for (int sz = 8; c->ahead >= 2 && sz >= 1; sz /= 2)
		for (int q = 0; q < k->nparams; q++) {
			const Param *pa = &k->params[q];
			if (pa->kind != P_IN || pa->shape != SH_TILE ||
			    type_size(type_resolve(pa->type, dtype)) != sz)
				continue;
			for (int i = 0; i < k->nins; i++)
				if (k->ins[i].op == OP_LOAD && k->ins[i].param == q) {
					if (row_off)
						row_off[i] = s->ring_slot;
					if (row_bytes)
						row_bytes[i] = c->r_block * sz;
				}
			s->ring_slot += (int64_t)c->m_block * c->r_block * sz;
		}
	s->dyn_bytes = (c->ahead >= 2 ? c->ahead + 1 : 0) * s->ring_slot; /* smem_ring_bytes */
	/* the kept loads, then the stashed values (f32) or the values read back (as stored) */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < k->nins; i++) {
			const Instr *in = &k->ins[i];
			int keep = pass ? (stash && p->stash[i]) || (back && p->reload[i])
					: rows && kept_load(k, in, last);
			int64_t bytes = 0;
			if (keep) {
				Type t = !pass	 ? k->params[in->param].type
					 : stash ? TY_F32
						 : k->params[k->ins[p->reload[i] - 1].param].type;
				bytes = (seg * type_size(type_resolve(t, dtype)) + 15) / 16 * 16;
			}
			if (c->ahead >= 2 && !pass && in->op == OP_LOAD &&
			    k->params[in->param].shape == SH_TILE)
				continue; /* persistent rows keep nothing: the ring's region */
			if (row_off && (keep || !pass))
				row_off[i] = keep ? s->dyn_bytes : -1;
			if (row_bytes && (keep || !pass))
				row_bytes[i] = bytes;
			s->dyn_bytes += bytes * c->m_block;
		}
	s->colsum_off = s->dyn_bytes;
	s->dyn_bytes += smem_colsum_bytes(p->ncolsum, c, N);
	int64_t combine = smem_combine_bytes(p->ncolsum, p->colsum_alone, c, N);
	if (s->dyn_bytes < combine)
		s->dyn_bytes = combine;
	if (s->dyn_bytes < smem_presum_bytes(p->ncolsum, c, N))
		s->dyn_bytes = smem_presum_bytes(p->ncolsum, c, N);
}

int64_t
smem_ring_bytes(const Config *c, int tile_in_bytes)
{
	if (c->ahead < 2)
		return 0;
	return (int64_t)(c->ahead + 1) * c->m_block * c->r_block * tile_in_bytes;
}

int
smem_colsums(int ncolsum, const Config *c)
{
	return ncolsum > 0 && !c->colpass && (!c->persistent || c->smem == 1);
}

int64_t
smem_colsum_cols(const Config *c, int64_t N)
{
	return c->persistent ? c->r_block : cdiv(segment_len(c, N), c->r_block) * c->r_block;
}

int
ws_colsums(int ncolsum, const Config *c, int64_t N)
{
	return ncolsum > 0 && !c->persistent && !c->colpass &&
	       (int64_t)ncolsum * c->m_block * smem_colsum_cols(c, N) * 4 > MAX_DYN_SMEM;
}

int
colsum_late(int ncolsum, int alone, const Config *c, int64_t N)
{
	return alone && !c->colpass && ws_colsums(ncolsum, c, N);
}

int
colsum_column(int ncolsum, const Config *c)
{
	return ncolsum > 0 && c->colpass && c->grid > 0;
}

int
colpass_rows(int ncolsum, int alone, const Config *c)
{
	return colsum_column(ncolsum, c) && !alone;
}

int
colpass_whole(int whole, const Config *c)
{
	return whole && c->colpass && c->grid > 0;
}

int
colsum_one_slot(int ncolsum, int alone, const Config *c, int64_t N)
{
	return ncolsum > 0 && c->grid > 0 && !c->colpass && c->grid == config_segments(c) &&
	       c->m_block == 1 && (!ws_colsums(ncolsum, c, N) || colsum_late(ncolsum, alone, c, N));
}

int64_t
smem_colsum_bytes(int ncolsum, const Config *c, int64_t N)
{
	if (!smem_colsums(ncolsum, c) || ws_colsums(ncolsum, c, N))
		return 0;
	return (int64_t)ncolsum * c->m_block * smem_colsum_cols(c, N) * 4;
}

static int64_t
presum_bytes(int ncolsum, const Config *c, int64_t N)
{
	return (int64_t)ncolsum * c->m_block * cdiv(N, 4) * 16;
}

int
colsum_presum(int ncolsum, const Config *c, int64_t N)
{
	return ncolsum > 0 && c->grid > 0 && c->persistent && c->m_block > 1 &&
	       config_segments(c) == 1 && presum_bytes(ncolsum, c, N) <= PRESUM_MAX_BYTES;
}

int64_t
smem_presum_bytes(int ncolsum, const Config *c, int64_t N)
{
	return colsum_presum(ncolsum, c, N) ? presum_bytes(ncolsum, c, N) : 0;
}

int64_t
smem_combine_bytes(int ncolsum, int alone, const Config *c, int64_t N)
{
	return ncolsum > 0 && c->grid > 0 && !colsum_one_slot(ncolsum, alone, c, N)
		   ? (int64_t)c->num_warps * 32 * 16
		   : 0;
}

const Facts *
smem_facts(const Facts *f, const Config *c, Facts *tmp)
{
	/* the column pass (colpass=1) holds no partials either */
	if (!smem_colsums(f->colsums, c) && !(f->colsums && c->colpass))
		return f;
	*tmp = *f;
	tmp->held_bytes = f->held_bytes_smem;
	tmp->held_spare = f->held_spare_smem;
	return tmp;
}

int64_t
smem_block(const Smem *s, int64_t at[3])
{
	at[0] = 0;
	at[1] = (s->red_bytes + 15) / 16 * 16;
	at[2] = at[1] + (s->cluster_bytes + 15) / 16 * 16;
	return at[2] + s->dyn_bytes;
}
