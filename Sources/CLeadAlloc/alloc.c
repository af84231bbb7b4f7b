#include "cleadalloc.h"

// The executable links libjemalloc, which replaces glibc's malloc for the whole process (the
// Swift runtime, SQLite and the libraries loaded later alike). An import allocates and frees
// several small values per cell on one thread and frees many of them on another; glibc spent
// some 12 % of the 100k-row benchmark import's processor time in malloc and free, consolidating
// its bins, and jemalloc took 0.87-0.92x the wall time (docs/benchmarks.md).
//
// jemalloc reads this before its first allocation; MALLOC_CONF in the environment still
// overrides it. Two arenas rather than four per core: the pages they keep are fewer (a lower
// peak) and five threads share them without measurable waiting. Freed pages go back to the system
// after one second rather than ten: a run's peak is then close to what it holds.
const char *malloc_conf = "narenas:2,dirty_decay_ms:1000";
