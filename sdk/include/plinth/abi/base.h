/*
 * plinth/abi/base.h - the plugin C ABI (plinth/plugin.h includes every part):
 * versions, status codes, opaque handles and the descriptor a plugin exports.
 */
#ifndef PLINTH_ABI_BASE_H
#define PLINTH_ABI_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLINTH_ABI_MAJOR 1
#define PLINTH_ABI_MINOR 2 /* this SDK's minor: the newest fields and functions it declares */

/* The oldest host minor the plugin needs, which its descriptor's abi_minor states. Define it
 * before including plinth/plugin.h to load into hosts older than this SDK; then test each
 * function newer than it with PLINTH_HAS before calling it, and each field newer than it of a
 * host-given struct with PLINTH_HAS_FIELD before reading it. */
#ifndef PLINTH_TARGET_MINOR
#define PLINTH_TARGET_MINOR PLINTH_ABI_MINOR
#elif PLINTH_TARGET_MINOR > PLINTH_ABI_MINOR
#error "PLINTH_TARGET_MINOR is newer than this SDK's PLINTH_ABI_MINOR"
#endif

/* PLINTH_HAS_FIELD(type, p, field): non-zero when the struct *p of the given type, given by
 * the other side, is new enough to have field (its struct_size covers it). */
#define PLINTH_HAS_FIELD(type, p, field) \
  ((p) != NULL && (p)->struct_size >= offsetof(type, field) + sizeof((p)->field))

/* Status codes returned by host functions and plugin hooks. */
#define PLINTH_OK 0
#define PLINTH_ERR (-1)

#if defined(__GNUC__)
#define PLINTH_EXPORT __attribute__((visibility("default")))
#else
#define PLINTH_EXPORT
#endif

/* ---- Opaque handles ------------------------------------------------------------------------ */

typedef struct plinth_plugin plinth_plugin_t; /* the loaded plugin itself, given to init */
typedef struct plinth_call plinth_call_t;     /* one execution of one command */
typedef struct plinth_value plinth_value_t;   /* a refcounted value stored under a key */
typedef struct plinth_timer plinth_timer_t;   /* a timer on the main loop */
typedef struct plinth_info plinth_info_t;     /* an INFO section being filled */
typedef struct plinth_option plinth_option_t; /* a registered config option */
typedef struct plinth_conn plinth_conn_t;     /* the host's side of a transport connection */
typedef struct plinth_host_api plinth_host_api_t;
typedef struct plinth_client plinth_client_t; /* an internal client a plugin runs commands as */

/* ---- The descriptor a plugin exports ------------------------------------------------------- */

/* Descriptor flags. */
#define PLINTH_PLUGIN_OPTIONAL_HINT 0x1u /* reserved: loading it is optional by default */

typedef struct plinth_plugin_descriptor {
  uint32_t struct_size;    /* since 1.0: sizeof(plinth_plugin_descriptor_t) of the plugin's SDK */
  uint32_t abi_major;      /* since 1.0: PLINTH_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor;      /* since 1.0: PLINTH_ABI_MINOR the plugin was built with */
  uint32_t flags;          /* since 1.0: PLINTH_PLUGIN_* */
  const char* name;        /* since 1.0: [a-z0-9_-]{1,32}, unique among loaded plugins */
  const char* version;     /* since 1.0: the plugin's own version, free text */
  const char* description; /* since 1.0: one line for --help and PLUGIN LIST */
  /* since 1.0: registers what the plugin provides. Returns PLINTH_OK, or PLINTH_ERR after
   * writing a reason with api->log_write; the host then rolls back every registration.
   * OWNERSHIP: self and api are the host's; keep them, valid while the plugin is loaded.
   * THREAD: main. */
  int32_t (*init)(plinth_plugin_t* self, const plinth_host_api_t* api);
  /* since 1.0: called at shutdown in reverse load order; may be NULL. OWNERSHIP: none; the
   * plugin stops its timers and frees what it allocated. THREAD: main. */
  void (*shutdown)(plinth_plugin_t* self);
  void* reserved[4]; /* since 1.0: must be NULL */
} plinth_plugin_descriptor_t;

/* The one exported symbol. Returns a pointer to a static descriptor; must not run other code.
 * OWNERSHIP: the descriptor and its strings are the plugin's; the host reads them while the
 * plugin is loaded. THREAD: main, once, while loading. */
typedef const plinth_plugin_descriptor_t* (*plinth_plugin_entry_v1_fn)(void);
#define PLINTH_ENTRY_SYMBOL "plinth_plugin_entry_v1"

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_BASE_H */
