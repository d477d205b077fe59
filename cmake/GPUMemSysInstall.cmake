# `cmake --install` of the model as a CMake package (issue 13): the static libraries of every block and of
# the memory-system module, their public headers under include/gpumemsys (included as "models/..." as in
# this tree), and lib/cmake/GPUMemSys with GPUMemSysConfig.cmake, so that another project does
#   find_package(GPUMemSys REQUIRED)
#   target_link_libraries(app PRIVATE GPUMemSys::models)
# GPUMemSys::models (gms_models here) brings every block library, SystemC, yaml-cpp and Threads with it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GMS_PACKAGE_VERSION 0.1.0)
set(GMS_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/gpumemsys)
set(GMS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/GPUMemSys)

# Every library of this project that `target` links, directly or not (block libraries are found by walking
# the link interfaces, so a block that gains a library of its own is exported without editing this list).
function(gms_collect_libraries target out)
  set(seen ${${out}})
  if(NOT TARGET ${target} OR target IN_LIST seen)
    return()
  endif()
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    return()
  endif()
  list(APPEND seen ${target})
  get_target_property(type ${target} TYPE)
  set(deps "")
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(direct ${target} LINK_LIBRARIES)
    if(direct)
      list(APPEND deps ${direct})
    endif()
  endif()
  get_target_property(iface ${target} INTERFACE_LINK_LIBRARIES)
  if(iface)
    list(APPEND deps ${iface})
  endif()
  foreach(dep ${deps})
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
    gms_collect_libraries(${dep} seen)
  endforeach()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

set(GMS_EXPORTED_LIBRARIES "")
gms_collect_libraries(gms_models GMS_EXPORTED_LIBRARIES)

# The one target users link; it needs C++17 (the standard this tree and its libsystemc are built with).
set_target_properties(gms_models PROPERTIES EXPORT_NAME models)
target_compile_features(gms_models INTERFACE cxx_std_17)
# A sanitized build (GMS_SANITIZE, scripts/test --asan) installs instrumented libraries: whoever links them
# needs the sanitizer runtimes, so the package carries the link option.
if(GMS_SANITIZE)
  target_link_options(gms_models INTERFACE -fsanitize=address,undefined)
endif()

install(TARGETS ${GMS_EXPORTED_LIBRARIES}
        EXPORT GPUMemSysTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${GMS_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION ${GMS_INSTALL_INCLUDEDIR}/models
        FILES_MATCHING PATTERN "*.h")
install(EXPORT GPUMemSysTargets NAMESPACE GPUMemSys:: DESTINATION ${GMS_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/GPUMemSysConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/GPUMemSysConfig.cmake
                              INSTALL_DESTINATION ${GMS_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/GPUMemSysConfigVersion.cmake
                                 VERSION ${GMS_PACKAGE_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/GPUMemSysConfig.cmake ${PROJECT_BINARY_DIR}/GPUMemSysConfigVersion.cmake
        DESTINATION ${GMS_INSTALL_CMAKEDIR})
