/** The contract suite of `IdempotencyStore` (documented on `idempotencyStoreContract`). */
import { expect, layer } from "@effect/vitest"
import { AccountRepository } from "@wasl/core/Accounts"
import {
  type IdempotencyClaim,
  type IdempotencyMode,
  IdempotencyStore,
  type IdempotentWork,
  type KeptAnswer
} from "@wasl/core/Idempotency"
import { DateTime, Deferred, Duration, Effect, Fiber, type Layer, Option, Ref } from "effect"
import { atTime, plusMillis } from "./otp-fixtures.ts"

/** What the layer under `idempotencyStoreContract` provides. */
export type IdempotencyStoreContractServices = IdempotencyStore | AccountRepository

const MODES: ReadonlyArray<IdempotencyMode> = ["transaction", "outside"]

const newAccount = AccountRepository.use((accounts) =>
  accounts.create({ name: "Idempotency", plan: "business", webhookLimit: null, otpCredits: 0 })
).pipe(Effect.map((a) => a.id))

let sequence = 0
const claimIn = (accountId: number, overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  accountId,
  principal: "token:1",
  key: `key-${sequence++}-${Math.random().toString(16).slice(2)}`,
  fingerprint: "POST /api/contacts {}",
  ...overrides
})

/**
 * A kept answer with the checks of its request's caller, each kind once (a grant's ability, the
 * permissions of a check of several): a store keeps them as they are, in order.
 */
const answer = (body: string): KeptAnswer => ({
  status: 201,
  contentType: "application/json",
  body,
  callerChecks: [
    { _tag: "Permission", anyOf: ["contact-index", "property-manage"] },
    { _tag: "TokenOnly" },
    { _tag: "Grant", ability: "*" }
  ]
})

/** A work that counts its runs in `runs` and keeps `body`. */
const counted = (runs: Ref.Ref<number>, body: string): Effect.Effect<IdempotentWork<string>> =>
  Effect.as(Ref.update(runs, (n) => n + 1), { value: body, keep: answer(body) })

const run = <A, E, R>(claim: IdempotencyClaim, mode: IdempotencyMode, work: Effect.Effect<IdempotentWork<A>, E, R>) =>
  IdempotencyStore.use((store) => store.run(claim, mode, work))

/**
 * The `IdempotencyStore` contract: the same tests over every implementation (memory, PGlite,
 * PostgreSQL, or yours), each in both modes.
 *
 * - The first request with a key runs its work; the same request again replays the kept answer
 *   (its status, content type, body and the checks of its caller, as kept) without running it;
 *   another fingerprint with the key is a mismatch, and runs nothing.
 * - A second request while the first still runs is in flight, at once, in both modes; once the
 *   first is done, the key replays.
 * - A failed work, or one that keeps nothing, frees the key; what a failed work wrote stays, as
 *   without a key. In `"transaction"` mode the work's writes and the kept answer commit together,
 *   and an interrupted work keeps neither.
 * - Keys are per account and principal; a key is kept 24 hours, then free again.
 *
 * Call it at the top level of a vitest test file (it uses `@effect/vitest`): it declares one
 * `describe` block named `name`, whose tests share one build of `implementation`.
 *
 * @param name The name of the `describe` block (e.g. the adapter's).
 * @param implementation Provides `IdempotencyStore` (under test) and `AccountRepository` (the
 *   accounts the keys belong to).
 */
export const idempotencyStoreContract = <E>(
  name: string,
  implementation: Layer.Layer<IdempotencyStoreContractServices, E>
): void =>
  layer(implementation, { excludeTestServices: true, timeout: Duration.seconds(60) })(name, (it) => {
    for (const mode of MODES) {
      it.effect(`${mode}: runs the work once and replays its answer; another request with the key is a mismatch`, () =>
        Effect.gen(function*() {
          const runs = yield* Ref.make(0)
          const claim = claimIn(yield* newAccount)
          expect(yield* run(claim, mode, counted(runs, "first"))).toEqual({ _tag: "Ran", value: "first" })
          expect(yield* run(claim, mode, counted(runs, "second"))).toEqual({ _tag: "Replayed", answer: answer("first") })
          expect(yield* run({ ...claim, fingerprint: "POST /api/contacts {\"a\":1}" }, mode, counted(runs, "third")))
            .toEqual({ _tag: "Mismatch" })
          expect(yield* Ref.get(runs)).toBe(1)
        }))

      it.effect(`${mode}: a request with the key while the first runs is in flight, then replays`, () =>
        Effect.gen(function*() {
          const claim = claimIn(yield* newAccount)
          const started = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          const slow = Effect.gen(function*() {
            yield* Deferred.succeed(started, undefined)
            yield* Deferred.await(release)
            return { value: "slow", keep: answer("slow") }
          })
          const first = yield* Effect.forkChild(run(claim, mode, slow))
          yield* Deferred.await(started)
          const runs = yield* Ref.make(0)
          expect(yield* run(claim, mode, counted(runs, "second"))).toEqual({ _tag: "InFlight" })
          if (mode === "outside") {
            // Another key of the same caller is not held up (in "transaction" mode it may wait for
            // the first's transaction, on a store that runs one at a time: memory, PGlite).
            expect(yield* run(claimIn(claim.accountId), mode, counted(runs, "other"))).toEqual({ _tag: "Ran", value: "other" })
          }
          yield* Deferred.succeed(release, undefined)
          expect(yield* Fiber.join(first)).toEqual({ _tag: "Ran", value: "slow" })
          expect(yield* run(claim, mode, counted(runs, "third"))).toEqual({ _tag: "Replayed", answer: answer("slow") })
          expect(yield* Ref.get(runs)).toBe(mode === "outside" ? 1 : 0)
        }))

      it.effect(`${mode}: a failed work, or one that keeps nothing, frees the key`, () =>
        Effect.gen(function*() {
          const runs = yield* Ref.make(0)
          const claim = claimIn(yield* newAccount)
          const failed = yield* Effect.flip(run(claim, mode, Effect.fail("refused" as const)))
          expect(failed).toBe("refused")
          expect(yield* run(claim, mode, Effect.succeed({ value: "unkept", keep: undefined })))
            .toEqual({ _tag: "Ran", value: "unkept" })
          expect(yield* run(claim, mode, counted(runs, "kept"))).toEqual({ _tag: "Ran", value: "kept" })
          expect(yield* Ref.get(runs)).toBe(1)
        }))

      it.effect(`${mode}: keys are per account and principal`, () =>
        Effect.gen(function*() {
          const runs = yield* Ref.make(0)
          const claim = claimIn(yield* newAccount)
          const otherAccount = { ...claim, accountId: yield* newAccount }
          const otherPrincipal = { ...claim, principal: "user:1" }
          for (const c of [claim, otherAccount, otherPrincipal]) {
            expect(yield* run(c, mode, counted(runs, c.principal))).toEqual({ _tag: "Ran", value: c.principal })
          }
          expect(yield* run(otherPrincipal, mode, counted(runs, "again"))).toEqual({ _tag: "Replayed", answer: answer("user:1") })
          expect(yield* Ref.get(runs)).toBe(3)
        }))

      it.effect(`${mode}: a key is kept 24 hours, then free again`, () =>
        Effect.gen(function*() {
          const runs = yield* Ref.make(0)
          const claim = claimIn(yield* newAccount)
          const t = DateTime.makeUnsafe("2031-03-01T08:00:00.000Z")
          const day = 24 * 60 * 60 * 1000
          yield* atTime(t, run(claim, mode, counted(runs, "first")))
          expect(yield* atTime(plusMillis(t, day - 1), run(claim, mode, counted(runs, "second"))))
            .toEqual({ _tag: "Replayed", answer: answer("first") })
          expect(yield* atTime(plusMillis(t, day), run({ ...claim, fingerprint: "another" }, mode, counted(runs, "after"))))
            .toEqual({ _tag: "Ran", value: "after" })
          expect(yield* atTime(plusMillis(t, day + 1), run(claim, mode, counted(runs, "again"))))
            .toEqual({ _tag: "Mismatch" })
          expect(yield* Ref.get(runs)).toBe(2)
        }))
    }

    it.effect("transaction: the work's writes and its kept answer commit together; an interrupted work keeps neither", () =>
      Effect.gen(function*() {
        const accounts = yield* AccountRepository
        const claim = claimIn(yield* newAccount)
        const madeBefore = yield* Ref.make(0)
        const writeThenStop = Effect.gen(function*() {
          const made = yield* accounts.create({ name: "Undone", plan: "free", webhookLimit: null, otpCredits: 0 })
          yield* Ref.set(madeBefore, made.id)
          return yield* Effect.interrupt
        })
        yield* Effect.exit(run(claim, "transaction", writeThenStop))
        expect(yield* accounts.findById(yield* Ref.get(madeBefore))).toEqual(Option.none())
        const writeAndKeep = Effect.map(
          accounts.create({ name: "Kept", plan: "free", webhookLimit: null, otpCredits: 0 }),
          (made) => ({ value: made.id, keep: answer(String(made.id)) })
        )
        const ran = yield* run(claim, "transaction", writeAndKeep)
        if (ran._tag !== "Ran") return expect.fail(`expected Ran, got ${ran._tag}`)
        expect(Option.isSome(yield* accounts.findById(ran.value))).toBe(true)
        expect(yield* run(claim, "transaction", writeAndKeep)).toEqual({ _tag: "Replayed", answer: answer(String(ran.value)) })
      }))

    for (const mode of MODES) {
      it.effect(`${mode}: a failed work keeps what it wrote, as without a key, and no answer`, () =>
        Effect.gen(function*() {
          const accounts = yield* AccountRepository
          const claim = claimIn(yield* newAccount)
          const made = yield* Ref.make(0)
          const writeThenFail = Effect.gen(function*() {
            yield* Ref.set(made, (yield* accounts.create({ name: "Attempt", plan: "free", webhookLimit: null, otpCredits: 0 })).id)
            return yield* Effect.fail("wrong code" as const)
          })
          expect(yield* Effect.flip(run(claim, mode, writeThenFail))).toBe("wrong code")
          expect(Option.isSome(yield* accounts.findById(yield* Ref.get(made)))).toBe(true)
          const runs = yield* Ref.make(0)
          expect(yield* run(claim, mode, counted(runs, "next"))).toEqual({ _tag: "Ran", value: "next" })
        }))
    }
  })
