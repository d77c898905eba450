// SPDX-License-Identifier: Apache-2.0
/*
 * Where a hung test was: before the harness kills a test that ran out of
 * time, it prints, for every thread of every process in the test's process
 * group, its state, the system call it is blocked in and its kernel stack
 * (/proc/<pid>/task/<tid>/{stat,syscall,stack}; the stack needs root, which
 * the guest runner has). A timeout then says where it hung, not only that
 * it did. Part of the harness library, not a test program.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "harness.h"

/* Read a small /proc file into @buf (NUL-terminated); "" if unreadable. */
static void kbt_hang_read(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = 0;
}

/*
 * The fields of /proc/.../stat after the command name, which is in
 * parentheses and may itself contain spaces and parentheses.
 */
static const char *kbt_hang_after_comm(const char *stat, char *comm,
				       size_t size)
{
	const char *open = strchr(stat, '('), *close = strrchr(stat, ')');
	size_t n;

	if (!open || !close || close < open)
		return NULL;
	n = (size_t)(close - open - 1);
	if (n >= size)
		n = size - 1;
	memcpy(comm, open + 1, n);
	comm[n] = 0;
	return close + 1;
}

/* Process group of @pid, or -1. */
static pid_t kbt_hang_pgrp(const char *pid)
{
	char path[300], stat[512], comm[64];
	const char *rest;
	int ppid, pgrp;
	char state;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	kbt_hang_read(path, stat, sizeof(stat));
	rest = kbt_hang_after_comm(stat, comm, sizeof(comm));
	if (!rest || sscanf(rest, " %c %d %d", &state, &ppid, &pgrp) != 3)
		return -1;
	return pgrp;
}

static void kbt_hang_thread(const char *pid, const char *tid)
{
	char path[600], stat[512], comm[64], sys[128], stack[2048];
	const char *rest;
	char state = '?';
	char *line, *save;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	kbt_hang_read(path, stat, sizeof(stat));
	rest = kbt_hang_after_comm(stat, comm, sizeof(comm));
	if (rest)
		sscanf(rest, " %c", &state);
	snprintf(path, sizeof(path), "/proc/%s/task/%s/syscall", pid, tid);
	kbt_hang_read(path, sys, sizeof(sys));
	sys[strcspn(sys, "\n")] = 0;
	/* Only the syscall number: its arguments could be kernel-chosen. */
	sys[strcspn(sys, " ")] = 0;
	printf("  [hang] pid %s tid %s (%s) state %c syscall %s\n", pid, tid,
	       rest ? comm : "?", state, sys[0] ? sys : "?");
	snprintf(path, sizeof(path), "/proc/%s/task/%s/stack", pid, tid);
	kbt_hang_read(path, stack, sizeof(stack));
	for (line = strtok_r(stack, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("  [hang]     %s\n", line);
}

void kbt_report_hang(pid_t pgid)
{
	DIR *procs = opendir("/proc"), *tasks;
	struct dirent *p, *t;
	char path[300];

	if (!procs)
		return;
	printf("  [hang] threads of process group %d:\n", (int)pgid);
	while ((p = readdir(procs))) {
		if (!isdigit((unsigned char)p->d_name[0]) ||
		    kbt_hang_pgrp(p->d_name) != pgid)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		tasks = opendir(path);
		if (!tasks)
			continue;
		while ((t = readdir(tasks)))
			if (isdigit((unsigned char)t->d_name[0]))
				kbt_hang_thread(p->d_name, t->d_name);
		closedir(tasks);
	}
	closedir(procs);
	fflush(stdout);
}
