// SPDX-License-Identifier: Apache-2.0
/*
 * The kbinder command line tool and the examples (the real programs,
 * exec'd) against the real service manager (`kbinder servicemanager`):
 * the greeter service and client, `kbinder list`, `ping` and `call` at
 * API levels 28, 30, 33 and 35; `kbinder monitor` shows each process's
 * call rates (the reference driver's counters) or its failed calls
 * (kbinder's reports); `kbinder detect` and kbinder_sm_detect() find the
 * release of a manager at every release; a recovery image's manager is
 * detected by its header and spoken to in it.
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */
#include "sm_util.h"

#include <stdio.h>
#include <string.h>

#include <kbinder/servicemanager.h>

/*
 * Start @argv, with $KBINDER_API_LEVEL=@level unless @level is 0; with
 * @out_fd, its stdout goes to a pipe whose read end is put there.
 */
static pid_t spawn_to(char *const argv[], int level, int *out_fd)
{
	char lv[16];
	int fds[2];
	pid_t pid;

	snprintf(lv, sizeof(lv), "%d", level);
	if (out_fd)
		ASSERT_EQ(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (out_fd) {
			dup2(fds[1], 1);
			close(fds[0]);
			close(fds[1]);
		}
		if (level)
			setenv("KBINDER_API_LEVEL", lv, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	if (out_fd) {
		close(fds[1]);
		*out_fd = fds[0];
	}
	return pid;
}

static pid_t spawn(char *const argv[], int level)
{
	return spawn_to(argv, level, NULL);
}

/*
 * Read what @pid prints on @fd to its end into @out, then reap it.
 * Return: its exit status.
 */
static int finish(pid_t pid, int fd, char *out, size_t size)
{
	kbt_read_all(fd, out, size);
	close(fd);
	return kbt_reap(pid, 20000);
}

/* Run @argv with $KBINDER_API_LEVEL=@level; its stdout into @out. */
static int run(char *const argv[], int level, char *out, size_t size)
{
	int fd;
	pid_t pid = spawn_to(argv, level, &fd);

	return finish(pid, fd, out, size);
}

TEST_TIMEOUT(the_examples_and_the_cli_work_against_the_manager, 90)
{
	static const int levels[] = { 28, 30, 33, 35 };
	char out[4096], dir[256];
	const char *tool = kbt_tool_path();

	/* The examples sit beside the tool. */
	snprintf(dir, sizeof(dir), "%s", tool);
	*strrchr(dir, '/') = '\0';
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		int level = levels[i];
		char svc_path[300], cli_path[300];
		char *svc_argv[] = { svc_path, NULL };
		char *cli_argv[] = { cli_path, "binder", NULL };
		char *list_argv[] = { (char *)tool, "list", NULL };
		char *ping_argv[] = { (char *)tool, "ping", "example.greeter", NULL };
		char *ping_none[] = { (char *)tool, "ping", "example.nobody", NULL };
		char *call_argv[] = { (char *)tool, "call", "example.greeter", "1",
				      "s16:cli", NULL };
		char *unknown_argv[] = { (char *)tool, "call", "example.greeter", "7", NULL };
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		uint32_t h;
		pid_t smpid, svc;
		int err = -ENOENT;

		snprintf(svc_path, sizeof(svc_path), "%s/greeter-service", dir);
		snprintf(cli_path, sizeof(cli_path), "%s/greeter-client", dir);
		smpid = kbt_sm_start(level);
		svc = spawn(svc_argv, level);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, level));
		for (int k = 0; k < 100 && err; k++) {
			err = kbinder_sm_check(&sm, "example.greeter", &h);
			if (err)
				kbt_msleep(50);
		}
		ASSERT_OK(err);
		kbinder_thread_ref(&t, BC_RELEASE, h);
		kbinder_proc_close(&p);

		ASSERT_EQ(run(cli_argv, level, out, sizeof(out)), 0);
		ASSERT_EQ(strcmp(out, "hello, binder\n"), 0);
		ASSERT_EQ(run(list_argv, level, out, sizeof(out)), 0);
		ASSERT_EQ(strcmp(out, "0\texample.greeter: [example.IGreeter]\n"), 0);
		ASSERT_EQ(run(ping_argv, level, out, sizeof(out)), 0);
		ASSERT_EQ(strcmp(out, "example.greeter: alive\n"), 0);
		ASSERT_EQ(run(ping_none, level, out, sizeof(out)), 1);
		ASSERT_EQ(run(call_argv, level, out, sizeof(out)), 0);
		if (!strstr(out, "status ok") || !strstr(out, "s16:\"hello, cli\""))
			kbt_log("call printed:\n%s", out);
		ASSERT_TRUE(strstr(out, "status ok") != NULL);
		ASSERT_TRUE(strstr(out, "s16:\"hello, cli\"") != NULL);
		ASSERT_EQ(run(unknown_argv, level, out, sizeof(out)), 1);
		ASSERT_TRUE(strstr(out, "UNKNOWN_TRANSACTION") != NULL);
		kbt_kill(svc);
		kbt_kill(smpid);
	}
}

TEST_TIMEOUT(monitor_shows_rates_or_failures_per_process, 60)
{
	char svc_path[300], out[8192], dir[256], mine[32];
	char *svc_argv[] = { svc_path, NULL };
	const char *tool = kbt_tool_path();
	char *mon_argv[] = { (char *)tool, "monitor", "--count", "3",
			     "--interval", "0.7", NULL };
	struct kbinder_parcel data;
	struct kbinder_reply r;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;
	int fd, status;
	uint32_t h;
	pid_t smpid, svc, mon;
	int err = -ENOENT;

	snprintf(dir, sizeof(dir), "%s", tool);
	*strrchr(dir, '/') = '\0';
	snprintf(svc_path, sizeof(svc_path), "%s/greeter-service", dir);
	smpid = kbt_sm_start(33);
	svc = spawn(svc_argv, 33);
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, 33));
	for (int k = 0; k < 100 && err; k++) {
		err = kbinder_sm_check(&sm, "example.greeter", &h);
		if (err)
			kbt_msleep(50);
	}
	ASSERT_OK(err);

	mon = spawn_to(mon_argv, 0, &fd);
	kbt_msleep(300);
	/* Traffic: calls the counters see; then one to a dead service. */
	for (int i = 0; i < 30; i++) {
		kbinder_parcel_init(&data);
		kbinder_parcel_write_token(&data, &sm.wire, "example.IGreeter");
		kbinder_parcel_write_string16(&data, "monitor");
		ASSERT_OK(kbinder_thread_transact(&t, h, 1, &data, 0, &r, NULL, NULL, KBT_WAIT_MS));
		kbinder_parcel_fini(&data);
		ASSERT_EQ(r.status, BR_REPLY);
		kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer);
	}
	kbt_kill(svc);
	kbt_msleep(100);
	ASSERT_OK(kbinder_thread_transact(&t, h, 1, NULL, 0, &r, NULL, NULL, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_DEAD_REPLY);
	status = finish(mon, fd, out, sizeof(out));
	kbt_log("monitor printed:\n%s", out);
	ASSERT_EQ(status, 0);
	snprintf(mine, sizeof(mine), "%7d ", (int)getpid());
	ASSERT_TRUE(strstr(out, mine) != NULL);		/* a row for us */
	if (kbt_is_reference()) {
		/* Debian's drivers (6.1, 6.12): counters, no reports. */
		double rate, best = 0;

		ASSERT_TRUE(strstr(out, "upstream per-process counters") != NULL);
		for (char *l = strstr(out, mine); l; l = strstr(l + 1, mine))
			if (sscanf(l + strlen(mine), "%*s %lf", &rate) == 1 && rate > best)
				best = rate;
		ASSERT_GT(best, 1.0);
	} else {
		/* kbinder: no counters, but the failed call is reported. */
		ASSERT_TRUE(strstr(out, "BR_DEAD_REPLY") != NULL);
	}
	kbinder_proc_close(&p);
	kbt_kill(smpid);
}

/*
 * The service manager's release, found by probing: from the default
 * level (which keeps nothing) the first of the releases with the same
 * interface; through the CLI from the release itself, that release.
 */
TEST_TIMEOUT(detect_finds_the_release_of_the_manager, 150)
{
	static const char *const same_as[][2] = {
		{ "32", "31" }, { "35", "34" }, { "36-qpr2", "36-qpr1" },
	};

	for (size_t i = 0; i < kbt_sm_n_releases; i++) {
		const char *release = kbt_sm_releases[i], *want = release;
		char *const argv[] = { (char *)kbt_tool_path(), "-a", (char *)release,
				       "detect", NULL };
		struct kbinder_thread t;
		struct kbinder_proc p;
		struct kbinder_sm sm;
		char out[128], line[64];
		pid_t smpid;

		for (size_t k = 0; k < sizeof(same_as) / sizeof(same_as[0]); k++)
			if (!strcmp(same_as[k][0], release))
				want = same_as[k][1];
		smpid = kbt_sm_start_release(release);
		kbt_client(&p, &t);
		ASSERT_OK(kbinder_sm_init(&sm, &t, 33));
		ASSERT_OK(kbinder_sm_detect(&sm));
		if (strcmp(kbinder_wire_name(&sm.wire), want))
			kbt_log("manager at %s: detected %s, want %s", release,
				kbinder_wire_name(&sm.wire), want);
		ASSERT_EQ(strcmp(kbinder_wire_name(&sm.wire), want), 0);
		kbinder_proc_close(&p);
		ASSERT_EQ(run(argv, 33, out, sizeof(out)), 0);
		snprintf(line, sizeof(line), "%s (Android ", release);
		ASSERT_EQ(strncmp(out, line, strlen(line)), 0);
		kbt_kill(smpid);
	}
}

/* A recovery image's service manager ('RECO'): refused, then found and used. */
TEST_TIMEOUT(a_recovery_managers_header_is_detected_and_spoken, 60)
{
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_sm sm;
	uint32_t handle;
	pid_t smpid;

	smpid = fork();
	ASSERT_GE(smpid, 0);
	if (smpid == 0) {
		execl(kbt_tool_path(), "kbinder", "-a", "36-qpr1", "-H", "recovery",
		      "servicemanager", (char *)NULL);
		_exit(127);
	}
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_sm_init(&sm, &t, 33));
	for (int i = 0; i < 100 && kbinder_sm_ping(&sm); i++)
		kbt_msleep(50);
	/* A system image's header: BAD_TYPE, as libbinder answers it. */
	ASSERT_EQ(kbinder_sm_check(&sm, "kbinder.test.nobody", &handle),
		  KBINDER_STATUS_BAD_TYPE);
	ASSERT_OK(kbinder_sm_detect(&sm));
	ASSERT_EQ(sm.wire.marker, KBINDER_MARKER_RECOVERY);
	ASSERT_EQ(strcmp(kbinder_wire_name(&sm.wire), "36-qpr1"), 0);
	ASSERT_EQ(kbinder_sm_check(&sm, "kbinder.test.nobody", &handle), -ENOENT);
	kbinder_proc_close(&p);
	kbt_kill(smpid);
}
