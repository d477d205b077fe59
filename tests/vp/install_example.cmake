# ctest Install.vp_example (cmake -P): installs this build into a fresh prefix, builds examples/vp against
# the installed package with find_package(GPUMemSys), runs it on the fermi preset and checks that it passed.
# Variables: GMS_BUILD_DIR, GMS_SOURCE_DIR, WORK_DIR, GENERATOR, CXX, LAUNCHER (may be empty).
foreach(v GMS_BUILD_DIR GMS_SOURCE_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "install_example.cmake: -D${v}=... missing")
  endif()
endforeach()

function(step name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
step("cmake --install" ${CMAKE_COMMAND} --install ${GMS_BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/GPUMemSys/GPUMemSysConfig.cmake include/gpumemsys/models/system/gpu_mem_sys.h
          lib/libgms_system_model.a)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

set(configure ${CMAKE_COMMAND} -S ${GMS_SOURCE_DIR}/examples/vp -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(LAUNCHER)
  list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
step("configure examples/vp" ${configure})
step("build examples/vp" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step("run vp_example" ${WORK_DIR}/build/vp_example ${GMS_SOURCE_DIR}/configs/fermi.yaml)
message("${step_output}")
if(NOT step_output MATCHES "vp_example: PASS")
  message(FATAL_ERROR "vp_example did not report PASS")
endif()
