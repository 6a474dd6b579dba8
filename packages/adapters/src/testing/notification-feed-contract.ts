/** The contract suite of `NotificationFeed` (documented on `notificationFeedContract`). */
import { assert, layer } from "@effect/vitest"
import { type AccountRepository, type NotificationChannels, UserRepository } from "@wasl/core/Accounts"
import { Transactor } from "@wasl/core/Deployment"
import { NotificationFeed, NotificationRepository } from "@wasl/core/Notifications"
import { DateTime, Duration, Effect, Fiber, type Layer, Option, Queue, Stream } from "effect"
import { newAccount } from "./outbox-contract.ts"

/** What the layer under `notificationFeedContract` provides. */
export type NotificationFeedContractServices =
  | NotificationFeed
  | NotificationRepository
  | AccountRepository
  | UserRepository
  | Transactor

const ALL_ON: NotificationChannels = { stored: true, popup: true, browser: true, email: false }

let users = 0
const newMember = (accountId: number) =>
  Effect.gen(function*() {
    users += 1
    const repo = yield* UserRepository
    const user = yield* Effect.orDie(repo.create({
      email: `feed-${users}-${globalThis.crypto.randomUUID()}@example.test`,
      passwordHash: "x",
      firstname: "F",
      lastname: "F"
    }))
    yield* repo.addMembership(accountId, user.id)
    return user.id
  })

const store = (accountId: number, userId: number, channels: NotificationChannels) =>
  Effect.flatMap(DateTime.now, (now) =>
    NotificationRepository.use((repo) =>
      repo.insert({ accountId, userId, type: "WebhookDeactivated", data: { n: users }, channels, email: null, now })
    ))

/**
 * The `NotificationFeed` contract, over the feed and Wasl's `NotificationRepository` of the same
 * storage (whose inserts it is told of): a subscriber is told the id of each popup or browser
 * notification of its own user in its own account once the insert commits, never for one rolled
 * back, one with both channels off, another user's or another account's; the repository finds it.
 */
export const notificationFeedContract = <E>(
  name: string,
  implementation: Layer.Layer<NotificationFeedContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("tells a user of their own popup and browser notifications, once committed", () =>
      Effect.gen(function*() {
        const transactor = yield* Transactor
        const repo = yield* NotificationRepository
        const accountId = yield* newAccount
        const otherAccountId = yield* newAccount
        const userId = yield* newMember(accountId)
        const colleague = yield* newMember(accountId)
        yield* Effect.orDie(UserRepository.use((r) => r.addMembership(otherAccountId, userId)))

        const ids = yield* NotificationFeed.use((feed) => feed.subscribe(accountId, userId))
        const received = yield* Queue.unbounded<number>()
        yield* Effect.forkScoped(Stream.runForEach(ids, (id) => Queue.offer(received, id)))

        yield* transactor.transaction(Effect.andThen(store(accountId, userId, ALL_ON), Effect.fail("no"))).pipe(Effect.ignore)
        yield* transactor.transaction(Effect.gen(function*() {
          yield* store(accountId, userId, ALL_ON)
          yield* Effect.sleep(Duration.millis(100))
          assert.strictEqual(yield* Queue.size(received), 0, "not told before the commit")
        }))
        yield* store(accountId, userId, { ...ALL_ON, popup: false, browser: false })
        yield* store(accountId, userId, { ...ALL_ON, stored: false, popup: false })
        yield* store(accountId, colleague, ALL_ON)
        yield* store(otherAccountId, userId, ALL_ON)

        const first = yield* Queue.take(received)
        const second = yield* Queue.take(received)
        yield* Effect.sleep(Duration.millis(300))
        assert.strictEqual(yield* Queue.size(received), 0, "nothing else: not the rolled back, silenced, colleague's or other account's")
        const live = yield* repo.listLiveAfter(accountId, userId, 0, 10)
        assert.deepStrictEqual([first, second], live.map((n) => n.id))
        assert.isTrue(Option.isSome(yield* repo.findLive(accountId, userId, second)))
        assert.isTrue(Option.isNone(yield* repo.findLive(accountId, colleague, second)), "another user's id is not found")
      }).pipe(Effect.scoped))

    it.effect("what a stream missed: the newest unread popup or browser ones after an id, oldest first", () =>
      Effect.gen(function*() {
        const repo = yield* NotificationRepository
        const accountId = yield* newAccount
        const userId = yield* newMember(accountId)
        for (let i = 0; i < 3; i++) yield* store(accountId, userId, ALL_ON)
        yield* store(accountId, userId, { ...ALL_ON, popup: false, browser: false })
        const ids = (yield* repo.listLiveAfter(accountId, userId, 0, 10)).map((n) => n.id)
        assert.strictEqual(ids.length, 3, "the silenced one is left out")
        const [a, b, c] = ids as [number, number, number]
        assert.isTrue(a < b && b < c)
        yield* repo.markRead(accountId, userId, a, yield* DateTime.now)
        const after = (afterId: number, limit: number) =>
          Effect.map(repo.listLiveAfter(accountId, userId, afterId, limit), (found) => found.map((n) => n.id))
        assert.deepStrictEqual(yield* after(0, 10), [b, c], "a read one is not missed")
        assert.deepStrictEqual(yield* after(0, 1), [c], "the newest within the limit")
        assert.deepStrictEqual(yield* after(b, 10), [c])
        assert.deepStrictEqual(yield* Effect.map(repo.listLiveAfter(accountId, userId + 1, 0, 10), (f) => f.length), 0)
      }))

    it.effect("a subscription's stream ends with its scope", () =>
      Effect.gen(function*() {
        const accountId = yield* newAccount
        const userId = yield* newMember(accountId)
        const fiber = yield* Effect.scoped(Effect.gen(function*() {
          const ids = yield* NotificationFeed.use((feed) => feed.subscribe(accountId, userId))
          return yield* Effect.forkDetach(Stream.runDrain(ids))
        }))
        yield* Fiber.await(fiber).pipe(Effect.timeout(Duration.seconds(5)))
      }))
  })
