/* Compiles plinth/plugin.h as strict C99 (-std=c99 -Wall -Wextra -pedantic -Werror): the ABI
 * header must stay usable from plain C. Uses a few declarations so nothing is optimized away. */
#include <plinth/plugin.h>

static int32_t c99_init(plinth_plugin_t* self, const plinth_host_api_t* api) {
  plinth_command_spec_t spec = {0};
  (void)self;
  spec.struct_size = sizeof spec;
  return PLINTH_HAS(api, command_register) ? PLINTH_OK : PLINTH_ERR;
}

int plinth_c99_check(void);
int plinth_c99_check(void) { return c99_init(NULL, NULL) == PLINTH_ERR ? 0 : 1; }
