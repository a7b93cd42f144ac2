/*
 * sdk/abi/probe.c - the ABI probe: a shared library whose exported functions each take a pointer
 * to one public type of plugin.h, so that `abidw` sees every struct, handle and function-pointer
 * typedef of the ABI. Built by sdk/abi/abi.py (freeze and check), never by the project's build.
 *
 * abi.py passes the header to probe (PLINTH_ABI_PROBE_HEADER: "plinth/plugin.h", or "plugin.h"
 * of a frozen baseline) and generates probe_types.inc from it: one line per type.
 */
#include PLINTH_ABI_PROBE_HEADER

/* A typedef'd type: plinth_abi_probe_<name>(name* p). */
#define PLINTH_ABI_PROBE(name)                         \
  PLINTH_EXPORT void plinth_abi_probe_##name(name* p); \
  PLINTH_EXPORT void plinth_abi_probe_##name(name* p) { (void)p; }

/* A struct known only by its tag: plinth_abi_probe_struct_<tag>(struct tag* p). */
#define PLINTH_ABI_PROBE_STRUCT(tag)                               \
  PLINTH_EXPORT void plinth_abi_probe_struct_##tag(struct tag* p); \
  PLINTH_EXPORT void plinth_abi_probe_struct_##tag(struct tag* p) { (void)p; }

/* A function the header declares: plinth_abi_probe_function_<name>(its type* p). */
#define PLINTH_ABI_PROBE_FUNCTION(name)                                     \
  PLINTH_EXPORT void plinth_abi_probe_function_##name(__typeof__(name)* p); \
  PLINTH_EXPORT void plinth_abi_probe_function_##name(__typeof__(name)* p) { (void)p; }

#include "probe_types.inc"
