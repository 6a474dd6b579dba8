/** The contract suite of `PipelineRepository` (documented on `pipelineRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { DEFAULT_PIPELINE_ID, type Pipeline, PipelineRepository } from "@wasl/core/Records"
import { makeRecordId } from "@wasl/core/Wire"
import { DateTime, Duration, Effect, Exit, type Layer } from "effect"

/** What the layer under `pipelineRepositoryContract` provides. */
export type PipelineRepositoryContractServices = PipelineRepository | AccountRepository | Transactor

const T1 = DateTime.makeUnsafe("2031-02-03T04:05:06.789Z")
const T2 = DateTime.makeUnsafe("2031-02-03T04:05:07.123Z")

const newId = () => makeRecordId(Date.now() / 1000, globalThis.crypto.getRandomValues(new Uint8Array(8)))

const newAccount = Effect.map(
  Effect.flatMap(AccountRepository, (accounts) => accounts.create({ name: "Pipelines", plan: "business", webhookLimit: null, otpCredits: 0 })),
  (account) => account.id
)

const pipeline = (accountId: number, overrides: Partial<Pipeline> = {}): Pipeline => ({
  _id: newId(),
  kind: "deal",
  account_id: accountId,
  name: { en: "Renewals", ar: "التجديدات" },
  stages: [
    { internal_name: "renewal_due", name: { en: "Due" }, probability: 0.5, closed: false, won: false },
    { internal_name: "renewed", name: { en: "Renewed", ar: "جُدّد" }, probability: 1, closed: true, won: true }
  ],
  created_at: T1,
  updated_at: T1,
  ...overrides
})

/**
 * The contract of `PipelineRepository` over every implementation (memory, PGlite, PostgreSQL, or
 * yours): pipelines read back as saved, oldest first; a save under a stored `_id` replaces its name
 * and stages and keeps its `created_at`; the default pipeline is stored under `default`; nothing
 * reaches another account or kind; a failed transaction stores nothing.
 *
 * Call it at the top level of a vitest test file; each test makes its own accounts.
 *
 * @param name The name of the `describe` block.
 * @param implementation Provides `PipelineRepository`, `AccountRepository` and `Transactor`.
 */
export const pipelineRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<PipelineRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores pipelines and lists them oldest first, as saved", () =>
      Effect.gen(function*() {
        const repo = yield* PipelineRepository
        const accountId = yield* newAccount
        const later = pipeline(accountId, { created_at: T2, updated_at: T2, name: { en: "Later" } })
        const first = pipeline(accountId)
        yield* repo.save(later)
        yield* repo.save(first)
        assert.deepStrictEqual(yield* repo.list(accountId, "deal"), [first, later])
        assert.deepStrictEqual(yield* repo.list(accountId, "ticket"), [])
      }))

    it.effect("a save under a stored id replaces name and stages and keeps created_at; the default is stored as default", () =>
      Effect.gen(function*() {
        const repo = yield* PipelineRepository
        const accountId = yield* newAccount
        const own = pipeline(accountId, { _id: DEFAULT_PIPELINE_ID, kind: "ticket", stages: [{ internal_name: "open", name: { en: "Open" }, closed: false }] })
        yield* repo.save(own)
        const changed: Pipeline = {
          ...own,
          name: { ar: "الدعم" },
          stages: [{ internal_name: "triage", name: { en: "Triage" }, closed: false }, ...own.stages],
          created_at: T2,
          updated_at: T2
        }
        yield* repo.save(changed)
        assert.deepStrictEqual(yield* repo.list(accountId, "ticket"), [{ ...changed, created_at: T1 }])
      }))

    it.effect("never reaches another account or kind; delete says whether there was one", () =>
      Effect.gen(function*() {
        const repo = yield* PipelineRepository
        const mine = yield* newAccount
        const theirs = yield* newAccount
        const deal = pipeline(mine)
        yield* repo.save(deal)
        assert.deepStrictEqual(yield* repo.list(theirs, "deal"), [])
        assert.isFalse(yield* repo.delete(theirs, "deal", deal._id))
        assert.isFalse(yield* repo.delete(mine, "ticket", deal._id))
        assert.isTrue(yield* repo.delete(mine, "deal", deal._id))
        assert.isFalse(yield* repo.delete(mine, "deal", deal._id))
        assert.deepStrictEqual(yield* repo.list(mine, "deal"), [])
      }))

    it.effect("a failed transaction stores nothing", () =>
      Effect.gen(function*() {
        const repo = yield* PipelineRepository
        const accountId = yield* newAccount
        const exit = yield* Effect.exit((yield* Transactor).transaction(
          Effect.andThen(repo.save(pipeline(accountId)), Effect.fail("boom"))
        ))
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* repo.list(accountId, "deal"), [])
      }))
  })
