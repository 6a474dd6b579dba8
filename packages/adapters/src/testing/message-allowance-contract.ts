/** The contract suite of `MessageAllowanceLedger` (documented on `messageAllowanceLedgerContract`). */
import { expect, layer } from "@effect/vitest"
import { AccountRepository, MessageAllowanceLedger } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"

/** What the layer under `messageAllowanceLedgerContract` provides. */
export type MessageAllowanceLedgerContractServices = MessageAllowanceLedger | AccountRepository | Transactor

const MARCH = DateTime.makeUnsafe("2031-03-01T00:00:00.000Z")
const APRIL = DateTime.makeUnsafe("2031-04-01T00:00:00.000Z")

const newAccount = (plan: "free" | "custom" = "free") =>
  AccountRepository.use((accounts) =>
    accounts.create({ name: "Allowance", plan, webhookLimit: null, otpCredits: 0 }).pipe(Effect.map((a) => a.id))
  )

const usedIn = (accountId: number, month: DateTime.Utc) =>
  MessageAllowanceLedger.use((ledger) => ledger.read(accountId, month)).pipe(
    Effect.map(Option.match({ onNone: () => -1, onSome: (c) => c.used }))
  )

/**
 * The `MessageAllowanceLedger` contract: the same tests over every implementation (memory,
 * PGlite, PostgreSQL, or yours).
 *
 * - Messages are used one at a time up to the limit the caller gives, per account and month;
 *   a limit of 0 allows none; an unknown account none. `useUpTo` takes as many at once as the
 *   limit still allows, and racing ones together never pass it.
 * - Racing uses, alone or each in its own transaction, never pass the limit: exactly `limit`
 *   succeed.
 * - A message given back frees one, never below zero; another month and another account keep
 *   their own counts.
 * - `read` answers the plan, the custom limit and the month's count; none for an unknown account;
 *   `setCustomLimit` sets and clears the custom limit.
 *
 * Every test makes its own accounts and never assumes an empty store. Call it at the top level of
 * a vitest test file (it uses `@effect/vitest`).
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `MessageAllowanceLedger` (under test), `AccountRepository` and `Transactor`.
 */
export const messageAllowanceLedgerContract = <E>(
  name: string,
  implementation: Layer.Layer<MessageAllowanceLedgerContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("uses one message at a time up to the limit, per account and month", () =>
      Effect.gen(function*() {
        const ledger = yield* MessageAllowanceLedger
        const id = yield* newAccount()
        expect(yield* ledger.use(id, MARCH, 2)).toBe(true)
        expect(yield* ledger.use(id, MARCH, 2)).toBe(true)
        expect(yield* ledger.use(id, MARCH, 2)).toBe(false)
        expect(yield* usedIn(id, MARCH)).toBe(2)
        // A new month starts from zero; another account has its own count.
        expect(yield* ledger.use(id, APRIL, 2)).toBe(true)
        expect(yield* usedIn(id, APRIL)).toBe(1)
        const other = yield* newAccount()
        expect(yield* ledger.use(other, MARCH, 1)).toBe(true)
        expect(yield* usedIn(id, MARCH)).toBe(2)
        // A raised limit lets more through; a limit of 0, or an unknown account, none.
        expect(yield* ledger.use(id, MARCH, 3)).toBe(true)
        const none = yield* newAccount()
        expect(yield* ledger.use(none, MARCH, 0)).toBe(false)
        expect(yield* usedIn(none, MARCH)).toBe(0)
        expect(yield* ledger.use(987_654_321, MARCH, 5)).toBe(false)
      }))

    it.effect("uses many at once as far as the limit allows, never past it when such uses race", () =>
      Effect.gen(function*() {
        const ledger = yield* MessageAllowanceLedger
        const transactor = yield* Transactor
        const id = yield* newAccount()
        expect(yield* ledger.useUpTo(id, MARCH, 10, 4)).toBe(4)
        expect(yield* ledger.use(id, MARCH, 10)).toBe(true)
        expect(yield* ledger.useUpTo(id, MARCH, 10, 9)).toBe(5)
        expect(yield* ledger.useUpTo(id, MARCH, 10, 1)).toBe(0)
        expect(yield* usedIn(id, MARCH)).toBe(10)
        expect(yield* ledger.useUpTo(id, APRIL, 10, 0)).toBe(0)
        expect(yield* ledger.useUpTo(id, APRIL, 0, 3)).toBe(0)
        expect(yield* ledger.useUpTo(987_654_321, MARCH, 5, 5)).toBe(0)

        const racing = yield* newAccount()
        const taken = yield* Effect.all(
          Array.from({ length: 12 }, () => transactor.transaction(ledger.useUpTo(racing, MARCH, 25, 3))),
          { concurrency: "unbounded" }
        )
        expect(taken.reduce((a, b) => a + b, 0)).toBe(25)
        expect(yield* usedIn(racing, MARCH)).toBe(25)
      }))

    it.effect("never passes the limit when uses race, alone or each in its own transaction", () =>
      Effect.gen(function*() {
        const ledger = yield* MessageAllowanceLedger
        const transactor = yield* Transactor
        const alone = yield* newAccount()
        const results = yield* Effect.all(Array.from({ length: 25 }, () => ledger.use(alone, MARCH, 7)), {
          concurrency: "unbounded"
        })
        expect(results.filter((ok) => ok)).toHaveLength(7)
        expect(yield* usedIn(alone, MARCH)).toBe(7)

        const inTransactions = yield* newAccount()
        const used = yield* Effect.all(
          Array.from({ length: 12 }, () => transactor.transaction(ledger.use(inTransactions, MARCH, 5))),
          { concurrency: "unbounded" }
        )
        expect(used.filter((ok) => ok)).toHaveLength(5)
        expect(yield* usedIn(inTransactions, MARCH)).toBe(5)
      }))

    it.effect("gives a message back, never below zero, and only in its own month and account", () =>
      Effect.gen(function*() {
        const ledger = yield* MessageAllowanceLedger
        const id = yield* newAccount()
        expect(yield* ledger.use(id, MARCH, 1)).toBe(true)
        expect(yield* ledger.use(id, APRIL, 1)).toBe(true)
        yield* ledger.giveBack(id, MARCH)
        expect(yield* usedIn(id, MARCH)).toBe(0)
        expect(yield* usedIn(id, APRIL)).toBe(1)
        yield* ledger.giveBack(id, MARCH)
        yield* ledger.giveBack(id, DateTime.makeUnsafe("2031-05-01T00:00:00.000Z"))
        expect(yield* usedIn(id, MARCH)).toBe(0)
        expect(yield* ledger.use(id, MARCH, 1)).toBe(true)
      }))

    it.effect("reads the plan, the custom limit and the count; sets and clears the custom limit", () =>
      Effect.gen(function*() {
        const ledger = yield* MessageAllowanceLedger
        const id = yield* newAccount("custom")
        expect(yield* ledger.read(id, MARCH)).toEqual(Option.some({ plan: "custom", customLimit: null, used: 0 }))
        expect(yield* ledger.setCustomLimit(id, 250)).toBe(true)
        expect(yield* ledger.use(id, MARCH, 250)).toBe(true)
        expect(yield* ledger.read(id, MARCH)).toEqual(Option.some({ plan: "custom", customLimit: 250, used: 1 }))
        expect(yield* ledger.setCustomLimit(id, null)).toBe(true)
        expect(yield* ledger.read(id, MARCH)).toEqual(Option.some({ plan: "custom", customLimit: null, used: 1 }))
        expect(yield* ledger.read(987_654_321, MARCH)).toEqual(Option.none())
        expect(yield* ledger.setCustomLimit(987_654_321, 5)).toBe(false)
      }))
  })
