// <mpi.h> without the deprecated MPI C++ bindings, which do not compile
// warning-free; the runtime and its headers use only the C API.
#pragma once

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
