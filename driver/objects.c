// SPDX-License-Identifier: GPL-2.0-only
/*
 * Objects embedded in a transaction payload.
 *
 * The offsets array lists where objects start; each must be 4-byte
 * aligned, inside the data, after the end of the previous object, and of a
 * known type. One table entry per type says how big the object is, how to
 * translate it for the receiver and how to release what the translation
 * took when the buffer is freed. Every type of protocol 8 has its entry
 * (binder objects and handles, strong and weak, file descriptors, fd
 * arrays and scatter-gather buffers); any other type fails the
 * transaction with BR_FAILED_REPLY.
 */
#include "internal.h"

#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/uaccess.h>
#include <linux/security.h>

#include "alloc.h"
#include "context.h"
#include "counts.h"
#include "node.h"
#include "objects.h"
#include "proc.h"
#include "profile.h"
#include "ref.h"

/**
 * union kb_object - any object that can appear in a payload
 * @hdr: the common header (its type)
 * @fbo: BINDER_TYPE_(WEAK_)BINDER and BINDER_TYPE_(WEAK_)HANDLE
 * @fd: BINDER_TYPE_FD
 * @fda: BINDER_TYPE_FDA
 * @bbo: BINDER_TYPE_PTR
 */
union kb_object {
	struct binder_object_header hdr;
	struct flat_binder_object fbo;
	struct binder_fd_object fd;
	struct binder_fd_array_object fda;
	struct binder_buffer_object bbo;
};

/**
 * struct kb_object_type - how one object type is handled
 * @type: BINDER_TYPE_*
 * @size: size of the object in the payload
 * @translate: rewrite the object for the receiver, taking what it needs
 * @release: drop what the translation took, in the buffer's owner
 *	(@ctx->target; @ctx->done is the object's index)
 */
struct kb_object_type {
	u32 type;
	size_t size;
	struct kb_status (*translate)(struct kb_objects_ctx *ctx,
				      union kb_object *obj, size_t off);
	void (*release)(struct kb_objects_ctx *ctx, union kb_object *obj);
};

/* A binder object of the sender becomes a handle of the receiver. */
static struct kb_status kb_translate_binder(struct kb_objects_ctx *ctx,
					    union kb_object *obj, size_t off)
{
	struct flat_binder_object *fbo = &obj->fbo;
	bool strong = fbo->hdr.type == BINDER_TYPE_BINDER;
	struct kb_node *node;
	u32 desc;
	int ret;

	if (security_binder_transfer_binder(ctx->proc->cred, ctx->target->cred))
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	node = kb_node_get_or_create(ctx->proc, fbo);
	if (!node)
		return kb_fail(BR_FAILED_REPLY, -ENOMEM);
	if (node->cookie != fbo->cookie) {
		kb_node_unpin(node);
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	}
	ret = kb_ref_inc_for_node(ctx->target, node, strong, ctx->thread,
				  &desc);
	kb_node_unpin(node);
	if (ret)
		return kb_fail(BR_FAILED_REPLY, ret);
	fbo->hdr.type = strong ? BINDER_TYPE_HANDLE : BINDER_TYPE_WEAK_HANDLE;
	fbo->binder = 0;
	fbo->handle = desc;
	fbo->cookie = 0;
	return KB_OK;
}

/*
 * A handle of the sender becomes the binder object itself when it goes back
 * to the node's owner, else a handle of the receiver.
 */
static struct kb_status kb_translate_handle(struct kb_objects_ctx *ctx,
					    union kb_object *obj, size_t off)
{
	struct flat_binder_object *fbo = &obj->fbo;
	bool strong = fbo->hdr.type == BINDER_TYPE_HANDLE;
	struct kb_node *node;
	bool to_owner;
	u32 desc;
	int ret = 0;

	node = kb_ref_get_node(ctx->proc, fbo->handle, strong);
	if (!node)
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	if (security_binder_transfer_binder(ctx->proc->cred,
					    ctx->target->cred)) {
		kb_node_unpin(node);
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	}
	spin_lock(&node->lock);
	to_owner = kb_node_owner_locked(node) == ctx->target;
	if (to_owner)
		ret = kb_node_inc_locked(node, strong, false, NULL);
	spin_unlock(&node->lock);
	if (to_owner) {
		fbo->hdr.type = strong ? BINDER_TYPE_BINDER :
					 BINDER_TYPE_WEAK_BINDER;
		fbo->binder = node->ptr;
		fbo->cookie = node->cookie;
	} else {
		ret = kb_ref_inc_for_node(ctx->target, node, strong, NULL,
					  &desc);
		fbo->binder = 0;
		fbo->handle = desc;
		fbo->cookie = 0;
	}
	kb_node_unpin(node);
	return ret ? kb_fail(BR_FAILED_REPLY, ret) : KB_OK;
}

static void kb_release_binder(struct kb_objects_ctx *ctx, union kb_object *obj)
{
	struct kb_node *node = kb_node_lookup(ctx->target, obj->fbo.binder);

	if (!node)
		return;
	kb_node_dec(node, obj->hdr.type == BINDER_TYPE_BINDER, false);
	kb_node_unpin(node);
}

static void kb_release_handle(struct kb_objects_ctx *ctx, union kb_object *obj)
{
	kb_ref_update(ctx->target, obj->fbo.handle, false,
		      obj->hdr.type == BINDER_TYPE_HANDLE);
}

/*
 * A file descriptor: take a reference on the sender's file now; the
 * receiver gets its own descriptor when it reads the transaction.
 */
static struct kb_status kb_translate_one_fd(struct kb_objects_ctx *ctx,
					    u32 fd, size_t offset)
{
	struct kb_fd_fixup *fixup;
	struct file *file;

	if (!ctx->accept_fds)
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	fixup = kzalloc(sizeof(*fixup), GFP_KERNEL_ACCOUNT);
	if (!fixup)
		return kb_fail(BR_FAILED_REPLY, -ENOMEM);
	file = fget(fd);
	if (!file) {
		kfree(fixup);
		return kb_fail(BR_FAILED_REPLY, -EBADF);
	}
	/*
	 * A binder file in flight keeps its process's binder state alive;
	 * two processes passing each other their binder fds would keep both
	 * alive forever after they exit. Refuse binder files themselves.
	 */
	if (kb_proc_from_file(file)) {
		fput(file);
		kfree(fixup);
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	}
	if (security_binder_transfer_file(ctx->proc->cred, ctx->target->cred,
					  file)) {
		fput(file);
		kfree(fixup);
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	}
	fixup->file = file;
	fixup->offset = offset;
	list_add_tail(&fixup->entry, ctx->fd_fixups);
	return KB_OK;
}

static struct kb_status kb_translate_fd(struct kb_objects_ctx *ctx,
					union kb_object *obj, size_t off)
{
	u32 fd = obj->fd.fd;

	/* fd shares its storage with pad_binder: read it first */
	obj->fd.pad_binder = 0;
	return kb_translate_one_fd(ctx, fd,
				   off + offsetof(struct binder_fd_object, fd));
}

/* ---- scatter-gather buffers and fd arrays ---- */

static const struct kb_object_type *
kb_object_read(struct kb_alloc *alloc, struct kb_buffer *buffer, size_t index,
	       size_t min_off, union kb_object *obj, size_t *off_out);
static const struct kb_object_type *kb_object_at(struct kb_alloc *alloc,
						 struct kb_buffer *buffer,
						 size_t off,
						 union kb_object *obj);

/* The buffer object at @index of the offsets array, already translated. */
static int kb_object_parent(struct kb_objects_ctx *ctx, u64 index,
			    struct binder_buffer_object *parent,
			    size_t *parent_off)
{
	const struct kb_object_type *type;
	union kb_object obj;

	if (index >= ctx->done)
		return -EINVAL;
	type = kb_object_read(&ctx->target->alloc, ctx->buffer, index, 0, &obj,
			      parent_off);
	if (!type || type->type != BINDER_TYPE_PTR)
		return -EINVAL;
	*parent = obj.bbo;
	return 0;
}

/*
 * Fixups must be made in order: into the buffer object fixed up last, at
 * or after the place of the previous fixup, or into one of its ancestors
 * (after the place where the child hangs).
 */
static bool kb_fixup_in_order(struct kb_objects_ctx *ctx, size_t parent_off,
			      u64 fixup_offset)
{
	size_t offsets_start = ALIGN(ctx->buffer->data_size, sizeof(u64));
	size_t last = ctx->last_fixup_obj;
	u64 min = ctx->last_fixup_min;
	union kb_object obj;
	binder_size_t next;

	if (!last)
		return false;
	while (last != parent_off) {
		const struct kb_object_type *type =
			kb_object_at(&ctx->target->alloc, ctx->buffer, last,
				     &obj);

		if (!type || type->type != BINDER_TYPE_PTR ||
		    !(obj.bbo.flags & BINDER_BUFFER_FLAG_HAS_PARENT) ||
		    obj.bbo.parent >= ctx->done)
			return false;
		min = obj.bbo.parent_offset + sizeof(u64);
		if (kb_alloc_copy_from_buffer(&ctx->target->alloc, &next,
					      ctx->buffer,
					      offsets_start +
					      obj.bbo.parent * sizeof(next),
					      sizeof(next)))
			return false;
		last = next;
	}
	return fixup_offset >= min;
}

/* Offset in the buffer of @bytes at @parent_offset inside @parent. */
static int kb_parent_range(struct kb_objects_ctx *ctx,
			   const struct binder_buffer_object *parent,
			   u64 parent_offset, u64 bytes, size_t *off)
{
	if (bytes > parent->length || parent_offset > parent->length - bytes)
		return -EINVAL;
	*off = parent->buffer - ctx->buffer->user_data + parent_offset;
	return 0;
}

/*
 * A buffer object: copy the sender's memory into the scatter-gather area,
 * point the object at the receiver's copy, and patch the pointer into its
 * parent's copy.
 */
static struct kb_status kb_translate_ptr(struct kb_objects_ctx *ctx,
					 union kb_object *obj, size_t off)
{
	struct binder_buffer_object *bp = &obj->bbo;
	struct kb_alloc *alloc = &ctx->target->alloc;
	struct binder_buffer_object parent;
	size_t parent_off, fix_off;

	kb_cnt_handled(ctx->proc->ctx->counts, KB_CNT_REF_PTR);
	if (bp->length > ctx->sg_end - ctx->sg_off)
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	if (kb_alloc_copy_user_to_buffer(alloc, ctx->buffer, ctx->sg_off,
					 u64_to_user_ptr(bp->buffer),
					 bp->length))
		return kb_fail(BR_FAILED_REPLY, -EFAULT);
	bp->buffer = ctx->buffer->user_data + ctx->sg_off;
	ctx->sg_off += ALIGN(bp->length, sizeof(u64));

	if (bp->flags & BINDER_BUFFER_FLAG_HAS_PARENT) {
		if (kb_object_parent(ctx, bp->parent, &parent, &parent_off) ||
		    !kb_fixup_in_order(ctx, parent_off, bp->parent_offset) ||
		    kb_parent_range(ctx, &parent, bp->parent_offset,
				    sizeof(u64), &fix_off) ||
		    kb_alloc_copy_to_buffer(alloc, ctx->buffer, fix_off,
					    &bp->buffer, sizeof(u64)))
			return kb_fail(BR_FAILED_REPLY, -EINVAL);
	}
	ctx->last_fixup_obj = off;
	ctx->last_fixup_min = 0;
	return KB_OK;
}

/* The array must be 4-byte aligned in the sender's memory too. */
static bool kb_fda_aligned_in_sender(struct kb_objects_ctx *ctx,
				     size_t parent_off, u64 parent_offset)
{
	struct binder_buffer_object sender_parent;

	if (copy_from_user(&sender_parent,
			   u64_to_user_ptr(ctx->user_data + parent_off),
			   sizeof(sender_parent)))
		return false;
	return IS_ALIGNED(sender_parent.buffer + parent_offset, sizeof(u32));
}

/* An fd array inside a parent buffer: each descriptor is passed. */
static struct kb_status kb_translate_fda(struct kb_objects_ctx *ctx,
					 union kb_object *obj, size_t off)
{
	struct binder_fd_array_object *fda = &obj->fda;
	struct binder_buffer_object parent;
	size_t parent_off, fda_off;
	struct kb_status st;
	u64 i;
	u32 fd;

	kb_cnt_handled(ctx->proc->ctx->counts, KB_CNT_REF_FDA);
	if (fda->num_fds > U32_MAX ||
	    kb_object_parent(ctx, fda->parent, &parent, &parent_off) ||
	    !kb_fixup_in_order(ctx, parent_off, fda->parent_offset) ||
	    kb_parent_range(ctx, &parent, fda->parent_offset,
			    fda->num_fds * sizeof(u32), &fda_off) ||
	    !IS_ALIGNED(fda_off, sizeof(u32)) ||
	    !kb_fda_aligned_in_sender(ctx, parent_off, fda->parent_offset))
		return kb_fail(BR_FAILED_REPLY, -EINVAL);
	for (i = 0; i < fda->num_fds; i++) {
		if (kb_alloc_copy_from_buffer(&ctx->target->alloc, &fd,
					      ctx->buffer,
					      fda_off + i * sizeof(fd),
					      sizeof(fd)))
			return kb_fail(BR_FAILED_REPLY, -EINVAL);
		st = kb_translate_one_fd(ctx, fd, fda_off + i * sizeof(fd));
		if (!kb_ok(st))
			return st;
	}
	ctx->last_fixup_obj = parent_off;
	ctx->last_fixup_min = fda->parent_offset + fda->num_fds * sizeof(u32);
	return KB_OK;
}

/**
 * struct kb_fda_close - the file of a closed fd-array descriptor, kept
 *	until the ioctl that closed it has returned
 * @twork: the task work that drops it, on the way back to userspace
 * @file: the file (the reference its descriptor held)
 */
struct kb_fda_close {
	struct callback_head twork;
	struct file *file;
};

static void kb_fda_close_done(struct callback_head *twork)
{
	struct kb_fda_close *c = container_of(twork, struct kb_fda_close,
					      twork);

	fput(c->file);
	kfree(c);
	/* Last: this is the module's own code. */
	module_put(THIS_MODULE);
}

/*
 * Close descriptor @fd of the receiver (current, freeing its buffer) as
 * close(2) would, but keep its file until the ioctl has returned. The
 * receiver may have made @fd name a binder file of its own, the very one
 * whose ioctl this is: that ioctl reached its file through fdget(), which
 * takes no reference when the file table is not shared, so dropping the
 * last reference here would leave the rest of the ioctl on a file nothing
 * holds. The reference goes in a task work (as upstream does, since
 * 2019), which holds the module as well: it is our code, and may run after
 * the file that pinned the module was released. Without memory for it,
 * the descriptor stays open (as upstream): the receiver's to close.
 */
static void kb_fda_close_fd(u32 fd)
{
	struct kb_fda_close *c = kmalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return;
	c->file = file_close_fd(fd);
	if (!c->file) {
		kfree(c);
		return;
	}
	get_file(c->file);
	filp_close(c->file, current->files);
	init_task_work(&c->twork, kb_fda_close_done);
	/* The ioctl's file holds the module until then. */
	__module_get(THIS_MODULE);
	if (task_work_add(current, &c->twork, TWA_RESUME))
		/* Exiting, so in no ioctl: drop it now. */
		kb_fda_close_done(&c->twork);
}

/* The receiver owns the descriptors of a delivered fd array: close them. */
static void kb_release_fda(struct kb_objects_ctx *ctx, union kb_object *obj)
{
	struct binder_fd_array_object *fda = &obj->fda;
	struct binder_buffer_object parent;
	size_t parent_off, fda_off;
	u64 i;
	u32 fd;

	if (!ctx->delivered || fda->num_fds > U32_MAX ||
	    kb_object_parent(ctx, fda->parent, &parent, &parent_off) ||
	    kb_parent_range(ctx, &parent, fda->parent_offset,
			    fda->num_fds * sizeof(u32), &fda_off))
		return;
	for (i = 0; i < fda->num_fds; i++) {
		if (kb_alloc_copy_from_buffer(&ctx->target->alloc, &fd,
					      ctx->buffer,
					      fda_off + i * sizeof(fd),
					      sizeof(fd)))
			return;
		kb_fda_close_fd(fd);
	}
}

static void kb_release_nothing(struct kb_objects_ctx *ctx, union kb_object *obj)
{
}

/* In counts.h's order of the object types: they are counted by index. */
static const struct kb_object_type kb_object_types[] = {
	{ BINDER_TYPE_BINDER, sizeof(struct flat_binder_object),
	  kb_translate_binder, kb_release_binder },
	{ BINDER_TYPE_WEAK_BINDER, sizeof(struct flat_binder_object),
	  kb_translate_binder, kb_release_binder },
	{ BINDER_TYPE_HANDLE, sizeof(struct flat_binder_object),
	  kb_translate_handle, kb_release_handle },
	{ BINDER_TYPE_WEAK_HANDLE, sizeof(struct flat_binder_object),
	  kb_translate_handle, kb_release_handle },
	{ BINDER_TYPE_FD, sizeof(struct binder_fd_object),
	  kb_translate_fd, kb_release_nothing },
	{ BINDER_TYPE_FDA, sizeof(struct binder_fd_array_object),
	  kb_translate_fda, kb_release_fda },
	{ BINDER_TYPE_PTR, sizeof(struct binder_buffer_object),
	  kb_translate_ptr, kb_release_nothing },
};

static const struct kb_object_type *kb_object_type(u32 type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kb_object_types); i++)
		if (kb_object_types[i].type == type)
			return &kb_object_types[i];
	return NULL;
}

/* Read and check the object at @off of the data. */
static const struct kb_object_type *kb_object_at(struct kb_alloc *alloc,
						 struct kb_buffer *buffer,
						 size_t off,
						 union kb_object *obj)
{
	const struct kb_object_type *type;

	if (buffer->data_size < sizeof(obj->hdr) ||
	    off > buffer->data_size - sizeof(obj->hdr) ||
	    !IS_ALIGNED(off, sizeof(u32)))
		return NULL;
	if (kb_alloc_copy_from_buffer(alloc, &obj->hdr, buffer, off,
				      sizeof(obj->hdr)))
		return NULL;
	type = kb_object_type(obj->hdr.type);
	if (!type || type->size > buffer->data_size - off)
		return NULL;
	if (kb_alloc_copy_from_buffer(alloc, obj, buffer, off, type->size))
		return NULL;
	return type;
}

/*
 * Read the object whose offset is entry @index of the offsets array, and
 * check its place: aligned, not before @min_off, entirely inside the data.
 */
static const struct kb_object_type *
kb_object_read(struct kb_alloc *alloc, struct kb_buffer *buffer, size_t index,
	       size_t min_off, union kb_object *obj, size_t *off_out)
{
	size_t offsets_start = ALIGN(buffer->data_size, sizeof(u64));
	const struct kb_object_type *type;
	binder_size_t off;

	if (kb_alloc_copy_from_buffer(alloc, &off, buffer,
				      offsets_start + index * sizeof(off),
				      sizeof(off)))
		return NULL;
	if (off < min_off)
		return NULL;
	type = kb_object_at(alloc, buffer, off, obj);
	if (type)
		*off_out = off;
	return type;
}

/*
 * Count an object in its world, or refuse it there (the world's profile):
 * false if refused. Nothing is logged. Its item is its place in
 * kb_object_types[], which lists the types in counts.h's order.
 */
static bool kb_objects_count(struct kb_objects_ctx *ctx,
			     const struct kb_object_type *entry,
			     const union kb_object *obj)
{
	const struct kb_context *world = ctx->proc->ctx;
	int item = KB_CNT_OBJ + (entry - kb_object_types);
	u32 type = entry->type;

	if (unlikely(kb_profile_refuses_object(world->profile, type))) {
		kb_cnt_refused(world->counts, item);
		return false;
	}
	kb_cnt_used(world->counts, item);
	if (type == BINDER_TYPE_PTR)
		kb_cnt_object_flags(world->counts, type, obj->bbo.flags);
	else
		kb_cnt_object_flags(world->counts, type, obj->fbo.flags);
	return true;
}

/**
 * kb_objects_translate() - validate and translate every object of a payload
 * @ctx: the payload, already copied into the receiver's buffer
 *
 * On failure, @ctx->done objects were translated; the caller releases them
 * with kb_objects_release().
 *
 * Return: KB_OK, or BR_FAILED_REPLY with the reason.
 */
struct kb_status kb_objects_translate(struct kb_objects_ctx *ctx)
{
	struct kb_buffer *buffer = ctx->buffer;
	struct kb_alloc *alloc = &ctx->target->alloc;
	size_t count = buffer->offsets_size / sizeof(binder_size_t);
	const struct kb_object_type *type;
	size_t min_off = 0, off, i;
	union kb_object obj;
	struct kb_status st;

	ctx->done = 0;
	ctx->sg_off = ALIGN(buffer->data_size, sizeof(u64)) +
		      ALIGN(buffer->offsets_size, sizeof(u64));
	ctx->sg_end = ctx->sg_off + buffer->extra_buffers_size -
		      ctx->sg_reserved;
	ctx->last_fixup_obj = 0;
	ctx->last_fixup_min = 0;
	for (i = 0; i < count; i++) {
		type = kb_object_read(alloc, buffer, i, min_off, &obj, &off);
		if (!type)
			return kb_fail(BR_FAILED_REPLY, -EINVAL);
		if (!kb_objects_count(ctx, type, &obj))
			return kb_fail(BR_FAILED_REPLY, -EOPNOTSUPP);
		st = type->translate(ctx, &obj, off);
		if (!kb_ok(st))
			return st;
		ctx->done = i + 1;
		if (kb_alloc_copy_to_buffer(alloc, buffer, off, &obj,
					    type->size))
			return kb_fail(BR_FAILED_REPLY, -EINVAL);
		min_off = off + type->size;
	}
	return KB_OK;
}

/**
 * kb_objects_release() - drop what the translation of a payload took
 * @proc: the process owning the buffer (the receiver)
 * @buffer: the buffer
 * @count: how many objects were translated (SIZE_MAX: all)
 * @delivered: the receiver read the transaction (its fd-array descriptors
 *	are closed; otherwise none was installed)
 */
void kb_objects_release(struct kb_proc *proc, struct kb_buffer *buffer,
			size_t count, bool delivered)
{
	struct kb_objects_ctx ctx = {
		.target = proc,
		.buffer = buffer,
		.delivered = delivered,
	};
	size_t n = buffer->offsets_size / sizeof(binder_size_t);
	const struct kb_object_type *type;
	size_t min_off = 0, off;
	union kb_object obj;

	n = min(n, count);
	for (ctx.done = 0; ctx.done < n; ctx.done++) {
		type = kb_object_read(&proc->alloc, buffer, ctx.done, min_off,
				      &obj, &off);
		if (!type)
			return;
		type->release(&ctx, &obj);
		min_off = off + type->size;
	}
}

/**
 * kb_objects_install_fds() - give the reading thread its descriptors
 * @proc: the receiving process (the caller is its reading thread)
 * @buffer: the transaction's buffer
 * @fd_fixups: the files collected at translation; emptied on success
 *
 * Reserves every descriptor first (close-on-exec), writes the numbers into
 * the buffer, and installs the files only when all of that worked, so a
 * failure leaves the file table as it was. The reserved numbers are kept
 * in the fixups themselves: nothing is allocated here, however many
 * descriptors the transaction carries (up to a quarter of the area).
 *
 * Return: 0 or a negative errno.
 */
int kb_objects_install_fds(struct kb_proc *proc, struct kb_buffer *buffer,
			   struct list_head *fd_fixups)
{
	struct kb_fd_fixup *fixup, *tmp;
	int ret = 0;

	list_for_each_entry(fixup, fd_fixups, entry)
		fixup->fd = -1;
	list_for_each_entry(fixup, fd_fixups, entry) {
		u32 fd;

		ret = get_unused_fd_flags(O_CLOEXEC);
		if (ret < 0)
			break;
		fixup->fd = ret;
		fd = ret;
		ret = kb_alloc_copy_to_buffer(&proc->alloc, buffer,
					      fixup->offset, &fd, sizeof(fd));
		if (ret)
			break;
	}
	if (ret < 0) {
		list_for_each_entry(fixup, fd_fixups, entry) {
			if (fixup->fd < 0)
				break;
			put_unused_fd(fixup->fd);
			fixup->fd = -1;
		}
		return ret;
	}
	list_for_each_entry_safe(fixup, tmp, fd_fixups, entry) {
		fd_install(fixup->fd, fixup->file);
		list_del(&fixup->entry);
		kfree(fixup);
	}
	return 0;
}

/**
 * kb_objects_free_fd_fixups() - drop files that were never installed
 * @fd_fixups: the list (emptied)
 */
void kb_objects_free_fd_fixups(struct list_head *fd_fixups)
{
	struct kb_fd_fixup *fixup, *tmp;

	list_for_each_entry_safe(fixup, tmp, fd_fixups, entry) {
		fput(fixup->file);
		list_del(&fixup->entry);
		kfree(fixup);
	}
}
