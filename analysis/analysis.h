/* Analysis: the IR's helpers, the reference interpreter, facts, liveness and cost. */
#ifndef RKC_ANALYSIS_H
#define RKC_ANALYSIS_H

#include "analysis/ir.h"

#endif
