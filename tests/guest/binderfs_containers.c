// SPDX-License-Identifier: Apache-2.0
/*
 * Two containers end to end: each is a new user, mount, IPC, pid and
 * network namespace (as unshare makes them), mounts its own binderfs at
 * the same path with the same device names, and runs the kbinder tool's
 * service manager, an echo service and clients at the same time as the
 * other. Each sees only its own services; the host's /dev/binder world
 * keeps its own manager throughout; killing one container leaves the
 * other working, and kbinder's live counters drop back.
 *
 * The reference driver has no binderfs: the test skips there.
 */
#include "binder_util.h"
#include "live.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define TOOL "/usr/bin/kbinder"
#define MNT "/tmp/container_binderfs"
#define DEV MNT "/binder"

/* Start the tool with @argv in the background on DEV. Return: its pid. */
static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		setenv("BINDER_DEVICE", DEV, 1);
		execv(TOOL, argv);
		_exit(127);
	}
	return pid;
}

/* Run the tool with @argv on DEV; its exit status, its output in @out. */
static int run(char *out, size_t size, char *const argv[])
{
	int pfd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	ASSERT_EQ(pipe(pfd), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		setenv("BINDER_DEVICE", DEV, 1);
		execv(TOOL, argv);
		_exit(127);
	}
	close(pfd[1]);
	while (len < (ssize_t)size - 1 &&
	       (n = read(pfd[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = 0;
	close(pfd[0]);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Run until the tool with @argv succeeds (up to 5 s). */
static void run_until_ok(char *const argv[])
{
	int64_t deadline = kbt_now_ms() + 5000;
	char out[1024];

	while (run(out, sizeof(out), argv) != 0) {
		if (kbt_now_ms() > deadline)
			kbt_fail(__FILE__, __LINE__, true, "%s %s never succeeded",
				 argv[1], argv[2] ? argv[2] : "");
		kbt_msleep(50);
	}
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

struct container {
	int id;
	struct kbt_chan chan;
	pid_t init;	/* its pid 1, as the host numbers it */
	pid_t outer;	/* the process that made its namespaces */
};

/*
 * Pid 1 of a container: its binderfs, its service manager and echo
 * service; on each 'G' it checks that it sees its own service and not the
 * other container's, and answers 'D'.
 */
static void container_init(struct container *c)
{
	char mine[16], other[16], out[1024], text[32], arg[40];
	char *sm[] = { "kbinder", "servicemanager", NULL };
	char *serve[] = { "kbinder", "serve", mine, NULL };
	char *list[] = { "kbinder", "list", NULL };
	/* the echo service's String echo(String) is code 1 */
	char *call_mine[] = { "kbinder", "call", mine, "1", arg, NULL };
	char *call_other[] = { "kbinder", "call", other, "1", arg, NULL };
	char token;

	snprintf(mine, sizeof(mine), "echo%d", c->id);
	snprintf(other, sizeof(other), "echo%d", 3 - c->id);
	snprintf(text, sizeof(text), "hello from %d", c->id);
	snprintf(arg, sizeof(arg), "s16:%s", text);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	mkdir(MNT, 0700);
	ASSERT_EQ(mount("binder", MNT, "binder", 0, NULL), 0);
	spawn(sm);
	run_until_ok(list);
	spawn(serve);
	{
		char *ping[] = { "kbinder", "ping", mine, NULL };

		run_until_ok(ping);
	}
	ASSERT_SIGNAL(&c->chan, 'R');
	for (;;) {
		ASSERT_OK(kbt_recv(&c->chan, &token, 1, 60000));
		if (token != 'G')
			break;
		ASSERT_EQ(run(out, sizeof(out), list), 0);
		EXPECT_TRUE(strstr(out, mine) != NULL);
		EXPECT_TRUE(strstr(out, other) == NULL);
		ASSERT_EQ(run(out, sizeof(out), call_mine), 0);
		EXPECT_TRUE(strstr(out, text) != NULL);
		EXPECT_NE(run(out, sizeof(out), call_other), 0);
		ASSERT_SIGNAL(&c->chan, kbt_failed() ? 'F' : 'D');
	}
	/* 'Q': leaving kills the namespace's other processes */
	_exit(kbt_failed());
}

/* The process that makes the container's namespaces and its pid 1. */
static void container_main(void *arg)
{
	struct container *c = arg;
	int status;
	pid_t init;

	ASSERT_EQ(unshare(CLONE_NEWUSER), 0);
	write_file("/proc/self/setgroups", "deny");
	write_file("/proc/self/uid_map", "0 0 1");
	write_file("/proc/self/gid_map", "0 0 1");
	ASSERT_EQ(unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID |
			  CLONE_NEWNET), 0);
	init = fork();
	ASSERT_GE(init, 0);
	if (init == 0)
		container_init(c);
	ASSERT_OK(kbt_send(&c->chan, &init, sizeof(init)));
	ASSERT_EQ(waitpid(init, &status, 0), init);
	/* killed on purpose, or a clean exit */
	if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
		ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void container_start(struct container *c, int id)
{
	c->id = id;
	kbt_chan_init(&c->chan);
	c->outer = kbt_fork(container_main, c);
	ASSERT_OK(kbt_recv(&c->chan, &c->init, sizeof(c->init), 10000));
	ASSERT_OK(kbt_wait(&c->chan, 'R', 20000));
}

/* Both containers check their view; each must answer 'D'. */
static void container_check(struct container *c)
{
	ASSERT_SIGNAL(&c->chan, 'G');
	ASSERT_OK(kbt_wait(&c->chan, 'D', 20000));
}

static void host_call(void)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;

	kbt_client(&p, &t);
	kbt_call(&t, 0, 1, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 0x4057);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbinder_proc_close(&p);
}

TEST_TIMEOUT(two_containers_each_see_only_their_own_services, 100)
{
	struct container c1, c2;
	struct kbt_server host;
	long procs, contexts, nodes;

	if (kbt_is_reference())
		SKIP("the reference driver (binder_linux) has no binderfs");
	if (access(TOOL, X_OK))
		SKIP(TOOL " is not installed");

	/* Earlier tests' processes are released asynchronously: let them go. */
	kbt_live_wait("procs", 0, 5000);
	kbt_live_wait("contexts", 0, 5000);
	kbt_start_ctxmgr(&host, kbt_reply_arg, (void *)0x4057);
	procs = kbt_live_need("procs");
	contexts = kbt_live_need("contexts");
	nodes = kbt_live_need("nodes");
	container_start(&c1, 1);
	container_start(&c2, 2);
	EXPECT_GT(kbt_live("contexts"), contexts);
	container_check(&c1);
	container_check(&c2);
	host_call();

	/* Kill the first container; the second works on. */
	ASSERT_EQ(kill(c1.init, SIGKILL), 0);
	ASSERT_CHILD_OK(c1.outer);
	container_check(&c2);
	host_call();

	ASSERT_SIGNAL(&c2.chan, 'Q');
	ASSERT_CHILD_OK(c2.outer);
	kbt_chan_close(&c1.chan);
	kbt_chan_close(&c2.chan);
	EXPECT_EQ(kbt_live_wait("contexts", contexts, 5000), contexts);
	EXPECT_EQ(kbt_live_wait("procs", procs, 5000), procs);
	EXPECT_EQ(kbt_live_wait("nodes", nodes, 5000), nodes);

	kbt_quit_ctxmgr(&host);
}
