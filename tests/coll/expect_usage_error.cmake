# Runs `mpiexec -n 2 g500 coll ARGS...` (ARGS comma-separated) and requires exit status 2 and
# exactly one 'g500 coll: error' line on stderr containing EXPECTED.
string(REPLACE "," ";" ARGS "${ARGS}")
execute_process(COMMAND ${MPIEXEC} -n 2 --oversubscribe ${BINARY} coll ${ARGS}
                RESULT_VARIABLE status ERROR_VARIABLE errors OUTPUT_VARIABLE output)
if(NOT status EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got '${status}'\nstderr: ${errors}")
endif()
# mpiexec adds its own notes about the failed job; g500 itself must print exactly one line.
string(REGEX MATCHALL "g500 coll: error[^\n]*" own_lines "${errors}")
list(LENGTH own_lines count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "expected one 'g500 coll: error' line, got ${count}:\n${errors}")
endif()
string(FIND "${own_lines}" "${EXPECTED}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "error line lacks '${EXPECTED}':\n${own_lines}")
endif()
message(STATUS "ok: ${own_lines}")
