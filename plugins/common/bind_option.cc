// Validation of bind lists for the option table.
#include "common/bind_option.h"

#include <string>

#include "common/address.h"
#include "common/options.h"

namespace plinth::common {

int32_t ApplyBindOption(void*, const char*, const char* value, size_t len, int64_t, char* err,
                        size_t errlen) {
  std::string reason;
  if (ParseBindList(std::string_view(value, len), &reason)) return PLINTH_OK;
  common::CopyText(reason, err, errlen);
  return PLINTH_ERR;
}

}  // namespace plinth::common
