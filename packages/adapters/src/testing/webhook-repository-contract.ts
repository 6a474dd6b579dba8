/** The contract suite of `WebhookRepository` (documented on `webhookRepositoryContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { type EventName } from "@wasl/core/Records"
import { initialWebhookState, type StoredWebhook, WebhookRepository, type WebhookState } from "@wasl/core/Webhooks"
import { Cause, DateTime, Duration, Effect, Exit, type Layer, Option } from "effect"

/** What the layer under `webhookRepositoryContract` provides. */
export type WebhookRepositoryContractServices = WebhookRepository | AccountRepository | Transactor

const T0 = DateTime.makeUnsafe("2032-06-07T08:09:10.123Z")
const T1 = DateTime.makeUnsafe("2032-06-07T09:00:00.000Z")
const FAILING: WebhookState = {
  isValidated: true,
  isActive: true,
  consecutiveFailures: 2,
  lastFailureAt: DateTime.makeUnsafe("2032-06-07T08:30:00.000Z")
}

class Boom extends Error {}

const newAccount = Effect.flatMap(AccountRepository, (accounts) =>
  accounts.create({ name: "Webhooks", plan: "business", webhookLimit: null, otpCredits: 0 }).pipe(
    Effect.map((account) => account.id)
  ))

const insert = (accountId: number, events: ReadonlyArray<EventName> = ["deal-created", "deal-updated"], url = "https://hooks.example.com/a") =>
  Effect.flatMap(WebhookRepository, (repo) =>
    repo.insert({ accountId, url, secretSealed: `v1.sealed.${url}`, events, now: T0 }))

const times = (w: StoredWebhook) => ({
  createdAt: DateTime.toEpochMillis(w.createdAt),
  updatedAt: DateTime.toEpochMillis(w.updatedAt)
})

const names = (w: StoredWebhook) => w.events.map((e) => e.name)

/**
 * The contract of `WebhookRepository`, over the layer given: webhooks are stored unvalidated and
 * inactive with their subscriptions in the order given; an update changes the URL, the state and
 * `updated_at`, and replaces the subscriptions only when given (a kept name keeps its entry, a
 * dropped one goes, a new one is added); delete removes a webhook once; another account's
 * webhooks are never seen, changed or counted; `countForCreate` holds concurrent creates of an
 * account apart, so "count, then insert below a limit" never overshoots; a failed transaction
 * leaves none of its writes.
 *
 * The layer provides `WebhookRepository` and the `AccountRepository` and `Transactor` the tests
 * use to make accounts and transactions. Each test makes its own accounts, so the suite can share
 * a database with others.
 *
 * @example
 * ```ts
 * import { RepositoriesMemory } from "@wasl/adapters/memory"
 * import { webhookRepositoryContract } from "@wasl/adapters/testing"
 * import { Layer } from "effect"
 * import { SecureRandom } from "effect/crypto"
 *
 * webhookRepositoryContract("webhooks in memory", RepositoriesMemory.pipe(Layer.provide(SecureRandom.layerWebCrypto)))
 * ```
 */
export const webhookRepositoryContract = <E>(
  name: string,
  implementation: Layer.Layer<WebhookRepositoryContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("stores a webhook unvalidated and inactive, its subscriptions in order, and reads it back", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const accountId = yield* newAccount
        const stored = yield* insert(accountId, ["contact-created", "deal-created", "ticket-deleted"])
        assert.isTrue(Number.isSafeInteger(stored.id) && stored.id > 0)
        assert.deepStrictEqual(stored.state, initialWebhookState)
        assert.strictEqual(stored.accountId, accountId)
        assert.strictEqual(stored.secretSealed, "v1.sealed.https://hooks.example.com/a")
        assert.deepStrictEqual(names(stored), ["contact-created", "deal-created", "ticket-deleted"])
        assert.isTrue(stored.events.every((e) => e.webhook_id === stored.id))
        assert.strictEqual(new Set(stored.events.map((e) => e.id)).size, 3)
        assert.deepStrictEqual(times(stored), { createdAt: DateTime.toEpochMillis(T0), updatedAt: DateTime.toEpochMillis(T0) })
        assert.deepStrictEqual(yield* repo.findById(accountId, stored.id), Option.some(stored))
        assert.deepStrictEqual(yield* repo.findForUpdate(accountId, stored.id), Option.some(stored))
      }))

    it.effect("lists the account's webhooks by id and counts them", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const accountId = yield* newAccount
        const first = yield* insert(accountId)
        const second = yield* insert(accountId, ["deal-deleted"])
        assert.deepStrictEqual((yield* repo.list(accountId)).map((w) => w.id), [first.id, second.id].sort((a, b) => a - b))
        assert.strictEqual(yield* repo.countForCreate(accountId), 2)
      }))

    it.effect("an update changes the URL, the state and updated_at; subscriptions change only when given", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const accountId = yield* newAccount
        const stored = yield* insert(accountId, ["deal-created", "deal-updated"])
        const kept = stored.events.find((e) => e.name === "deal-updated")!

        const moved = Option.getOrThrow(yield* repo.update(accountId, stored.id, {
          url: "https://hooks.example.com/b",
          state: FAILING,
          now: T1
        }))
        assert.strictEqual(moved.url, "https://hooks.example.com/b")
        assert.deepStrictEqual(moved.state, FAILING)
        assert.deepStrictEqual(times(moved), { createdAt: DateTime.toEpochMillis(T0), updatedAt: DateTime.toEpochMillis(T1) })
        assert.deepStrictEqual(moved.events, stored.events)

        const resubscribed = Option.getOrThrow(yield* repo.update(accountId, stored.id, {
          url: moved.url,
          state: moved.state,
          events: ["deal-updated", "contact-deleted"],
          now: T1
        }))
        assert.sameMembers(names(resubscribed), ["deal-updated", "contact-deleted"])
        const again = resubscribed.events.find((e) => e.name === "deal-updated")!
        assert.strictEqual(again.id, kept.id, "a kept name keeps its entry")
        assert.strictEqual(DateTime.toEpochMillis(again.created_at), DateTime.toEpochMillis(kept.created_at))
        assert.deepStrictEqual(yield* repo.findById(accountId, stored.id), Option.some(resubscribed))
      }))

    it.effect("delete removes the webhook and its subscriptions once", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const accountId = yield* newAccount
        const stored = yield* insert(accountId)
        assert.isTrue(yield* repo.delete(accountId, stored.id))
        assert.isFalse(yield* repo.delete(accountId, stored.id))
        assert.isTrue(Option.isNone(yield* repo.findById(accountId, stored.id)))
        assert.deepStrictEqual(yield* repo.list(accountId), [])
        assert.isTrue(Option.isNone(yield* repo.update(accountId, stored.id, { url: stored.url, state: FAILING, now: T1 })))
      }))

    it.effect("another account's webhook is never seen, changed, deleted or counted", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const owner = yield* newAccount
        const other = yield* newAccount
        const stored = yield* insert(owner)
        assert.isTrue(Option.isNone(yield* repo.findById(other, stored.id)))
        assert.isTrue(Option.isNone(yield* repo.findForUpdate(other, stored.id)))
        assert.deepStrictEqual(yield* repo.list(other), [])
        assert.strictEqual(yield* repo.countForCreate(other), 0)
        assert.isTrue(Option.isNone(yield* repo.update(other, stored.id, { url: "https://evil.example.com", state: FAILING, now: T1 })))
        assert.isFalse(yield* repo.delete(other, stored.id))
        assert.deepStrictEqual(yield* repo.findById(owner, stored.id), Option.some(stored))
      }))

    it.effect("countForCreate holds concurrent creates apart: 8 racing 'count, then insert below 3' make exactly 3", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const create = (n: number) =>
          transactor.transaction(Effect.gen(function*() {
            if ((yield* repo.countForCreate(accountId)) >= 3) return false
            yield* insert(accountId, ["deal-created"], `https://hooks.example.com/${n}`)
            return true
          }))
        const created = yield* Effect.all(Array.from({ length: 8 }, (_, n) => create(n)), { concurrency: "unbounded" })
        assert.strictEqual(created.filter(Boolean).length, 3)
        assert.strictEqual((yield* repo.list(accountId)).length, 3)
      }))

    it.effect("a failed transaction leaves none of its inserts, updates or deletes", () =>
      Effect.gen(function*() {
        const repo = yield* WebhookRepository
        const transactor = yield* Transactor
        const accountId = yield* newAccount
        const kept = yield* insert(accountId)
        const exit = yield* Effect.exit(transactor.transaction(Effect.gen(function*() {
          yield* insert(accountId, ["deal-deleted"], "https://hooks.example.com/rolled-back")
          yield* repo.update(accountId, kept.id, { url: "https://hooks.example.com/changed", state: FAILING, now: T1 })
          yield* repo.delete(accountId, kept.id)
          return yield* Effect.die(new Boom())
        })))
        assert.isTrue(Exit.isFailure(exit) && Cause.hasDies(exit.cause))
        assert.deepStrictEqual(yield* repo.list(accountId), [kept])
      }))
  })
