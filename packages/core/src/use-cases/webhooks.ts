/**
 * Webhook management.
 *
 * - Permissions: webhook-index (list, read), webhook-create, webhook-update (update, validate,
 *   activate), webhook-delete. Another account's id, or an id that is not a positive integer, is
 *   404.
 * - Create: body rules of webhook-body.ts, then the URL guard (resolution, SSRF), then, in one
 *   transaction serialised per account, the plan limit (402) and the insert. The secret is 32
 *   characters from a CSPRNG, stored sealed by SecretBox, returned on create, list and read.
 * - Update: both keys required; a different URL goes back to unvalidated with the failure count
 *   cleared; events replace the subscription list.
 * - Validate: a signed challenge is POSTed through WebhookTransport (10 s); only a 2xx
 *   JSON answer `{ signature }` equal (constant time) to HMAC(secret, challenge) validates, and
 *   only if the URL did not change meanwhile. Anything else is 403 with VALIDATION_FAILED_MESSAGE
 *   and the webhook unchanged.
 * - Activate: `{ is_active: boolean }` required (422); 403 unless validated; true clears failures.
 * Every write loads the row FOR UPDATE inside its transaction, so it never overwrites a change the
 * delivery worker made concurrently.
 */
import { DateTime, Duration, Effect, Option, Predicate, Result } from "effect"
import { SecureRandom } from "effect/crypto"
import { AccountRepository } from "../account/account-repository.ts"
import { webhookLimit } from "../account/plan.ts"
import type { Principal } from "../auth/principal.ts"
import { SecretBox } from "../auth/secret-box.ts"
import { type Forbidden, forbidden, invalid, NotFound, PaymentRequired, type ValidationFailed } from "../errors.ts"
import { cleanInput, isBlankInput, ownValue } from "../records/body-input.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { Transactor } from "../transactor.ts"
import { randomAlphanumeric } from "../wire/random-string.ts"
import { attemptHeaders, deliverySigner } from "../webhooks/delivery-request.ts"
import {
  challengeAnswer,
  constantTimeEqual,
  eventTime,
  jsonStringField,
  newChallenge,
  VALIDATION_EVENT
} from "../webhooks/signature.ts"
import { type StoredWebhook, type Webhook, WEBHOOK_SECRET_LENGTH, webhookView } from "../webhooks/webhook.ts"
import { validateWebhookBody, type WebhookInput } from "../webhooks/webhook-body.ts"
import { WebhookRepository, type WebhookRepositoryShape } from "../webhooks/webhook-repository.ts"
import { activate, urlChanged, validated } from "../webhooks/webhook-state.ts"
import { WebhookTransport } from "../webhooks/webhook-transport.ts"
import { WebhookUrlGuard } from "../webhooks/webhook-url.ts"
import { authorize } from "./authenticate.ts"

/** The 403 message of a failed validation. */
export const VALIDATION_FAILED_MESSAGE =
  "Webhook validation was unsuccessful. Please check the webhook secret and the endpoint configuration."
/** The 402 message of a create on a plan without webhooks. */
export const PLAN_HAS_NO_WEBHOOKS = "Your plan does not include webhooks."
/** The 402 message of a create past the plan's webhook limit. */
export const WEBHOOK_LIMIT_REACHED = "The maximum number of webhooks for your plan has been reached."

/** How long the endpoint has to answer the validation challenge: 10 seconds. */
export const VALIDATION_TIMEOUT: Duration.Duration = Duration.seconds(10)

const isWebhookId = (id: number) => Number.isSafeInteger(id) && id > 0

/** The REST shape: the sealed secret opened. A secret this key cannot open is a broken deployment. */
const view = (stored: StoredWebhook) =>
  Effect.flatMap(SecretBox.use((box) => box.open(stored.secretSealed)), (secret) =>
    Option.isSome(secret)
      ? Effect.succeed(webhookView(stored, secret.value))
      : Effect.die(new Error(`webhook ${stored.id}: the secret cannot be opened with the configured key`)))

const found = <A>(option: Option.Option<A>) =>
  Option.isSome(option) ? Effect.succeed(option.value) : Effect.fail(new NotFound())

const load = (accountId: number, id: number) =>
  isWebhookId(id)
    ? Effect.flatMap(WebhookRepository.use((repo) => repo.findById(accountId, id)), found)
    : Effect.fail(new NotFound())

const loadForUpdate = (accountId: number, id: number) =>
  Effect.flatMap(WebhookRepository.use((repo) => repo.findForUpdate(accountId, id)), found)

/** Body rules, then the guard's resolution of the URL host. */
const validateInput = (body: unknown, mode: "create" | "update") =>
  Effect.gen(function*() {
    const input: WebhookInput = yield* Effect.fromResult(validateWebhookBody(body, mode))
    const check = yield* WebhookUrlGuard.use((guard) => guard.check(input.url))
    if (check._tag === "Refused") return yield* Effect.fail(invalid("URL", check.message))
    return input
  })

const saveChange = (stored: StoredWebhook, change: Parameters<WebhookRepositoryShape["update"]>[2]) =>
  Effect.flatMap(WebhookRepository.use((repo) => repo.update(stored.accountId, stored.id, change)), found)

/**
 * `GET /api/account/webhooks`: every webhook of the account, by id, each with its secret and
 * subscriptions. Needs `webhook-index` (else {@link Forbidden}).
 */
export const listWebhooks: (
  principal: Principal
) => Effect.Effect<
  Array<Webhook>,
  Forbidden,
  SecretBox | WebhookRepository
> = Effect.fn("listWebhooks")(function*(principal: Principal) {
  yield* authorize(principal, "webhook-index")
  const webhooks = yield* WebhookRepository.use((repo) => repo.list(principal.accountId))
  return yield* Effect.forEach(webhooks, view)
})

/**
 * `GET /api/account/webhooks/{id}`: the webhook with its secret and subscriptions. Needs
 * `webhook-index`. Fails {@link Forbidden} without it, {@link NotFound} for an id the account has
 * no webhook of.
 */
export const getWebhook: (
  principal: Principal,
  id: number
) => Effect.Effect<
  Webhook,
  Forbidden | NotFound,
  SecretBox | WebhookRepository
> = Effect.fn("getWebhook")(function*(principal: Principal, id: number) {
  yield* authorize(principal, "webhook-index")
  return yield* view(yield* load(principal.accountId, id))
})

/**
 * `POST /api/account/webhooks` `{ URL, events }`: registers an endpoint for the listed events
 * (each one of the 72 event names, e.g. `deal-created`). The webhook starts unvalidated and
 * inactive, with a fresh 32-character secret that signs its deliveries; it delivers once
 * {@link validateWebhook} and {@link activateWebhook} have succeeded. Needs `webhook-create`.
 *
 * The URL must be https, at most 2,048 characters, with a host name (not an IP address) whose
 * every address is public (the `WebhookUrlGuard` checks, unless the deployment allows private
 * addresses). The account's plan sets how many webhooks it may have: `business` 5, `custom` its
 * own limit, the others none.
 *
 * Answers the webhook with its secret. Fails {@link Forbidden} without the permission,
 * {@link ValidationFailed} on `URL` or `events` (`events.N` for a bad entry),
 * {@link PaymentRequired} when the plan has no webhooks ({@link PLAN_HAS_NO_WEBHOOKS}) or its
 * limit is reached ({@link WEBHOOK_LIMIT_REACHED}).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { activateWebhook, createWebhook, type Principal, validateWebhook } from "@wasl/core"
 *
 * // Register an endpoint for new and updated deals, prove it holds the secret, switch it on.
 * const subscribe = (principal: Principal) =>
 *   Effect.gen(function*() {
 *     const webhook = yield* createWebhook(principal, {
 *       URL: "https://hooks.acme.test/wasl",
 *       events: ["deal-created", "deal-updated"]
 *     })
 *     // Give webhook.secret to the endpoint, then:
 *     yield* validateWebhook(principal, webhook.id)
 *     return yield* activateWebhook(principal, webhook.id, { is_active: true })
 *   })
 * ```
 */
export const createWebhook: (
  principal: Principal,
  body: unknown
) => Effect.Effect<
  Webhook,
  Forbidden | NotFound | PaymentRequired | ValidationFailed,
  AccountRepository | SecretBox | SecureRandom.SecureRandom | Transactor | WebhookRepository | WebhookUrlGuard
> = Effect.fn("createWebhook")(function*(principal: Principal, body: unknown) {
  yield* authorize(principal, "webhook-create")
  const input = yield* validateInput(body, "create")
  const secret = yield* randomAlphanumeric(WEBHOOK_SECRET_LENGTH)
  const secretSealed = yield* SecretBox.use((box) => box.seal(secret))
  const transactor = yield* Transactor
  const stored = yield* transactor.transaction(Effect.gen(function*() {
    const repo = yield* WebhookRepository
    const account = yield* Effect.flatMap(AccountRepository.use((accounts) => accounts.findById(principal.accountId)), found)
    const limit = webhookLimit(account.plan, account.webhook_limit)
    if (limit <= 0) return yield* new PaymentRequired({ message: PLAN_HAS_NO_WEBHOOKS })
    if ((yield* repo.countForCreate(principal.accountId)) >= limit) {
      return yield* new PaymentRequired({ message: WEBHOOK_LIMIT_REACHED })
    }
    return yield* repo.insert({
      accountId: principal.accountId,
      url: input.url,
      secretSealed,
      events: input.events,
      now: yield* DateTime.now
    })
  }))
  return webhookView(stored, secret)
})

/**
 * `PUT /api/account/webhooks/{id}` `{ URL, events }` (both required): replaces the URL and the
 * subscriptions. A different URL makes the webhook unvalidated again (failure count cleared): it
 * delivers nothing until validated anew. Needs `webhook-update`. Answers the webhook. Fails
 * {@link Forbidden} without the permission, {@link NotFound} for an id the account has no webhook
 * of, {@link ValidationFailed} on `URL` or `events`.
 */
export const updateWebhook: (
  principal: Principal,
  id: number,
  body: unknown
) => Effect.Effect<
  Webhook,
  Forbidden | NotFound | ValidationFailed,
  SecretBox | Transactor | WebhookRepository | WebhookUrlGuard
> = Effect.fn("updateWebhook")(function*(principal: Principal, id: number, body: unknown) {
  yield* authorize(principal, "webhook-update")
  yield* load(principal.accountId, id)
  const input = yield* validateInput(body, "update")
  const transactor = yield* Transactor
  const stored = yield* transactor.transaction(Effect.gen(function*() {
    const current = yield* loadForUpdate(principal.accountId, id)
    const state = input.url === current.url ? current.state : urlChanged(current.state)
    return yield* saveChange(current, { url: input.url, state, events: input.events, now: yield* DateTime.now })
  }))
  return yield* view(stored)
})

/**
 * `DELETE /api/account/webhooks/{id}`: removes the webhook with its subscriptions and deliveries.
 * Needs `webhook-delete`. Fails {@link Forbidden} without it, {@link NotFound} for an id the
 * account has no webhook of.
 */
export const deleteWebhook: (
  principal: Principal,
  id: number
) => Effect.Effect<
  void,
  Forbidden | NotFound,
  WebhookRepository
> = Effect.fn("deleteWebhook")(function*(principal: Principal, id: number) {
  yield* authorize(principal, "webhook-delete")
  if (!isWebhookId(id)) return yield* new NotFound()
  const deleted = yield* WebhookRepository.use((repo) => repo.delete(principal.accountId, id))
  if (!deleted) return yield* new NotFound()
})

/** The challenge request, signed like a delivery (its own UUID as the delivery id). */
const challengeRequest = (url: string, secret: string, challenge: string) =>
  Effect.gen(function*() {
    const millis = DateTime.toEpochMillis(yield* DateTime.now)
    const body = JSON.stringify({ time: eventTime(millis), event: VALIDATION_EVENT, challenge })
    const headers = yield* attemptHeaders({
      event: VALIDATION_EVENT,
      deliveryId: yield* SecureRandom.SecureRandom.use((random) => random.uuidV4()),
      timestampSeconds: millis / 1000,
      body,
      signer: yield* deliverySigner(secret)
    })
    return { url, headers, body, timeout: VALIDATION_TIMEOUT }
  })

/**
 * `POST /api/account/webhooks/{id}/validate`: proves the endpoint holds the webhook's secret.
 * Wasl POSTs `{ time, event: "webhook-validation", challenge }` to the URL, signed like a delivery
 * (`X-Wasl-Signature` and the Standard Webhooks `webhook-signature`), and waits up to
 * {@link VALIDATION_TIMEOUT}. The endpoint must answer 2xx with the JSON
 * `{ "signature": "sha256=<hex HMAC-SHA256 of the challenge keyed with the secret>" }`.
 * Needs `webhook-update`.
 *
 * Answers the webhook, now validated (still inactive until {@link activateWebhook}). Fails
 * {@link Forbidden} without the permission or when the answer is missing, late, not 2xx or wrong
 * ({@link VALIDATION_FAILED_MESSAGE}; the webhook is unchanged), or when the URL changed
 * meanwhile; {@link NotFound} for an id the account has no webhook of.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { type Principal, validateWebhook } from "@wasl/core"
 *
 * const check = (principal: Principal, webhookId: number) =>
 *   validateWebhook(principal, webhookId).pipe(
 *     Effect.map((webhook) => webhook.is_validated), // true
 *     Effect.catchTag("Forbidden", (e) => Effect.succeed(e.message)) // what to fix at the endpoint
 *   )
 * ```
 */
export const validateWebhook: (
  principal: Principal,
  id: number
) => Effect.Effect<
  Webhook,
  Forbidden | NotFound,
  SecretBox | SecureRandom.SecureRandom | Transactor | WebhookRepository | WebhookTransport
> = Effect.fn("validateWebhook")(function*(principal: Principal, id: number) {
  yield* authorize(principal, "webhook-update")
  const stored = yield* load(principal.accountId, id)
  const { secret } = yield* view(stored)
  const challenge = yield* newChallenge
  const request = yield* challengeRequest(stored.url, secret, challenge)
  const response = yield* WebhookTransport.use((transport) => transport.post(request))
  const expected = yield* challengeAnswer(secret, challenge)
  const answer = response._tag === "Answered" && response.status >= 200 && response.status < 300
    ? jsonStringField(response.body, "signature")
    : undefined
  if (answer === undefined || !constantTimeEqual(answer, expected)) {
    yield* Effect.logInfo("webhook validation failed").pipe(Effect.annotateLogs({
      webhook_id: stored.id,
      outcome: response._tag === "Answered" ? `status ${response.status}` : response.error
    }))
    return yield* Effect.fail(forbidden(VALIDATION_FAILED_MESSAGE))
  }
  const transactor = yield* Transactor
  const saved = yield* transactor.transaction(Effect.gen(function*() {
    const current = yield* loadForUpdate(principal.accountId, id)
    // The endpoint that answered must still be the registered one.
    if (current.url !== stored.url) return yield* Effect.fail(forbidden(VALIDATION_FAILED_MESSAGE))
    return yield* saveChange(current, { url: current.url, state: validated(current.state), now: yield* DateTime.now })
  }))
  return yield* view(saved)
})

/** Laravel's `boolean` rule: true, false, 1, 0, "1", "0". */
const asBoolean = (value: unknown): boolean | undefined => {
  if (value === true || value === 1 || value === "1") return true
  if (value === false || value === 0 || value === "0") return false
  return undefined
}

/**
 * `PUT /api/account/webhooks/{id}/activate` `{ is_active }` (a boolean, `1`/`0` or `"1"`/`"0"`):
 * switches deliveries on or off; switching on clears the failure count. Needs `webhook-update`.
 * Answers the webhook. Fails {@link Forbidden} without the permission or when the webhook is not
 * validated, {@link NotFound} for an id the account has no webhook of, {@link ValidationFailed} on
 * `is_active`.
 */
export const activateWebhook: (
  principal: Principal,
  id: number,
  body: unknown
) => Effect.Effect<
  Webhook,
  Forbidden | NotFound | ValidationFailed,
  SecretBox | Transactor | WebhookRepository
> = Effect.fn("activateWebhook")(function*(principal: Principal, id: number, body: unknown) {
  yield* authorize(principal, "webhook-update")
  yield* load(principal.accountId, id)
  const input = cleanInput(Predicate.isObject(body) && !Array.isArray(body) ? body : {}) as object
  const raw = ownValue(input, "is_active")
  if (isBlankInput(raw)) return yield* Effect.fail(invalid("is_active", LaravelMessage.required("is_active")))
  const isActive = asBoolean(raw)
  if (isActive === undefined) return yield* Effect.fail(invalid("is_active", LaravelMessage.boolean("is_active")))
  const transactor = yield* Transactor
  const saved = yield* transactor.transaction(Effect.gen(function*() {
    const current = yield* loadForUpdate(principal.accountId, id)
    const next = activate(current.state, isActive)
    if (Result.isFailure(next)) return yield* Effect.fail(next.failure)
    return yield* saveChange(current, { url: current.url, state: next.success, now: yield* DateTime.now })
  }))
  return yield* view(saved)
})
