/**
 * Sending numbers and broadcasts (decisions §7): list, read and create. Permissions:
 * `broadcast-index` to read, `broadcast-manage` to create (decisions §2).
 */
import { Effect, Option } from "effect"
import type { Principal } from "../auth/principal.ts"
import { SecretBox } from "../auth/secret-box.ts"
import { invalid, NotFound } from "../errors.ts"
import { validateBroadcastCreate } from "../messaging/broadcast.ts"
import { BroadcastRepository, PlatformRepository } from "../messaging/messaging-repositories.ts"
import { validatePlatformCreate } from "../messaging/platform.ts"
import { Transactor } from "../transactor.ts"
import { authorize } from "./authenticate.ts"

/** `GET /api/platforms`. */
export const listPlatforms = Effect.fn("listPlatforms")(function*(principal: Principal) {
  yield* authorize(principal, "broadcast-index")
  return yield* PlatformRepository.use((repo) => repo.list(principal.accountId))
})

/** `POST /api/platforms`: the access token is sealed before it is stored and never shown again. */
export const createPlatform = Effect.fn("createPlatform")(function*(principal: Principal, body: unknown) {
  yield* authorize(principal, "broadcast-manage")
  const input = yield* validatePlatformCreate(body)
  const sealed = input.access_token === null ? null : yield* SecretBox.use((box) => box.seal(input.access_token!))
  const { access_token: _secret, ...rest } = input
  return yield* PlatformRepository.use((repo) => repo.insert(principal.accountId, { ...rest, sealed_access_token: sealed }))
})

/** `GET /api/broadcasts`. */
export const listBroadcasts = Effect.fn("listBroadcasts")(function*(principal: Principal) {
  yield* authorize(principal, "broadcast-index")
  return yield* BroadcastRepository.use((repo) => repo.list(principal.accountId))
})

/** The account's broadcast `id` (any non-id text is simply not found). */
export const findBroadcast = (accountId: number, id: number) =>
  BroadcastRepository.use((repo) => repo.findById(accountId, id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new NotFound()), onSome: Effect.succeed }))
  )

/** `GET /api/broadcasts/{id}`. */
export const getBroadcast = Effect.fn("getBroadcast")(function*(principal: Principal, id: number) {
  yield* authorize(principal, "broadcast-index")
  return yield* findBroadcast(principal.accountId, id)
})

/** `POST /api/broadcasts`: the template and the broadcast, APPROVED at once (decisions §7). */
export const createBroadcast = Effect.fn("createBroadcast")(function*(principal: Principal, body: unknown) {
  yield* authorize(principal, "broadcast-manage")
  const input = yield* validateBroadcastCreate(body)
  const transactor = yield* Transactor
  return yield* transactor.transaction(Effect.gen(function*() {
    const platform = yield* PlatformRepository.use((repo) => repo.findById(principal.accountId, input.platform_id))
    if (Option.isNone(platform)) return yield* invalid("platform_id", "The selected platform_id is invalid.")
    return yield* BroadcastRepository.use((repo) => repo.insert(principal.accountId, input, platform.value, "APPROVED"))
  }))
})
