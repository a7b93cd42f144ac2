/*
 * plinth/abi/stream.h - the plugin C ABI (plinth/plugin.h includes every part):
 * propagation stream consumers.
 */
#ifndef PLINTH_ABI_STREAM_H
#define PLINTH_ABI_STREAM_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Propagation stream -------------------------------------------------------------------- */

/* The propagation stream is one ordered log of the server's effects: every write command (or
 * what it emitted through replicate), expiries and evictions as DEL, relative expiry rewritten
 * as absolute. Encoded once, as RESP multibulk commands with a SELECT wherever the database
 * changes, it has a byte offset that only grows (INFO's master_repl_offset). An execution unit,
 * one command or a whole transaction (wrapped in MULTI ... EXEC), is never split between two
 * batches, so a consumer that applies batches whole applies units atomically. */
typedef struct plinth_stream_batch {
  uint32_t struct_size; /* since 1.0 */
  uint32_t reserved0;   /* since 1.0 */
  uint64_t offset;      /* since 1.0: the stream offset of data[0]; offset + len follows it */
  const char* data;     /* since 1.0: whole execution units, RESP encoded */
  size_t len;           /* since 1.0 */
} plinth_stream_batch_t;

typedef struct plinth_stream_consumer_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: the encoded effects appended since the last batch, each batch following the one
   * before without a gap. Delivered before the host writes any reply to the commands that
   * produced them, and before the loop sleeps: a consumer that makes a batch durable here
   * (appendfsync always) makes every acknowledged write durable. May be NULL. OWNERSHIP: the
   * batch and its data are borrowed for the call (the buffer is shared by every consumer).
   * THREAD: main. */
  void (*on_batch)(void* ctx, const plinth_stream_batch_t* batch);
} plinth_stream_consumer_spec_t;

/* flags of replicate() */
#define PLINTH_REPLICATE_NO_VALIDATE 0x1u /* skip the command and arity checks (trusted path) */

/* server_refuse classes */
#define PLINTH_REFUSE_WRITES 1u /* commands flagged PLINTH_CMD_WRITE (read-only replica) */
#define PLINTH_REFUSE_STALE 2u  /* commands not flagged PLINTH_CMD_STALE (a stale replica) */

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_STREAM_H */
