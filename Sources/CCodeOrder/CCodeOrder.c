// Empty functions whose only use is their address (include/CCodeOrder.h). Each has a section
// of its own (-ffunction-sections, Package.swift), so the linker's symbol ordering can place it.
#include "CCodeOrder.h"

__attribute__((noinline, used)) void gestured_hot_code_begin(void) { __asm__ volatile(""); }
__attribute__((noinline, used)) void gestured_hot_code_end(void) { __asm__ volatile(""); }
