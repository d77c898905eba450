// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder demo`: the whole of binder in a few steps. A service manager and
 * an echo service run as child processes; this process looks the service up,
 * calls it, asks to be told of its death, kills it and waits for the news,
 * then calls the dead service anyway and shows the driver's netlink report
 * of that failed call (mainline 6.18; drivers without it are said to be).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kbinder/report.h>

#include "kbinder_tool.h"

#define DEMO_SERVICE "kbinder.demo.echo"

/*
 * A call to a dead service gets BR_DEAD_REPLY; a driver with transaction
 * reports also tells whoever listens on the "binder" netlink family.
 */
static int call_the_dead(struct kbinder_thread *t, uint32_t handle)
{
	struct kbinder_report_listener l;
	struct kbinder_report r;
	char answer[64];
	int listening = kbinder_report_open(&l);
	int err = echo_call(t, handle, "anyone there?", answer, sizeof(answer));

	if (err != -EPIPE) {
		if (!listening)
			kbinder_report_close(&l);
		return tool_error(err ? err : -EBADMSG,
				  "a call to the dead service did not get BR_DEAD_REPLY");
	}
	printf("    BR_DEAD_REPLY\n");
	if (listening == -ENOENT) {
		printf("    (this driver sends no netlink reports: they are mainline 6.18)\n");
		return 0;
	}
	if (listening)
		return tool_error(listening, "listen for reports");
	err = kbinder_report_next(&l, &r, TOOL_TIMEOUT_MS);
	kbinder_report_close(&l);
	if (err)
		return tool_error(err, "wait for the report of the failed call");
	printf("    netlink report: ");
	report_print(&r);
	return 0;
}

/* Whether every counter in kbinder's live-object file reads 0. */
static bool live_objects_gone(void)
{
	FILE *f = fopen(KBINDER_LIVE_PATH, "r");
	char name[64];
	long n;
	bool gone = f != NULL;

	while (f && fscanf(f, "%63s %ld", name, &n) == 2)
		gone = gone && n == 0;
	if (f)
		fclose(f);
	return gone;
}

/*
 * A process's binder state is torn down after its file is released, in a
 * worker: give it up to two seconds, so the counters shown are the settled
 * ones rather than a moment of the teardown.
 */
static void wait_for_teardown(void)
{
	for (int i = 0; i < 200 && !live_objects_gone(); i++)
		usleep(10 * 1000);
}

/* Fork a child running @fn; return its pid once it says it is ready. */
static pid_t spawn(int (*fn)(const char *device, const char *arg, int ready_fd),
		   const char *device, const char *arg)
{
	int fds[2];
	char c;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(fds[0]);
		_exit(fn(device, arg, fds[1]) ? 1 : 0);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1) {
		close(fds[0]);
		waitpid(pid, NULL, 0);
		return -ECHILD;
	}
	close(fds[0]);
	return pid;
}

static int run_svcmgr(const char *device, const char *arg, int ready_fd)
{
	(void)arg;
	return svcmgr_run(device, ready_fd, true);
}

static int run_echo(const char *device, const char *name, int ready_fd)
{
	return echo_serve(device, name, ready_fd);
}

static void stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

static int print_name(const char *name, void *arg)
{
	(*(int *)arg)++;
	printf("    %s\n", name);
	return 0;
}

static int list_services(struct kbinder_thread *t)
{
	int n = 0, err = svc_list(t, print_name, &n);

	if (!err && !n)
		printf("    (none)\n");
	return err;
}

#define STEP(...) printf("\n>> " __VA_ARGS__)

int cmd_demo(const char *device)
{
	pid_t svcmgr = -1, service = -1;
	char answer[256];
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc proc;
	uint32_t handle = 0;
	int err;

	fflush(stdout);
	STEP("start the service manager (context manager, handle 0)\n");
	fflush(stdout);
	svcmgr = spawn(run_svcmgr, device, NULL);
	if (svcmgr < 0)
		return tool_error((int)svcmgr, "start the service manager");

	STEP("start an echo service registered as '%s'\n", DEMO_SERVICE);
	fflush(stdout);
	service = spawn(run_echo, device, DEMO_SERVICE);
	if (service < 0) {
		err = tool_error((int)service, "start the echo service");
		goto out;
	}

	err = kbinder_open(&proc, device, KBINDER_DEFAULT_MAP_SIZE);
	if (err) {
		tool_error(err, "open");
		goto out;
	}
	kbinder_thread_init(&t, proc.fd);

	STEP("services the service manager knows:\n");
	err = tool_error(list_services(&t), "list");
	if (err)
		goto close;

	STEP("look up '%s' and call it\n", DEMO_SERVICE);
	err = tool_error(svc_get(&t, DEMO_SERVICE, &handle), "look up");
	if (err)
		goto close;
	printf("    got handle %u\n", handle);
	err = tool_error(echo_call(&t, handle, "hello through binder",
				   answer, sizeof(answer)), "call");
	if (err)
		goto close;
	printf("    sent \"hello through binder\", got back \"%s\"\n", answer);
	if (strcmp(answer, "hello through binder")) {
		fprintf(stderr, "kbinder: the echo came back wrong\n");
		err = -EBADMSG;
		goto close;
	}

	STEP("ask for a death notification, then kill the service (pid %d)\n",
	     (int)service);
	err = tool_error(kbinder_request_death(&t, handle, 0x1d), "request death");
	if (err)
		goto close;
	stop(service);
	service = -1;
	err = kbinder_wait_for(&t, BR_DEAD_BINDER, &ret, NULL, NULL, TOOL_TIMEOUT_MS);
	if (!err && ret.u.cookie != 0x1d)
		err = -EBADMSG;
	if (tool_error(err, "wait for BR_DEAD_BINDER"))
		goto close;
	printf("    BR_DEAD_BINDER arrived for our cookie\n");
	kbinder_dead_binder_done(&t, ret.u.cookie);

	STEP("call the dead service anyway\n");
	err = call_the_dead(&t, handle);
	kbinder_ref(&t, BC_RELEASE, handle);
	if (err)
		goto close;

	STEP("services the service manager knows now:\n");
	usleep(100 * 1000);	/* it hears of the death on its own thread */
	err = tool_error(list_services(&t), "list");
close:
	kbinder_close(&proc);
out:
	stop(service);
	stop(svcmgr);
	if (!err && access(KBINDER_LIVE_PATH, R_OK) == 0) {
		wait_for_teardown();
		STEP("kbinder's live objects after everyone left:\n");
		fflush(stdout);
		cmd_stats();
	}
	printf("\n%s\n", err ? "demo FAILED" : "demo done");
	return err;
}

int cmd_stats(void)
{
	char line[256];
	FILE *f = fopen(KBINDER_LIVE_PATH, "r");

	if (!f)
		return tool_error(-errno, "%s (is kbinder loaded, debugfs mounted?)",
				  KBINDER_LIVE_PATH);
	while (fgets(line, sizeof(line), f))
		printf("    %s", line);
	fclose(f);
	return 0;
}
