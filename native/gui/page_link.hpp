// page_link.hpp — the links the browser page writes, opened by `gpuplan gui --link URL`.
//
// The page keeps its state in the URL fragment: `#view=costs&theme=dark&z=<deflated scenario>`
// (web/shell/shell.js). `z` is the scenario codec's bytes (gpuplan/scenario/scenario_url.hpp:
// minified JSON) compressed as raw deflate (RFC 1951, CompressionStream 'deflate-raw') and
// written in base64url. Here zlib inflates it (raw deflate: windowBits -15), and the link's
// parameters become the same arguments the page hands its parser (core/ui/app_options.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::gui {

// The scenario codec's text (base64url of the JSON) from a link's `z` value. Throws InputError
// naming `field` for text that is not base64url or not raw deflate, or that inflates past the
// scenario size limit (kMaxInputBytes).
std::string scenario_param_from_z(std::string_view z, const std::string& field = "--link z=");

// The page's parameters of a link (query and fragment; `z` expanded into `scenario`), as
// arguments "--view=costs", "--scenario=...": what parse_app_arguments reads. `host_origin` is
// the page's own (which hosts may drive an embedded view) and is dropped, as the page drops it.
// Throws InputError naming --link for a link with no parameters or a bad `z`.
std::vector<std::string> arguments_from_page_link(std::string_view link);

}  // namespace gpuplan::gui
