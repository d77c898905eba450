// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-test of the kbinder buffer allocator, built only into test builds
 * (make ... KBINDER_SELFTEST=1) and run at module load with selftest=1.
 *
 * The allocator needs a real mm and a real vma (pages are inserted with
 * vm_insert_page() and zapped by the shrinker), so the test borrows the
 * mm of the loading process from a kernel thread (kthread_use_mm), maps a
 * private anonymous-inode file of its own into it, and drives a kb_alloc over
 * that mapping. A kernel thread, because the file must be completely gone
 * (flush_delayed_fput) before the test returns: a process would release it
 * only on its way back to userspace, after a failed module load has freed
 * the file's operations.
 *
 * This file holds that environment, the checks that race threads (two
 * allocating workers against the shrinker; munmap against an allocating
 * worker), the cost of the common case, vma close and release.
 * alloc_selftest_checks.c holds the checker and the single-threaded checks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/anon_inodes.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "alloc_internal.h"
#include "alloc_selftest_checks.h"

/* ---- the private mapping ------------------------------------------------ */

static void kb_st_vma_close(struct vm_area_struct *vma)
{
	struct kb_st *st = vma->vm_private_data;

	kb_alloc_vma_close(&st->alloc);
}

static const struct vm_operations_struct kb_st_vm_ops = {
	.close = kb_st_vma_close,
};

static int kb_st_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct kb_st *st = file->private_data;

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	vm_flags_clear(vma, VM_MAYWRITE);
	vma->vm_ops = &kb_st_vm_ops;
	vma->vm_private_data = st;
	return kb_alloc_mmap(&st->alloc, vma);
}

static const struct file_operations kb_st_fops = {
	.owner = THIS_MODULE,
	.mmap = kb_st_mmap,
};

/* ---- concurrency: two allocating threads and the shrinker ----------------- */

#define KB_ST_WORKERS	2
#define KB_ST_ITERS	4000
#define KB_ST_HELD	4	/* buffers a worker holds at once */

/**
 * struct kb_st_worker - one thread of the concurrency test
 * @st:      the test
 * @id:      worker number (seeds its pattern and its random sizes)
 * @ops:     buffers allocated, filled, verified and freed
 * @nospc:   allocations that found no room
 * @errors:  wrong contents or failed calls
 * @done:    the worker has finished
 */
struct kb_st_worker {
	struct kb_st *st;
	unsigned int id;
	unsigned long ops;
	unsigned long nospc;
	unsigned long errors;
	struct completion done;
};

static u32 kb_st_rand(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void kb_st_fill(struct kb_alloc *alloc, struct kb_buffer *b, u8 byte)
{
	u8 chunk[64];
	size_t off, n;

	memset(chunk, byte, sizeof(chunk));
	for (off = 0; off < b->size; off += n) {
		n = min_t(size_t, sizeof(chunk), b->size - off);
		kb_alloc_copy_to_buffer(alloc, b, off, chunk, n);
	}
}

/* The kernel's view and the user mapping both show @byte at both ends. */
static bool kb_st_verify(struct kb_alloc *alloc, struct kb_buffer *b, u8 byte)
{
	size_t n = min_t(size_t, 64, b->size);
	size_t ends[2] = { 0, b->size - n };
	u8 chunk[64];
	int i;

	for (i = 0; i < 2; i++) {
		if (kb_alloc_copy_from_buffer(alloc, chunk, b, ends[i], n) ||
		    memchr_inv(chunk, byte, n))
			return false;
		if (copy_from_user(chunk,
				   (const void __user *)(b->user_data + ends[i]),
				   n) || memchr_inv(chunk, byte, n))
			return false;
	}
	return true;
}

static void kb_st_drop_all(struct kb_st_worker *w, struct kb_buffer **held,
			   const u8 *byte)
{
	struct kb_alloc *alloc = &w->st->alloc;
	unsigned int slot;

	for (slot = 0; slot < KB_ST_HELD; slot++) {
		if (!held[slot])
			continue;
		if (!kb_st_verify(alloc, held[slot], byte[slot]))
			w->errors++;
		kb_alloc_free_buf(alloc, held[slot]);
		held[slot] = NULL;
		w->ops++;
	}
}

static void kb_st_worker_run(struct kb_st_worker *w)
{
	struct kb_alloc *alloc = &w->st->alloc;
	struct kb_buffer *held[KB_ST_HELD] = { NULL };
	u8 byte[KB_ST_HELD];
	u32 seed = 0x9e3779b9 * (w->id + 1);
	unsigned int i, slot;

	for (i = 0; i < KB_ST_ITERS; i++) {
		size_t size = kb_st_rand(&seed) % (3 * PAGE_SIZE);
		bool async = !(kb_st_rand(&seed) % 4);

		slot = kb_st_rand(&seed) % KB_ST_HELD;
		/* now and then drop everything: idle pages for the shrinker */
		if (!(i % 32))
			slot = KB_ST_HELD;
		if (slot == KB_ST_HELD) {
			kb_st_drop_all(w, held, byte);
			cond_resched();
			continue;
		}
		if (held[slot]) {
			if (!kb_st_verify(alloc, held[slot], byte[slot]))
				w->errors++;
			kb_alloc_free_buf(alloc, held[slot]);
			held[slot] = NULL;
			w->ops++;
			continue;
		}
		held[slot] = kb_alloc_new_buf(alloc, size, 0, 0, async, w->id);
		if (IS_ERR(held[slot])) {
			if (PTR_ERR(held[slot]) == -ENOSPC)
				w->nospc++;
			else
				w->errors++;
			held[slot] = NULL;
			continue;
		}
		byte[slot] = (u8)(w->id * 64 + i);
		kb_st_fill(alloc, held[slot], byte[slot]);
		if (!kb_st_verify(alloc, held[slot], byte[slot]))
			w->errors++;
		if (!(i % 64))
			cond_resched();
	}
	kb_st_drop_all(w, held, byte);
}

static int kb_st_worker_thread(void *data)
{
	struct kb_st_worker *w = data;

	kthread_use_mm(w->st->mm);
	kb_st_worker_run(w);
	kthread_unuse_mm(w->st->mm);
	complete(&w->done);
	return 0;
}

static void kb_st_concurrent(struct kb_st *st)
{
	struct kb_st_worker w[KB_ST_WORKERS];
	struct task_struct *task[KB_ST_WORKERS];
	unsigned long shrunk = 0, passes = 0, ops = 0, nospc = 0;
	unsigned int i, started = 0;

	for (i = 0; i < KB_ST_WORKERS; i++) {
		w[i] = (struct kb_st_worker){ .st = st, .id = i + 1 };
		init_completion(&w[i].done);
		task[i] = kthread_create(kb_st_worker_thread, &w[i],
					 "kbinder-alloc-st%u", i);
		if (!CHECK(st, !IS_ERR(task[i])))
			break;
		get_task_struct(task[i]);
		wake_up_process(task[i]);
		started++;
	}
	/* This thread is the shrinker, until every worker is done. */
	for (i = 0; i < started; i++) {
		while (!completion_done(&w[i].done)) {
			shrunk += kb_alloc_shrink(ULONG_MAX);
			passes++;
			cond_resched();
		}
	}
	for (i = 0; i < started; i++) {
		kthread_stop(task[i]);
		put_task_struct(task[i]);
		CHECK(st, !w[i].errors);
		ops += w[i].ops;
		nospc += w[i].nospc;
	}
	CHECK(st, ops > KB_ST_WORKERS * KB_ST_ITERS / 4);
	CHECK(st, kb_alloc_free_async_space(&st->alloc) == KB_ST_SIZE / 2);
	kb_st_check_area(st);
	kb_st_check_idle(st);
	pr_info("alloc selftest: concurrent: %lu buffers, %lu without room, %lu pages reclaimed in %lu shrinker passes\n",
		ops, nospc, shrunk, passes);
}

/* Cost of the common case: a small buffer whose page is resident. */
static void kb_st_speed(struct kb_st *st)
{
	const unsigned int rounds = 20000;
	struct kb_buffer *b;
	unsigned int i;
	u64 t0, ns;

	b = kb_st_new(st, 128, false);	/* make the first page resident */
	if (!b)
		return;
	kb_alloc_free_buf(&st->alloc, b);
	t0 = ktime_get_ns();
	for (i = 0; i < rounds; i++) {
		b = kb_alloc_new_buf(&st->alloc, 100, 16, 0, false, 1);
		if (IS_ERR(b))
			break;
		kb_alloc_free_buf(&st->alloc, b);
	}
	ns = ktime_get_ns() - t0;
	CHECK(st, i == rounds);
	kb_st_check_idle(st);
	pr_info("alloc selftest: new_buf+free_buf of 120 bytes, page resident: %llu ns per pair\n",
		div_u64(ns, rounds));
}

/*
 * munmap while a worker allocates (often on the slow path: the shrinker
 * keeps taking pages away): the worker must see -ESRCH, never anything
 * worse, and can still free what it holds.
 */
static int kb_st_closer_thread(void *data)
{
	struct kb_st_worker *w = data;
	struct kb_alloc *alloc = &w->st->alloc;
	struct kb_buffer *held[KB_ST_HELD] = { NULL };
	u32 seed = 12345;
	unsigned int slot;

	kthread_use_mm(w->st->mm);
	for (;;) {
		struct kb_buffer *b;

		slot = kb_st_rand(&seed) % KB_ST_HELD;
		if (held[slot]) {
			kb_alloc_free_buf(alloc, held[slot]);
			held[slot] = NULL;
		}
		b = kb_alloc_new_buf(alloc, kb_st_rand(&seed) % (2 * PAGE_SIZE),
				     0, 0, false, 3);
		if (IS_ERR(b)) {
			if (PTR_ERR(b) == -ESRCH)
				break;
			if (PTR_ERR(b) != -ENOSPC)
				w->errors++;
			continue;
		}
		kb_st_fill(alloc, b, 0x5a);
		held[slot] = b;
		WRITE_ONCE(w->ops, w->ops + 1);
		cond_resched();
	}
	for (slot = 0; slot < KB_ST_HELD; slot++)
		if (held[slot])
			kb_alloc_free_buf(alloc, held[slot]);
	kthread_unuse_mm(w->st->mm);
	complete(&w->done);
	return 0;
}

static void kb_st_close_race(struct kb_st *st)
{
	struct kb_st_worker w = { .st = st };
	struct task_struct *task;

	init_completion(&w.done);
	task = kthread_create(kb_st_closer_thread, &w, "kbinder-alloc-stc");
	if (!CHECK(st, !IS_ERR(task))) {
		CHECK(st, !vm_munmap(st->addr, KB_ST_SIZE));
		return;
	}
	get_task_struct(task);
	wake_up_process(task);
	while (READ_ONCE(w.ops) < 300 && !completion_done(&w.done)) {
		kb_alloc_shrink(ULONG_MAX);
		cond_resched();
	}
	CHECK(st, !vm_munmap(st->addr, KB_ST_SIZE));
	wait_for_completion(&w.done);
	kthread_stop(task);
	put_task_struct(task);
	CHECK(st, !w.errors);
	CHECK(st, w.ops >= 300);
}

/* ---- set-up, the kernel thread, the entry point ------------------------- */

static int kb_st_map(struct kb_st *st)
{
	unsigned long addr;

	st->file = anon_inode_getfile("[kbinder-alloc-selftest]", &kb_st_fops,
				      st, O_RDONLY);
	if (IS_ERR(st->file))
		return PTR_ERR(st->file);
	addr = vm_mmap(st->file, 0, KB_ST_SIZE, PROT_READ, MAP_SHARED, 0);
	if (IS_ERR_VALUE(addr))
		return (int)addr;
	st->addr = addr;
	return 0;
}

static int kb_st_run(struct kb_st *st)
{
	unsigned long runs = 0;
	int ret;

	kthread_use_mm(st->mm);
	kb_alloc_init(&st->alloc);
	st->lru_base = kb_alloc_lru_count();
	ret = kb_st_map(st);
	if (!ret) {
		kb_st_single(st, &runs);
		kb_st_concurrent(st);
		kb_st_speed(st);

		/* leave two buffers allocated: release must report them */
		kb_st_new(st, 8, false);
		kb_st_new(st, 3 * PAGE_SIZE, true);
		kb_st_close_race(st);
		CHECK(st, st->alloc.closed);
		CHECK(st, PTR_ERR(kb_alloc_new_buf(&st->alloc, 8, 0, 0, false,
						   1)) == -ESRCH);
	}
	CHECK(st, kb_alloc_release(&st->alloc) == (ret ? 0 : 2));
	CHECK(st, kb_alloc_lru_count() == st->lru_base);
	CHECK(st, PTR_ERR(kb_alloc_new_buf(&st->alloc, 8, 0, 0, false, 1)) ==
	      -ESRCH);
	if (!IS_ERR_OR_NULL(st->file))
		fput(st->file);
	kthread_unuse_mm(st->mm);
	/* The file (and its reference on this module) is gone after this. */
	flush_delayed_fput();

	if (ret)
		pr_err("alloc selftest: cannot map a test area: %d\n", ret);
	else
		pr_info("alloc selftest: %lu checks, %lu failed, %lu alloc/free orders\n",
			st->checks, st->failures, runs);
	if (ret)
		return ret;
	return st->failures ? -EINVAL : 0;
}

static int kb_st_thread(void *data)
{
	struct kb_st *st = data;

	st->result = kb_st_run(st);
	complete(&st->done);
	return 0;
}

int kb_alloc_selftest(void)
{
	struct task_struct *task;
	struct kb_st *st;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	init_completion(&st->done);
	st->mm = get_task_mm(current);
	if (!st->mm) {
		kfree(st);
		return -EOPNOTSUPP;
	}
	task = kthread_create(kb_st_thread, st, "kbinder-alloc-st");
	if (IS_ERR(task)) {
		ret = PTR_ERR(task);
		goto out;
	}
	/* kthread_stop() alone could stop it before it ever ran. */
	get_task_struct(task);
	wake_up_process(task);
	wait_for_completion(&st->done);
	kthread_stop(task);
	put_task_struct(task);
	ret = st->result;
out:
	mmput(st->mm);
	kfree(st);
	return ret;
}
