/** The contract suite of `PropertyHistoryRepository` (documented on `propertyHistoryRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { type HistoryEntry, PropertyHistoryRepository } from "@wasl/core/Records"
import { Retention } from "@wasl/core/Retention"
import { makeRecordId } from "@wasl/core/Wire"
import { DateTime, Duration, Effect, Exit, type Layer } from "effect"

/** What the layer under `propertyHistoryRepositoryContract` provides. */
export type PropertyHistoryRepositoryContractServices = PropertyHistoryRepository | AccountRepository | Retention | Transactor

const T0 = DateTime.makeUnsafe("2032-05-06T07:08:09.123Z")
const at = (seconds: number) => DateTime.addDuration(T0, Duration.seconds(seconds))

const newId = () => makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8)))

const newAccount = Effect.map(
  AccountRepository.use((accounts) => accounts.create({ name: "History", plan: "business", webhookLimit: null, otpCredits: 0 })),
  (account) => account.id
)

const entry = (accountId: number, recordId: string, property: string, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  _id: newId(),
  accountId,
  kind: "deal",
  recordId,
  property,
  value: "new",
  previousValue: null,
  source: "api",
  userId: null,
  changedAt: T0,
  ...overrides
})

const page = (accountId: number, recordId: string, options: { property?: string; page?: number; perPage?: number } = {}) =>
  PropertyHistoryRepository.use((repo) =>
    repo.page({ accountId, kind: "deal", recordId, page: options.page ?? 1, perPage: options.perPage ?? 15, property: options.property })
  )

const ids = (rows: ReadonlyArray<HistoryEntry>) => rows.map((row) => row._id)

/**
 * The contract of `PropertyHistoryRepository` over every implementation (memory, PGlite,
 * PostgreSQL, or yours): entries read back as appended, every stored form of a value and null
 * included; a record's page is newest first (by `changedAt`, then the later appended first), of
 * one property when asked, with the total; nothing reaches another account, kind or record; a
 * purge deletes one record's entries; the retention (kind `history`) deletes the oldest entries
 * changed before its cutoff; a failed transaction stores nothing.
 *
 * Call it at the top level of a vitest test file; each test makes its own accounts.
 *
 * @param name The name of the `describe` block.
 * @param implementation Provides `PropertyHistoryRepository`, `AccountRepository`, `Retention` and `Transactor`.
 */
export const propertyHistoryRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<PropertyHistoryRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores entries as appended, each stored form of a value and null", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyHistoryRepository
        const accountId = yield* newAccount
        const recordId = newId()
        const written = [
          entry(accountId, recordId, "deal_name", { value: "Acme", previousValue: null, userId: 7, source: "import" }),
          entry(accountId, recordId, "amount", { value: 1500.5, previousValue: 1000, source: "batch" }),
          entry(accountId, recordId, "closed", { value: true, previousValue: false, source: "system" }),
          entry(accountId, recordId, "tags", { value: ["a", "b"], previousValue: ["a"], source: "merge" }),
          entry(accountId, recordId, "next_steps", { value: null, previousValue: "Call", source: "restore" })
        ]
        yield* repo.append(written)
        const read = yield* page(accountId, recordId)
        assert.strictEqual(read.total, 5)
        assert.deepStrictEqual(read.rows.map((row) => ({ ...row, changedAt: DateTime.formatIso(row.changedAt) })), written.reverse().map(
          (row) => ({ ...row, changedAt: DateTime.formatIso(row.changedAt) })
        ))
      }))

    it.effect("a page is newest first, then the later appended first; one property when asked; paginated with the total", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyHistoryRepository
        const accountId = yield* newAccount
        const recordId = newId()
        const first = entry(accountId, recordId, "amount", { changedAt: at(1), value: 1 })
        const second = entry(accountId, recordId, "deal_name", { changedAt: at(1) })
        const latest = entry(accountId, recordId, "amount", { changedAt: at(5), value: 2, previousValue: 1 })
        // An older change appended later still reads older.
        const older = entry(accountId, recordId, "amount", { changedAt: at(0), value: 0 })
        yield* repo.append([first, second])
        yield* repo.append([latest])
        yield* repo.append([older])
        assert.deepStrictEqual(ids((yield* page(accountId, recordId)).rows), ids([latest, second, first, older]))
        const amounts = yield* page(accountId, recordId, { property: "amount" })
        assert.deepStrictEqual(ids(amounts.rows), ids([latest, first, older]))
        assert.strictEqual(amounts.total, 3)
        const two = yield* page(accountId, recordId, { page: 2, perPage: 3 })
        assert.deepStrictEqual(ids(two.rows), ids([older]))
        assert.strictEqual(two.total, 4)
        const beyond = yield* page(accountId, recordId, { page: 3, perPage: 3 })
        assert.deepStrictEqual(beyond.rows, [])
        assert.strictEqual(beyond.total, 4)
        assert.strictEqual((yield* page(accountId, recordId, { property: "unknown" })).total, 0)
      }))

    it.effect("nothing reaches another account, kind or record; a purge deletes one record's entries", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyHistoryRepository
        const accountId = yield* newAccount
        const otherAccount = yield* newAccount
        const recordId = newId()
        const otherRecord = newId()
        yield* repo.append([
          entry(accountId, recordId, "amount"),
          entry(accountId, otherRecord, "amount"),
          entry(accountId, recordId, "amount", { kind: "ticket" }),
          entry(otherAccount, recordId, "amount")
        ])
        assert.strictEqual((yield* page(accountId, recordId)).total, 1)
        assert.strictEqual((yield* page(otherAccount, recordId)).total, 1)
        assert.strictEqual(yield* repo.purge(accountId, "deal", recordId), 1)
        assert.strictEqual((yield* page(accountId, recordId)).total, 0)
        assert.strictEqual((yield* page(accountId, otherRecord)).total, 1)
        assert.strictEqual((yield* page(otherAccount, recordId)).total, 1)
        const ticket = yield* repo.page({ accountId, kind: "ticket", recordId, page: 1, perPage: 15 })
        assert.strictEqual(ticket.total, 1)
        assert.strictEqual(yield* repo.purge(accountId, "deal", recordId), 0)
      }))

    it.effect("the retention deletes the oldest entries changed before its cutoff, at most the limit a batch", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyHistoryRepository
        const retention = yield* Retention
        // Long before every other test's entries, so the cutoffs leave those alone.
        const old = (seconds: number) => DateTime.addDuration(DateTime.makeUnsafe("2001-01-01T00:00:00.000Z"), Duration.seconds(seconds))
        const accountId = yield* newAccount
        const recordId = newId()
        const kept = entry(accountId, recordId, "amount", { changedAt: old(20) })
        const second = entry(accountId, recordId, "amount", { changedAt: old(3) })
        yield* repo.append([second, kept, entry(accountId, recordId, "deal_name", { changedAt: old(2) })])
        assert.strictEqual(yield* retention.pruneBatch("history", old(10), 1), 1)
        assert.deepStrictEqual(ids((yield* page(accountId, recordId)).rows), ids([kept, second]))
        assert.strictEqual(yield* retention.pruneBatch("history", old(10), 5), 1)
        assert.strictEqual(yield* retention.pruneBatch("history", old(10), 5), 0)
        assert.deepStrictEqual(ids((yield* page(accountId, recordId)).rows), ids([kept]))
      }))

    it.effect("a failed transaction stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* PropertyHistoryRepository
        const accountId = yield* newAccount
        const recordId = newId()
        const exit = yield* Effect.exit((yield* Transactor).transaction(
          Effect.andThen(repo.append([entry(accountId, recordId, "amount")]), Effect.fail("rolled back"))
        ))
        assert.isTrue(Exit.isFailure(exit))
        assert.strictEqual((yield* page(accountId, recordId)).total, 0)
      }))
  })
