// Both targets' replies as one type: RESP bytes from the real server parsed into a
// plinth::fakehost::Reply, and a fake host's Reply reduced to what a RESP2 client receives, so
// the cases compare the same thing on both. Used by target.cc; any thread.
#pragma once

#include <plinth/fakehost.hpp>
#include <string_view>

namespace plinth::hostapi {

using fakehost::Reply;
using fakehost::ReplyType;

// Parses one complete RESP2 or RESP3 reply. Malformed input yields an error reply whose text
// starts with "ERR target:".
Reply ParseResp(std::string_view raw);

// The reply as RESP2 delivers it: maps and sets become arrays (a map as key, value, ...),
// doubles, verbatim strings and big numbers become bulk strings, booleans integers.
Reply AsResp2(Reply r);

// An error reply with text "ERR target: <why>", for what a target could not observe.
Reply TargetError(std::string_view why);

}  // namespace plinth::hostapi
