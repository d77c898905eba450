// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderfs: every mount is a new instance, a binder world of its own per
 * device it holds. A mount starts with "binder-control", the default devices
 * (the module's devices= list, as upstream creates its binder_devices_param
 * list in each mount) and "features/"; BINDER_CTL_ADD on binder-control adds
 * a device, unlink() removes one (open files keep working until closed).
 *
 * Each device inode holds a reference on its world (struct kb_context), and
 * each process opened on it another, so a world lives until its device is
 * gone and its last process is torn down. Each superblock pins the module
 * (the filesystem type's owner), so the module cannot be unloaded while a
 * mount exists.
 */
#include "internal.h"

#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/fsnotify.h>
#include <linux/idr.h>
#include <linux/kdev_t.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>

/*
 * Our binderfs.h includes <linux/android/binder.h>, which here would be the
 * kernel's copy; internal.h already brought in ours (another guard name).
 */
#define _UAPI_LINUX_BINDER_H
#include "../include/uapi/linux/android/binderfs.h"
#include "binderfs.h"
#include "context.h"
#include "logs.h"
#include "profile.h"
#include "stats.h"

#define KB_FS_ROOT_INO 1
#define KB_FS_CONTROL_INO 2
/* Device inodes are numbered minor + KB_FS_INO_OFFSET. */
#define KB_FS_INO_OFFSET 3
#define KB_FS_MINORS BIT(MINORBITS)
/* Minors kept for mounts of the initial user namespace. */
#define KB_FS_MINORS_RESERVED 4

/**
 * struct kb_fs_opts - mount options
 * @max: most devices the mount may hold at once (binder-control not counted)
 * @stats_global: stats=global was given (only allowed to the initial user
 *	namespace's CAP_SYS_ADMIN; it cannot change on remount)
 * @profile: profile= (enum kb_profile): the profile of the devices made
 *	in the mount from now on, and the least strict one BINDER_CTL_ADD
 *	may ask for (a ceiling); a remount may make it stricter, and only
 *	the initial user namespace's CAP_SYS_ADMIN may relax it
 */
struct kb_fs_opts {
	u32 max;
	bool stats_global;
	u8 profile;
};

/**
 * struct kb_fs_info - one binderfs instance (a superblock's s_fs_info)
 * @opts: its options (@opts.max protected by kb_fs_lock)
 * @devices: device inodes alive, unlinked ones with open files included
 *	(protected by kb_fs_lock)
 * @root_uid: owner of the devices: root of the mount's user namespace
 * @root_gid: group of the devices, likewise
 * @control: the binder-control dentry, which cannot be removed or renamed
 * @logs: what binder_logs/ shows: this mount's worlds, or all of them with
 *	stats=global (constant)
 */
struct kb_fs_info {
	struct kb_fs_opts opts;
	u32 devices;
	kuid_t root_uid;
	kgid_t root_gid;
	struct dentry *control;
	struct kb_logs_scope logs;
};

static dev_t kb_fs_dev;
static DEFINE_IDA(kb_fs_minors);
/* Protects each instance's device count and maximum. */
static DEFINE_MUTEX(kb_fs_lock);
static const struct file_operations *kb_fs_dev_fops;
static const char *kb_fs_default_devices;
static bool kb_fs_registered;

/* What features/ lists: what this driver does, one file each, as mainline. */
static const char * const kb_fs_features[] = {
	"oneway_spam_detection",
	"extended_error",
	"freeze_notification",
	"transaction_report",
};

static struct kb_fs_info *kb_fs_info(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/*
 * Upstream refuses these names in its lookup, with EACCES: the same
 * answer here, before anything is allocated.
 */
static int kb_fs_check_name(const char *name, size_t len)
{
	if (!len || len > BINDERFS_MAX_NAME)
		return -EACCES;
	if (!strcmp(name, ".") || !strcmp(name, "..") || strchr(name, '/'))
		return -EACCES;
	return 0;
}

/* A minor for a new inode of @sb, and for a device a place under max=. */
static int kb_fs_reserve_minor(struct super_block *sb, bool device)
{
	struct kb_fs_info *info = kb_fs_info(sb);
	unsigned int last = KB_FS_MINORS - 1;
	int minor;

	if (sb->s_user_ns != &init_user_ns)
		last -= KB_FS_MINORS_RESERVED;
	mutex_lock(&kb_fs_lock);
	if (device && info->devices >= info->opts.max) {
		minor = -ENOSPC;
	} else {
		minor = ida_alloc_max(&kb_fs_minors, last, GFP_KERNEL);
		if (minor >= 0 && device)
			info->devices++;
	}
	mutex_unlock(&kb_fs_lock);
	return minor;
}

static void kb_fs_release_minor(struct super_block *sb, int minor,
				bool device)
{
	mutex_lock(&kb_fs_lock);
	if (device)
		kb_fs_info(sb)->devices--;
	ida_free(&kb_fs_minors, minor);
	mutex_unlock(&kb_fs_lock);
}

/*
 * A character-device inode with a reserved minor. From here on the inode
 * owns the minor and, for a device, @ctx: evicting it releases both.
 */
static struct inode *kb_fs_char_inode(struct super_block *sb, int minor,
				      unsigned long ino,
				      const struct file_operations *fops,
				      struct kb_context *ctx)
{
	struct kb_fs_info *info = kb_fs_info(sb);
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	simple_inode_init_ts(inode);
	init_special_inode(inode, S_IFCHR | 0600,
			   MKDEV(MAJOR(kb_fs_dev), minor));
	inode->i_fop = fops;
	inode->i_uid = info->root_uid;
	inode->i_gid = info->root_gid;
	inode->i_private = ctx;
	return inode;
}

/* Link @inode under @name in the root; -EEXIST if the name is taken. */
static int kb_fs_link_device(struct super_block *sb, const char *name,
			     struct inode *inode)
{
	struct dentry *root = sb->s_root;
	struct dentry *dentry;
	int ret = 0;

	inode_lock(d_inode(root));
	dentry = lookup_one_len(name, root, strlen(name));
	if (IS_ERR(dentry)) {
		ret = PTR_ERR(dentry);
	} else if (d_really_is_positive(dentry)) {
		dput(dentry);
		ret = -EEXIST;
	} else {
		/* The lookup's reference pins the dentry until unlink. */
		d_instantiate(dentry, inode);
		fsnotify_create(d_inode(root), dentry);
	}
	inode_unlock(d_inode(root));
	return ret;
}

/*
 * The profile a device is made with: the one @major names
 * (KBINDER_CTL_PROFILE()), else the mount's. Upstream ignores the input's
 * major, so callers may leave anything there: only the magic counts. The
 * mount's profile is a ceiling: a profile less strict than it (a lower
 * number, enum kb_profile) is refused with -EPERM, or with @clamp (the
 * devices= list of a new mount) replaced by the mount's.
 */
static int kb_fs_device_profile(struct super_block *sb, u32 major, bool clamp)
{
	u32 profile = major & ~KBINDER_CTL_PROFILE_MASK;
	u8 ceiling;

	mutex_lock(&kb_fs_lock);
	ceiling = kb_fs_info(sb)->opts.profile;
	mutex_unlock(&kb_fs_lock);
	if ((major & KBINDER_CTL_PROFILE_MASK) != KBINDER_CTL_PROFILE_MAGIC)
		return ceiling;
	if (profile >= KB_PROFILES)
		return -EINVAL;
	if (profile < ceiling)
		return clamp ? ceiling : -EPERM;
	return profile;
}

/*
 * Create device @req->name in @sb's mount, a world of its own, usable at
 * once, with the profile @req->major asks for (kb_fs_device_profile():
 * refused if less strict than the mount's when asked by BINDER_CTL_ADD,
 * @userp not NULL; raised to the mount's for its devices= list); report
 * its numbers in @req (and to @userp, if not NULL, before the device can
 * be seen).
 */
static int kb_fs_add_device(struct super_block *sb,
			    struct binderfs_device *req,
			    struct binderfs_device __user *userp)
{
	struct kb_context *ctx;
	struct inode *inode;
	size_t len;
	int minor, profile, ret;

	req->name[BINDERFS_MAX_NAME] = '\0';
	len = strlen(req->name);
	ret = kb_fs_check_name(req->name, len);
	if (ret)
		return ret;
	profile = kb_fs_device_profile(sb, req->major, !userp);
	if (profile < 0)
		return profile;
	minor = kb_fs_reserve_minor(sb, true);
	if (minor < 0)
		return minor;
	ctx = kb_context_create(req->name, profile);
	if (IS_ERR(ctx)) {
		kb_fs_release_minor(sb, minor, true);
		return PTR_ERR(ctx);
	}
	ctx->fs_id = kb_fs_info(sb)->logs.fs_id;
	inode = kb_fs_char_inode(sb, minor, minor + KB_FS_INO_OFFSET,
				 kb_fs_dev_fops, ctx);
	if (!inode) {
		kb_context_put(ctx);
		kb_fs_release_minor(sb, minor, true);
		return -ENOMEM;
	}
	req->major = MAJOR(kb_fs_dev);
	req->minor = minor;
	if (userp && copy_to_user(userp, req, sizeof(*req)))
		ret = -EFAULT;
	else
		ret = kb_fs_link_device(sb, req->name, inode);
	if (ret)
		iput(inode);
	return ret;
}

static long kb_fs_control_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct binderfs_device __user *ureq = (void __user *)arg;
	struct binderfs_device req;

	if (cmd != BINDER_CTL_ADD)
		return -EINVAL;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	return kb_fs_add_device(file_inode(file)->i_sb, &req, ureq);
}

static const struct file_operations kb_fs_control_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.unlocked_ioctl = kb_fs_control_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static void kb_fs_evict_inode(struct inode *inode)
{
	struct kb_context *ctx = inode->i_private;

	clear_inode(inode);
	if (!S_ISCHR(inode->i_mode))
		return;
	kb_fs_release_minor(inode->i_sb, MINOR(inode->i_rdev), ctx);
	if (ctx)
		kb_context_put(ctx);
}

static int kb_fs_show_options(struct seq_file *seq, struct dentry *root)
{
	struct kb_fs_info *info = kb_fs_info(root->d_sb);

	if (info->opts.max < KB_FS_MINORS)
		seq_printf(seq, ",max=%u", info->opts.max);
	if (info->opts.stats_global)
		seq_puts(seq, ",stats=global");
	if (info->opts.profile != KB_PROFILE_FULL)
		seq_printf(seq, ",profile=%s",
			   kb_profile_name(info->opts.profile));
	return 0;
}

static const struct super_operations kb_fs_super_ops = {
	.evict_inode = kb_fs_evict_inode,
	.show_options = kb_fs_show_options,
	.statfs = simple_statfs,
};

static bool kb_fs_is_control(const struct dentry *dentry)
{
	return dentry && kb_fs_info(dentry->d_sb)->control == dentry;
}

static int kb_fs_unlink(struct inode *dir, struct dentry *dentry)
{
	if (kb_fs_is_control(dentry))
		return -EPERM;
	return simple_unlink(dir, dentry);
}

static int kb_fs_rename(struct mnt_idmap *idmap,
			struct inode *old_dir, struct dentry *old_dentry,
			struct inode *new_dir, struct dentry *new_dentry,
			unsigned int flags)
{
	if (kb_fs_is_control(old_dentry) || kb_fs_is_control(new_dentry))
		return -EPERM;
	return simple_rename(&nop_mnt_idmap, old_dir, old_dentry, new_dir,
			     new_dentry, flags);
}

static const struct inode_operations kb_fs_root_iops = {
	.lookup = simple_lookup,
	.unlink = kb_fs_unlink,
	.rename = kb_fs_rename,
};

static int kb_fs_feature_show(struct seq_file *m, void *unused)
{
	seq_puts(m, "1\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kb_fs_feature);

/* A new file or directory @name in @parent (whose lock the caller holds). */
static int kb_fs_add_node(struct dentry *parent, const char *name,
			  umode_t mode, const struct file_operations *fops,
			  struct dentry **out)
{
	struct inode *dir = d_inode(parent);
	struct dentry *dentry;
	struct inode *inode;

	dentry = lookup_one_len(name, parent, strlen(name));
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	if (d_really_is_positive(dentry)) {
		dput(dentry);
		return -EEXIST;
	}
	inode = new_inode(dir->i_sb);
	if (!inode) {
		dput(dentry);
		return -ENOMEM;
	}
	inode->i_ino = iunique(dir->i_sb, KB_FS_MINORS + KB_FS_INO_OFFSET);
	inode->i_mode = mode;
	simple_inode_init_ts(inode);
	inode->i_fop = fops;
	if (S_ISDIR(mode)) {
		inode->i_op = &simple_dir_inode_operations;
		set_nlink(inode, 2);
		inc_nlink(dir);
	}
	/* The lookup's reference pins the dentry until the unmount. */
	d_instantiate(dentry, inode);
	if (out)
		*out = dentry;
	return 0;
}

static int kb_fs_make_features(struct super_block *sb)
{
	struct dentry *root = sb->s_root;
	struct dentry *dir;
	size_t i;
	int ret;

	inode_lock(d_inode(root));
	ret = kb_fs_add_node(root, "features", S_IFDIR | 0755,
			     &simple_dir_operations, &dir);
	inode_unlock(d_inode(root));
	if (ret)
		return ret;
	inode_lock(d_inode(dir));
	for (i = 0; i < ARRAY_SIZE(kb_fs_features) && !ret; i++)
		ret = kb_fs_add_node(dir, kb_fs_features[i], S_IFREG | 0444,
				     &kb_fs_feature_fops, NULL);
	inode_unlock(d_inode(dir));
	return ret;
}

/* binder_logs/ file names and what they print (see logs.c). */
static const struct {
	const char *name;
	const struct file_operations *fops;
} kb_fs_logs[] = {
	{ "state", &kb_logs_state_fops },
	{ "stats", &kb_logs_stats_fops },
	{ "transactions", &kb_logs_transactions_fops },
	{ "transaction_log", &kb_logs_transaction_log_fops },
	{ "failed_transaction_log", &kb_logs_failed_log_fops },
	{ "counts", &kb_logs_counts_fops },
	{ "profiles", &kb_logs_profiles_fops },
};

/*
 * binder_logs/ in every mount (upstream makes it only with stats=global,
 * and then shows every process of the machine): here each mount shows its
 * own worlds only, so a container may read its logs; stats=global widens
 * the view to every world. The files find the scope in i_private.
 */
static int kb_fs_make_logs(struct super_block *sb)
{
	struct kb_fs_info *info = kb_fs_info(sb);
	struct dentry *root = sb->s_root;
	struct dentry *dir, *file;
	size_t i;
	int ret;

	inode_lock(d_inode(root));
	ret = kb_fs_add_node(root, "binder_logs", S_IFDIR | 0755,
			     &simple_dir_operations, &dir);
	inode_unlock(d_inode(root));
	if (ret)
		return ret;
	inode_lock(d_inode(dir));
	for (i = 0; i < ARRAY_SIZE(kb_fs_logs) && !ret; i++) {
		ret = kb_fs_add_node(dir, kb_fs_logs[i].name, S_IFREG | 0444,
				     kb_fs_logs[i].fops, &file);
		if (!ret)
			d_inode(file)->i_private = &info->logs;
	}
	if (!ret)
		ret = kb_fs_add_node(dir, "proc", S_IFDIR | 0555,
				     &kb_logs_proc_dir_fops, &file);
	if (!ret) {
		d_inode(file)->i_op = &kb_logs_proc_dir_iops;
		d_inode(file)->i_private = &info->logs;
	}
	inode_unlock(d_inode(dir));
	return ret;
}

static int kb_fs_make_control(struct super_block *sb)
{
	struct kb_fs_info *info = kb_fs_info(sb);
	struct dentry *dentry;
	struct inode *inode;
	int minor;

	minor = kb_fs_reserve_minor(sb, false);
	if (minor < 0)
		return minor;
	inode = kb_fs_char_inode(sb, minor, KB_FS_CONTROL_INO,
				 &kb_fs_control_fops, NULL);
	if (!inode) {
		kb_fs_release_minor(sb, minor, false);
		return -ENOMEM;
	}
	dentry = d_alloc_name(sb->s_root, "binder-control");
	if (!dentry) {
		iput(inode);
		return -ENOMEM;
	}
	info->control = dentry;
	d_add(dentry, inode);
	return 0;
}

/*
 * The devices= list, created in every new mount: an entry's ":profile"
 * wins over the mount's profile= if as strict or stricter
 * (kb_fs_device_profile()).
 */
static int kb_fs_make_default_devices(struct super_block *sb)
{
	struct binderfs_device req;
	const char *name = kb_fs_default_devices;
	size_t len, name_len;
	int profile, ret;

	for (; *name; name += len + (name[len] == ',')) {
		len = strcspn(name, ",");
		if (!len)
			continue;
		memset(&req, 0, sizeof(req));
		profile = kb_profile_split(name, len, &name_len);
		if (profile < 0)
			return profile;
		if (memchr(name, ':', len))
			req.major = KBINDER_CTL_PROFILE(profile);
		memcpy(req.name, name, min_t(size_t, name_len, BINDERFS_MAX_NAME));
		ret = kb_fs_add_device(sb, &req, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

static int kb_fs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct kb_fs_opts *opts = fc->fs_private;
	struct kb_fs_info *info;
	struct inode *root;
	int ret;

	/*
	 * The root of a user namespace may mount binderfs; such a mount is
	 * SB_I_NODEV by default. Nothing can be created in it but devices
	 * made by binder-control, so allowing device nodes is safe, and
	 * needed.
	 */
	sb->s_iflags &= ~SB_I_NODEV;
	sb->s_iflags |= SB_I_NOEXEC;
	sb->s_magic = BINDERFS_SUPER_MAGIC;
	sb->s_op = &kb_fs_super_ops;
	sb->s_time_gran = 1;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;

	info = kzalloc(sizeof(*info), GFP_KERNEL_ACCOUNT);
	if (!info)
		return -ENOMEM;
	sb->s_fs_info = info;
	info->opts = *opts;
	/* Unique, never 0: the domain of the mount's worlds. */
	info->logs.fs_id = kb_new_world_id();
	if (!info->logs.fs_id)
		return -ENOSPC;
	info->logs.all = opts->stats_global;
	info->root_uid = make_kuid(sb->s_user_ns, 0);
	if (!uid_valid(info->root_uid))
		info->root_uid = GLOBAL_ROOT_UID;
	info->root_gid = make_kgid(sb->s_user_ns, 0);
	if (!gid_valid(info->root_gid))
		info->root_gid = GLOBAL_ROOT_GID;

	root = new_inode(sb);
	if (!root)
		return -ENOMEM;
	root->i_ino = KB_FS_ROOT_INO;
	root->i_mode = S_IFDIR | 0755;
	simple_inode_init_ts(root);
	root->i_op = &kb_fs_root_iops;
	root->i_fop = &simple_dir_operations;
	set_nlink(root, 2);
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;

	ret = kb_fs_make_control(sb);
	if (!ret)
		ret = kb_fs_make_default_devices(sb);
	if (!ret)
		ret = kb_fs_make_features(sb);
	if (!ret)
		ret = kb_fs_make_logs(sb);
	return ret;
}

enum kb_fs_param {
	KB_OPT_MAX,
	KB_OPT_STATS,
	KB_OPT_PROFILE,
};

static const struct constant_table kb_fs_stats_modes[] = {
	{ "global", 1 },
	{}
};

static const struct constant_table kb_fs_profiles[] = {
	{ "aidl", KB_PROFILE_AIDL },
	{ "full", KB_PROFILE_FULL },
	{}
};

static const struct fs_parameter_spec kb_fs_params[] = {
	fsparam_u32("max", KB_OPT_MAX),
	fsparam_enum("stats", KB_OPT_STATS, kb_fs_stats_modes),
	fsparam_enum("profile", KB_OPT_PROFILE, kb_fs_profiles),
	{}
};

static int kb_fs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct kb_fs_opts *opts = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	opt = fs_parse(fc, kb_fs_params, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case KB_OPT_MAX:
		if (result.uint_32 > KB_FS_MINORS)
			return invalfc(fc, "Bad value for '%s'", param->key);
		opts->max = result.uint_32;
		break;
	case KB_OPT_STATS:
		/* Global statistics are for the initial namespace's admin. */
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		opts->stats_global = true;
		break;
	case KB_OPT_PROFILE:
		opts->profile = result.uint_32;
		break;
	}
	return 0;
}

static int kb_fs_reconfigure(struct fs_context *fc)
{
	struct kb_fs_opts *opts = fc->fs_private;
	struct kb_fs_info *info = kb_fs_info(fc->root->d_sb);

	int ret = 0;

	if (opts->stats_global != info->opts.stats_global)
		return invalfc(fc, "stats mode cannot be changed on remount");
	mutex_lock(&kb_fs_lock);
	/*
	 * profile= is a ceiling for the mount's devices: relaxing it is for
	 * the initial namespace's admin only, as stats=global is.
	 */
	if (opts->profile < info->opts.profile && !capable(CAP_SYS_ADMIN)) {
		ret = -EPERM;
	} else {
		info->opts.max = opts->max;
		info->opts.profile = opts->profile;
	}
	mutex_unlock(&kb_fs_lock);
	return ret;
}

static int kb_fs_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, kb_fs_fill_super);
}

static void kb_fs_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
}

static const struct fs_context_operations kb_fs_context_ops = {
	.free = kb_fs_free_fc,
	.parse_param = kb_fs_parse_param,
	.get_tree = kb_fs_get_tree,
	.reconfigure = kb_fs_reconfigure,
};

static int kb_fs_init_fs_context(struct fs_context *fc)
{
	struct kb_fs_opts *opts;

	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	if (!opts)
		return -ENOMEM;
	opts->max = KB_FS_MINORS;
	/*
	 * A remount starts from the options in force, so one that does not
	 * name an option keeps it (upstream resets max= and refuses a
	 * stats=global mount's remount that does not repeat it).
	 */
	if (fc->purpose == FS_CONTEXT_FOR_RECONFIGURE) {
		mutex_lock(&kb_fs_lock);
		*opts = kb_fs_info(fc->root->d_sb)->opts;
		mutex_unlock(&kb_fs_lock);
	}
	fc->fs_private = opts;
	fc->ops = &kb_fs_context_ops;
	return 0;
}

static void kb_fs_kill_sb(struct super_block *sb)
{
	struct kb_fs_info *info = kb_fs_info(sb);

	/* Evicting the inodes needs @info. */
	kill_litter_super(sb);
	kfree(info);
}

static struct file_system_type kb_fs_type = {
	.owner = THIS_MODULE,
	.init_fs_context = kb_fs_init_fs_context,
	.parameters = kb_fs_params,
	.kill_sb = kb_fs_kill_sb,
	.fs_flags = FS_USERNS_MOUNT,
};

/**
 * kb_binderfs_init() - register the filesystem type
 * @type_name: its name ("" for no binderfs)
 * @default_devices: comma-separated names of the devices every new mount
 *	starts with (kept, not copied)
 * @dev_fops: the file operations of a binderfs device (the file layer's)
 *
 * On failure nothing is left registered.
 *
 * Return: 0 or a negative errno.
 */
int kb_binderfs_init(const char *type_name, const char *default_devices,
		     const struct file_operations *dev_fops)
{
	const char *name = default_devices;
	size_t len, name_len;
	int ret;

	if (!*type_name)
		return 0;
	for (; *name; name += len + (name[len] == ',')) {
		len = strcspn(name, ",");
		if (kb_profile_split(name, len, &name_len) < 0)
			return -EINVAL;
		if (name_len > BINDERFS_MAX_NAME) {
			pr_err("device name too long for binderfs: %.*s\n",
			       (int)name_len, name);
			return -EINVAL;
		}
	}
	kb_fs_default_devices = default_devices;
	kb_fs_dev_fops = dev_fops;
	kb_fs_type.name = type_name;
	ret = alloc_chrdev_region(&kb_fs_dev, 0, KB_FS_MINORS, type_name);
	if (ret) {
		pr_err("cannot allocate binderfs device numbers: %d\n", ret);
		return ret;
	}
	ret = register_filesystem(&kb_fs_type);
	if (ret) {
		if (ret == -EBUSY)
			pr_err("filesystem type \"%s\" is already registered; load with binderfs_type=<another name>\n",
			       type_name);
		else
			pr_err("cannot register filesystem type \"%s\": %d\n",
			       type_name, ret);
		unregister_chrdev_region(kb_fs_dev, KB_FS_MINORS);
		return ret;
	}
	kb_fs_registered = true;
	return 0;
}

/**
 * kb_binderfs_exit() - unregister the filesystem type
 *
 * Called at module exit: every superblock pinned the module, so none is
 * left, and every minor was released with its inode.
 */
void kb_binderfs_exit(void)
{
	if (!kb_fs_registered)
		return;
	unregister_filesystem(&kb_fs_type);
	unregister_chrdev_region(kb_fs_dev, KB_FS_MINORS);
	ida_destroy(&kb_fs_minors);
	kb_fs_registered = false;
}
