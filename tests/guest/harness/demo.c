// SPDX-License-Identifier: Apache-2.0
/*
 * The harness's own tests run their program again with demo tests that
 * exist only in that copy (a leak, a hang, an exit before the
 * assertions...) and check the result lines it prints. See harness.h,
 * "demo tests".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

void kbt_register_demos(const char *env, struct kbt_test *demos, size_t n)
{
	size_t i;

	if (!getenv(env))
		return;
	for (i = 0; i < n; i++)
		kbt_register(&demos[i]);
}

/* The copy: stdout into @out_fd, stderr (the demos' diagnostics) dropped. */
static void __attribute__((noreturn))
kbt_demo_exec(const char *env, const char *const *globs, int budget, int out_fd)
{
	char *argv[8] = { (char *)kbt_suite() };
	int devnull = open("/dev/null", O_WRONLY);
	char budget_s[16];
	size_t i;

	for (i = 0; globs[i] && i < 6; i++)
		argv[i + 1] = (char *)globs[i];
	dup2(out_fd, 1);
	if (devnull >= 0)
		dup2(devnull, 2);
	unsetenv("KBINDER_RESULTS");	/* no demo FAIL in the run's tally */
	setenv(env, "1", 1);
	snprintf(budget_s, sizeof(budget_s), "%d", budget);
	if (budget)
		setenv("KBT_PROGRAM_TIMEOUT", budget_s, 1);
	else
		unsetenv("KBT_PROGRAM_TIMEOUT");
	execv("/proc/self/exe", argv);
	_exit(127);
}

int kbt_demo_run(const char *env, const char *const *globs, int budget,
		 int term_ms, char *out, size_t size)
{
	int p[2];
	pid_t pid;

	ASSERT_OK(pipe2(p, O_CLOEXEC));
	fflush(NULL);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		kbt_demo_exec(env, globs, budget, p[1]);
	close(p[1]);
	if (term_ms) {
		kbt_msleep(term_ms);
		kill(pid, SIGTERM);
	}
	kbt_read_all(p[0], out, size);
	close(p[0]);
	return kbt_reap(pid, 20000);
}

void kbt_demo_result(const char *env, const char *name, char *line,
		     size_t size)
{
	const char *const globs[] = { name, NULL };
	char out[4096], *l, *save;

	ASSERT_GE(kbt_demo_run(env, globs, 0, 0, out, sizeof(out)), 0);
	line[0] = 0;
	for (l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "PASS ", 5) || !strncmp(l, "FAIL ", 5) ||
		    !strncmp(l, "SKIP ", 5))
			snprintf(line, size, "%s", l);
	if (!line[0])
		kbt_fail(__FILE__, __LINE__, true, "demo %s: no result line",
			 name);
}

void kbt_expect_demo_at(const char *file, int line, const char *env,
			const char *name, const char *want)
{
	char got[1024];

	kbt_demo_result(env, name, got, sizeof(got));
	kbt_asserted();
	if (strcmp(got, want))
		kbt_fail(file, line, false, "result line \"%s\", want \"%s\"",
			 got, want);
}

void kbt_expect_demo_match_at(const char *file, int line, const char *env,
			      const char *name, const char *glob)
{
	char got[1024];

	kbt_demo_result(env, name, got, sizeof(got));
	kbt_asserted();
	if (fnmatch(glob, got, 0))
		kbt_fail(file, line, false, "result line \"%s\", want one like \"%s\"",
			 got, glob);
}
