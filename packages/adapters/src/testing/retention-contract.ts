/** The contract suite of `Retention` (documented on `retentionContract`). */
import { assert, layer } from "@effect/vitest"
import { AccountRepository, InvitationRepository, UserRepository } from "@wasl/core/Accounts"
import { type ClaimedDelivery, DeliveryRepository, type DeliveryState } from "@wasl/core/Deliveries"
import { IDEMPOTENCY_KEY_LIFETIME, IdempotencyStore } from "@wasl/core/Idempotency"
import { type BroadcastRepository, MessageStatusHoldRepository, type PlatformRepository } from "@wasl/core/Messaging"
import { NotificationRepository } from "@wasl/core/Notifications"
import { type OtpReservation, OtpReservationRepository, VerificationRepository } from "@wasl/core/Otp"
import { Retention, type RetentionKind } from "@wasl/core/Retention"
import { type WebhookRepository } from "@wasl/core/Webhooks"
import { DateTime, Duration, Effect, type Layer, Option } from "effect"
import { drainDeliveries, newWebhook } from "./delivery-repository-contract.ts"
import { atTime, newBroadcast, plusMillis, reservationAt, verification } from "./otp-fixtures.ts"

/** What the layer under `retentionContract` provides. */
export type RetentionContractServices =
  | Retention
  | AccountRepository
  | UserRepository
  | NotificationRepository
  | WebhookRepository
  | DeliveryRepository
  | PlatformRepository
  | BroadcastRepository
  | VerificationRepository
  | IdempotencyStore
  | OtpReservationRepository
  | MessageStatusHoldRepository
  | InvitationRepository

const T0 = DateTime.makeUnsafe("2040-01-01T00:00:00.000Z")
const second = (n: number) => plusMillis(T0, n * 1000)
/** Later than every row these tests (and `drainDeliveries`) write. */
const END_OF_TIME = DateTime.makeUnsafe("2300-01-01T00:00:00.000Z")

const prune = (kind: RetentionKind, cutoff: DateTime.Utc, limit: number) =>
  Retention.use((retention) => retention.pruneBatch(kind, cutoff, limit))

/** Prunes every prunable row of `kind` (left by earlier tests on the same database). */
const pruneAll = (kind: RetentionKind) =>
  Effect.gen(function*() {
    while ((yield* prune(kind, END_OF_TIME, 1000)) > 0) {
      // more may be left
    }
  })

const newAccount = AccountRepository.use((accounts) =>
  accounts.create({ name: "Retention", plan: "business", webhookLimit: null, otpCredits: 0 })
).pipe(Effect.map((account) => account.id))

/** A fresh user's id. */
const newUser = UserRepository.use((users) =>
  users.create({
    email: `retention.${globalThis.crypto.randomUUID()}@example.com`,
    passwordHash: "scrypt$hash",
    firstname: "Ada",
    lastname: "Lovelace"
  }).pipe(Effect.orDie)
).pipe(Effect.map((user) => user.id))

const leaseOf = (d: ClaimedDelivery) => ({ accountId: d.accountId, id: d.id, claimedUntil: d.claimedUntil })

/** `count` deliveries to a fresh webhook of the account, queued and claimed at T0. */
const claimedDeliveries = (accountId: number, count: number) =>
  Effect.gen(function*() {
    const repo = yield* DeliveryRepository
    const webhookId = yield* newWebhook(accountId, "https://retention.example/hook", ["deal-created"])
    yield* repo.insert(Array.from({ length: count }, () => ({
      accountId,
      id: globalThis.crypto.randomUUID(),
      webhookId,
      event: "deal-created" as const,
      body: `{"time":1,"event":"deal-created","deal":{}}`,
      eventId: null,
      state: { status: "pending", attempts: 0, nextAttemptAt: T0 } satisfies DeliveryState,
      createdAt: T0
    })))
    const claimed = yield* atTime(T0, repo.claimDue(count, Duration.hours(1)))
    assert.strictEqual(claimed.length, count)
    return { webhookId, claimed }
  })

/** Records the delivery's first attempt at `when`, leaving it in `state`. */
const recordAt = (d: ClaimedDelivery, when: DateTime.Utc, state: DeliveryState) =>
  atTime(
    when,
    DeliveryRepository.use((repo) =>
      repo.recordAttempts([{
        lease: leaseOf(d),
        state,
        attempt: { number: 1, at: when, statusCode: 500, durationMillis: 5, error: null, responseExcerpt: "x" },
        clearsFailures: false
      }])
    )
  )

const finished = (status: "succeeded" | "failed"): DeliveryState => ({ status, attempts: 1, nextAttemptAt: null })

/**
 * The contract of `Retention`: the same tests over every implementation (memory, PGlite,
 * PostgreSQL, or yours). Through the ports only, it checks that `pruneBatch`:
 *
 * - deletes finished deliveries (succeeded or failed) that finished before the cutoff, with their
 *   attempts, oldest first, at most `limit` a call, and answers how many; never a pending one,
 *   however old, nor one that finished after the cutoff;
 * - deletes notifications read before the cutoff, and those never listed (`stored` off) made
 *   before it; never an unread listed one;
 * - deletes OTP verifications that expired before the cutoff;
 * - deletes idempotency keys that expired before the cutoff: the key is free again;
 * - deletes OTP reservations settled or released before the cutoff, oldest first; never an open
 *   one, however old;
 * - deletes statuses held for messages never stored that arrived before the cutoff, oldest first;
 * - deletes invitations accepted, revoked or expired before the cutoff, oldest first; never a
 *   pending one before it expires, nor one used after the cutoff;
 * - shares the rows among concurrent pruners: together they delete each row once.
 *
 * The kinds `imports` and `exports` are checked by the import and export repository contracts.
 *
 * Pruning runs across accounts: every test first prunes what earlier tests left, so run the suite
 * on a database no other process is using. Call it at the top level of a vitest test file: it
 * declares one `describe` block named `name`, whose tests share one build of `implementation`.
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `Retention` (under test) and the ports that make its rows.
 */
export const retentionContract = <E>(name: string, implementation: Layer.Layer<RetentionContractServices, E>): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    it.effect("deliveries: finished ones before the cutoff go with their attempts, oldest first; pending and later ones stay", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        yield* pruneAll("deliveries")
        const repo = yield* DeliveryRepository
        const accountId = yield* newAccount
        const { webhookId, claimed } = yield* claimedDeliveries(accountId, 5)
        const [a, b, c, retrying, recent] = claimed as [ClaimedDelivery, ClaimedDelivery, ClaimedDelivery, ClaimedDelivery, ClaimedDelivery]
        yield* recordAt(b, second(2), finished("failed"))
        yield* recordAt(a, second(1), finished("succeeded"))
        yield* recordAt(c, second(3), finished("succeeded"))
        yield* recordAt(retrying, second(4), { status: "pending", attempts: 1, nextAttemptAt: second(10_000) })
        yield* recordAt(recent, second(9), finished("succeeded"))
        const cutoff = second(5)

        assert.strictEqual(yield* prune("deliveries", cutoff, 2), 2)
        const ids = (yield* repo.list(accountId, webhookId, { offset: 0, limit: 10 })).items.map((d) => d.id).sort()
        assert.deepStrictEqual(ids, [c.id, retrying.id, recent.id].sort())
        assert.strictEqual(yield* prune("deliveries", cutoff, 2), 1)
        assert.strictEqual(yield* prune("deliveries", cutoff, 2), 0)
        const left = (yield* repo.list(accountId, webhookId, { offset: 0, limit: 10 })).items
        assert.deepStrictEqual(left.map((d) => d.id).sort(), [retrying.id, recent.id].sort())
        // What stays keeps its attempts.
        assert.isTrue(left.every((d) => d.attempts.length === 1))
        // A pending delivery stays however old the cutoff makes it.
        assert.strictEqual(yield* prune("deliveries", END_OF_TIME, 10), 1)
        assert.deepStrictEqual((yield* repo.list(accountId, webhookId, { offset: 0, limit: 10 })).items.map((d) => d.id), [retrying.id])
      }))

    it.effect("notifications: read before the cutoff, or never listed and made before it, go; unread ones stay", () =>
      Effect.gen(function*() {
        yield* pruneAll("notifications")
        const notifications = yield* NotificationRepository
        const accountId = yield* newAccount
        const user = { id: yield* newUser }
        yield* UserRepository.use((users) => users.addMembership(accountId, user.id))
        const channels = { stored: true, popup: true, browser: true, email: false }
        const notify = (stored: boolean, data: Record<string, unknown>) =>
          notifications.insert({
            accountId,
            userId: user.id,
            type: "WebhookDeactivated",
            data,
            channels: { ...channels, stored },
            email: null,
            now: T0
          })
        yield* notify(true, { n: "read early" })
        yield* notify(true, { n: "read late" })
        yield* notify(true, { n: "unread" })
        yield* notify(false, { n: "never listed" })
        const listed = (yield* notifications.list(accountId, user.id, { offset: 0, limit: 10 })).items
        const byName = (n: string) => listed.find((item) => item.data.n === n)!
        yield* notifications.markRead(accountId, user.id, byName("read early").id, second(1))
        yield* notifications.markRead(accountId, user.id, byName("read late").id, second(9))

        assert.strictEqual(yield* prune("notifications", second(5), 10), 2)
        assert.strictEqual(yield* prune("notifications", second(5), 10), 0)
        const left = (yield* notifications.list(accountId, user.id, { offset: 0, limit: 10 })).items.map((item) => item.data.n)
        assert.deepStrictEqual(left.sort(), ["read late", "unread"])
        assert.strictEqual(yield* notifications.unreadCount(accountId, user.id), 1)
      }))

    it.effect("OTP verifications: those expired before the cutoff go, oldest first", () =>
      Effect.gen(function*() {
        yield* pruneAll("verifications")
        const verifications = yield* VerificationRepository
        const accountId = yield* newAccount
        const broadcast = yield* newBroadcast(accountId)
        const [first, next, later] = [second(1), second(2), second(9)].map((expiry) =>
          verification(broadcast, { expires_at: expiry, created_at: T0, updated_at: T0 })
        ) as [ReturnType<typeof verification>, ReturnType<typeof verification>, ReturnType<typeof verification>]
        for (const v of [next, later, first]) yield* verifications.insert(v)
        const exists = (id: string) => Effect.map(verifications.findById(accountId, id), Option.isSome)

        assert.strictEqual(yield* prune("verifications", second(5), 1), 1)
        assert.isFalse(yield* exists(first.id))
        assert.isTrue(yield* exists(next.id))
        assert.strictEqual(yield* prune("verifications", second(5), 1), 1)
        assert.strictEqual(yield* prune("verifications", second(5), 1), 0)
        assert.isFalse(yield* exists(next.id))
        assert.isTrue(yield* exists(later.id))
      }))

    it.effect("idempotency keys: those expired before the cutoff go, and their key runs afresh", () =>
      Effect.gen(function*() {
        yield* pruneAll("idempotency")
        const store = yield* IdempotencyStore
        const accountId = yield* newAccount
        const answer = { status: 201, contentType: "application/json", body: "{}", callerChecks: [] }
        const claim = (key: string) => ({ accountId, principal: "token:1", key, fingerprint: "f" })
        const keep = (key: string, at: DateTime.Utc) =>
          atTime(at, store.run(claim(key), "transaction", Effect.succeed({ value: key, keep: answer })))
        const lifetime = Duration.toMillis(IDEMPOTENCY_KEY_LIFETIME)
        yield* keep("early", second(1))
        yield* keep("late", second(9))
        // Asked within both lifetimes, a kept key replays; a pruned one runs afresh.
        const outcome = (key: string) =>
          atTime(second(10), store.run(claim(key), "transaction", Effect.succeed({ value: key, keep: undefined })))

        assert.strictEqual(yield* prune("idempotency", plusMillis(T0, lifetime + 5000), 10), 1)
        assert.strictEqual(yield* prune("idempotency", plusMillis(T0, lifetime + 5000), 10), 0)
        assert.strictEqual((yield* outcome("early"))._tag, "Ran")
        assert.strictEqual((yield* outcome("late"))._tag, "Replayed")
      }))

    it.effect("OTP reservations: settled or released before the cutoff go, oldest first; open and later ones stay", () =>
      Effect.gen(function*() {
        yield* pruneAll("reservations")
        const reservations = yield* OtpReservationRepository
        const accountId = yield* newAccount
        const settled = reservationAt(accountId, T0)
        const released = reservationAt(accountId, T0)
        const open = reservationAt(accountId, T0)
        const settledLater = reservationAt(accountId, T0)
        for (const r of [settled, released, open, settledLater]) yield* reservations.open(r)
        assert.isTrue(yield* reservations.release(accountId, released.id, second(2)))
        assert.isTrue(yield* reservations.settle(accountId, settled.id, second(1)))
        assert.isTrue(yield* reservations.settle(accountId, settledLater.id, second(9)))
        const exists = (r: OtpReservation) => Effect.map(reservations.findById(accountId, r.id), Option.isSome)

        assert.strictEqual(yield* prune("reservations", second(5), 1), 1)
        assert.isFalse(yield* exists(settled))
        assert.isTrue(yield* exists(released))
        assert.strictEqual(yield* prune("reservations", second(5), 1), 1)
        assert.strictEqual(yield* prune("reservations", second(5), 1), 0)
        assert.isFalse(yield* exists(released))
        assert.isTrue(yield* exists(open))
        assert.isTrue(yield* exists(settledLater))
      }))

    it.effect("held statuses: those that arrived before the cutoff go, oldest first; later ones stay", () =>
      Effect.gen(function*() {
        yield* pruneAll("statusHolds")
        const holds = yield* MessageStatusHoldRepository
        const accountId = yield* newAccount
        const report = (at: DateTime.Utc) => ({ status: "delivered" as const, at, error: null })
        yield* atTime(second(1), holds.hold(accountId, "wamid.first", report(second(1)), null))
        yield* atTime(second(2), holds.hold(accountId, "wamid.second", report(second(2)), null))
        yield* atTime(second(9), holds.hold(accountId, "wamid.later", report(second(9)), null))

        assert.strictEqual(yield* prune("statusHolds", second(5), 1), 1)
        assert.deepStrictEqual(yield* holds.take(accountId, "wamid.first"), [])
        assert.strictEqual(yield* prune("statusHolds", second(5), 1), 1)
        assert.strictEqual(yield* prune("statusHolds", second(5), 1), 0)
        assert.deepStrictEqual(yield* holds.take(accountId, "wamid.second"), [])
        assert.strictEqual((yield* holds.take(accountId, "wamid.later")).length, 1)
      }))

    it.effect("invitations: accepted, revoked or expired before the cutoff go, oldest first; pending and later ones stay", () =>
      Effect.gen(function*() {
        yield* pruneAll("invitations")
        const invitations = yield* InvitationRepository
        const accountId = yield* newAccount
        const inviter = yield* newUser
        // Token hashes unique to this run: earlier runs on the same database may have left theirs.
        const run = globalThis.crypto.randomUUID()
        const invite = (name: string, expiresAt: DateTime.Utc) =>
          invitations.create({ accountId, email: `${name}@example.com`, teamIds: [], invitedBy: inviter, tokenHash: `${run}.${name}`, expiresAt })
        const later = second(10_000)
        const accepted = yield* invite("accepted", later)
        const revoked = yield* invite("revoked", later)
        yield* invite("expired", second(3))
        yield* invite("pending", later)
        const acceptedLate = yield* invite("accepted-late", later)
        assert.isTrue(yield* invitations.revoke(accountId, revoked.id, second(2)))
        assert.isTrue(yield* invitations.accept(accountId, accepted.id, second(1)))
        assert.isTrue(yield* invitations.accept(accountId, acceptedLate.id, second(9)))
        const exists = (name: string) => Effect.map(invitations.findByTokenHash(`${run}.${name}`), Option.isSome)

        assert.strictEqual(yield* prune("invitations", second(5), 2), 2)
        assert.isFalse(yield* exists("accepted"))
        assert.isFalse(yield* exists("revoked"))
        assert.isTrue(yield* exists("expired"))
        assert.strictEqual(yield* prune("invitations", second(5), 2), 1)
        assert.strictEqual(yield* prune("invitations", second(5), 2), 0)
        assert.isFalse(yield* exists("expired"))
        assert.isTrue(yield* exists("pending"))
        assert.isTrue(yield* exists("accepted-late"))
      }))

    it.effect("concurrent pruners share the rows: together they delete each one once", () =>
      Effect.gen(function*() {
        yield* drainDeliveries
        yield* pruneAll("deliveries")
        const accountId = yield* newAccount
        const { claimed } = yield* claimedDeliveries(accountId, 40)
        yield* Effect.forEach(claimed, (d, i) => recordAt(d, second(i), finished("succeeded")), { discard: true })
        let total = 0
        while (true) {
          const counts = yield* Effect.all(Array.from({ length: 4 }, () => prune("deliveries", second(100), 3)), {
            concurrency: "unbounded"
          })
          const round = counts.reduce((sum, n) => sum + n, 0)
          if (round === 0) break
          total += round
        }
        assert.strictEqual(total, 40)
      }))
  })
