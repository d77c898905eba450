// SPDX-License-Identifier: Apache-2.0
/*
 * binder_logs/ of a binderfs mount describes what is live: a call held in
 * flight is named by the same debug id in "transactions", "state",
 * "proc/<pid>" and "transaction_log", with the caller's and the callee's
 * pids and tids; the callee's node and the caller's ref (handle 0) name
 * each other; a failed call lands in "failed_transaction_log"; another
 * mount sees none of it.
 *
 * Debian's binder_linux (the reference driver) has no binderfs: every test
 * skips there.
 */
#include "binder_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/android/binderfs.h>

#define FSTYPE "binder"
#define CODE_HOLD 7
#define LOG_MAX 65536
#define DIR_MAX 64

static void private_mounts(void)
{
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
}

/* Mount a new binderfs on @dir (DIR_MAX) with device "logs", or skip. */
static void mount_with_device(char *dir)
{
	struct binderfs_device dev;
	char path[PATH_MAX];
	int fd;

	if (kbt_is_reference())
		SKIP("the reference driver (binder_linux) has no binderfs");
	snprintf(dir, DIR_MAX, "/tmp/binderlogs_XXXXXX");
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	if (mount(FSTYPE, dir, FSTYPE, 0, NULL)) {
		int err = errno;

		rmdir(dir);
		if (err == ENODEV)
			SKIP("no filesystem type \"" FSTYPE "\"");
		ASSERT_OK(-err);
	}
	snprintf(path, sizeof(path), "%s/binder-control", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	memset(&dev, 0, sizeof(dev));
	strcpy(dev.name, "logs");
	ASSERT_EQ(ioctl(fd, BINDER_CTL_ADD, &dev), 0);
	close(fd);
}

static void fs_umount(const char *dir)
{
	ASSERT_EQ(umount2(dir, MNT_DETACH), 0);
	ASSERT_EQ(rmdir(dir), 0);
}

/*
 * A copy of what was read, for the guest's address scan (addrscan.sh),
 * which runs after the tests when nothing is in flight any more.
 */
static void save_log(const char *path, const char *text)
{
	FILE *f = fopen("/tmp/kbinder-logs.txt", "ae");

	if (!f)
		return;
	fprintf(f, "== %s\n%s", path, text);
	fclose(f);
}

/* The whole of @dir/binder_logs/@name in a static buffer ("" if absent). */
static const char *read_log(const char *dir, const char *name)
{
	static char buf[LOG_MAX];
	char path[PATH_MAX];
	ssize_t n, len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/binder_logs/%s", dir, name);
	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kbt_log("open %s: %s", path, strerror(errno));
		return buf;
	}
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	save_log(path, buf);
	return buf;
}

/* @log holds the line @line (without its newline). */
static bool has_line(const char *log, const char *line)
{
	size_t n = strlen(line);
	const char *p = log;

	while ((p = strstr(p, line))) {
		if ((p == log || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
		p++;
	}
	return false;
}

/* @log holds a line beginning with @start that also contains @part. */
static bool has_line_with(const char *log, const char *start,
			  const char *part)
{
	const char *p = log;
	const char *end;

	while ((p = strstr(p, start))) {
		end = strchrnul(p, '\n');
		if ((p == log || p[-1] == '\n') && (!part ||
		    (memmem(p, end - p, part, strlen(part)))))
			return true;
		if (!*p)	/* an empty @start matches at the end too */
			break;
		p++;
	}
	return false;
}

/* The number after @key on the first line beginning with @start, or -1. */
static long field_after(const char *log, const char *start, const char *key)
{
	const char *p = log;
	const char *end, *k;

	while ((p = strstr(p, start))) {
		end = strchrnul(p, '\n');
		if (p == log || p[-1] == '\n') {
			k = memmem(p, end - p, key, strlen(key));
			if (k)
				return strtol(k + strlen(key), NULL, 10);
		}
		p++;
	}
	return -1;
}

/* The number after @start on the first line beginning with it that holds
 * @part, or -1.
 */
static long line_id(const char *log, const char *start, const char *part)
{
	const char *p = log;
	const char *end;

	while ((p = strstr(p, start))) {
		end = strchrnul(p, '\n');
		if ((p == log || p[-1] == '\n') &&
		    memmem(p, end - p, part, strlen(part)))
			return strtol(p + strlen(start), NULL, 10);
		p++;
	}
	return -1;
}

/**
 * struct hold - the callee holds the call until told to reply
 * @chan: 'C' from the callee once it has the call, 'R' to it to reply
 */
struct hold {
	struct kbt_chan chan;
	char dev[PATH_MAX];
};

static int hold_call(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		     struct kbinder_parcel *reply, void *arg)
{
	struct hold *h = arg;

	(void)t;
	if (tr->code == CODE_HOLD) {
		ASSERT_SIGNAL(&h->chan, 'C');
		ASSERT_WAIT(&h->chan, 'R');
	}
	kbinder_parcel_write_u32(reply, 1);
	return KBT_REPLY;
}

/* The caller: one call on handle 0, then it reports its call's id. */
static void caller_main(void *arg)
{
	struct hold *h = arg;
	struct binder_extended_error ee;
	struct kbinder_thread t;
	struct kbinder_reply r;
	struct kbinder_parcel data;
	struct kbinder_proc p;

	kbt_open_dev(&p, h->dev, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p.fd);
	/* Its own node goes with the call: the callee holds a ref on it. */
	kbinder_parcel_init(&data);
	ASSERT_OK(kbinder_parcel_write_binder(&data, 0x1000, 0x2000, 0, false));
	kbt_call(&t, 0, CODE_HOLD, &data, &r);
	kbinder_parcel_fini(&data);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	memset(&ee, 0, sizeof(ee));
	ASSERT_EQ(ioctl(p.fd, BINDER_GET_EXTENDED_ERROR, &ee), 0);
	ASSERT_OK(kbt_send(&h->chan, &ee.id, sizeof(ee.id)));
	kbinder_proc_close(&p);
}

TEST_TIMEOUT(logs_describe_live_call, 60)
{
	char dir[DIR_MAX], other[DIR_MAX], line[256];
	const char *log;
	struct kbt_server srv;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct hold h;
	pid_t caller, callee;
	long id, node, ref, mgr;
	uint32_t ee_id;

	private_mounts();
	mount_with_device(dir);
	snprintf(h.dev, sizeof(h.dev), "%s/logs", dir);
	ASSERT_EQ(setenv("BINDER_DEVICE", h.dev, 1), 0);
	kbt_chan_init(&h.chan);
	kbt_start_ctxmgr(&srv, hold_call, &h);
	callee = srv.pid;
	caller = kbt_fork(caller_main, &h);
	ASSERT_WAIT(&h.chan, 'C');

	/* The call in flight, by id, caller (pid:tid) and callee. */
	log = read_log(dir, "transactions");
	kbt_log("transactions:\n%s", log);
	snprintf(line, sizeof(line), "from %d:%d to %d:%d code %d ", caller,
		 caller, callee, callee, CODE_HOLD);
	id = field_after(log, "    incoming transaction ", "transaction ");
	ASSERT_GT(id, 0);
	EXPECT_TRUE(has_line_with(log, "    incoming transaction ", line));
	snprintf(line, sizeof(line), "    outgoing transaction %ld: from %d:%d to %d:%d code %d flags 0x0",
		 id, caller, caller, callee, 0, CODE_HOLD);
	EXPECT_TRUE(has_line(log, line));
	snprintf(line, sizeof(line), "proc %d", caller);
	EXPECT_TRUE(has_line(log, line));
	snprintf(line, sizeof(line), "proc %d", callee);
	EXPECT_TRUE(has_line(log, line));

	/*
	 * The callee's node (the manager), the caller's node and the callee's
	 * ref on it, naming each other.
	 */
	log = read_log(dir, "state");
	kbt_log("state:\n%s", log);
	mgr = line_id(log, "  node ", " context-manager");
	ASSERT_GT(mgr, 0);
	snprintf(line, sizeof(line), " refs from %d", callee);
	node = line_id(log, "  node ", line);
	ASSERT_GT(node, 0);
	EXPECT_NE(node, mgr);
	snprintf(line, sizeof(line), " node %ld owner %d strong ", node, caller);
	ref = line_id(log, "  ref ", line);
	EXPECT_GT(ref, 0);
	/* The ref is listed under the callee, the node under the caller. */
	snprintf(line, sizeof(line), "proc %d\n", callee);
	EXPECT_TRUE(strstr(log, line) != NULL &&
		    strstr(strstr(log, line), "  ref ") != NULL);
	/* proc/<pid>: the callee alone, with the same call. */
	snprintf(line, sizeof(line), "proc/%d", callee);
	log = read_log(dir, line);
	snprintf(line, sizeof(line), "proc %d", callee);
	EXPECT_TRUE(has_line(log, line));
	snprintf(line, sizeof(line), "proc %d", caller);
	EXPECT_FALSE(has_line(log, line));
	snprintf(line, sizeof(line), "    incoming transaction %ld: ", id);
	EXPECT_TRUE(has_line_with(log, line, NULL));

	/* transaction_log: the call, its node and its handle. */
	log = read_log(dir, "transaction_log");
	kbt_log("transaction_log:\n%s", log);
	snprintf(line, sizeof(line), "%ld: call from %d:%d to %d:", id,
		 caller, caller, callee);
	EXPECT_TRUE(has_line_with(log, line, " code 7 flags 0x0 ret 0 err 0"));
	snprintf(line, sizeof(line), " node %ld handle 0 ", mgr);
	EXPECT_TRUE(has_line_with(log, "", line));

	/* Another mount sees nothing of this one. */
	mount_with_device(other);
	log = read_log(other, "state");
	snprintf(line, sizeof(line), "proc %d", callee);
	EXPECT_FALSE(has_line(log, line));
	EXPECT_TRUE(has_line(log, "binder state:"));
	log = read_log(other, "transaction_log");
	snprintf(line, sizeof(line), "%ld: ", id);
	EXPECT_FALSE(has_line_with(log, line, NULL));
	snprintf(line, sizeof(line), "%s/binder_logs/proc/%d", other, callee);
	EXPECT_EQ(access(line, F_OK), -1);

	/* The caller reports its call's id through the extended error. */
	ASSERT_SIGNAL(&h.chan, 'R');
	ASSERT_OK(kbt_recv(&h.chan, &ee_id, sizeof(ee_id), 10000));
	EXPECT_EQ((long)ee_id, id);
	ASSERT_CHILD_OK(caller);

	/* A failed call, on a handle nobody has. */
	kbt_client(&p, &t);
	EXPECT_EQ(kbt_call_status(&t, 99, 1, NULL, 0), BR_FAILED_REPLY);
	log = read_log(dir, "failed_transaction_log");
	kbt_log("failed_transaction_log:\n%s", log);
	snprintf(line, sizeof(line), ": call from %d:%d to 0:0 world ",
		 getpid(), kbt_gettid());
	EXPECT_TRUE(has_line_with(log, "", line));
	snprintf(line, sizeof(line), " node 0 handle 99 size 0 code 1 flags 0x0 ret %u err -",
		 (unsigned int)BR_FAILED_REPLY);
	EXPECT_TRUE(has_line_with(log, "", line));
	kbt_stop_with_client(&t, &srv, &p);
	kbt_chan_close(&h.chan);
	fs_umount(other);
	fs_umount(dir);
}

/* binder_logs/proc/ lists the mount's processes, and only those. */
TEST(logs_proc_dir_lists_the_mount)
{
	char dir[DIR_MAX], name[DIR_MAX + 8];
	struct kbinder_proc p;
	struct dirent *d;
	bool self = false;
	int others = 0;
	DIR *dp;

	private_mounts();
	mount_with_device(dir);
	snprintf(name, sizeof(name), "%s/logs", dir);
	kbt_open_dev(&p, name, KBT_MAP_SIZE);
	snprintf(name, sizeof(name), "%d", getpid());
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/binder_logs/proc", dir);
		dp = opendir(path);
	}
	ASSERT_TRUE(dp != NULL);
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (!strcmp(d->d_name, name))
			self = true;
		else
			others++;
	}
	closedir(dp);
	EXPECT_TRUE(self);
	EXPECT_EQ(others, 0);
	kbinder_proc_close(&p);
	fs_umount(dir);
}

static void *version_and_exit(void *arg)
{
	int32_t v;

	*(pid_t *)arg = kbt_gettid();
	kbinder_ioctl_version(*(int *)((pid_t *)arg + 1), &v);
	return NULL;
}

static void paused(void *arg)
{
	(void)arg;
	for (;;)
		pause();
}

/*
 * A thread that exited without BINDER_THREAD_EXIT keeps its state for a
 * while: the logs must not name it by its number once another task has
 * that number (issue 20, item 7). Its tid is given to a new process
 * through ns_last_pid; state must not show that number as the thread.
 */
TEST(exited_thread_is_not_named_by_its_reused_pid)
{
	char dir[DIR_MAX], dev[PATH_MAX + 8], line[64];
	pid_t arg[2], child = 0;
	struct kbinder_proc p;
	pthread_t th;
	const char *log;
	int tries;
	FILE *f;

	private_mounts();
	mount_with_device(dir);
	snprintf(dev, sizeof(dev), "%s/logs", dir);
	kbt_open_dev(&p, dev, 0);
	arg[1] = p.fd;
	ASSERT_EQ(pthread_create(&th, NULL, version_and_exit, arg), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	snprintf(line, sizeof(line), "  thread %d:", arg[0]);

	/* Kernel threads take pids too: try a few times. */
	for (tries = 0; tries < 20; tries++) {
		f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		if (!f)
			SKIP("no ns_last_pid: %s", strerror(errno));
		fprintf(f, "%d", arg[0] - 1);
		fclose(f);
		child = kbt_fork(paused, NULL);
		if (child == arg[0])
			break;
		kbt_kill(child);
	}
	if (child != arg[0])
		SKIP("pid %d went elsewhere (got %d)", arg[0], child);
	log = read_log(dir, "state");
	EXPECT_TRUE(strstr(log, line) == NULL);
	if (strstr(log, line))
		kbt_log("state names pid %d, now another process's:\n%s",
			arg[0], log);
	EXPECT_TRUE(strstr(log, " exited") != NULL);
	kbt_kill(child);
	kbinder_proc_close(&p);
	fs_umount(dir);
}

/* A call on a handle nobody has, from a process of its own that exits. */
static void fail_one_call(void *arg)
{
	struct kbinder_thread t;
	struct kbinder_proc p;

	kbt_open_dev(&p, arg, 0);
	kbinder_thread_init(&t, p.fd);
	EXPECT_EQ(kbt_call_status(&t, 99, 0x5e1f, NULL, 0), BR_FAILED_REPLY);
	kbinder_proc_close(&p);
}

/*
 * The transaction logs remember their tasks by struct pid as well: a
 * sender that exited shows as 0 there too, never by the number a new
 * process has by now (issue 20, item 7).
 */
TEST(exited_sender_is_not_named_by_its_reused_pid_in_the_logs)
{
	char dir[DIR_MAX], dev[PATH_MAX + 8], line[64];
	pid_t sender, child = 0;
	const char *log;
	int tries;
	FILE *f;

	private_mounts();
	mount_with_device(dir);
	snprintf(dev, sizeof(dev), "%s/logs", dir);
	sender = kbt_fork(fail_one_call, dev);
	ASSERT_CHILD_OK(sender);
	for (tries = 0; tries < 20; tries++) {
		f = fopen("/proc/sys/kernel/ns_last_pid", "w");
		if (!f)
			SKIP("no ns_last_pid: %s", strerror(errno));
		fprintf(f, "%d", sender - 1);
		fclose(f);
		child = kbt_fork(paused, NULL);
		if (child == sender)
			break;
		kbt_kill(child);
	}
	if (child != sender)
		SKIP("pid %d went elsewhere (got %d)", sender, child);
	log = read_log(dir, "failed_transaction_log");
	EXPECT_TRUE(has_line_with(log, "", " code 24095 "));
	snprintf(line, sizeof(line), ": call from %d:", sender);
	EXPECT_FALSE(has_line_with(log, "", line));
	EXPECT_TRUE(has_line_with(log, "", ": call from 0:0 to 0:0 world "));
	if (has_line_with(log, "", line))
		kbt_log("failed_transaction_log names pid %d, now another process's:\n%s",
			sender, log);
	kbt_kill(child);
	fs_umount(dir);
}
