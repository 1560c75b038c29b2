# The flags g500 adds to the compiler's: the target machine's instruction set (G500_ARCH_FLAGS) and
# warnings for g500's own sources. CMAKE_CXX_FLAGS and CMAKE_CXX_FLAGS_<CONFIG> stay the user's
# (the Release default of GCC and Clang is -O3 -DNDEBUG).
include(CheckCXXCompilerFlag)

# The default: the build machine's own instruction set, when the compiler takes a flag for it and
# the build runs where the program will (not when cross compiling).
if(NOT DEFINED G500_ARCH_FLAGS)
  set(default_arch_flags "")
  if(NOT CMAKE_CROSSCOMPILING)
    foreach(candidate IN ITEMS -march=native -mcpu=native)
      string(MAKE_C_IDENTIFIER "G500_ACCEPTS${candidate}" accepted)
      check_cxx_compiler_flag(${candidate} ${accepted})
      if(${accepted})
        set(default_arch_flags ${candidate})
        break()
      endif()
    endforeach()
  endif()
  set(G500_ARCH_FLAGS "${default_arch_flags}" CACHE STRING
      "Instruction-set flags for the target machine, e.g. -march=native, -mcpu=a64fx, or empty for the compiler's default")
endif()
separate_arguments(G500_ARCH_FLAG_LIST NATIVE_COMMAND "${G500_ARCH_FLAGS}")
if(G500_ARCH_FLAG_LIST)
  string(MAKE_C_IDENTIFIER "G500_ARCH_FLAGS_OK_${G500_ARCH_FLAGS}" arch_flags_ok)
  set(CMAKE_REQUIRED_FLAGS "${G500_ARCH_FLAGS}")
  check_cxx_compiler_flag("" ${arch_flags_ok})
  unset(CMAKE_REQUIRED_FLAGS)
  if(NOT ${arch_flags_ok})
    message(FATAL_ERROR "g500: the compiler (${CMAKE_CXX_COMPILER}) does not accept G500_ARCH_FLAGS "
                        "'${G500_ARCH_FLAGS}'; set -DG500_ARCH_FLAGS= to another value or empty")
  endif()
endif()
message(STATUS "g500: instruction-set flags: '${G500_ARCH_FLAGS}' (G500_ARCH_FLAGS)")

# g500_warnings(TARGET): the warnings g500's own code builds without (not passed on to users of a
# target, nor to the libraries it links).
set(G500_WARNING_FLAGS $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang,IntelLLVM,FujitsuClang>:-Wall -Wextra -Wshadow>)
# CI builds with warnings as errors (.ci/run), so that none lands.
option(G500_WARNINGS_AS_ERRORS "Treat warnings in g500's own code as errors" OFF)
if(G500_WARNINGS_AS_ERRORS)
  list(APPEND G500_WARNING_FLAGS $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang,IntelLLVM,FujitsuClang>:-Werror>)
endif()
function(g500_warnings target)
  target_compile_options(${target} PRIVATE ${G500_WARNING_FLAGS})
endfunction()
