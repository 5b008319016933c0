// page_bridge.hpp — the only place where C++ and the page's JavaScript meet (EM_ASM and
// exported functions). The JavaScript side is web/shell/shell.js; the functions it may call
// are listed in page_bridge.cpp (extern "C", gpuplan_page_*).
#pragma once

#include <string>
#include <vector>

#include "page.hpp"

namespace gpuplan::web {

// Gives the exported functions the page to work on (call once, before the main loop).
void attach_page_bridge(Page& page);

// The page's command line: the URL query turned into arguments by shell.js (Module.arguments
// reach main's argv); nothing else is read from the page at start-up.

// Applies a link's arguments ("--view=costs", "--scenario=..."): at start-up, and when a link
// is pasted into a tab already showing the planner (shell.js, hashchange). What could not be
// used is kept in page.url_errors for the notice banner; everything readable still applies.
void open_link(Page& page, const std::vector<std::string>& args);

// After the first settled frame: hides the loading indicator, sets window.gpuplan.ready,
// shows the notice banner for url_errors, posts "gpuplan:ready" to an embedding host.
void publish_ready(const Page& page);

// After the scenario, view or theme changed (by a view, a host message or the test hook):
// replaces the URL (history.replaceState) and tells an embedding host the new results.
void publish_state_change(const Page& page);

// Start-up failed (no WebGL2 context, SDL error): a readable message instead of the canvas.
void publish_start_failure(const std::string& message);

}  // namespace gpuplan::web
