// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's guest test harness: registration, the per-test fork/timeout
 * runner, the kernel-log splat check, result lines, and process helpers.
 * See harness.h for the interface.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define KBT_EXIT_FAIL 1
#define KBT_EXIT_SKIP 77
#define KBT_WHY_MAX 480

/*
 * struct kbt_shared - state shared (MAP_SHARED) between the runner and every
 * process of the running test.
 * @failed:   set by the first failure
 * @skipped:  set by SKIP
 * @body:     pid of the test body's process (set by itself, first thing)
 * @returned: set by the body's process once the body returned; a body
 *            that ends any other way (exit(0) before its assertions, a
 *            _exit in a helper) did not finish, whatever its status says
 * @why:      the first failure's or the skip's message
 */
struct kbt_shared {
	int failed;
	int skipped;
	pid_t body;
	int returned;
	char why[KBT_WHY_MAX];
};

static struct kbt_test *kbt_tests;
static struct kbt_test **kbt_tail = &kbt_tests;
static struct kbt_shared *kbt_state;
static const char *kbt_suite_name = "?";
static const char *kbt_current = "?";

/* Failure messages go to the result line, which must stay on one line. */
static void kbt_oneline(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

/* Append @src to the string in @dst (of @size bytes), truncating. */
static void kbt_append(char *dst, size_t size, const char *src)
{
	size_t have = strnlen(dst, size - 1);
	size_t n = strlen(src);

	if (n > size - 1 - have)
		n = size - 1 - have;
	memcpy(dst + have, src, n);
	dst[have + n] = 0;
}

void kbt_register(struct kbt_test *t)
{
	*kbt_tail = t;
	kbt_tail = &t->next;
}

const char *kbt_suite(void)
{
	return kbt_suite_name;
}

const char *kbt_test_name(void)
{
	return kbt_current;
}

void kbt_expect_stack_dump(bool on)
{
	const char *marker = on ? "kbinder-test: expect stack dump\n" :
				  "kbinder-test: expect end\n";
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, marker, strlen(marker)) < 0)
		perror("kmsg");
	close(fd);
}

const char *kbt_driver(void)
{
	const char *d = getenv("KBINDER_DRIVER");

	return (d && *d) ? d : "kbinder";
}

bool kbt_is_reference(void)
{
	return !strcmp(kbt_driver(), "reference");
}

bool kbt_slow_kernel(void)
{
	const char *v = getenv("KBT_SLOW_KERNEL");

	return v && *v && strcmp(v, "0");
}

const char *kbt_strerr(long err)
{
	return strerror((int)(err < 0 ? -err : err));
}

long kbt_mem_diff(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

static void kbt_vrecord(int *flag, const char *prefix, const char *fmt,
			va_list ap)
{
	char msg[KBT_WHY_MAX];
	int n = snprintf(msg, sizeof(msg), "%s", prefix);

	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	kbt_oneline(msg);
	fprintf(stderr, "  [%s/%s pid %d] %s\n", kbt_suite_name, kbt_current,
		(int)getpid(), msg);
	if (!kbt_state)
		return;
	if (__atomic_exchange_n(flag, 1, __ATOMIC_SEQ_CST) == 0 &&
	    !(flag == &kbt_state->skipped && kbt_state->failed))
		memcpy(kbt_state->why, msg, sizeof(msg));
}

void kbt_fail(const char *file, int line, bool fatal, const char *fmt, ...)
{
	char prefix[96];
	const char *base = strrchr(file, '/');
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s:%d: ", base ? base + 1 : file, line);
	va_start(ap, fmt);
	if (kbt_state) {
		kbt_vrecord(&kbt_state->failed, prefix, fmt, ap);
	} else {
		int dummy = 0;

		kbt_vrecord(&dummy, prefix, fmt, ap);
	}
	va_end(ap);
	if (fatal)
		_exit(KBT_EXIT_FAIL);
}

/* Record a failure with no file:line prefix (the fd check's reports). */
static void __attribute__((format(printf, 1, 2)))
kbt_fail_plain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (kbt_state) {
		kbt_vrecord(&kbt_state->failed, "", fmt, ap);
	} else {
		int dummy = 0;

		kbt_vrecord(&dummy, "", fmt, ap);
	}
	va_end(ap);
}

void kbt_skip(const char *fmt, ...)
{
	va_list ap;
	int dummy = 0;

	va_start(ap, fmt);
	kbt_vrecord(kbt_state ? &kbt_state->skipped : &dummy, "", fmt, ap);
	va_end(ap);
	_exit(KBT_EXIT_SKIP);
}

bool kbt_failed(void)
{
	return kbt_state && __atomic_load_n(&kbt_state->failed, __ATOMIC_SEQ_CST);
}

void kbt_log(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "  [%s/%s pid %d] %s\n", kbt_suite_name, kbt_current,
		(int)getpid(), msg);
}

int64_t kbt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void kbt_msleep(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

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

/* ---------------------------------------------------------------- */
/* the fd check                                                      */
/* ---------------------------------------------------------------- */

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

/* ---------------------------------------------------------------- */
/* child processes and channels                                      */
/* ---------------------------------------------------------------- */

pid_t kbt_fork_named(void (*fn)(void *arg), void *arg, const char *name)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		kbt_fail(__FILE__, __LINE__, true, "fork: %s", strerror(errno));
	if (pid == 0) {
		struct kbt_fd_snap before;
		char who[128];
		int ret = kbt_fd_snapshot(&before);

		if (ret)
			kbt_fail(__FILE__, __LINE__, true,
				 "fd snapshot of child %s: %s", name,
				 kbt_strerr(ret));
		fn(arg);
		snprintf(who, sizeof(who), "child %s", name);
		kbt_fd_check(&before, who);
		_exit(kbt_failed() ? KBT_EXIT_FAIL : 0);
	}
	return pid;
}

int kbt_reap(pid_t pid, int timeout_ms)
{
	int64_t deadline = kbt_now_ms() + timeout_ms;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r < 0)
			return -errno;
		if (r == pid)
			break;
		if (kbt_now_ms() >= deadline)
			return -ETIMEDOUT;
		kbt_msleep(2);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int kbt_kill(pid_t pid)
{
	kill(pid, SIGKILL);
	return kbt_reap(pid, 10000);
}

void kbt_chan_init(struct kbt_chan *c)
{
	if (pipe2(c->up, O_CLOEXEC) || pipe2(c->down, O_CLOEXEC))
		kbt_fail(__FILE__, __LINE__, true, "pipe: %s", strerror(errno));
	c->parent = getpid();
}

void kbt_chan_close(struct kbt_chan *c)
{
	close(c->up[0]);
	close(c->up[1]);
	close(c->down[0]);
	close(c->down[1]);
}

int kbt_send(struct kbt_chan *c, const void *buf, size_t n)
{
	int fd = getpid() == c->parent ? c->down[1] : c->up[1];
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int kbt_recv(struct kbt_chan *c, void *buf, size_t n, int timeout_ms)
{
	int fd = getpid() == c->parent ? c->up[0] : c->down[0];
	int64_t deadline = kbt_now_ms() + timeout_ms;
	char *p = buf;

	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = deadline - kbt_now_ms();
		ssize_t r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int kbt_signal(struct kbt_chan *c, char token)
{
	return kbt_send(c, &token, 1);
}

int kbt_wait(struct kbt_chan *c, char token, int timeout_ms)
{
	char got;
	int ret = kbt_recv(c, &got, 1, timeout_ms);

	if (ret)
		return ret;
	return got == token ? 0 : -EPROTO;
}

/* ---------------------------------------------------------------- */
/* kernel log                                                        */
/* ---------------------------------------------------------------- */

/*
 * What counts as a splat: the substrings of tests/vm/scan-kernel-log.sh's
 * patterns (the host scans the whole console log with those; this check
 * charges a report to the test that made it).
 */
static const char *const kbt_splats[] = {
	"BUG:", "kernel BUG at", "WARNING:", "Oops", "invalid opcode:",
	"general protection", "Kernel panic", "KASAN", "UBSAN",
	"possible circular locking", "possible recursive locking",
	"inconsistent lock state", "hung task", "blocked for more than",
	"soft lockup", "hard LOCKUP", "rcu: INFO:", "self-detected stall",
	"detected stall", "list_add corruption", "list_del corruption",
	"list_add double add",
	"refcount_t:", "(Not tainted): ", "(Tainted: ", "Redzone overwritten",
	"Poison overwritten", "Padding overwritten", "padding overwritten",
	"Freepointer corrupt", "Object already free", "Invalid object pointer",
	"Objects remaining in", "Call Trace", "unreferenced object",
};

/* Open /dev/kmsg positioned at its end; -1 if there is none. */
static int kbt_kmsg_mark(const char *test)
{
	char line[256];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int wfd;

	if (fd < 0)
		return -1;
	lseek(fd, 0, SEEK_END);
	wfd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (wfd >= 0) {
		int n = snprintf(line, sizeof(line), "kbinder-test: start %s/%s\n",
				 kbt_suite_name, test);

		if (write(wfd, line, (size_t)n) < 0)
			perror("kmsg");
		close(wfd);
	}
	return fd;
}

/* Read every record logged since the mark (see harness.h). */
bool kbt_kmsg_scan(int fd, char *why, size_t size)
{
	char rec[2048];
	bool found = false, dump_ok = false, header = false;

	if (fd < 0)
		return false;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		const char *msg;
		size_t i;

		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		/*
		 * See kbt_expect_stack_dump(): in the window, the trace of a
		 * plain dump_stack() (after its "CPU: N PID: N Comm: ..." and
		 * "Hardware name:" records) passes; nothing else does.
		 */
		if (strstr(msg, "kbinder-test: expect stack dump")) {
			dump_ok = true;
			header = false;
		} else if (strstr(msg, "kbinder-test: expect end")) {
			dump_ok = false;
		}
		if (!strncmp(msg, "CPU: ", 5) && strstr(msg, " PID: ") &&
		    strstr(msg, " Comm: ")) {
			header = true;
			continue;
		}
		if (!strncmp(msg, "Hardware name: ", 15))
			continue;
		/* 6.12 names the taint flags on a line of their own */
		if (header && !strncmp(msg, "Tainted: [", 10))
			continue;
		if (dump_ok && header && strstr(msg, "Call Trace")) {
			header = false;
			continue;
		}
		header = false;
		for (i = 0; i < sizeof(kbt_splats) / sizeof(kbt_splats[0]); i++) {
			if (!strstr(msg, kbt_splats[i]))
				continue;
			fprintf(stderr, "  kernel log: %s", msg);
			if (!found) {
				why[0] = 0;
				kbt_append(why, size, "kernel log: ");
				kbt_append(why, size, msg);
				kbt_oneline(why);
			}
			found = true;
			break;
		}
	}
	close(fd);
	return found;
}

/* ---------------------------------------------------------------- */
/* runner                                                            */
/* ---------------------------------------------------------------- */

static FILE *kbt_results;

static void kbt_result(const char *verdict, const char *test, const char *why)
{
	char line[KBT_WHY_MAX + 256];

	if (why && *why)
		snprintf(line, sizeof(line), "%s %s/%s: %s\n", verdict,
			 kbt_suite_name, test, why);
	else
		snprintf(line, sizeof(line), "%s %s/%s\n", verdict,
			 kbt_suite_name, test);
	fputs(line, stdout);
	fflush(stdout);
	if (kbt_results) {
		fputs(line, kbt_results);
		fflush(kbt_results);
	}
}

/*
 * Send SIGKILL to every child of this process. The runner is a child
 * subreaper, so whatever a test left behind (its process group, a child
 * that moved to a group or session of its own, their orphans) is a child of
 * the runner once its parent is gone. Return: how many were signalled.
 */
static int kbt_kill_children(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[64], stat[512];
		const char *p;
		ssize_t len;
		int fd, ppid;
		long pid = strtol(e->d_name, NULL, 10);

		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (len <= 0)
			continue;
		stat[len] = 0;
		p = strrchr(stat, ')');	/* the command name may hold anything */
		if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1 || ppid != self)
			continue;
		kill((pid_t)pid, SIGKILL);
		n++;
	}
	closedir(d);
	return n;
}

/*
 * Kill and reap everything left of the test: its process group, and every
 * other descendant (processes that left the group, and their orphans, which
 * the subreaper runner inherits as they are killed).
 */
static void kbt_cleanup(pid_t pgid)
{
	int64_t deadline = kbt_now_ms() + 5000;

	kill(-pgid, SIGKILL);
	while (kbt_now_ms() < deadline) {
		pid_t r = waitpid(-1, NULL, WNOHANG);

		if (r < 0 && errno == ECHILD)
			break;
		if (r > 0)
			continue;
		if (!kbt_kill_children())
			kbt_msleep(2);
		else
			kbt_msleep(1);
	}
}

/*
 * The program's own time limit. The guest runner gives every program
 * KBT_PROGRAM_TIMEOUT seconds and then kills it (SIGTERM, then SIGKILL to
 * its whole session). So that a hanging test is reported by its own
 * timeout, with its hang report and cleanup, rather than by that kill, no
 * test may run past the program's deadline minus KBT_PROGRAM_MARGIN_MS;
 * once the budget is spent, the tests not yet run are reported as FAIL
 * (not run), so the count of results never shrinks silently. SIGTERM (the
 * runner's kill) ends the running test the same way.
 */
#define KBT_PROGRAM_MARGIN_MS 10000
static int64_t kbt_program_deadline = -1;	/* ms, -1: none */
static int kbt_program_budget;			/* s, for messages */
static volatile sig_atomic_t kbt_terminated;

static void kbt_on_term(int sig)
{
	kbt_terminated = sig;
}

static void kbt_program_limits(void)
{
	const char *env = getenv("KBT_PROGRAM_TIMEOUT");
	struct sigaction sa;
	long secs = env ? strtol(env, NULL, 10) : 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kbt_on_term;
	sigaction(SIGTERM, &sa, NULL);
	if (secs <= 0)
		return;
	kbt_program_budget = (int)secs;
	kbt_program_deadline = kbt_now_ms() + secs * 1000 -
			       (secs * 1000 > 2 * KBT_PROGRAM_MARGIN_MS ?
				KBT_PROGRAM_MARGIN_MS : secs * 250);
}

/* Run one test. Return: 0 passed, 1 failed, 2 skipped. */
static int kbt_run_one(struct kbt_test *t)
{
	char why[KBT_WHY_MAX], splat_why[KBT_WHY_MAX];
	int64_t deadline;
	int kmsg, status = 0;
	bool timed_out = false, budget_out = false, splat;
	pid_t pid;

	memset(kbt_state, 0, sizeof(*kbt_state));
	kbt_current = t->name;
	why[0] = 0;
	kmsg = kbt_kmsg_mark(t->name);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		kbt_result("FAIL", t->name, "fork failed");
		return 1;
	}
	if (pid == 0) {
		struct kbt_fd_snap before;
		int ret;

		kbt_state->body = getpid();
		setpgid(0, 0);
		signal(SIGPIPE, SIG_IGN);
		signal(SIGTERM, SIG_DFL);
		/* after all harness setup, so its own fds are "before" */
		ret = kbt_fd_snapshot(&before);
		if (ret)
			kbt_fail(__FILE__, __LINE__, true,
				 "fd snapshot of the test body: %s",
				 kbt_strerr(ret));
		t->fn();
		/* not a process the body forked that fell through its code */
		if (getpid() == kbt_state->body)
			__atomic_store_n(&kbt_state->returned, 1, __ATOMIC_SEQ_CST);
		kbt_fd_check(&before, "test body");
		_exit(kbt_failed() ? KBT_EXIT_FAIL : 0);
	}
	setpgid(pid, pid);
	deadline = kbt_now_ms() + (int64_t)t->timeout * 1000;
	if (kbt_program_deadline >= 0 && kbt_program_deadline < deadline) {
		deadline = kbt_program_deadline;
		budget_out = true;
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			status = -1;
			break;
		}
		if (kbt_now_ms() >= deadline || kbt_terminated) {
			timed_out = true;
			kbt_report_hang(pid);
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		kbt_msleep(2);
	}
	kbt_cleanup(pid);

	splat = kbt_kmsg_scan(kmsg, splat_why, sizeof(splat_why));
	if (timed_out && kbt_terminated)
		snprintf(why, sizeof(why),
			 "killed by the program timeout (signal %d) before its own %d s",
			 (int)kbt_terminated, t->timeout);
	else if (timed_out && budget_out)
		snprintf(why, sizeof(why),
			 "timed out: the program's %d s budget ran out before the test's own %d s",
			 kbt_program_budget, t->timeout);
	else if (timed_out)
		snprintf(why, sizeof(why), "timed out after %d s", t->timeout);
	else if (kbt_state->failed)
		snprintf(why, sizeof(why), "%s", kbt_state->why);
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == KBT_EXIT_SKIP &&
		 kbt_state->skipped && !splat) {
		kbt_result("SKIP", t->name, kbt_state->why);
		return 2;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == KBT_EXIT_SKIP &&
		   !kbt_state->skipped)
		snprintf(why, sizeof(why),
			 "the test body exited with status %d without SKIP()",
			 KBT_EXIT_SKIP);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		 !kbt_state->returned)
		snprintf(why, sizeof(why),
			 "the test body exited (status 0) without returning: what followed the exit never ran");
	else if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 &&
					 WEXITSTATUS(status) != KBT_EXIT_SKIP))
		snprintf(why, sizeof(why), "exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (splat) {
		if (why[0])
			kbt_append(why, sizeof(why), "; ");
		kbt_append(why, sizeof(why), splat_why);
	}
	if (!why[0]) {
		kbt_result("PASS", t->name, NULL);
		return 0;
	}
	kbt_result("FAIL", t->name, why);
	return 1;
}

static bool kbt_selected(const char *name, int argc, char **argv, int first)
{
	int i;

	if (first >= argc)
		return true;
	for (i = first; i < argc; i++)
		if (!fnmatch(argv[i], name, 0))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *results = getenv("KBINDER_RESULTS");
	const char *slash = strrchr(argv[0], '/');
	struct kbt_test *t;
	int first = 1, failed = 0, passed = 0, skipped = 0;

	kbt_suite_name = slash ? slash + 1 : argv[0];
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s [-l] [GLOB...]\n"
		       "  run the tests of suite %s (those matching a GLOB)\n"
		       "  -l  list the tests\n"
		       "env: BINDER_DEVICE (default /dev/binder), KBINDER_DRIVER\n"
		       "     (kbinder|reference), KBINDER_RESULTS (append result lines)\n",
		       argv[0], kbt_suite_name);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "-l")) {
		for (t = kbt_tests; t; t = t->next)
			printf("%s/%s\n", kbt_suite_name, t->name);
		return 0;
	}
	kbt_state = mmap(NULL, sizeof(*kbt_state), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kbt_state == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (results && *results)
		kbt_results = fopen(results, "ae");
	/* orphans of a test become ours, so nothing outlives its test */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	setvbuf(stdout, NULL, _IOLBF, 0);

	kbt_program_limits();
	for (t = kbt_tests; t; t = t->next) {
		if (!kbt_selected(t->name, argc, argv, first))
			continue;
		if (kbt_terminated || (kbt_program_deadline >= 0 &&
				       kbt_now_ms() >= kbt_program_deadline)) {
			kbt_result("FAIL", t->name, kbt_terminated ?
				   "not run: the program was killed (timeout)" :
				   "not run: the program's time budget ran out");
			failed++;
			continue;
		}
		switch (kbt_run_one(t)) {
		case 0:
			passed++;
			break;
		case 1:
			failed++;
			break;
		default:
			skipped++;
			break;
		}
	}
	fprintf(stderr, "%s: %d passed, %d failed, %d skipped\n",
		kbt_suite_name, passed, failed, skipped);
	if (kbt_results)
		fclose(kbt_results);
	return failed ? 1 : 0;
}
