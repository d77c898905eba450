// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbinder buffer allocator (placeholder: the real allocator follows).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mm.h>
#include "alloc.h"

int kb_alloc_shrinker_register(void)
{
	return 0;
}

void kb_alloc_shrinker_unregister(void)
{
}

void kb_alloc_init(struct kb_alloc *alloc)
{
	memset(alloc, 0, sizeof(*alloc));
	mutex_init(&alloc->lock);
	INIT_LIST_HEAD(&alloc->buffers);
}

int kb_alloc_mmap(struct kb_alloc *alloc, struct vm_area_struct *vma)
{
	return -ENODEV;
}

void kb_alloc_vma_close(struct kb_alloc *alloc)
{
}

struct kb_buffer *kb_alloc_new_buf(struct kb_alloc *alloc, size_t data_size,
				   size_t offsets_size,
				   size_t extra_buffers_size, bool is_async,
				   int pid)
{
	return ERR_PTR(-ESRCH);
}

struct kb_buffer *kb_alloc_prepare_to_free(struct kb_alloc *alloc,
					   unsigned long user_ptr)
{
	return NULL;
}

void kb_alloc_free_buf(struct kb_alloc *alloc, struct kb_buffer *buffer)
{
}

unsigned int kb_alloc_release(struct kb_alloc *alloc)
{
	return 0;
}

unsigned long kb_alloc_copy_user_to_buffer(struct kb_alloc *alloc,
					   struct kb_buffer *buffer,
					   size_t offset,
					   const void __user *from,
					   size_t bytes)
{
	return bytes;
}

int kb_alloc_copy_to_buffer(struct kb_alloc *alloc, struct kb_buffer *buffer,
			    size_t offset, const void *from, size_t bytes)
{
	return -EINVAL;
}

int kb_alloc_copy_from_buffer(struct kb_alloc *alloc, void *to,
			      struct kb_buffer *buffer, size_t offset,
			      size_t bytes)
{
	return -EINVAL;
}

size_t kb_alloc_free_async_space(struct kb_alloc *alloc)
{
	return 0;
}

int kb_alloc_selftest(void)
{
	return 0;
}
