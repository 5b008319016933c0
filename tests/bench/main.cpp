// One Catch2 main for the decode-pipeline benchmark tests (CPU backend, no GPU needed).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
