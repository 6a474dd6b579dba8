/** The contract suite of `ImportRepository` (documented on `importRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository, UserRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { ImportRepository } from "@wasl/core/Imports"
import { Retention } from "@wasl/core/Retention"
import { DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"
import { freshId, newAccountId } from "./record-contract-support.ts"

/** What the layer under `importRepositoryContract` provides. */
export type ImportRepositoryContractServices = ImportRepository | AccountRepository | UserRepository | Transactor | Retention

const T0 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const T1 = DateTime.makeUnsafe("2031-02-03T04:06:00.000Z")
const T2 = DateTime.makeUnsafe("2031-02-03T04:08:00.000Z")
/** Later than every import these tests finish. */
const END_OF_TIME = DateTime.makeUnsafe("2300-01-01T00:00:00.000Z")

let sequence = 0

/** A member of a fresh account: the account's id and the user's. */
const newUploader = Effect.gen(function*() {
  const accountId = yield* newAccountId
  const users = yield* UserRepository
  const email = `imports.${Date.now().toString(36)}.${(sequence++).toString(36)}@example.com`
  const user = yield* Effect.orDie(users.create({ email, passwordHash: "x", firstname: "A", lastname: "B" }))
  yield* users.addMembership(accountId, user.id)
  return { accountId, userId: user.id }
})

/** A new import of three staged contact rows (lines 2, 3, 4), created at `at` by `uploader` (a new account's by default). */
const staged = (at: DateTime.Utc = T0, uploader?: { readonly accountId: number; readonly userId: number }) =>
  Effect.gen(function*() {
    const repo = yield* ImportRepository
    const { accountId, userId } = uploader ?? (yield* newUploader)
    const id = freshId()
    yield* repo.create({ id, accountId, userId, kind: "contact", fileName: "people.csv", columns: ["firstname", "email"], now: at })
    yield* repo.appendRows(accountId, id, [
      { line: 2, cells: ["Amal", "amal@example.com"] },
      { line: 3, cells: ["Omar, Jr.", "not an email"] }
    ])
    yield* repo.appendRows(accountId, id, [{ line: 4, cells: ["Lina\nHaddad", ""] }])
    yield* repo.setStaged(accountId, id, 3, "email")
    return { accountId, userId, id }
  })

/** Claims imports until none is left; answers the ids claimed. */
const claimAll = (now: DateTime.Utc, until: DateTime.Utc) =>
  Effect.gen(function*() {
    const repo = yield* ImportRepository
    const ids: Array<string> = []
    while (true) {
      const claimed = yield* repo.claim(now, until)
      if (Option.isNone(claimed)) return ids
      ids.push(claimed.value.id)
    }
  })

/** Claims every import still waiting (left by earlier tests on the same database) and finishes it. */
const finishWaiting = Effect.gen(function*() {
  const repo = yield* ImportRepository
  while (true) {
    const claimed = yield* repo.claim(END_OF_TIME, DateTime.addDuration(END_OF_TIME, Duration.minutes(1)))
    if (Option.isNone(claimed)) return
    yield* repo.finish(claimed.value.accountId, claimed.value.id, "completed", null, END_OF_TIME)
  }
})

const at = (base: DateTime.Utc, seconds: number) => DateTime.addDuration(base, Duration.seconds(seconds))

/**
 * The contract of `ImportRepository` over every implementation (memory, PGlite, PostgreSQL, or
 * yours): an import is stored `queued` with its staged rows, reached only through its account;
 * rows are read by line from a place on; a batch's progress moves the place and the counts,
 * keeps the refused rows' messages and drops the others — refused when the place moved meanwhile —
 * and lets the import go; a claim takes a waiting import once until its claim runs out; accounts
 * take turns (claims alternate between accounts a batch each, an account's imports go oldest
 * first, and while an account's import is held the others' come first); a finished import is never
 * claimed; a failed transaction stages nothing; retention (`Retention`, kind `imports`) deletes
 * finished imports with their rows once they finished before the cutoff, never a waiting one.
 *
 * Claims reach across accounts: the suite finishes every import it claims, and its tests only
 * look for their own imports among those claimed.
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `ImportRepository` (under test), `AccountRepository` and
 *   `UserRepository` (to make accounts and uploaders), `Transactor` and `Retention`.
 */
export const importRepositoryContract = <E>(name: string, implementation: Layer.Layer<ImportRepositoryContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores an import queued with its rows, in its account only", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        const { accountId, id, userId } = yield* staged()
        const job = Option.getOrThrow(yield* repo.find(accountId, id))
        assert.deepInclude(job, {
          id,
          accountId,
          userId,
          kind: "contact",
          status: "queued",
          fileName: "people.csv",
          matchOn: "email",
          rowsTotal: 3,
          nextLine: 2,
          rowsRead: 0,
          created: 0,
          updated: 0,
          failed: 0,
          reason: null,
          finishedAt: null
        })
        assert.deepStrictEqual(job.columns, ["firstname", "email"])
        assert.strictEqual(DateTime.toEpochMillis(job.createdAt), DateTime.toEpochMillis(T0))
        assert.deepStrictEqual(yield* repo.rows(accountId, id, 3, 10), [
          { line: 3, cells: ["Omar, Jr.", "not an email"] },
          { line: 4, cells: ["Lina\nHaddad", ""] }
        ])
        assert.deepStrictEqual((yield* repo.rows(accountId, id, 2, 1)).map((r) => r.line), [2])
        const other = yield* newAccountId
        assert.isTrue(Option.isNone(yield* repo.find(other, id)))
        assert.deepStrictEqual(yield* repo.rows(other, id, 2, 10), [])
        assert.deepStrictEqual(yield* repo.failedRows(other, id, 0, 10), [])
        yield* repo.finish(accountId, id, "completed", null, T1)
      }))

    it.effect("a batch moves the place and counts, keeps refused rows with their messages, drops the others", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        const { accountId, id } = yield* staged()
        const errors = { email: ["The email field must be a valid email address."] }
        const progress = { from: 2, nextLine: 4, created: 1, updated: 0, failures: [{ line: 3, errors }], now: T1 }
        assert.isTrue(yield* repo.advance(accountId, id, progress))
        const job = Option.getOrThrow(yield* repo.find(accountId, id))
        assert.deepInclude(job, { nextLine: 4, rowsRead: 2, created: 1, updated: 0, failed: 1 })
        assert.deepStrictEqual(yield* repo.rows(accountId, id, 2, 10), [
          { line: 3, cells: ["Omar, Jr.", "not an email"] },
          { line: 4, cells: ["Lina\nHaddad", ""] }
        ])
        assert.deepStrictEqual(yield* repo.failedRows(accountId, id, 0, 10), [{ line: 3, cells: ["Omar, Jr.", "not an email"], errors }])
        assert.deepStrictEqual(yield* repo.failedRows(accountId, id, 3, 10), [])
        // A second writer of the same batch (its claim ran out meanwhile) is refused, and changes nothing.
        assert.isFalse(yield* repo.advance(accountId, id, { ...progress, created: 5, failures: [] }))
        assert.deepInclude(Option.getOrThrow(yield* repo.find(accountId, id)), { nextLine: 4, created: 1, failed: 1 })
        yield* repo.advance(accountId, id, { ...progress, from: 4, nextLine: 5, created: 0, updated: 1, failures: [] })
        assert.deepInclude(Option.getOrThrow(yield* repo.find(accountId, id)), { nextLine: 5, rowsRead: 3, updated: 1 })
        yield* repo.finish(accountId, id, "completed", null, T2)
        const done = Option.getOrThrow(yield* repo.find(accountId, id))
        assert.strictEqual(done.status, "completed")
        assert.strictEqual(DateTime.toEpochMillis(done.finishedAt!), DateTime.toEpochMillis(T2))
      }))

    it.effect("a claim takes a waiting import once, again when its claim ran out, never when finished", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        const first = yield* staged(T0)
        const second = yield* staged(T1)
        const claimed = yield* claimAll(T1, T2)
        assert.isTrue(claimed.indexOf(first.id) >= 0 && claimed.indexOf(first.id) < claimed.indexOf(second.id), "oldest first")
        assert.strictEqual(Option.getOrThrow(yield* repo.find(first.accountId, first.id)).status, "running")
        // Claimed until T2: not before.
        assert.notInclude(yield* claimAll(T1, T2), first.id)
        // Its worker died: once the claim ran out, another claims it.
        yield* repo.finish(second.accountId, second.id, "failed", "the property email no longer exists.", T1)
        const again = yield* claimAll(T2, DateTime.addDuration(T2, Duration.minutes(1)))
        assert.include(again, first.id)
        assert.notInclude(again, second.id)
        const failed = Option.getOrThrow(yield* repo.find(second.accountId, second.id))
        assert.deepInclude(failed, { status: "failed", reason: "the property email no longer exists." })
        yield* repo.finish(first.accountId, first.id, "completed", null, T2)
        assert.notInclude(yield* claimAll(DateTime.addDuration(T2, Duration.hours(1)), DateTime.addDuration(T2, Duration.hours(2))), first.id)
      }))

    it.effect("claims take turns between accounts, a batch each; an account's imports go oldest first", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        yield* finishWaiting
        const a = yield* newUploader
        const a1 = yield* staged(T0, a)
        const a2 = yield* staged(at(T0, 1), a)
        const b1 = yield* staged(at(T0, 2))
        const c1 = yield* staged(at(T0, 3))
        const names = new Map<string, string>([[a1.id, "a1"], [a2.id, "a2"], [b1.id, "b1"], [c1.id, "c1"]])
        // A worker's round: it claims, writes one line as its batch, and lets the import go.
        const round = (now: DateTime.Utc) =>
          Effect.gen(function*() {
            const job = Option.getOrThrow(yield* repo.claim(now, DateTime.addDuration(now, Duration.minutes(1))))
            const batch = { from: job.nextLine, nextLine: job.nextLine + 1, created: 1, updated: 0, failures: [], now: at(now, 0.5) }
            assert.isTrue(yield* repo.advance(job.accountId, job.id, batch))
            return names.get(job.id)
          })
        const order: Array<string | undefined> = []
        for (let i = 0; i < 6; i++) order.push(yield* round(at(T1, i)))
        // A's second import waits for its first: the account has one turn however many it uploads.
        assert.deepStrictEqual(order, ["a1", "b1", "c1", "a1", "b1", "c1"])
        assert.deepInclude(Option.getOrThrow(yield* repo.find(a1.accountId, a1.id)), { status: "running", nextLine: 4, created: 2 })
        for (const job of [a1, a2, b1, c1]) yield* repo.finish(job.accountId, job.id, "completed", null, T2)
      }))

    it.effect("while an account's import is held, claims take other accounts' first, then its others, oldest first", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        yield* finishWaiting
        const a = yield* newUploader
        const a1 = yield* staged(T0, a)
        const a2 = yield* staged(at(T0, 1), a)
        const claim = (now: DateTime.Utc) =>
          Effect.map(repo.claim(now, DateTime.addDuration(now, Duration.minutes(1))), Option.map((job) => job.id))
        assert.deepStrictEqual(yield* claim(T1), Option.some(a1.id))
        // Uploaded while A's first is being written: A's third waits behind B's, uploaded later.
        const a3 = yield* staged(at(T1, 1), a)
        const b1 = yield* staged(at(T1, 2))
        assert.deepStrictEqual(yield* claim(at(T1, 3)), Option.some(b1.id))
        // No other account waits: a second worker writes A's next import meanwhile.
        assert.deepStrictEqual(yield* claim(at(T1, 4)), Option.some(a2.id))
        assert.deepStrictEqual(yield* claim(at(T1, 5)), Option.some(a3.id))
        assert.isTrue(Option.isNone(yield* claim(at(T1, 6))))
        for (const job of [a1, a2, a3, b1]) yield* repo.finish(job.accountId, job.id, "completed", null, T2)
      }))

    it.effect("a failed transaction stages nothing", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        const transactor = yield* Transactor
        const { accountId, userId } = yield* newUploader
        const id = freshId()
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* repo.create({ id, accountId, userId, kind: "deal", fileName: "deals.csv", columns: ["deal_name"], now: T0 })
          yield* repo.appendRows(accountId, id, [{ line: 2, cells: ["Renewal"] }])
          return yield* Effect.fail("the file is not valid CSV")
        })))
        assert.isTrue(Exit.isFailure(exit))
        assert.isTrue(Option.isNone(yield* repo.find(accountId, id)))
      }))

    it.effect("retention deletes finished imports with their rows, oldest first; never a waiting one", () =>
      Effect.gen(function*() {
        const repo = yield* ImportRepository
        const prune = (cutoff: DateTime.Utc, limit: number) => Retention.use((r) => r.pruneBatch("imports", cutoff, limit))
        while ((yield* prune(END_OF_TIME, 1000)) > 0) {
          // finished imports left by earlier tests
        }
        const completed = yield* staged()
        const failed = yield* staged()
        const waiting = yield* staged()
        yield* repo.advance(failed.accountId, failed.id, {
          from: 2,
          nextLine: 3,
          created: 0,
          updated: 0,
          failures: [{ line: 2, errors: { email: ["The email field is required."] } }],
          now: T1
        })
        yield* repo.finish(completed.accountId, completed.id, "completed", null, T1)
        yield* repo.finish(failed.accountId, failed.id, "failed", "stopped", T2)
        const exists = (i: { readonly accountId: number; readonly id: string }) => Effect.map(repo.find(i.accountId, i.id), Option.isSome)

        assert.strictEqual(yield* prune(T1, 10), 0)
        assert.strictEqual(yield* prune(T2, 10), 1)
        assert.deepStrictEqual([yield* exists(completed), yield* exists(failed)], [false, true])
        assert.deepStrictEqual(yield* repo.rows(completed.accountId, completed.id, 2, 10), [])
        assert.strictEqual(yield* prune(END_OF_TIME, 1), 1)
        assert.strictEqual(yield* prune(END_OF_TIME, 1), 0)
        assert.isFalse(yield* exists(failed))
        assert.deepStrictEqual(yield* repo.failedRows(failed.accountId, failed.id, 0, 10), [])
        assert.isTrue(yield* exists(waiting))
        assert.strictEqual((yield* repo.rows(waiting.accountId, waiting.id, 2, 10)).length, 3)
        yield* repo.finish(waiting.accountId, waiting.id, "completed", null, T2)
      }))
  })
