// Versions the server reports.
#pragma once

namespace plinth::host {

inline constexpr const char* kPlinthVersion = "0.1.0";
// The Redis version whose behaviour Plinth follows; clients read it from HELLO and INFO.
inline constexpr const char* kRedisCompatVersion = "7.0.15";

}  // namespace plinth::host
