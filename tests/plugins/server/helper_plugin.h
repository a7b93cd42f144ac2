// A small helper plugin (raw C ABI) for the server plugin's command tests: it registers
// commands with argument hints (SET, MGET, a bare NOHINT), the options helper.num (mutable int
// 0..100), helper.word (mutable enum a|b|c) and helper.fixed (immutable), and two INFO sections.
#ifndef PLINTH_TESTS_SERVER_HELPER_PLUGIN_H
#define PLINTH_TESTS_SERVER_HELPER_PLUGIN_H

#include <plinth/plugin.h>

namespace plinth::server::test {

// The helper's descriptor; its name is "helper", its version "1.2.3".
const plinth_plugin_descriptor_t* HelperDescriptor();

}  // namespace plinth::server::test

#endif  // PLINTH_TESTS_SERVER_HELPER_PLUGIN_H
