// SPDX-License-Identifier: Apache-2.0
/*
 * Every binderfs mount is a domain of its own: BINDER_FREEZE and
 * BINDER_GET_FROZEN_INFO reach only the processes of the caller's domain,
 * and binder_logs/ shows only the mount's own worlds. The domain is told
 * apart by the mount's id, which must never be 0 (the plain devices'
 * domain) nor another mount's, whatever the transactions did to the debug
 * ids: those advance with every transaction, wrap after 2^32, and any
 * process reads them through BINDER_GET_EXTENDED_ERROR.
 *
 * World ids come from a 64-bit counter of their own, which does not wrap:
 * when it is spent, no new world is made.
 *
 * Needs kbinder's test build, whose write-only parameters debug_id_next
 * and world_id_next set where the counters stand
 * (tests/vm/guest/testbuild.sh loads it and runs this program). With the
 * default kbinder.ko, and on the reference driver (no binderfs), every
 * test skips.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/android/binderfs.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define FSTYPE "binder"
#define PARAMS "/sys/module/kbinder/parameters/"

static void require_test_build(const char *param)
{
	if (kbt_is_reference())
		SKIP("the reference driver (binder_linux) has no binderfs");
	if (access(PARAMS "selftest", F_OK))
		SKIP("needs kbinder's test build (kbinder-selftest.ko, see tests/vm/guest/testbuild.sh)");
	ASSERT_EQ(access(param, W_OK), 0);
}

/* A private mount namespace, then binderfs on a new directory @dir. */
static void mount_fs(char *dir)
{
	strcpy(dir, "/tmp/world_ids_XXXXXX");
	ASSERT_TRUE(mkdtemp(dir) != NULL);
	ASSERT_EQ(mount(FSTYPE, dir, FSTYPE, 0, NULL), 0);
}

static void umount_fs(const char *dir)
{
	ASSERT_EQ(umount2(dir, MNT_DETACH), 0);
	ASSERT_EQ(rmdir(dir), 0);
}

/* Open device "binder" of the mount at @dir (no mapping needed). */
static int open_in(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	ASSERT_LT(snprintf(path, sizeof(path), "%s/binder", dir),
		  (int)sizeof(path));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	return fd;
}

/*
 * BINDER_GET_FROZEN_INFO about @pid through @fd: 0 if @pid has a binder
 * process in @fd's domain, else -errno (-EINVAL: none there).
 */
static int frozen_info(int fd, pid_t pid)
{
	struct binder_frozen_status_info info = { .pid = (uint32_t)pid };

	return ioctl(fd, BINDER_GET_FROZEN_INFO, &info) ? -errno : 0;
}

/* Whether the mount at @dir's binder_logs/state lists process @pid. */
static bool logs_list(const char *dir, pid_t pid)
{
	char path[PATH_MAX], want[32];
	static char buf[1 << 16];
	int fd;

	ASSERT_LT(snprintf(path, sizeof(path), "%s/binder_logs/state", dir),
		  (int)sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	kbt_read_all(fd, buf, sizeof(buf));
	close(fd);
	snprintf(want, sizeof(want), "proc %d\n", (int)pid);
	return strstr(buf, want) != NULL;
}

/* A child that opens @arg's device and holds it until told 'Q'. */
struct holder {
	struct kbt_chan chan;
	char dev[PATH_MAX + 8];
};

static void holder_main(void *arg)
{
	struct holder *h = arg;
	int fd = open(h->dev, O_RDWR | O_CLOEXEC);

	ASSERT_GE(fd, 0);
	ASSERT_SIGNAL(&h->chan, 'R');
	ASSERT_WAIT(&h->chan, 'Q');
	close(fd);
}

static pid_t start_holder(struct holder *h, const char *dev)
{
	snprintf(h->dev, sizeof(h->dev), "%s", dev);
	return kbt_fork_ready(holder_main, &h->chan);
}

static void stop_holder(struct holder *h, pid_t pid)
{
	ASSERT_SIGNAL(&h->chan, 'Q');
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&h->chan);
}

/* The next debug id is @next (the test build's knob). */
static void set_debug_id_next(uint32_t next)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", next);
	kbt_write_file(PARAMS "debug_id_next", text);
}

/*
 * The debug ids wrap: the last transaction before the mount had id
 * 0xffffffff, as BINDER_GET_EXTENDED_ERROR shows. The mount made then is
 * still a domain of its own: its process neither reaches a process of the
 * plain devices nor is hidden from its own binder_logs.
 */
TEST(a_mount_after_the_debug_ids_wrap_is_a_domain_of_its_own)
{
	struct binder_extended_error ee;
	struct kbinder_thread t;
	struct kbinder_proc p;
	struct kbinder_reply r;
	struct holder host;
	char dir[PATH_MAX];
	pid_t pid;
	int fd;

	require_test_build(PARAMS "debug_id_next");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	pid = start_holder(&host, kbinder_proc_default_device());

	set_debug_id_next(0xffffffffu);
	kbt_client(&p, &t);
	/* No context manager here: the call fails, with an id all the same. */
	ASSERT_OK(kbinder_thread_transact(&t, 0, 1, NULL, 0, &r,
					  kbt_default_event, NULL, KBT_WAIT_MS));
	ASSERT_NE(r.status, BR_REPLY);
	ASSERT_EQ(ioctl(p.fd, BINDER_GET_EXTENDED_ERROR, &ee), 0);
	ASSERT_EQ(ee.id, 0xffffffffu);
	kbinder_proc_close(&p);

	mount_fs(dir);
	fd = open_in(dir);
	EXPECT_EQ(frozen_info(fd, pid), -EINVAL);
	EXPECT_TRUE(logs_list(dir, getpid()));
	close(fd);
	umount_fs(dir);
	stop_holder(&host, pid);
}

/*
 * Two mounts made with the debug ids at the same place (as 2^32
 * transactions apart would leave them) are two domains: a process of one
 * does not reach a process of the other, and neither's binder_logs lists
 * the other's process.
 */
TEST(two_mounts_never_share_a_domain)
{
	char dir_a[PATH_MAX], dir_b[PATH_MAX], dev_a[PATH_MAX + 8];
	struct holder in_a;
	pid_t pid;
	int fd;

	require_test_build(PARAMS "debug_id_next");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	set_debug_id_next(1000);
	mount_fs(dir_a);
	set_debug_id_next(1000);
	mount_fs(dir_b);

	snprintf(dev_a, sizeof(dev_a), "%s/binder", dir_a);
	pid = start_holder(&in_a, dev_a);
	fd = open_in(dir_b);
	EXPECT_EQ(frozen_info(fd, pid), -EINVAL);
	EXPECT_TRUE(logs_list(dir_a, pid));
	EXPECT_FALSE(logs_list(dir_a, getpid()));
	EXPECT_TRUE(logs_list(dir_b, getpid()));
	EXPECT_FALSE(logs_list(dir_b, pid));
	close(fd);
	stop_holder(&in_a, pid);
	umount_fs(dir_b);
	umount_fs(dir_a);
}

/* The next world id is @next (the test build's knob). */
static void set_world_id_next(uint64_t next)
{
	char text[24];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)next);
	kbt_write_file(PARAMS "world_id_next", text);
}

/* Open $BINDER_DEVICE in a new IPC namespace (a new world): 0 or -errno. */
static int open_in_new_ipc_ns(void)
{
	pid_t pid = fork();
	int st, fd;

	ASSERT_GE(pid, 0);
	if (!pid) {
		if (unshare(CLONE_NEWIPC))
			_exit(100);
		fd = open(kbinder_proc_default_device(), O_RDWR | O_CLOEXEC);
		_exit(fd >= 0 ? 0 : errno);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_NE(WEXITSTATUS(st), 100);
	return -WEXITSTATUS(st);
}

/*
 * With the last world id given out, no new world is made (ENOSPC): not a
 * mount, not a device of a mount, not the world of a new IPC namespace;
 * the worlds that exist go on. No id wraps to 0 or to one in use.
 */
TEST(world_ids_run_out_rather_than_wrap)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct binderfs_device dev;
	int fd, ctl, ret;

	require_test_build(PARAMS "world_id_next");
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	mount_fs(dir);
	ASSERT_EQ(open_in_new_ipc_ns(), 0);

	set_world_id_next(UINT64_MAX);		/* the last one */
	snprintf(path, sizeof(path), "%s/binder-control", dir);
	ctl = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(ctl, 0);
	memset(&dev, 0, sizeof(dev));
	strcpy(dev.name, "last");
	EXPECT_EQ(ioctl(ctl, BINDER_CTL_ADD, &dev), 0);	/* gets it */
	strcpy(dev.name, "none");
	ret = ioctl(ctl, BINDER_CTL_ADD, &dev) ? -errno : 0;
	EXPECT_EQ(ret, -ENOSPC);
	close(ctl);
	snprintf(path, sizeof(path), "%s/world_ids_none", "/tmp");
	ASSERT_EQ(mkdir(path, 0700), 0);
	ret = mount(FSTYPE, path, FSTYPE, 0, NULL) ? -errno : 0;
	EXPECT_EQ(ret, -ENOSPC);
	if (!ret)
		ASSERT_EQ(umount2(path, MNT_DETACH), 0);
	ASSERT_EQ(rmdir(path), 0);
	EXPECT_EQ(open_in_new_ipc_ns(), -ENOSPC);

	/* The worlds made before still work. */
	snprintf(path, sizeof(path), "%s/last", dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);
	fd = open(kbinder_proc_default_device(), O_RDWR | O_CLOEXEC);
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);

	/* Ids nobody had yet, for what runs after this test. */
	set_world_id_next(1ull << 40);
	umount_fs(dir);
}
