/* The one option parser of every command, and the usage texts made from the same tables.
 *
 * Written here rather than over getopt_long: getopt_long takes any unambiguous prefix (--sha for
 * --shape), so adding an option can break a command line that worked; it keeps its state in
 * globals and prints its own messages; and it knows neither a repeated option nor a usage text.
 * Each of those would need code around it, and the table would still be needed for --help. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tools.h"

#define WIDTH 100 /* the usage line wraps here */

/* The table index of the option named by the first len bytes of s, or -1. */
static int
find_opt(const Cmd *c, const char *s, size_t len)
{
	for (int i = 0; c->opts[i].name; i++)
		if (strlen(c->opts[i].name) == len && !strncmp(c->opts[i].name, s, len))
			return i;
	return -1;
}

static int
opt_index(const Args *a, const char *name)
{
	return find_opt(a->cmd, name, strlen(name));
}

/* Appends word to line, first starting a new line indented by indent when it would pass WIDTH. */
static void
add_word(FILE *f, Buf *line, const char *word, size_t indent)
{
	if (line->len > indent && line->len + 1 + strlen(word) > WIDTH) {
		fprintf(f, "%s\n", line->s);
		line->len = 0;
		buf_printf(line, "%*s", (int)indent - 1, "");
	}
	buf_printf(line, " %s", word);
}

void
args_usage(FILE *f, const Cmd *c)
{
	Buf line = {0}, word = {0};
	buf_printf(&line, "usage: rkc %s", c->name);
	size_t indent = line.len + 1;
	add_word(f, &line, c->operands, indent);
	for (const Opt *o = c->opts; o->name; o++) {
		int optional = !(o->flags & OPT_REQUIRED);
		word.len = 0;
		buf_printf(&word, "%s%s%s%s%s%s", optional ? "[" : "", o->name, o->arg ? " " : "",
			   o->arg ? o->arg : "", optional ? "]" : "",
			   o->flags & OPT_REPEAT ? "..." : "");
		add_word(f, &line, word.s, indent);
	}
	fprintf(f, "%s\n", line.s);
	buf_free(&line);
	buf_free(&word);
}

void
args_help(FILE *f, const Cmd *c)
{
	args_usage(f, c);
	fprintf(f, "\n%s\n\noptions:\n", c->summary);
	Buf name = {0};
	int values = 0;
	for (const Opt *o = c->opts; o->name; o++) {
		values |= o->arg != NULL;
		name.len = 0;
		buf_printf(&name, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-18s %s%s\n", name.s, o->help,
			o->flags & OPT_REPEAT ? " (may be repeated)" : "");
	}
	buf_free(&name);
	fprintf(f, "  %-18s %s\n", "-h, --help", "print this text and exit");
	if (c->about)
		fprintf(f, "\n%s", c->about);
	if (values)
		fputs("\nA value follows its option as the next argument or after '=' "
		      "(--shape=MxN).\n",
		      f);
	fputs("'--' ends the options. Exit status: 0 done, 1 failed, 2 a usage error.\n", f);
}

/* "rkc CMD: error: ..." and a newline, the one form of both kinds of error below. */
static void
verror(const Args *a, const char *fmt, va_list ap)
{
	fprintf(stderr, "rkc %s: error: ", a->cmd->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int
args_error(const Args *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(a, fmt, ap);
	va_end(ap);
	args_usage(stderr, a->cmd);
	return ARGS_BAD;
}

/* The option at argv[*i], and its value from the same or the next argument. */
static int
take_option(Args *a, int argc, char **argv, int *i)
{
	const char *s = argv[*i], *eq = s[1] == '-' ? strchr(s, '=') : NULL, *v;
	/* --name=value; -oVALUE for a one-letter name */
	size_t len = eq ? (size_t)(eq - s) : s[1] == '-' ? strlen(s) : 2;
	int o = find_opt(a->cmd, s, len);
	if (o < 0)
		return args_error(a, "unknown option '%.*s'", (int)(eq ? len : strlen(s)), s);
	const Opt *op = &a->cmd->opts[o];
	int attached = eq || s[len];
	if (!op->arg) {
		if (eq)
			return args_error(a, "%s takes no value", op->name);
		if (attached)
			return args_error(a, "unknown option '%s'", s);
		a->n[o]++; /* a flag may be repeated: it says the same thing again */
		return 0;
	}
	if (attached)
		v = eq ? eq + 1 : s + len;
	else if (*i + 1 < argc)
		v = argv[++*i];
	else
		return args_error(a, "%s needs a value (%s %s)", op->name, op->name, op->arg);
	if (a->n[o] && !(op->flags & OPT_REPEAT))
		return args_error(a, "%s given twice ('%s', then '%s'); it takes one", op->name,
				  a->val[o][0], v);
	if (a->n[o] == MAX_REPEAT)
		return args_error(a, "%s given more than %d times", op->name, MAX_REPEAT);
	a->val[o][a->n[o]++] = v;
	return 0;
}

/* Enough operands, and every required option. */
static int
check_given(const Args *a)
{
	const Cmd *c = a->cmd;
	if (a->noperands < c->min_operands)
		return args_error(a, "%s", c->missing);
	if (c->max_operands >= 0 && a->noperands > c->max_operands)
		return args_error(a, "extra argument '%s'", a->operands[c->max_operands]);
	for (int i = 0; c->opts[i].name; i++)
		if (c->opts[i].flags & OPT_REQUIRED && !a->n[i])
			return args_error(a, "no %s given", c->opts[i].name);
	return ARGS_OK;
}

int
args_parse(const Cmd *c, int argc, char **argv, Args *a)
{
	memset(a, 0, sizeof *a);
	a->cmd = c;
	int nopts = 0;
	while (c->opts[nopts].name)
		nopts++;
	if (nopts > MAX_OPTS) /* a table that outgrew Args: a bug, said before it indexes past */
		return args_error(a, "internal error: %d options, Args holds %d", nopts, MAX_OPTS);
	a->operands = argv + 1; /* written no further than read, so argv holds them in place */
	int options = 1;
	for (int i = 1; i < argc; i++) {
		char *s = argv[i];
		if (!options || s[0] != '-' || !s[1]) { /* "-" is standard input, an operand */
			a->operands[a->noperands++] = s;
		} else if (!strcmp(s, "--")) {
			options = 0;
		} else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			args_help(stdout, c);
			return ARGS_HELP;
		} else if (take_option(a, argc, argv, &i)) {
			return ARGS_BAD;
		}
	}
	return check_given(a);
}

const char *
arg_value(const Args *a, const char *name)
{
	int o = opt_index(a, name);
	return o >= 0 && a->n[o] ? a->val[o][0] : NULL;
}

int
arg_count(const Args *a, const char *name)
{
	int o = opt_index(a, name);
	return o >= 0 ? a->n[o] : 0;
}

const char *const *
arg_values(const Args *a, const char *name)
{
	int o = opt_index(a, name);
	return o >= 0 ? a->val[o] : NULL;
}

json_t *
tool_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

const char *
tool_dtype_name(Type t)
{
	return rkc_dtype_name(t);
}

void
tool_put_json(json_t *o)
{
	/* json_pack gives NULL for a real that is not finite; a record so lost is said, not crashed
	 * on */
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(10)) : NULL;
	if (s)
		puts(s);
	else
		fputs("rkc: error: a JSON record could not be built (a number not finite)\n",
		      stderr);
	free(s);
	json_decref(o);
}

/* A bad value: "rkc CMD: error: ..." without the usage line (the option was given right, its
 * value is wrong), and status 2. */
static int __attribute__((format(printf, 2, 3))) bad(const Args *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(a, fmt, ap);
	va_end(ap);
	return 2;
}

int
tool_request(const Args *a, Request *rq)
{
	const char *cmd = a->cmd->name, *shape = arg_value(a, "--shape");
	const char *policy = arg_value(a, "--policy");
	*rq = (Request){.arch = arg_value(a, "--arch"),
			.forced = arg_value(a, "--config"),
			.batch_invariant = arg_count(a, "--batch-invariant") > 0,
			.regions = arg_count(a, "--regions") > 0,
			.guard = 1};
	if (!rq->arch)
		rq->arch = "sm_90";
	int o = opt_index(a, "--shape");
	/* a repeated --shape (rkc run) is the command's to read */
	if (shape && !(a->cmd->opts[o].flags & OPT_REPEAT) &&
	    tool_parse_shape(cmd, shape, &rq->M, &rq->N))
		return 2;
	if (rq->forced && tool_check_config(cmd, rq->forced))
		return 2;
	Diag d = {0};
	if (rkc_parse_dtype(arg_value(a, "--dtype"), &rq->dtype, &d) ||
	    (policy && rkc_parse_policy(policy, &rq->policy, &d)) || rkc_parse_arch(rq->arch, &d))
		return bad(a, "%s", d.msg + (strncmp(d.msg, "error: ", 7) ? 0 : 7));
	const char *every = arg_value(a, "--regions-every");
	if (every) {
		char *end = NULL;
		long e = strtol(every, &end, 10);
		if (*end || end == every || e < 1 || e > REGIONS_EVERY_LIMIT)
			return bad(a, "--regions-every takes an integer from 1 to %d, not '%s'",
				   REGIONS_EVERY_LIMIT, every);
		if (!rq->regions)
			return args_error(a, "--regions-every goes with --regions");
		rq->regions_every = (int)e;
	}
	if (rq->batch_invariant && rq->policy != POLICY_RKC)
		return args_error(
		    a, "--batch-invariant is the rkc policy's mode; --policy %s has none",
		    policy_name(rq->policy));
	return 0;
}

int
tool_run_opts(const Args *a, RunOpts *ro)
{
	const char *seed = arg_value(a, "--seed"), *gbps = arg_value(a, "--copy-gbps");
	char *end = NULL;
	ro->seed = 1;
	ro->digest_row = -1;
	if (seed && ((ro->seed = strtoull(seed, &end, 0)), *end || end == seed || *seed == '-'))
		return bad(a, "--seed takes a non-negative integer, not '%s'", seed);
	if (gbps && ((ro->copy_gbps = strtod(gbps, &end)),
		     *end || end == gbps || !(ro->copy_gbps > 0) || ro->copy_gbps == HUGE_VAL))
		return bad(a, "--copy-gbps takes a positive number, not '%s'", gbps);
	return 0;
}
