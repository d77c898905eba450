// SPDX-License-Identifier: Apache-2.0
/*
 * Device profiles (issue 32, docs/api-audit.md): a binder device made
 * with the "aidl" profile refuses what no AIDL user sends, each refusal
 * answered as the driver answers an unknown command or object today plus
 * an extended error that names the reason (BR_FAILED_REPLY, -EOPNOTSUPP),
 * counted as refused in the world's counters; everything AIDL does still
 * works there; a "full" device accepts the same calls. Profiles come from
 * the binderfs mount option profile=, from the major field of
 * BINDER_CTL_ADD (KBINDER_CTL_PROFILE()), or for the misc devices from
 * devices=name:aidl (tests/vm/guest/modparams.sh loads that and runs
 * misc_device_answers_by_its_profile here), and are visible in
 * binder_logs/profiles, the mount's options and /sys/class/misc/<dev>/profile.
 *
 * kbinder-only (binderfs and profiles), except
 * misc_device_answers_by_its_profile, which runs on both drivers: on the
 * reference and on a full kbinder device the scatter-gather call is
 * accepted.
 */
#include "cve_common.h"
#include "counts.h"
#include "live.h"
#include "driver_features.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <sys/mount.h>

#include <linux/kbinder_profile.h>

/* The profile binder_logs/profiles of the mount at @dir gives @dev. */
static void profile_of(const char *dir, const char *dev, char *out, size_t n)
{
	char path[PATH_MAX], name[80], prof[16];
	FILE *f;

	kbt_fs_path(path, dir, "binder_logs/profiles");
	f = fopen(path, "r");
	ASSERT_TRUE(f != NULL);
	snprintf(out, n, "(none)");
	while (fscanf(f, "%79s %15s", name, prof) == 2)
		if (!strcmp(name, dev))
			snprintf(out, n, "%s", prof);
	fclose(f);
}

#define EXPECT_PROFILE(dir, dev, want) do {				\
	char _p[16];							\
	profile_of((dir), (dev), _p, sizeof(_p));			\
	if (strcmp(_p, (want)))						\
		kbt_fail(__FILE__, __LINE__, false, "%s: profile %s, want %s", \
			 (dev), _p, (want));				\
	else								\
		kbt_asserted();						\
} while (0)

/* Whether the mount at @dir shows option @opt in /proc/self/mountinfo. */
static bool mount_shows(const char *dir, const char *opt)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, dir) && strstr(line, opt))
			found = true;
	fclose(f);
	return found;
}

/*
 * profile=aidl makes a mount's devices aidl, its default ones too, and
 * shows in its options; BINDER_CTL_ADD's major field picks another with
 * the magic only: 0 and garbage give the mount's; the magic with an
 * unknown profile is refused, and so is one less strict than the mount's
 * (EPERM: the mount's profile is a ceiling). A remount by the initial
 * namespace's root may relax it for the devices made after it. A mount
 * without the option starts with the module's devices= list, each with
 * its profile there, the same as the misc device of that name.
 */
TEST(profiles_come_from_the_mount_and_binder_ctl_add)
{
	char dir[PATH_MAX], full[PATH_MAX], misc[16];

	kbt_device_profile("/dev/binder", misc, sizeof(misc));
	kbt_private_mounts();
	kbt_fs_mount(full, NULL);
	EXPECT_PROFILE(full, "binder", misc);
	EXPECT_FALSE(mount_shows(full, "profile="));
	ASSERT_OK(kbt_fs_add(full, "zero", 0));
	ASSERT_OK(kbt_fs_add(full, "garbage", 0xdeadbeef));
	ASSERT_OK(kbt_fs_add(full, "asked", KBINDER_CTL_PROFILE(KBINDER_PROFILE_AIDL)));
	EXPECT_EQ(kbt_fs_add(full, "unknown", KBINDER_CTL_PROFILE(0x7f)), -EINVAL);
	EXPECT_PROFILE(full, "zero", "full");
	EXPECT_PROFILE(full, "garbage", "full");
	EXPECT_PROFILE(full, "asked", "aidl");
	EXPECT_PROFILE(full, "unknown", "(none)");

	kbt_fs_mount(dir, "profile=aidl");
	EXPECT_PROFILE(dir, "binder", "aidl");
	EXPECT_TRUE(mount_shows(dir, "profile=aidl"));
	ASSERT_OK(kbt_fs_add(dir, "zero", 0));
	ASSERT_OK(kbt_fs_add(dir, "garbage", 0xdeadbeef));
	EXPECT_EQ(kbt_fs_add(dir, "asked", KBINDER_CTL_PROFILE(KBINDER_PROFILE_FULL)), -EPERM);
	ASSERT_OK(kbt_fs_add(dir, "same", KBINDER_CTL_PROFILE(KBINDER_PROFILE_AIDL)));
	EXPECT_PROFILE(dir, "zero", "aidl");
	EXPECT_PROFILE(dir, "garbage", "aidl");
	EXPECT_PROFILE(dir, "asked", "(none)");
	EXPECT_PROFILE(dir, "same", "aidl");
	/* each mount lists its own devices only */
	EXPECT_PROFILE(full, "asked", "aidl");

	ASSERT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, "profile=full"), 0);
	ASSERT_OK(kbt_fs_add(dir, "later", 0));
	EXPECT_PROFILE(dir, "later", "full");
	EXPECT_PROFILE(dir, "zero", "aidl");
	EXPECT_EQ(mount("x", dir, KBT_FSTYPE, MS_REMOUNT, "profile=hidl"), -1);
	kbt_fs_umount(dir);
	kbt_fs_umount(full);
}

static void userns_aidl_mount(void *arg)
{
	char dir[PATH_MAX];

	(void)arg;
	kbt_enter_user_ns();
	kbt_fs_mount(dir, "profile=aidl");
	EXPECT_EQ(kbt_fs_add(dir, "asked", KBINDER_CTL_PROFILE(KBINDER_PROFILE_FULL)), -EPERM);
	EXPECT_PROFILE(dir, "asked", "(none)");
	/* relaxing is the initial namespace's root's: refused, and kept */
	EXPECT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, "profile=full"), -1);
	EXPECT_EQ(errno, EPERM);
	EXPECT_TRUE(mount_shows(dir, "profile=aidl"));
	/* a remount that does not relax it is fine */
	ASSERT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, "max=50"), 0);
	ASSERT_EQ(mount(NULL, dir, NULL, MS_REMOUNT, "profile=aidl"), 0);
	ASSERT_OK(kbt_fs_add(dir, "later", 0));
	EXPECT_PROFILE(dir, "later", "aidl");
	kbt_fs_umount(dir);
}

/*
 * A container's root that mounts binderfs with profile=aidl (or is given
 * such a mount) cannot get a full device from it: neither through
 * BINDER_CTL_ADD nor by a remount.
 */
TEST(an_aidl_mount_is_a_ceiling_in_a_user_namespace)
{
	if (kbt_is_reference())
		SKIP("kbinder-only: the reference driver (binder_linux) has no binderfs and no profiles");
	ASSERT_CHILD_OK(kbt_fork(userns_aidl_mount, NULL));
}

/* An aidl device "prof" and a full device "full" in a new mount at @dir. */
static void mount_two(char *dir, char *aidl, char *full)
{
	kbt_private_mounts();
	kbt_fs_mount(dir, NULL);
	ASSERT_OK(kbt_fs_add(dir, "prof", KBINDER_CTL_PROFILE(KBINDER_PROFILE_AIDL)));
	ASSERT_OK(kbt_fs_add(dir, "full", 0));
	kbt_fs_path(aidl, dir, "prof");
	kbt_fs_path(full, dir, "full");
}

static struct binder_extended_error extended_error(int fd)
{
	struct binder_extended_error ee;

	memset(&ee, 0xff, sizeof(ee));
	ASSERT_EQ(ioctl(fd, BINDER_GET_EXTENDED_ERROR, &ee), 0);
	return ee;
}

/*
 * Write BC_INCREFS 0 and then @cmd with a zeroed argument of its size:
 * return the ioctl's result, the bytes consumed in @consumed.
 */
static int write_after_increfs(int fd, uint32_t cmd, size_t arg_size,
			       size_t *consumed)
{
	uint8_t buf[8 + 4 + sizeof(struct binder_transaction_data_sg)] = { 0 };
	uint32_t head[3] = { BC_INCREFS, 0, cmd };

	memcpy(buf, head, sizeof(head));
	*consumed = 0;
	return kbinder_ioctl_write(fd, buf, 12 + arg_size, consumed);
}

static const uint32_t refused_cmds[] = {
	BC_TRANSACTION_SG, BC_REPLY_SG, BC_ATTEMPT_ACQUIRE, BC_ACQUIRE_RESULT,
};
#define N_REFUSED (sizeof(refused_cmds) / sizeof(refused_cmds[0]))

/*
 * On an aidl device each refused command fails the write with EINVAL
 * after the commands before it ran, with the extended error
 * BR_FAILED_REPLY / -EOPNOTSUPP (no transaction id), and is counted as
 * refused; on a full device the two scatter-gather commands are taken
 * and the two unsupported ones fail as before, without extended error.
 */
TEST(aidl_refuses_the_commands_aidl_never_sends)
{
	char dir[PATH_MAX], aidl[PATH_MAX], full[PATH_MAX], file[PATH_MAX];
	char item[80];
	struct kbinder_proc a, f;
	struct binder_extended_error ee;
	struct kbt_counts c;
	size_t i, consumed;
	int ret;

	mount_two(dir, aidl, full);
	for (i = 0; i < N_REFUSED; i++) {
		uint32_t cmd = refused_cmds[i];
		size_t size = _IOC_SIZE(cmd);

		/* new files: a failed call leaves an error to read first */
		kbt_open_dev(&a, aidl, KBT_MAP_SIZE);
		kbt_open_dev(&f, full, KBT_MAP_SIZE);
		ret = write_after_increfs(a.fd, cmd, size, &consumed);
		EXPECT_EQ(ret, -EINVAL);
		EXPECT_EQ(consumed, (size_t)8);
		ee = extended_error(a.fd);
		EXPECT_EQ(ee.id, 0);
		EXPECT_EQ(ee.command, BR_FAILED_REPLY);
		EXPECT_EQ(ee.param, -EOPNOTSUPP);
		/* read once: it is reset */
		ee = extended_error(a.fd);
		EXPECT_EQ(ee.command, BR_OK);

		ret = write_after_increfs(f.fd, cmd, size, &consumed);
		ee = extended_error(f.fd);
		if (cmd == BC_TRANSACTION_SG || cmd == BC_REPLY_SG) {
			EXPECT_EQ(ret, 0);
			EXPECT_EQ(consumed, 12 + size);
			EXPECT_NE(ee.param, -EOPNOTSUPP);
		} else {
			EXPECT_EQ(ret, -EINVAL);
			EXPECT_EQ(ee.command, BR_OK);
		}
		kbinder_proc_close(&a);
		kbinder_proc_close(&f);
	}

	kbt_fs_path(file, dir, "binder_logs/counts");
	ASSERT_OK(kbt_counts_read(file, "prof", &c));
	EXPECT_EQ(strcmp(c.profile, "aidl"), 0);
	for (i = 0; i < N_REFUSED; i++) {
		const char *name = kbinder_command_name(refused_cmds[i]);

		snprintf(item, sizeof(item), "refused %s", name);
		EXPECT_EQ(kbt_count(&c, item), 1);
		EXPECT_EQ(kbt_count(&c, name), 0);
		/* counted at the handler: it never ran */
		snprintf(item, sizeof(item), "handled %s", name);
		EXPECT_EQ(kbt_count(&c, item), 0);
	}
	EXPECT_EQ(kbt_count(&c, "BC_INCREFS"), 4);
	ASSERT_OK(kbt_counts_read(file, "full", &c));
	EXPECT_EQ(kbt_count(&c, "refused BC_TRANSACTION_SG"), 0);
	EXPECT_EQ(kbt_count(&c, "BC_TRANSACTION_SG"), 1);
	EXPECT_EQ(kbt_count(&c, "BC_REPLY_SG"), 1);
	EXPECT_EQ(kbt_count(&c, "handled BC_TRANSACTION_SG"), 1);
	EXPECT_EQ(kbt_count(&c, "handled BC_REPLY_SG"), 1);
	kbt_fs_umount(dir);
}

/*
 * One one-way BC_TRANSACTION to the manager of @dev (a raw thread on a
 * second fd) with a binder and then @type (a PTR of length 0 or an FDA):
 * the outcome, and the extended error in @ee. The manager reads and frees
 * what reaches it.
 */
static uint32_t send_object(const char *dev, uint32_t type,
			    struct binder_extended_error *ee)
{
	struct flat_binder_object ext = { .flags = FLAT_BINDER_FLAG_ACCEPTS_FDS };
	uint8_t data[CVE_FLAT_SIZE + CVE_PTR_SIZE] = { 0 };
	binder_size_t offs[2] = { 0, CVE_FLAT_SIZE };
	struct kbinder_proc mp, cp;
	struct kbinder_thread m, c;
	struct kbinder_return r;
	uint32_t got;
	int ret;

	kbt_open_dev(&mp, dev, KBT_MAP_SIZE);
	kbt_open_dev(&cp, dev, KBT_MAP_SIZE);
	ASSERT_OK(kbt_become_ctxmgr(mp.fd, &ext));
	kbinder_thread_init(&m, mp.fd);
	kbinder_thread_init(&c, cp.fd);
	cve_put_flat(data, 0, BINDER_TYPE_BINDER, 0x1000, 0);
	if (type == BINDER_TYPE_PTR)
		cve_put_ptr(data, CVE_FLAT_SIZE, NULL, 0, false, 0, 0);
	else
		cve_put_fda(data, CVE_FLAT_SIZE, 0, 0, 0);
	kbt_write_txn(cp.fd, &(struct kbt_txn){
		.handle = 0, .code = 1, .flags = TF_ONE_WAY,
		.data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs),
	});
	got = kbt_outcome(&c, true, NULL, KBT_WAIT_MS);
	*ee = extended_error(cp.fd);
	if (got == BR_TRANSACTION_COMPLETE) {
		uint8_t wbuf[16];
		struct kbinder_writer w;

		kbinder_writer_init(&w, wbuf, sizeof(wbuf));
		kbinder_writer_put_looper(&w, BC_ENTER_LOOPER);
		ASSERT_OK(kbinder_ioctl_write(mp.fd, wbuf, w.len, NULL));
		do {
			ret = kbinder_thread_next(&m, &r, KBT_WAIT_MS);
			ASSERT_OK(ret);
		} while (r.cmd != BR_TRANSACTION);
		ASSERT_OK(kbinder_thread_free_buffer(&m, r.u.txn.data.ptr.buffer));
	}
	kbinder_proc_close(&cp);
	kbinder_proc_close(&mp);
	return got;
}

/*
 * On an aidl device a PTR or FDA object fails its transaction with
 * BR_FAILED_REPLY and the extended error -EOPNOTSUPP (with the
 * transaction's id), after the binder before it was translated: that one
 * is released again (the live counters come back), and the refusal is
 * counted. On a full device the same PTR (length 0) is delivered, and the
 * FDA (no parent) fails for what it is, -EINVAL.
 */
TEST(aidl_refuses_ptr_and_fda_objects_without_a_leak)
{
	char dir[PATH_MAX], aidl[PATH_MAX], full[PATH_MAX], file[PATH_MAX];
	struct binder_extended_error ee;
	struct kbt_live base;
	struct kbt_counts c;

	mount_two(dir, aidl, full);
	kbt_live_settle(2000);
	kbt_live_start(&base);

	ASSERT_STATUS(send_object(aidl, BINDER_TYPE_PTR, &ee), BR_FAILED_REPLY);
	EXPECT_NE(ee.id, 0);
	EXPECT_EQ(ee.command, BR_FAILED_REPLY);
	EXPECT_EQ(ee.param, -EOPNOTSUPP);
	ASSERT_STATUS(send_object(aidl, BINDER_TYPE_FDA, &ee), BR_FAILED_REPLY);
	EXPECT_EQ(ee.param, -EOPNOTSUPP);

	ASSERT_STATUS(send_object(full, BINDER_TYPE_PTR, &ee),
		      BR_TRANSACTION_COMPLETE);
	ASSERT_STATUS(send_object(full, BINDER_TYPE_FDA, &ee), BR_FAILED_REPLY);
	EXPECT_EQ(ee.param, -EINVAL);
	EXPECT_LIVE_BACK(&base, 5000, "after the refused objects");

	kbt_fs_path(file, dir, "binder_logs/counts");
	ASSERT_OK(kbt_counts_read(file, "prof", &c));
	EXPECT_EQ(kbt_count(&c, "refused BINDER_TYPE_PTR"), 1);
	EXPECT_EQ(kbt_count(&c, "refused BINDER_TYPE_FDA"), 1);
	EXPECT_EQ(kbt_count(&c, "BINDER_TYPE_PTR"), 0);
	EXPECT_EQ(kbt_count(&c, "BINDER_TYPE_FDA"), 0);
	EXPECT_EQ(kbt_count(&c, "handled BINDER_TYPE_PTR"), 0);
	EXPECT_EQ(kbt_count(&c, "handled BINDER_TYPE_FDA"), 0);
	EXPECT_EQ(kbt_count(&c, "BINDER_TYPE_BINDER"), 2);
	ASSERT_OK(kbt_counts_read(file, "full", &c));
	EXPECT_EQ(kbt_count(&c, "BINDER_TYPE_PTR"), 1);
	EXPECT_EQ(kbt_count(&c, "BINDER_TYPE_FDA"), 1);
	EXPECT_EQ(kbt_count(&c, "handled BINDER_TYPE_PTR"), 1);
	EXPECT_EQ(kbt_count(&c, "handled BINDER_TYPE_FDA"), 1);
	EXPECT_EQ(kbt_count(&c, "refused BINDER_TYPE_PTR"), 0);
	kbt_fs_umount(dir);
}

/* Close the fds a call brought (they are ours now), then reply @arg. */
static int close_fds_reply(struct kbinder_thread *t,
			   const struct binder_transaction_data *tr,
			   struct kbinder_parcel *reply, void *arg)
{
	struct flat_binder_object o;
	size_t i;

	for (i = 0; i < tr->offsets_size / sizeof(binder_size_t); i++) {
		kbt_txn_object(tr, i, &o);
		if (o.hdr.type == BINDER_TYPE_FD)
			close((int)o.handle);
	}
	return kbt_reply_arg(t, tr, reply, arg);
}

/*
 * What AIDL does works on an aidl device: a context manager, a reference
 * to it, a call with a binder, a handle and an fd, its reply.
 */
TEST(aidl_device_serves_what_aidl_sends)
{
	char dir[PATH_MAX], aidl[PATH_MAX], full[PATH_MAX], file[PATH_MAX];
	uint8_t data[CVE_HDR + 3 * CVE_FLAT_SIZE] = { 0 };
	binder_size_t offs[3];
	struct kbinder_proc p;
	struct kbinder_thread t;
	struct cve_server s;
	struct kbt_counts c;
	struct kbinder_writer w;
	uint8_t wbuf[32];
	int devnull, i;

	mount_two(dir, aidl, full);
	ASSERT_EQ(setenv("BINDER_DEVICE", aidl, 1), 0);
	cve_server_start(&s, 0, close_fds_reply, (void *)(uintptr_t)7);
	kbt_open_dev(&p, aidl, KBT_MAP_SIZE);
	kbinder_thread_init(&t, p.fd);
	/* the handle object needs a reference to handle 0 */
	kbinder_writer_init(&w, wbuf, sizeof(wbuf));
	kbinder_writer_put_handle(&w, BC_INCREFS, 0);
	kbinder_writer_put_handle(&w, BC_ACQUIRE, 0);
	ASSERT_OK(w.err);
	ASSERT_OK(kbinder_ioctl_write(p.fd, wbuf, w.len, NULL));

	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(devnull, 0);
	cve_put_flat(data, CVE_HDR, BINDER_TYPE_BINDER, 0x1000, 0);
	cve_put_flat(data, CVE_HDR + CVE_FLAT_SIZE, BINDER_TYPE_HANDLE, 0, 0);
	cve_put_fd(data, CVE_HDR + 2 * CVE_FLAT_SIZE, devnull);
	for (i = 0; i < 3; i++)
		offs[i] = CVE_HDR + i * CVE_FLAT_SIZE;
	ASSERT_STATUS(kbt_transact(&t, &(struct kbt_txn){
		.handle = 0, .code = 1, .flags = TF_ACCEPT_FDS,
		.data = data, .size = sizeof(data),
		.offs = offs, .offs_size = sizeof(offs),
	}, NULL), BR_REPLY);
	close(devnull);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);

	kbt_fs_path(file, dir, "binder_logs/counts");
	ASSERT_OK(kbt_counts_read(file, "prof", &c));
	EXPECT_GE(kbt_count(&c, "BC_TRANSACTION"), 2);
	EXPECT_GE(kbt_count(&c, "BC_REPLY"), 1);
	EXPECT_EQ(kbt_count(&c, "BINDER_TYPE_FD"), 1);
	EXPECT_EQ(kbt_count(&c, "refused BC_TRANSACTION_SG"), 0);
	EXPECT_EQ(kbt_count(&c, "refused BINDER_TYPE_PTR"), 0);
	kbt_fs_umount(dir);
}

/*
 * $BINDER_DEVICE answers a one-way BC_TRANSACTION_SG by its profile: a
 * kbinder misc device's is /sys/class/misc/<name>/profile (the guest's
 * main run has full devices; modparams.sh runs this again with
 * devices=binder:aidl,...), the reference driver's is full. On full the
 * call is taken (its outcome depends on whether a manager is there); on
 * aidl it is refused with the extended error.
 */
TEST(misc_device_answers_by_its_profile)
{
	const char *dev = kbinder_proc_default_device();
	char path[PATH_MAX], copy[PATH_MAX], prof[16] = "full";
	struct binder_extended_error ee;
	struct kbinder_proc p;
	size_t consumed;
	FILE *f;
	int ret;

	snprintf(copy, sizeof(copy), "%s", dev);
	snprintf(path, sizeof(path), "/sys/class/misc/%s/profile", basename(copy));
	f = fopen(path, "r");
	if (kbt_is_reference()) {
		EXPECT_TRUE(f == NULL);
	} else {
		ASSERT_TRUE(f != NULL);
		ASSERT_EQ(fscanf(f, "%15s", prof), 1);
	}
	if (f)
		fclose(f);
	kbt_log("%s: profile %s", dev, prof);
	kbt_open_dev(&p, dev, KBT_MAP_SIZE);
	ret = write_after_increfs(p.fd, BC_TRANSACTION_SG,
				  sizeof(struct binder_transaction_data_sg),
				  &consumed);
	ee = extended_error(p.fd);
	if (!strcmp(prof, "aidl")) {
		EXPECT_EQ(ret, -EINVAL);
		EXPECT_EQ(consumed, (size_t)8);
		EXPECT_EQ(ee.param, -EOPNOTSUPP);
	} else {
		ASSERT_EQ(strcmp(prof, "full"), 0);
		EXPECT_EQ(ret, 0);
		EXPECT_EQ(consumed, 12 + sizeof(struct binder_transaction_data_sg));
		EXPECT_NE(ee.param, -EOPNOTSUPP);
	}
	kbinder_proc_close(&p);
}
