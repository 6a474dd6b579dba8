/**
 * Arbitraries of webhooks: their machine states, the URLs, subscriptions and secrets the service
 * accepts, and the triggers of the webhook model.
 */
import * as fc from "fast-check"
import { EVENT_NAMES, type EventName } from "../records/object-kind.ts"
import { WEBHOOK_SECRET_LENGTH } from "../webhooks/webhook.ts"
import type { WebhookInput } from "../webhooks/webhook-body.ts"
import { FAILURE_THRESHOLD, type WebhookState } from "../webhooks/webhook-state.ts"
import { instant } from "./time-arbitraries.ts"
import type { WebhookTrigger } from "./webhook-model.ts"

/**
 * Any state the webhook machine can reach: validated or not, active or not, failures counted (an
 * active webhook holds fewer than the threshold of 3), and a last failure time once one happened.
 */
export const webhookState: fc.Arbitrary<WebhookState> = fc
  .record({
    isValidated: fc.boolean(),
    isActive: fc.boolean(),
    failures: fc.nat({ max: FAILURE_THRESHOLD + 2 }),
    failedBefore: fc.boolean(),
    at: instant
  })
  .map(({ at, failedBefore, failures, isActive, isValidated }) => {
    const consecutiveFailures = isActive ? failures % FAILURE_THRESHOLD : failures
    return {
      isValidated,
      isActive,
      consecutiveFailures,
      lastFailureAt: consecutiveFailures > 0 || failedBefore ? at : null
    }
  })

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,14}[a-z0-9])?$/)

/**
 * An https URL a webhook accepts: a domain name (never an IP literal), maybe a port, a path and a
 * query, well under the 2,048-character limit.
 */
export const webhookUrl: fc.Arbitrary<string> = fc
  .record({
    labels: fc.array(label, { minLength: 1, maxLength: 3 }),
    tld: fc.stringMatching(/^[a-z]{2,6}$/),
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    path: fc.array(label, { maxLength: 4 }),
    query: fc.option(label, { nil: undefined })
  })
  .map(({ labels, path, port, query, tld }) =>
    `https://${[...labels, tld].join(".")}${port === undefined ? "" : `:${port}`}/${path.join("/")}${
      query === undefined ? "" : `?token=${query}`
    }`
  )

/** One of the 72 event names (`contact-created` ... `product-note-deleted`). */
export const eventName: fc.Arbitrary<EventName> = fc.constantFrom(...EVENT_NAMES)

/** A subscription list a webhook accepts: at least one event name, each at most once. */
export const webhookEventNames: fc.Arbitrary<ReadonlyArray<EventName>> = fc.uniqueArray(eventName, {
  minLength: 1,
  maxLength: 12
})

/** The body of a webhook create or update: a URL and its subscriptions. */
export const webhookInput: fc.Arbitrary<WebhookInput> = fc.record({ url: webhookUrl, events: webhookEventNames })

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/** A webhook secret as the service generates one: 32 letters and digits. */
export const webhookSecret: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(...ALPHANUMERIC),
  minLength: WEBHOOK_SECRET_LENGTH,
  maxLength: WEBHOOK_SECRET_LENGTH
})

// The model's runs subscribe to and fire events from these three, so that an occurring event is
// often one the webhook subscribes to (among all 72 it rarely would be).
const RUN_EVENTS: ReadonlyArray<EventName> = ["deal-created", "contact-updated", "ticket-note-created"]
const runEvents = fc.subarray([...RUN_EVENTS], { minLength: 1 })

/**
 * A trigger of the webhook model. Half are events occurring (sent or not; their deliveries exhaust
 * their attempts two times in three, else succeed); the rest create, update (a new URL, or the same URL with new
 * subscriptions), validate (the challenge answered four times in five), activate (true three times in
 * four) and, less often, delete. Subscriptions and occurring events come from three event names, so
 * occurring events often match.
 */
export const webhookTrigger: fc.Arbitrary<WebhookTrigger> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Create"), url: webhookUrl, events: runEvents }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Update"), url: webhookUrl, events: runEvents }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("UpdateEvents"), events: runEvents }) },
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Validate"), answersChallenge: fc.nat({ max: 4 }).map((n) => n !== 0) }) },
  { weight: 4, arbitrary: fc.record({ _tag: fc.constant("Activate"), isActive: fc.nat({ max: 3 }).map((n) => n !== 0) }) },
  { weight: 1, arbitrary: fc.constant({ _tag: "Delete" }) },
  {
    // Three exhausted deliveries in a row switch a webhook off: runs need many events to get there.
    weight: 15,
    arbitrary: fc.record({
      _tag: fc.constant("EventOccurs"),
      event: fc.constantFrom(...RUN_EVENTS),
      outcome: fc.constantFrom("Succeeded", "Exhausted", "Exhausted")
    })
  }
)
