/* rkc golden: pin every policy's choice on the shape suites, check it, and diff two pins. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "heuristics/heuristics.h"
#include "tools/tools.h"

static const char *suites[] = {"core",	   "transfer",	 "long_rows", "few_rows",    "tiny_rows",
			       "training", "narrow_bwd", "wide_bwd",  "few_rows_bwd"};
/* The golden files of each arch: a policy, in the batch-invariant mode or not. */
static const struct {
	Policy p;
	int invariant;
} policies[] = {{POLICY_HELION2828, 0}, {POLICY_RKC, 0}, {POLICY_RKC, 1}};

/* testdata/ in the working directory, else in the source tree rkc was built from. */
static const char *
root(void)
{
	return access("testdata/shapes/core.json", R_OK) == 0 ? "." : RKC_SOURCE_DIR;
}

static json_t *
load_json(const char *path)
{
	json_error_t e;
	json_t *o = json_load_file(path, 0, &e);
	/* no line: the file could not be opened, and the text says so and names it */
	if (!o && e.line > 0)
		fprintf(stderr, "rkc golden: error: %s:%d:%d: %s\n", path, e.line, e.column,
			e.text);
	else if (!o)
		fprintf(stderr, "rkc golden: error: %s\n", e.text);
	return o;
}

typedef struct {
	char *key;    /* "kernel dtype MxN" */
	size_t group; /* the length of its "kernel dtype" */
	char *line;   /* the point as one line of compact, sorted JSON */
} Point;

typedef struct {
	Point *v;
	int n, cap;
} Points;

/* o has the fields point_error checks. */
static void
points_add(Points *ps, json_t *o)
{
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 512;
		ps->v = realloc(ps->v, ps->cap * sizeof *ps->v);
	}
	Point *p = &ps->v[ps->n++];
	const char *kernel = json_string_value(json_object_get(o, "kernel"));
	const char *dtype = json_string_value(json_object_get(o, "dtype"));
	p->group = strlen(kernel) + 1 + strlen(dtype);
	if (asprintf(&p->key, "%s %s %lldx%lld", kernel, dtype,
		     (long long)json_integer_value(json_object_get(o, "M")),
		     (long long)json_integer_value(json_object_get(o, "N"))) < 0)
		abort();
	p->line = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
}

static void
points_free(Points *ps)
{
	for (int i = 0; i < ps->n; i++)
		free(ps->v[i].key), free(ps->v[i].line);
	free(ps->v);
	memset(ps, 0, sizeof *ps);
}

static const Point *
points_find(const Points *ps, const char *key)
{
	for (int i = 0; i < ps->n; i++)
		if (!strcmp(ps->v[i].key, key))
			return &ps->v[i];
	return NULL;
}

/* What is wrong with a point read from a file, or NULL when it has every field generate writes
 * (smem, cluster, grid, dynamic, ahead, coop, stash, steps and colpass may be absent, as in files
 * written before them: 0, 1, 0, 0, 0, 0, 0, 0 and 0). */
static const char *
point_error(json_t *o, char *buf, size_t n)
{
	static const char *const ints[] = {"M",	  "N",	   "r_block", "m_block", "num_warps",
					   "vec", "split", "evict",   "min_ctas"};
	if (!json_is_object(o))
		return "expected an object";
	if (!json_is_string(json_object_get(o, "kernel")) ||
	    !json_is_string(json_object_get(o, "dtype")))
		return "expected strings kernel and dtype";
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (!json_is_integer(json_object_get(o, ints[i]))) {
			snprintf(buf, n, "expected an integer %s", ints[i]);
			return buf;
		}
	if (!json_is_boolean(json_object_get(o, "persistent")))
		return "expected a boolean persistent";
	static const char *const knobs[] = {"smem", "cluster", "grid",	"dynamic", "ahead",
					    "coop", "stash",   "steps", "colpass"};
	for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++)
		if (json_object_get(o, knobs[i]) &&
		    !json_is_integer(json_object_get(o, knobs[i]))) {
			snprintf(buf, n, "expected an integer %s", knobs[i]);
			return buf;
		}
	double us = json_number_value(json_object_get(o, "modelled_us"));
	if (!(us > 0) || !isfinite(us))
		return "expected a positive number modelled_us";
	return NULL;
}

/* Every point of one (policy, arch), in suite order; -1 on a missing kernel or bad suite. */
static int
generate(Policy p, int invariant, const char *arch, Points *out, long *npoints)
{
	for (size_t s = 0; s < sizeof suites / sizeof suites[0]; s++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/testdata/shapes/%s.json", root(), suites[s]);
		json_t *suite = load_json(path);
		if (!suite)
			return -1;
		json_t *dtypes = json_object_get(suite, "dtypes"), *ks;
		size_t ki, di;
		json_array_foreach(json_object_get(suite, "kernels"), ki, ks)
		{
			const char *name = json_string_value(json_object_get(ks, "kernel"));
			snprintf(path, sizeof path, "%s/testdata/kernels/%s.rk", root(),
				 name ? name : "?");
			Kernel *k = tool_load_kernel(path);
			if (!k) {
				json_decref(suite);
				return -1;
			}
			/* helion2828 has no rule for a sum over rows: rkc's points only */
			if (p == POLICY_HELION2828 && k->plan->ncolsum) {
				kernel_free(k);
				continue;
			}
			json_t *dt;
			json_array_foreach(dtypes, di, dt)
			{
				Type type;
				Diag d = {0};
				if (rkc_parse_dtype(json_string_value(dt), &type, &d)) {
					fprintf(stderr, "rkc golden: %s: %s\n", path, d.msg);
					kernel_free(k);
					json_decref(suite);
					return -1;
				}
				size_t si;
				json_t *sh;
				json_array_foreach(json_object_get(ks, "shapes"), si, sh)
				{
					Request rq = {.k = k,
						      .dtype = type,
						      .arch = arch,
						      .policy = p,
						      .batch_invariant = invariant};
					rq.M = json_integer_value(json_array_get(sh, 0));
					rq.N = json_integer_value(json_array_get(sh, 1));
					int64_t M = rq.M, N = rq.N;
					Result r;
					int failed = rkc_compile(&rq, &r, &d);
					Choice c = r.choice;
					rkc_result_free(&r);
					if (failed) {
						fprintf(stderr, "rkc golden: %s (%s)\n", d.msg,
							path);
						kernel_free(k);
						json_decref(suite);
						return -1;
					}
					json_t *reasons = json_array();
					for (int i = 0; i < c.nreasons; i++)
						json_array_append_new(reasons,
								      json_string(c.reasons[i]));
					json_t *o = json_pack(
					    "{s:s,s:s,s:I,s:I,s:b,s:I,s:i,s:i,s:i,s:i,s:i,s:i,s:i,"
					    "s:i,s:i,s:i,s:i,s:i,s:f,s:o}",
					    "kernel", k->name, "dtype", json_string_value(dt), "M",
					    (json_int_t)M, "N", (json_int_t)N, "persistent",
					    c.cfg.persistent, "r_block", (json_int_t)c.cfg.r_block,
					    "m_block", c.cfg.m_block, "num_warps", c.cfg.num_warps,
					    "vec", c.cfg.vec, "split", c.cfg.split, "evict",
					    c.cfg.evict, "min_ctas",
					    c.cfg.min_ctas > 1 ? c.cfg.min_ctas : 1, "smem",
					    c.cfg.smem, "cluster",
					    c.cfg.cluster > 1 ? c.cfg.cluster : 1, "grid",
					    c.cfg.grid, "dynamic", c.cfg.dynamic, "ahead",
					    c.cfg.ahead, "predicted_regs", c.cost.regs,
					    "modelled_us", round(c.cost.us * 10) / 10, "reasons",
					    reasons);
					/* only where set: the files from before coop=1,
					 * stash=1, steps=1 and colpass=1 hold */
					if (c.cfg.coop)
						json_object_set_new(o, "coop",
								    json_integer(c.cfg.coop));
					if (c.cfg.stash)
						json_object_set_new(o, "stash",
								    json_integer(c.cfg.stash));
					if (c.cfg.steps)
						json_object_set_new(o, "steps",
								    json_integer(c.cfg.steps));
					if (c.cfg.colpass)
						json_object_set_new(o, "colpass",
								    json_integer(c.cfg.colpass));
					points_add(out, o);
					json_decref(o);
					++*npoints;
				}
			}
			kernel_free(k);
		}
		json_decref(suite);
	}
	return 0;
}

/* "rkc", or "rkc-invariant" for the batch-invariant mode: the file's name before the arch. */
static const char *
file_policy(Policy p, int invariant)
{
	return invariant ? "rkc-invariant" : policy_name(p);
}

static char *
golden_path(Policy p, int invariant, const char *arch)
{
	char *s = malloc(4096);
	snprintf(s, 4096, "%s/testdata/golden/%s-%s.json", root(), file_policy(p, invariant), arch);
	return s;
}

/* The file: a header, then one point a line, so a changed decision is a one-line git diff. */
static void
render(Buf *b, Policy p, int invariant, const char *arch, const Points *ps)
{
	buf_printf(b, "{\n  \"arch\": \"%s\",\n  \"policy\": \"%s\",\n", arch, policy_name(p));
	if (invariant)
		buf_puts(b, "  \"batch_invariant\": true,\n");
	buf_puts(b, "  \"points\": [\n");
	for (int i = 0; i < ps->n; i++)
		buf_printf(b, "    %s%s\n", ps->v[i].line, i + 1 < ps->n ? "," : "");
	buf_puts(b, "  ]\n}\n");
}

static int
read_points(const char *path, Points *ps)
{
	json_t *o = load_json(path);
	if (!o)
		return -1;
	json_t *points = json_object_get(o, "points"), *pt;
	int rc = 0;
	if (!json_is_array(points)) {
		fprintf(stderr, "rkc golden: error: %s: not a golden file (no \"points\" array)\n",
			path);
		rc = -1;
	}
	size_t i;
	json_array_foreach(points, i, pt)
	{
		char buf[64];
		const char *why = point_error(pt, buf, sizeof buf);
		if (why) {
			fprintf(stderr, "rkc golden: error: %s: points[%zu]: %s\n", path, i, why);
			rc = -1;
			break;
		}
		points_add(ps, pt);
	}
	json_decref(o);
	return rc;
}

static void
config_of(Buf *b, const char *line)
{
	json_t *o = json_loads(line, 0, NULL);
	Config c = {
	    json_is_true(json_object_get(o, "persistent")),
	    json_integer_value(json_object_get(o, "r_block")),
	    (int)json_integer_value(json_object_get(o, "m_block")),
	    (int)json_integer_value(json_object_get(o, "num_warps")),
	    (int)json_integer_value(json_object_get(o, "vec")),
	    (int)json_integer_value(json_object_get(o, "split")),
	    (int)json_integer_value(json_object_get(o, "evict")),
	    (int)json_integer_value(json_object_get(o, "min_ctas")),
	    (int)json_integer_value(json_object_get(o, "smem")),
	    (int)json_integer_value(json_object_get(o, "cluster")),
	    (int)json_integer_value(json_object_get(o, "grid")),
	    (int)json_integer_value(json_object_get(o, "dynamic")),
	    (int)json_integer_value(json_object_get(o, "ahead")),
	    (int)json_integer_value(json_object_get(o, "coop")),
	    (int)json_integer_value(json_object_get(o, "stash")),
	    (int)json_integer_value(json_object_get(o, "steps")),
	    (int)json_integer_value(json_object_get(o, "colpass")),
	};
	config_short(b, &c);
	json_decref(o);
}

static double
us_of(const char *line)
{
	json_t *o = json_loads(line, 0, NULL);
	double us = json_number_value(json_object_get(o, "modelled_us"));
	json_decref(o);
	return us;
}

static int
run_all(int update)
{
	const char *const *archs = target_names();
	int bad = 0, files = 0;
	long npoints = 0;
	double secs = 0;
	for (const char *const *a = archs; *a; a++) {
		for (size_t pi = 0; pi < sizeof policies / sizeof policies[0]; pi++) {
			Points gen = {0}, old = {0};
			struct timespec t0, t1;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			Policy p = policies[pi].p;
			int inv = policies[pi].invariant;
			int rc = generate(p, inv, *a, &gen, &npoints);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			secs += (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
			if (rc) {
				points_free(&gen);
				return 1;
			}
			char *path = golden_path(p, inv, *a);
			files++;
			if (update) {
				Buf b = {0};
				render(&b, p, inv, *a, &gen);
				rc = tool_write_file(path, b.s, b.len);
				buf_free(&b);
				if (rc)
					bad++;
			} else if (read_points(path, &old))
				bad++;
			else {
				for (int i = 0; i < gen.n; i++) {
					const Point *o = points_find(&old, gen.v[i].key);
					if (o && !strcmp(o->line, gen.v[i].line))
						continue;
					Buf was = {0}, now = {0};
					if (o)
						config_of(&was, o->line);
					config_of(&now, gen.v[i].line);
					printf("%s-%s: %s: %s -> %s%s\n", file_policy(p, inv), *a,
					       gen.v[i].key, o ? was.s : "(missing)", now.s,
					       o && !strcmp(was.s, now.s)
						   ? " (reasons or regs differ)"
						   : "");
					buf_free(&was);
					buf_free(&now);
					bad++;
				}
				for (int i = 0; i < old.n; i++)
					if (!points_find(&gen, old.v[i].key)) {
						printf("%s-%s: %s: no longer in the suite\n",
						       file_policy(p, inv), *a, old.v[i].key);
						bad++;
					}
			}
			free(path);
			points_free(&gen);
			points_free(&old);
		}
	}
	printf("golden: %d files, %ld points explained in %.3f s; %s\n", files, npoints, secs,
	       update ? (bad ? "some files not written" : "updated")
	       : bad  ? "differences above (rkc golden update accepts them)"
		      : "all match");
	return bad ? 1 : 0;
}

static int
diff(const char *a, const char *b)
{
	Points old = {0}, now = {0};
	if (read_points(a, &old) || read_points(b, &now)) {
		points_free(&old);
		points_free(&now);
		return 1;
	}
	printf("# rkc golden diff %s -> %s\n\n", a, b);
	printf("Config: P persistent / L looped with r_block, m rows per CTA, w warps, v vector "
	       "width, s split. `=`: the point is byte-identical; `= config`: the same config "
	       "with other reasons. Times are the cost model's, in µs.\n");
	const Point *group = NULL; /* the first point of the "kernel dtype" being tabled */
	int changed = 0, total = 0, gchanged = 0, gtotal = 0;
	double lsum = 0, glsum = 0;
	Buf body = {0};
	for (int i = 0; i <= now.n; i++) {
		const Point *p = i < now.n ? &now.v[i] : NULL;
		if (group && !(p && p->group == group->group &&
			       !strncmp(p->key, group->key, group->group))) {
			printf("\n## %.*s: %d of %d changed, modelled speedup geomean %.3fx\n\n"
			       "| shape | before | after |\n|---|---|---|\n%s",
			       (int)group->group, group->key, gchanged, gtotal, exp(glsum / gtotal),
			       body.s);
			buf_free(&body);
			gchanged = gtotal = 0;
			glsum = 0;
			group = NULL;
		}
		if (!p)
			break;
		if (!group)
			group = p;
		const Point *o = points_find(&old, p->key);
		Buf was = {0}, is = {0};
		if (o)
			config_of(&was, o->line);
		config_of(&is, p->line);
		double un = us_of(p->line), uo = o ? us_of(o->line) : un;
		const char *shape = p->key + p->group + 1;
		if (o && !strcmp(o->line, p->line))
			buf_printf(&body, "| %s | %s · %.1f | = |\n", shape, was.s, uo);
		else if (o && !strcmp(was.s, is.s))
			buf_printf(&body, "| %s | %s · %.1f | = config |\n", shape, was.s, uo);
		else {
			buf_printf(&body, "| %s | %s · %.1f | %s · %.1f |\n", shape,
				   o ? was.s : "(none)", uo, is.s, un);
			gchanged++;
			changed++;
		}
		gtotal++;
		total++;
		glsum += log(uo / un);
		lsum += log(uo / un);
		buf_free(&was);
		buf_free(&is);
	}
	printf("\n%d of %d points changed config; modelled speedup geomean %.3fx over all.\n",
	       changed, total, total ? exp(lsum / total) : 1.0);
	points_free(&old);
	points_free(&now);
	return 0;
}

static int
golden_run(const Args *a)
{
	const char *action = a->operands[0];
	int n = a->noperands;
	if (strcmp(action, "check") && strcmp(action, "update") && strcmp(action, "diff"))
		return args_error(a, "unknown action '%s' (expected check, update or diff)",
				  action);
	if (!strcmp(action, "diff") && n != 3)
		return args_error(a, "diff takes two golden files, OLD and NEW");
	if (strcmp(action, "diff") && n != 1)
		return args_error(a, "%s takes no files", action);
	if (!strcmp(action, "diff"))
		return diff(a->operands[1], a->operands[2]);
	return run_all(!strcmp(action, "update"));
}

const Cmd cmd_golden = {
    .name = "golden",
    .operands = "check | update | diff OLD.json NEW.json",
    .min_operands = 1,
    .max_operands = 3,
    .missing = "no action given (check, update or diff)",
    .summary = "The golden-config suite (testdata/golden/): check it, update it, or table what "
	       "changed.",
    .opts = (const Opt[]){{0}},
    .about =
	"check    regenerate every policy's choice (and the rkc policy's in the batch-invariant "
	"mode,\n         rkc-invariant-ARCH.json) on the shape suites for every arch, and "
	"list each point\n         that differs from testdata/golden/ (exit 1 on any)\n"
	"update   rewrite testdata/golden/ with the choices made now\n"
	"diff     the before -> after table of two golden files, per kernel and dtype\n",
    .run = golden_run,
};
