// The one place where redist's version is written.  CMake (project version),
// the `redist` command (--version, and the header it writes into every
// generated file) and the pkg-config files all take it from here.
#pragma once

#define REDIST_VERSION_MAJOR 0
#define REDIST_VERSION_MINOR 3
#define REDIST_VERSION_PATCH 0
#define REDIST_VERSION "0.3.0"

// Generated headers call the runtime through this interface; a header that
// records another interface version is refused at compile time.  Bumped
// whenever a runtime signature or convention a generated header relies on
// changes.
#define REDIST_INTERFACE_VERSION 5
