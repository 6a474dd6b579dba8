/**
 * What a use-case asks of its caller, as data: that it may use a permission, that it is an API
 * token, that it may give a token an ability, that it may give a team (or an invitee) a permission. Each is asked through {@link demand}, which keeps it
 * in the {@link CallerCheckLog} of the running request when there is one, so that the checks a
 * request passed can be asked again later of whoever makes it again: a replay of an idempotent
 * request answers its kept answer only to a caller who may still make the request (see
 * `IdempotencyStore`), and a caller who may not gets the refusal a fresh request would get.
 *
 * Only who the caller is and what it holds is asked again; what the request found in the data
 * (a built-in property, an unapproved template) is part of the answer it got.
 */
import { Context, Effect, Schema } from "effect"
import { type Forbidden, forbidden } from "../errors.ts"
import { Ability, Permission } from "./permission.ts"
import { allows, mayGrant, type Principal } from "./principal.ts"

/**
 * One check of the caller: `Permission`, it may use one of `anyOf` (its user holds it and its
 * token, if any, carries it or `*`); `TokenOnly`, it is an API token, not a session;
 * `SessionOnly`, it is a first-party session, not a token (a token acts in one account only);
 * `Grant`, it may give `ability` to a token it creates (see `mayGrant`); `Delegate`, it may give
 * `permission` to a team or to a member through a team: it is allowed that permission itself.
 */
export const CallerCheck: Schema.Union<readonly [
  Schema.TaggedStruct<"Permission", { readonly anyOf: Schema.NonEmptyArray<typeof Permission> }>,
  Schema.TaggedStruct<"TokenOnly", {}>,
  Schema.TaggedStruct<"SessionOnly", {}>,
  Schema.TaggedStruct<"Grant", { readonly ability: typeof Ability }>,
  Schema.TaggedStruct<"Delegate", { readonly permission: typeof Permission }>
]> = Schema.Union([
  Schema.TaggedStruct("Permission", { anyOf: Schema.NonEmptyArray(Permission) }),
  Schema.TaggedStruct("TokenOnly", {}),
  Schema.TaggedStruct("SessionOnly", {}),
  Schema.TaggedStruct("Grant", { ability: Ability }),
  Schema.TaggedStruct("Delegate", { permission: Permission })
])
/** One check of the caller (see the schema {@link CallerCheck}). */
export type CallerCheck = typeof CallerCheck.Type

/** The refusal of a token where only a session may act: a token stays in the account it was made in. */
export const SESSION_ONLY_MESSAGE = "This action requires a session: an API token acts only in the account it was made in."

/** The refusal of a check the principal fails, or undefined when it passes. */
const refusalOf = (principal: Principal, check: CallerCheck): Forbidden | undefined => {
  switch (check._tag) {
    case "Permission":
      return check.anyOf.some((permission) => allows(principal, permission)) ? undefined : forbidden()
    case "TokenOnly":
      return principal.kind === "token" ? undefined : forbidden("This action requires an API token.")
    case "SessionOnly":
      return principal.kind === "session" ? undefined : forbidden(SESSION_ONLY_MESSAGE)
    case "Grant":
      return mayGrant(principal, check.ability)
        ? undefined
        : forbidden(`A token cannot be given an ability the caller does not hold: ${check.ability}.`)
    case "Delegate":
      return allows(principal, check.permission)
        ? undefined
        : forbidden(`A permission the caller does not hold cannot be granted: ${check.permission}.`)
  }
}

/**
 * The checks the running request made of its caller, in order, when they are being kept
 * ({@link withCallerChecks}); undefined otherwise (the default: nothing is kept).
 */
export const CallerCheckLog: Context.Reference<Array<CallerCheck> | undefined> = Context.Reference<
  Array<CallerCheck> | undefined
>("@wasl/core/CallerCheckLog", { defaultValue: () => undefined })

/** Asks `check` of the principal: succeeds when it passes, fails {@link Forbidden} otherwise; kept in the log either way. */
export const demand = (principal: Principal, check: CallerCheck): Effect.Effect<void, Forbidden> =>
  CallerCheckLog.use((log) => {
    log?.push(check)
    const refusal = refusalOf(principal, check)
    return refusal === undefined ? Effect.void : Effect.fail(refusal)
  })

/** The checks, each once, in the order first asked. */
const distinct = (checks: ReadonlyArray<CallerCheck>): ReadonlyArray<CallerCheck> => {
  const seen = new Set<string>()
  return checks.filter((check) => {
    const key = JSON.stringify(check)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Runs `effect`, answering its value with the checks it made of its caller (each once, in order). */
export const withCallerChecks = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<readonly [A, ReadonlyArray<CallerCheck>], E, R> =>
  Effect.suspend(() => {
    const log: Array<CallerCheck> = []
    return effect.pipe(
      Effect.provideService(CallerCheckLog, log),
      Effect.map((value) => [value, distinct(log)] as const)
    )
  })

/**
 * Asks `checks` again of the principal, in order: fails with the refusal of the first it fails, as
 * the request made now would. Keeps nothing.
 */
export const recheckCaller = (principal: Principal, checks: ReadonlyArray<CallerCheck>): Effect.Effect<void, Forbidden> =>
  Effect.suspend(() => {
    for (const check of checks) {
      const refusal = refusalOf(principal, check)
      if (refusal !== undefined) return Effect.fail(refusal)
    }
    return Effect.void
  })
