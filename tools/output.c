/* Output files: replaced whole by rename, special files written in place, inputs left alone. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/tools.h"

/* Symbolic links followed to what they name, stopping at /proc and /dev/fd: a link there (as
 * /dev/stdout -> /proc/self/fd/1 is) names an open file, not a place to put a new one. */
static char *
follow(const char *path, int *special)
{
	char *cur = strdup(path);
	for (int hops = 0;; hops++) {
		*special = !strncmp(cur, "/proc/", 6) || !strncmp(cur, "/dev/fd/", 8);
		struct stat st;
		if (*special || lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		char to[4096];
		ssize_t n = -1;
		if (hops == 40)
			errno = ELOOP;
		else
			n = readlink(cur, to, sizeof to - 1);
		char *next = NULL;
		if (n >= 0) {
			to[n] = 0;
			const char *slash = strrchr(cur, '/');
			int dir = to[0] == '/' || !slash ? 0 : (int)(slash - cur) + 1;
			if (asprintf(&next, "%.*s%s", dir, cur, to) < 0)
				next = NULL;
		}
		free(cur);
		if (!next)
			return NULL;
		cur = next;
	}
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

int
out_open(OutFile *o, const char *path, const char *input, Diag *d)
{
	*o = (OutFile){.path = path, .fd = -1};
	int special;
	if (!(o->dest = follow(path, &special)))
		return diag(d, "cannot write '%s': %s", path, strerror(errno));
	o->had_old = stat(o->dest, &o->old) == 0;
	if (!o->had_old && errno != ENOENT)
		return diag(d, "cannot write '%s': %s", path, strerror(errno));
	if (o->had_old && S_ISDIR(o->old.st_mode))
		return diag(d, "cannot write '%s': it is a directory", path);
	struct stat in;
	if (input && o->had_old &&
	    (strcmp(input, "-") ? stat(input, &in) : fstat(STDIN_FILENO, &in)) == 0 &&
	    S_ISREG(in.st_mode) && same_file(&in, &o->old))
		return diag(d, "not writing '%s': it is the input '%s'", path, input);
	o->in_place = special || (o->had_old && !S_ISREG(o->old.st_mode));
	if (o->in_place) {
		/* the path as given: through /dev/stdout is the open file, whatever it is */
		if ((o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0)
			return diag(d, "cannot write '%s': %s", path, strerror(errno));
		return 0;
	}
	/* a short name, so a destination near NAME_MAX still gets a temporary beside it */
	const char *slash = strrchr(o->dest, '/');
	int dir = slash ? (int)(slash - o->dest) + 1 : 0;
	if (asprintf(&o->tmp, "%.*srkc-tmp-XXXXXX", dir, o->dest) < 0) {
		o->tmp = NULL;
		return diag(d, "cannot write '%s': out of memory", path);
	}
	if ((o->fd = mkostemp(o->tmp, O_CLOEXEC)) < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return diag(d, "cannot write '%s': %s", path, strerror(e));
	}
	/* mkstemp makes the file private: keep the old file's mode, else give a new file's */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(o->fd, o->had_old ? o->old.st_mode & 07777 : 0666 & ~mask);
	return 0;
}

int
out_write(OutFile *o, const char *data, size_t len, Diag *d)
{
	for (size_t off = 0; off < len;) {
		ssize_t w = write(o->fd, data + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return diag(d, "cannot write '%s': %s", o->path, strerror(errno));
		}
		off += (size_t)w;
	}
	int fd = o->fd;
	o->fd = -1;
	if (close(fd))
		return diag(d, "cannot write '%s': %s", o->path, strerror(errno));
	return 0;
}

/* Where a temporary went: exchanged with the old file (now at the temporary's name, so it can be
 * put back), renamed to a name that was free, renamed over an old file on a file system that
 * cannot exchange (no way back), or nowhere yet. */
enum { NOT_PLACED, SWAPPED, CREATED, RENAMED };

static int
place(OutFile *o)
{
	if (o->in_place)
		return 0;
	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->dest, RENAME_EXCHANGE) == 0) {
		o->placed = SWAPPED;
		return 0;
	}
	int free_name = errno == ENOENT;
	if (rename(o->tmp, o->dest))
		return -1;
	o->placed = free_name ? CREATED : RENAMED;
	return 0;
}

static void
unplace(OutFile *o)
{
	if (o->placed == SWAPPED &&
	    renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->dest, RENAME_EXCHANGE) == 0)
		o->placed = NOT_PLACED;
	else if (o->placed == CREATED && unlink(o->dest) == 0)
		o->placed = NOT_PLACED;
}

/* Commits take turns on the first file's directory, and each file is renamed over the old one, so
 * a reader of one file sees all of the old or all of the new, and once no commit is under way the
 * files are all from one commit. A reader of two files during a commit can see one old and one
 * new. When a rename fails, the files renamed before it are put back, where the file system can
 * exchange two names (RENAME_EXCHANGE; ext4, xfs, btrfs and tmpfs can). */
int
out_commit(OutFile *const *os, int n, Diag *d)
{
	const char *slash = strrchr(os[0]->dest, '/');
	char *dir = slash ? strndup(os[0]->dest, (size_t)(slash - os[0]->dest) + 1) : strdup(".");
	int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	/* a directory that cannot be opened or locked still gets the files, unserialised */
	if (lock >= 0)
		flock(lock, LOCK_EX);
	int i = 0, rc = 0;
	while (i < n && place(os[i]) == 0)
		i++;
	if (i < n) {
		rc = diag(d, "cannot write '%s': %s", os[i]->path, strerror(errno));
		while (i-- > 0)
			unplace(os[i]);
	}
	if (lock >= 0)
		close(lock);
	return rc;
}

void
out_free(OutFile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	/* an uncommitted temporary, or the old file a swap left at its name */
	if (o->tmp && (o->placed == NOT_PLACED || o->placed == SWAPPED))
		unlink(o->tmp);
	free(o->tmp);
	free(o->dest);
	*o = (OutFile){.fd = -1};
}
