/* The compile pipeline: target, facts, choice, forced knobs, validation, PTX, manifest. */
#include <string.h>

#include "driver/rkc.h"

int
rkc_parse_arch(const char *s, Diag *d)
{
	return codegen_arch(s, d);
}

int
rkc_parse_dtype(const char *s, Type *t, Diag *d)
{
	if (s && dtype_parse(s, t) == 0)
		return 0;
	return diag(d, "unsupported dtype '%s' (expected bf16, fp16 or fp32)", s ? s : "");
}

int
rkc_parse_policy(const char *s, Policy *p, Diag *d)
{
	if (s && policy_parse(s, p) == 0)
		return 0;
	return diag(d, "unknown policy '%s' (expected rkc or helion2828)", s ? s : "");
}

/* The arch's target data. An arch codegen emits for but without a target file (sm_86, sm_89) is
 * chosen for with sm_80's, and a note says so. */
static int
stage_target(const Request *rq, Result *r, char *note, size_t cap, Diag *d)
{
	const char *arch = rq->arch ? rq->arch : "sm_90";
	if (rkc_parse_arch(arch, d))
		return -1;
	for (const char *const *n = target_names(); *n; n++)
		if (!strcmp(*n, arch))
			return target_load(arch, &r->target, d);
	snprintf(note, cap, "no target data for %s: chosen with sm_80's", arch);
	return target_load("sm_80", &r->target, d);
}

/* A diagnostic's message without its "error: " (the caller says what kind of error). */
static const char *
bare(const char *msg)
{
	return strncmp(msg, "error: ", 7) ? msg : msg + 7;
}

/* The policy's choice (a copy in own), then the caller's knobs over it. */
static int
stage_choose(const Request *rq, Result *r, Choice *own, char (*notes)[400], int *nnotes, Diag *d)
{
	const Kernel *k = rq->k;
	Choice *ch = &r->choice;
	if (rq->batch_invariant
		? choose_invariant(k, &r->facts, rq->M, rq->N, &r->target, rq->policy, ch, d)
		: choose(k, &r->facts, rq->M, rq->N, &r->target, rq->policy, ch, d))
		return -1;
	*own = *ch;
	if (!rq->forced && !rq->cfg)
		return 0;
	Config g = ch->cfg;
	if (rq->cfg) {
		g = *rq->cfg;
		snprintf(notes[(*nnotes)++], 400, "config given whole over the %s policy's choice",
			 policy_name(rq->policy));
	} else {
		Diag e = {0};
		g.min_ctas = -1;
		if (config_parse(rq->forced, &g, &e))
			return diag(d, "bad --config '%.200s': %s", rq->forced, bare(e.msg));
		int regrid =
		    config_regrid(&g, &ch->cfg, rq->forced, k, &r->facts, rq->M, rq->N, &r->target);
		if (config_settle(&g, k, &r->facts, rq->M, rq->N, &r->target, rq->policy, &e))
			return diag(d, "infeasible --config '%.200s': %s", rq->forced, bare(e.msg));
		snprintf(notes[(*nnotes)++], 400,
			 "--config %.300s forced over the %s policy's choice", rq->forced,
			 policy_name(rq->policy));
		if (regrid)
			snprintf(
			    notes[(*nnotes)++], 400,
			    "grid=%d: the choice's persistent grid of %d resized for the forced "
			    "knobs, one wave (grid=N forces it)",
			    g.grid, ch->cfg.grid);
	}
	if (rq->batch_invariant && !rkc_same_order(&g, &own->cfg)) {
		Buf b = {0};
		config_short(&b, &own->cfg);
		diag(d,
		     "%s changes the row's reduction order, which --batch-invariant fixes (%s: "
		     "persistent, r_block, threads per row, vec, split and cluster as chosen)",
		     rq->cfg ? "the config given" : "--config", b.s);
		buf_free(&b);
		return -1;
	}
	ch->cfg = g;
	cost_model(&r->facts, &g, rq->M, rq->N, &r->target, &ch->cost);
	if (ch->cost.spills)
		snprintf(notes[(*nnotes)++], 400,
			 "warning: predicted %d regs/thread > %d: expect spills", ch->cost.regs,
			 ch->cost.reg_limit);
	return 0;
}

/* The one validator, on the policy's own picks too: a pick codegen cannot emit is a bug of the
 * policy, said as such. */
static int
stage_validate(const Request *rq, Result *r, Diag *d)
{
	const Config *c = &r->choice.cfg;
	Diag e = {0};
	if (config_check_emit(rq->k, rq->dtype, rq->M, rq->N, c, &e) ||
	    config_check_target(rq->k, rq->dtype, rq->N, c, &r->target, &e)) {
		if (rq->forced || rq->cfg)
			return diag(d, "%s", e.msg);
		if (rq->k->plan->ncolsum && rq->policy == POLICY_HELION2828)
			return diag(
			    d, "the helion2828 policy (Helion's seed rules) has no rule for a sum "
			       "over rows (colsum); use --policy rkc");
		if (rq->k->plan->ncolsum)
			return diag(
			    d,
			    "no config of rows of N=%lld (%s, vec %d) with a sum over rows "
			    "(colsum) fits: no persistent row fits a thread's registers, and a "
			    "looped row keeps its %d colsum partial(s), %d x N x 4 = %lld bytes "
			    "or more a CTA, in shared memory up to %d bytes (in the workspace "
			    "past that), where %s gives a CTA %d (docs/codegen.md, \"Sums over "
			    "rows\")",
			    (long long)rq->N, type_name(rq->dtype),
			    config_vec(rq->k, rq->dtype, rq->N), rq->k->plan->ncolsum,
			    rq->k->plan->ncolsum, (long long)rq->k->plan->ncolsum * rq->N * 4,
			    MAX_DYN_SMEM, r->target.arch, r->target.smem_per_cta);
		return diag(d, "internal error: the %s policy chose a config it cannot emit: %s",
			    policy_name(rq->policy), e.msg);
	}
	return 0;
}

/* Notes first. Then the policy's reason for each knob of its choice; over a forced config, which
 * those reasons do not describe, the choice it replaced in one line instead. */
static void
stage_reasons(Choice *ch, const Choice *own, const Request *rq, char (*notes)[400], int nnotes)
{
	Choice policy = *ch;
	ch->nreasons = 0;
	for (int i = 0; i < nnotes; i++)
		choice_reason(ch, "%s", notes[i]);
	if (rq->forced || rq->cfg) {
		Buf b = {0};
		config_short(&b, &own->cfg);
		choice_reason(ch, "the %s policy's own choice, replaced: %s, modelled %.1f us",
			      policy_name(rq->policy), b.s, own->cost.us);
		buf_free(&b);
		return;
	}
	for (int i = 0; i < policy.nreasons; i++)
		choice_reason(ch, "%s", policy.reasons[i]);
}

int
rkc_compile(const Request *rq, Result *r, Diag *d)
{
	char notes[4][400] = {{0}};
	int nnotes = 0;
	memset(r, 0, sizeof *r);
	if (stage_target(rq, r, notes[nnotes], sizeof notes[0], d))
		return -1;
	nnotes += notes[0][0] != 0;
	facts_compute(rq->k, rq->dtype, &r->facts);
	r->plan = rq->k->plan;
	Choice own;
	if (stage_choose(rq, r, &own, notes, &nnotes, d) || stage_validate(rq, r, d))
		return -1;
	stage_reasons(&r->choice, &own, rq, notes, nnotes);
	r->passes = plan_streams(r->plan, r->choice.cfg.persistent);
	r->compile = (Compile){rq->arch ? rq->arch : "sm_90",
			       rq->dtype,
			       rq->M,
			       rq->N,
			       r->choice.cfg,
			       rq->regions,
			       rq->regions_every};
	if (!rq->emit)
		return 0;
	if (codegen_ptx(rq->k, &r->compile, &r->ptx, NULL, d))
		return -1;
	const char *reasons[MAX_REASONS];
	for (int i = 0; i < r->choice.nreasons; i++)
		reasons[i] = r->choice.reasons[i];
	codegen_manifest(&r->manifest, rq->k, &r->compile, policy_name(rq->policy),
			 rq->batch_invariant, reasons, r->choice.nreasons);
	return 0;
}

void
rkc_result_free(Result *r)
{
	buf_free(&r->ptx);
	buf_free(&r->manifest);
}
