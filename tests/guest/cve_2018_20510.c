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
 * mount (stats=global, so they show the test's processes), and fail on
 * anything that looks like a kernel address (ffff followed by 12 hex
 * digits, with or without 0x). /sys/module/kbinder/sections and notes are
 * the kernel's module loader's (root-only), not kbinder's, and are not
 * read.
 *
 * A scan that read nothing finds nothing: each test also fails if a file
 * it lists cannot be read, and names the files it must have read, not
 * empty (debugfs's live and reuse, the module's parameters, the five logs
 * and each of the test's processes' proc/<pid> in binder_logs/).
 *
 * kbinder-only: on the reference the test reports how many such values
 * upstream's own debugfs shows, and skips.
 */
#include "cve_common.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* A file the scan must read, with at least @min_bytes in it. */
struct must_read {
	char path[128];
	size_t min_bytes;
	size_t got;		/* bytes read, or (size_t)-1: not read */
};

#define MUST_MAX 16

struct scan {
	int files;
	size_t bytes;
	int hits;
	char first[256];
	int unreadable;
	char first_unreadable[256];
	int n_must;
	struct must_read must[MUST_MAX];
};

/* The scan must read @path (a full path), with at least @min_bytes. */
static void must_read(struct scan *s, size_t min_bytes, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void must_read(struct scan *s, size_t min_bytes, const char *fmt, ...)
{
	struct must_read *m;
	va_list ap;

	ASSERT_LT(s->n_must, MUST_MAX);
	m = &s->must[s->n_must++];
	va_start(ap, fmt);
	vsnprintf(m->path, sizeof(m->path), fmt, ap);
	va_end(ap);
	m->min_bytes = min_bytes;
	m->got = (size_t)-1;
}

static void note_read(struct scan *s, const char *path, size_t n)
{
	int i;

	for (i = 0; i < s->n_must; i++)
		if (!strcmp(s->must[i].path, path))
			s->must[i].got = n;
}

static void note_unreadable(struct scan *s, const char *path)
{
	if (!s->unreadable++)
		snprintf(s->first_unreadable, sizeof(s->first_unreadable),
			 "%s: %s", path, strerror(errno));
}

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
	if (fd < 0) {
		note_unreadable(s, path);
		return;
	}
	buf = malloc(cap);
	ASSERT_NE(buf, NULL);
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0) {
			note_unreadable(s, path);
			break;
		}
		if (r == 0 || (n += (size_t)r) == cap)
			break;
	}
	close(fd);
	s->files++;
	s->bytes += n;
	note_read(s, path, n);
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

/*
 * The verdict of a scan: no kernel address, no file it could not read,
 * and every file it must read read, not empty.
 */
static void judge(const struct scan *s, const char *where)
{
	int i;

	kbt_log("%s: %d files, %zu bytes read", where, s->files, s->bytes);
	if (s->hits)
		kbt_fail(__FILE__, __LINE__, false,
			 "%d kernel-address-like values in %s (first: %s)",
			 s->hits, where, s->first);
	if (s->unreadable)
		kbt_fail(__FILE__, __LINE__, false,
			 "%d files of %s could not be read (first: %s)",
			 s->unreadable, where, s->first_unreadable);
	for (i = 0; i < s->n_must; i++) {
		const struct must_read *m = &s->must[i];

		if (m->got == (size_t)-1)
			kbt_fail(__FILE__, __LINE__, false,
				 "%s was not read: the scan missed it", m->path);
		else if (m->got < m->min_bytes)
			kbt_fail(__FILE__, __LINE__, false,
				 "%s held %zu bytes, fewer than %zu", m->path,
				 m->got, m->min_bytes);
	}
	ASSERT_GT(s->files, 0);
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
	/* kbinder's two debugfs files (docs/design.md), with every counter */
	must_read(&s, 8, "/sys/kernel/debug/kbinder/live");
	must_read(&s, 8, "/sys/kernel/debug/kbinder/reuse");
	activity_up(&a);
	scan_tree(&s, "/sys/kernel/debug/kbinder", 0);
	activity_down(&a);
	judge(&s, "/sys/kernel/debug/kbinder");
}

TEST(module_sysfs_and_proc_files_show_no_kernel_addresses)
{
	struct activity a;
	struct dirent *e;
	struct scan s;
	DIR *d;

	skip_on_reference();
	memset(&s, 0, sizeof(s));
	/* the parameters docs/security.md and modparams.sh name */
	must_read(&s, 2, "/sys/module/kbinder/parameters/devices");
	must_read(&s, 1, "/sys/module/kbinder/parameters/binderfs_type");
	must_read(&s, 2, "/sys/module/kbinder/parameters/isolate_ipc_ns");
	must_read(&s, 2, "/sys/module/kbinder/parameters/mode");
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
	judge(&s, "kbinder's /sys and /proc files");
}

TEST(binderfs_logs_show_no_kernel_addresses)
{
	const char *mnt = "/tmp/cve_2018_20510_binderfs";
	struct activity a;
	struct scan s;

	/* the five logs; state and transaction_log show the activity */
	static const struct {
		const char *name;
		size_t min_bytes;
	} logs[] = {
		{ "state", 64 }, { "stats", 16 }, { "transactions", 0 },
		{ "transaction_log", 16 }, { "failed_transaction_log", 0 },
	};
	size_t i;

	skip_on_reference();
	memset(&s, 0, sizeof(s));
	mkdir(mnt, 0700);
	/* kbinder always has binderfs; stats=global shows every world's logs */
	ASSERT_OK(mount("binder", mnt, "binder", 0, "stats=global") ? -errno : 0);
	activity_up(&a);
	/*
	 * What the activity made: its three processes (the registry, the
	 * owner, this one) in state and each in a proc/<pid> of its own; the
	 * calls it made in transaction_log.
	 */
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
		must_read(&s, logs[i].min_bytes, "%s/binder_logs/%s", mnt,
			  logs[i].name);
	must_read(&s, 16, "%s/binder_logs/proc/%d", mnt, a.w.r.k.pid);
	must_read(&s, 16, "%s/binder_logs/proc/%d", mnt, a.w.o.pid);
	must_read(&s, 16, "%s/binder_logs/proc/%d", mnt, getpid());
	scan_tree(&s, mnt, 0);
	activity_down(&a);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	judge(&s, "binderfs");
}
