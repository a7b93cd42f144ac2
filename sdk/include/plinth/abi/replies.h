/*
 * plinth/abi/replies.h - the plugin C ABI (plinth/plugin.h includes every part):
 * reply items handed to protocol encoders and call_command listeners.
 */
#ifndef PLINTH_ABI_REPLIES_H
#define PLINTH_ABI_REPLIES_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Replies ------------------------------------------------------------------------------- */

/* Reply item types handed to a protocol encoder. */
#define PLINTH_REPLY_SIMPLE 1     /* data/len: status text without CRLF */
#define PLINTH_REPLY_ERROR 2      /* data/len: "CODE message" without the leading '-' */
#define PLINTH_REPLY_INTEGER 3    /* integer */
#define PLINTH_REPLY_BULK 4       /* data/len */
#define PLINTH_REPLY_NULL 5       /* null bulk in RESP2, '_' in RESP3 */
#define PLINTH_REPLY_NULL_ARRAY 6 /* null array in RESP2, '_' in RESP3 */
#define PLINTH_REPLY_ARRAY 7      /* integer: element count; the elements follow */
#define PLINTH_REPLY_MAP 8        /* integer: pair count; 2*count items follow */
#define PLINTH_REPLY_SET 9        /* integer: element count */
#define PLINTH_REPLY_DOUBLE 10    /* dbl */
#define PLINTH_REPLY_BOOL 11      /* integer 0 or 1 */
#define PLINTH_REPLY_VERBATIM 12  /* data/len, ext: three-letter format such as "txt" */
#define PLINTH_REPLY_BIGNUM 13    /* data/len: decimal digits */
#define PLINTH_REPLY_PUSH 14      /* integer: element count */

typedef struct plinth_reply_item {
  uint32_t struct_size; /* since 1.0 */
  uint32_t type;        /* since 1.0: PLINTH_REPLY_* */
  int64_t integer;      /* since 1.0 */
  double dbl;           /* since 1.0 */
  const char* data;     /* since 1.0 */
  size_t len;           /* since 1.0 */
  const char* ext;      /* since 1.0: verbatim format, 3 chars */
} plinth_reply_item_t;

/* Release callback of a reply that references memory the host does not own. Called exactly once,
 * after the bytes were written or the connection dropped. OWNERSHIP: arg is the plugin's; the
 * callback frees or releases what the reply referenced. THREAD: any (often an IO thread). */
typedef void (*plinth_release_fn)(void* arg);

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_REPLIES_H */
