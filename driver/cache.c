/* The on-disk compile cache: one file per request, keyed by everything that decides its output. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/rkc.h"
#include "frontends/frontends.h"
#include "rkc_source_hash.h" /* generated: cmake/source_hash.cmake */

#define MAGIC "rkc-cache 1\n"

int
rkc_cache_dir(Buf *dir, Diag *d)
{
	const char *env = getenv("RKC_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	dir->len = 0;
	if (env && *env)
		buf_puts(dir, env);
	else if (xdg && *xdg == '/')
		buf_printf(dir, "%s/rkc", xdg);
	else if (home && *home)
		buf_printf(dir, "%s/.cache/rkc", home);
	else
		return diag(d, "no cache directory: set RKC_CACHE_DIR (or XDG_CACHE_HOME or HOME)");
	return 0;
}

/* Everything the output depends on, as text: the entry holds it whole and a hit compares it
 * whole, so two keys with one hash are two misses, never a wrong hit. */
static void
cache_key(Buf *key, const Request *rq, int cubin)
{
	Buf k = {0};
	kernel_print(&k, rq->k);
	buf_printf(key,
		   "rkc %s\nsource %s\nabi %d\nptx_isa %s\nshape %lld %lld\ndtype %s\narch %s\n"
		   "policy %s\nforced %s\nbatch_invariant %d\nregions %d %d\ncubin %d\nguard %d\n",
		   RKC_VERSION, RKC_SOURCE_HASH, CODEGEN_MANIFEST_VERSION,
		   codegen_ptx_isa(rq->arch ? rq->arch : "sm_90"), (long long)rq->M,
		   (long long)rq->N, type_name(rq->dtype), rq->arch ? rq->arch : "sm_90",
		   policy_name(rq->policy), rq->forced ? rq->forced : "-", rq->batch_invariant,
		   rq->regions, rq->regions_every, cubin, rq->guard);
	if (rq->cfg) {
		buf_puts(key, "config ");
		config_short(key, rq->cfg);
		buf_puts(key, "\n");
	}
	if (cubin || rq->guard) { /* the cubin, or the spill guard's reading of the pick */
		const char *ptxas = ptxas_path();
		buf_printf(key, "ptxas %s\n", ptxas ? ptxas : "-");
	}
	buf_printf(key, "kernel %zu\n", k.len);
	buf_puts(key, k.s ? k.s : "");
	buf_free(&k);
}

/* "NAME LEN\n" then LEN bytes and a newline, as the entry stores each part. */
static int
put_part(FILE *f, const char *name, const Buf *b)
{
	return fprintf(f, "%s %zu\n", name, b->len) < 0 ||
	       (b->len && fwrite(b->s, 1, b->len, f) != b->len) || fputc('\n', f) == EOF;
}

static int
get_part(const char **p, const char *end, const char *name, Buf *b)
{
	size_t nl = strlen(name), len = 0;
	const char *s = *p;
	if ((size_t)(end - s) < nl + 2 || memcmp(s, name, nl) || s[nl] != ' ')
		return -1;
	s += nl + 1;
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	while (s < end && *s >= '0' && *s <= '9') {
		if (len > ((size_t)-1 - 9) / 10)
			return -1;
		len = len * 10 + (size_t)(*s++ - '0');
	}
	if (s >= end || *s++ != '\n' || (size_t)(end - s) < len + 1 || s[len] != '\n')
		return -1;
	b->s = malloc(len + 1);
	memcpy(b->s, s, len);
	b->s[len] = 0;
	b->len = len;
	b->cap = len + 1;
	*p = s + len + 1;
	return 0;
}

/* The entry at path when it is one this cache wrote for exactly this key: 1, else 0. */
static int
cache_read(const char *path, const Buf *key, Artifact *a)
{
	size_t n = 0;
	Diag d = {0};
	char *data = read_file(path, &n, &d);
	if (!data)
		return 0;
	const char *p = data, *end = data + n;
	Buf k = {0}, ptx = {0}, man = {0}, cubin = {0};
	int ok = n > strlen(MAGIC) && !memcmp(p, MAGIC, strlen(MAGIC));
	p += ok ? strlen(MAGIC) : 0;
	ok = ok && !get_part(&p, end, "key", &k) && k.len == key->len &&
	     !memcmp(k.s, key->s, k.len) && !get_part(&p, end, "ptx", &ptx) &&
	     !get_part(&p, end, "manifest", &man) && !get_part(&p, end, "cubin", &cubin) &&
	     p == end;
	buf_free(&k);
	free(data);
	if (!ok) {
		buf_free(&ptx);
		buf_free(&man);
		buf_free(&cubin);
		return 0;
	}
	a->ptx = ptx;
	a->manifest = man;
	a->cubin = cubin;
	return 1;
}

/* mkdir -p, each directory it makes private to the user. */
static int
make_dirs(const char *dir, Diag *d)
{
	char *s = strdup(dir);
	for (char *p = s + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = 0;
		if (mkdir(s, 0700) && errno != EEXIST) {
			diag(d, "cannot make the cache directory %s: %s", s, strerror(errno));
			free(s);
			return -1;
		}
		*p = c;
		if (!c)
			break;
	}
	free(s);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return diag(d, "the cache directory %s is not a directory", dir);
	return 0;
}

/* Writes the entry to a temporary in dir and links it to its name: atomic, and never over a file
 * that is there already (one this cache wrote at the same time, or anything else). */
static int
cache_write(const char *dir, const char *path, const Buf *key, const Artifact *a, Diag *d)
{
	if (make_dirs(dir, d))
		return -1;
	Buf tmp = {0};
	buf_printf(&tmp, "%s/.tmp-XXXXXX", dir);
	int fd = mkstemp(tmp.s);
	if (fd < 0) {
		diag(d, "cannot write to the cache directory %s: %s", dir, strerror(errno));
		buf_free(&tmp);
		return -1;
	}
	FILE *f = fdopen(fd, "wb");
	int bad = !f || fputs(MAGIC, f) == EOF || put_part(f, "key", key) ||
		  put_part(f, "ptx", &a->ptx) || put_part(f, "manifest", &a->manifest) ||
		  put_part(f, "cubin", &a->cubin);
	if (f ? fclose(f) != 0 : close(fd) != 0)
		bad = 1;
	int rc = 0;
	if (bad)
		rc = diag(d, "cannot write %s: %s", tmp.s, strerror(errno));
	else if (link(tmp.s, path) && errno != EEXIST)
		rc = diag(d, "cannot add %s to the cache: %s", path, strerror(errno));
	unlink(tmp.s);
	buf_free(&tmp);
	return rc;
}

static void
warn(Artifact *a, const Diag *w)
{
	const char *m = strncmp(w->msg, "error: ", 7) ? w->msg : w->msg + 7;
	snprintf(a->warning, sizeof a->warning, "cache: %.280s", m);
}

int
rkc_compile_cached(const Request *rq, int cubin, const char *dir, Artifact *a, Diag *d)
{
	memset(a, 0, sizeof *a);
	Buf key = {0}, own = {0}, path = {0};
	Diag w = {0};
	int rc = -1;
	if (!dir) {
		if (rkc_cache_dir(&own, &w))
			warn(a, &w);
		dir = own.s;
	}
	if (dir && *dir) {
		cache_key(&key, rq, cubin);
		buf_printf(&path, "%s/%016llx.rkc", dir,
			   (unsigned long long)codegen_fnv1a(CODEGEN_FNV_BASIS, key.s, key.len));
		if (cache_read(path.s, &key, a)) {
			a->hit = 1;
			rc = 0;
			goto out;
		}
	}
	Request r1 = *rq;
	r1.emit = 1;
	Result r;
	if (rkc_compile(&r1, &r, d)) {
		rkc_result_free(&r);
		goto out;
	}
	a->ptx = r.ptx;
	a->manifest = r.manifest;
	Buf log = {0};
	int bad = cubin && ptxas_assemble(a->ptx.s, r.compile.arch, &a->cubin, &log, d);
	buf_free(&log);
	if (bad)
		goto out;
	if (dir && *dir && cache_write(dir, path.s, &key, a, &w))
		warn(a, &w);
	rc = 0;
out:
	if (rc)
		rkc_artifact_free(a);
	buf_free(&key);
	buf_free(&own);
	buf_free(&path);
	return rc;
}

void
rkc_artifact_free(Artifact *a)
{
	buf_free(&a->ptx);
	buf_free(&a->manifest);
	buf_free(&a->cubin);
}
