// Command handlers of the scripting plugin (registered in plugin.cc). THREAD: main.
#ifndef PLINTH_SCRIPTING_HANDLERS_H
#define PLINTH_SCRIPTING_HANDLERS_H

#include <plinth/plugin.hpp>

namespace plinth::scripting {

// eval_commands.cc
void Eval(sdk::Call& c);
void EvalSha(sdk::Call& c);
void EvalRo(sdk::Call& c);
void EvalShaRo(sdk::Call& c);
void Script(sdk::Call& c);

// function_commands.cc
void FCall(sdk::Call& c);
void FCallRo(sdk::Call& c);
void Function(sdk::Call& c);

// kill.cc-style helpers shared by SCRIPT and FUNCTION (eval_commands.cc)
// Answers SCRIPT KILL (is_eval) or FUNCTION KILL.
void KillRunning(sdk::Call& c, bool is_eval);
// When a script runs, replies the BUSY error of its kind and returns true.
bool RefuseWhileBusy(sdk::Call& c);

}  // namespace plinth::scripting

#endif  // PLINTH_SCRIPTING_HANDLERS_H
