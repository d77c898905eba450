// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2018-20510: binder's debugfs files printed kernel addresses (%p of
 * nodes, refs, buffers, transactions), handing an attacker the kernel
 * layout. kbinder's promise is stronger than upstream's fix: nothing it
 * prints, anywhere, contains a kernel address; ids and counters only.
 *
 * With objects of every kind alive (context manager, nodes, references, a
 * kept buffer, a one-way call queued behind it, a death notification), the
 * tests read every file under /sys/kernel/debug/kbinder, the module's
 * parameters and any /proc entry it adds, and the logs of a binderfs
 * mount if kbinder offers one, and fail on anything that looks like a
 * kernel address (ffff followed by 12 hex digits, with or without 0x).
 * /sys/module/kbinder/sections and notes are the kernel's module loader's
 * (root-only), not kbinder's, and are not read.
 *
 * kbinder-only: on the reference the test reports how many such values
 * upstream's own debugfs shows, and skips.
 */
#include "cve_common.h"

#include <dirent.h>
#include <stdio.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>

struct scan {
	int files;
	int hits;
	char first[256];
};

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* Count kernel-address-looking words in @buf; remember the first. */
static void scan_text(struct scan *s, const char *path, const char *buf,
		      size_t n)
{
	size_t i, j;

	for (i = 0; i + 16 <= n; i++) {
		if (i && is_hex(buf[i - 1]))
			continue;
		if (strncasecmp(buf + i, "ffff", 4))
			continue;
		for (j = 4; j < 16 && is_hex(buf[i + j]); j++)
			;
		if (j < 16)
			continue;
		if (!s->hits++)
			snprintf(s->first, sizeof(s->first), "%s: %.16s", path,
				 buf + i);
	}
}

static void scan_file(struct scan *s, const char *path)
{
	size_t cap = 1 << 20, n = 0;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return;
	}
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r <= 0 || (n += (size_t)r) == cap)
			break;
	}
	close(fd);
	s->files++;
	scan_text(s, path, buf, n);
	free(buf);
}

static void scan_tree(struct scan *s, const char *dir, int depth)
{
	struct dirent *e;
	DIR *d;

	if (depth > 6)
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[512];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		if (!strcmp(e->d_name, "sections") || !strcmp(e->d_name, "notes"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			scan_tree(s, path, depth + 1);
		else if (S_ISREG(st.st_mode))
			scan_file(s, path);
	}
	closedir(d);
}

/*
 * Objects of every kind: the registry (context manager), an owner's node
 * and the references to it, a buffer the registry keeps... and a death
 * notification on the registry.
 */
struct activity {
	struct cve_world w;
};

static void activity_up(struct activity *a)
{
	cve_world_up(&a->w);
	ASSERT_OK(kbinder_thread_request_death(&a->w.t, a->w.h, 0xdeadull));
}

static void activity_down(struct activity *a)
{
	struct kbinder_return ret;

	ASSERT_OK(kbinder_thread_clear_death(&a->w.t, a->w.h, 0xdeadull));
	kbt_expect(&a->w.t, BR_CLEAR_DEATH_NOTIFICATION_DONE, &ret);
	cve_world_check_down(&a->w);
}

static void fail_on_hits(const struct scan *s, const char *where)
{
	if (s->hits)
		kbt_fail(__FILE__, __LINE__, true,
			 "%d kernel-address-like values in %s (first: %s)",
			 s->hits, where, s->first);
}

static void skip_on_reference(void)
{
	struct activity a;
	struct scan s;

	if (!kbt_is_reference())
		return;
	memset(&s, 0, sizeof(s));
	activity_up(&a);
	scan_tree(&s, "/sys/kernel/debug/binder", 0);
	activity_down(&a);
	SKIP("kbinder-only: this checks kbinder's own files (for comparison, the reference's debugfs showed %d kernel-address-like values in %d files%s%s)",
	     s.hits, s.files, s.hits ? ", e.g. " : "", s.first);
}

TEST(debugfs_shows_no_kernel_addresses)
{
	struct activity a;
	struct scan s;

	skip_on_reference();
	memset(&s, 0, sizeof(s));
	activity_up(&a);
	scan_tree(&s, "/sys/kernel/debug/kbinder", 0);
	activity_down(&a);
	kbt_log("%d files read", s.files);
	ASSERT_GT(s.files, 0);
	fail_on_hits(&s, "/sys/kernel/debug/kbinder");
}

TEST(module_sysfs_and_proc_files_show_no_kernel_addresses)
{
	struct activity a;
	struct dirent *e;
	struct scan s;
	DIR *d;

	skip_on_reference();
	memset(&s, 0, sizeof(s));
	activity_up(&a);
	scan_tree(&s, "/sys/module/kbinder/parameters", 0);
	d = opendir("/proc");
	ASSERT_TRUE(d != NULL);
	while ((e = readdir(d))) {
		char path[512];

		if (!strstr(e->d_name, "binder"))
			continue;
		snprintf(path, sizeof(path), "/proc/%s", e->d_name);
		scan_tree(&s, path, 0);
		scan_file(&s, path);
	}
	closedir(d);
	activity_down(&a);
	kbt_log("%d files read", s.files);
	fail_on_hits(&s, "kbinder's /sys and /proc files");
}

TEST(binderfs_logs_show_no_kernel_addresses)
{
	const char *mnt = "/tmp/cve_2018_20510_binderfs";
	struct activity a;
	struct scan s;

	skip_on_reference();
	memset(&s, 0, sizeof(s));
	mkdir(mnt, 0700);
	if (mount("binder", mnt, "binder", 0, "stats=global"))
		if (mount("binder", mnt, "binder", 0, NULL))
			SKIP("no binderfs to mount: %s", strerror(errno));
	activity_up(&a);
	scan_tree(&s, mnt, 0);
	activity_down(&a);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	kbt_log("%d files read", s.files);
	fail_on_hits(&s, "binderfs");
}
