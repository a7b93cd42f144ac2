/*
 * plinth/abi/protocol.h - the plugin C ABI (plinth/plugin.h includes every part):
 * protocol plugins: parsing requests, encoding replies.
 */
#ifndef PLINTH_ABI_PROTOCOL_H
#define PLINTH_ABI_PROTOCOL_H

#include "plinth/abi/replies.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Protocols ----------------------------------------------------------------------------- */

/* An output buffer a protocol encoder appends to, given by the host. Write at data + len; call
 * grow first when cap - len is too small. */
typedef struct plinth_outbuf {
  uint32_t struct_size; /* since 1.0 */
  char* data;           /* since 1.0 */
  size_t len;           /* since 1.0 */
  size_t cap;           /* since 1.0 */
  /* since 1.0: makes room for at least min_free more bytes (data and cap may change; the bytes
   * written so far stay). Returns PLINTH_OK or PLINTH_ERR (out of memory, or a buffer that
   * cannot grow). OWNERSHIP: the buffer stays the host's. THREAD: the encoder's. */
  int32_t (*grow)(struct plinth_outbuf* out, size_t min_free);
  void* host_private; /* since 1.0: the host's; leave it alone */
} plinth_outbuf_t;

/* One parsed request. argv[i] points into the bytes given to parse or into parser storage; it
 * stays valid until the next call of parse on the same session, or its session_destroy. */
typedef struct plinth_request {
  uint32_t struct_size;    /* since 1.0 */
  int32_t argc;            /* since 1.0 */
  const char* const* argv; /* since 1.0 */
  const size_t* argvlen;   /* since 1.0 */
} plinth_request_t;

/* parse results */
#define PLINTH_PARSE_OK 0        /* *req filled; *consumed bytes form this request */
#define PLINTH_PARSE_NEED_MORE 1 /* call again with these bytes plus more (after *consumed) */
#define PLINTH_PARSE_ERROR 2     /* err holds the protocol error; the connection closes */
#define PLINTH_PARSE_EMPTY 3     /* *consumed bytes held no command (blank line, *0) */

/* parse flags */
#define PLINTH_PARSE_UNAUTHENTICATED 0x1u /* client not authenticated: apply the tight limits */

typedef struct plinth_protocol_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: creates per-connection parser state. OWNERSHIP: the session is the protocol's;
   * the host keeps it until session_destroy. THREAD: any; one connection at a time. */
  void* (*session_create)(void* ctx);
  /* since 1.0: frees it. OWNERSHIP: frees session. THREAD: any. */
  void (*session_destroy)(void* ctx, void* session);
  /* since 1.0: parses one request from buf[0, len). The host passes the unconsumed bytes and,
   * after NEED_MORE, the same bytes again plus what arrived. *need_hint, when non-zero, is the
   * total length the request needs (so the host can size its buffer and wait). OWNERSHIP: buf
   * and err (errlen bytes) are the host's, borrowed for the call; req's arrays point into buf
   * or the session (see plinth_request_t). THREAD: any; one thread per session at a time. */
  int32_t (*parse)(void* ctx, void* session, const char* buf, size_t len, uint32_t flags,
                   size_t* consumed, size_t* need_hint, plinth_request_t* req, char* err,
                   size_t errlen);
  /* since 1.0: appends one reply item in protocol version proto (2 or 3); item->type is never
   * newer than the plugin's descriptor's abi_minor. Returns PLINTH_OK, or PLINTH_ERR (out could
   * not grow, an item it cannot encode): the host then drops what it wrote of this reply and
   * every reply after it, and closes the connection once the replies before it are written.
   * OWNERSHIP: item borrowed for the call; out is the host's (make room with out->grow only).
   * THREAD: any. */
  int32_t (*encode)(void* ctx, uint32_t proto, const plinth_reply_item_t* item,
                    plinth_outbuf_t* out);
  /* since 1.0: appends the framing written before a bulk of len bytes sent by reference (into
   * prefix) and after it (into suffix). OWNERSHIP: prefix and suffix are the host's; suffix is a
   * fixed buffer of at least 16 bytes whose grow refuses. Returns PLINTH_OK or PLINTH_ERR (the
   * host then closes the connection, see encode). THREAD: any. */
  int32_t (*frame_bulk)(void* ctx, uint32_t proto, size_t len, plinth_outbuf_t* prefix,
                        plinth_outbuf_t* suffix);
} plinth_protocol_spec_t;

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_PROTOCOL_H */
