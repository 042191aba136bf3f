/* The launch manifest: everything a caller needs to launch the PTX, as deterministic JSON. */
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
	buf_puts(b, "{\n  \"kernel\": ");
	jstr(b, k->name);
	buf_puts(b, ",\n  \"entry\": ");
	jstr(b, k->name);
	buf_puts(b, ",\n  \"arch\": ");
	jstr(b, c->arch);
	buf_printf(b, ",\n  \"dtype\": \"%s\",\n  \"M\": %lld,\n  \"N\": %lld,\n  \"policy\": ",
		   type_name(c->dtype), (long long)c->M, (long long)c->N);
	jstr(b, policy ? policy : "forced");
	buf_printf(b, ",\n  \"batch_invariant\": %s", batch_invariant ? "true" : "false");
	buf_printf(b,
		   ",\n  \"config\": {\"persistent\": %s, \"r_block\": %lld, \"m_block\": %d, "
		   "\"num_warps\": %d, \"vec\": %d, \"split\": %d, \"evict\": %d, "
		   "\"min_ctas\": %d, \"smem\": %d, \"cluster\": %d, \"grid\": %d, "
		   "\"dynamic\": %d, \"ahead\": %d},\n  \"passes\": %d,\n  \"reasons\": [",
		   g->persistent ? "true" : "false", (long long)g->r_block, g->m_block,
		   g->num_warps, g->vec, g->split, g->evict, g->min_ctas > 1 ? g->min_ctas : 1,
		   g->smem, l.cluster_x, g->grid, g->dynamic, g->ahead,
		   plan_streams(k->plan, g->persistent));
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
		}
		buf_puts(b, "},");
	}
	buf_puts(b,
		 "\n    {\"name\": \"M\", \"kind\": \"dim\", \"type\": \"i64\", \"shape\": \"\"},");
	buf_puts(b,
		 "\n    {\"name\": \"N\", \"kind\": \"dim\", \"type\": \"i64\", \"shape\": \"\"}");
	if (l.workspace_bytes > 0)
		buf_printf(b,
			   ",\n    {\"name\": \"workspace\", \"kind\": \"workspace\", \"type\": "
			   "\"i8\", \"shape\": \"\", \"bytes\": %lld}",
			   (long long)l.workspace_bytes);
	if (c->regions)
		regions_manifest_param(b, &rs, l.grid_x);
	buf_puts(b, "\n  ],\n  \"grid\": {\"x\": \"");
	if (g->grid > 0)
		buf_puts(b, "min(");
	if (g->m_block == 1)
		buf_puts(b, "M");
	else
		buf_printf(b, "cdiv(M,%d)", g->m_block);
	if (config_segments(g) > 1)
		buf_printf(b, "*%d", config_segments(g));
	if (g->grid > 0)
		buf_printf(b, ",%d)", g->grid);
	buf_printf(b, "\", \"x_value\": %lld, \"y\": 1, \"z\": 1},\n", (long long)l.grid_x);
	buf_printf(b, "  \"block\": {\"x\": %d, \"y\": 1, \"z\": 1},\n", l.block_x);
	buf_printf(b, "  \"cluster\": {\"x\": %d, \"y\": 1, \"z\": 1},\n", l.cluster_x);
	buf_printf(b, "  \"dynamic_smem\": %lld", (long long)l.dynamic_smem);
	if (c->regions)
		regions_manifest(b, &rs, l.grid_x);
	buf_puts(b, "\n}\n");
}
