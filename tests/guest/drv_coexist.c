// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder beside the reference driver: with the reference loaded (it owns
 * binder, hwbinder, vndbinder), loading kbinder with the same names fails
 * cleanly, and with other names it loads, answers, and unloads.
 * Runs only when the reference is the driver under test.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness.h"
#include "binder_util.h"

#define KO "/lib/modules/kbinder.ko"

static int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(kbinder_loads_beside_reference_under_other_names)
{
	struct binder_version v = { 0 };
	int fd;

	if (!getenv("KBINDER_DRIVER") ||
	    strcmp(getenv("KBINDER_DRIVER"), "reference"))
		SKIP("needs the reference driver loaded");
	if (access(KO, R_OK))
		SKIP("no " KO " in this initramfs");
	/*
	 * the names are taken: the load fails and leaves nothing behind.
	 * Linux 6.1 and 6.12 check no misc device name: sysfs refuses the
	 * duplicate and logs it with a stack dump before misc_register() fails.
	 */
	kbt_expect_stack_dump(true);
	ASSERT_NE(sh("insmod " KO " 2>/dev/null"), 0);
	kbt_expect_stack_dump(false);
	ASSERT_EQ(sh("dmesg | grep -q 'kbinder: device name \"binder\" is already taken'"), 0);
	ASSERT_NE(access("/sys/kernel/debug/kbinder", F_OK), 0);
	ASSERT_NE(sh("grep -q '^kbinder ' /proc/modules"), 0);
	/* other names: it loads beside the reference */
	ASSERT_EQ(sh("insmod " KO " devices=kbtest0,kbtest1"), 0);
	fd = open("/dev/kbtest0", O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, BINDER_VERSION, &v), 0);
	ASSERT_EQ(v.protocol_version, 8);
	close(fd);
	ASSERT_EQ(access("/dev/binder", F_OK), 0);	/* still the reference's */
	ASSERT_EQ(sh("rmmod kbinder"), 0);
	ASSERT_NE(access("/dev/kbtest0", F_OK), 0);
}
