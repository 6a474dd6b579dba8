import { Context, type Effect, type Option } from "effect"
import type { ValidationFailed } from "../errors.ts"
import type { Membership } from "./account.ts"
import type { User } from "./user.ts"

/** What {@link UserRepositoryShape.create} needs to make a user. */
export interface NewUser {
  /** The login e-mail, unique across users (case-insensitively). */
  readonly email: string
  /** The password's hash from the `PasswordHasher`, never the password. */
  readonly passwordHash: string
  /** The first name. */
  readonly firstname: string
  /** The last name. */
  readonly lastname: string
}

/** A user with the hash of their password, for checking a login. */
export interface UserWithPassword {
  /** The user. */
  readonly user: User
  /** The stored password hash. */
  readonly passwordHash: string
}

/** What the {@link UserRepository} port offers (implement this to write an adapter). */
export interface UserRepositoryShape {
  /** Fails ValidationFailed on `email` when the address is taken. */
  readonly create: (input: NewUser) => Effect.Effect<User, ValidationFailed>
  /** The user, or none. */
  readonly findById: (id: number) => Effect.Effect<Option.Option<User>>
  /** E-mail match is case-insensitive. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserWithPassword>>
  /** The user's stored password hash, or none when there is no such user. */
  readonly findPasswordHash: (id: number) => Effect.Effect<Option.Option<string>>
  /** Makes the user an active member of the account. */
  readonly addMembership: (accountId: number, userId: number) => Effect.Effect<Membership>
  /** The user's membership of the account, or none. */
  readonly findMembership: (accountId: number, userId: number) => Effect.Effect<Option.Option<Membership>>
  /** Active memberships, most recently used first. */
  readonly listMemberships: (userId: number) => Effect.Effect<ReadonlyArray<Membership>>
  /** Records that the user used the account now (its `last_used`). */
  readonly touchMembership: (accountId: number, userId: number) => Effect.Effect<void>
}

/** @ignore */
export const UserRepositoryBase: Context.ServiceClass<UserRepository, "@wasl/core/UserRepository", UserRepositoryShape> =
  Context.Service<UserRepository, UserRepositoryShape>()("@wasl/core/UserRepository")

/**
 * Users (global, found by e-mail) and their memberships of accounts.
 * Its operations: {@link UserRepositoryShape}.
 */
export class UserRepository extends UserRepositoryBase {}
