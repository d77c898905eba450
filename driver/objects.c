// SPDX-License-Identifier: GPL-2.0-only
/*
 * Objects embedded in a transaction payload.
 *
 * The offsets array lists where objects start; each must be 4-byte
 * aligned, inside the data, after the end of the previous object, and of a
 * known type. One table entry per type says how big the object is, how to
 * translate it for the receiver and how to release what the translation
 * took when the buffer is freed. Types that are not supported yet fail the
 * transaction with BR_FAILED_REPLY.
 */
#include "internal.h"

#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/security.h>

#include "alloc.h"
#include "node.h"
#include "objects.h"
#include "proc.h"
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
 * @release: drop what the translation took, in the buffer's owner @proc
 */
struct kb_object_type {
	u32 type;
	size_t size;
	struct kb_status (*translate)(struct kb_objects_ctx *ctx,
				      union kb_object *obj, size_t off);
	void (*release)(struct kb_proc *proc, union kb_object *obj);
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
	to_owner = node->inner.owner == ctx->target;
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

static void kb_release_binder(struct kb_proc *proc, union kb_object *obj)
{
	struct kb_node *node = kb_node_lookup(proc, obj->fbo.binder);

	if (!node)
		return;
	kb_node_dec(node, obj->hdr.type == BINDER_TYPE_BINDER, false);
	kb_node_unpin(node);
}

static void kb_release_handle(struct kb_proc *proc, union kb_object *obj)
{
	kb_ref_update(proc, obj->fbo.handle, false,
		      obj->hdr.type == BINDER_TYPE_HANDLE);
}

/*
 * A file descriptor: take a reference on the sender's file now; the
 * receiver gets its own descriptor when it reads the transaction.
 */
static struct kb_status kb_translate_fd(struct kb_objects_ctx *ctx,
					union kb_object *obj, size_t off)
{
	struct kb_fd_fixup *fixup;
	struct file *file;

	if (!ctx->accept_fds)
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	fixup = kzalloc(sizeof(*fixup), GFP_KERNEL);
	if (!fixup)
		return kb_fail(BR_FAILED_REPLY, -ENOMEM);
	file = fget(obj->fd.fd);
	if (!file) {
		kfree(fixup);
		return kb_fail(BR_FAILED_REPLY, -EBADF);
	}
	if (security_binder_transfer_file(ctx->proc->cred, ctx->target->cred,
					  file)) {
		fput(file);
		kfree(fixup);
		return kb_fail(BR_FAILED_REPLY, -EPERM);
	}
	fixup->file = file;
	fixup->offset = off + offsetof(struct binder_fd_object, fd);
	list_add_tail(&fixup->entry, ctx->fd_fixups);
	obj->fd.pad_binder = 0;
	return KB_OK;
}

/* Scatter-gather buffers and fd arrays: not supported yet. */
static struct kb_status kb_translate_unsupported(struct kb_objects_ctx *ctx,
						 union kb_object *obj,
						 size_t off)
{
	return kb_fail(BR_FAILED_REPLY, -EOPNOTSUPP);
}

static void kb_release_nothing(struct kb_proc *proc, union kb_object *obj)
{
}

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
	  kb_translate_unsupported, kb_release_nothing },
	{ BINDER_TYPE_PTR, sizeof(struct binder_buffer_object),
	  kb_translate_unsupported, kb_release_nothing },
};

static const struct kb_object_type *kb_object_type(u32 type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kb_object_types); i++)
		if (kb_object_types[i].type == type)
			return &kb_object_types[i];
	return NULL;
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
	if (buffer->data_size < sizeof(obj->hdr) || off < min_off ||
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
	*off_out = off;
	return type;
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
	for (i = 0; i < count; i++) {
		type = kb_object_read(alloc, buffer, i, min_off, &obj, &off);
		if (!type)
			return kb_fail(BR_FAILED_REPLY, -EINVAL);
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
 */
void kb_objects_release(struct kb_proc *proc, struct kb_buffer *buffer,
			size_t count)
{
	size_t n = buffer->offsets_size / sizeof(binder_size_t);
	const struct kb_object_type *type;
	size_t min_off = 0, off, i;
	union kb_object obj;

	n = min(n, count);
	for (i = 0; i < n; i++) {
		type = kb_object_read(&proc->alloc, buffer, i, min_off, &obj,
				      &off);
		if (!type)
			return;
		type->release(proc, &obj);
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
 * failure leaves the file table as it was.
 *
 * Return: 0 or a negative errno.
 */
int kb_objects_install_fds(struct kb_proc *proc, struct kb_buffer *buffer,
			   struct list_head *fd_fixups)
{
	struct kb_fd_fixup *fixup, *tmp;
	size_t n = 0, i;
	int *fds, ret = 0;

	list_for_each_entry(fixup, fd_fixups, entry)
		n++;
	if (!n)
		return 0;
	fds = kcalloc(n, sizeof(*fds), GFP_KERNEL);
	if (!fds)
		return -ENOMEM;
	i = 0;
	list_for_each_entry(fixup, fd_fixups, entry) {
		u32 fd;

		ret = get_unused_fd_flags(O_CLOEXEC);
		if (ret < 0)
			break;
		fds[i++] = ret;
		fd = ret;
		ret = kb_alloc_copy_to_buffer(&proc->alloc, buffer,
					      fixup->offset, &fd, sizeof(fd));
		if (ret)
			break;
	}
	if (ret < 0) {
		while (i)
			put_unused_fd(fds[--i]);
		kfree(fds);
		return ret;
	}
	i = 0;
	list_for_each_entry_safe(fixup, tmp, fd_fixups, entry) {
		fd_install(fds[i++], fixup->file);
		list_del(&fixup->entry);
		kfree(fixup);
	}
	kfree(fds);
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
