/* The launch manifest: everything a caller needs to launch the PTX, as deterministic JSON. */
#include <stdlib.h>

#include "codegen/codegen.h"

static void
jstr(Buf *b, const char *s)
{
	buf_puts(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			buf_printf(b, "\\%c", ch);
		else if (ch == '\n')
			buf_puts(b, "\\n");
		else if (ch < 0x20)
			buf_printf(b, "\\u%04x", ch);
		else
			buf_printf(b, "%c", ch);
	}
	buf_puts(b, "\"");
}

static const char *const kinds[] = {"in", "out", "param"};

/* The name of array's row stride parameter: "x.stride" (a '.' no kernel's name holds). */
static void
stride_name(Buf *b, const char *array)
{
	Buf n = {0};
	buf_printf(&n, "%s.stride", array);
	jstr(b, n.s);
	buf_free(&n);
}

uint64_t
codegen_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

/* The launch grid as data: x at the compile's M, and the pieces x is made of for any M (and
 * "cap", a persistent grid's CTAs, when there is one). */
static void
grid(Buf *b, const Launch *l)
{
	buf_printf(b,
		   "  \"grid\": {\"x\": %lld, \"y\": 1, \"z\": 1, \"rows_per_cta\": %d, "
		   "\"segments\": %d, \"formula\": \"",
		   (long long)l->grid_x, l->rows_per_cta, l->segments);
	if (l->columns) { /* the config's grid at any M */
		buf_printf(b, "%lld\", \"cap\": %lld, \"columns\": true},\n",
			   (long long)l->grid_cap, (long long)l->grid_cap);
		return;
	}
	if (l->grid_cap)
		buf_puts(b, "min(");
	if (l->rows_per_cta == 1)
		buf_puts(b, "M");
	else
		buf_printf(b, "cdiv(M,%d)", l->rows_per_cta);
	if (l->segments > 1)
		buf_printf(b, "*%d", l->segments);
	if (l->grid_cap)
		buf_printf(b, ",%lld)\", \"cap\": %lld}", (long long)l->grid_cap,
			   (long long)l->grid_cap);
	else
		buf_puts(b, "\"}");
	buf_puts(b, ",\n");
}

/* The workspace: its size as regions of a formula of M, and the rule for zeroing it. */
static void
workspace(Buf *b, const Launch *l)
{
	if (!l->nws) {
		buf_puts(b, "  \"workspace\": null");
		return;
	}
	buf_printf(b, "  \"workspace\": {\"bytes\": %lld, \"init\": \"zero_once\", \"regions\": [",
		   (long long)l->workspace_bytes);
	for (int i = 0; i < l->nws; i++)
		buf_printf(b,
			   "%s\n    {\"name\": \"%s\", \"per_row\": %lld, \"fixed\": %lld, "
			   "\"align\": %d}",
			   i ? "," : "", l->ws[i].name, (long long)l->ws[i].per_row,
			   (long long)l->ws[i].fixed, l->ws[i].align);
	buf_puts(b, "\n  ]}");
}

void
codegen_manifest(Buf *b, const Kernel *k, const Compile *c, const char *policy, int batch_invariant,
		 const char *const *reasons, int nreasons)
{
	const Config *g = &c->cfg;
	Launch l;
	codegen_launch(k, c, &l);
	Regions rs = {.n = 0};
	if (c->regions)
		codegen_regions(k, c, &rs, &(Diag){0});
	Buf text = {0};
	kernel_print(&text, k);
	uint64_t hash = codegen_fnv1a(CODEGEN_FNV_BASIS, text.s, text.len);
	buf_free(&text);
	buf_printf(b, "{\n  \"manifest_version\": %d,\n  \"rkc_version\": \"%s\",\n  \"kernel\": ",
		   CODEGEN_MANIFEST_VERSION, RKC_VERSION);
	jstr(b, k->name);
	buf_printf(b, ",\n  \"kernel_hash\": \"fnv1a64:%016llx\"", (unsigned long long)hash);
	buf_puts(b, ",\n  \"entry\": ");
	jstr(b, k->name);
	buf_puts(b, ",\n  \"arch\": ");
	jstr(b, c->arch);
	buf_printf(b, ",\n  \"ptx_isa\": \"%s\"", codegen_ptx_isa(c->arch));
	buf_printf(b, ",\n  \"dtype\": \"%s\",\n  \"M\": %lld,\n  \"N\": %lld,",
		   type_name(c->dtype), (long long)c->M, (long long)c->N);
	/* M is a launch argument for any M; N as compiled (the smem layout, the misaligned-row
	 * cut and persistent coverage are fixed for it; docs/manifest.md) */
	buf_printf(b,
		   "\n  \"valid\": {\"M\": {\"min\": 1, \"max\": %lld}, \"N\": {\"exact\": %lld}},",
		   (long long)SHAPE_MAX_M, (long long)c->N);
	/* every [M,N] array's row stride is N plus a multiple of this (config_stride_modulus) */
	int mod = config_stride_modulus(g);
	buf_printf(b, "\n  \"stride_rule\": {\"modulus\": %d, \"residue\": %lld},\n  \"policy\": ",
		   mod, (long long)(c->N % mod));
	jstr(b, policy ? policy : "forced");
	buf_printf(b, ",\n  \"batch_invariant\": %s", batch_invariant ? "true" : "false");
	buf_printf(b,
		   ",\n  \"config\": {\"persistent\": %s, \"r_block\": %lld, \"m_block\": %d, "
		   "\"num_warps\": %d, \"vec\": %d, \"split\": %d, \"evict\": %d, "
		   "\"min_ctas\": %d, \"smem\": %d, \"cluster\": %d, \"grid\": %d, "
		   "\"dynamic\": %d, \"ahead\": %d, \"coop\": %d, \"stash\": %d, \"steps\": %d, "
		   "\"colpass\": %d},\n  "
		   "\"passes\": %d,\n  \"reasons\": [",
		   g->persistent ? "true" : "false", (long long)g->r_block, g->m_block,
		   g->num_warps, g->vec, g->split, g->evict, g->min_ctas > 1 ? g->min_ctas : 1,
		   g->smem, g->cluster > 1 ? g->cluster : 1, g->grid, g->dynamic, g->ahead, g->coop,
		   g->stash, g->steps, g->colpass, plan_streams(k->plan, g->persistent));
	for (int i = 0; i < nreasons; i++) {
		buf_puts(b, i ? ",\n    " : "\n    ");
		jstr(b, reasons[i]);
	}
	buf_puts(b, nreasons ? "\n  ],\n  \"params\": [" : "],\n  \"params\": [");
	for (int i = 0; i < k->nparams; i++) {
		const Param *p = &k->params[i];
		buf_puts(b, "\n    {\"name\": ");
		jstr(b, p->name);
		buf_printf(b, ", \"kind\": \"%s\", \"type\": \"%s\", \"shape\": \"%s\"",
			   kinds[p->kind], type_name(type_resolve(p->type, c->dtype)),
			   shape_name(p->shape));
		if (p->kind == P_PARAM) {
			buf_puts(b, ", \"default\": ");
			buf_json_double(b, p->def);
		} else {
			buf_printf(b, ", \"align\": %d", codegen_array_align(k, c, i));
		}
		if (p->kind != P_PARAM && p->shape == SH_TILE) {
			buf_puts(b, ", \"stride_param\": ");
			stride_name(b, p->name);
		}
		buf_puts(b, "},");
	}
	buf_puts(b,
		 "\n    {\"name\": \"M\", \"kind\": \"dim\", \"type\": \"i64\", \"shape\": \"\"},");
	buf_puts(b,
		 "\n    {\"name\": \"N\", \"kind\": \"dim\", \"type\": \"i64\", \"shape\": \"\"}");
	int *tiles = calloc((size_t)k->nparams + 1, sizeof(int));
	int ns = codegen_strides(k, tiles);
	for (int i = 0; i < ns; i++) {
		buf_puts(b, ",\n    {\"name\": ");
		stride_name(b, k->params[tiles[i]].name);
		buf_puts(b, ", \"kind\": \"stride\", \"type\": \"i64\", \"shape\": \"\", \"of\": ");
		jstr(b, k->params[tiles[i]].name);
		buf_puts(b, "}");
	}
	free(tiles);
	if (l.nws)
		buf_printf(b,
			   ",\n    {\"name\": \"workspace\", \"kind\": \"workspace\", \"type\": "
			   "\"i8\", \"shape\": \"\", \"bytes\": %lld}",
			   (long long)l.workspace_bytes);
	if (c->regions)
		regions_manifest_param(b, &rs, &l);
	buf_puts(b, "\n  ],\n");
	grid(b, &l);
	buf_printf(b, "  \"block\": {\"x\": %d, \"y\": 1, \"z\": 1},\n", l.block_x);
	buf_printf(b, "  \"cluster\": {\"x\": %d, \"y\": 1, \"z\": 1},\n", l.cluster_x);
	buf_printf(b, "  \"cooperative\": %s,\n", l.cooperative ? "true" : "false");
	buf_printf(b, "  \"dynamic_smem\": %lld,\n", (long long)l.dynamic_smem);
	workspace(b, &l);
	if (c->regions)
		regions_manifest(b, &rs, &l);
	buf_puts(b, "\n}\n");
}
