/* Targets: GPUs as data, parsed from the JSON files embedded at build time. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "heuristics/heuristics.h"
#include "targets_data.h"

const char *const *
target_names(void)
{
	enum { N = sizeof embedded_targets / sizeof embedded_targets[0] };
	static const char *names[N + 1];
	for (int i = 0; i < N; i++)
		names[i] = embedded_targets[i].arch;
	return names;
}

static int
num(json_t *o, const char *key, double *out, const char *arch, Diag *d)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_number(v))
		return diag(d, "target %s: '%s' is missing or not a number", arch, key);
	*out = json_number_value(v);
	return 0;
}

/* The optional "cluster_ctas": {"c": [CTAs held at 1, 2, ... CTAs an SM], ...}, c from 2 to
 * cluster_max, each count a multiple of c and at most sms x k. */
static int
cluster_ctas(Target *t, json_t *o, const char *arch, Diag *d)
{
	if (!o)
		return 0;
	const char *key;
	json_t *v;
	int bad = !json_is_object(o);
	json_object_foreach(o, key, v)
	{
		char *end;
		long c = strtol(key, &end, 10);
		size_t n = json_array_size(v);
		bad |= *end || c < 2 || c > t->cluster_max || c > 16 || !n || n > 32;
		for (size_t k = 0; !bad && k < n; k++) {
			json_t *e = json_array_get(v, k);
			int ctas = json_is_integer(e) ? (int)json_integer_value(e) : -1;
			bad = ctas < 0 || ctas % c || ctas > t->sms * (int)(k + 1);
			t->cluster_ctas[c][k] = ctas;
		}
		if (bad)
			break;
		t->ncluster_ctas[c] = (int)n;
	}
	if (bad)
		return diag(
		    d,
		    "target %s: 'cluster_ctas' maps a cluster size (2 to cluster_max) to 1 "
		    "to 32 counts of CTAs, each a multiple of the size and at most sms times "
		    "the CTAs an SM",
		    arch);
	return 0;
}

int
target_load(const char *arch, Target *t, Diag *d)
{
	const char *src = NULL;
	for (size_t i = 0; i < sizeof embedded_targets / sizeof embedded_targets[0]; i++)
		if (!strcmp(embedded_targets[i].arch, arch))
			src = embedded_targets[i].json;
	if (!src) {
		Buf b = {0};
		for (const char *const *n = target_names(); *n; n++)
			buf_printf(&b, "%s%s", n == target_names() ? "" : ", ", *n);
		diag(d, "unknown arch '%s' (known: %s)", arch, b.s ? b.s : "none");
		buf_free(&b);
		return -1;
	}
	return target_parse(arch, src, t, d);
}

int
target_parse(const char *arch, const char *src, Target *t, Diag *d)
{
	json_error_t je;
	json_t *o = json_loads(src, 0, &je);
	if (!json_is_object(o)) {
		json_decref(o);
		return diag(d, "target %s: %s at line %d", arch, je.text, je.line);
	}
	memset(t, 0, sizeof *t);
	snprintf(t->arch, sizeof t->arch, "%s", arch);
	const char *name = json_string_value(json_object_get(o, "name"));
	snprintf(t->name, sizeof t->name, "%s", name ? name : arch);
	struct {
		const char *key;
		int *i;
		int64_t *l;
		double *f;
	} fields[] = {
	    {"sms", &t->sms, NULL, NULL},
	    {"regs_per_sm", &t->regs_per_sm, NULL, NULL},
	    {"sub_partitions", &t->sub_partitions, NULL, NULL},
	    {"max_regs_thread", &t->max_regs_thread, NULL, NULL},
	    {"max_threads_sm", &t->max_threads_sm, NULL, NULL},
	    {"max_threads_cta", &t->max_threads_cta, NULL, NULL},
	    {"max_ctas_sm", &t->max_ctas_sm, NULL, NULL},
	    {"smem_per_sm", &t->smem_per_sm, NULL, NULL},
	    {"smem_per_cta", &t->smem_per_cta, NULL, NULL},
	    {"cluster_max", &t->cluster_max, NULL, NULL},
	    {"l1_bytes", NULL, &t->l1_bytes, NULL},
	    {"l2_bytes", NULL, &t->l2_bytes, NULL},
	    {"hbm_gbps_spec", NULL, NULL, &t->hbm_gbps_spec},
	    {"hbm_gbps", NULL, NULL, &t->hbm_gbps},
	    {"l2_gbps", NULL, NULL, &t->l2_gbps},
	    {"mem_latency_ns", NULL, NULL, &t->mem_latency_ns},
	    {"cta_ns", NULL, NULL, &t->cta_ns},
	    {"dispatch_ns", NULL, NULL, &t->dispatch_ns},
	    {"shfl_ns", NULL, NULL, &t->shfl_ns},
	    {"barrier_ns", NULL, NULL, &t->barrier_ns},
	    {"launch_us", NULL, NULL, &t->launch_us},
	    {"split_us", NULL, NULL, &t->split_us},
	    {"smem_ns", NULL, NULL, &t->smem_ns},
	    {"cluster_ns", NULL, NULL, &t->cluster_ns},
	    {"coop_ns", NULL, NULL, &t->coop_ns},
	    {"issue_ghz", NULL, NULL, &t->issue_ghz},
	    {"fp8_cvt", &t->fp8_cvt, NULL, NULL},
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0] && !rc; i++) {
		double v = 0;
		rc = num(o, fields[i].key, &v, arch, d);
		if (rc)
			break;
		if (fields[i].i)
			*fields[i].i = (int)v;
		else if (fields[i].l)
			*fields[i].l = (int64_t)v;
		else
			*fields[i].f = v;
	}
	/* optional: the SMs of each GPC, which must add up to sms */
	json_t *gpc = json_object_get(o, "gpc_sms");
	size_t ngpc = json_array_size(gpc);
	int sum = 0, bad = gpc && (!ngpc || ngpc > 32);
	for (size_t g = 0; !bad && g < ngpc; g++) {
		json_t *v = json_array_get(gpc, g);
		t->gpc_sms[g] = json_is_integer(v) ? (int)json_integer_value(v) : 0;
		bad = t->gpc_sms[g] < 1;
		sum += t->gpc_sms[g];
	}
	t->ngpc = bad ? 0 : (int)ngpc;
	if (!rc && (bad || (gpc && sum != t->sms)))
		rc = diag(
		    d, "target %s: 'gpc_sms' must be 1 to 32 positive integers that add up to sms",
		    arch);
	if (!rc)
		rc = cluster_ctas(t, json_object_get(o, "cluster_ctas"), arch, d);
	json_decref(o);
	if (!rc && (t->sms < 1 || t->hbm_gbps <= 0 || t->max_threads_cta < 32 ||
		    t->sub_partitions < 1 || t->issue_ghz <= 0))
		rc = diag(d,
			  "target %s: sms, hbm_gbps, max_threads_cta, sub_partitions and issue_ghz "
			  "must be positive",
			  arch);
	return rc;
}

/* ptxas under .minnctapersm k places the k CTAs' warps over the sub-partitions and caps a thread
 * at what the fullest one's register file holds: 16384 / (ceil(k * warps / 4) * 32) (measured
 * with ptxas 13.0 for sm_80, sm_90 and sm_100; docs/heuristics.md, "The register model"). The
 * whole register file over the k CTAs reads 8-16 registers high where the warps do not split
 * evenly over the sub-partitions. */
int
target_reg_limit(const Target *t, int threads, int ctas)
{
	int q = t->sub_partitions;
	int64_t warps = (int64_t)(ctas > 1 ? ctas : 1) * cdiv(threads, 32);
	int lim = (int)(t->regs_per_sm / q / (cdiv(warps, q) * 32) / 8 * 8);
	return lim < t->max_regs_thread ? lim : t->max_regs_thread;
}
