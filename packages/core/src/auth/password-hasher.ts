import { Context, type Effect } from "effect"

/** What the {@link PasswordHasher} port offers (implement this to write an adapter). */
export interface PasswordHasherShape {
  /** The hash to store for `password` (salted; the format is the adapter's). */
  readonly hash: (password: string) => Effect.Effect<string>
  /** Constant-time; false for a malformed hash. */
  readonly verify: (password: string, hash: string) => Effect.Effect<boolean>
}

const PasswordHasherBase: Context.ServiceClass<PasswordHasher, "@wasl/core/PasswordHasher", PasswordHasherShape> =
  Context.Service<PasswordHasher, PasswordHasherShape>()("@wasl/core/PasswordHasher")

/**
 * A memory-hard password hash (scrypt or argon2id in the adapters).
 * Its operations: {@link PasswordHasherShape}.
 */
export class PasswordHasher extends PasswordHasherBase {}
