// SPDX-License-Identifier: Apache-2.0
/*
 * Security hardening (issue 10): who may use a binder device, and whose
 * binder state a caller may freeze.
 *
 * - The devices are root-only (0600, owner root), like the upstream
 *   driver's: another user cannot open one (so cannot squat the context
 *   manager). Other policies are the module's `mode=` or a udev rule.
 * - BINDER_FREEZE and BINDER_GET_FROZEN_INFO act only on processes the
 *   caller could signal (kill(2)'s rules), found in its own pid namespace.
 */
#include "binder_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

static const char *device(void)
{
	return kbinder_proc_default_device();
}

TEST(devices_are_root_only)
{
	struct stat st;

	ASSERT_OK(stat(device(), &st) ? -errno : 0);
	kbt_log("%s: mode %04o, uid %u", device(), st.st_mode & 07777,
		st.st_uid);
	EXPECT_EQ(st.st_mode & 07777, 0600);
	EXPECT_EQ(st.st_uid, 0);
}

/*
 * The device is opened relative to its directory, opened while still
 * root: the guest's root directory may not be searchable by other users,
 * and the test is about the device's own permissions. /dev/null, opened
 * the same way, shows the path itself is reachable.
 */
static void open_as_other_user(void *arg)
{
	const char *dev = device(), *slash = strrchr(dev, '/');
	char dir[256];
	int dirfd, fd;

	(void)arg;
	ASSERT_NE(slash, NULL);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - dev), dev);
	dirfd = open(dir[0] ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_GE(dirfd, 0);
	ASSERT_EQ(setresgid(4321, 4321, 0), 0);
	ASSERT_EQ(setresuid(4321, 4321, 0), 0);
	fd = openat(dirfd, "null", O_RDWR | O_CLOEXEC);
	if (!strcmp(dir, "/dev"))
		ASSERT_GE(fd, 0);
	if (fd >= 0)
		close(fd);
	fd = openat(dirfd, slash + 1, O_RDWR | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	close(dirfd);
	ASSERT_LT(fd, 0);
	ASSERT_EQ(errno, EACCES);
}

TEST(another_user_cannot_open_a_device)
{
	if (geteuid() != 0)
		SKIP("needs root to change uid");
	ASSERT_CHILD_OK(kbt_fork(open_as_other_user, NULL));
}

static int freeze(int fd, pid_t pid, bool enable)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)pid,
		.enable = enable,
		.timeout_ms = 100,
	};

	return ioctl(fd, BINDER_FREEZE, &info) ? -errno : 0;
}

static int frozen_info(int fd, pid_t pid)
{
	struct binder_frozen_status_info info = { .pid = (uint32_t)pid };

	return ioctl(fd, BINDER_GET_FROZEN_INFO, &info) ? -errno : 0;
}

struct target {
	struct kbt_chan chan;
	uid_t uid;
};

/*
 * A process with the device open, as @uid (real and effective; the saved
 * uid stays root so that the harness can still check its fds), that waits
 * to be told to go.
 */
static void target_main(void *arg)
{
	struct target *tg = arg;
	struct kbinder_proc p;

	kbt_open(&p);
	if (tg->uid) {
		ASSERT_EQ(setresgid(tg->uid, tg->uid, 0), 0);
		ASSERT_EQ(setresuid(tg->uid, tg->uid, 0), 0);
	}
	ASSERT_SIGNAL(&tg->chan, 'O');
	ASSERT_WAIT(&tg->chan, 'Q');
	kbinder_proc_close(&p);
}

struct freezer {
	pid_t victim;
	pid_t own;
	int want;
};

/* As uid 4321 (device opened as root first): freeze @victim. */
static void freezer_main(void *arg)
{
	struct freezer *f = arg;
	struct kbinder_proc p;

	kbt_open(&p);
	ASSERT_EQ(setresgid(4321, 4321, 0), 0);
	ASSERT_EQ(setresuid(4321, 4321, 0), 0);
	EXPECT_EQ(freeze(p.fd, f->victim, true), f->want);
	EXPECT_EQ(frozen_info(p.fd, f->victim), f->want);
	if (!f->want)
		EXPECT_OK(freeze(p.fd, f->victim, false));
	/* Its own processes it may always freeze and inspect. */
	EXPECT_OK(frozen_info(p.fd, f->own));
	kbinder_proc_close(&p);
}

static void freeze_as_4321(uid_t victim_uid, int want)
{
	struct target victim = { .uid = victim_uid };
	struct target own = { .uid = 4321 };
	struct freezer f = { .want = want };
	pid_t v, o;

	kbt_chan_init(&victim.chan);
	kbt_chan_init(&own.chan);
	v = kbt_fork(target_main, &victim);
	o = kbt_fork(target_main, &own);
	ASSERT_WAIT(&victim.chan, 'O');
	ASSERT_WAIT(&own.chan, 'O');
	f.victim = v;
	f.own = o;
	ASSERT_CHILD_OK(kbt_fork(freezer_main, &f));
	ASSERT_SIGNAL(&victim.chan, 'Q');
	ASSERT_SIGNAL(&own.chan, 'Q');
	ASSERT_CHILD_OK(v);
	ASSERT_CHILD_OK(o);
	kbt_chan_close(&victim.chan);
	kbt_chan_close(&own.chan);
}

TEST(another_user_cannot_freeze_a_process)
{
	if (geteuid() != 0)
		SKIP("needs root to change uid");
	REQUIRE_KBINDER("the upstream driver lets any opener freeze any pid");
	freeze_as_4321(0, -EPERM);
}

TEST(a_user_can_freeze_its_own_process)
{
	if (geteuid() != 0)
		SKIP("needs root to change uid");
	freeze_as_4321(4321, 0);
}
