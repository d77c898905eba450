// SPDX-License-Identifier: Apache-2.0
/*
 * One test's life: a forked body in a process group of its own, under the
 * test's timeout and the program's budget; at the end its group and every
 * process it left are killed (the runner is a child subreaper), the kernel
 * log since its start marker is scanned, and the verdict is reported. See
 * harness.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

struct kbt_shared *kbt_state;

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


/*
 * The test body's process: its own group, the fd snapshot taken after all
 * of the harness's setup (so the harness's own fds are in "before"), the
 * body, then the fd check. Never returns.
 */
static void __attribute__((noreturn)) kbt_body(struct kbt_test *t)
{
	struct kbt_fd_snap before;
	int ret;

	kbt_state->body = getpid();
	setpgid(0, 0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	ret = kbt_fd_snapshot(&before);
	if (ret)
		kbt_fail(__FILE__, __LINE__, true,
			 "fd snapshot of the test body: %s", kbt_strerr(ret));
	t->fn();
	/* not a process the body forked that fell through its code */
	if (getpid() == kbt_state->body)
		__atomic_store_n(&kbt_state->returned, 1, __ATOMIC_SEQ_CST);
	kbt_fd_check(&before, "test body");
	_exit(kbt_failed() ? KBT_EXIT_FAIL : 0);
}

/*
 * struct kbt_end - how a test's body process ended.
 * @status:     its wait status (-1 if waiting failed)
 * @timed_out:  it ran past its deadline (or the program was told to stop)
 * @budget_out: the deadline was the program's, not the test's own
 */
struct kbt_end {
	int status;
	bool timed_out;
	bool budget_out;
};

/* Wait for the body @pid of @t; at its deadline report where it hung and kill it. */
static struct kbt_end kbt_wait_body(struct kbt_test *t, pid_t pid)
{
	struct kbt_end end = { 0, false, false };
	int64_t deadline = kbt_now_ms() + (int64_t)t->timeout * 1000;

	if (kbt_program_deadline >= 0 && kbt_program_deadline < deadline) {
		deadline = kbt_program_deadline;
		end.budget_out = true;
	}
	for (;;) {
		pid_t r = waitpid(pid, &end.status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			end.status = -1;
			break;
		}
		if (kbt_now_ms() >= deadline || kbt_terminated) {
			end.timed_out = true;
			kbt_report_hang(pid);
			kill(-pid, SIGKILL);
			waitpid(pid, &end.status, 0);
			break;
		}
		kbt_msleep(2);
	}
	return end;
}

/*
 * kbt_verdict() - why @t failed, into @why ("" if it did not); true if it
 * was skipped instead (and there was no splat: @splat).
 */
static bool kbt_verdict(const struct kbt_test *t, const struct kbt_end *e,
			bool splat, char *why, size_t size)
{
	int st = e->status;
	bool exited = WIFEXITED(st);
	int code = exited ? WEXITSTATUS(st) : -1;

	why[0] = 0;
	if (e->timed_out && kbt_terminated)
		snprintf(why, size,
			 "killed by the program timeout (signal %d) before its own %d s",
			 (int)kbt_terminated, t->timeout);
	else if (e->timed_out && e->budget_out)
		snprintf(why, size,
			 "timed out: the program's %d s budget ran out before the test's own %d s",
			 kbt_program_budget, t->timeout);
	else if (e->timed_out)
		snprintf(why, size, "timed out after %d s", t->timeout);
	else if (kbt_state->failed)
		snprintf(why, size, "%s", kbt_state->why);
	else if (WIFSIGNALED(st))
		snprintf(why, size, "killed by signal %d (%s)",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (code == KBT_EXIT_SKIP && kbt_state->skipped && !splat)
		return true;
	else if (code == KBT_EXIT_SKIP && !kbt_state->skipped)
		snprintf(why, size,
			 "the test body exited with status %d without SKIP()",
			 KBT_EXIT_SKIP);
	else if (code == 0 && !kbt_state->returned)
		snprintf(why, size,
			 "the test body exited (status 0) without returning: what followed the exit never ran");
	else if (!exited || (code != 0 && code != KBT_EXIT_SKIP))
		snprintf(why, size, "exited with status %d", code);
	return false;
}

int kbt_run_one(struct kbt_test *t)
{
	char why[KBT_WHY_MAX], splat_why[KBT_WHY_MAX];
	struct kbt_end end;
	bool splat;
	int kmsg;
	pid_t pid;

	memset(kbt_state, 0, sizeof(*kbt_state));
	kbt_current = t->name;
	kmsg = kbt_kmsg_mark(t->name);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		kbt_result("FAIL", t->name, "fork failed");
		return 1;
	}
	if (pid == 0)
		kbt_body(t);
	setpgid(pid, pid);
	end = kbt_wait_body(t, pid);
	kbt_cleanup(pid);

	splat = kbt_kmsg_scan(kmsg, splat_why, sizeof(splat_why));
	if (kbt_verdict(t, &end, splat, why, sizeof(why))) {
		kbt_result("SKIP", t->name, kbt_state->why);
		return 2;
	}
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

const char *kbt_not_run_why(void)
{
	if (kbt_terminated)
		return "not run: the program was killed (timeout)";
	if (kbt_program_deadline >= 0 && kbt_now_ms() >= kbt_program_deadline)
		return "not run: the program's time budget ran out";
	return NULL;
}

int kbt_run_setup(void)
{
	kbt_state = mmap(NULL, sizeof(*kbt_state), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (kbt_state == MAP_FAILED) {
		kbt_state = NULL;
		return -errno;
	}
	/* orphans of a test become ours, so nothing outlives its test */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	kbt_program_limits();
	return 0;
}
