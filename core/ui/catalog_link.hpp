// catalog_link.hpp — the catalog table's view as one link value, so a shared link opens the
// table as it was: the search text, the filters, the instances ticked to compare, the sort
// and the hidden columns (column order and widths are not carried).
//
//   search=h100;family=p5;accelerator=H100;interconnect=NVLink;min-memory-gib=80;efa=1;
//   range=on-demand::40;range=ram-gib:1024:;unit=month;
//   compare=p5.48xlarge,p4d.24xlarge;sort=on-demand-desc;hide=vcpus,ram-gib
//
// Parts are separated by ';', list items by ','; values are percent-encoded (RFC 3986
// unreserved characters stay as they are), so any search text round-trips. A part left at its
// default is omitted: the default table's link value is "". It rides in the app's
// arguments as --catalog-table=VALUE (app_options.hpp), so in the page's URL as #catalog-table=...
#pragma once

#include <string>
#include <string_view>

#include "ui/catalog_table.hpp"

namespace gpuplan::ui {

std::string catalog_table_link(const CatalogTableState& state);

// Applies a link value to `state` (the table applies the sort and hidden columns on its next
// frame). Throws InputError naming "--catalog-table" and the part that could not be read; `state`
// is then unchanged.
void apply_catalog_table_link(CatalogTableState& state, std::string_view text);

// The column's key in the link ("on-demand", "ram-gib"), and back.
const char* catalog_column_key(CatalogColumn column);
std::optional<CatalogColumn> catalog_column_named(std::string_view key);

}  // namespace gpuplan::ui
