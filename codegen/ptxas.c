/* ptxas: finding and running it, and parsing its -v report (the CUDA 13 format). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codegen/codegen.h"

/* Reads "<number> <key>" anywhere on the line into *out when key follows a number. */
static void
field(const char *line, const char *key, long *out)
{
	const char *p = strstr(line, key);
	if (!p)
		return;
	const char *q = p;
	while (q > line && q[-1] == ' ')
		q--;
	const char *e = q;
	while (q > line && q[-1] >= '0' && q[-1] <= '9')
		q--;
	if (q == e)
		return;
	*out = strtol(q, NULL, 10);
}

int
ptxas_parse(const char *text, PtxasFunc *out, int max)
{
	int n = 0;
	PtxasFunc *cur = NULL;
	for (const char *line = text; *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[512];
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, line, len);
		buf[len] = 0;
		line += len + (eol != NULL);
		const char *fp = strstr(buf, "Function properties for ");
		if (fp) {
			cur = n < max ? &out[n++] : NULL;
			if (!cur)
				continue;
			memset(cur, 0, sizeof *cur);
			const char *s = fp + strlen("Function properties for ");
			size_t k = 0;
			for (; *s && *s != ' ' && *s != '\r' && k + 1 < sizeof cur->name; s++)
				if (*s != '\'')
					cur->name[k++] = *s;
			cur->name[k] = 0;
			continue;
		}
		if (!cur)
			continue;
		long v = -1;
		field(buf, "bytes stack frame", &cur->stack);
		field(buf, "bytes spill stores", &cur->spill_stores);
		field(buf, "bytes spill loads", &cur->spill_loads);
		field(buf, "bytes smem", &cur->smem);
		field(buf, "bytes cumulative stack size", &cur->cum_stack);
		const char *u = strstr(buf, "Used ");
		if (u && (v = strtol(u + 5, NULL, 10)) >= 0 && strstr(u, "registers"))
			cur->regs = (int)v;
		const char *b = strstr(buf, "used ");
		if (b && strstr(b, "barriers"))
			cur->barriers = (int)strtol(b + 5, NULL, 10);
	}
	return n;
}

const char *
ptxas_path(void)
{
	static char found[4096];
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		if (len > 0 && len + 8 < sizeof found) {
			snprintf(found, sizeof found, "%.*s/ptxas", (int)len, path);
			if (access(found, X_OK) == 0)
				return found;
		}
		path = colon ? colon + 1 : NULL;
	}
	const char *home = getenv("CUDA_HOME");
	if (home && strlen(home) + 12 < sizeof found) {
		snprintf(found, sizeof found, "%s/bin/ptxas", home);
		if (access(found, X_OK) == 0)
			return found;
	}
	if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
		return "/usr/local/cuda/bin/ptxas";
	return NULL;
}

/* The cubin ptxas wrote at path, into cubin (binary: len bytes, NUL after them). */
static int
read_cubin(const char *path, Buf *cubin, Diag *d)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return diag(d, "cannot read ptxas's output %s: %s", path, strerror(errno));
	Buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		char *s = realloc(b.s, b.len + n + 1);
		if (!s)
			break;
		memcpy(s + b.len, chunk, n);
		b.s = s;
		b.len += n;
		b.cap = b.len + 1;
		b.s[b.len] = 0;
	}
	int bad = ferror(f) || n > 0 || !b.len;
	fclose(f);
	if (bad) {
		buf_free(&b);
		return diag(d, "cannot read ptxas's output %s", path);
	}
	buf_free(cubin);
	*cubin = b;
	return 0;
}

int
ptxas_run(const char *ptx, const char *arch, Buf *log, Diag *d)
{
	return ptxas_assemble(ptx, arch, NULL, log, d);
}

int
ptxas_assemble(const char *ptx, const char *arch, Buf *cubin, Buf *log, Diag *d)
{
	const char *bin = ptxas_path();
	if (!bin)
		return diag(
		    d, "ptxas not found (looked in PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)");
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/rkc-ptx-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return diag(d, "cannot create a temporary file: %s", strerror(errno));
	size_t len = strlen(ptx), off = 0;
	while (off < len) {
		ssize_t w = write(fd, ptx + off, len - off);
		if (w <= 0) {
			close(fd);
			unlink(path);
			return diag(d, "cannot write %s: %s", path, strerror(errno));
		}
		off += (size_t)w;
	}
	close(fd);
	int pipefd[2];
	if (pipe(pipefd) != 0) {
		unlink(path);
		return diag(d, "pipe: %s", strerror(errno));
	}
	char archopt[64], out[4096] = "/dev/null";
	snprintf(archopt, sizeof archopt, "-arch=%s", arch);
	if (cubin) {
		snprintf(out, sizeof out, "%s/rkc-cubin-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		int ofd = mkstemp(out);
		if (ofd < 0) {
			close(pipefd[0]);
			close(pipefd[1]);
			unlink(path);
			return diag(d, "cannot create a temporary file: %s", strerror(errno));
		}
		close(ofd);
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 2);
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(bin, "ptxas", "-v", archopt, "-o", out, path, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	char buf[4096];
	ssize_t r;
	while ((r = read(pipefd[0], buf, sizeof buf)) > 0)
		buf_printf(log, "%.*s", (int)r, buf);
	close(pipefd[0]);
	int st = 0;
	if (pid > 0)
		waitpid(pid, &st, 0);
	unlink(path);
	int rc = 0;
	if (pid < 0)
		rc = diag(d, "fork: %s", strerror(errno));
	else if (WIFSIGNALED(st))
		rc = diag(d, "ptxas was killed by signal %d (%s): %s", WTERMSIG(st),
			  strsignal(WTERMSIG(st)), log->s ? log->s : "");
	else if (WEXITSTATUS(st) != 0)
		rc = diag(d, "ptxas rejected the PTX (exit %d): %s", WEXITSTATUS(st),
			  log->s ? log->s : "");
	else if (cubin)
		rc = read_cubin(out, cubin, d);
	if (cubin)
		unlink(out);
	return rc;
}
