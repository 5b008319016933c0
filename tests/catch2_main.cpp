// The one Catch2 main of every test program (tests/CMakeLists.txt: gpuplan_catch2_program).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
