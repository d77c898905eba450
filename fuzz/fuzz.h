/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kbfuzz: a structure-aware fuzzer for a binder device.
 *
 * One supervisor process forks --procs actor processes. Each actor opens the
 * device, maps it and runs a few threads; every thread draws its operations
 * from its own PRNG, seeded from (--seed, slot, generation, thread number),
 * so a seed reproduces the operation sequence of every process. The
 * supervisor kills actors (SIGKILL) and respawns them, thaws frozen ones,
 * watches a heartbeat of every thread (a binder call that does not return is
 * a finding), scans the kernel log, and prints the counts at the end.
 *
 * Everything the processes share lives in one MAP_SHARED region (struct
 * fz_shared): counters, per-thread heartbeats and a ring of recent
 * operations per thread, and the first finding.
 *
 * Files: main.c (options, supervisor, watchdog, kernel log, summary),
 * actor.c (process and thread life, the operation loop, serving calls),
 * call.c (the operations' ioctls: marked, counted, bounded), ops.c
 * (known handles and the smaller operations: refs, notifications,
 * loopers, thread exits, freezes, close/unmap), txn.c (building
 * transactions and their objects), reader.c (parsing and checking what the
 * driver returns), raw.c (raw ioctls, BC_ command streams, queries),
 * util.c (PRNG, clock, counters, findings).
 */
#ifndef KBFUZZ_FUZZ_H
#define KBFUZZ_FUZZ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <linux/android/binder.h>

#define FZ_MAX_PROCS 8
#define FZ_ERRNO_SLOTS 134	/* errno values 1..133 (EHWPOISON); 0: none or other */
#define FZ_MAX_THREADS 4		/* worker threads per process */
#define FZ_MAIN_THREAD FZ_MAX_THREADS	/* heartbeat slot of the main thread */
#define FZ_QUEUE 512		/* events a thread has read, not yet handled */
#define FZ_RING 24
#define FZ_MAX_HANDLES 48
#define FZ_MAX_HELD 12
#define FZ_NODES 6		/* local nodes per process */
#define FZ_MAGIC 0x7a66626bu	/* "kbfz" at the start of generated data */
#define FZ_RBUF 8192		/* the largest read buffer */
/* The smallest read a BR_TRANSACTION fits in, after its BR_NOOP: a read
 * buffer under this leaves the call on the thread's todo (both drivers). */
#define FZ_READ_MIN (sizeof(uint32_t) + sizeof(struct binder_transaction_data_secctx))
/* The signal that bounds a blocking read (see bound_begin() in call.c). */
#define FZ_SIGNAL SIGUSR2

/* ------------------------------------------------------------ operations */
enum fz_op {
	OP_NONE,
	OP_TXN,			/* a transaction (sync or one-way) */
	OP_SERVE,		/* poll and serve incoming work */
	OP_REFS,		/* BC_INCREFS/ACQUIRE/RELEASE/DECREFS */
	OP_DEATH,		/* request or clear a death notification */
	OP_FREEZE_NOTE,		/* request or clear a freeze notification */
	OP_FREE_HELD,		/* free held buffers (or a bogus one) */
	OP_RAW_IOCTL,		/* any ioctl, any size, any argument */
	OP_BC_STREAM,		/* a random BC_ command stream */
	OP_INFO,		/* the query ioctls, with checks */
	OP_FREEZE,		/* BINDER_FREEZE some actor */
	OP_LOOPER,		/* enter, exit or register as a looper */
	OP_THREAD_EXIT,		/* BINDER_THREAD_EXIT */
	OP_SPAWN_THREAD,	/* start another thread */
	OP_CLOSE_REOPEN,	/* close the device and open it again */
	OP_MUNMAP,		/* unmap the receive area (maybe map again) */
	OP_PROC_EXIT,		/* the process exits */
	OP_CTX_MGR,		/* try to become the context manager */
	OP_STRAY_REPLY,		/* BC_REPLY with no call to answer (maybe) */
	OP_NR
};

/* Where a thread is, for the watchdog: set around every binder call. */
enum fz_call {
	CALL_NONE,
	CALL_WRITE_READ,
	CALL_IOCTL,
	CALL_CLOSE,
	CALL_MMAP,
	CALL_MUNMAP,
	CALL_OPEN,
	CALL_POLL,
	CALL_FREEZE,
	CALL_NR
};

/* ------------------------------------------------------------ counters */
enum fz_counter {
	C_OPS,
	C_IOCTLS,
	C_TXN_SYNC,
	C_TXN_ONEWAY,
	C_TXN_INVALID,
	C_REPLIES,
	C_RECV_TXN,
	C_RECV_REPLY,
	C_COMPLETE,
	C_DEAD_REPLY,
	C_FAILED_REPLY,
	C_FROZEN_REPLY,
	C_REPLY_TIMEOUT,
	C_PROFILE_REFUSED,
	C_OBJECTS,
	C_OBJ_BINDER,
	C_OBJ_WEAK_BINDER,
	C_OBJ_HANDLE,
	C_OBJ_WEAK_HANDLE,
	C_OBJ_FD,
	C_OBJ_FDA,
	C_OBJ_PTR,
	C_OBJ_BOGUS,
	C_RECV_OBJECTS,
	C_KILLS,
	C_EXITS,
	C_SPAWNS,
	C_THREAD_EXITS,
	C_THREADS,
	C_FREEZES,
	C_THAWS,
	C_CLOSES,
	C_MUNMAPS,
	C_RAW_IOCTLS,
	C_BC_STREAMS,
	C_BC_COMMANDS,
	C_DEAD_BINDER,
	C_FROZEN_BINDER,
	C_REF_OPS,
	C_FREES,
	C_ERRNO,
	C_OVERREAD,
	C_BLOCKING_READS,	/* reads on a blocking fd */
	C_EINTR,		/* ... ended by the bounding signal */
	C_TINY_READS,		/* reads under FZ_READ_MIN */
	C_WORK_LEFT,		/* ... that had work and left it queued */
	C_DAWDLES,		/* a call held before its reply */
	C_WAIT_OPS,		/* ops run while waiting for a reply */
	C_STRAY_REPLIES,
	C_LOG_ERRORS,		/* driver error logs (findings) */
	C_NR
};

struct fz_op_rec {
	uint32_t seq;
	uint16_t op;
	uint16_t sub;
	uint64_t arg;
};

/* One thread's heartbeat and recent history, written only by that thread. */
struct fz_thread_slot {
	_Atomic int tid;
	_Atomic int call;		/* enum fz_call while in a call */
	_Atomic uint64_t call_start;	/* ns, 0 when not in a call */
	_Atomic uint64_t progress;	/* ns of the last completed op */
	_Atomic uint32_t nops;
	uint64_t seed;
	struct fz_op_rec ring[FZ_RING];
};

struct fz_proc_slot {
	_Atomic int pid;
	_Atomic uint32_t generation;
	_Atomic uint64_t frozen_at;	/* ns when an actor froze it, or 0 */
	_Atomic uint64_t killed_at;	/* ns when the supervisor killed it */
	uint64_t seed;
	struct fz_thread_slot threads[FZ_MAX_THREADS + 1];
};

struct fz_shared {
	uint64_t seed;
	_Atomic int stop;
	_Atomic int ctx_mgr_pid;	/* who last became context manager */
	_Atomic int finding;
	char finding_msg[512];
	_Atomic uint64_t counters[C_NR];
	/* BR_FAILED_REPLY to well-formed calls, by -param of
	 * BINDER_GET_EXTENDED_ERROR (0: no extended error) */
	_Atomic uint64_t failed_errno[FZ_ERRNO_SLOTS];
	struct fz_proc_slot procs[FZ_MAX_PROCS];
};

struct fz_thread;

/* ------------------------------------------------------------ options */
struct fz_config {
	const char *device;
	uint64_t seed;
	unsigned int duration;		/* seconds */
	unsigned int nprocs;
	unsigned int nthreads;		/* starting threads per process */
	unsigned int kill_ms;		/* mean time between kills, 0: none */
	unsigned int stuck_s;		/* a call longer than this is a finding */
	unsigned int ops;		/* per-thread op limit, 0: no limit */
	bool trace;
	/* the driver may consume a truncated command past write_size
	 * (upstream binder_thread_write does): count it, do not fail */
	bool allow_overread;
	/* never send the binder fd itself (FD objects): such fds in queued
	 * transactions can form reference cycles between dead processes */
	bool no_binder_fds;
	/* never open the device blocking (every read is then a poll) */
	bool no_blocking;
	/* a kernel log line at error level or worse starting with this is a
	 * finding (the driver reporting its own corrupt state) */
	const char *log_fail;
	/* the least work a run must do to pass: calls delivered, and actor
	 * processes that died (killed or exited) and were replaced */
	unsigned long min_calls;
	unsigned long min_deaths;
};

extern struct fz_config fz_cfg;
extern struct fz_shared *fz_sh;

/* ------------------------------------------------------------ reach.c */
int fz_reach_report(void);

/* ------------------------------------------------------------ util.c */
struct fz_rng {
	uint64_t s[4];
};

void fz_rng_seed(struct fz_rng *r, uint64_t seed);
uint64_t fz_next(struct fz_rng *r);
/* A number in [0, n); n == 0 gives 0. */
uint32_t fz_below(struct fz_rng *r, uint32_t n);
/* true with probability num/1000 */
bool fz_chance(struct fz_rng *r, unsigned int per_mille);
uint64_t fz_mix(uint64_t a, uint64_t b);
uint64_t fz_now_ns(void);
void fz_count(enum fz_counter c, uint64_t n);
const char *fz_op_name(int op);
const char *fz_call_name(int call);
const char *fz_counter_name(int c);
/* Record a finding (the first one wins the message), print it, stop. */
void fz_finding(int slot, int thread, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fz_dump_ring(int slot, int thread);
void fz_dump_slot(int slot);

static inline size_t fz_put_u32(uint8_t *w, size_t at, uint32_t v)
{
	__builtin_memcpy(w + at, &v, sizeof(v));
	return at + sizeof(v);
}

static inline size_t fz_put_u64(uint8_t *w, size_t at, uint64_t v)
{
	__builtin_memcpy(w + at, &v, sizeof(v));
	return at + sizeof(v);
}

/* ------------------------------------------------------------ reader.c */
enum fz_ev_kind {
	EV_TXN,			/* BR_TRANSACTION(_SEC_CTX) */
	EV_REPLY,		/* BR_REPLY */
	EV_END,			/* DEAD, FAILED or FROZEN reply */
	EV_COMPLETE,		/* BR_TRANSACTION_COMPLETE */
	EV_REF,			/* BR_INCREFS, _ACQUIRE, _RELEASE, _DECREFS */
	EV_DEAD_BINDER,
	EV_FROZEN_BINDER,
	EV_CLEAR_DONE,
	EV_SPAWN,
	EV_OTHER
};

struct fz_event {
	uint32_t cmd;
	enum fz_ev_kind kind;
	uint32_t flags;
	uint32_t code;
	uint64_t ptr;
	uint64_t cookie;
	uint64_t buffer;	/* BR_TRANSACTION/BR_REPLY: the data address */
	uint32_t epoch;		/* of the device it was read from */
	/* handles new to us in that buffer: freeing the buffer drops its
	 * references, so take our own first (strong bit 31 set) */
	uint32_t keep[6];
	unsigned int nkeep;
};

#define FZ_MAX_EVENTS 256

/*
 * Parse @len bytes of returns (copied from the read buffer) and check every
 * one: known code, payload inside the stream, buffers inside the mapping,
 * objects well formed, data unchanged. Findings are reported here.
 * Caller read-holds dev_lock. Returns the number of events stored.
 */
int fz_parse_returns(struct fz_thread *t, const uint8_t *buf, size_t len,
		     struct fz_event *ev, int max);
/* The name of a BR_ code, NULL if there is no such code. */
const char *fz_br_name(uint32_t code);

/* ------------------------------------------------------------ actor.c */
/* The actor process for @slot; never returns. */
void fz_actor_main(int slot, uint32_t generation, uint64_t seed)
	__attribute__((noreturn));

/* Per-process state of an actor (only inside actor processes). */
struct fz_proc {
	int slot;
	uint32_t generation;
	uint64_t seed;
	/*
	 * fd, map and epoch: read-held across each call on the device and the
	 * parsing of what it returned, write-held to close, reopen or unmap.
	 * Never taken twice by one thread (writers are preferred).
	 */
	pthread_rwlock_t dev_lock;
	int fd;
	void *map;
	size_t map_size;
	/* opened without O_NONBLOCK: reads wait in the driver (on its list
	 * of idle loopers), bounded by each thread's timer signal */
	bool blocking;
	_Atomic uint32_t epoch;		/* bumped when fd or map change */
	/* the rest: under @lock */
	pthread_mutex_t lock;
	uint32_t handles[FZ_MAX_HANDLES];
	bool strong[FZ_MAX_HANDLES];	/* received as a strong handle */
	unsigned int nhandles;
	bool thread_used[FZ_MAX_THREADS];
	unsigned int thread_spawns;
	_Atomic unsigned int live_threads;
	_Atomic int spawn_requests;	/* BR_SPAWN_LOOPER / spawn ops */
	_Atomic bool exit_requested;
	/* A bogus BC_FREE_BUFFER may have hit a live buffer: data checks of
	 * this process cannot be trusted any more. */
	_Atomic bool tainted;
	int spare_fds[4];		/* pipe ends, /dev/null, a memfd */
	uint8_t *guard;			/* a page that faults, after a good one */
};

struct fz_thread {
	struct fz_proc *p;
	int idx;
	struct fz_rng rng;
	struct fz_thread_slot *ts;
	uint32_t seq;
	uint32_t epoch;			/* p->epoch this thread last saw */
	int depth;			/* nesting of outgoing calls */
	/* its temperament, drawn once (per mille): reads of odd sizes
	 * (most under FZ_READ_MIN), calls held a while before the reply,
	 * other ops run while its own call waits for a reply */
	unsigned int tiny_reads, dawdle, meddle;
	timer_t timer;			/* bounds a blocking call */
	bool has_timer;
	bool looper;
	bool registered;		/* started for BR_SPAWN_LOOPER */
	bool leave;			/* end this thread after the current op */
	uint64_t got_reply, got_end, got_complete;
	/* a thread gets at most one BR_REPLY per sync call it made */
	uint64_t sync_calls, replies;
	uint32_t last_end;		/* BR_ code of the last EV_END */
	uint64_t held[FZ_MAX_HELD];	/* received buffers not yet freed */
	uint32_t held_epoch[FZ_MAX_HELD];
	unsigned int nheld;
	struct fz_event q[FZ_QUEUE];	/* read, not yet handled */
	unsigned int qhead, qtail;
	_Alignas(8) uint8_t sg[4096];	/* source of BINDER_TYPE_PTR blocks */
	_Alignas(8) uint8_t rbuf[FZ_RBUF];	/* read buffer */
};

/* Ids of this process's local nodes and their cookies. */
uint64_t fz_node_ptr(int slot, unsigned int i);
uint64_t fz_node_cookie(uint64_t ptr);
bool fz_is_own_node(int slot, uint64_t ptr, uint64_t cookie);

/* Remember a handle; true if it is new (or newly strong). */
bool fz_add_handle(struct fz_proc *p, uint32_t handle, bool strong);
void fz_drop_handle(struct fz_proc *p, uint32_t handle);
/* A handle to call: mostly a known one or 0, sometimes bogus (returns true). */
bool fz_pick_handle(struct fz_thread *t, uint32_t *handle);
/* This process is (as far as we know) the context manager. */
bool fz_is_ctx_mgr(void);
/* A handle this process received (a strong one if @strong); false if none. */
bool fz_pick_known_handle(struct fz_thread *t, uint32_t *handle, bool strong);
int fz_pick_spare_fd(struct fz_thread *t);

/* ------------------------------------------------------------ txn.c */
struct fz_txn_buf {
	_Alignas(8) uint8_t data[8192];
	binder_size_t offsets[16];
	struct binder_transaction_data_sg tr;
	uint32_t cmd;		/* BC_TRANSACTION(_SG) or BC_REPLY(_SG) */
	bool must_reject;	/* built to be invalid in a way every driver rejects */
	const char *invalid;	/* which way */
	int kind;
};

/*
 * Build a transaction or reply into @b: payload with a checked header,
 * objects of every type, sometimes invalid. @reply: BC_REPLY(_SG).
 */
void fz_build_txn(struct fz_thread *t, struct fz_txn_buf *b, bool reply,
		  uint32_t handle, uint32_t flags);
/* Mark a built transaction as corrupted on purpose: the receiver skips
 * its data checks. */
void fz_txn_uncheck(struct fz_txn_buf *b);
/* Checksum of data bytes outside the header's sum and the listed objects. */
uint32_t fz_data_sum(const uint8_t *data, size_t size,
		     const binder_size_t *offs, size_t noffs);
size_t fz_object_size(uint32_t type);
/*
 * Check received data against the header fz_build_txn put there: it must
 * not be one built to be rejected, and it must arrive unchanged.
 */
void fz_check_payload(struct fz_thread *t, const uint8_t *data, size_t size,
		      const binder_size_t *offs, size_t noffs, const char *what);

/* ------------------------------------------------------------ raw.c */
void fz_op_raw_ioctl(struct fz_thread *t);
void fz_op_bc_stream(struct fz_thread *t);
void fz_op_info(struct fz_thread *t);

/* ------------------------------------------------------------ actor.c ops */
/* Handle every queued event (may nest through incoming calls). */
void fz_drain(struct fz_thread *t);

/* ------------------------------------------------------------ call.c */
/* Note an op in the thread's ring (and on stderr with --trace). */
void fz_record(struct fz_thread *t, int op, int sub, uint64_t arg);
/* Mark the thread as inside a call on the device (for the watchdog). */
void fz_call_begin(struct fz_thread *t, int call);
void fz_call_end(struct fz_thread *t);
/* Binder calls, marked for the watchdog. Return -errno or the result. */
int fz_call_ioctl(struct fz_thread *t, int call, unsigned long cmd, void *arg);
/* One ioctl on the device fd under the read lock; -EBADF if closed. */
int fz_with_fd(struct fz_thread *t, int call, unsigned long cmd, void *arg);
/*
 * One BINDER_WRITE_READ: write @wlen bytes at @wbuf, read if @read; what
 * comes back is checked and queued on the thread. Returns -errno or 0.
 */
int fz_write_read(struct fz_thread *t, const void *wbuf, size_t wlen, bool read);
/* The timer that bounds the thread's blocking calls, and its handler. */
void fz_bound_timer_start(struct fz_thread *t);
void fz_bound_signal(int sig);

/* ------------------------------------------------------------ ops.c */
void fz_op_refs(struct fz_thread *t);
void fz_op_note(struct fz_thread *t, int op);
void fz_op_looper(struct fz_thread *t);
void fz_op_thread_exit(struct fz_thread *t);
void fz_op_freeze(struct fz_thread *t);
void fz_op_ctx_mgr(struct fz_thread *t);
void fz_op_close_reopen(struct fz_thread *t);
void fz_op_munmap(struct fz_thread *t);
/* BINDER_THREAD_EXIT now; @why goes to the op record's sub. */
void fz_thread_exit_now(struct fz_thread *t);
/* Open and map the device (caller write-holds dev_lock or is alone);
 * @t may be NULL. Returns 0 or -errno. */
int fz_open_device(struct fz_proc *p, struct fz_thread *t, struct fz_rng *r);

#endif /* KBFUZZ_FUZZ_H */
