// app_loop_test.cpp — the input side of the loop both shells share (core/ui/shell/app_loop.hpp).
// Dear ImGui 1.86 samples each key once per frame, so a press and release that arrive in one
// turn (a quick tap, an automated Tab, a screen reader's keystroke) would never be seen
// pressed. Before the shared loop, only the browser held such a release to the next turn; the
// desktop fed both at once and lost the key.
#include <catch2/catch.hpp>

#include <vector>

#include "ui/shell/app_loop.hpp"

using gpuplan::shell::split_quick_key_releases;

namespace {

SDL_Event key(Uint32 type, SDL_Keycode sym) {
    SDL_Event e{};
    e.type = type;
    e.key.keysym.sym = sym;
    return e;
}

SDL_Event mouse_motion() {
    SDL_Event e{};
    e.type = SDL_MOUSEMOTION;
    return e;
}

std::vector<Uint32> types(const std::vector<SDL_Event>& events) {
    std::vector<Uint32> out;
    for (const SDL_Event& e : events) out.push_back(e.type);
    return out;
}

}  // namespace

TEST_CASE("a key pressed and released in one turn is released on the next", "[app-loop]") {
    const auto split = split_quick_key_releases({key(SDL_KEYDOWN, SDLK_TAB), mouse_motion(), key(SDL_KEYUP, SDLK_TAB)});
    CHECK(types(split.now) == std::vector<Uint32>{SDL_KEYDOWN, SDL_MOUSEMOTION});
    REQUIRE(split.held.size() == 1);
    CHECK(split.held[0].type == SDL_KEYUP);
    CHECK(split.held[0].key.keysym.sym == SDLK_TAB);
}

TEST_CASE("a release whose press came in an earlier turn goes through at once", "[app-loop]") {
    // The held release of last turn comes first; its press was fed then, so it is not held again.
    const auto split = split_quick_key_releases({key(SDL_KEYUP, SDLK_TAB), key(SDL_KEYUP, SDLK_a)});
    CHECK(types(split.now) == std::vector<Uint32>{SDL_KEYUP, SDL_KEYUP});
    CHECK(split.held.empty());
}

TEST_CASE("only the quickly released key is held; others keep their order", "[app-loop]") {
    const auto split = split_quick_key_releases(
        {key(SDL_KEYDOWN, SDLK_LSHIFT), key(SDL_KEYDOWN, SDLK_TAB), key(SDL_KEYUP, SDLK_TAB), key(SDL_KEYUP, SDLK_RETURN)});
    REQUIRE(split.now.size() == 3);
    CHECK(split.now[0].key.keysym.sym == SDLK_LSHIFT);
    CHECK(split.now[1].key.keysym.sym == SDLK_TAB);
    CHECK(split.now[2].key.keysym.sym == SDLK_RETURN);  // pressed in an earlier turn
    REQUIRE(split.held.size() == 1);
    CHECK(split.held[0].key.keysym.sym == SDLK_TAB);
}
