// Command handlers of the server plugin, registered by plugin.cc. Main thread, through the host
// API (plinth::sdk::Call).
#ifndef PLINTH_SERVER_HANDLERS_H
#define PLINTH_SERVER_HANDLERS_H

#include <initializer_list>
#include <plinth/plugin.hpp>
#include <string_view>
#include <vector>

namespace plinth::server {

using sdk::Call;

// Arguments from index "from" to the end, borrowed for the handler's duration.
std::vector<std::string_view> ArgsFrom(const Call& c, int from);

// Replies with a HELP text: an array of simple strings.
void ReplyHelp(const Call& c, std::initializer_list<std::string_view> lines);

// info_commands.cc
void Info(Call& c);
void Time(Call& c);

// config_commands.cc
void Config(Call& c);

// command_commands.cc
void Command(Call& c);

// admin_commands.cc
void Plugin(Call& c);
void Module(Call& c);
void Shutdown(Call& c);

}  // namespace plinth::server

#endif  // PLINTH_SERVER_HANDLERS_H
