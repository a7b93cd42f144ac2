# Install rules: the server, bundled plugins (each plugin installs itself), the SDK headers,
# the fake host and the CMake package used by out-of-tree plugins (find_package(Plinth)).
include(CMakePackageConfigHelpers)

install(DIRECTORY "${CMAKE_SOURCE_DIR}/sdk/include/plinth"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
set(_plinth_export_targets plinth_sdk)
if(TARGET plinth_fakehost)
  list(APPEND _plinth_export_targets plinth_fakehost)
endif()
install(TARGETS ${_plinth_export_targets} EXPORT PlinthTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
set(PLINTH_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/Plinth")
install(EXPORT PlinthTargets NAMESPACE Plinth:: DESTINATION "${PLINTH_CMAKE_DIR}")
configure_package_config_file("${CMAKE_SOURCE_DIR}/sdk/cmake/PlinthConfig.cmake.in"
  "${CMAKE_BINARY_DIR}/PlinthConfig.cmake" INSTALL_DESTINATION "${PLINTH_CMAKE_DIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR PLINTH_PLUGIN_SUBDIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/PlinthConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES "${CMAKE_BINARY_DIR}/PlinthConfig.cmake"
              "${CMAKE_BINARY_DIR}/PlinthConfigVersion.cmake"
              "${CMAKE_SOURCE_DIR}/sdk/cmake/PlinthPlugin.cmake"
              "${CMAKE_SOURCE_DIR}/sdk/cmake/plugin.map"
        DESTINATION "${PLINTH_CMAKE_DIR}")
