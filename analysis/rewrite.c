/* Algebraic rewrites before the plan: 1 ± tanh, 1 - tanh^2 as sigmoids; pow by 2, 3 as products. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/*
 * GELU's tanh form, 0.5 g (1 + tanh(k)), is the common use of tanh, and 1 + tanh(k) is exactly
 * 2 sigmoid(2k). Codegen makes tanh from both of its branches (a polynomial under |x| = 0.5 and
 * the exponential form above, docs/ir.md), about 18 instructions an element, where sigmoid is an
 * exponential, an add and a reciprocal: gelu_tanh_gated bf16 4096x16384 went from 2512 to 1496
 * SASS instructions a thread. The sigmoid is also the more accurate of the two where tanh(k) is
 * near -1 (k under about -4): 1 + tanh(k) cancels there, the sigmoid does not. Only where the
 * tanh has no other use, so that it is not made as well.
 *
 *     %t = tanh %k            %t.x2 = mul %k, 2        (-2 for 1 - tanh)
 *                      ->     %t.s  = sigmoid %t.x2    (new names, unused in the kernel)
 *     %r = add %t, 1          %r    = mul %t.s, 2
 *
 * The new statement takes the place after the tanh in the source order too (Instr.src, which
 * order_stores has set), so Helion's live-tile count walks the same program. Where k is a
 * product with a literal used by the tanh alone (GELU's `mul %gc, 0.7978845608028654`), the 2
 * goes into the literal instead and no statement is added:
 *
 *     %k = mul %x, c          %k.x2 = mul %x, 2c
 *     %t = tanh %k     ->     %t.s  = sigmoid %k.x2
 *     %r = add %t, 1          %r    = mul %t.s, 2
 *
 * the same f32 values (a product scaled by 2 rounds as it would unscaled) but where x c is under
 * 2^-126 and flushes, one multiply an element fewer: gelu_tanh_gated bf16 4095x21504 ran 158.7
 * µs with it, 150.3 without, 178.0 with the tanh (bench/results/h200-2026-11-30-rewrites.md).
 * GELU's halving then cancels the doubling (cancel_half).
 */

/* The sign of t in in, when in is t + 1, 1 + t or 1 - t; else 0. */
static int
one_plus(const Instr *in, int t)
{
	const Arg *a = in->args;
	int v0 = argval(in, 0) == t, v1 = in->nargs > 1 && argval(in, 1) == t;
	if (in->op == OP_ADD && v0 && a[1].kind == ARG_IMM && a[1].imm == 1)
		return 1;
	if (in->op == OP_ADD && v1 && a[0].kind == ARG_IMM && a[0].imm == 1)
		return 1;
	if (in->op == OP_SUB && v1 && a[0].kind == ARG_IMM && a[0].imm == 1)
		return -1;
	return 0;
}

/* A name for a new value: base + suffix, with a number after it while some value has it. */
static const char *
fresh_name(const Kernel *k, const char *base, const char *suffix)
{
	char buf[256];
	for (int n = 0;; n++) {
		if (n == 0)
			snprintf(buf, sizeof buf, "%.200s%s", base, suffix);
		else
			snprintf(buf, sizeof buf, "%.200s%s%d", base, suffix, n);
		int used = 0;
		for (int v = 0; v < k->nvals && !used; v++)
			used = strcmp(k->vals[v].name, buf) == 0;
		if (!used)
			return arena_strdup(k->arena, buf);
	}
}

static Arg
imm(double v, Loc loc)
{
	return (Arg){ARG_IMM, -1, v, loc};
}

static Arg
val(int v, Loc loc)
{
	return (Arg){ARG_VAL, v, 0, loc};
}

/* A new f32 value named name, of shape sh; its definition is set by fix_defs. */
static int
new_value(Kernel *k, const char *name, Shape sh)
{
	Value *vals = arena_alloc(k->arena, sizeof(Value) * (size_t)(k->nvals + 1));
	memcpy(vals, k->vals, sizeof(Value) * (size_t)k->nvals);
	vals[k->nvals] = (Value){name, TY_F32, sh, -1};
	k->vals = vals;
	return k->nvals++;
}

/* A new statement right after ins[i], in the source order too (Instr.src): the caller fills it. */
static Instr *
insert_after(Kernel *k, int i)
{
	int n = k->nins, src = k->ins[i].src;
	Instr *ins = arena_alloc(k->arena, sizeof(Instr) * (size_t)(n + 1));
	memcpy(ins, k->ins, sizeof(Instr) * (size_t)(i + 1));
	memcpy(ins + i + 2, k->ins + i + 1, sizeof(Instr) * (size_t)(n - i - 1));
	for (int x = 0; x < n + 1; x++)
		if (x != i + 1 && ins[x].src > src)
			ins[x].src++;
	ins[i + 1] = (Instr){.param = -1, .loc = ins[i].loc, .src = src + 1};
	k->ins = ins;
	k->nins = n + 1;
	return &ins[i + 1];
}

static void
fix_defs(Kernel *k)
{
	for (int x = 0; x < k->nins; x++)
		for (int o = 0; o < k->ins[x].nres; o++)
			if (k->ins[x].res[o] >= 0)
				k->vals[k->ins[x].res[o]].def = x;
}

/* in becomes op on a and b, its one result kept. */
static void
make(Instr *in, Op op, Arg a, Arg b)
{
	in->op = op;
	in->nargs = 2;
	in->args[0] = a;
	in->args[1] = b;
}

/* The uses of value v, from ins[from] on; *last the last user. */
static int
uses_from(const Kernel *k, int v, int from, int *last)
{
	int uses = 0;
	for (int x = from; x < k->nins; x++)
		for (int a = 0; a < k->ins[x].nargs; a++)
			if (argval(&k->ins[x], a) == v) {
				uses++;
				*last = x;
			}
	return uses;
}

/* The literal operand of a multiply, or -1. */
static int
mul_literal(const Instr *in)
{
	if (in->op != OP_MUL)
		return -1;
	return in->args[1].kind == ARG_IMM ? 1 : in->args[0].kind == ARG_IMM ? 0 : -1;
}

/*
 * The tanh at ins[i] becomes sigmoid(2 sign k), its value renamed: in place, the 2 going into k's
 * literal, where k is a product with a literal used by the tanh alone; else the tanh becomes the
 * doubling (`%t.x2 = mul %k, 2 sign`) and a new statement after it the sigmoid, of a new value.
 * Returns the sigmoid's statement.
 */
static int
to_sigmoid(Kernel *k, int i, int sign)
{
	Instr *th = &k->ins[i];
	int t = th->res[0], kv = argval(th, 0), d = kv >= 0 ? k->vals[kv].def : -1, last = -1;
	Loc loc = th->loc;
	if (d >= 0 && mul_literal(&k->ins[d]) >= 0 && uses_from(k, kv, d + 1, &last) == 1) {
		k->ins[d].args[mul_literal(&k->ins[d])].imm *= 2.0 * sign;
		k->vals[kv].name = fresh_name(k, k->vals[kv].name, ".x2");
		k->vals[t].name = fresh_name(k, k->vals[t].name, ".s");
		th->op = OP_SIGMOID;
		return i;
	}
	int s = new_value(k, fresh_name(k, k->vals[t].name, ".s"), k->vals[t].shape);
	k->vals[t].name = fresh_name(k, k->vals[t].name, ".x2");
	Instr *sg = insert_after(k, i);
	sg->op = OP_SIGMOID;
	sg->nres = 1;
	sg->res[0] = s;
	sg->nargs = 1;
	sg->args[0] = val(t, loc);
	make(&k->ins[i], OP_MUL, k->ins[i].args[0], imm(2.0 * sign, loc));
	fix_defs(k);
	return i + 1;
}

/* Removes the statements marked dead and the values only they made; the rest keep their order and
 * their ranks in the source order (Instr.src, renumbered to stay a permutation). */
static void
compact(Kernel *k, const char *dead)
{
	int *vmap = malloc(sizeof(int) * (size_t)(k->nvals + 1)), nv = 0, ni = 0;
	char *made = calloc((size_t)k->nvals + 1, 1);
	for (int i = 0; i < k->nins; i++)
		for (int o = 0; !dead[i] && o < k->ins[i].nres; o++)
			if (k->ins[i].res[o] >= 0)
				made[k->ins[i].res[o]] = 1;
	for (int v = 0; v < k->nvals; v++) {
		vmap[v] = made[v] ? nv : -1;
		if (made[v])
			k->vals[nv++] = k->vals[v];
	}
	int *rank = calloc((size_t)k->nins + 1, sizeof(int));
	for (int i = 0; i < k->nins; i++)
		for (int x = 0; x < k->nins; x++)
			rank[i] += !dead[x] && k->ins[x].src < k->ins[i].src;
	for (int i = 0; i < k->nins; i++) {
		if (dead[i])
			continue;
		Instr in = k->ins[i];
		in.src = rank[i];
		for (int o = 0; o < in.nres; o++)
			if (in.res[o] >= 0)
				in.res[o] = vmap[in.res[o]];
		for (int a = 0; a < in.nargs; a++)
			if (in.args[a].kind == ARG_VAL)
				in.args[a].idx = vmap[in.args[a].idx];
		k->ins[ni++] = in;
	}
	k->nins = ni;
	k->nvals = nv;
	fix_defs(k);
	free(vmap);
	free(made);
	free(rank);
}

/*
 * Where the doubling at ins[j] (`%r = mul %s, 2`, s the sigmoid) is used once, by a product with
 * a halving used there alone, the two cancel, as GELU writes them (0.5 g (1 + tanh k)):
 *
 *     %hg = mul %g, 0.5
 *     %r  = mul %s, 2          ->     %ge = mul %g, %s
 *     %ge = mul %hg, %r
 *
 * The same f32 value but where g/2 is under 2^-126, which the product flushes to 0: two
 * multiplies an element fewer (gelu_tanh_gated bf16 4095x21504: 150.3 µs with them, 144.3
 * without, bench/results/h200-2026-11-30-rewrites.md). Where the doubling is halved itself
 * (`%h = mul %r, 0.5`, GELU written 0.5 (1 + tanh k) g), h's users read s: exactly (s <= 1).
 */
static int
cancel_half(Kernel *k, int j)
{
	int r = k->ins[j].res[0], s = argval(&k->ins[j], 0), u = -1, last = -1;
	if (uses_from(k, r, j + 1, &u) != 1 || k->ins[u].op != OP_MUL)
		return 0;
	Instr *in = &k->ins[u];
	int c = argval(in, 0) == r, h = argval(in, c), d = h >= 0 ? k->vals[h].def : -1;
	char *dead = calloc((size_t)k->nins + 1, 1);
	if (in->args[c].kind == ARG_IMM && in->args[c].imm == 0.5) {
		for (int x = u + 1; x < k->nins; x++)
			for (int a = 0; a < k->ins[x].nargs; a++)
				if (argval(&k->ins[x], a) == in->res[0])
					k->ins[x].args[a] = val(s, k->ins[x].args[a].loc);
		dead[j] = dead[u] = 1;
		compact(k, dead);
		free(dead);
		return 1;
	}
	int l = d >= 0 ? mul_literal(&k->ins[d]) : -1;
	if (l < 0 || k->ins[d].args[l].imm != 0.5 || uses_from(k, h, d + 1, &last) != 1) {
		free(dead);
		return 0;
	}
	in->args[1 - c] = val(s, in->loc);
	in->args[c] = k->ins[d].args[1 - l];
	dead[j] = dead[d] = 1;
	compact(k, dead);
	free(dead);
	return 1;
}

/* Whether in is t * t, whose one use, at *sub, is 1 - t * t. */
static int
square_in_one_minus(const Kernel *k, const Instr *in, int t, int *sub)
{
	if (in->op != OP_MUL || argval(in, 0) != t || argval(in, 1) != t)
		return 0;
	const Instr *u = NULL;
	if (uses_from(k, in->res[0], 0, sub) == 1)
		u = &k->ins[*sub];
	return u && u->op == OP_SUB && u->args[0].kind == ARG_IMM && u->args[0].imm == 1 &&
	       argval(u, 1) == in->res[0];
}

/*
 * A tanh used more than once, or as a square, where each use is 1 + t, 1 - t or the square in
 * 1 - t^2 (tanh's derivative, as GELU's tanh form and a softcap's backward write it): every one of
 * them is the sigmoid s = sigmoid(2k) and c = 1 - s,
 *
 *     1 + t = 2 s          1 - t = 2 c          1 - t^2 = (1 - t)(1 + t) = 4 s c
 *
 *     %t  = tanh %k               %k.x2 = mul %x, 2c
 *     %t1 = add %t, 1             %t.s  = sigmoid %k.x2
 *     %tt = mul %t, %t     ->     %t.c  = sub 1, %t.s      (only where a use needs it)
 *     %q  = sub 1, %tt            %t1   = mul %t.s, 2
 *                                 %tt   = mul %t.s, %t.c
 *                                 %q    = mul %tt, 4
 *
 * Equal in exact arithmetic. In f32, 1 - t^2 cancels where |k| is large in both forms (1 - t*t
 * and 1 - s each lose what is under 2^-24 of 1); where k is very negative 4 s c keeps s's relative
 * accuracy, which t*t near 1 does not. The sigmoid (an exponential, an add, a reciprocal), a
 * subtract and the products an element, where the tanh took both of its branches (about 18
 * instructions): bias_gelu_back from 42 to 25 (bench/results/h200-2026-12-02-sech.md). The
 * doublings' halvings cancel as above.
 */
static int
sech_uses(const Kernel *k, int i, int t, int *need_c)
{
	int uses = 0, sub = -1;
	*need_c = 0;
	for (int x = i + 1; x < k->nins; x++)
		for (int a = 0; a < k->ins[x].nargs; a++) {
			if (argval(&k->ins[x], a) != t)
				continue;
			uses++;
			int sign = one_plus(&k->ins[x], t);
			if (sign < 0)
				*need_c = 1;
			else if (!sign && square_in_one_minus(k, &k->ins[x], t, &sub))
				*need_c = 1, a++; /* t * t: both operands, one use */
			else if (!sign)
				return 0;
		}
	return uses;
}

/* The tanh at ins[i], whose uses sech_uses accepted (need_c: its answer). */
static void
rewrite_sech(Kernel *k, int i, int need_c)
{
	int t = k->ins[i].res[0], sub = -1;
	Shape sh = k->vals[t].shape;
	const char *cname = need_c ? fresh_name(k, k->vals[t].name, ".c") : NULL;
	int at = to_sigmoid(k, i, 1), s = k->ins[at].res[0], c = -1;
	if (need_c) {
		c = new_value(k, cname, sh);
		Instr *ci = insert_after(k, at);
		ci->nres = 1;
		ci->res[0] = c;
		make(ci, OP_SUB, imm(1, ci->loc), val(s, ci->loc));
		fix_defs(k);
	}
	/* the tanh's uses still name t: the sigmoid itself where it was made in place, else the
	 * doubling before it */
	for (int x = at + 1 + need_c; x < k->nins; x++) {
		Instr *in = &k->ins[x];
		int sign = one_plus(in, t);
		if (sign)
			make(in, OP_MUL, val(sign > 0 ? s : c, in->loc), imm(2, in->loc));
		else if (square_in_one_minus(k, in, t, &sub)) {
			make(in, OP_MUL, val(s, in->loc), val(c, in->loc));
			make(&k->ins[sub], OP_MUL, val(in->res[0], k->ins[sub].loc),
			     imm(4, k->ins[sub].loc));
		}
	}
	fix_defs(k);
	const char *sname = k->vals[s].name;
	for (int x = 0; x < k->nins; x++) {
		const Instr *in = &k->ins[x];
		int v = argval(in, 0);
		if (in->op == OP_MUL && v >= 0 && k->vals[v].name == sname &&
		    in->args[1].kind == ARG_IMM && in->args[1].imm == 2 && cancel_half(k, x))
			x = -1;
	}
}

static void
rewrite_tanhs(Kernel *k)
{
	/* each rewrite leaves one tanh fewer and may move statements: scan again from the top */
	for (int i = 0; i < k->nins; i++) {
		const Instr *in = &k->ins[i];
		int t = in->op == OP_TANH ? in->res[0] : -1, j = -1, need_c;
		if (t < 0)
			continue;
		int sign = uses_from(k, t, i + 1, &j) == 1 ? one_plus(&k->ins[j], t) : 0;
		if (sign) {
			int at = to_sigmoid(k, i, sign);
			j += at - i;
			Instr *r = &k->ins[j];
			make(r, OP_MUL, val(k->ins[at].res[0], r->loc), imm(2, r->loc));
			fix_defs(k);
			cancel_half(k, j);
		} else if (sech_uses(k, i, t, &need_c) > 0) {
			rewrite_sech(k, i, need_c);
		} else {
			continue;
		}
		i = -1;
	}
}

/*
 * pow by 2 or 3 (`pow %x, 2` for a square, as PyTorch code writes x.pow(2)): codegen makes pow
 * as 2^(y log2 |x|) with C's sign rules (docs/ir.md), about 12 instructions an element and a
 * relative error near 2^-22 |y|; a multiply (two for a cube) is exactly rounded each time and
 * keeps C's results at 0, infinities and NaN (pow(-0, 3) = -0 = (-0 * -0) * -0):
 *
 *     %r = pow %x, 2     ->     %r = mul %x, %x
 *     %r = pow %x, 3     ->     %r.sq = mul %x, %x;  %r = mul %r.sq, %x
 */
static void
rewrite_pows(Kernel *k)
{
	for (int i = 0; i < k->nins; i++) {
		Instr *in = &k->ins[i];
		const Arg *y = &in->args[1];
		if (in->op != OP_POW || y->kind != ARG_IMM || (y->imm != 2 && y->imm != 3) ||
		    in->res[0] < 0)
			continue;
		Arg x = in->args[0];
		if (y->imm == 2) {
			make(in, OP_MUL, x, x);
			continue;
		}
		int r = in->res[0];
		int sq = new_value(k, fresh_name(k, k->vals[r].name, ".sq"), k->vals[r].shape);
		Instr *cube = insert_after(k, i);
		cube->nres = 1;
		cube->res[0] = r;
		make(cube, OP_MUL, val(sq, cube->loc), x);
		k->ins[i].res[0] = sq;
		make(&k->ins[i], OP_MUL, x, x);
		fix_defs(k);
	}
}

void
rewrite_kernel(Kernel *k)
{
	rewrite_pows(k); /* first, so that tanh's rewrite sees pow(t, 2) as t * t */
	rewrite_tanhs(k);
}
