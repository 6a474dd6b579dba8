/**
 * The two ways opening an embedded database fails: its data directory is held by another process
 * (`DatabaseLockedError`), or the directory, PGlite or its wire server cannot be started
 * (`EmbeddedPostgresError`).
 *
 * @module
 */
import { type Cause, Schema } from "effect"

const DatabaseLockedErrorBase: Schema.Class<
  DatabaseLockedError,
  Schema.TaggedStruct<"DatabaseLockedError", {
    readonly dataDir: Schema.String
    readonly lockFile: Schema.String
    readonly pid: Schema.NullOr<Schema.Number>
    readonly message: Schema.String
  }>,
  Cause.YieldableError
> = Schema.TaggedError<DatabaseLockedError>()("DatabaseLockedError", {
  dataDir: Schema.String,
  lockFile: Schema.String,
  /** The holder's pid, `null` when the lock file could not be read. */
  pid: Schema.NullOr(Schema.Number),
  message: Schema.String
})

/**
 * The data directory is held by another process (or by an earlier open in this one): one process
 * at a time opens an embedded database. `lockFile` names the lock, `pid` its holder (`null` when
 * the lock file could not be read). A lock left by a process that no longer runs is taken over
 * instead.
 */
export class DatabaseLockedError extends DatabaseLockedErrorBase {}

const EmbeddedPostgresErrorBase: Schema.Class<
  EmbeddedPostgresError,
  Schema.TaggedStruct<"EmbeddedPostgresError", {
    readonly dataDir: Schema.String
    readonly message: Schema.String
    readonly cause: Schema.Defect
  }>,
  Cause.YieldableError
> = Schema.TaggedError<EmbeddedPostgresError>()("EmbeddedPostgresError", {
  dataDir: Schema.String,
  message: Schema.String,
  cause: Schema.Defect()
})

/**
 * The embedded database could not be started (data directory, PGlite or its wire server); the
 * message says which and why, `cause` holds the underlying error.
 */
export class EmbeddedPostgresError extends EmbeddedPostgresErrorBase {}
