// SPDX-License-Identifier: Apache-2.0
/*
 * aosp-ctl: the two driver calls the AOSP interop run (interop/aosp/aosp.sh)
 * makes itself, as a container manager and Android's freezer do, and which
 * neither busybox nor AOSP's binaries offer:
 *
 *   aosp-ctl add CONTROL NAME         BINDER_CTL_ADD: a new device NAME in the
 *                                     binderfs whose binder-control is CONTROL
 *   aosp-ctl freeze DEVICE PID 1|0 [MS]
 *                                     BINDER_FREEZE of PID (in the caller's pid
 *                                     namespace) through DEVICE; MS: how long
 *                                     the driver may wait for its transactions
 *                                     to drain (default 1000)
 *   aosp-ctl frozen-info DEVICE PID   BINDER_GET_FROZEN_INFO: prints
 *                                     "sync_recv=N async_recv=N"
 *   aosp-ctl probe DEVICE             whether the two calls behind the
 *                                     features/ files libbinder 14 reads work
 *                                     through DEVICE: prints one NAME=0|1 line
 *                                     each (oneway_spam_detection:
 *                                     BINDER_ENABLE_ONEWAY_SPAM_DETECTION;
 *                                     extended_error: BINDER_GET_EXTENDED_ERROR)
 *
 * Exit status 0 on success, 1 with the errno's text on stderr otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/android/binder.h>
#include <linux/android/binderfs.h>

static int usage(void)
{
	fputs("usage: aosp-ctl add CONTROL NAME\n"
	      "       aosp-ctl freeze DEVICE PID 1|0 [TIMEOUT_MS]\n"
	      "       aosp-ctl frozen-info DEVICE PID\n"
	      "       aosp-ctl probe DEVICE\n", stderr);
	return 2;
}

static int open_or_say(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		fprintf(stderr, "aosp-ctl: %s: %s\n", path, strerror(errno));
	return fd;
}

static int ctl_add(const char *control, const char *name)
{
	struct binderfs_device dev = { 0 };
	int fd;

	if (strlen(name) >= sizeof(dev.name)) {
		fprintf(stderr, "aosp-ctl: device name too long: %s\n", name);
		return 1;
	}
	strcpy(dev.name, name);
	fd = open_or_say(control, O_RDONLY);
	if (fd < 0)
		return 1;
	if (ioctl(fd, BINDER_CTL_ADD, &dev) < 0) {
		fprintf(stderr, "aosp-ctl: BINDER_CTL_ADD %s: %s\n", name, strerror(errno));
		close(fd);
		return 1;
	}
	printf("%s: %u:%u\n", name, dev.major, dev.minor);
	close(fd);
	return 0;
}

static int ctl_freeze(const char *device, const char *pid, const char *enable,
		      const char *ms)
{
	struct binder_freeze_info info = {
		.pid = (uint32_t)strtoul(pid, NULL, 10),
		.enable = (uint32_t)strtoul(enable, NULL, 10),
		.timeout_ms = ms ? (uint32_t)strtoul(ms, NULL, 10) : 1000,
	};
	int fd = open_or_say(device, O_RDWR);

	if (fd < 0)
		return 1;
	if (ioctl(fd, BINDER_FREEZE, &info) < 0) {
		fprintf(stderr, "aosp-ctl: BINDER_FREEZE pid %s enable %s: %s\n",
			pid, enable, strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

static int ctl_frozen_info(const char *device, const char *pid)
{
	struct binder_frozen_status_info info = {
		.pid = (uint32_t)strtoul(pid, NULL, 10),
	};
	int fd = open_or_say(device, O_RDWR);

	if (fd < 0)
		return 1;
	if (ioctl(fd, BINDER_GET_FROZEN_INFO, &info) < 0) {
		fprintf(stderr, "aosp-ctl: BINDER_GET_FROZEN_INFO pid %s: %s\n",
			pid, strerror(errno));
		close(fd);
		return 1;
	}
	printf("sync_recv=%u async_recv=%u\n", info.sync_recv, info.async_recv);
	close(fd);
	return 0;
}

static int ctl_probe(const char *device)
{
	struct binder_extended_error ee = { 0 };
	uint32_t enable = 1;
	int fd = open_or_say(device, O_RDWR);

	if (fd < 0)
		return 1;
	printf("oneway_spam_detection=%d\n",
	       ioctl(fd, BINDER_ENABLE_ONEWAY_SPAM_DETECTION, &enable) == 0);
	printf("extended_error=%d\n", ioctl(fd, BINDER_GET_EXTENDED_ERROR, &ee) == 0);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "add"))
		return ctl_add(argv[2], argv[3]);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "freeze"))
		return ctl_freeze(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (argc == 4 && !strcmp(argv[1], "frozen-info"))
		return ctl_frozen_info(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "probe"))
		return ctl_probe(argv[2]);
	return usage();
}
