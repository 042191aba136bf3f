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
	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *e = json_array_get(list, i);
		const char *name = json_string_value(json_object_get(e, "name"));
		json_t *wait = json_object_get(e, "wait");
		if (!name || strlen(name) >= sizeof r->r[0].name || !json_is_boolean(wait))
			return diag_at(d, file, (Loc){0},
				       "manifest: region %zu needs a \"name\" (under 32 bytes) and "
				       "a boolean \"wait\"",
				       i);
		strcpy(r->r[r->n].name, name);
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

/* Each CTA's stamps in order: a region is run (both stamps) or not (neither), and no stamp is
 * before the one before it. The CTA's first start and last end into first and last (0: none). */
static int
check_cta(const MRegions *info, const uint64_t *s, int64_t cta, uint64_t *first, uint64_t *last,
	  Diag *d)
{
	uint64_t prev = 0;
	*first = *last = 0;
	for (int r = 0; r < info->n; r++) {
		uint64_t a = s[2 * r], b = s[2 * r + 1];
		if (!a && !b)
			continue;
		if (!a || !b)
			return diag(d, "CTA %lld: region %s has %s", (long long)cta,
				    info->r[r].name,
				    a ? "a start but no end" : "an end but no start");
		if (b < a || a < prev)
			return diag(d, "CTA %lld: the stamps go backwards at region %s",
				    (long long)cta, info->r[r].name);
		prev = b;
		if (!*first)
			*first = a;
		*last = b;
	}
	return 0;
}

int
regions_reduce(RegionTable *t, const MRegions *info, const uint64_t *stamps, int64_t nctas, Diag *d)
{
	memset(t, 0, sizeof *t);
	int n = info->n, rc = -1;
	uint64_t *first = calloc((size_t)nctas + 1, sizeof *first);
	uint64_t *last = calloc((size_t)nctas + 1, sizeof *last);
	uint64_t *v = calloc((size_t)nctas * 2 * (size_t)(n > 0 ? n : 1) + 1, sizeof *v);
	uint64_t lo = UINT64_MAX, hi = 0;
	double total = 0;
	for (int64_t c = 0; c < nctas; c++) {
		if (check_cta(info, stamps + c * 2 * n, c, &first[c], &last[c], d))
			goto out;
		if (!first[c])
			continue;
		v[t->ctas++] = last[c] - first[c];
		total += (double)(last[c] - first[c]);
		lo = first[c] < lo ? first[c] : lo;
		hi = last[c] > hi ? last[c] : hi;
	}
	if (t->ctas == 0) {
		diag(d, "no CTA wrote its region stamps (a kernel compiled without --regions, or "
			"one that did not run)");
		goto out;
	}
	t->n = n;
	t->span_us = (double)(hi - lo) / 1e3;
	t->cta_med_us = median_u64(v, t->ctas) / 1e3;
	/* the timer's step: the smallest gap between two different stamps */
	int64_t nv = 0;
	for (int64_t i = 0; i < nctas * 2 * n; i++)
		if (stamps[i])
			v[nv++] = stamps[i];
	qsort(v, (size_t)nv, sizeof *v, cmp_u64);
	for (int64_t i = 1; i < nv; i++)
		if (v[i] > v[i - 1] && (t->tick_ns == 0 || (double)(v[i] - v[i - 1]) < t->tick_ns))
			t->tick_ns = (double)(v[i] - v[i - 1]);
	for (int r = 0; r < n; r++) {
		RegionStat *s = &t->r[r];
		snprintf(s->name, sizeof s->name, "%s", info->r[r].name);
		s->wait = info->r[r].wait;
		double sum = 0;
		int64_t k = 0;
		for (int64_t c = 0; c < nctas; c++) {
			const uint64_t *p = stamps + (c * n + r) * 2;
			if (!p[0])
				continue;
			v[k++] = p[1] - p[0];
			sum += (double)(p[1] - p[0]);
		}
		s->ctas = k;
		if (k == 0)
			continue;
		s->mean_ns = sum / (double)k;
		s->med_ns = median_u64(v, k);
		s->max_ns = (double)v[k - 1];
		s->share = total > 0 ? sum / total : 0;
		t->sum_med_us += s->med_ns / 1e3;
		if (s->share > t->r[t->dominant].share)
			t->dominant = r;
		if (!s->wait)
			continue;
		/* a CTA's wait: from its arrival to the last arrival among its group's CTAs */
		int g = info->group > 0 ? info->group : 1;
		k = 0;
		for (int64_t c0 = 0; c0 < nctas; c0 += g) {
			uint64_t latest = 0;
			for (int64_t c = c0; c < c0 + g && c < nctas; c++) {
				uint64_t a = stamps[(c * n + r) * 2];
				latest = a > latest ? a : latest;
			}
			for (int64_t c = c0; c < c0 + g && c < nctas; c++) {
				uint64_t a = stamps[(c * n + r) * 2];
				if (a)
					v[k++] = latest - a;
			}
		}
		s->wait_med_ns = median_u64(v, k);
		s->wait_max_ns = (double)v[k - 1];
	}
	rc = 0;
out:
	free(first);
	free(last);
	free(v);
	return rc;
}

void
regions_report(Buf *b, const RegionTable *t)
{
	buf_printf(b,
		   "  regions: one launch, L2 flushed: kernel %.2f us, stamps span %.2f us, %lld "
		   "CTAs, timer step %.0f ns\n",
		   t->kernel_us, t->span_us, (long long)t->ctas, t->tick_ns);
	buf_printf(b, "  %-18s %7s %10s %10s %10s %7s %21s\n", "region", "CTAs", "median us",
		   "mean us", "max us", "share", "wait median/max us");
	for (int r = 0; r < t->n; r++) {
		const RegionStat *s = &t->r[r];
		buf_printf(b, "  %-18s %7lld %10.3f %10.3f %10.3f %6.1f%%", s->name,
			   (long long)s->ctas, s->med_ns / 1e3, s->mean_ns / 1e3, s->max_ns / 1e3,
			   100 * s->share);
		if (s->wait)
			buf_printf(b, " %10.3f/%-10.3f", s->wait_med_ns / 1e3,
				   s->wait_max_ns / 1e3);
		buf_puts(b, "\n");
	}
	buf_printf(
	    b,
	    "  medians sum to %.3f us (%.1f%% of the kernel's time); a CTA's median %.3f us; "
	    "dominant: %s (%.1f%%)\n",
	    t->sum_med_us, t->kernel_us > 0 ? 100 * t->sum_med_us / t->kernel_us : 0, t->cta_med_us,
	    t->r[t->dominant].name, 100 * t->r[t->dominant].share);
}
