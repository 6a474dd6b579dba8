/**
 * One sending number (platform): read, change, re-read from Meta and remove. Permissions:
 * `broadcast-index` to read, `broadcast-manage` to change, refresh and remove. Another account's
 * number is a 404, as one that does not exist.
 */
import { Effect, Option } from "effect"
import type { Principal } from "../auth/principal.ts"
import { SecretBox } from "../auth/secret-box.ts"
import { type Forbidden, invalid, NotFound, ServiceUnavailable, type ValidationFailed } from "../errors.ts"
import { CampaignRepository } from "../messaging/campaign-repository.ts"
import { providerPlatformOf } from "../messaging/dispatch.ts"
import { MessagingProvider } from "../messaging/messaging-provider.ts"
import { type Platform, validatePlatformUpdate } from "../messaging/platform.ts"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import { Transactor } from "../transactor.ts"
import { authorize } from "./authenticate.ts"

/** The 422 message (on `access_token`) of a refresh Meta refused: the phone_id or the token is wrong. */
export const NUMBER_REFUSED = "WhatsApp refused to describe this number: check its phone_id and access token."

const foundPlatform = (accountId: number, id: number): Effect.Effect<Platform, NotFound, PlatformRepository> =>
  PlatformRepository.use((repo) => repo.findById(accountId, id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed }))
  )

/**
 * Asks the number's provider what it says of the number now and stores it: Meta's verified
 * name, code verification status, quality rating and messaging limit tier (all null on the
 * sandbox). Answers the number as stored, and how the read ended.
 */
const readHealth = (platform: Platform) =>
  Effect.gen(function*() {
    const outcome = yield* MessagingProvider.use(Effect.fnUntraced(function*(provider) {
      return yield* provider.readNumber(yield* providerPlatformOf(platform))
    }))
    if (outcome._tag !== "Read") return { platform, outcome }
    const stored = yield* PlatformRepository.use((repo) => repo.setHealth(platform.account_id, platform.id, outcome.health))
    return { platform: Option.getOrElse(stored, () => platform), outcome }
  })

/**
 * Reads what Meta says of a number just registered or given a new token, when it can: a number
 * Meta cannot describe now keeps what it had (null at first), and a refresh tries again.
 */
export const readHealthQuietly = (
  platform: Platform
): Effect.Effect<Platform, never, MessagingProvider | PlatformRepository | SecretBox> =>
  Effect.flatMap(readHealth(platform), ({ outcome, platform: stored }) =>
    outcome._tag === "Read" ? Effect.succeed(stored) : Effect.as(
      Effect.logWarning("the sending number's health could not be read").pipe(
        Effect.annotateLogs({ platform_id: platform.id, reason: outcome.reason })
      ),
      stored
    ))

/**
 * `GET /api/platforms/{id}`: one of the account's sending numbers. Needs `broadcast-index`. Fails
 * {@link Forbidden} without it, {@link NotFound} for an id the account has no number of.
 */
export const getPlatform: (
  principal: Principal,
  id: number
) => Effect.Effect<Platform, Forbidden | NotFound, PlatformRepository> = Effect.fn("getPlatform")(
  function*(principal: Principal, id: number) {
    yield* authorize(principal, "broadcast-index")
    return yield* foundPlatform(principal.accountId, id)
  }
)

/**
 * `PUT /api/platforms/{id}` `{ name?, access_token? }`: renames the number and replaces its
 * access token (sealed before it is stored, never shown). A new token on a WhatsApp Cloud number
 * re-reads what Meta says of it. Needs `broadcast-manage`. Fails {@link Forbidden} without it,
 * {@link NotFound} for an id the account has no number of, {@link ValidationFailed} for an
 * invalid body.
 */
export const updatePlatform: (
  principal: Principal,
  id: number,
  body: unknown
) => Effect.Effect<
  Platform,
  Forbidden | NotFound | ValidationFailed,
  MessagingProvider | PlatformRepository | SecretBox
> = Effect.fn("updatePlatform")(function*(principal: Principal, id: number, body: unknown) {
  yield* authorize(principal, "broadcast-manage")
  yield* foundPlatform(principal.accountId, id)
  const changes = yield* validatePlatformUpdate(body)
  const sealed = changes.access_token === undefined
    ? undefined
    : yield* SecretBox.use((box) => box.seal(changes.access_token!))
  const updated = yield* PlatformRepository.use((repo) =>
    repo.update(principal.accountId, id, {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(sealed === undefined ? {} : { sealed_access_token: sealed })
    })
  ).pipe(Effect.flatMap(Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed })))
  return sealed === undefined || updated.provider !== "whatsapp_cloud" ? updated : yield* readHealthQuietly(updated)
})

/**
 * `POST /api/platforms/{id}/refresh`: re-reads what Meta says of the number (its verified name,
 * code verification status, quality rating and messaging limit tier) and stores it; a sandbox
 * number has none of them (all null). Needs `broadcast-manage`. Fails {@link Forbidden} without
 * it, {@link NotFound} for an id the account has no number of, {@link ValidationFailed} on
 * `access_token` when Meta refuses the number's id or token ({@link NUMBER_REFUSED}),
 * {@link ServiceUnavailable} when Meta cannot be reached for now.
 */
export const refreshPlatform: (
  principal: Principal,
  id: number
) => Effect.Effect<
  Platform,
  Forbidden | NotFound | ValidationFailed | ServiceUnavailable,
  MessagingProvider | PlatformRepository | SecretBox
> = Effect.fn("refreshPlatform")(function*(principal: Principal, id: number) {
  yield* authorize(principal, "broadcast-manage")
  const { platform, outcome } = yield* readHealth(yield* foundPlatform(principal.accountId, id))
  switch (outcome._tag) {
    case "Read":
      return platform
    case "Rejected":
      return yield* invalid("access_token", NUMBER_REFUSED)
    case "Unavailable":
      return yield* new ServiceUnavailable({
        message: "WhatsApp cannot describe the number now. Try again later.",
        retryAfter: outcome.retryAfterSeconds
      })
  }
})

/** The 422 message of a removal of a sending number a campaign still sends through. */
export const PLATFORM_HAS_CAMPAIGN = "The sending number has a campaign that has not ended: cancel it first."

/**
 * `DELETE /api/platforms/{id}`: removes the number and its broadcasts (the templates registered on
 * it); the messages sent and received on it stay in their conversations, no longer linked to a
 * broadcast. Needs `broadcast-manage`. Fails {@link Forbidden} without it, {@link NotFound} for an
 * id the account has no number of, {@link ValidationFailed} on `id` while a campaign that has not
 * ended (scheduled, queued, running or paused) sends through it ({@link PLATFORM_HAS_CAMPAIGN}).
 */
export const deletePlatform: (
  principal: Principal,
  id: number
) => Effect.Effect<void, Forbidden | NotFound | ValidationFailed, CampaignRepository | PlatformRepository | Transactor> = Effect
  .fn("deletePlatform")(function*(principal: Principal, id: number) {
    yield* authorize(principal, "broadcast-manage")
    const transactor = yield* Transactor
    yield* transactor.transaction(Effect.gen(function*() {
      yield* foundPlatform(principal.accountId, id)
      if (yield* CampaignRepository.use((repo) => repo.activeOnPlatform(principal.accountId, id))) {
        return yield* invalid("id", PLATFORM_HAS_CAMPAIGN)
      }
      if (!(yield* PlatformRepository.use((repo) => repo.remove(principal.accountId, id)))) {
        return yield* new NotFound()
      }
    }))
  })
