// SPDX-License-Identifier: Apache-2.0
/*
 * binderfs: every mount is a binder world of its own. Devices are added
 * through binder-control, used at once, and removed by unlink (open files
 * keep working); two mounts never see each other's context managers even
 * with the same device names; max= is enforced and changed by a remount;
 * stats=global is refused to the root of a user namespace, which may
 * otherwise mount binderfs; kbinder's live-object counters come back to
 * where they were after many mounts and devices.
 *
 * Debian's binder_linux (the reference driver) has no binderfs: every test
 * skips there.
 */
#include "binder_util.h"
#include "live.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <linux/android/binderfs.h>

#define FSTYPE "binder"

/* A private mount namespace: the test's mounts go away with it. */
static void private_mounts(void)
{
	ASSERT_EQ(unshare(CLONE_NEWNS), 0);
	ASSERT_EQ(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
}

/* Mount binderfs with @opts on a new directory @dir (PATH_MAX). */
static int fs_mount(char *dir, const char *opts)
{
	strcpy(dir, "/tmp/binderfs_XXXXXX");
	if (!mkdtemp(dir))
		return -errno;
	if (mount(FSTYPE, dir, FSTYPE, 0, opts)) {
		int err = -errno;

		rmdir(dir);
		return err;
	}
	return 0;
}

/* Mount, or skip the test where there is no binderfs. */
static void fs_mount_or_skip(char *dir, const char *opts)
{
	int ret;

	if (kbt_is_reference())
		SKIP("the reference driver (binder_linux) has no binderfs");
	ret = fs_mount(dir, opts);
	if (ret == -ENODEV)
		SKIP("no filesystem type \"" FSTYPE "\"");
	ASSERT_OK(ret);
}

static void fs_umount(const char *dir)
{
	ASSERT_EQ(umount2(dir, MNT_DETACH), 0);
	ASSERT_EQ(rmdir(dir), 0);
}

static void fs_path(char *path, const char *dir, const char *name)
{
	ASSERT_LT(snprintf(path, PATH_MAX, "%s/%s", dir, name), PATH_MAX);
}

/* BINDER_CTL_ADD @name in the mount at @dir. Return: 0 or -errno. */
static int fs_add(const char *dir, const char *name,
		  struct binderfs_device *out)
{
	struct binderfs_device dev;
	char path[PATH_MAX];
	int fd, ret = 0;

	fs_path(path, dir, "binder-control");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.name, sizeof(dev.name), "%s", name);
	if (ioctl(fd, BINDER_CTL_ADD, &dev))
		ret = -errno;
	close(fd);
	if (out)
		*out = dev;
	return ret;
}

/* A context manager on @dev answering @value; stop it with stop_mgr(). */
static void start_mgr(struct kbt_server *s, const char *dev, uint32_t value)
{
	ASSERT_EQ(setenv("BINDER_DEVICE", dev, 1), 0);
	kbt_start_ctxmgr(s, kbt_reply_arg, (void *)(uintptr_t)value);
}

/* Call handle 0 on @dev; return the status, and the answer in @value. */
static uint32_t call_mgr(const char *dev, uint32_t *value)
{
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;
	int err;

	kbt_open_dev(&p, dev, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p.fd);
	err = kbinder_thread_transact(&t, 0, 1, NULL, 0, &r, kbt_default_event, NULL,
				      KBT_WAIT_MS);
	ASSERT_OK(err);
	if (r.status == BR_REPLY) {
		*value = kbt_txn_u32(&r.txn, 0);
		ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	}
	kbinder_proc_close(&p);
	return r.status;
}

static void stop_mgr(struct kbt_server *s, const char *dev)
{
	struct kbinder_proc p;
	struct kbinder_thread t;

	kbt_open_dev(&p, dev, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p.fd);
	kbt_stop_ctxmgr(&t, s);
	kbinder_proc_close(&p);
}

/*
 * A new mount has binder-control, the module's default devices and
 * features/; BINDER_CTL_ADD creates a device numbered as it says, usable
 * at once, and refuses names that are taken or invalid as upstream does.
 */
TEST(control_adds_a_device_usable_at_once)
{
	static const char * const features[] = {
		"oneway_spam_detection", "extended_error",
		"freeze_notification", "transaction_report",
	};
	char dir[PATH_MAX], path[PATH_MAX], buf[8];
	struct binderfs_device dev;
	struct kbinder_proc p;
	struct stat st;
	int32_t version;
	size_t i;
	int fd;

	private_mounts();
	fs_mount_or_skip(dir, NULL);
	fs_path(path, dir, "binder");
	ASSERT_EQ(stat(path, &st), 0);		/* a default device */
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_OK(fs_add(dir, "svc", &dev));
	fs_path(path, dir, "svc");
	ASSERT_EQ(stat(path, &st), 0);
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(major(st.st_rdev), dev.major);
	ASSERT_EQ(minor(st.st_rdev), dev.minor);
	ASSERT_EQ(st.st_mode & 0777, 0600);
	kbt_open_dev(&p, path, KBT_MAP_SIZE);
	ASSERT_EQ(kbinder_ioctl_version(p.fd, &version), 0);
	ASSERT_EQ(version, BINDER_CURRENT_PROTOCOL_VERSION);
	kbinder_proc_close(&p);

	ASSERT_EQ(fs_add(dir, "svc", NULL), -EEXIST);
	ASSERT_EQ(fs_add(dir, "binder-control", NULL), -EEXIST);
	ASSERT_EQ(fs_add(dir, "features", NULL), -EEXIST);
	ASSERT_EQ(fs_add(dir, "", NULL), -EACCES);
	ASSERT_EQ(fs_add(dir, ".", NULL), -EACCES);
	ASSERT_EQ(fs_add(dir, "..", NULL), -EACCES);
	ASSERT_EQ(fs_add(dir, "a/b", NULL), -EACCES);

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		ASSERT_LT(snprintf(path, sizeof(path), "%s/features/%s", dir,
				   features[i]), (int)sizeof(path));
		fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_GE(fd, 0);
		memset(buf, 0, sizeof(buf));
		ASSERT_EQ(read(fd, buf, sizeof(buf) - 1), 2);
		ASSERT_EQ(strcmp(buf, "1\n"), 0);
		close(fd);
	}
	fs_path(path, dir, "binder-control");
	ASSERT_EQ(unlink(path), -1);
	ASSERT_EQ(errno, EPERM);
	fs_umount(dir);
}

/*
 * A binderfs device is reached only through its mount: a node made with
 * its numbers anywhere else opens nothing (no character device is
 * registered for them), so the numbers are no way into another mount's
 * world.
 */
TEST(device_numbers_do_not_open_outside_the_mount)
{
	char dir[PATH_MAX], path[PATH_MAX];
	const char *node = "/tmp/binderfs_mknod";
	struct binderfs_device dev;

	private_mounts();
	fs_mount_or_skip(dir, NULL);
	ASSERT_OK(fs_add(dir, "svc", &dev));
	unlink(node);
	ASSERT_EQ(mknod(node, S_IFCHR | 0600, makedev(dev.major, dev.minor)), 0);
	ASSERT_EQ(open(node, O_RDWR | O_CLOEXEC), -1);
	ASSERT_EQ(errno, ENXIO);
	ASSERT_EQ(unlink(node), 0);
	fs_path(path, dir, "svc");
	ASSERT_EQ(access(path, F_OK), 0);
	fs_umount(dir);
}

/*
 * unlink() removes the name at once; a process that has the device open
 * keeps its world (its context manager included) until it closes it.
 */
TEST(unlinked_device_keeps_working_until_closed)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct kbt_server s;
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct kbinder_reply r;

	private_mounts();
	fs_mount_or_skip(dir, NULL);
	ASSERT_OK(fs_add(dir, "gone", NULL));
	fs_path(path, dir, "gone");
	start_mgr(&s, path, 0x600d);
	kbt_open_dev(&p, path, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p.fd);
	ASSERT_EQ(unlink(path), 0);
	ASSERT_EQ(access(path, F_OK), -1);
	ASSERT_EQ(errno, ENOENT);
	/* the name is free again: a new device is a new world */
	ASSERT_OK(fs_add(dir, "gone", NULL));
	ASSERT_NE(call_mgr(path, &(uint32_t){0}), BR_REPLY);

	kbt_call(&t, 0, 1, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 0x600d);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
	kbt_stop_ctxmgr(&t, &s);
	kbinder_proc_close(&p);
	fs_umount(dir);
}

/*
 * Two mounts, the same device names, two worlds: a context manager in one
 * is invisible in the other, and each answers only its own clients.
 */
TEST(two_mounts_are_separate_worlds)
{
	char a[PATH_MAX], b[PATH_MAX], da[PATH_MAX], db[PATH_MAX];
	struct kbt_server sa, sb;
	uint32_t v = 0;

	private_mounts();
	fs_mount_or_skip(a, NULL);
	ASSERT_OK(fs_mount(b, NULL));
	ASSERT_OK(fs_add(a, "svc", NULL));
	ASSERT_OK(fs_add(b, "svc", NULL));
	fs_path(da, a, "svc");
	fs_path(db, b, "svc");

	start_mgr(&sa, da, 0xa);
	ASSERT_NE(call_mgr(db, &v), BR_REPLY);	/* no manager in b */
	start_mgr(&sb, db, 0xb);
	ASSERT_EQ(call_mgr(da, &v), BR_REPLY);
	ASSERT_EQ(v, 0xa);
	ASSERT_EQ(call_mgr(db, &v), BR_REPLY);
	ASSERT_EQ(v, 0xb);
	/* the default devices too */
	fs_path(da, a, "binder");
	ASSERT_NE(call_mgr(da, &v), BR_REPLY);

	fs_path(da, a, "svc");
	stop_mgr(&sa, da);
	stop_mgr(&sb, db);
	fs_umount(a);
	fs_umount(b);
}

/* One client and one call on @dev, the client left open in @p. */
static void open_and_call(const char *dev, struct kbinder_proc *p, uint32_t want)
{
	struct kbinder_thread t;
	struct kbinder_reply r;

	kbt_open_dev(p, dev, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p->fd);
	kbt_call(&t, 0, 1, NULL, &r);
	ASSERT_EQ(kbt_txn_u32(&r.txn, 0), want);
	ASSERT_OK(kbinder_thread_free_buffer(&t, r.txn.data.ptr.buffer));
}

/*
 * Many mounts with many devices, used and unmounted (some while still
 * open): every world and process is freed, so the live counters of
 * contexts, processes, nodes and refs come back to where they were.
 */
TEST_TIMEOUT(many_mounts_and_devices_leave_nothing_live, 120)
{
	static const char * const kinds[] = {
		"contexts", "procs", "threads", "nodes", "refs", "buffers",
	};
	enum { MOUNTS = 12, DEVICES = 16 };
	long base[sizeof(kinds) / sizeof(kinds[0])];
	char dir[PATH_MAX], path[PATH_MAX], name[16];
	struct kbt_server s;
	struct kbinder_proc keep;
	size_t k;
	int m, d;

	if (kbt_is_reference())
		SKIP("the reference driver (binder_linux) has no binderfs");
	private_mounts();
	/*
	 * The previous test's processes are released asynchronously: start
	 * from the settled counts (zero, once they are gone).
	 */
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		base[k] = kbt_live_wait(kinds[k], 0, 5000);

	for (m = 0; m < MOUNTS; m++) {
		fs_mount_or_skip(dir, NULL);
		for (d = 0; d < DEVICES; d++) {
			snprintf(name, sizeof(name), "dev%d", d);
			ASSERT_OK(fs_add(dir, name, NULL));
		}
		ASSERT_GT(kbt_live("contexts"), base[0]);
		fs_path(path, dir, "dev3");
		start_mgr(&s, path, (uint32_t)m);
		open_and_call(path, &keep, (uint32_t)m);
		stop_mgr(&s, path);
		/* every other mount goes away while a file is still open */
		if (m % 2) {
			fs_umount(dir);
			kbinder_proc_close(&keep);
		} else {
			kbinder_proc_close(&keep);
			fs_umount(dir);
		}
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		EXPECT_EQ(kbt_live_wait(kinds[k], base[k], 5000), base[k]);
}

struct race {
	const char *dir;
	int64_t until;
	int kind;
	long done;
};

/* One of the racers: add, unlink, open and use, or remount max=. */
static void *racer(void *arg)
{
	struct race *r = arg;
	char path[PATH_MAX], name[16], opt[32];
	unsigned int seed = (unsigned int)r->kind * 7919u;
	int32_t version;
	int fd;

	while (kbt_now_ms() < r->until) {
		snprintf(name, sizeof(name), "d%u", rand_r(&seed) % 32);
		fs_path(path, r->dir, name);
		switch (r->kind) {
		case 0:
			fs_add(r->dir, name, NULL);
			break;
		case 1:
			unlink(path);
			break;
		case 2:
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd >= 0) {
				if (kbinder_ioctl_version(fd, &version) == 0 &&
				    version != BINDER_CURRENT_PROTOCOL_VERSION)
					kbt_fail(__FILE__, __LINE__, false,
						 "version %d", version);
				close(fd);
			}
			break;
		default:
			snprintf(opt, sizeof(opt), "max=%u",
				 8 + rand_r(&seed) % 32);
			if (mount(NULL, r->dir, NULL, MS_REMOUNT, opt))
				kbt_fail(__FILE__, __LINE__, false,
					 "remount %s: %s", opt, strerror(errno));
			break;
		}
		r->done++;
	}
	return NULL;
}

/*
 * Adding, unlinking, opening and remounting at once, then unmounting with
 * whatever is left: no failure, no splat, and every world is freed.
 */
TEST_TIMEOUT(add_unlink_open_and_remount_race_safely, 60)
{
	enum { KINDS = 4, PER_KIND = 2 };
	struct race r[KINDS * PER_KIND];
	pthread_t th[KINDS * PER_KIND];
	char dir[PATH_MAX];
	long contexts;
	int i;

	if (kbt_is_reference())
		SKIP("the reference driver (binder_linux) has no binderfs");
	private_mounts();
	contexts = kbt_live_wait("contexts", 0, 5000);
	fs_mount_or_skip(dir, NULL);
	for (i = 0; i < KINDS * PER_KIND; i++) {
		r[i] = (struct race){ .dir = dir, .kind = i % KINDS,
				      .until = kbt_now_ms() + 3000 };
		ASSERT_EQ(pthread_create(&th[i], NULL, racer, &r[i]), 0);
	}
	for (i = 0; i < KINDS * PER_KIND; i++) {
		ASSERT_EQ(pthread_join(th[i], NULL), 0);
		kbt_log("racer %d (kind %d): %ld steps", i, r[i].kind,
			r[i].done);
	}
	fs_umount(dir);
	EXPECT_EQ(kbt_live_wait("contexts", contexts, 5000), contexts);
}

/* Whether /proc/self/mountinfo shows option @opt for the mount at @dir. */
static bool mount_has_option(const char *dir, const char *opt)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, dir) && strstr(line, opt))
			found = true;
	fclose(f);
	return found;
}

/*
 * max= counts every device (the default ones too, not binder-control);
 * a remount changes it, keeps it when not named, and a freed device
 * gives its place back.
 */
TEST(max_is_enforced_and_changed_by_remount)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int defaults = 0;
	DIR *dp;
	struct dirent *de;

	private_mounts();
	fs_mount_or_skip(dir, NULL);
	dp = opendir(dir);
	ASSERT_TRUE(dp != NULL);
	while ((de = readdir(dp)))
		if (de->d_type == DT_CHR && strcmp(de->d_name, "binder-control"))
			defaults++;
	closedir(dp);
	fs_umount(dir);
	kbt_log("%d default devices", defaults);

	if (defaults > 0) {
		char opt[32];

		/* too small for the default devices: the mount fails */
		snprintf(opt, sizeof(opt), "max=%d", defaults - 1);
		ASSERT_EQ(fs_mount(dir, opt), -ENOSPC);
	}
	{
		char opt[32];

		snprintf(opt, sizeof(opt), "max=%d", defaults);
		ASSERT_OK(fs_mount(dir, opt));
		ASSERT_TRUE(mount_has_option(dir, opt));
	}
	ASSERT_EQ(fs_add(dir, "one", NULL), -ENOSPC);
	{
		char opt[32];

		snprintf(opt, sizeof(opt), "max=%d", defaults + 1);
		ASSERT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, opt), 0);
		ASSERT_TRUE(mount_has_option(dir, opt));
	}
	ASSERT_OK(fs_add(dir, "one", NULL));
	ASSERT_EQ(fs_add(dir, "two", NULL), -ENOSPC);
	/* a remount that does not name max= keeps it */
	ASSERT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, ""), 0);
	ASSERT_EQ(fs_add(dir, "two", NULL), -ENOSPC);
	/* a removed device that nobody holds frees its place */
	fs_path(path, dir, "one");
	ASSERT_EQ(unlink(path), 0);
	ASSERT_OK(fs_add(dir, "two", NULL));
	/* too large */
	ASSERT_NE(mount(NULL, dir, NULL, MS_REMOUNT, "max=1048577"), 0);
	fs_umount(dir);
}

static void userns_mount(void *arg)
{
	char dir[PATH_MAX], path[PATH_MAX];
	int32_t version;
	struct kbinder_proc p;

	(void)arg;
	kbt_enter_user_ns();
	/* global statistics are not for a container's root */
	ASSERT_EQ(fs_mount(dir, "stats=global"), -EPERM);
	/* but binderfs itself is, devices and all */
	ASSERT_OK(fs_mount(dir, NULL));
	ASSERT_OK(fs_add(dir, "mine", NULL));
	fs_path(path, dir, "mine");
	kbt_open_dev(&p, path, KBT_MAP_SIZE);
	ASSERT_EQ(kbinder_ioctl_version(p.fd, &version), 0);
	ASSERT_EQ(version, BINDER_CURRENT_PROTOCOL_VERSION);
	kbinder_proc_close(&p);
	fs_umount(dir);
}

/*
 * The root of a user namespace may mount binderfs and use its devices,
 * but not with stats=global, which the initial namespace's root may.
 */
TEST(stats_global_is_refused_in_a_user_namespace)
{
	char dir[PATH_MAX];

	private_mounts();
	fs_mount_or_skip(dir, "stats=global");
	ASSERT_TRUE(mount_has_option(dir, "stats=global"));
	/* a remount keeps it */
	ASSERT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, "max=5"), 0);
	ASSERT_TRUE(mount_has_option(dir, "stats=global"));
	fs_umount(dir);
	ASSERT_CHILD_OK(kbt_fork(userns_mount, NULL));
}
