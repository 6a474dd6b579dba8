import { Context, type Effect, type Option } from "effect"
import type { ValidationFailed } from "../errors.ts"
import type { Membership } from "./account.ts"
import type { User } from "./user.ts"

export interface NewUser {
  readonly email: string
  readonly passwordHash: string
  readonly firstname: string
  readonly lastname: string
}

export interface UserWithPassword {
  readonly user: User
  readonly passwordHash: string
}

/** Users (global, found by e-mail) and their memberships of accounts. */
export class UserRepository extends Context.Service<UserRepository, {
  /** Fails ValidationFailed on `email` when the address is taken. */
  readonly create: (input: NewUser) => Effect.Effect<User, ValidationFailed>
  readonly findById: (id: number) => Effect.Effect<Option.Option<User>>
  /** E-mail match is case-insensitive. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserWithPassword>>
  readonly addMembership: (accountId: number, userId: number) => Effect.Effect<Membership>
  readonly findMembership: (accountId: number, userId: number) => Effect.Effect<Option.Option<Membership>>
  /** Active memberships, most recently used first. */
  readonly listMemberships: (userId: number) => Effect.Effect<ReadonlyArray<Membership>>
  readonly touchMembership: (accountId: number, userId: number) => Effect.Effect<void>
}>()("@wasl/core/UserRepository") {}
