/**
 * Sending numbers (platforms) and broadcasts: list, read and create. Permissions:
 * `broadcast-index` to read, `broadcast-manage` to create.
 */
import { Effect, Option } from "effect"
import type { Principal } from "../auth/principal.ts"
import { SecretBox } from "../auth/secret-box.ts"
import { type Forbidden, invalid, NotFound, type ServiceUnavailable, type ValidationFailed } from "../errors.ts"
import { type Broadcast, validateBroadcastCreate } from "../messaging/broadcast.ts"
import { BroadcastRepository } from "../messaging/broadcast-repository.ts"
import { PlatformRepository } from "../messaging/platform-repository.ts"
import { type Platform, validatePlatformCreate } from "../messaging/platform.ts"
import type { MessagingProvider } from "../messaging/messaging-provider.ts"
import { authorize } from "./authenticate.ts"
import type { TemplateReview } from "../messaging/template-review.ts"
import { readHealthQuietly } from "./platforms.ts"
import { startReview } from "./template-reviews.ts"

/**
 * `GET /api/platforms`: the account's sending numbers (WhatsApp platforms). Needs
 * `broadcast-index` (else {@link Forbidden}).
 */
export const listPlatforms: (
  principal: Principal
) => Effect.Effect<ReadonlyArray<Platform>, Forbidden, PlatformRepository> = Effect.fn("listPlatforms")(
  function*(principal: Principal) {
    yield* authorize(principal, "broadcast-index")
    return yield* PlatformRepository.use((repo) => repo.list(principal.accountId))
  }
)

/**
 * `POST /api/platforms`: adds a sending number to the account. Its provider access token is
 * sealed by the `SecretBox` before it is stored, and never shown again. A WhatsApp Cloud number
 * then gets what Meta says of it (verified name, code verification status, quality rating,
 * messaging limit tier) when Meta answers; `refreshPlatform` reads it again. Needs
 * `broadcast-manage`. Answers the platform. Fails {@link Forbidden} without the permission,
 * {@link ValidationFailed} for an invalid body.
 */
export const createPlatform: (
  principal: Principal,
  body: unknown
) => Effect.Effect<Platform, Forbidden | ValidationFailed, MessagingProvider | PlatformRepository | SecretBox> = Effect.fn(
  "createPlatform"
)(function*(principal: Principal, body: unknown) {
  yield* authorize(principal, "broadcast-manage")
  const input = yield* validatePlatformCreate(body)
  const sealed = input.access_token === null ? null : yield* SecretBox.use((box) => box.seal(input.access_token!))
  const { access_token: _secret, ...rest } = input
  const platform = yield* PlatformRepository.use((repo) =>
    repo.insert(principal.accountId, { ...rest, sealed_access_token: sealed })
  )
  return platform.provider === "whatsapp_cloud" ? yield* readHealthQuietly(platform) : platform
})

/**
 * `GET /api/broadcasts`: the account's broadcasts (message templates on a sending number). Needs
 * `broadcast-index` (else {@link Forbidden}).
 */
export const listBroadcasts: (
  principal: Principal
) => Effect.Effect<ReadonlyArray<Broadcast>, Forbidden, BroadcastRepository> = Effect.fn("listBroadcasts")(
  function*(principal: Principal) {
    yield* authorize(principal, "broadcast-index")
    return yield* BroadcastRepository.use((repo) => repo.list(principal.accountId))
  }
)

/** The account's broadcast `id`, with no permission check; {@link NotFound} when the account has none such. */
export const findBroadcast = (accountId: number, id: number): Effect.Effect<Broadcast, NotFound, BroadcastRepository> =>
  BroadcastRepository.use((repo) => repo.findById(accountId, id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed }))
  )

/**
 * `GET /api/broadcasts/{id}`: one of the account's broadcasts. Needs `broadcast-index`. Fails
 * {@link Forbidden} without it, {@link NotFound} for an id the account has no broadcast of.
 */
export const getBroadcast: (
  principal: Principal,
  id: number
) => Effect.Effect<Broadcast, Forbidden | NotFound, BroadcastRepository> = Effect.fn("getBroadcast")(
  function*(principal: Principal, id: number) {
    yield* authorize(principal, "broadcast-index")
    return yield* findBroadcast(principal.accountId, id)
  }
)

/**
 * `POST /api/broadcasts`: a message template on one of the account's sending numbers, and its
 * broadcast: approved at once on a sandbox number; on a whatsapp_cloud number submitted to Meta's
 * review first, and stored with Meta's answer (usually PENDING, with Meta's template id as
 * `external_id`). Needs `broadcast-manage`. Answers the broadcast. Fails {@link Forbidden}
 * without the permission; {@link ValidationFailed} for an invalid body, a `platform_id` that is
 * not one of the account's sending numbers (or a whatsapp_cloud one without a waba_id), or a
 * template Meta refused (on `template`, with Meta's explanation; nothing is stored);
 * {@link ServiceUnavailable} when Meta cannot be reached.
 */
export const createBroadcast: (
  principal: Principal,
  body: unknown
) => Effect.Effect<
  Broadcast,
  Forbidden | ValidationFailed | ServiceUnavailable,
  BroadcastRepository | PlatformRepository | TemplateReview | SecretBox
> = Effect.fn("createBroadcast")(function*(principal: Principal, body: unknown) {
  yield* authorize(principal, "broadcast-manage")
  const input = yield* validateBroadcastCreate(body)
  const platform = yield* PlatformRepository.use((repo) => repo.findById(principal.accountId, input.platform_id))
  if (Option.isNone(platform)) return yield* invalid("platform_id", "The selected platform_id is invalid.")
  // Outside a transaction: Meta's answer can take seconds, and a refusal stores nothing.
  const started = yield* startReview(platform.value, input)
  return yield* BroadcastRepository.use((repo) => repo.insert(principal.accountId, started.input, platform.value, started.review))
})
