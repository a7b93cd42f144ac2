# plinth_add_plugin(NAME <name> SOURCES <src>... [LIBRARIES <lib>...])
#
# Builds a Plinth plugin: a MODULE library named <name>.so with hidden visibility, linked with
# -Wl,--no-undefined and a version script that exports only plinth_plugin_entry_v1. Works in
# the Plinth tree and out of tree after find_package(Plinth). The target is plinth_<name>.
set(_PLINTH_PLUGIN_MAP "${CMAKE_CURRENT_LIST_DIR}/plugin.map")

function(plinth_add_plugin)
  cmake_parse_arguments(P "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT P_NAME OR NOT P_SOURCES)
    message(FATAL_ERROR "plinth_add_plugin: NAME and SOURCES are required")
  endif()
  set(target plinth_${P_NAME})
  add_library(${target} MODULE ${P_SOURCES})
  target_link_libraries(${target} PRIVATE Plinth::sdk ${P_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${P_NAME}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${_PLINTH_PLUGIN_MAP}")
  target_link_options(${target} PRIVATE
    "LINKER:--no-undefined" "LINKER:--version-script=${_PLINTH_PLUGIN_MAP}")
  if(DEFINED PLINTH_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${PLINTH_PLUGIN_OUTPUT_DIR}")
  endif()
endfunction()

# In the Plinth tree, bundled plugins install next to the server's default plugin directory.
function(plinth_install_plugin name)
  install(TARGETS plinth_${name} LIBRARY DESTINATION "${PLINTH_PLUGIN_SUBDIR}")
endfunction()
