import { Context, type DateTime, type Effect, type Option } from "effect"
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

/** What a user may change of themselves (`UserRepositoryShape.setProfile`). */
export interface Profile {
  /** The first name. */
  readonly firstname: string
  /** The last name. */
  readonly lastname: string
  /** The user's language (a BCP 47 tag). */
  readonly locale: string
  /** The picture's https URL, or none. */
  readonly image: string | null
}

/** A member's own settings in one account (account.pivot), as `PUT /api/me/preferences` sets them. */
export interface MemberPreferences {
  /** An IANA time zone name. */
  readonly timeZone: string
  /** A Unicode calendar identifier, or none (the account's). */
  readonly calendar: string | null
  /** Whether times show on a 12-hour clock. */
  readonly hour12: boolean
  /** A BCP 47 language tag, or none (the account's). */
  readonly locale: string | null
  /** An ISO 4217 currency code, or none (the account's). */
  readonly currency: string | null
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
  /** Sets the user's profile; the user as now stored, or none when there is no such user. */
  readonly setProfile: (id: number, profile: Profile) => Effect.Effect<Option.Option<User>>
  /** Replaces the user's password hash (the `PasswordHasher`'s, never the password). */
  readonly setPasswordHash: (id: number, passwordHash: string) => Effect.Effect<void>
  /** Makes the user an active member of the account. */
  readonly addMembership: (accountId: number, userId: number) => Effect.Effect<Membership>
  /** The user's membership of the account, or none. */
  readonly findMembership: (accountId: number, userId: number) => Effect.Effect<Option.Option<Membership>>
  /** Active memberships, most recently used first. */
  readonly listMemberships: (userId: number) => Effect.Effect<ReadonlyArray<Membership>>
  /** Records that the user used the account now (its `last_used`). */
  readonly touchMembership: (accountId: number, userId: number) => Effect.Effect<void>
  /**
   * Records that the user used the account now, unless its `last_used` is already later than
   * `after`: one conditional write, so concurrent callers move it at most once per interval.
   */
  readonly touchMembershipUnlessSince: (accountId: number, userId: number, after: DateTime.Utc) => Effect.Effect<void>
  /** Replaces the member's own settings in the account; the membership as now stored, or none when there is none. */
  readonly setMemberPreferences: (
    accountId: number,
    userId: number,
    preferences: MemberPreferences
  ) => Effect.Effect<Option.Option<Membership>>
  /**
   * Sets the address the user asked to change their e-mail to (`change_email_to`), or clears it
   * (null); nothing happens when there is no such user.
   */
  readonly setChangeEmailTo: (id: number, email: string | null) => Effect.Effect<void>
  /**
   * Makes `email` the user's login e-mail, verified at `verifiedAt`, and clears `change_email_to`.
   * Fails ValidationFailed on `email` when another user has that address (case-insensitively);
   * none when there is no such user.
   */
  readonly setEmail: (id: number, email: string, verifiedAt: DateTime.Utc) => Effect.Effect<Option.Option<User>, ValidationFailed>
  /**
   * Marks the user's e-mail verified at `verifiedAt`, provided it is still `email` (a link for an
   * address the user since left verifies nothing); true when it did.
   */
  readonly markEmailVerified: (id: number, email: string, verifiedAt: DateTime.Utc) => Effect.Effect<boolean>
}

const UserRepositoryBase: Context.ServiceClass<UserRepository, "@wasl/core/UserRepository", UserRepositoryShape> =
  Context.Service<UserRepository, UserRepositoryShape>()("@wasl/core/UserRepository")

/**
 * Users (global, found by e-mail) and their memberships of accounts.
 * Its operations: {@link UserRepositoryShape}.
 */
export class UserRepository extends UserRepositoryBase {}
