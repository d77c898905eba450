// SPDX-License-Identifier: Apache-2.0
/*
 * No kernel address reaches userspace. With nodes, references, buffers
 * and a transaction in flight, no field of any return command may hold a
 * kernel pointer: a promise of every binder driver, checked on both. And
 * kbinder's own promise, not even in debug output: its debugfs files
 * (live and reuse, both read whole) show none either.
 */
#include "binder_util.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>

#define KBT_DEBUGFS_DIR "/sys/kernel/debug/kbinder"

/* x86-64 kernel addresses: the upper half, 0xffff8... and up. */
static bool looks_like_kernel_address(uint64_t v)
{
	return v >= 0xffff800000000000ull && v != (uint64_t)-1;
}

/* Scan text for 16-hex-digit words starting with "ffff". */
static const char *find_kernel_address_text(const char *s)
{
	const char *p;

	for (p = s; (p = strstr(p, "ffff")); p++) {
		int n = 0;

		if (p > s && (isxdigit((unsigned char)p[-1])))
			continue;
		while (isxdigit((unsigned char)p[n]))
			n++;
		if (n == 16)
			return p;
	}
	return NULL;
}

/*
 * Read the whole of @path and fail on a kernel address in it; a file that
 * cannot be read, or is empty, fails too (a scan that read nothing found
 * nothing).
 */
static void scan_file(const char *path)
{
	static char buf[1 << 20];
	size_t n = 0;
	ssize_t r;
	const char *hit;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0) {
		kbt_fail(__FILE__, __LINE__, false, "%s: %s", path, strerror(errno));
		return;
	}
	while (n < sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = 0;
	kbt_log("%s: %zu bytes", path, n);
	EXPECT_GT(n, 0);
	hit = find_kernel_address_text(buf);
	if (hit)
		kbt_fail(__FILE__, __LINE__, false,
			 "%s shows a kernel address: %.16s", path, hit);
}

/* Every file of debugfs's kbinder/: the two it has, and any new one. */
static void scan_debugfs(void)
{
	static const char *const known[] = { "live", "reuse" };
	char path[512];
	struct dirent *e;
	DIR *d = opendir(KBT_DEBUGFS_DIR);
	size_t i, seen = 0;

	ASSERT_TRUE(d != NULL);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", KBT_DEBUGFS_DIR, e->d_name);
		scan_file(path);
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			seen += !strcmp(e->d_name, known[i]);
	}
	closedir(d);
	EXPECT_EQ(seen, sizeof(known) / sizeof(known[0]));
}

static int holder(struct kbinder_thread *t, const struct binder_transaction_data *tr,
		  struct kbinder_parcel *reply, void *arg)
{
	/* keep the buffer too: it shows up as in use */
	return kbt_keeper(t, tr, reply, arg) | KBT_KEPT;
}

/* Every 64-bit field of a return command must not be a kernel address. */
static void check_words(const struct kbinder_return *ret)
{
	uint64_t words[sizeof(ret->u) / 8];
	size_t i;

	memcpy(words, &ret->u, sizeof(words));
	for (i = 0; i < sizeof(words) / 8; i++)
		if (looks_like_kernel_address(words[i]))
			kbt_fail(__FILE__, __LINE__, false,
				 "%s carries %#llx", kbinder_return_name(ret->cmd),
				 (unsigned long long)words[i]);
}

static int check_fields(struct kbinder_thread *t, const struct kbinder_return *ret,
			void *arg)
{
	int *checked = arg;

	(*checked)++;
	check_words(ret);
	return kbt_default_event(t, ret, NULL);
}

/*
 * Objects of every kind alive (a node with its ref, a kept buffer, a death
 * request), every return command on the way checked; then @inspect (if
 * any) looks at what the driver shows while they are alive.
 */
static void with_objects_alive(void (*inspect)(void))
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int checked = 0;

	kbt_pair_start(&pair, holder, NULL);
	ASSERT_OK(kbinder_thread_enter_looper(&pair.t));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, 0x1230, 0x4560, 0, false);
	ASSERT_OK(kbinder_thread_transact(&pair.t, 0, 1, &data, 0, &r, check_fields,
					  &checked, KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	check_words(&(struct kbinder_return){ .cmd = BR_REPLY, .u.txn = r.txn });
	/* at least BR_TRANSACTION_COMPLETE, then the reply above */
	kbt_log("%d return commands before the reply checked", checked);
	EXPECT_GE(checked, 1);
	ASSERT_OK(kbinder_thread_request_death(&pair.t, 0, 0x77));
	if (inspect)
		inspect();
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}

TEST(returns_carry_no_kernel_addresses)
{
	with_objects_alive(NULL);
}

TEST(debugfs_shows_no_kernel_addresses)
{
	REQUIRE_KBINDER("scans kbinder's own debugfs files");
	with_objects_alive(scan_debugfs);
}
