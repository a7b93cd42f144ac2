// Registering a bundled plugin's options under their Redis names, and copying text into the
// error and address buffers the host hands to plugin callbacks. THREAD: main (option
// registration happens at init).
#ifndef PLINTH_COMMON_OPTIONS_H
#define PLINTH_COMMON_OPTIONS_H

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace plinth::common {

// Registers an option under its bare name (PLINTH_OPT_GLOBAL_NAME | flags) and stores its
// handle in *handle. false when the host refused it (a duplicate, or an invalid configured
// value). OWNERSHIP: the strings are copied by the host.
bool RegisterGlobalOption(const plinth_option_t** handle, const char* name, uint32_t type,
                          uint32_t flags, const char* def, int64_t min, int64_t max,
                          const char* description, plinth_option_apply_fn apply);

// Copies text into dst[0, cap), cut to fit and NUL-terminated; nothing when dst is NULL or cap
// is 0.
void CopyText(const std::string& text, char* dst, size_t cap);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_OPTIONS_H
