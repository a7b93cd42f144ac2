/*
 * plinth/abi/acl.h - the plugin C ABI (plinth/plugin.h includes every part):
 * the access-control provider.
 */
#ifndef PLINTH_ABI_ACL_H
#define PLINTH_ABI_ACL_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Access control (ACL) ------------------------------------------------------------------ */

/* client_authenticate and plinth_acl_provider_t.authenticate: AUTH with a password only, while
 * the default user needs none */
#define PLINTH_AUTH_NOPASS 1

/* Where a checked command runs (plinth_acl_provider_t.check) */
#define PLINTH_ACL_CONTEXT_TOPLEVEL 0u /* sent by the client */
#define PLINTH_ACL_CONTEXT_MULTI 1u    /* run by EXEC */
#define PLINTH_ACL_CONTEXT_SCRIPT 2u   /* called by a script or function (call_command) */

/* The plugin that owns users and their permissions (acl_provider_register). Without one, the
 * host's requirepass option is the one password and every client may run every command. */
typedef struct plinth_acl_provider {
  uint32_t struct_size; /* since 1.0 */
  void* ctx;            /* since 1.0: passed to each callback */
  /* since 1.0: AUTH and HELLO's AUTH: checks the pair (user NULL: AUTH with a password only,
   * for the default user). On success writes the user's id and whether its commands must be
   * checked (0: it may run everything), and returns PLINTH_OK; PLINTH_ERR refuses (a wrong
   * pair, a disabled user); PLINTH_AUTH_NOPASS: user NULL and the default user needs none.
   * OWNERSHIP: user and pass borrowed for the call. THREAD: main. */
  int32_t (*authenticate)(void* ctx, plinth_call_t* call, const char* user, size_t ulen,
                          const char* pass, size_t plen, uint64_t* user_id, int32_t* restricted);
  /* since 1.0: whether user_id may run the call (call_argc, call_arg, command_keys; its command
   * id is command_id: the subcommand's for a container with subcommands). Returns PLINTH_OK,
   * or PLINTH_ERR after writing the error reply ("NOPERM ...", NUL-terminated) into err.
   * context: PLINTH_ACL_CONTEXT_*. Called only for users authenticate or acl_user_update said
   * are restricted. OWNERSHIP: err is the host's, errcap bytes. THREAD: main. */
  int32_t (*check)(void* ctx, plinth_call_t* call, uint64_t user_id, int32_t command_id,
                   uint32_t context, char* err, size_t errcap);
  /* since 1.0: whether user_id may touch key (PLINTH_KEY_* flags: a key read and/or written, or
   * a channel). PLINTH_OK or PLINTH_ERR. OWNERSHIP: key borrowed. THREAD: main. */
  int32_t (*check_key)(void* ctx, uint64_t user_id, const char* key, size_t len, uint32_t flags);
  /* since 1.0: user_id's name (CLIENT LIST's user=), NUL-terminated, or NULL when no user has
   * that id. OWNERSHIP: the provider's, valid until the user changes. THREAD: main. */
  const char* (*user_name)(void* ctx, uint64_t user_id);
  /* since 1.0: the host's requirepass option was set to pass (len 0: cleared): the default
   * user's password becomes it, as Redis does. May be NULL. OWNERSHIP: pass borrowed.
   * THREAD: main. */
  void (*requirepass)(void* ctx, const char* pass, size_t len);
  /* since 1.0: whether a user is named name (1) or not (0). OWNERSHIP: name borrowed.
   * THREAD: main. */
  int32_t (*user_exists)(void* ctx, const char* name, size_t len);
} plinth_acl_provider_t;

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_ACL_H */
