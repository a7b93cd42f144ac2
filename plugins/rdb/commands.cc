// SAVE, BGSAVE, LASTSAVE and DEBUG RELOAD.
#include "rdb/commands.h"

#include <plinth/errors.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>

#include "rdb/snapshots.h"

namespace plinth::rdb {
namespace {

using sdk::Call;

void Save(Call& c) {
  std::string err;
  if (Instance().SaveNow(&err)) return c.Ok();
  c.Error("ERR " + err);
}

void Bgsave(Call& c) {
  const bool schedule = c.argc() == 2 && text::EqualsNoCase(c.arg(1), "schedule");
  if (c.argc() > 2 || (c.argc() == 2 && !schedule)) return c.Error(errors::kSyntax);
  Snapshots& s = Instance();
  if (s.ChildRunning()) return c.Error("ERR Background save already in progress");
  if (sdk::Api().fork_active(sdk::Host::self)) {
    if (!schedule)
      return c.Error(
          "ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE "
          "SCHEDULE in order to schedule a BGSAVE whenever possible.");
    s.Schedule();
    return c.Simple("Background saving scheduled");
  }
  std::string err;
  if (!s.StartBackgroundSave(&err)) return c.Error("ERR " + err);
  c.Simple("Background saving started");
}

void Lastsave(Call& c) { c.Integer(Instance().LastSaveSeconds()); }

// DEBUG RELOAD: save, empty every database, load the file back. The host runs it for
// "DEBUG RELOAD ..." (a subcommand of the diagnostics plugin's DEBUG); Redis's options
// (MERGE, NOFLUSH, NOSAVE) are not read.
void DebugReload(Call& c) {
  std::string err;
  if (!Instance().SaveNow(&err)) return c.Error("ERR Error trying to save the DB: " + err);
  sdk::Api().db_flush_all(sdk::Host::self);
  if (!Instance().LoadNow(&err)) return c.Error("ERR Error trying to load the RDB dump: " + err);
  c.Ok();
}

constexpr uint32_t kAdmin = PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT;

const sdk::CommandDef kCommands[] = {
    {"save", 1, kAdmin | PLINTH_CMD_NOPROPAGATE, 0, 0, 0, &Save, "server", nullptr,
     "Synchronously saves the database(s) to disk.", "1.0.0"},
    {"bgsave", -1, kAdmin | PLINTH_CMD_NOPROPAGATE, 0, 0, 0, &Bgsave, "server", "[SCHEDULE]",
     "Asynchronously saves the database(s) to disk.", "1.0.0"},
    {"lastsave", 1, PLINTH_CMD_FAST | PLINTH_CMD_LOADING | PLINTH_CMD_STALE, 0, 0, 0, &Lastsave,
     "server", nullptr, "Returns the Unix timestamp of the last successful save to disk.", "1.0.0",
     PLINTH_ACL_ADMIN | PLINTH_ACL_DANGEROUS},
    {"debug|reload", -2,
     PLINTH_CMD_PROTECTED | kAdmin | PLINTH_CMD_NOPROPAGATE | PLINTH_CMD_LOADING | PLINTH_CMD_STALE,
     0, 0, 0, &DebugReload, "server", nullptr, "Saves the dataset to disk and loads it back.",
     "1.0.0"},
};

}  // namespace

bool RegisterCommands() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::rdb
