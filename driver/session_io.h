/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What session ops use to reach their data and key: session input and
 * output, the readers of the session data attributes (whose layout is the
 * caller's ABI), and a keyed session's secret.
 */
#ifndef NCR_SESSION_IO_H
#define NCR_SESSION_IO_H

#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/types.h>
#include "lib/nlattr.h"

struct ncr_session;

/* Session data is streamed through bounce buffers of at most this size. */
#define NCR_CHUNK_SIZE		(16 * 1024)

/*
 * Session input: user memory (NCR_ATTR_*_INPUT_DATA, never copied whole:
 * read it in chunks) or kernel memory (NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA,
 * the key's secret, sem held for read by the core).
 */
struct ncr_data_in {
	const u8 __user *user;
	const u8 *kernel;
	size_t size;
};

/* Copy [off, off + len) of in to dst; -EFAULT, -EINVAL if out of range. */
int ncr_data_in_read(const struct ncr_data_in *in, size_t off, void *dst,
		     size_t len);

/*
 * Between chunks of a long input: let others run, and stop (-EINTR) when
 * the caller is being killed rather than finishing gigabytes first.
 */
static inline int ncr_chunk_yield(void)
{
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/* Session output buffer (NCR_ATTR_*_OUTPUT_BUFFER). */
struct ncr_data_out {
	u8 __user *buf;
	size_t size;			/* capacity */
	size_t written;			/* set by the op; reported to user */
};

/* Write src at off: -ERANGE past size, -EFAULT; updates written. */
int ncr_data_out_write(struct ncr_data_out *out, size_t off, const void *src,
		       size_t len);

/*
 * Session data attributes have the caller's layout; these read them
 * (in_compat_syscall() selects the layout).  -EINVAL when malformed.
 */
int ncr_attr_input_data(const struct nlattr *nla, struct ncr_data_in *in);
int ncr_attr_output_buffer(const struct nlattr *nla,
			   struct ncr_data_out *out,
			   void __user **result_size_ptr);
/* Store a result size in the caller's size_t (u32 for 32-bit callers). */
int ncr_put_result_size(void __user *ptr, size_t size);

/*
 * For ops->init of keyed symmetric sessions: takes ses->key's sem for read
 * and returns its secret; -EINVAL without a secret key, -EPERM for a
 * NCR_KEY_FLAG_WRAPPING key.  ncr_session_key_unlock() after setkey.
 */
int ncr_session_key_lock_secret(struct ncr_session *ses, const u8 **secret,
				unsigned int *len);
void ncr_session_key_unlock(struct ncr_session *ses);

#endif /* NCR_SESSION_IO_H */
