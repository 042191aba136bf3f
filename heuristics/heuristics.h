/* Heuristics: targets as data, the policies that choose a launch configuration, and their reasons.
 */
#ifndef RKC_HEURISTICS_H
#define RKC_HEURISTICS_H

#include "analysis/analysis.h"

/*
 * A launch configuration. The execution model (DESIGN.md §8):
 * a CTA has num_warps*32 threads and owns m_block rows; each row is owned by
 * tpr = num_warps*32/m_block threads (a power of two, 1..1024). A thread touches vec
 * consecutive elements per access (16 bytes when the row allows it, else fewer).
 * persistent: the row slice stays in registers; each thread holds r_block/tpr elements of its row,
 *   and r_block >= N (a multiple of tpr*vec).
 * looped: each pass streams the row in chunks of r_block elements (tpr*vec divides r_block).
 * split: CTAs per row (1 = none); each covers a contiguous segment, the last to finish combines.
 */
typedef struct {
	int persistent;
	int64_t r_block;
	int m_block;
	int num_warps;
	int vec;
	int split;
} Config;

static inline int
config_tpr(const Config *c)
{
	return c->num_warps * 32 / c->m_block;
}

#endif
