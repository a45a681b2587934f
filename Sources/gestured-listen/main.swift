// gestured-listen: `gestured listen`, the bindings run in the user's session, in an executable of
// its own. It alone needs focus tracking's libraries (libxcb, libwayland-client), which the
// system daemon then does not load (docs/performance-history.md, fifth pass). `gestured listen ARGS`
// replaces itself with this program, so users and units keep saying `gestured listen`.

import LinuxSystem

CurrentProcess.exit(listenMain(Array(CommandLine.arguments.dropFirst())))
