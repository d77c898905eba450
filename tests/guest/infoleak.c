// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder's promise: no kernel address ever reaches userspace, not even in
 * debug output. With nodes, references, buffers and a transaction in flight,
 * nothing kbinder shows (its debugfs files, the fields of every return
 * command) may contain a kernel pointer.
 */
#include "binder_util.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>

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

static int scan_dir(const char *dir, int depth)
{
	static char buf[65536];
	char path[512];
	struct dirent *e;
	DIR *d = opendir(dir);
	int files = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		const char *hit;
		ssize_t n;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			if (depth < 4)
				files += scan_dir(path, depth + 1);
			continue;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n < 0)
			continue;
		buf[n] = 0;
		files++;
		hit = find_kernel_address_text(buf);
		if (hit)
			kbt_fail(__FILE__, __LINE__, false,
				 "%s shows a kernel address: %.16s", path, hit);
	}
	closedir(d);
	return files;
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
	(void)arg;
	check_words(ret);
	return kbt_default_event(t, ret, NULL);
}

TEST(debugfs_and_returns_show_no_kernel_addresses)
{
	struct kbt_pair pair;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	int files;

	REQUIRE_KBINDER("scans kbinder's own debugfs files");
	kbt_pair_start(&pair, holder, NULL);
	ASSERT_OK(kbinder_thread_enter_looper(&pair.t));
	kbinder_parcel_init(&data);
	kbinder_parcel_write_binder(&data, 0x1230, 0x4560, 0, false);
	ASSERT_OK(kbinder_thread_transact(&pair.t, 0, 1, &data, 0, &r, check_fields, NULL,
					  KBT_WAIT_MS));
	ASSERT_EQ(r.status, BR_REPLY);
	check_words(&(struct kbinder_return){ .cmd = BR_REPLY, .u.txn = r.txn });
	ASSERT_OK(kbinder_thread_request_death(&pair.t, 0, 0x77));
	/* objects of every kind are alive now: look at what is shown */
	files = scan_dir("/sys/kernel/debug/kbinder", 0);
	kbt_log("scanned %d debugfs files", files);
	ASSERT_GT(files, 0);
	ASSERT_OK(kbinder_thread_free_buffer(&pair.t, r.txn.data.ptr.buffer));
	kbinder_parcel_fini(&data);
	kbt_pair_stop(&pair);
}
