#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is `((sqlite3_destructor_type)-1)`, a macro cast that Swift cannot import.
/// Passed to `sqlite3_bind_blob64`/`sqlite3_bind_text`, it makes SQLite copy the bytes before the
/// call returns, so Swift's buffer may go away right after binding.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
