// SPDX-License-Identifier: Apache-2.0
/*
 * Conformance: security contexts. A node created with
 * FLAT_BINDER_FLAG_TXN_SECURITY_CTX (here the context manager's, through
 * BINDER_SET_CONTEXT_MGR_EXT) receives its calls as BR_TRANSACTION_SEC_CTX,
 * whose secctx points at the sender's LSM context inside the buffer.
 *
 * The driver takes the context from the sender's credentials
 * (security_cred_getsecid, then security_secid_to_secctx): that needs an
 * active LSM that implements both, SELinux or Smack. AppArmor (Debian's
 * default, active in the stock guest) has no cred_getsecid hook in 6.1 or
 * 6.12: the secid is 0 and turning it into a context fails with EINVAL; the debug
 * kernel has no LSM at all. In both cases both drivers fail the call, and
 * the positive test is skipped, saying which LSMs are active
 * (/sys/kernel/security/lsm).
 */
#include "binder_util.h"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define NODE_PTR	0x5ec0000ull
#define NODE_COOKIE	0x5ec0001ull

/* The caller's LSM context (without a trailing newline), or "" if none. */
static void own_context(char *buf, size_t size)
{
	int fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == 0))
		buf[--n] = 0;
}

/*
 * The active LSMs ("" if none or unknown); true if one of them gives
 * credentials a context (SELinux, Smack).
 */
static bool lsm_has_cred_contexts(char *lsms, size_t size)
{
	const char *path = "/sys/kernel/security/lsm";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		/* securityfs is not mounted in the guest: mount it (root) */
		mkdir("/sys/kernel/security", 0755);
		if (mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL) == 0)
			fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	n = fd >= 0 ? read(fd, lsms, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	lsms[n > 0 ? n : 0] = 0;
	return strstr(lsms, "selinux") || strstr(lsms, "smack");
}

struct secctx_server {
	struct kbt_chan chan;
	char want[256];		/* the client's context */
};

static void secctx_receiver(void *arg)
{
	struct secctx_server *s = arg;
	struct flat_binder_object ext = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_TXN_SECURITY_CTX,
		.binder = NODE_PTR,
		.cookie = NODE_COOKIE,
	};
	const struct binder_transaction_data *tr;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	const char *ctx;
	size_t len = strlen(s->want);

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, &ext));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(&s->chan, 'R');
	kbt_expect(&t, BR_TRANSACTION_SEC_CTX, &ret);
	tr = &ret.u.txn_secctx.transaction_data;
	EXPECT_EQ(tr->code, 7);
	EXPECT_EQ(tr->data_size, 4);
	EXPECT_EQ(kbt_txn_u32(tr, 0), 0xc0ffee);
	ASSERT_NE(ret.u.txn_secctx.secctx, 0);
	/* in the buffer, after the data and the offsets */
	ASSERT_GE(ret.u.txn_secctx.secctx, tr->data.ptr.buffer + tr->data_size);
	ctx = (const char *)(uintptr_t)ret.u.txn_secctx.secctx;
	if (strncmp(ctx, s->want, len))
		kbt_fail(__FILE__, __LINE__, false, "secctx \"%.*s\", want \"%s\"",
			 (int)len, ctx, s->want);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, tr->data.ptr.buffer));
	ASSERT_OK(kbt_wait(&s->chan, 'Q', KBT_WAIT_MS));
	kbinder_proc_close(&p);
}

static uint32_t call_secctx_node(struct secctx_server *s)
{
	struct kbinder_parcel d;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t status;
	pid_t pid;

	kbt_chan_init(&s->chan);
	pid = kbt_fork(secctx_receiver, s);
	ASSERT_WAIT(&s->chan, 'R');
	kbt_client(&p, &t);
	kbinder_parcel_init(&d);
	kbinder_parcel_write_u32(&d, 0xc0ffee);
	status = kbt_call_status(&t, 0, 7, &d, 0);
	kbinder_parcel_fini(&d);
	if (status == BR_REPLY) {
		ASSERT_SIGNAL(&s->chan, 'Q');
		ASSERT_CHILD_OK(pid);
	} else {
		kbt_kill(pid);
	}
	kbt_chan_close(&s->chan);
	kbinder_proc_close(&p);
	return status;
}

TEST(secctx_node_receives_the_senders_security_context)
{
	struct secctx_server s;
	char lsms[256];

	if (!lsm_has_cred_contexts(lsms, sizeof(lsms)))
		SKIP("no active LSM gives credentials a security context (active: \"%s\"; needs selinux or smack)",
		     lsms);
	own_context(s.want, sizeof(s.want));
	ASSERT_NE(s.want[0], 0);
	kbt_log("the caller's context: \"%s\"", s.want);
	ASSERT_EQ(call_secctx_node(&s), BR_REPLY);
}

TEST(secctx_node_without_a_credential_context_fails_the_call)
{
	struct secctx_server s;
	char lsms[256];

	if (lsm_has_cred_contexts(lsms, sizeof(lsms)))
		SKIP("an LSM with credential contexts is active (\"%s\"): the call succeeds", lsms);
	kbt_log("active LSMs: \"%s\"", lsms);
	s.want[0] = 0;
	ASSERT_EQ(call_secctx_node(&s), BR_FAILED_REPLY);
}

/* A node without the flag gets a plain BR_TRANSACTION: see every other test. */

/*
 * A reused call carries no security context (issue 29). On kbinder a
 * thread keeps the last transaction it freed for its next send: the
 * manager's thread keeps call 7, which carried the client's context, when
 * it replies, and its next call, to a node of the client's that asks for
 * no context, is made in it. That call must come as a plain
 * BR_TRANSACTION: a context left over would hand the client an address
 * in the manager's buffer, and another process's context. The same on
 * the reference, which reuses nothing.
 */
#define CODE_BACK 8
#define CLIENT_NODE 0x5ec1000ull

static void calling_receiver(void *arg)
{
	struct secctx_server *s = arg;
	struct flat_binder_object ext = {
		.hdr.type = BINDER_TYPE_BINDER,
		.flags = FLAT_BINDER_FLAG_TXN_SECURITY_CTX,
	};
	const struct binder_transaction_data *tr;
	struct kbinder_return ret;
	struct kbinder_thread t;
	struct kbinder_proc p;
	uint32_t handle;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, &ext));
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(&s->chan, 'R');
	kbt_expect(&t, BR_TRANSACTION_SEC_CTX, &ret);
	tr = &ret.u.txn_secctx.transaction_data;
	ASSERT_NE(ret.u.txn_secctx.secctx, 0);
	handle = kbt_keep_sent_handle(&t, tr);
	ASSERT_NE(handle, KBT_NO_HANDLE);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, tr->data.ptr.buffer));
	/* Made in what call 7 was, where objects are kept for reuse. */
	EXPECT_EQ(kbt_call_status(&t, handle, CODE_BACK, NULL, 0), BR_REPLY);
	ASSERT_OK(kbt_wait(&s->chan, 'Q', KBT_WAIT_MS));
	kbinder_proc_close(&p);
}

TEST(a_reused_call_carries_no_security_context)
{
	struct secctx_server s;
	struct kbinder_return ret;
	struct kbinder_parcel d;
	struct kbinder_thread t;
	struct kbinder_proc p;
	char lsms[256];
	pid_t pid;

	if (!lsm_has_cred_contexts(lsms, sizeof(lsms)))
		SKIP("no active LSM gives credentials a security context (active: \"%s\"; needs selinux or smack)",
		     lsms);
	kbt_chan_init(&s.chan);
	pid = kbt_fork(calling_receiver, &s);
	ASSERT_WAIT(&s.chan, 'R');
	kbt_client(&p, &t);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	kbinder_parcel_init(&d);
	kbinder_parcel_write_binder(&d, CLIENT_NODE, CLIENT_NODE + 1, 0, false);
	EXPECT_EQ(kbt_call_status(&t, 0, 7, &d, 0), BR_REPLY);
	kbinder_parcel_fini(&d);
	/* The manager's call back: plain, to our node, no context. */
	do {
		ASSERT_OK(kbinder_thread_next(&t, &ret, KBT_WAIT_MS));
		if (ret.cmd == BR_TRANSACTION_SEC_CTX)
			kbt_fail(__FILE__, __LINE__, true,
				 "the call back came with a security context");
		if (ret.cmd != BR_TRANSACTION)
			kbt_default_event(&t, &ret, NULL);
	} while (ret.cmd != BR_TRANSACTION);
	EXPECT_EQ(ret.u.txn.code, CODE_BACK);
	EXPECT_EQ(ret.u.txn.target.ptr, CLIENT_NODE);
	ASSERT_OK(kbinder_thread_reply(&t, NULL, 0, KBT_WAIT_MS));
	ASSERT_OK(kbinder_thread_free_buffer(&t, ret.u.txn.data.ptr.buffer));
	ASSERT_SIGNAL(&s.chan, 'Q');
	ASSERT_CHILD_OK(pid);
	kbt_chan_close(&s.chan);
	kbinder_proc_close(&p);
}
