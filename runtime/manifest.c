/* The launch manifest: read the JSON `rkc compile` writes and check it against the kernel. */
#include <jansson.h>
#include <string.h>

#include "runtime/runtime.h"

static int
get_str(char *dst, size_t cap, json_t *o, const char *key, const char *file, Diag *d)
{
	const char *s = json_string_value(json_object_get(o, key));
	if (!s)
		return diag_at(d, file, (Loc){0}, "manifest: \"%s\" must be a string", key);
	if (strlen(s) >= cap)
		return diag_at(d, file, (Loc){0}, "manifest: \"%s\" is too long", key);
	strcpy(dst, s);
	return 0;
}

static int
get_int(int64_t *v, json_t *o, const char *key, const char *file, Diag *d)
{
	json_t *j = json_object_get(o, key);
	if (!json_is_integer(j))
		return diag_at(d, file, (Loc){0}, "manifest: \"%s\" must be an integer", key);
	*v = json_integer_value(j);
	return 0;
}

static int
parse_shape(Shape *s, const char *str)
{
	static const char *names[] = {"", "[M]", "[N]", "[M,N]"};
	static const Shape shapes[] = {SH_SCALAR, SH_ROW, SH_VEC, SH_TILE};
	for (int i = 0; i < 4; i++)
		if (!strcmp(str, names[i])) {
			*s = shapes[i];
			return 0;
		}
	return -1;
}

static int
parse_param(MParam *p, json_t *j, const char *file, Diag *d)
{
	static const char *kinds[] = {"in",	   "out",     "param", "dim",
				      "workspace", "regions", "stride"};
	char kind[16], type[16], shape[16] = "";
	if (!json_is_object(j))
		return diag_at(d, file, (Loc){0}, "manifest: each param must be an object");
	if (get_str(p->name, sizeof p->name, j, "name", file, d) ||
	    get_str(kind, sizeof kind, j, "kind", file, d))
		return -1;
	int k = 0;
	while (k < 7 && strcmp(kind, kinds[k]))
		k++;
	if (k == 7)
		return diag_at(d, file, (Loc){0}, "manifest: param '%s' has unknown kind '%s'",
			       p->name, kind);
	p->kind = (MKind)k;
	p->align = 16; /* versions 1 and 2: every array 16-byte aligned ("array_align") */
	json_t *align = json_object_get(j, "align");
	if (align) {
		json_int_t a = json_integer_value(align);
		if (!json_is_integer(align) || a < 1 || a > 256 || (a & (a - 1)))
			return diag_at(d, file, (Loc){0},
				       "manifest: param '%s': \"align\" must be a power of two "
				       "from 1 to 256",
				       p->name);
		p->align = (int)a;
	}
	if (p->kind == MP_STRIDE && (get_str(p->of, sizeof p->of, j, "of", file, d) ||
				     get_str(type, sizeof type, j, "type", file, d)))
		return -1;
	if (p->kind == MP_STRIDE) {
		if (strcmp(type, "i64"))
			return diag_at(d, file, (Loc){0}, "manifest: stride '%s' must be i64",
				       p->name);
		p->type = TY_I64;
		p->shape = SH_SCALAR;
		return 0;
	}
	if (p->kind == MP_WORKSPACE || p->kind == MP_REGIONS) {
		p->type = TY_I8;
		p->shape = SH_SCALAR;
		return get_int(&p->bytes, j, "bytes", file, d);
	}
	if (get_str(type, sizeof type, j, "type", file, d))
		return -1;
	if (type_parse(type, &p->type) || p->type == TY_T)
		return diag_at(d, file, (Loc){0}, "manifest: param '%s' has unknown type '%s'",
			       p->name, type);
	json_t *sh = json_object_get(j, "shape");
	if (sh && get_str(shape, sizeof shape, j, "shape", file, d))
		return -1;
	if (parse_shape(&p->shape, shape))
		return diag_at(d, file, (Loc){0}, "manifest: param '%s' has unknown shape '%s'",
			       p->name, shape);
	if (p->kind == MP_PARAM) {
		json_t *def = json_object_get(j, "default");
		if (json_is_number(def))
			p->def = json_number_value(def);
		else if (!json_is_string(def) || inf_parse(json_string_value(def), &p->def))
			return diag_at(d, file, (Loc){0},
				       "manifest: param '%s' needs a numeric default (or \"inf\", "
				       "\"-inf\")",
				       p->name);
	}
	if ((p->kind == MP_IN || p->kind == MP_OUT) && p->shape == SH_SCALAR)
		return diag_at(d, file, (Loc){0}, "manifest: array '%s' has no shape", p->name);
	return 0;
}

/* A launch dimension: the number (version 2), or "<axis>_value" where version 1's axis is a
 * formula of M. */
static int
get_dim(unsigned *v, json_t *o, const char *obj, const char *axis, const char *file, Diag *d)
{
	char key[16];
	snprintf(key, sizeof key, "%s_value", axis);
	json_t *j = o ? json_object_get(o, key) : NULL;
	if (!j && o)
		j = json_object_get(o, axis);
	if (!j)
		*v = 1;
	else if (json_is_integer(j) && json_integer_value(j) >= 1 &&
		 json_integer_value(j) <= 0x7fffffff)
		*v = (unsigned)json_integer_value(j);
	else
		return diag_at(d, file, (Loc){0}, "manifest: %s.%s must be a positive integer", obj,
			       axis);
	return 0;
}

int
manifest_parse(Manifest *m, const char *file, const char *text, Diag *d)
{
	json_error_t err;
	json_t *root = json_loads(text, 0, &err);
	if (!root)
		return diag_at(d, file, (Loc){err.line, err.column}, "%s", err.text);
	memset(m, 0, sizeof *m);
	int rc = -1;
	char dtype[16];
	json_t *params = json_object_get(root, "params");
	json_t *grid = json_object_get(root, "grid"), *block = json_object_get(root, "block");
	json_t *cfg = json_object_get(root, "config");
	json_t *smem = json_object_get(root, "dynamic_smem");
	if (!json_is_object(root)) {
		diag_at(d, file, (Loc){0}, "manifest: not a JSON object");
		goto out;
	}
	json_t *ver = json_object_get(root, "manifest_version");
	if (ver && (!json_is_integer(ver) || json_integer_value(ver) < 1 ||
		    json_integer_value(ver) > MANIFEST_VERSION)) {
		char *v = json_dumps(ver, JSON_ENCODE_ANY);
		diag_at(d, file, (Loc){0},
			"manifest: \"manifest_version\" %s is not one this rkc reads (1 to %d)",
			v ? v : "?", MANIFEST_VERSION);
		free(v);
		goto out;
	}
	m->version = ver ? (int)json_integer_value(ver) : 1;
	if (get_str(m->kernel, sizeof m->kernel, root, "kernel", file, d) ||
	    get_str(m->entry, sizeof m->entry, root, "entry", file, d) ||
	    get_str(m->arch, sizeof m->arch, root, "arch", file, d) ||
	    get_str(dtype, sizeof dtype, root, "dtype", file, d) ||
	    get_int(&m->M, root, "M", file, d) || get_int(&m->N, root, "N", file, d))
		goto out;
	if (json_object_get(root, "policy") &&
	    get_str(m->policy, sizeof m->policy, root, "policy", file, d))
		goto out;
	if (type_parse(dtype, &m->dtype) || !type_is_float(m->dtype) || m->dtype == TY_T) {
		diag_at(d, file, (Loc){0}, "manifest: unknown dtype '%s'", dtype);
		goto out;
	}
	if (m->M < 1 || m->N < 1) {
		diag_at(d, file, (Loc){0}, "manifest: M and N must be positive");
		goto out;
	}
	if (!json_is_array(params) || json_array_size(params) > MAX_MPARAMS) {
		diag_at(d, file, (Loc){0}, "manifest: \"params\" must be an array of at most %d",
			MAX_MPARAMS);
		goto out;
	}
	for (size_t i = 0; i < json_array_size(params); i++)
		if (parse_param(&m->params[m->nparams++], json_array_get(params, i), file, d))
			goto out;
	if (!json_is_object(grid) || !json_is_object(block)) {
		diag_at(d, file, (Loc){0}, "manifest: \"grid\" and \"block\" must be objects");
		goto out;
	}
	json_t *cluster = json_object_get(root, "cluster");
	if (cluster && !json_is_object(cluster)) {
		diag_at(d, file, (Loc){0}, "manifest: \"cluster\" must be an object");
		goto out;
	}
	static const char *axes[] = {"x", "y", "z"};
	for (int a = 0; a < 3; a++)
		if (get_dim(&m->grid[a], grid, "grid", axes[a], file, d) ||
		    get_dim(&m->block[a], block, "block", axes[a], file, d) ||
		    get_dim(&m->cluster[a], cluster, "cluster", axes[a], file, d))
			goto out;
	for (int a = 0; a < 3; a++)
		if (m->grid[a] % m->cluster[a]) {
			diag_at(d, file, (Loc){0},
				"manifest: grid.%s (%u) must be a multiple of cluster.%s (%u)",
				axes[a], m->grid[a], axes[a], m->cluster[a]);
			goto out;
		}
	json_t *coop = json_object_get(root, "cooperative");
	if (coop && !json_is_boolean(coop)) {
		diag_at(d, file, (Loc){0}, "manifest: \"cooperative\" must be true or false");
		goto out;
	}
	m->cooperative = json_is_true(coop); /* with a cluster too: a grid of clusters */
	if (smem && (!json_is_integer(smem) || json_integer_value(smem) < 0)) {
		diag_at(d, file, (Loc){0},
			"manifest: \"dynamic_smem\" must be a non-negative integer");
		goto out;
	}
	m->dynamic_smem = (unsigned)json_integer_value(smem);
	m->stride_mod = 1;
	for (int i = 0; i < m->nparams; i++)
		m->strides |= m->params[i].kind == MP_STRIDE;
	json_t *rule = json_object_get(root, "stride_rule");
	if (rule || m->strides) {
		int64_t mod = 0, res = -1;
		if (!json_is_object(rule) || get_int(&mod, rule, "modulus", file, d) ||
		    get_int(&res, rule, "residue", file, d) || mod < 1 || res != m->N % mod) {
			if (!d->set)
				diag_at(d, file, (Loc){0},
					"manifest: \"stride_rule\" must be {\"modulus\": m, "
					"\"residue\": N %% m}");
			goto out;
		}
		m->stride_mod = mod;
		m->stride_res = res;
	}
	json_t *regions = json_object_get(root, "regions");
	if (regions && regions_parse(&m->regions, regions, file, d))
		goto out;
	if (cfg) {
		char *s = json_dumps(cfg, JSON_COMPACT | JSON_PRESERVE_ORDER);
		snprintf(m->config, sizeof m->config, "%s", s ? s : "");
		free(s);
	}
	rc = 0;
out:
	json_decref(root);
	return rc;
}

int
manifest_match(const Manifest *m, const Kernel *k, Diag *d)
{
	if (strcmp(m->kernel, k->name))
		return diag(d, "manifest is for kernel '%s', not '%s'", m->kernel, k->name);
	int seen = 0;
	for (int i = 0; i < m->nparams; i++) {
		const MParam *mp = &m->params[i];
		if (mp->kind == MP_DIM) {
			if (strcmp(mp->name, "M") && strcmp(mp->name, "N"))
				return diag(d, "manifest: unknown dim '%s' (M or N)", mp->name);
			if (mp->type != TY_I64 && mp->type != TY_I32)
				return diag(d, "manifest: dim '%s' must be i64 or i32", mp->name);
			continue;
		}
		if (mp->kind == MP_WORKSPACE || mp->kind == MP_REGIONS)
			continue;
		if (mp->kind == MP_STRIDE) {
			int a = kernel_param(k, mp->of);
			if (a < 0 || k->params[a].kind == P_PARAM || k->params[a].shape != SH_TILE)
				return diag(d,
					    "manifest: stride '%s' is of '%s', not an [M,N] array "
					    "of kernel '%s'",
					    mp->name, mp->of, k->name);
			continue;
		}
		int p = kernel_param(k, mp->name);
		if (p < 0)
			return diag(d, "manifest: '%s' is not a param of kernel '%s'", mp->name,
				    k->name);
		const Param *kp = &k->params[p];
		if ((int)kp->kind != (int)mp->kind || kp->shape != mp->shape ||
		    type_resolve(kp->type, m->dtype) != mp->type)
			return diag(
			    d, "manifest: param '%s' is %s %s%s, the kernel says %s %s%s", mp->name,
			    mp->kind == MP_IN	 ? "in"
			    : mp->kind == MP_OUT ? "out"
						 : "param",
			    type_name(mp->type), shape_name(mp->shape),
			    kp->kind == P_IN	? "in"
			    : kp->kind == P_OUT ? "out"
						: "param",
			    type_name(type_resolve(kp->type, m->dtype)), shape_name(kp->shape));
		seen++;
	}
	if (seen != k->nparams)
		return diag(d, "manifest: lists %d of the kernel's %d params", seen, k->nparams);
	/* with row strides, one for each [M,N] array */
	for (int p = 0; m->strides && p < k->nparams; p++) {
		int n = 0;
		for (int i = 0; i < m->nparams; i++)
			n += m->params[i].kind == MP_STRIDE &&
			     !strcmp(m->params[i].of, k->params[p].name);
		if (n != (k->params[p].kind != P_PARAM && k->params[p].shape == SH_TILE))
			return diag(d, "manifest: %d row strides for %s '%s'", n,
				    shape_name(k->params[p].shape), k->params[p].name);
	}
	return 0;
}

int
manifest_stride_check(const Manifest *m, const char *array, int64_t stride, Diag *d)
{
	if (stride == m->N)
		return 0;
	if (!m->strides)
		return diag(d,
			    "'%s': rows %lld elements apart, but this manifest (version %d) has no "
			    "row strides: rows are N=%lld apart",
			    array, (long long)stride, m->version, (long long)m->N);
	if (stride < m->N || stride % m->stride_mod != m->stride_res)
		return diag(d,
			    "'%s': row stride %lld breaks the manifest's stride rule: at least "
			    "N=%lld and stride %% %lld == %lld (N plus a multiple of %lld)",
			    array, (long long)stride, (long long)m->N, (long long)m->stride_mod,
			    (long long)m->stride_res, (long long)m->stride_mod);
	return 0;
}
