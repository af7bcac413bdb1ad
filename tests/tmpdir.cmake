# cmake -DDIR=... -DMODE=setup|check -P tmpdir.cmake
# The temporary directory every ctest entry gets as TMPDIR (tests/CMakeLists.txt):
# setup makes it exist and be empty; check fails, naming what is there, unless
# the tests and the rdmacheck runs they made left it empty.
if(NOT DIR)
  message(FATAL_ERROR "tmpdir.cmake: no -DDIR")
endif()
if(MODE STREQUAL "setup")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
elseif(MODE STREQUAL "check")
  if(NOT IS_DIRECTORY "${DIR}")
    message(FATAL_ERROR "${DIR} is gone: a test removed the temporary directory itself")
  endif()
  file(GLOB left LIST_DIRECTORIES true "${DIR}/*")
  if(left)
    list(JOIN left "\n  " listed)
    message(FATAL_ERROR "the tests left these in the temporary directory:\n  ${listed}")
  endif()
  message(STATUS "${DIR} is empty")
else()
  message(FATAL_ERROR "tmpdir.cmake: MODE must be setup or check, not '${MODE}'")
endif()
