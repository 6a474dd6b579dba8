/**
 * A trivial reversible password "hash" for the use-case tests: deterministic
 * (the seeded tests compare stored hashes) and instant. Never use outside tests.
 * The calls are counted, for tests that check the hashing work was done.
 */
import { Context, Effect, Layer } from "effect"
import { PasswordHasher } from "../../src/Auth.ts"

export const fakePasswordHash = (password: string) => `fake$${[...password].reverse().join("")}`

/** How many times `hash` and `verify` ran. */
export class PasswordHasherCalls extends Context.Service<PasswordHasherCalls, { hash: number; verify: number }>()(
  "@wasl/core/test/PasswordHasherCalls"
) {}

export const PasswordHasherFake: Layer.Layer<PasswordHasher | PasswordHasherCalls> = Layer.effectContext(
  Effect.sync(() => {
    const calls = { hash: 0, verify: 0 }
    const hasher = PasswordHasher.of({
      hash: (password) =>
        Effect.sync(() => {
          calls.hash++
          return fakePasswordHash(password)
        }),
      verify: (password, hash) =>
        Effect.sync(() => {
          calls.verify++
          return fakePasswordHash(password) === hash
        })
    })
    return Context.make(PasswordHasher, hasher).pipe(Context.add(PasswordHasherCalls, calls))
  })
)
