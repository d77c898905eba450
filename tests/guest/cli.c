// SPDX-License-Identifier: Apache-2.0
/*
 * The kbinder command line tool (the real one, exec'd) as README promises
 * it on a binder device: `kbinder version` prints the protocol version,
 * `kbinder stats` kbinder's live objects, and the errors a user meets are
 * one line each: no binder device, no service manager, no such service.
 * What needs no device (--help of every command, an unknown command) is
 * checked on the host (tests/host/cli_check.sh).
 */
#include "binder_util.h"	/* first: it sets _GNU_SOURCE */
#include "live.h"
#include "sm_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include <kbinder/servicemanager.h>

/*
 * Run the tool with @args (NULL-terminated, without argv[0]); its stdout
 * into @out, its stderr into @err. Return: its exit status.
 */
static int tool(const char *const *args, char *out, size_t out_size,
		char *err, size_t err_size)
{
	const char *argv[16] = { "kbinder" };
	int o[2], e[2], i;
	pid_t pid;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	ASSERT_OK(pipe2(o, O_CLOEXEC));
	ASSERT_OK(pipe2(e, O_CLOEXEC));
	fflush(NULL);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		dup2(o[1], 1);
		dup2(e[1], 2);
		execv(kbt_tool_path(), (char *const *)argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	kbt_read_all(e[0], err, err_size);	/* errors are short: no deadlock */
	kbt_read_all(o[0], out, out_size);
	close(o[0]);
	close(e[0]);
	return kbt_reap(pid, 20000);
}

/* @s is exactly one line (one newline, at its end). */
static bool one_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl && nl[1] == '\0';
}

#define EXPECT_ONE_LINE(s, want) do {					\
	if (!one_line(s) || strcmp((s), (want)))			\
		kbt_fail(__FILE__, __LINE__, false,			\
			 "stderr \"%s\", want the one line \"%s\"", (s), (want)); \
} while (0)

TEST(version_prints_protocol_version_8)
{
	static const char *const args[] = { "version", NULL };
	char out[256], err[256];

	ASSERT_EQ(tool(args, out, sizeof(out), err, sizeof(err)), 0);
	EXPECT_EQ(strcmp(out, "8\n"), 0);
	EXPECT_EQ(err[0], '\0');
	if (strcmp(out, "8\n"))
		kbt_log("kbinder version printed \"%s\"", out);
}

/* One line per counter of debugfs kbinder/live, indented, in its order. */
TEST(stats_prints_kbinders_live_objects)
{
	static const char *const args[] = { "stats", NULL };
	char out[4096], err[512], *line, *save;
	struct kbt_live live;
	int n = 0, ret;

	ret = tool(args, out, sizeof(out), err, sizeof(err));
	if (!kbt_live_base(&live)) {
		/* the reference driver: no kbinder, one line that says so */
		ASSERT_EQ(ret, 1);
		EXPECT_ONE_LINE(err, "kbinder: /sys/kernel/debug/kbinder/live (is kbinder loaded, debugfs mounted?): No such file or directory\n");
		return;
	}
	ASSERT_EQ(ret, 0);
	EXPECT_EQ(err[0], '\0');
	ASSERT_GT(live.n, 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[32];
		long value;

		ASSERT_LT(n, live.n);
		ASSERT_EQ(strncmp(line, "    ", 4), 0);
		ASSERT_EQ(sscanf(line, "%31s %ld", name, &value), 2);
		if (strcmp(name, live.name[n]))
			kbt_fail(__FILE__, __LINE__, false, "line %d names %s, the file %s",
				 n, name, live.name[n]);
		EXPECT_GE(value, 0);
		n++;
	}
	EXPECT_EQ(n, live.n);
}

TEST(a_missing_device_is_one_line)
{
	static const char *const args[] = { "-d", "/dev/kbt-no-such-binder", "list", NULL };
	char out[512], err[512];

	EXPECT_EQ(tool(args, out, sizeof(out), err, sizeof(err)), 1);
	EXPECT_EQ(out[0], '\0');
	EXPECT_ONE_LINE(err, "kbinder: no binder device at /dev/kbt-no-such-binder (set -d or $BINDER_DEVICE)\n");
}

/*
 * No context manager: the call to handle 0 gets a dead reply. Managers of
 * earlier tests are released asynchronously: wait until there is none.
 */
TEST(no_service_manager_is_one_line)
{
	static const char *const args[] = { "list", NULL };
	static const char *const want_end = ": no service manager (dead reply from handle 0)\n";
	char out[512], err[512];
	int ret = 0;

	for (int i = 0; i < 50; i++) {
		ret = tool(args, out, sizeof(out), err, sizeof(err));
		if (ret == 1 && strstr(err, want_end))
			break;
		kbt_msleep(100);
	}
	EXPECT_EQ(ret, 1);
	EXPECT_EQ(out[0], '\0');
	EXPECT_TRUE(one_line(err));
	EXPECT_EQ(strncmp(err, "kbinder: ", 9), 0);
	if (strlen(err) < strlen(want_end) ||
	    strcmp(err + strlen(err) - strlen(want_end), want_end))
		kbt_fail(__FILE__, __LINE__, false, "stderr \"%s\", want \"kbinder: ...%s\"",
			 err, want_end);
}

TEST(an_unknown_service_is_one_line)
{
	static const char *const ping[] = { "ping", "kbt.nobody", NULL };
	static const char *const call[] = { "call", "kbt.nobody", "1", NULL };
	char out[512], err[512];
	pid_t sm = kbt_sm_start_release(NULL);

	EXPECT_EQ(tool(ping, out, sizeof(out), err, sizeof(err)), 1);
	EXPECT_ONE_LINE(err, "kbinder: no service 'kbt.nobody'\n");
	EXPECT_EQ(out[0], '\0');
	EXPECT_EQ(tool(call, out, sizeof(out), err, sizeof(err)), 1);
	EXPECT_ONE_LINE(err, "kbinder: no service 'kbt.nobody'\n");
	kbt_kill(sm);
}
