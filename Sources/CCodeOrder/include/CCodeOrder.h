// Marks around the daemon's hot code. scripts/gen-order.sh puts gestured_hot_code_begin first in
// the daemon's .text and gestured_hot_code_end right after the functions a frame runs; the code
// hand-back (LinuxSystem's CodePages) keeps the pages between them, which the next frame would
// fault straight back in.
#pragma once

void gestured_hot_code_begin(void);
void gestured_hot_code_end(void);
