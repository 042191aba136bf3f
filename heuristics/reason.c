/* Reasons: the one writer every policy and the driver share. */
#include <stdarg.h>

#include "heuristics/heuristics.h"

void
choice_reason(Choice *c, const char *fmt, ...)
{
	if (c->nreasons == MAX_REASONS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->reasons[c->nreasons++], sizeof c->reasons[0], fmt, ap);
	va_end(ap);
}
