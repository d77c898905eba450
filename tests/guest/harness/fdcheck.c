// SPDX-License-Identifier: Apache-2.0
/*
 * The fd check (docs/testing.md, "The fd check"): a snapshot of this
 * process's fd table (/proc/self/fd: number and readlink target), the
 * difference between two, and the failure that names each change. The
 * runner checks every test body and kbt_fork() child with it; tests may
 * assert on fds with it too. See harness.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "internal.h"

int kbt_fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory stream's own fd */
}

void kbt_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

int kbt_allow_fd(int fd)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	if (rl.rlim_cur > (rlim_t)fd)
		return 0;
	rl.rlim_cur = (rlim_t)fd + 1;
	if (rl.rlim_max < rl.rlim_cur)
		rl.rlim_max = rl.rlim_cur;
	return setrlimit(RLIMIT_NOFILE, &rl) ? -errno : 0;
}

static int kbt_fd_cmp(const void *a, const void *b)
{
	const struct kbt_fd_entry *x = a, *y = b;

	return (x->fd > y->fd) - (x->fd < y->fd);
}

/* Append fd @fd (readlink relative to @dirfd) to @s. Return: 0 or -ENOMEM. */
static int kbt_fd_snap_add(struct kbt_fd_snap *s, size_t *cap, int dirfd,
			   const char *name, int fd)
{
	struct kbt_fd_entry *e;
	ssize_t n;

	if (s->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;

		e = realloc(s->e, ncap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->e = e;
		*cap = ncap;
	}
	e = &s->e[s->n++];
	e->fd = fd;
	n = readlinkat(dirfd, name, e->target, sizeof(e->target) - 1);
	if (n < 0)
		n = snprintf(e->target, sizeof(e->target), "?");
	e->target[n] = 0;
	return 0;
}

int kbt_fd_snapshot(struct kbt_fd_snap *s)
{
	DIR *d = opendir("/proc/self/fd");
	size_t cap = 0;
	struct dirent *de;
	int ret = 0, self;

	s->n = 0;
	s->e = NULL;
	if (!d)
		return -errno;
	self = dirfd(d);
	while (!ret && (de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (de->d_name[0] == '.' || *end || fd == self)
			continue;
		ret = kbt_fd_snap_add(s, &cap, self, de->d_name, (int)fd);
	}
	closedir(d);
	if (ret) {
		kbt_fd_snap_free(s);
		return ret;
	}
	if (s->n)
		qsort(s->e, s->n, sizeof(*s->e), kbt_fd_cmp);
	return 0;
}

void kbt_fd_snap_free(struct kbt_fd_snap *s)
{
	free(s->e);
	s->e = NULL;
	s->n = 0;
}

/* Count one change, storing it if there is room. */
static void kbt_fd_note(struct kbt_fd_change *out, size_t max, size_t *count,
			int fd, enum kbt_fd_kind kind, const char *before,
			const char *after)
{
	if (*count < max) {
		out[*count].fd = fd;
		out[*count].kind = kind;
		out[*count].before = before;
		out[*count].after = after;
	}
	(*count)++;
}

size_t kbt_fd_diff(const struct kbt_fd_snap *before,
		   const struct kbt_fd_snap *after,
		   struct kbt_fd_change *out, size_t max)
{
	size_t i = 0, j = 0, count = 0;

	while (i < before->n || j < after->n) {
		const struct kbt_fd_entry *b = i < before->n ? &before->e[i] : NULL;
		const struct kbt_fd_entry *a = j < after->n ? &after->e[j] : NULL;

		if (b && (!a || b->fd < a->fd)) {
			kbt_fd_note(out, max, &count, b->fd, KBT_FD_REMOVED,
				    b->target, NULL);
			i++;
		} else if (a && (!b || a->fd < b->fd)) {
			kbt_fd_note(out, max, &count, a->fd, KBT_FD_ADDED,
				    NULL, a->target);
			j++;
		} else {
			if (strcmp(b->target, a->target))
				kbt_fd_note(out, max, &count, a->fd,
					    KBT_FD_RETARGETED, b->target,
					    a->target);
			i++;
			j++;
		}
	}
	return count;
}

void kbt_fd_change_str(const struct kbt_fd_change *c, const char *who,
		       char *buf, size_t size)
{
	switch (c->kind) {
	case KBT_FD_ADDED:
		snprintf(buf, size, "fd %d (%s) leaked by %s", c->fd, c->after,
			 who);
		break;
	case KBT_FD_REMOVED:
		snprintf(buf, size, "fd %d (%s) closed by %s, which did not open it",
			 c->fd, c->before, who);
		break;
	default:
		snprintf(buf, size, "fd %d (%s) replaced by %s with %s", c->fd,
			 c->before, who, c->after);
		break;
	}
}

/*
 * Snapshot this process's fd table even after it changed its uid: that
 * makes it non-dumpable, and its /proc/self/fd root's and closed to it. Try
 * again dumpable, then (if its saved or real uid is root, as in a test that
 * dropped root for a call) with root's euid for the moment of the read.
 * Only when needed, so a test sees its own settings until the check runs.
 */
static int kbt_fd_snapshot_now(struct kbt_fd_snap *s)
{
	uid_t r, e, saved;
	int ret = kbt_fd_snapshot(s);

	if (ret == -EACCES && prctl(PR_GET_DUMPABLE) != 1 &&
	    prctl(PR_SET_DUMPABLE, 1) == 0)
		ret = kbt_fd_snapshot(s);
	if (ret == -EACCES && !getresuid(&r, &e, &saved) && e != 0 &&
	    (r == 0 || saved == 0) && !seteuid(0)) {
		ret = kbt_fd_snapshot(s);
		if (seteuid(e))
			kbt_fail(__FILE__, __LINE__, true, "seteuid(%u): %s",
				 (unsigned int)e, strerror(errno));
	}
	return ret;
}

long kbt_fd_changes_since(const struct kbt_fd_snap *before, int *added_fd)
{
	struct kbt_fd_change ch[64];
	struct kbt_fd_snap now;
	size_t n, i;
	int ret = kbt_fd_snapshot_now(&now);

	if (added_fd)
		*added_fd = -1;
	if (ret)
		return ret;
	n = kbt_fd_diff(before, &now, ch, sizeof(ch) / sizeof(ch[0]));
	for (i = 0; added_fd && i < n && i < sizeof(ch) / sizeof(ch[0]); i++) {
		if (ch[i].kind == KBT_FD_ADDED) {
			*added_fd = ch[i].fd;
			break;
		}
	}
	kbt_fd_snap_free(&now);
	return (long)n;
}

size_t kbt_fd_check(const struct kbt_fd_snap *before, const char *who)
{
	struct kbt_fd_change ch[8];
	struct kbt_fd_snap now;
	char msg[KBT_WHY_MAX], one[KBT_WHY_MAX];
	size_t n, i;
	int ret = kbt_fd_snapshot_now(&now);

	if (ret) {
		kbt_fail_plain("fd check of %s: reading /proc/self/fd: %s", who,
			       kbt_strerr(ret));
		return 0;
	}
	n = kbt_fd_diff(before, &now, ch, sizeof(ch) / sizeof(ch[0]));
	msg[0] = 0;
	for (i = 0; i < n && i < sizeof(ch) / sizeof(ch[0]); i++) {
		kbt_fd_change_str(&ch[i], who, one, sizeof(one));
		if (i)
			kbt_append(msg, sizeof(msg), "; ");
		kbt_append(msg, sizeof(msg), one);
	}
	if (n > i) {
		snprintf(one, sizeof(one), "; %zu more", n - i);
		kbt_append(msg, sizeof(msg), one);
	}
	if (n)
		kbt_fail_plain("%s", msg);
	kbt_fd_snap_free(&now);
	return n;
}
