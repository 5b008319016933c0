# unavailable_test.cmake — the command of a test that could not be registered
# (gpuplan_unavailable_test in tests/CMakeLists.txt): it fails, saying which test and why, so
# a run never passes by silently leaving tests out.
#   cmake -DNAME=browser.views -DWHY="..." -P unavailable_test.cmake
message(FATAL_ERROR "${NAME} could not be registered: ${WHY}")
