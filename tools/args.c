/* The options of the commands that compile through the pipeline, read into a Request once. */
#include <string.h>

#include "tools/tools.h"

static int
usage_error(const char *cmd, const char *usage, const char *msg, const char *arg)
{
	fprintf(stderr, "rkc %s: error: %s%s%s\n", cmd, msg, arg ? " " : "", arg ? arg : "");
	fprintf(stderr, "usage: %s\n", usage);
	return 2;
}

int
tool_request_args(const char *cmd, const char *usage, int argc, char **argv, const ToolOpt *own,
		  Request *rq, const char **path)
{
	const char *shape = NULL, *dtype = NULL, *policy = "rkc";
	*rq = (Request){.arch = "sm_90"};
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = !strcmp(a, "--shape")    ? &shape
				    : !strcmp(a, "--dtype")  ? &dtype
				    : !strcmp(a, "--arch")   ? &rq->arch
				    : !strcmp(a, "--policy") ? &policy
				    : !strcmp(a, "--config") ? &rq->forced
							     : NULL;
		int *flag = NULL;
		for (const ToolOpt *o = own; o && o->name && !slot && !flag; o++)
			if (!strcmp(a, o->name)) {
				slot = o->value;
				flag = o->flag;
			}
		if (slot) {
			if (i + 1 >= argc)
				return usage_error(cmd, usage, "missing value after", a);
			*slot = argv[++i];
		} else if (flag) {
			*flag = 1;
		} else if (a[0] == '-' && a[1]) {
			return usage_error(cmd, usage, "unknown option", a);
		} else if (*path) {
			return usage_error(cmd, usage, "one kernel file at a time; extra", a);
		} else {
			*path = a;
		}
	}
	Diag d = {0};
	if (!*path)
		return usage_error(cmd, usage, "no kernel file given", NULL);
	for (const ToolOpt *o = own; o && o->name; o++)
		if (o->value && o->required && !*o->value)
			return usage_error(cmd, usage, o->required, NULL);
	if (!shape)
		return usage_error(cmd, usage, "no --shape given", NULL);
	if (tool_parse_shape(cmd, shape, &rq->M, &rq->N) ||
	    (rq->forced && tool_check_config(cmd, rq->forced)))
		return 2;
	if (!dtype || rkc_parse_dtype(dtype, &rq->dtype, &d))
		return usage_error(cmd, usage, "--dtype needs bf16, fp16 or fp32, got",
				   dtype ? dtype : "nothing");
	if (rkc_parse_policy(policy, &rq->policy, &d))
		return usage_error(cmd, usage, "--policy needs rkc or helion2828, got", policy);
	if (rkc_parse_arch(rq->arch, &d))
		return usage_error(cmd, usage, "--arch needs sm_80, sm_86, sm_89 or sm_90, got",
				   rq->arch);
	return 0;
}
