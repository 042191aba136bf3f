/* A fork-join over row ranges: input generation and the reference run over rows independently. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "runtime/runtime.h"

typedef struct {
	void (*fn)(void *, int64_t, int64_t);
	void *ctx;
	int64_t lo, hi;
} Job;

static void *
job_run(void *arg)
{
	Job *j = arg;
	j->fn(j->ctx, j->lo, j->hi);
	return NULL;
}

static int
thread_count(void)
{
	const char *env = getenv("RKC_THREADS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

void
parallel_for(int64_t n, void (*fn)(void *, int64_t, int64_t), void *ctx)
{
	int nt = thread_count();
	if (nt > n)
		nt = n < 1 ? 1 : (int)n;
	Job jobs[64];
	pthread_t tids[64];
	int started[64] = {0};
	for (int t = 0; t < nt; t++) {
		jobs[t] = (Job){fn, ctx, n * t / nt, n * (t + 1) / nt};
		/* The calling thread takes the first range, and any a thread could not start. */
		if (t > 0)
			started[t] = !pthread_create(&tids[t], NULL, job_run, &jobs[t]);
	}
	job_run(&jobs[0]);
	for (int t = 1; t < nt; t++) {
		if (started[t])
			pthread_join(tids[t], NULL);
		else
			job_run(&jobs[t]);
	}
}
