// Command handlers of the connection plugin, registered by plugin.cc. Main thread, through the
// host API (plinth::sdk::Call).
#ifndef PLINTH_CONNECTION_HANDLERS_H
#define PLINTH_CONNECTION_HANDLERS_H

#include <plinth/plugin.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::connection {

using sdk::Call;

// Arguments from index "from" to the end, borrowed for the handler's duration.
std::vector<std::string_view> ArgsFrom(const Call& c, int from);

// connection_commands.cc
void Ping(Call& c);
void Echo(Call& c);
void Select(Call& c);
void Quit(Call& c);
void Reset(Call& c);
void Auth(Call& c);
void Hello(Call& c);

// client_commands.cc
void Client(Call& c);
// Forgets the CLIENT PAUSE state of an earlier load (init).
void ResetClientPause();

// tracking_commands.cc
// Sets up client tracking's state and host hooks, forgetting an earlier load's (init).
bool SetupTracking();
// CLIENT TRACKING, CACHING, GETREDIR and TRACKINGINFO (sub: the lowercase subcommand).
void ClientTrackingCommand(Call& c, std::string_view sub);

}  // namespace plinth::connection

#endif  // PLINTH_CONNECTION_HANDLERS_H
