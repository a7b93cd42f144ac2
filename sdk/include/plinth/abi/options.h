/*
 * plinth/abi/options.h - the plugin C ABI (plinth/plugin.h includes every part):
 * config options.
 */
#ifndef PLINTH_ABI_OPTIONS_H
#define PLINTH_ABI_OPTIONS_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Config options ------------------------------------------------------------------------ */

#define PLINTH_OPT_STRING 1
#define PLINTH_OPT_INT 2    /* int64 within [min, max] */
#define PLINTH_OPT_BOOL 3   /* yes/no, true/false, 1/0 */
#define PLINTH_OPT_MEMORY 4 /* int64 bytes; accepts 1k, 5mb, 1gb suffixes */
#define PLINTH_OPT_ENUM 5   /* one of the '|'-separated words in enum_values */

#define PLINTH_OPT_MUTABLE 0x1u     /* CONFIG SET may change it at run time */
#define PLINTH_OPT_GLOBAL_NAME 0x2u /* registered under its bare (Redis) name, not plugin.name */
#define PLINTH_OPT_SECRET 0x4u      /* value hidden in --help */
/* since 1.2: names a file, a folder or anything a client could turn against the host (Redis's
 * protected configs): CONFIG SET refuses it ("can't set protected config") unless the host's
 * enable-protected-configs allows the client ("yes", or "local" for a loopback or unix-socket
 * client); the config file and the command line always may. An older host ignores the bit, so
 * a plugin that needs the refusal checks the host table's abi_minor >= 2. Bits no minor defines
 * are ignored (a plugin setting them still loads). */
#define PLINTH_OPT_PROTECTED 0x8u

/* Apply callback: the option got a new, validated value: its normalised text (value, len) and
 * its number (INT and MEMORY: the value, BOOL: 0/1, ENUM: the word's index, STRING: 0). Returns
 * PLINTH_OK, or PLINTH_ERR after writing a reason into err (the change is then refused).
 * OWNERSHIP: name and value borrowed for the call. THREAD: main. */
typedef int32_t (*plinth_option_apply_fn)(void* ctx, const char* name, const char* value,
                                          size_t len, int64_t number, char* err, size_t errlen);

typedef struct plinth_option_spec {
  uint32_t struct_size;         /* since 1.0 */
  const char* name;             /* since 1.0: lower-case, '-' separated */
  uint32_t type;                /* since 1.0: PLINTH_OPT_* */
  uint32_t flags;               /* since 1.0: PLINTH_OPT_* flags */
  const char* default_value;    /* since 1.0: text form */
  int64_t min;                  /* since 1.0: INT and MEMORY */
  int64_t max;                  /* since 1.0 */
  const char* enum_values;      /* since 1.0: ENUM only, "a|b|c" */
  const char* description;      /* since 1.0: one line for --help */
  plinth_option_apply_fn apply; /* since 1.0: may be NULL */
  void* ctx;                    /* since 1.0 */
} plinth_option_spec_t;

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_OPTIONS_H */
