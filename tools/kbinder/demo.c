// SPDX-License-Identifier: Apache-2.0
/*
 * `kbinder demo`: the whole of binder in a few steps. A service manager and
 * an echo service run as child processes; this process looks the service up,
 * calls it, asks to be told of its death, kills it and waits for the news,
 * calls the dead service anyway and shows the driver's netlink report of
 * that failed call (mainline 6.18; drivers without it are said to be),
 * then waits until the service manager has forgotten the service. All of
 * it is protocol: nothing is read from debugfs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

#define DEMO_SERVICE	"kbinder.demo.echo"
#define DEMO_COOKIE	0x1d
#define DEMO_TEXT	"hello through binder"
/* How long the service manager may take to hear of the death. */
#define DEMO_FORGET_MS	TOOL_TIMEOUT_MS

#define STEP(...) printf("\n>> " __VA_ARGS__)

static const char usage[] = "kbinder [-d DEVICE] [-a LEVEL] demo\n"
	"  A service manager, an echo service and a client in one run, with a\n"
	"  death notification and the report of a call to the dead service.\n";

/* The demo's parts: its children and its own binder thread. */
struct demo {
	const struct tool *tool;
	pid_t svcmgr, service;
	struct kbinder_proc proc;
	struct kbinder_thread t;
	struct kbinder_sm sm;
	uint32_t handle;
};

/* A child running the service manager (@name NULL) or the echo service. */
static int child_main(const struct tool *tool, const char *name, int ready_fd)
{
	if (!name)
		return servicemanager_run(tool, ready_fd, true);
	return echo_serve(tool, name, ready_fd);
}

/* Fork a child running child_main(); its pid once it says it is ready. */
static pid_t spawn(const struct tool *tool, const char *name)
{
	int fds[2];
	char c;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(fds[0]);
		_exit(child_main(tool, name, fds[1]) ? 1 : 0);
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

static void stop(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = -1;
}

static int print_name(const char *name, void *arg)
{
	(*(int *)arg)++;
	printf("    %s\n", name);
	return 0;
}

static int list_services(struct demo *d)
{
	int n = 0, err = kbinder_sm_list(&d->sm, KBINDER_DUMP_FLAG_PRIORITY_ALL,
					 print_name, &n);

	if (!err && !n)
		printf("    (none)\n");
	return tool_sm_error(err, "list");
}

/* Look the service up and call it. */
static int demo_call(struct demo *d)
{
	char answer[256];
	int err;

	STEP("look up '%s' and call it\n", DEMO_SERVICE);
	err = tool_lookup(d->tool, &d->t, DEMO_SERVICE, &d->handle);
	if (err)
		return err;
	printf("    got handle %u\n", d->handle);
	err = tool_error(echo_call(d->tool, &d->t, d->handle, DEMO_TEXT, answer,
				   sizeof(answer)), "call");
	if (err)
		return err;
	printf("    sent \"%s\", got back \"%s\"\n", DEMO_TEXT, answer);
	if (strcmp(answer, DEMO_TEXT)) {
		fprintf(stderr, "kbinder: the echo came back wrong\n");
		return -EBADMSG;
	}
	return 0;
}

/* Ask for the service's death notice, kill it, wait for the news. */
static int demo_death(struct demo *d)
{
	struct kbinder_return ret;
	int err;

	STEP("ask for a death notification, then kill the service (pid %d)\n",
	     (int)d->service);
	err = tool_error(kbinder_thread_request_death(&d->t, d->handle, DEMO_COOKIE),
			 "request death");
	if (err)
		return err;
	stop(&d->service);
	err = kbinder_thread_wait_for(&d->t, BR_DEAD_BINDER, &ret, NULL, NULL,
				      TOOL_TIMEOUT_MS);
	if (!err && ret.u.cookie != DEMO_COOKIE)
		err = -EBADMSG;
	if (tool_error(err, "wait for BR_DEAD_BINDER"))
		return err;
	printf("    BR_DEAD_BINDER arrived for our cookie\n");
	return kbinder_thread_dead_binder_done(&d->t, ret.u.cookie);
}

/*
 * A call to a dead service gets BR_DEAD_REPLY; a driver with transaction
 * reports also tells whoever listens on the "binder" netlink family.
 */
static int demo_call_the_dead(struct demo *d)
{
	struct kbinder_report_listener l;
	struct kbinder_report r;
	char answer[64];
	int listening, err;

	STEP("call the dead service anyway\n");
	listening = kbinder_report_open(&l);
	err = echo_call(d->tool, &d->t, d->handle, "anyone there?", answer, sizeof(answer));
	if (err != (int)BR_DEAD_REPLY) {
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

/* The service manager hears of the death on its own thread: wait for it. */
static int demo_forgotten(struct demo *d)
{
	int64_t deadline = tool_now_ms() + DEMO_FORGET_MS;
	uint32_t handle;
	int err;

	STEP("services the service manager knows now:\n");
	while ((err = kbinder_sm_check(&d->sm, DEMO_SERVICE, &handle)) == 0) {
		kbinder_thread_ref(&d->t, BC_RELEASE, handle);
		if (tool_now_ms() > deadline)
			return tool_error(-ETIMEDOUT, "the service manager still knows '%s'",
					  DEMO_SERVICE);
		usleep(10 * 1000);
	}
	if (err != -ENOENT)
		return tool_error(err, "look up '%s'", DEMO_SERVICE);
	return list_services(d);
}

/* The client's part, once both children serve. */
static int demo_client(struct demo *d)
{
	int err;

	err = tool_connect(d->tool, &d->proc, &d->t);
	if (err)
		return err;
	err = tool_sm(d->tool, &d->sm, &d->t);
	if (!err) {
		STEP("services the service manager knows:\n");
		err = list_services(d);
	}
	if (!err)
		err = demo_call(d);
	if (!err)
		err = demo_death(d);
	if (!err)
		err = demo_call_the_dead(d);
	if (d->handle)
		kbinder_thread_ref(&d->t, BC_RELEASE, d->handle);
	if (!err)
		err = demo_forgotten(d);
	kbinder_proc_close(&d->proc);
	return err;
}

int cmd_demo(const struct tool *tool, int argc, char **argv)
{
	struct demo d = { .tool = tool, .svcmgr = -1, .service = -1 };
	int err = tool_operands(argc, argv, usage, 0);

	if (err >= 0)
		return err;
	/* The device first: a missing one is one line, before any step. */
	err = tool_open(tool, &d.proc);
	if (err)
		return 1;
	kbinder_proc_close(&d.proc);
	STEP("start the service manager (context manager, handle 0)\n");
	d.svcmgr = spawn(tool, NULL);
	if (d.svcmgr < 0)
		err = tool_error((int)d.svcmgr, "start the service manager");
	if (!err) {
		STEP("start an echo service registered as '%s'\n", DEMO_SERVICE);
		d.service = spawn(tool, DEMO_SERVICE);
		if (d.service < 0)
			err = tool_error((int)d.service, "start the echo service");
	}
	if (!err)
		err = demo_client(&d);
	stop(&d.service);
	stop(&d.svcmgr);
	printf("\n%s\n", err ? "demo FAILED" : "demo done");
	return err ? 1 : 0;
}
