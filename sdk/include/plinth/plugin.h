/*
 * plinth/plugin.h - the Plinth plugin C ABI, version 1.0 (C99).
 *
 * A plugin is a shared object that exports exactly one symbol, plinth_plugin_entry_v1. The host
 * calls it, checks the descriptor it returns, and only then calls the descriptor's init with the
 * host API table below. Everything a plugin can do goes through that table.
 *
 * Compatibility (docs/abi.md): the host API table and every struct that crosses the boundary are
 * append-only. A field is never reordered, retyped or removed; each carries the minor version
 * that added it. Test for a function with PLINTH_HAS(api, fn) before calling one newer than 1.0.
 * Only C types cross: fixed-width integers, pointer + length, opaque handles.
 *
 * Every function states OWNERSHIP (who frees what) and THREAD (where it may be called). "main"
 * means the host's main loop thread: command handlers, timers, init and shutdown run there.
 */
#ifndef PLINTH_PLUGIN_H
#define PLINTH_PLUGIN_H

/* The ABI is split by concept under plinth/abi/; this header includes every part. */
#include "plinth/abi/host_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The entry symbol a plugin defines (PLINTH_PLUGIN in plugin.hpp does it for C++). */
PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_PLUGIN_H */
