/**
 * Wasl's contract suite for `NoteRepository` (`@wasl/adapters/testing`), run by a third party
 * against its own adapter (note-repository-sqlite.ts: notes in SQLite), with Wasl's in-memory
 * adapters for the other ports the suite uses. Only the packages' public entry points are used.
 */
import { RepositoriesMemory } from "@wasl/adapters/memory"
import { noteRepositoryContract } from "@wasl/adapters/testing"
import { Layer } from "effect"
import { SecureRandom } from "effect/crypto"
import { NoteRepositorySqlite, NotesDatabase, TransactorWithSqlite } from "./note-repository-sqlite.ts"

const waslMemory = RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto))
const sqliteNotes = Layer.mergeAll(NoteRepositorySqlite, TransactorWithSqlite).pipe(
  Layer.provide(waslMemory),
  Layer.provideMerge(NotesDatabase.layer)
)

// The later layer's NoteRepository and Transactor replace the memory ones.
noteRepositoryContract("a NoteRepository on SQLite, written outside Wasl", Layer.merge(waslMemory, sqliteNotes))
