/**
 * The process lock of an embedded database's data directory (`WASL_DATA_DIR`, default
 * `./.wasl-data`):
 *
 *   <dataDir>/wasl.lock   the process lock: JSON `{ pid, hostname, token, createdAt, server? }`
 *   <dataDir>/pgdata/     PGlite's PGDATA (PGlite runs `initdb` there on first start)
 *
 * One process holds the directory. The lock file is created with `O_CREAT | O_EXCL`; a second
 * open (another process, or a second open inside this process) fails fast with
 * `DatabaseLockedError`. A lock left behind by a dead process (its pid no longer exists, or it is
 * this process's own pid but not a lock this process took, as after a container restart) is stale
 * and taken over.
 *
 * Once the holder serves the database on its loopback port, it adds `server: { host, port,
 * password }` to the lock (replacing the file whole, so a reader sees the lock before or after,
 * never half of it): the command line of the same user connects there instead of being refused.
 * The lock file is therefore readable by its owner only (mode 0600), like the password it holds.
 *
 * @module
 */
import { Effect, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { DatabaseLockedError, EmbeddedPostgresError } from "./embedded-postgres-errors.ts"

/** The lock file of a data directory. Internal plumbing of the embedded database. */
export const dataDirLockPath = (dataDir: string): string => Path.join(Path.resolve(dataDir), "wasl.lock")

/** PGlite's PGDATA inside a data directory. Internal plumbing of the embedded database. */
export const pgDataPath = (dataDir: string): string => Path.join(Path.resolve(dataDir), "pgdata")

/** Where the holder of a data directory serves its database, as its lock says. */
export interface DataDirServer {
  /** The loopback address of the port. */
  readonly host: string
  /** The port. */
  readonly port: number
  /** The password the port asks for. */
  readonly password: string
}

interface LockContent {
  readonly pid: number
  readonly hostname: string
  readonly token: string
  readonly createdAt: string
  readonly server?: DataDirServer | undefined
}

/** The lock file's mode: the owner reads and writes it, no one else (it holds the port's password). */
const lockMode = 0o600

/** Lock files this process holds (by path), to tell "held by me" from "stale, same pid". */
const heldLocks = new Set<string>()

/** A lock younger than this whose content cannot be parsed is being written: treat as held. */
const unreadableLockGraceMs = 5_000

const lockedMessage = (dataDir: string, pid: number | null) =>
  `The embedded database at ${Path.resolve(dataDir)} is in use by another Wasl process (pid ${
    pid ?? "unknown"
  }). Stop it first or set DATABASE_URL.`

const isProcessAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const isServer = (value: unknown): value is DataDirServer => {
  const server = value as Partial<DataDirServer> | null | undefined
  return typeof server?.host === "string" && Number.isSafeInteger(server.port) && typeof server.password === "string"
}

/** Whether the process a lock names runs: for this process's own pid, whether it took this lock. */
const isHolderAlive = (lockFile: string, holder: LockContent): boolean =>
  holder.pid === process.pid ? heldLocks.has(lockFile) : isProcessAlive(holder.pid)

const readLock = (lockFile: string): { readonly raw: string; readonly content: LockContent | undefined } | undefined => {
  let raw: string
  try {
    raw = Fs.readFileSync(lockFile, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw error
  }
  try {
    const parsed = JSON.parse(raw) as Partial<LockContent>
    if (!Number.isSafeInteger(parsed.pid) || typeof parsed.token !== "string") return { raw, content: undefined }
    // A server entry this version cannot read is ignored: the lock still holds the directory.
    return { raw, content: { ...parsed as LockContent, server: isServer(parsed.server) ? parsed.server : undefined } }
  } catch {
    return { raw, content: undefined }
  }
}

type LockAttempt =
  | { readonly _tag: "Acquired"; readonly content: LockContent }
  | { readonly _tag: "Held"; readonly pid: number | null }
  | { readonly _tag: "Stale"; readonly pid: number | null }

const tryCreateLock = (lockFile: string): LockAttempt => {
  const token = randomBytes(12).toString("hex")
  const content: LockContent = { pid: process.pid, hostname: Os.hostname(), token, createdAt: new Date().toISOString() }
  let fd: number
  try {
    fd = Fs.openSync(lockFile, Fs.constants.O_CREAT | Fs.constants.O_EXCL | Fs.constants.O_WRONLY, lockMode)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    const existing = readLock(lockFile)
    if (existing === undefined) return { _tag: "Stale", pid: null } // removed meanwhile: retry
    const holder = existing.content
    if (holder === undefined) {
      const age = Date.now() - Fs.statSync(lockFile).mtimeMs
      if (age < unreadableLockGraceMs) return { _tag: "Held", pid: null }
      removeStaleLock(lockFile, existing.raw)
      return { _tag: "Stale", pid: null }
    }
    if (isHolderAlive(lockFile, holder)) return { _tag: "Held", pid: holder.pid }
    removeStaleLock(lockFile, existing.raw)
    return { _tag: "Stale", pid: holder.pid }
  }
  try {
    Fs.writeSync(fd, JSON.stringify(content) + "\n")
    Fs.fsyncSync(fd)
  } finally {
    Fs.closeSync(fd)
  }
  heldLocks.add(lockFile)
  return { _tag: "Acquired", content }
}

/**
 * Replaces the lock, still this process's, with `content`: written to a file of its own, then
 * renamed over the lock, so that no reader sees a half-written lock.
 */
const rewriteLock = (lockFile: string, content: LockContent): void => {
  const next = `${lockFile}.${content.token}`
  try {
    Fs.writeFileSync(next, JSON.stringify(content) + "\n", { mode: lockMode, flag: "wx", flush: true })
    if (readLock(lockFile)?.content?.token !== content.token) throw new Error("the lock is no longer this process's")
    Fs.renameSync(next, lockFile)
  } finally {
    Fs.rmSync(next, { force: true })
  }
}

/** Removes a stale lock, unless it changed since it was read (another process took it over). */
const removeStaleLock = (lockFile: string, raw: string): void => {
  const now = readLock(lockFile)
  if (now !== undefined && now.raw === raw) Fs.rmSync(lockFile, { force: true })
}

const releaseLock = (lockFile: string, token: string): void => {
  heldLocks.delete(lockFile)
  const now = readLock(lockFile)
  if (now?.content?.token === token) Fs.rmSync(lockFile, { force: true })
}

/** A data directory's lock held by this process. */
export interface DataDirLock {
  /** Adds where this process serves the directory's database to the lock, for the command line. */
  readonly publish: (server: DataDirServer) => Effect.Effect<void, EmbeddedPostgresError>
}

/**
 * Takes the exclusive lock of a data directory (creating the directory if needed) for the life
 * of the scope. Fails with `DatabaseLockedError` when a live process holds it. Internal plumbing
 * of the embedded database.
 */
export const acquireDataDirLock = (
  dataDir: string
): Effect.Effect<DataDirLock, DatabaseLockedError | EmbeddedPostgresError, Scope.Scope> => {
  const lockFile = dataDirLockPath(dataDir)
  const acquire = Effect.gen(function*() {
    yield* Effect.try({
      try: () => Fs.mkdirSync(Path.dirname(lockFile), { recursive: true }),
      catch: (cause) =>
        new EmbeddedPostgresError({
          dataDir,
          message: `Cannot create the data directory ${Path.resolve(dataDir)}: ${String(cause)}`,
          cause
        })
    })
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = yield* Effect.try({
        try: () => tryCreateLock(lockFile),
        catch: (cause) =>
          new EmbeddedPostgresError({ dataDir, message: `Cannot lock ${lockFile}: ${String(cause)}`, cause })
      })
      switch (result._tag) {
        case "Acquired":
          return result.content
        case "Held":
          return yield* new DatabaseLockedError({
            dataDir: Path.resolve(dataDir),
            lockFile,
            pid: result.pid,
            message: lockedMessage(dataDir, result.pid)
          })
        case "Stale":
          if (result.pid !== null) {
            yield* Effect.logWarning(`Taking over the stale lock of ${Path.resolve(dataDir)} left by pid ${result.pid}`)
          }
      }
    }
    return yield* new EmbeddedPostgresError({
      dataDir,
      message: `Cannot lock ${lockFile}: it keeps changing`,
      cause: undefined
    })
  })
  return Effect.acquireRelease(acquire, (content) => Effect.sync(() => releaseLock(lockFile, content.token))).pipe(
    Effect.map((content): DataDirLock => ({
      publish: (server) =>
        Effect.try({
          try: () => rewriteLock(lockFile, { ...content, server }),
          catch: (cause) =>
            new EmbeddedPostgresError({ dataDir, message: `Cannot write ${lockFile}: ${String(cause)}`, cause })
        })
    }))
  )
}

/**
 * The process holding `dataDir` and where it serves the database, when its lock says so, it runs
 * on this host, and this user can read the lock; else undefined (a free directory, a stale lock,
 * a holder still starting). Internal plumbing of the embedded database.
 */
export const dataDirHolder = (
  dataDir: string
): Effect.Effect<{ readonly pid: number; readonly server: DataDirServer } | undefined> =>
  Effect.sync(() => {
    const lockFile = dataDirLockPath(dataDir)
    let holder: LockContent | undefined
    try {
      holder = readLock(lockFile)?.content
    } catch {
      return undefined // unreadable: another user's
    }
    return holder?.server !== undefined && holder.hostname === Os.hostname() && isHolderAlive(lockFile, holder)
      ? { pid: holder.pid, server: holder.server }
      : undefined
  })
