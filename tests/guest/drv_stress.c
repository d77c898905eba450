// SPDX-License-Identifier: Apache-2.0
/*
 * kbinder driver stress: several client processes with two threads each
 * make random synchronous, one-way and nested calls carrying binder objects
 * to a multi-threaded context manager that keeps some of the handles (with
 * death notifications); some clients are killed mid-flight. Survivors must
 * see every call answered correctly; the guest runner then checks that the
 * driver's live-object counters return to zero and the module unloads.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "binder_util.h"

#define CODE_ECHO	1
#define CODE_ONEWAY	2
#define CODE_NESTED	3
#define CODE_CALLBACK	4

#define N_SURVIVORS	3
#define N_VICTIMS	3
#define N_ITER		150
#define PAYLOAD_MAX	512
#define STASH		8
#define SERVER_THREADS	3
#define SERVER_PTR	0x5000

static pthread_mutex_t stash_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t stash[STASH];
static unsigned int stash_next;

/* Keep a client's handle with a death notification, dropping the oldest. */
static void server_stash(struct kbinder_thread *t, uint32_t handle)
{
	uint32_t old;

	if (kbinder_thread_ref(t, BC_ACQUIRE, handle))
		return;
	kbinder_thread_request_death(t, handle, handle);
	pthread_mutex_lock(&stash_lock);
	old = stash[stash_next % STASH];
	stash[stash_next % STASH] = handle;
	stash_next++;
	pthread_mutex_unlock(&stash_lock);
	if (old)
		kbinder_thread_ref(t, BC_RELEASE, old);
}

static void server_handle(struct kbinder_thread *t,
			  const struct binder_transaction_data *tr,
			  struct kbinder_parcel *reply)
{
	struct flat_binder_object obj;
	struct kbinder_reply nested;
	bool has_obj = tr->offsets_size >= sizeof(binder_size_t);

	if (has_obj)
		kbt_txn_object(tr, 0, &obj);
	switch (tr->code) {
	case CODE_ECHO:
		kbinder_parcel_write(reply, kbt_txn_data(tr),
				     tr->data_size - (has_obj ? sizeof(obj) : 0));
		kbinder_parcel_write_binder(reply, SERVER_PTR, SERVER_PTR + 1, 0,
					    false);
		if (has_obj && obj.hdr.type == BINDER_TYPE_HANDLE) {
			kbinder_parcel_write_handle(reply, obj.handle, 0, false);
			if (rand() % 4 == 0)
				server_stash(t, obj.handle);
		}
		break;
	case CODE_NESTED:
		if (has_obj && obj.hdr.type == BINDER_TYPE_HANDLE &&
		    !kbinder_thread_transact(t, obj.handle, CODE_CALLBACK, NULL, 0,
					     &nested, NULL, NULL, KBT_WAIT_MS) &&
		    nested.status == BR_REPLY)
			kbinder_thread_free_buffer(t, nested.txn.data.ptr.buffer);
		kbinder_parcel_write_u32(reply, 0x600d);
		break;
	default:
		break;
	}
}

static void server_loop(struct kbinder_thread *t)
{
	struct kbinder_parcel reply;
	struct kbinder_return ret;

	kbinder_parcel_init(&reply);
	while (!kbinder_thread_next(t, &ret, -1)) {
		const struct binder_transaction_data *tr = &ret.u.txn;

		if (ret.cmd != BR_TRANSACTION) {
			kbinder_thread_handle_default(t, &ret, NULL);
			continue;
		}
		kbinder_parcel_reset(&reply);
		server_handle(t, tr, &reply);
		if (!(tr->flags & TF_ONE_WAY))
			kbinder_thread_reply(t, &reply, 0, KBT_WAIT_MS);
		kbinder_thread_free_buffer(t, tr->data.ptr.buffer);
	}
	kbinder_parcel_fini(&reply);
}

static void *server_thread(void *arg)
{
	struct kbinder_thread t;

	kbinder_thread_init(&t, *(int *)arg);
	kbinder_thread_enter_looper(&t);
	server_loop(&t);
	return NULL;
}

static void server_main(void *arg)
{
	struct kbt_chan *chan = arg;
	pthread_t th[SERVER_THREADS - 1];
	struct kbinder_thread t;
	struct kbinder_proc p;
	int i;

	kbt_open(&p);
	ASSERT_OK(kbt_become_ctxmgr(p.fd, NULL));
	for (i = 0; i < SERVER_THREADS - 1; i++)
		ASSERT_EQ(pthread_create(&th[i], NULL, server_thread, &p.fd), 0);
	kbinder_thread_init(&t, p.fd);
	ASSERT_OK(kbinder_thread_enter_looper(&t));
	ASSERT_SIGNAL(chan, 'R');
	server_loop(&t);
}

struct client_arg {
	int fd;
	unsigned int seed;
	bool victim;
};

static void client_echo(struct kbinder_thread *t, unsigned int *seed, bool victim)
{
	uint8_t payload[PAYLOAD_MAX];
	size_t len = 4 * (rand_r(seed) % (PAYLOAD_MAX / 4));
	struct flat_binder_object obj;
	struct kbinder_parcel data;
	struct kbinder_reply r;
	bool nested = rand_r(seed) % 4 == 0;

	kbt_fill(payload, len, rand_r(seed));
	kbinder_parcel_init(&data);
	kbinder_parcel_write(&data, payload, len);
	kbinder_parcel_write_binder(&data, 0x1000 + (rand_r(seed) % 4), 0, 0, false);
	ASSERT_OK(kbinder_thread_transact(t, 0, nested ? CODE_NESTED : CODE_ECHO, &data, 0,
					  &r, NULL, NULL, KBT_WAIT_MS));
	kbinder_parcel_fini(&data);
	if (victim && r.status != BR_REPLY)
		return;
	ASSERT_EQ(r.status, BR_REPLY);
	if (nested) {
		ASSERT_EQ(kbt_txn_u32(&r.txn, 0), 0x600d);
	} else {
		ASSERT_EQ(r.txn.data_size, len + 2 * sizeof(obj));
		ASSERT_EQ(memcmp(kbt_txn_data(&r.txn), payload, len), 0);
		kbt_txn_object(&r.txn, 0, &obj);
		ASSERT_EQ(obj.hdr.type, BINDER_TYPE_HANDLE);
		kbt_txn_object(&r.txn, 1, &obj);
		ASSERT_EQ(obj.hdr.type, BINDER_TYPE_BINDER);
		ASSERT_EQ(obj.binder & ~3ULL, 0x1000);
	}
	ASSERT_OK(kbinder_thread_free_buffer(t, r.txn.data.ptr.buffer));
}

static void *client_thread(void *arg)
{
	struct client_arg *ca = arg;
	unsigned int seed = ca->seed;
	struct kbinder_thread t;
	struct kbinder_reply r;
	int i;

	kbinder_thread_init(&t, ca->fd);
	for (i = 0; i < N_ITER; i++) {
		if (rand_r(&seed) % 3 == 0) {
			ASSERT_OK(kbinder_thread_transact(&t, 0, CODE_ONEWAY, NULL,
							  TF_ONE_WAY, &r, NULL, NULL,
							  KBT_WAIT_MS));
			if (!ca->victim)
				ASSERT_EQ(r.status, BR_TRANSACTION_COMPLETE);
		} else {
			client_echo(&t, &seed, ca->victim);
		}
	}
	return NULL;
}

static void client_main(void *arg)
{
	struct client_arg ca[2];
	bool victim = arg != NULL;
	struct kbinder_proc p;
	pthread_t th;

	kbt_open(&p);
	ca[0] = (struct client_arg){ p.fd, (unsigned int)getpid() * 7, victim };
	ca[1] = (struct client_arg){ p.fd, (unsigned int)getpid() * 13, victim };
	ASSERT_EQ(pthread_create(&th, NULL, client_thread, &ca[1]), 0);
	client_thread(&ca[0]);
	pthread_join(th, NULL);
	kbinder_proc_close(&p);
}

TEST_TIMEOUT(random_calls_with_kills_leave_no_trace, 120)
{
	pid_t survivors[N_SURVIVORS], victims[N_VICTIMS];
	struct kbt_chan chan;
	pid_t server;
	int i, round;

	server = kbt_fork_ready(server_main, &chan);
	for (i = 0; i < N_SURVIVORS; i++)
		survivors[i] = kbt_fork(client_main, NULL);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < N_VICTIMS; i++)
			victims[i] = kbt_fork(client_main, (void *)1);
		kbt_msleep(300 + 200 * round);
		for (i = 0; i < N_VICTIMS; i++)
			kbt_kill(victims[i]);
	}
	for (i = 0; i < N_SURVIVORS; i++)
		ASSERT_EQ(kbt_reap(survivors[i], 90000), 0);
	kbt_kill(server);
	kbt_chan_close(&chan);
}

/* The manager dies while clients are calling: every call still ends. */
TEST_TIMEOUT(server_killed_mid_flight_fails_calls_cleanly, 120)
{
	pid_t clients[N_VICTIMS];
	struct kbt_chan chan;
	pid_t server;
	int i;

	server = kbt_fork_ready(server_main, &chan);
	for (i = 0; i < N_VICTIMS; i++)
		clients[i] = kbt_fork(client_main, (void *)1);
	kbt_msleep(500);
	kbt_kill(server);
	for (i = 0; i < N_VICTIMS; i++)
		ASSERT_EQ(kbt_reap(clients[i], 90000), 0);
	kbt_chan_close(&chan);
}
