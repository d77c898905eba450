// SPDX-License-Identifier: GPL-2.0-only
/*
 * binder_logs/ of a binderfs mount: state, stats, transactions,
 * transaction_log, failed_transaction_log and proc/<pid>.
 *
 * Everything is printed from small read-only walks over the processes
 * (found one at a time through the freeze array, kb_freeze_visit_procs(),
 * which holds no global lock across the walk), taking the locks in the
 * documented order: refs_lock, then a node's lock, then inner_lock, then
 * a transaction's lock. A critical section of a spinlock prints a bounded
 * amount of one list: one thread (its stack up to KB_LOGS_MAX_DEPTH, its
 * todo up to KB_LOGS_MAX_QUEUED), the process's todo up to
 * KB_LOGS_MAX_QUEUED, or a node with the refs on it (one per process that
 * holds it). Two walks are not bounded that way: the stats file counts a
 * process's threads, nodes and refs in one section each, a few
 * instructions an object. Tasks are named by their struct pid: one that
 * exited shows as 0 (in every file, the transaction logs included), never
 * by a number another task may have by now. Objects are named by debug ids,
 * handles, and pids as the reader's pid namespace sees them; a process the
 * reader cannot see, or of a world outside the mount, is not printed.
 */
#include "internal.h"

#include <linux/dcache.h>
#include <linux/debugfs.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "context.h"
#include "counts.h"
#include "freeze.h"
#include "logs.h"
#include "node.h"
#include "proc.h"
#include "profile.h"
#include "ref.h"
#include "stats.h"
#include "thread.h"
#include "transaction.h"
#include "work.h"

/* Nodes printed per pass over a process's node tree. */
#define KB_LOGS_NODE_BATCH 16
/* Entries in each transaction log (upstream keeps 32). */
#define KB_LOGS_RING 32
/* Deepest transaction stack printed. */
#define KB_LOGS_MAX_DEPTH 64
/* Queued items printed per todo list. */
#define KB_LOGS_MAX_QUEUED 256

/**
 * struct kb_log_entry - one transaction as transaction_log remembers it
 * @debug_id: the transaction's id (debug ids wrap: it may be 0)
 * @ctx_id: the world's id
 * @fs_id: the world's binderfs mount id, or 0 (never reused by a later
 *	mount, so a new mount never shows an old one's transactions)
 * @from_tgid: the sending process (pid reference)
 * @from_tid: the sending thread (pid reference)
 * @to_tgid: the target process, or NULL (pid reference)
 * @to_tid: the target thread, or NULL (pid reference)
 * @to_node: the target node's debug id, or 0
 * @handle: the handle the call was made on
 * @code: the transaction code
 * @flags: TF_* flags
 * @data_size: the payload size
 * @reply: a BC_REPLY
 * @ret: 0 on success, or the BR_ code the sender got
 * @err: the errno explaining @ret
 */
struct kb_log_entry {
	/* kb_logs_push() copies every field by name: add a new one there. */
	int debug_id;
	u64 ctx_id;
	u64 fs_id;
	struct pid *from_tgid;
	struct pid *from_tid;
	struct pid *to_tgid;
	struct pid *to_tid;
	int to_node;
	u32 handle;
	u32 code;
	u32 flags;
	u64 data_size;
	bool reply;
	u32 ret;
	int err;
};

/**
 * struct kb_log_ring - the most recent transactions of one kind
 * @entries: the slots
 * @next: count of entries ever written; the next slot is @next % size
 */
struct kb_log_ring {
	struct kb_log_entry entries[KB_LOGS_RING];
	unsigned int next;
};

/* Protects both rings. */
static DEFINE_SPINLOCK(kb_logs_lock);
static struct kb_log_ring kb_logs_all;
static struct kb_log_ring kb_logs_failed;

/**
 * struct kb_logs_walk - one read of a log file
 * @v: visits each process
 * @m: where to print
 * @scope: the mount's scope
 * @ns: the reader's pid namespace
 * @only_tgid: print only this process (proc/<pid>), or NULL
 * @txns_only: print transactions only (the "transactions" file)
 */
struct kb_logs_walk {
	struct kb_proc_visitor v;
	struct seq_file *m;
	const struct kb_logs_scope *scope;
	struct pid_namespace *ns;
	struct pid *only_tgid;
	bool txns_only;
};

static bool kb_logs_in_scope(const struct kb_logs_scope *scope, u64 fs_id)
{
	return scope->all || (fs_id && fs_id == scope->fs_id);
}

static pid_t kb_logs_proc_nr(const struct kb_proc *proc,
			     struct pid_namespace *ns)
{
	return task_tgid_nr_ns(proc->tsk, ns);
}

static void kb_logs_print_txn(struct kb_logs_walk *w, const char *prefix,
			      struct kb_proc *proc, struct kb_transaction *t)
	__must_hold(&proc->inner_lock)
{
	struct kb_thread *from;
	pid_t from_pid = 0, from_tid = 0;

	spin_lock(&t->lock);
	from = t->from;
	if (from) {
		from_pid = kb_logs_proc_nr(from->proc, w->ns);
		from_tid = kb_thread_tid_nr(from, w->ns);
	}
	spin_unlock(&t->lock);
	if (!from)
		from_pid = pid_nr_ns(t->sender_tgid, w->ns);
	seq_printf(w->m, "%s%s %d: from %d:%d to %d:%d code %u flags 0x%x%s\n",
		   prefix, t->is_reply ? "reply" : "transaction", t->debug_id,
		   from_pid, from_tid, kb_logs_proc_nr(t->to_proc, w->ns),
		   t->to_proc == proc && t->to_thread ?
		   kb_thread_tid_nr(t->to_thread, w->ns) : 0,
		   t->code, t->flags, t->buffer ? "" : " (buffer freed)");
}

/*
 * At most KB_LOGS_MAX_QUEUED items of a list are looked at, under the
 * lock: the list is as long as whoever queues to it likes.
 */
static void kb_logs_print_todo(struct kb_logs_walk *w, struct kb_proc *proc,
			       const struct list_head *todo, const char *prefix)
	__must_hold(&proc->inner_lock)
{
	struct kb_transaction *t;
	struct kb_work *work;
	unsigned int n = 0;

	list_for_each_entry(work, todo, entry) {
		if (n++ == KB_LOGS_MAX_QUEUED) {
			seq_printf(w->m, "%s(more, not shown)\n", prefix);
			break;
		}
		t = kb_transaction_from_work(work);
		if (t)
			kb_logs_print_txn(w, prefix, proc, t);
		else if (!w->txns_only)
			seq_printf(w->m, "%spending %s\n", prefix,
				   work->ops->name);
	}
}

static void kb_logs_print_thread(struct kb_logs_walk *w, struct kb_proc *proc,
				 struct kb_thread *thread)
	__must_hold(&proc->inner_lock)
{
	struct kb_transaction *t = kb_thread_stack_top_locked(thread);
	int depth = 0;
	bool sender;
	pid_t tid;

	/* 0 and "exited": its number may be another task's by now. */
	tid = kb_thread_tid_nr(thread, w->ns);
	seq_printf(w->m, "  thread %d: looper 0x%x%s%s\n", tid,
		   kb_thread_looper_locked(thread),
		   kb_thread_is_dead_locked(thread) ? " dead" : "",
		   tid || kb_thread_task_alive(thread) ? "" : " exited");
	while (t && depth++ < KB_LOGS_MAX_DEPTH) {
		spin_lock(&t->lock);
		sender = t->from == thread;
		spin_unlock(&t->lock);
		kb_logs_print_txn(w, sender ? "    outgoing " : "    incoming ",
				  proc, t);
		t = sender ? t->from_parent : t->to_parent;
	}
	if (!w->txns_only && kb_thread_complete_pending_locked(thread))
		seq_puts(w->m, "    queued pending transaction complete\n");
	kb_logs_print_todo(w, proc, kb_thread_todo_locked(thread),
			   "    queued ");
}

static void kb_logs_print_node(struct kb_logs_walk *w, struct kb_node *node)
{
	struct kb_node_counts c;
	struct kb_ref_link *link;
	struct kb_ref *ref;
	pid_t nr;
	int hidden = 0;

	spin_lock(&node->lock);
	kb_node_counts_locked(node, &c);
	seq_printf(w->m, "  node %d: strong refs %d local strong %d weak %d%s%s refs from",
		   node->debug_id, c.internal_strong, c.local_strong,
		   c.local_weak, c.is_mgr ? " context-manager" : "",
		   c.retired ? " retired" : "");
	hlist_for_each_entry(link, kb_node_refs_locked(node), entry) {
		ref = kb_ref_of_link(link);
		nr = kb_logs_proc_nr(ref->proc, w->ns);
		if (nr && kb_logs_in_scope(w->scope, ref->proc->ctx->fs_id))
			seq_printf(w->m, " %d", nr);
		else
			hidden++;
	}
	if (hidden)
		seq_printf(w->m, " (+%d not visible)", hidden);
	seq_putc(w->m, '\n');
	spin_unlock(&node->lock);
}

static void kb_logs_print_nodes(struct kb_logs_walk *w, struct kb_proc *proc)
{
	struct kb_node *batch[KB_LOGS_NODE_BATCH];
	binder_uintptr_t after = 0;
	bool first = true;
	int i, n;

	do {
		spin_lock(&proc->inner_lock);
		for (n = 0; n < KB_LOGS_NODE_BATCH; n++) {
			batch[n] = kb_node_next_locked(proc, !first, after);
			if (!batch[n])
				break;
			after = batch[n]->ptr;
			first = false;
		}
		spin_unlock(&proc->inner_lock);
		for (i = 0; i < n; i++) {
			kb_logs_print_node(w, batch[i]);
			kb_node_put_mem(batch[i]);
		}
	} while (n == KB_LOGS_NODE_BATCH);
}

static void kb_logs_print_refs(struct kb_logs_walk *w, struct kb_proc *proc)
{
	struct kb_proc *owner;
	struct kb_ref *ref;
	struct rb_node *n;
	pid_t nr;

	mutex_lock(&proc->refs_lock);
	for (n = rb_first(&proc->refs_by_desc); n; n = rb_next(n)) {
		ref = rb_entry(n, struct kb_ref, rb_desc);
		spin_lock(&ref->node->lock);
		owner = kb_node_owner_locked(ref->node);
		nr = owner ? kb_logs_proc_nr(owner, w->ns) : 0;
		seq_printf(w->m, "  ref %d: handle %u node %d owner %d%s strong %d weak %d%s\n",
			   ref->debug_id, ref->desc, ref->node->debug_id, nr,
			   owner ? "" : " (dead)", ref->strong, ref->weak,
			   ref->link.notice[KB_NOTICE_DEATH] ?
			   " death-notification" : "");
		spin_unlock(&ref->node->lock);
	}
	mutex_unlock(&proc->refs_lock);
}

static void kb_logs_print_proc(struct kb_proc *proc, struct kb_proc_visitor *v)
{
	struct kb_logs_walk *w = container_of(v, struct kb_logs_walk, v);
	struct kb_context *ctx = proc->ctx;
	struct kb_thread *thread;
	pid_t nr, after = INT_MIN;

	if (!kb_logs_in_scope(w->scope, ctx->fs_id))
		return;
	if (w->only_tgid && task_tgid(proc->tsk) != w->only_tgid)
		return;
	nr = kb_logs_proc_nr(proc, w->ns);
	if (!nr)
		return;
	seq_printf(w->m, "proc %d\ncontext %s (world %llu)\n", nr, ctx->name,
		   ctx->id);
	/* One thread per critical section: a process has as many as it likes. */
	while ((thread = kb_thread_next(proc, after))) {
		after = thread->pid;
		spin_lock(&proc->inner_lock);
		if (!kb_thread_is_dead_locked(thread))
			kb_logs_print_thread(w, proc, thread);
		spin_unlock(&proc->inner_lock);
		kb_thread_put(thread);
	}
	spin_lock(&proc->inner_lock);
	kb_logs_print_todo(w, proc, kb_proc_todo_locked(proc), "  queued ");
	spin_unlock(&proc->inner_lock);
	if (w->txns_only)
		return;
	kb_logs_print_nodes(w, proc);
	kb_logs_print_refs(w, proc);
}

static const struct kb_logs_scope *kb_logs_scope_of(struct seq_file *m)
{
	return file_inode(m->file)->i_private;
}

static int kb_logs_walk(struct seq_file *m, struct pid *only, bool txns)
{
	struct kb_logs_walk w = {
		.v.visit = kb_logs_print_proc,
		.m = m,
		.scope = kb_logs_scope_of(m),
		.ns = task_active_pid_ns(current),
		.only_tgid = only,
		.txns_only = txns,
	};

	seq_puts(m, txns ? "binder transactions:\n" : "binder state:\n");
	kb_freeze_visit_procs(&w.v);
	return 0;
}

static int kb_logs_state_show(struct seq_file *m, void *unused)
{
	return kb_logs_walk(m, NULL, false);
}

static int kb_logs_transactions_show(struct seq_file *m, void *unused)
{
	return kb_logs_walk(m, NULL, true);
}

/**
 * struct kb_logs_count - the stats file's totals for one mount
 * @v: visits each process
 * @scope: the mount's scope
 * @ns: the reader's pid namespace
 * @procs: processes counted
 * @threads: their threads
 * @nodes: their nodes
 * @refs: their refs
 * @incoming: transactions queued to them and not yet freed
 */
struct kb_logs_count {
	struct kb_proc_visitor v;
	const struct kb_logs_scope *scope;
	struct pid_namespace *ns;
	unsigned long procs;
	unsigned long threads;
	unsigned long nodes;
	unsigned long refs;
	unsigned long incoming;
};

static void kb_logs_count_proc(struct kb_proc *proc, struct kb_proc_visitor *v)
{
	struct kb_logs_count *c = container_of(v, struct kb_logs_count, v);
	struct rb_node *n;

	if (!kb_logs_in_scope(c->scope, proc->ctx->fs_id) ||
	    !kb_logs_proc_nr(proc, c->ns))
		return;
	c->procs++;
	mutex_lock(&proc->refs_lock);
	for (n = rb_first(&proc->refs_by_desc); n; n = rb_next(n))
		c->refs++;
	mutex_unlock(&proc->refs_lock);
	spin_lock(&proc->inner_lock);
	for (n = rb_first(kb_proc_threads_locked(proc)); n; n = rb_next(n))
		c->threads++;
	for (n = rb_first(kb_proc_nodes_locked(proc)); n; n = rb_next(n))
		c->nodes++;
	c->incoming += kb_proc_outstanding_locked(proc);
	spin_unlock(&proc->inner_lock);
}

static int kb_logs_stats_show(struct seq_file *m, void *unused)
{
	struct kb_logs_count c = {
		.v.visit = kb_logs_count_proc,
		.scope = kb_logs_scope_of(m),
		.ns = task_active_pid_ns(current),
	};

	kb_freeze_visit_procs(&c.v);
	seq_printf(m, "binder stats:\nscope %s\nprocs %lu\nthreads %lu\nnodes %lu\nrefs %lu\nincoming_transactions %lu\n",
		   c.scope->all ? "global" : "mount", c.procs, c.threads,
		   c.nodes, c.refs, c.incoming);
	return 0;
}

static void kb_logs_put_entry(struct kb_log_entry *e)
{
	put_pid(e->from_tgid);
	put_pid(e->from_tid);
	put_pid(e->to_tgid);
	put_pid(e->to_tid);
	memset(e, 0, sizeof(*e));
}

/*
 * A slot's pid reference becomes @pid's. A slot usually held the same
 * pid (two threads trading calls write every other slot, and the ring's
 * size is even): then the reference it has is kept, and no count moves.
 */
static __always_inline void kb_logs_set_pid(struct pid **slot,
					    struct pid *pid)
{
	if (*slot == pid)
		return;
	put_pid(*slot);
	*slot = get_pid(pid);
}

/*
 * Write @e into the ring's next slot, in place: the slot's pid references
 * are swapped for @e's (kb_logs_set_pid()), the other fields copied.
 */
static __always_inline void kb_logs_push(struct kb_log_ring *ring,
					 const struct kb_log_entry *e)
	__must_hold(&kb_logs_lock)
{
	struct kb_log_entry *slot = &ring->entries[ring->next % KB_LOGS_RING];

	lockdep_assert_held(&kb_logs_lock);
	slot->debug_id = e->debug_id;
	slot->ctx_id = e->ctx_id;
	slot->fs_id = e->fs_id;
	kb_logs_set_pid(&slot->from_tgid, e->from_tgid);
	kb_logs_set_pid(&slot->from_tid, e->from_tid);
	kb_logs_set_pid(&slot->to_tgid, e->to_tgid);
	kb_logs_set_pid(&slot->to_tid, e->to_tid);
	slot->to_node = e->to_node;
	slot->handle = e->handle;
	slot->code = e->code;
	slot->flags = e->flags;
	slot->data_size = e->data_size;
	slot->reply = e->reply;
	slot->ret = e->ret;
	slot->err = e->err;
	ring->next++;
}

/**
 * kb_logs_record() - remember a transaction for transaction_log (and
 *	failed_transaction_log if it failed)
 * @debug_id: its id
 * @from: the sending thread (current)
 * @to_proc: the target process, or NULL if none was found
 * @to_thread: the target thread, or NULL
 * @to_node_id: the target node's debug id, or 0
 * @tr: the sender's transaction data
 * @reply: a BC_REPLY
 * @st: its outcome
 */
void kb_logs_record(int debug_id, struct kb_thread *from,
		    struct kb_proc *to_proc, struct kb_thread *to_thread,
		    int to_node_id,
		    const struct binder_transaction_data *tr, bool reply,
		    struct kb_status st)
{
	struct kb_log_entry e = {
		.debug_id = debug_id,
		.ctx_id = from->proc->ctx->id,
		.fs_id = from->proc->ctx->fs_id,
		.from_tgid = task_tgid(current),
		.from_tid = task_pid(current),
		.to_node = to_node_id,
		.handle = reply ? 0 : tr->target.handle,
		.code = tr->code,
		.flags = tr->flags,
		.data_size = tr->data_size,
		.reply = reply,
		.ret = kb_ok(st) ? 0 : st.reply,
		.err = st.err,
	};

	rcu_read_lock();
	if (to_proc)
		e.to_tgid = task_tgid(to_proc->tsk);
	if (to_thread)
		e.to_tid = to_thread->tid;
	spin_lock(&kb_logs_lock);
	kb_logs_push(&kb_logs_all, &e);
	if (unlikely(!kb_ok(st)))
		kb_logs_push(&kb_logs_failed, &e);
	spin_unlock(&kb_logs_lock);
	rcu_read_unlock();
}

/*
 * A remembered task's number in @ns, 0 once it exited: the number may be
 * another task's by now.
 */
static pid_t kb_logs_live_nr(struct pid *pid, enum pid_type type,
			     struct pid_namespace *ns)
{
	pid_t nr = 0;

	rcu_read_lock();
	if (pid_task(pid, type))
		nr = pid_nr_ns(pid, ns);
	rcu_read_unlock();
	return nr;
}

static int kb_logs_ring_show(struct seq_file *m, struct kb_log_ring *ring)
{
	const struct kb_logs_scope *scope = kb_logs_scope_of(m);
	struct pid_namespace *ns = task_active_pid_ns(current);
	struct kb_log_entry *e;
	unsigned int i, start;
	pid_t from;

	spin_lock(&kb_logs_lock);
	start = ring->next > KB_LOGS_RING ? ring->next - KB_LOGS_RING : 0;
	for (i = start; i != ring->next; i++) {
		e = &ring->entries[i % KB_LOGS_RING];
		/* Slots from @start to @next were all written. */
		if (!kb_logs_in_scope(scope, e->fs_id))
			continue;
		/* A sender outside the reader's namespace is not shown. */
		if (!pid_nr_ns(e->from_tgid, ns))
			continue;
		from = kb_logs_live_nr(e->from_tgid, PIDTYPE_TGID, ns);
		seq_printf(m, "%d: %s from %d:%d to %d:%d world %llu node %d handle %u size %llu code %u flags 0x%x ret %u err %d\n",
			   e->debug_id, e->reply ? "reply" : "call", from,
			   kb_logs_live_nr(e->from_tid, PIDTYPE_PID, ns),
			   kb_logs_live_nr(e->to_tgid, PIDTYPE_TGID, ns),
			   kb_logs_live_nr(e->to_tid, PIDTYPE_PID, ns),
			   e->ctx_id, e->to_node,
			   e->handle, e->data_size, e->code, e->flags, e->ret,
			   e->err);
	}
	spin_unlock(&kb_logs_lock);
	return 0;
}

static int kb_logs_transaction_log_show(struct seq_file *m, void *unused)
{
	return kb_logs_ring_show(m, &kb_logs_all);
}

static int kb_logs_failed_log_show(struct seq_file *m, void *unused)
{
	return kb_logs_ring_show(m, &kb_logs_failed);
}

/* As DEFINE_SHOW_ATTRIBUTE(), but binderfs.c uses the operations. */
#define KB_LOGS_FILE(__name)						\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _show, inode->i_private);	\
}									\
									\
const struct file_operations __name ## _fops = {			\
	.owner = THIS_MODULE,						\
	.open = __name ## _open,					\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

KB_LOGS_FILE(kb_logs_state);
KB_LOGS_FILE(kb_logs_stats);
KB_LOGS_FILE(kb_logs_transactions);
KB_LOGS_FILE(kb_logs_transaction_log);
KB_LOGS_FILE(kb_logs_failed_log);

/*
 * counts and profiles: every world in the scope, with its device name and
 * profile, and for counts its use counters (counts.h). A world's counters
 * outlive its processes: they go with the world (its device).
 */

/* kb_context_pin_worlds()'s filter: the worlds a mount's reader sees. */
static bool kb_logs_world_in_scope(const struct kb_context *ctx,
				   const void *scope)
{
	return kb_logs_in_scope(scope, ctx->fs_id);
}

/*
 * The worlds of @m's scope (every one for debugfs's files, whose scope is
 * NULL), each with a reference, so that they are read and printed without
 * the list's lock (context.c); @total as for kb_context_pin_worlds().
 */
static struct kb_context **kb_logs_pin(struct seq_file *m,
				       struct kb_counts *total, size_t *n)
{
	const struct kb_logs_scope *scope = m->private;

	return kb_context_pin_worlds(scope ? kb_logs_world_in_scope : NULL,
				     scope, total, n);
}

/*
 * debugfs's counts (no scope) starts with an "all" block: every world's
 * counters, those of the worlds gone since the load included.
 */
static int kb_logs_counts_show(struct seq_file *m, void *unused)
{
	struct kb_counts *sum, *total = NULL;
	struct kb_context **worlds;
	size_t i, n;

	sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	if (!m->private)
		total = kzalloc(sizeof(*total), GFP_KERNEL);
	if (!sum || (!m->private && !total)) {
		kfree(sum);
		kfree(total);
		return -ENOMEM;
	}
	worlds = kb_logs_pin(m, total, &n);
	if (IS_ERR(worlds)) {
		kfree(sum);
		kfree(total);
		return PTR_ERR(worlds);
	}
	if (total) {
		for (i = 0; i < n; i++) {
			kb_counts_sum(total, worlds[i]->counts);
			cond_resched();
		}
		seq_puts(m, "all\n");
		kb_counts_show(m, total);
		kfree(total);
	}
	for (i = 0; i < n; i++) {
		memset(sum, 0, sizeof(*sum));
		kb_counts_sum(sum, worlds[i]->counts);
		seq_printf(m, "world %llu %s profile %s\n", worlds[i]->id,
			   worlds[i]->name, kb_profile_name(worlds[i]->profile));
		kb_counts_show(m, sum);
		cond_resched();
	}
	kb_context_unpin_worlds(worlds, n);
	kfree(sum);
	return 0;
}

static int kb_logs_profiles_show(struct seq_file *m, void *unused)
{
	struct kb_context **worlds;
	size_t i, n;

	worlds = kb_logs_pin(m, NULL, &n);
	if (IS_ERR(worlds))
		return PTR_ERR(worlds);
	for (i = 0; i < n; i++) {
		seq_printf(m, "%s %s\n", worlds[i]->name,
			   kb_profile_name(worlds[i]->profile));
		cond_resched();
	}
	kb_context_unpin_worlds(worlds, n);
	return 0;
}

KB_LOGS_FILE(kb_logs_counts);
KB_LOGS_FILE(kb_logs_profiles);

/**
 * kb_logs_debugfs_init() - debugfs's kbinder/counts and kbinder/profiles,
 *	the same files for every world (root only, as debugfs is)
 *
 * Cannot fail: a failure of debugfs is not fatal. kb_stats_exit() removes
 * them with their directory.
 */
void kb_logs_debugfs_init(void)
{
	struct dentry *dir = kb_stats_debugfs_dir();

	debugfs_create_file("counts", 0444, dir, NULL, &kb_logs_counts_fops);
	debugfs_create_file("profiles", 0444, dir, NULL,
			    &kb_logs_profiles_fops);
}

/* Nothing to undo: kb_stats_exit() removes the directory. */
void kb_logs_debugfs_exit(void)
{
}

/* proc/<pid>: one file per visible process, looked up by name. */

static int kb_logs_proc_show(struct seq_file *m, void *unused)
{
	struct pid *pid;
	int nr, ret;

	ret = kstrtoint(file_dentry(m->file)->d_name.name, 10, &nr);
	if (ret)
		return ret;
	pid = find_get_pid(nr);
	if (!pid)
		return -ESRCH;
	ret = kb_logs_walk(m, pid, false);
	put_pid(pid);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(kb_logs_proc);

/**
 * struct kb_logs_find - looking for a process of the mount by pid
 * @v: visits each process
 * @scope: the mount's scope
 * @ns: the reader's pid namespace
 * @nr: the pid wanted (0 during a listing)
 * @found: @nr is one of the mount's processes
 * @dir: the listing under way, or NULL
 * @skip: entries of the listing already given
 * @index: entries seen so far
 * @full: the listing buffer is full
 */
struct kb_logs_find {
	struct kb_proc_visitor v;
	const struct kb_logs_scope *scope;
	struct pid_namespace *ns;
	pid_t nr;
	bool found;
	struct dir_context *dir;
	loff_t skip;
	loff_t index;
	bool full;
};

static void kb_logs_find_proc(struct kb_proc *proc, struct kb_proc_visitor *v)
{
	struct kb_logs_find *f = container_of(v, struct kb_logs_find, v);
	char name[16];
	pid_t nr;
	int len;

	if (!kb_logs_in_scope(f->scope, proc->ctx->fs_id))
		return;
	nr = kb_logs_proc_nr(proc, f->ns);
	if (!nr)
		return;
	if (!f->dir) {
		f->found |= nr == f->nr;
		return;
	}
	if (f->full || f->index++ < f->skip)
		return;
	len = snprintf(name, sizeof(name), "%d", nr);
	if (!dir_emit(f->dir, name, len, 1, DT_REG))
		f->full = true;
	else
		f->dir->pos++;
}

static int kb_logs_proc_iterate(struct file *file, struct dir_context *dir)
{
	struct kb_logs_find f = {
		.v.visit = kb_logs_find_proc,
		.scope = file_inode(file)->i_private,
		.ns = task_active_pid_ns(current),
		.dir = dir,
	};

	if (!dir_emit_dots(file, dir))
		return 0;
	f.skip = dir->pos - 2;
	kb_freeze_visit_procs(&f.v);
	return 0;
}

const struct file_operations kb_logs_proc_dir_fops = {
	.owner = THIS_MODULE,
	.read = generic_read_dir,
	.iterate_shared = kb_logs_proc_iterate,
	.llseek = generic_file_llseek,
};

/* Nothing under proc/ is cached: each reader's namespace decides. */
static const struct dentry_operations kb_logs_proc_dops = {
	.d_delete = always_delete_dentry,
};

static struct dentry *kb_logs_proc_lookup(struct inode *dir,
					  struct dentry *dentry,
					  unsigned int flags)
{
	struct kb_logs_find f = {
		.v.visit = kb_logs_find_proc,
		.scope = dir->i_private,
		.ns = task_active_pid_ns(current),
	};
	struct inode *inode = NULL;

	d_set_d_op(dentry, &kb_logs_proc_dops);
	if (!kstrtoint(dentry->d_name.name, 10, &f.nr) && f.nr > 0)
		kb_freeze_visit_procs(&f.v);
	if (f.found) {
		inode = new_inode(dir->i_sb);
		if (!inode)
			return ERR_PTR(-ENOMEM);
		inode->i_ino = get_next_ino();
		inode->i_mode = S_IFREG | 0444;
		simple_inode_init_ts(inode);
		inode->i_fop = &kb_logs_proc_fops;
		inode->i_private = dir->i_private;
	}
	return d_splice_alias(inode, dentry);
}

const struct inode_operations kb_logs_proc_dir_iops = {
	.lookup = kb_logs_proc_lookup,
};

/**
 * kb_logs_exit() - drop the pids the transaction logs remember
 */
void kb_logs_exit(void)
{
	unsigned int i;

	spin_lock(&kb_logs_lock);
	for (i = 0; i < KB_LOGS_RING; i++) {
		kb_logs_put_entry(&kb_logs_all.entries[i]);
		kb_logs_put_entry(&kb_logs_failed.entries[i]);
	}
	spin_unlock(&kb_logs_lock);
}
