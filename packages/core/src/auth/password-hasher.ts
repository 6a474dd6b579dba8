import { Context, type Effect } from "effect"

/** A memory-hard password hash (scrypt or argon2id in the adapters). */
export class PasswordHasher extends Context.Service<PasswordHasher, {
  readonly hash: (password: string) => Effect.Effect<string>
  /** Constant-time; false for a malformed hash. */
  readonly verify: (password: string, hash: string) => Effect.Effect<boolean>
}>()("@wasl/core/PasswordHasher") {}
