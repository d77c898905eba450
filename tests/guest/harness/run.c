// SPDX-License-Identifier: Apache-2.0
/*
 * One test's life: a forked body in a process group of its own, under the
 * test's timeout and the program's budget; at the end a process it left
 * running fails it, its group and every process it left are killed and
 * reaped (the runner is a child subreaper; one that will not die fails it
 * too), the kernel log since its start marker is scanned, and the verdict
 * is reported. See harness.h.
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
/* How long the cleanup may take (KBT_CLEANUP_MS: the harness's own tests). */
static int kbt_cleanup_ms = 10000;

/*
 * The processes left of a test whose body (process group @pgid) has ended:
 * every process of that group, and every child of this process (the
 * runner is a child subreaper, so whatever a test left behind, its group,
 * a child that moved to a group or session of its own, their orphans, is
 * a child of the runner once its parent is gone). Zombies do not count.
 * @kill:  SIGKILL each one found
 * @names: if not NULL, gets "pid(comm, state X) ..." of those found
 * Return: how many were found.
 */
static int kbt_test_procs(pid_t pgid, bool kill_them, char *names, size_t size)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();
	int n = 0;

	if (names && size)
		names[0] = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[64], stat[512], comm[64], state;
		const char *open_paren, *p;
		ssize_t len;
		int fd, ppid, pgrp;
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
		/* the command name may hold anything */
		open_paren = strchr(stat, '(');
		p = strrchr(stat, ')');
		if (!open_paren || !p ||
		    sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
			continue;
		if ((ppid != self && pgrp != pgid) || state == 'Z' || state == 'X')
			continue;
		if (kill_them)
			kill((pid_t)pid, SIGKILL);
		if (names) {
			char one[128];
			int clen = (int)(p - open_paren - 1);

			snprintf(comm, sizeof(comm), "%.*s", clen < 63 ? clen : 63,
				 open_paren + 1);
			snprintf(one, sizeof(one), "%s%ld(%s, state %c)",
				 n ? " " : "", pid, comm, state);
			kbt_append(names, size, one);
		}
		n++;
	}
	closedir(d);
	return n;
}

/* Reap every child that has ended. Return: false once there is none left. */
static bool kbt_reap_ended(void)
{
	for (;;) {
		pid_t r = waitpid(-1, NULL, WNOHANG);

		if (r < 0 && errno == ECHILD)
			return false;
		if (r <= 0)
			return true;
	}
}

/*
 * After a body that returned: a process of the test still running (not a
 * kbt_fork() child: kbt_children_check() saw to those, but a plain fork(),
 * a program it started, an orphan) fails it, once it had
 * KBT_CHILD_GRACE_MS to end by itself. The cleanup kills it.
 */
static void kbt_check_leftovers(pid_t pgid)
{
	int64_t deadline = kbt_now_ms() + kbt_grace_ms();
	char names[KBT_WHY_MAX];
	int n;

	for (;;) {
		kbt_reap_ended();
		n = kbt_test_procs(pgid, false, names, sizeof(names));
		if (!n || kbt_now_ms() >= deadline)
			break;
		kbt_msleep(5);
	}
	if (n)
		kbt_fail_plain("left %d process(es) running after the test body returned: %s (reap or kill what the test starts)",
			       n, names);
}

/*
 * Kill and reap everything left of the test: its process group, and every
 * other descendant (processes that left the group, and their orphans, which
 * the subreaper runner inherits as they are killed). What is still there
 * after KBT_CLEANUP_MS (a process the kernel does not let die: stuck in
 * the driver, frozen) is named, with its state, in @why.
 * Return: true if something could not be ended (the next test starts
 * anyway, and the one that left it fails).
 */
static bool kbt_cleanup(pid_t pgid, char *why, size_t size)
{
	int64_t deadline = kbt_now_ms() + kbt_cleanup_ms;
	char names[KBT_WHY_MAX];
	int n;

	kill(-pgid, SIGKILL);
	while (kbt_reap_ended()) {
		if (kbt_now_ms() >= deadline) {
			n = kbt_test_procs(pgid, false, names, sizeof(names));
			if (!n)
				return false;
			snprintf(why, size,
				 "could not end %d process(es) of the test within %d ms of SIGKILL: ",
				 n, kbt_cleanup_ms);
			kbt_append(why, size, names);
			fprintf(stderr, "  [%s/%s] %s\n", kbt_suite_name,
				kbt_current, why);
			return true;
		}
		kbt_msleep(kbt_test_procs(pgid, true, NULL, 0) ? 1 : 2);
	}
	return false;
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
	const char *env;
	struct sigaction sa;
	long secs;

	env = getenv("KBT_CLEANUP_MS");
	if (env && strtol(env, NULL, 10) > 0)
		kbt_cleanup_ms = (int)strtol(env, NULL, 10);
	env = getenv("KBT_PROGRAM_TIMEOUT");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kbt_on_term;
	sigaction(SIGTERM, &sa, NULL);
	secs = env ? strtol(env, NULL, 10) : 0;
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
	kbt_children_check("the test body");
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
 * was skipped instead (and the end checks found nothing: @splat).
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
	else if (code == 0 && !kbt_state->asserts && !kbt_state->end_checks)
		snprintf(why, size,
			 "the test made no assertion: it checked nothing (assert what it checks, or say END_CHECKS_ARE_THE_VERDICT() and why)");
	else if (!exited || (code != 0 && code != KBT_EXIT_SKIP))
		snprintf(why, size, "exited with status %d", code);
	return false;
}

int kbt_run_one(struct kbt_test *t)
{
	char why[KBT_WHY_MAX], splat_why[KBT_WHY_MAX], stuck_why[KBT_WHY_MAX];
	struct kbt_end end;
	bool splat, stuck;
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
	if (!end.timed_out && kbt_state->returned)
		kbt_check_leftovers(pid);
	stuck = kbt_cleanup(pid, stuck_why, sizeof(stuck_why));

	splat = kbt_kmsg_scan(kmsg, splat_why, sizeof(splat_why));
	if (kbt_verdict(t, &end, splat || stuck, why, sizeof(why))) {
		kbt_result("SKIP", t->name, kbt_state->why);
		return 2;
	}
	if (splat) {
		if (why[0])
			kbt_append(why, sizeof(why), "; ");
		kbt_append(why, sizeof(why), splat_why);
	}
	if (stuck) {
		if (why[0])
			kbt_append(why, sizeof(why), "; ");
		kbt_append(why, sizeof(why), stuck_why);
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
