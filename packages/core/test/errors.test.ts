/**
 * Every typed error a use-case fails with says what went wrong in its `message`, so an embedder's
 * `String(error)` or log line is readable without knowing the error's fields.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { bootstrapAccount } from "../src/Accounts.ts"
import { ServerKeyError } from "../src/Auth.ts"
import {
  Forbidden,
  Gone,
  InvalidOtpCode,
  NotFound,
  PaymentRequired,
  ServiceUnavailable,
  TooManyRequests,
  Unauthenticated,
  ValidationFailed
} from "../src/errors.ts"
import { MailError } from "../src/Mail.ts"
import { DeliveryFinished } from "../src/webhooks/delivery-state.ts"
import { OWNER, setup } from "./support/fixtures.ts"
import { TestPorts } from "./support/layers.ts"

const EXAMPLES: ReadonlyArray<readonly [Error, string]> = [
  [new Unauthenticated(), "Unauthenticated."],
  [new Forbidden({ message: "This action is unauthorized." }), "This action is unauthorized."],
  [new NotFound(), "Not found."],
  [new ValidationFailed({ errors: { email: ["The email field is required."], name: ["x"] } }), "The email field is required."],
  [new ValidationFailed({ errors: {} }), "The given data was invalid."],
  [new PaymentRequired({ message: "No OTP credits left." }), "No OTP credits left."],
  [new TooManyRequests({ message: "Too Many Attempts.", retryAfter: 5 }), "Too Many Attempts."],
  [new Gone({ message: "The verification is no longer valid.", status: "expired" }), "The verification is no longer valid."],
  [new InvalidOtpCode({ attemptsRemaining: 2 }), "The code is invalid."],
  [new ServiceUnavailable({ message: "The provider is unavailable.", retryAfter: 30 }), "The provider is unavailable."],
  [new ServerKeyError({ message: "The key must be 32 bytes." }), "The key must be 32 bytes."],
  [new MailError({ message: "SMTP refused." }), "SMTP refused."],
  [new DeliveryFinished({ status: "succeeded" }), "The delivery has already finished: succeeded."]
]

describe("typed errors", () => {
  it("each carries a readable message, which String(error) shows", () => {
    for (const [error, message] of EXAMPLES) {
      assert.strictEqual(error.message, message)
      assert.strictEqual(String(error), `${error.name}: ${message}`)
    }
  })

  it.effect("a second bootstrap of the same owner fails saying why", () =>
    Effect.gen(function*() {
      yield* setup()
      const error = yield* Effect.flip(bootstrapAccount(OWNER))
      assert.strictEqual(error._tag, "ValidationFailed")
      assert.notStrictEqual(error.message, "")
      assert.include(String(error), error.message)
    }).pipe(Effect.provide(TestPorts())))
})
