/* rkc run --regions: the manifest's regions block, and the per-region table from a launch's stamps.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

int
regions_parse(MRegions *r, json_t *block, const char *file, Diag *d)
{
	memset(r, 0, sizeof *r);
	json_t *list = json_object_get(block, "list"), *group = json_object_get(block, "group");
	if (!json_is_object(block) || !json_is_array(list) ||
	    json_array_size(list) > MAX_MREGIONS || !json_is_integer(group) ||
	    json_integer_value(group) < 1 || json_integer_value(group) > 65536)
		return diag_at(
		    d, file, (Loc){0},
		    "manifest: \"regions\" must be an object with \"group\" (1 to 65536) "
		    "and a \"list\" of at most %d regions",
		    MAX_MREGIONS);
	r->group = (int)json_integer_value(group);
	json_t *slots = json_object_get(block, "slots"), *words = json_object_get(block, "words");
	if (!json_is_integer(slots) || json_integer_value(slots) < 1 || !json_is_integer(words) ||
	    json_integer_value(words) != (json_int_t)json_array_size(list) + 2)
		return diag_at(d, file, (Loc){0},
			       "manifest: \"regions\" needs \"slots\" (at least 1) and \"words\" "
			       "(the regions + 2): a manifest from before the stamps were per "
			       "slot? Compile it again");
	r->slots = json_integer_value(slots);
	r->words = (int)json_integer_value(words);
	json_t *every = json_object_get(block, "every");
	if (!json_is_integer(every) || json_integer_value(every) < 1 ||
	    json_integer_value(every) > 1 << 20)
		return diag_at(d, file, (Loc){0},
			       "manifest: \"regions\" needs \"every\" (1 row block in every is "
			       "stamped, at least 1): a manifest from before the sampling? Compile "
			       "it again");
	r->every = (int)json_integer_value(every);
	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *e = json_array_get(list, i);
		const char *name = json_string_value(json_object_get(e, "name"));
		json_t *wait = json_object_get(e, "wait"), *over = json_object_get(e, "over");
		if (!name || strlen(name) >= sizeof r->r[0].name || !json_is_boolean(wait))
			return diag_at(d, file, (Loc){0},
				       "manifest: region %zu needs a \"name\" (under 32 bytes) and "
				       "a boolean \"wait\"",
				       i);
		if (over && (!json_is_true(wait) || !json_is_string(over) ||
			     strcmp(json_string_value(over), "grid")))
			return diag_at(d, file, (Loc){0},
				       "manifest: region %zu: \"over\" may only be \"grid\", on a "
				       "wait region",
				       i);
		strcpy(r->r[r->n].name, name);
		r->r[r->n].grid = over != NULL;
		r->r[r->n++].wait = json_is_true(wait);
	}
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..n), sorted in place (n > 0). */
static double
median_u64(uint64_t *v, int64_t n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_u64);
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

/* A slot's stamps: written (the CTA word and every boundary) or not (all zero), the CTA one of
 * the launch's, the boundaries in order. 1 when written, 0 when not, -1 with d set. */
static int
check_slot(const MRegions *info, const uint64_t *w, int64_t slot, int64_t nctas, Diag *d)
{
	int set = 0;
	for (int i = 0; i < info->words; i++)
		set += w[i] != 0;
	if (set == 0)
		return 0;
	if (w[0] == 0 || w[0] > (uint64_t)nctas)
		return diag(d,
			    "slot %lld: its CTA word is %llu, not a CTA of the %lld launched + 1",
			    (long long)slot, (unsigned long long)w[0], (long long)nctas);
	for (int r = 0; r < info->n; r++) {
		uint64_t a = w[1 + r], b = w[2 + r];
		if (!a || !b)
			return diag(d, "slot %lld: region %s has %s", (long long)slot,
				    info->r[r].name,
				    a ? "a start but no end" : "an end but no start");
		if (b < a)
			return diag(d, "slot %lld: the stamps go backwards at region %s",
				    (long long)slot, info->r[r].name);
	}
	return 1;
}

/* CTAs' lives under a grid with every block stamped: each CTA's time in each region over the
 * slots it ran, then per region the median and max over the CTAs, and a CTA's life (its slots'
 * times summed). at: the stamped slots. 0, or -1 with d set. */
static int
lives_reduce(RegionTable *t, const MRegions *info, const uint64_t *stamps, const int64_t *at,
	     int64_t nctas, Diag *d)
{
	int n = info->n, W = info->words, C = n + 1;
	uint64_t *tot = calloc((size_t)nctas * (size_t)C + 1, sizeof *tot);
	uint64_t *v = calloc((size_t)nctas + 1, sizeof *v);
	char *ran = calloc((size_t)nctas + 1, 1);
	if (!tot || !v || !ran) {
		free(tot);
		free(v);
		free(ran);
		return diag(d, "out of memory reducing the stamps of %lld CTAs", (long long)nctas);
	}
	for (int64_t i = 0; i < t->blocks; i++) {
		const uint64_t *w = stamps + at[i] * W;
		uint64_t *c = tot + (int64_t)(w[0] - 1) * C;
		for (int r = 0; r < n; r++)
			c[r] += w[2 + r] - w[1 + r];
		c[n] += w[1 + n] - w[1];
		ran[w[0] - 1] = 1;
	}
	for (int col = 0; col <= n; col++) {
		int64_t k = 0;
		for (int64_t c = 0; c < nctas; c++)
			if (ran[c])
				v[k++] = tot[c * C + col];
		double med = median_u64(v, k), max = (double)v[k - 1];
		if (col < n) {
			t->r[col].cta_med_ns = med;
			t->r[col].cta_max_ns = max;
			t->lives_sum_med_us += med / 1e3;
		} else {
			t->lives_ctas = k;
			t->life_med_us = med / 1e3;
			t->life_max_us = max / 1e3;
		}
	}
	free(tot);
	free(v);
	free(ran);
	return 0;
}

/* A wait over the whole grid (after a grid's blocks: the colsum combine, the column pass's wait
 * for row values): a CTA arrives once, in the slot of its last stamped block (its other slots hold
 * the region zero long, at that block's end), so its arrival is the latest start over its slots,
 * and its wait runs from there to the latest arrival of every CTA that stamped a block (under
 * sampling, the CTAs that stamped none are missing). at: the stamped slots, blocks of them; v:
 * room for nctas values. */
static void
grid_waits(RegionStat *st, const MRegions *info, int r, const uint64_t *stamps, const int64_t *at,
	   int64_t blocks, int64_t nctas, uint64_t *v)
{
	int W = info->words;
	uint64_t latest = 0;
	for (int64_t c = 0; c < nctas; c++)
		v[c] = 0;
	for (int64_t i = 0; i < blocks; i++) {
		const uint64_t *w = stamps + at[i] * W;
		uint64_t a = w[1 + r];
		v[w[0] - 1] = a > v[w[0] - 1] ? a : v[w[0] - 1];
		latest = a > latest ? a : latest;
	}
	int64_t k = 0;
	for (int64_t c = 0; c < nctas; c++)
		if (v[c])
			v[k++] = latest - v[c];
	st->wait_med_ns = median_u64(v, k);
	st->wait_max_ns = (double)v[k - 1];
}

int
regions_reduce(RegionTable *t, const MRegions *info, const uint64_t *stamps, int64_t nctas, Diag *d)
{
	memset(t, 0, sizeof *t);
	int n = info->n, W = info->words, rc = -1;
	int64_t nslots = info->slots;
	char *seen = calloc((size_t)nctas + 1, 1);
	/* per stamped slot: its durations, region by region (column n: the slot's whole time);
	 * v: the stamps' values, or a value a CTA (grid_waits) */
	int64_t *at = calloc((size_t)nslots + 1, sizeof *at);
	int64_t nv = nslots * W > nctas ? nslots * W : nctas;
	uint64_t *v = calloc((size_t)nv + 1, sizeof *v);
	uint64_t lo = UINT64_MAX, hi = 0;
	double total = 0;
	if (!seen || !at || !v) {
		diag(d, "out of memory reducing the stamps of %lld slots", (long long)nslots);
		goto out;
	}
	for (int64_t s = 0; s < nslots; s++) {
		const uint64_t *w = stamps + s * W;
		int ran = check_slot(info, w, s, nctas, d);
		if (ran < 0)
			goto out;
		if (!ran)
			continue;
		at[t->blocks++] = s;
		t->ctas += !seen[w[0] - 1];
		seen[w[0] - 1] = 1;
		total += (double)(w[1 + n] - w[1]);
		lo = w[1] < lo ? w[1] : lo;
		hi = w[1 + n] > hi ? w[1 + n] : hi;
	}
	if (t->blocks == 0) {
		diag(d, "no CTA wrote its region stamps (a kernel compiled without --regions, or "
			"one that did not run)");
		goto out;
	}
	t->n = n;
	t->every = info->every;
	t->span_us = (double)(hi - lo) / 1e3;
	/* every row block ran, 1 in every was stamped: the CTA-time of all of them, estimated */
	t->resident =
	    hi > lo ? total * ((double)nslots / (double)t->blocks) / (double)(hi - lo) : 0;
	t->blocks_per_cta = (double)nslots / (double)nctas;
	for (int64_t i = 0; i < t->blocks; i++)
		v[i] = stamps[at[i] * W + 1 + n] - stamps[at[i] * W + 1];
	t->block_med_us = median_u64(v, t->blocks) / 1e3;
	double block_max_us = (double)v[t->blocks - 1] / 1e3;
	/* the timer's step: the smallest gap between two different boundary stamps */
	int64_t k = 0;
	for (int64_t i = 0; i < t->blocks; i++)
		for (int b = 1; b < W; b++)
			v[k++] = stamps[at[i] * W + b];
	qsort(v, (size_t)k, sizeof *v, cmp_u64);
	for (int64_t i = 1; i < k; i++)
		if (v[i] > v[i - 1] && (t->tick_ns == 0 || (double)(v[i] - v[i - 1]) < t->tick_ns))
			t->tick_ns = (double)(v[i] - v[i - 1]);
	for (int r = 0; r < n; r++) {
		RegionStat *st = &t->r[r];
		snprintf(st->name, sizeof st->name, "%s", info->r[r].name);
		st->wait = info->r[r].wait;
		double all = 0;
		for (int64_t i = 0; i < t->blocks; i++) {
			const uint64_t *w = stamps + at[i] * W;
			v[i] = w[2 + r] - w[1 + r];
			all += (double)v[i];
		}
		st->blocks = t->blocks;
		st->mean_ns = all / (double)t->blocks;
		st->med_ns = median_u64(v, t->blocks);
		st->max_ns = (double)v[t->blocks - 1];
		st->share = total > 0 ? all / total : 0;
		st->level_us = st->share * t->span_us;
		t->sum_med_us += st->med_ns / 1e3;
		t->sum_level_us += st->level_us;
		if (st->share > t->r[t->dominant].share)
			t->dominant = r;
		if (!st->wait)
			continue;
		if (info->r[r].grid) {
			grid_waits(st, info, r, stamps, at, t->blocks, nctas, v);
			continue;
		}
		/* a CTA's wait: from its arrival to the last arrival among its group's CTAs (a
		 * wait region has a slot a CTA: split rows and clusters have no grid, and a row's
		 * CTAs are stamped together) */
		int g = info->group > 0 ? info->group : 1;
		k = 0;
		for (int64_t c0 = 0; c0 < nslots; c0 += g) {
			uint64_t latest = 0;
			for (int64_t c = c0; c < c0 + g && c < nslots; c++) {
				uint64_t a = stamps[c * W + 1 + r];
				latest = a > latest ? a : latest;
			}
			for (int64_t c = c0; c < c0 + g && c < nslots; c++) {
				uint64_t a = stamps[c * W + 1 + r];
				if (a)
					v[k++] = latest - a;
			}
		}
		st->wait_med_ns = median_u64(v, k);
		st->wait_max_ns = (double)v[k - 1];
	}
	t->cta_us = t->sum_med_us * t->blocks_per_cta;
	/* a CTA's whole life: a slot a CTA (no grid: the blocks are the CTAs), or every slot of a
	 * grid stamped; under a sampled grid a CTA's unstamped blocks are missing */
	if (nslots <= nctas) {
		for (int r = 0; r < n; r++) {
			t->r[r].cta_med_ns = t->r[r].med_ns;
			t->r[r].cta_max_ns = t->r[r].max_ns;
		}
		t->lives_ctas = t->blocks;
		t->lives_sum_med_us = t->sum_med_us;
		t->life_med_us = t->block_med_us;
		t->life_max_us = block_max_us;
	} else if (info->every == 1 && lives_reduce(t, info, stamps, at, nctas, d))
		goto out;
	rc = 0;
out:
	free(seen);
	free(at);
	free(v);
	return rc;
}

void
regions_report(Buf *b, const RegionTable *t)
{
	double k = t->kernel_us > 0 ? 100 / t->kernel_us : 0;
	buf_printf(b,
		   "  regions: one launch, L2 flushed: kernel %.2f us, stamps span %.2f us, %lld "
		   "row blocks stamped (1 in %d) by %lld CTAs, %.1f resident on average, timer "
		   "step %.0f ns\n",
		   t->kernel_us, t->span_us, (long long)t->blocks, t->every, (long long)t->ctas,
		   t->resident, t->tick_ns);
	/* the kernel's time less what an empty launch of its grid takes: what the CTAs' stamps can
	 * see at most */
	double work = t->kernel_us - t->floor_us, w = work > 0 ? 100 / work : 0;
	if (t->floor_us > 0)
		buf_printf(
		    b,
		    "  launch floor: an empty kernel of this grid and block takes %.2f us; the "
		    "kernel less it: %.2f us\n",
		    t->floor_us, work);
	if (t->per_sm > 0)
		buf_printf(b, "  occupancy: %d CTAs an SM x %d SMs; %lld CTAs are %.2f wave(s)\n",
			   t->per_sm, t->sms, (long long)t->grid,
			   (double)t->grid / ((double)t->per_sm * t->sms));
	/* under a grid with every block stamped, a CTA's time in a region is its blocks' summed */
	int ctas = t->lives_ctas > 0 && t->blocks_per_cta > 1;
	buf_printf(b, "  %-18s %7s %10s %10s %10s %7s %10s", "region", "blocks", "median us",
		   "mean us", "max us", "share", "kernel us");
	if (ctas)
		buf_printf(b, " %10s %10s", "CTA med us", "CTA max us");
	buf_printf(b, " %21s\n", "wait median/max us");
	for (int r = 0; r < t->n; r++) {
		const RegionStat *s = &t->r[r];
		buf_printf(b, "  %-18s %7lld %10.3f %10.3f %10.3f %6.1f%% %10.3f", s->name,
			   (long long)s->blocks, s->med_ns / 1e3, s->mean_ns / 1e3, s->max_ns / 1e3,
			   100 * s->share, s->level_us);
		if (ctas)
			buf_printf(b, " %10.3f %10.3f", s->cta_med_ns / 1e3, s->cta_max_ns / 1e3);
		if (s->wait)
			buf_printf(b, " %10.3f/%-10.3f", s->wait_med_ns / 1e3,
				   s->wait_max_ns / 1e3);
		buf_puts(b, "\n");
	}
	buf_printf(b,
		   "  per block: medians sum to %.3f us (a block's median %.3f us); %.2f blocks a "
		   "CTA: %.3f us (%.1f%% of the kernel's time)\n",
		   t->sum_med_us, t->block_med_us, t->blocks_per_cta, t->cta_us, k * t->cta_us);
	if (t->lives_ctas > 0) {
		buf_printf(b,
			   "  per CTA: the regions' medians over the %lld CTAs sum to %.3f us "
			   "(%.1f%% of the kernel's time",
			   (long long)t->lives_ctas, t->lives_sum_med_us, k * t->lives_sum_med_us);
		if (w > 0)
			buf_printf(b, ", %.1f%% of it less the floor", w * t->lives_sum_med_us);
		buf_printf(b, "); a CTA's life: median %.3f us, max %.3f us (%.1f%%)\n",
			   t->life_med_us, t->life_max_us, k * t->life_max_us);
	} else
		buf_printf(
		    b,
		    "  per CTA: not measured (a grid's blocks stamped 1 in %d; --regions-every "
		    "1 stamps every block)\n",
		    t->every);
	buf_printf(b,
		   "  kernel level: CTA-time over the CTAs resident on average sums to %.3f us "
		   "(%.1f%% of the kernel's time); dominant: %s (%.1f%%)\n",
		   t->sum_level_us, k * t->sum_level_us, t->r[t->dominant].name,
		   100 * t->r[t->dominant].share);
}
