/*
 * plinth/abi/reply_path.h - the plugin C ABI (plinth/plugin.h includes every part):
 * the reply path: sending large values by reference.
 */
#ifndef PLINTH_ABI_REPLY_PATH_H
#define PLINTH_ABI_REPLY_PATH_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Reply path ---------------------------------------------------------------------------- */

/* What the host knows of one bulk reply of a stored string value when it asks the reply path
 * how to send it. Host-given: read only the fields your struct_size covers. */
typedef struct plinth_reply_value_info {
  uint32_t struct_size;      /* since 1.0 */
  uint32_t transport_flags;  /* since 1.0: the client's transport's PLINTH_TRANSPORT_* flags */
  size_t len;                /* since 1.0: the value's length in bytes */
  const char* transport;     /* since 1.0: the client's transport's name ("tcp", ...) */
  int32_t io_threads_active; /* since 1.0: IO threads writing replies now (0: main thread) */
} plinth_reply_value_info_t;

typedef struct plinth_reply_path_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: returns 1 when the bulk reply info describes should be queued by reference
   * (the value retained and written straight from its bytes, then released by the thread that
   * wrote it) instead of copied into the output buffer. Called once per bulk reply of a stored
   * string value; keep it cheap. OWNERSHIP: info is borrowed for the call. THREAD: main. */
  int32_t (*by_reference)(void* ctx, const plinth_reply_value_info_t* info);
} plinth_reply_path_spec_t;

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_REPLY_PATH_H */
