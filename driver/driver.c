/* The compile pipeline: target, facts, choice, forced knobs, validation, spill guard, PTX. */
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
stage_choose(const Request *rq, Result *r, Choice *own, char (*notes)[REASON_LEN], int *nnotes,
	     Diag *d)
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
		snprintf(notes[(*nnotes)++], sizeof *notes,
			 "config given whole over the %s policy's choice", policy_name(rq->policy));
	} else {
		Diag e = {0};
		Forced mv;
		int rc = config_force(&g, rq->forced, k, &r->facts, rq->M, rq->N, &r->target,
				      rq->policy, &mv, &e);
		if (rc == -2)
			return diag(d, "bad --config '%.200s': %s", rq->forced, bare(e.msg));
		if (rc)
			return diag(d, "infeasible --config '%.200s': %s", rq->forced, bare(e.msg));
		snprintf(notes[(*nnotes)++], sizeof *notes,
			 "--config %.300s forced over the %s policy's choice", rq->forced,
			 policy_name(rq->policy));
		if (mv.restep)
			snprintf(
			    notes[(*nnotes)++], sizeof *notes,
			    "r_block=%lld: the choice's %lld is not whole steps of %d threads a "
			    "row x vec %d, rounded up (r_block=N forces it)",
			    (long long)g.r_block, (long long)mv.restep, config_tpr(&g), g.vec);
		if (mv.regrid)
			snprintf(
			    notes[(*nnotes)++], sizeof *notes,
			    "grid=%d: the choice's persistent grid of %d resized for the forced "
			    "knobs, one wave (grid=N forces it)",
			    g.grid, mv.regrid);
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
		snprintf(notes[(*nnotes)++], sizeof *notes,
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
stage_reasons(Choice *ch, const Choice *own, const Request *rq, char (*notes)[REASON_LEN],
	      int nnotes)
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

/*
 * The spill guard. The register model is low at some kernels no suite holds (docs/regmodel.md,
 * "Where the picks spill"), and there min_ctas caps ptxas under what the thread needs: it
 * spills. So the policy's pick of a persistent row is assembled (where ptxas is found), and
 * while ptxas spills SPILL_GUARD bytes or more a thread, min_ctas goes one lower (a persistent
 * grid of SMs x min_ctas CTAs with it, so the grid stays resident) and it is assembled again,
 * down to one CTA an SM. Measured on an H200 at the 29 spilling picks of the held-out and golden
 * points whose count could be lowered (bench/results/h200-2026-12-04-spill-relax.md): where
 * ptxas spilled 32 bytes or more the lower count ran 0.907x the time by geomean over 10 points
 * (quant_err_cols fp32 0.685x, logcosh 0.780x, swiglu_bwd 0.835x; one slower, cov_corr fp32
 * 1.177x); where it spilled 4-16 bytes, 1.048x over 17 (scaled_masked_softmax 1.447x at 4
 * bytes): a few bytes stay in L1, a lost CTA an SM costs more. Persistent rows only: the looped
 * picks over 32 bytes gained nothing (softmax bf16 512x152064 0.99x, cov_corr 1.17x), a chunk's
 * spills stored and reloaded within its trip. The guard's build ran 0.807x at the 16 persistent
 * points it moves, none slower. A forced config, a grid sized otherwise (clusters, the column
 * pass) and a ptxas that fails are left as they are.
 */
enum { SPILL_GUARD = 32 };

/* ptxas's spill stores and registers for config c (regions off: the production kernel); its PTX
 * into *ptx, which rkc_compile then emits. -1 where codegen or ptxas fails. */
static int
guard_assemble(const Request *rq, const Result *r, const Config *c, Buf *ptx, PtxasFunc *pf)
{
	Compile cc = r->compile;
	cc.cfg = *c;
	cc.regions = 0;
	Diag e = {0};
	Buf log = {0};
	buf_free(ptx);
	int bad = codegen_ptx(rq->k, &cc, ptx, NULL, &e) || ptxas_run(ptx->s, cc.arch, &log, &e) ||
		  ptxas_parse(log.s ? log.s : "", pf, 1) < 1;
	buf_free(&log);
	return bad ? -1 : 0;
}

static void
stage_spill_guard(const Request *rq, Result *r)
{
	Config c = r->choice.cfg;
	int sms = r->target.sms,
	    grid_own = c.grid == sms * c.min_ctas && c.cluster == 1 && !c.colpass;
	if (!rq->guard || rq->forced || rq->cfg || !c.persistent || c.min_ctas <= 1 ||
	    (c.grid && !grid_own) || !ptxas_path())
		return;
	Buf ptx = {0};
	PtxasFunc pf, first;
	if (guard_assemble(rq, r, &c, &ptx, &first)) {
		buf_free(&ptx);
		return;
	}
	pf = first;
	while (pf.spill_stores >= SPILL_GUARD && c.min_ctas > 1) {
		Config g = c;
		g.min_ctas--;
		g.grid = c.grid ? sms * g.min_ctas : 0;
		Buf next = {0};
		PtxasFunc pg;
		if (config_check_emit(rq->k, rq->dtype, rq->M, rq->N, &g, NULL) ||
		    config_check_target(rq->k, rq->dtype, rq->N, &g, &r->target, NULL) ||
		    guard_assemble(rq, r, &g, &next, &pg)) {
			buf_free(&next);
			break;
		}
		buf_free(&ptx);
		ptx = next;
		pf = pg;
		c = g;
	}
	if (c.min_ctas != r->choice.cfg.min_ctas) {
		choice_reason(
		    &r->choice,
		    "min_ctas=%d%s (the spill guard, over min_ctas=%d above): ptxas spilled "
		    "%ld bytes a thread at %d registers, %d or more: at %d CTA(s) an SM it "
		    "takes %d registers and spills %ld",
		    c.min_ctas, c.grid ? " grid=SMs x min_ctas" : "", r->choice.cfg.min_ctas,
		    first.spill_stores, first.regs, SPILL_GUARD, c.min_ctas, pf.regs,
		    pf.spill_stores);
		r->choice.cfg = c;
		r->compile.cfg = c;
		cost_model(&r->facts, &c, rq->M, rq->N, &r->target, &r->choice.cost);
	}
	if (rq->emit && !rq->regions) /* the kernel the guard settled on: not compiled again */
		r->ptx = ptx;
	else
		buf_free(&ptx);
}

int
rkc_compile(const Request *rq, Result *r, Diag *d)
{
	char notes[6][REASON_LEN] = {{0}}; /* the target, forced, restep, regrid, spills */
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
	stage_spill_guard(rq, r);
	if (!rq->emit)
		return 0;
	if (!r->ptx.s && codegen_ptx(rq->k, &r->compile, &r->ptx, NULL, d))
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
