// SPDX-License-Identifier: Apache-2.0
/*
 * CVE-2020-0423: a node's ref-count work (the BR_INCREFS/BR_ACQUIRE it is
 * owed) sits on the todo list of the thread that sent the node. When that
 * thread exited, the release loop took the work off the list, dropped the
 * lock, then looked at it; meanwhile the receiver dropped the last
 * reference, which freed the node the work is part of: a use-after-free
 * (and, in the public exploit, a double free).
 *
 * The tests create exactly that window, many times: a thread sends its own
 * nodes in one-way transactions without ever reading the work they queue,
 * and exits (BINDER_THREAD_EXIT, or the whole process exits) while the
 * receiver frees the buffers, dropping the last references; and an owner
 * exits with its node's work unread while the receiver releases its
 * acquired handle. Afterwards the kernel log must be clean, the test
 * process must own no stray node, and the registry must still serve.
 */
#include "cve_common.h"

#define STRESS_MS 3000

struct sender_arg {
	int fd;
	int id;
	int64_t deadline;
	int rounds;
};

/* One-way: three fresh local nodes, then leave without reading. */
static void send_nodes(int fd, binder_uintptr_t base)
{
	uint8_t data[3 * CVE_FLAT_SIZE];
	binder_size_t offs[3] = { 0, CVE_FLAT_SIZE, 2 * CVE_FLAT_SIZE };
	struct kbt_txn x = {
		.code = CVE_NOP, .flags = TF_ONE_WAY, .data = data,
		.size = sizeof(data), .offs = offs, .offs_size = sizeof(offs),
	};
	int i;

	for (i = 0; i < 3; i++)
		cve_put_flat(data, (size_t)i * CVE_FLAT_SIZE,
			     i == 1 ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER,
			     base + (binder_uintptr_t)i * 0x10, base);
	kbt_write_txn(fd, &x);
}

static void *sender(void *arg)
{
	struct sender_arg *a = arg;

	while (!cve_deadline_passed(a->deadline)) {
		binder_uintptr_t base = 0x10000000ull * (binder_uintptr_t)(a->id + 1) +
					(binder_uintptr_t)a->rounds * 0x100;

		send_nodes(a->fd, base);
		EXPECT_OK(kbinder_ioctl_thread_exit(a->fd));
		a->rounds++;
	}
	return NULL;
}

TEST_TIMEOUT(thread_exits_with_node_work_queued_while_receiver_drops_it, 60)
{
	struct sender_arg a[3];
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pthread_t th[3];
	int i, total = 0;

	cve_registry_start(&s);
	kbt_open(&p);
	for (i = 0; i < 3; i++) {
		a[i].fd = p.fd;
		a[i].id = i;
		a[i].rounds = 0;
		a[i].deadline = kbt_now_ms() + STRESS_MS;
		ASSERT_EQ(pthread_create(&th[i], NULL, sender, &a[i]), 0);
	}
	for (i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		total += a[i].rounds;
	}
	kbt_log("%d rounds of 3 nodes", total);
	ASSERT_GT(total, 10);
	kbinder_thread_init(&t, p.fd);
	cve_ping(&t, 0);
	cve_expect_no_nodes(&t);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}

static void send_and_die(void *arg)
{
	struct kbinder_proc p;

	(void)arg;
	kbt_open(&p);
	send_nodes(p.fd, 0x50000000);
	send_nodes(p.fd, 0x60000000);
	_exit(0);	/* no read, no close: the exit releases everything */
}

TEST_TIMEOUT(process_exits_with_node_work_queued_while_receiver_drops_it, 60)
{
	int64_t deadline = kbt_now_ms() + STRESS_MS;
	struct cve_server s;
	struct kbinder_thread t;
	struct kbinder_proc p;
	pid_t kids[4];
	int i, n = 0;

	cve_registry_start(&s);
	while (!cve_deadline_passed(deadline)) {
		for (i = 0; i < 4; i++)
			kids[i] = kbt_fork(send_and_die, NULL);
		for (i = 0; i < 4; i++)
			ASSERT_CHILD_OK(kids[i]);
		n += 4;
	}
	kbt_log("%d processes", n);
	kbt_client(&p, &t);
	cve_ping(&t, 0);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}

/*
 * The owner registers its node with a one-way call and never reads the
 * BR_INCREFS/BR_ACQUIRE it is owed; it exits just as the registry releases
 * the handle it acquired.
 */
TEST_TIMEOUT(owner_exits_with_node_work_queued_while_handle_is_released, 60)
{
	struct cve_server s;
	struct cve_owner o;
	struct kbinder_thread t;
	struct kbinder_proc p;
	int i;

	cve_registry_start(&s);
	kbt_client(&p, &t);
	for (i = 0; i < 30; i++) {
		int64_t deadline = kbt_now_ms() + 5000;

		cve_owner_start(&o, 1, 0x70000000 + (binder_uintptr_t)i * 0x100,
				true);
		while (cve_info(&t, 1).err) {	/* wait for the registration */
			ASSERT_FALSE(cve_deadline_passed(deadline));
			kbt_msleep(2);
		}
		ASSERT_SIGNAL(&o.chan, 'x');
		if (i & 1)
			kbt_msleep(i % 5);
		cve_drop(&t, 1);
		ASSERT_CHILD_OK(o.pid);
		kbt_chan_close(&o.chan);
	}
	cve_ping(&t, 0);
	cve_server_stop(&t, &s);
	kbinder_proc_close(&p);
}
