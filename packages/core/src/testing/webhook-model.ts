/**
 * The webhook state machine's reference model, written from the rules of the webhook resource:
 *
 * | state | trigger | next state | answer |
 * |---|---|---|---|
 * | (none) | create | (false, false), no failures | Done |
 * | any | validate, challenge answered | (true, unchanged) | Done |
 * | any | validate, challenge not answered | unchanged | Forbidden |
 * | any | update with a changed URL | (false, unchanged), failures cleared, events replaced | Done |
 * | any | update with the same URL | unchanged, events replaced | Done |
 * | (true, any) | activate true | (true, true), failures cleared | Done |
 * | (true, any) | activate false | (true, false) | Done |
 * | (false, any) | activate | unchanged | Forbidden |
 * | (true, true), subscribed | event delivered | failures 0 | Succeeded |
 * | (true, true), subscribed | event exhausts its attempts | failures + 1, last failure now; at 3: (true, false) | Exhausted, or Deactivated at 3 |
 * | otherwise | event occurs | unchanged, nothing sent | NotSent |
 * | any | delete | removed | Done |
 * | (none) | anything but create | nothing | NotFound |
 *
 * Invariants after every step: events are sent only in (true, true); an active webhook never holds
 * 3 failures; `canDeliver` holds exactly in (true, true).
 */
import { DateTime } from "effect"
import type { EventName } from "../records/object-kind.ts"
import { canDeliver, FAILURE_THRESHOLD, type WebhookState } from "../webhooks/webhook-state.ts"
import { differences } from "./differences.ts"
import type { ReferenceModel, Transition } from "./reference-model.ts"

/** What happens to a webhook: the triggers of its state machine. */
export type WebhookTrigger =
  /** `POST /api/account/webhooks`. */
  | { readonly _tag: "Create"; readonly url: string; readonly events: ReadonlyArray<EventName> }
  /** `PUT .../{id}` with this URL (usually another one) and subscriptions. */
  | { readonly _tag: "Update"; readonly url: string; readonly events: ReadonlyArray<EventName> }
  /** `PUT .../{id}` with the URL the webhook already has and these subscriptions. */
  | { readonly _tag: "UpdateEvents"; readonly events: ReadonlyArray<EventName> }
  /** `POST .../{id}/validate`: the endpoint answers the challenge correctly or not. */
  | { readonly _tag: "Validate"; readonly answersChallenge: boolean }
  /** `PUT .../{id}/activate` `{ is_active }`. */
  | { readonly _tag: "Activate"; readonly isActive: boolean }
  /** `event` occurs in the account; if it is sent, its delivery ends with `outcome`. */
  | { readonly _tag: "EventOccurs"; readonly event: EventName; readonly outcome: "Succeeded" | "Exhausted" }
  /** `DELETE .../{id}`. */
  | { readonly _tag: "Delete" }

/**
 * What the system answers a trigger: `Done`; `Forbidden` (validation failed, or activation of an
 * unvalidated webhook); `NotFound` (no webhook); for an occurring event, `NotSent`, `Succeeded`,
 * `Exhausted`, or `Deactivated` for the exhausted delivery that switched the webhook off (the one
 * that sends the deactivation notice).
 */
export type WebhookAnswer = "Done" | "Forbidden" | "NotFound" | "NotSent" | "Succeeded" | "Exhausted" | "Deactivated"

/** A stored webhook as the system under test shows it: URL, subscriptions and machine state. */
export interface WebhookSnapshot {
  /** The registered URL. */
  readonly url: string
  /** The subscribed event names, in any order. */
  readonly events: ReadonlyArray<EventName>
  /** The state machine's fields. */
  readonly state: WebhookState
}

/** The model's webhook: the same fields, time in epoch milliseconds. */
export interface ModelWebhook {
  /** The registered URL. */
  readonly url: string
  /** The subscribed event names. */
  readonly events: ReadonlyArray<EventName>
  /** Whether the endpoint answered the challenge (since its URL last changed). */
  readonly isValidated: boolean
  /** Whether deliveries are switched on. */
  readonly isActive: boolean
  /** Deliveries in a row that used all their attempts. */
  readonly consecutiveFailures: number
  /** When the last delivery used all its attempts, epoch ms; null before any did. */
  readonly lastFailureAt: number | null
}

/** The model's state: the webhook, or null before it is created and after it is deleted. */
export type WebhookModelState = ModelWebhook | null

const done = (webhook: ModelWebhook | null, answer: WebhookAnswer = "Done"): Transition<WebhookModelState, WebhookAnswer> => ({
  state: webhook,
  answer
})

const occurs = (
  w: ModelWebhook,
  trigger: Extract<WebhookTrigger, { _tag: "EventOccurs" }>,
  nowMillis: number
): Transition<WebhookModelState, WebhookAnswer> => {
  const sent = w.isValidated && w.isActive && w.events.includes(trigger.event)
  if (!sent) return done(w, "NotSent")
  if (trigger.outcome === "Succeeded") return done({ ...w, consecutiveFailures: 0 }, "Succeeded")
  const failures = w.consecutiveFailures + 1
  const switchedOff = failures >= FAILURE_THRESHOLD
  return done(
    { ...w, consecutiveFailures: failures, lastFailureAt: nowMillis, isActive: !switchedOff },
    switchedOff ? "Deactivated" : "Exhausted"
  )
}

const apply = (w: WebhookModelState, trigger: WebhookTrigger, nowMillis: number): Transition<WebhookModelState, WebhookAnswer> => {
  if (trigger._tag === "Create") {
    const { events, url } = trigger
    return done({ url, events, isValidated: false, isActive: false, consecutiveFailures: 0, lastFailureAt: null })
  }
  if (w === null) return done(null, trigger._tag === "EventOccurs" ? "NotSent" : "NotFound")
  switch (trigger._tag) {
    case "Validate":
      return trigger.answersChallenge ? done({ ...w, isValidated: true }) : done(w, "Forbidden")
    case "Update":
      return trigger.url === w.url
        ? done({ ...w, events: trigger.events })
        : done({ ...w, url: trigger.url, events: trigger.events, isValidated: false, consecutiveFailures: 0 })
    case "UpdateEvents":
      return done({ ...w, events: trigger.events })
    case "Activate":
      if (!w.isValidated) return done(w, "Forbidden")
      return done(trigger.isActive ? { ...w, isActive: true, consecutiveFailures: 0 } : { ...w, isActive: false })
    case "EventOccurs":
      return occurs(w, trigger, nowMillis)
    case "Delete":
      return done(null)
  }
}

const compare = (w: WebhookModelState, observed: WebhookSnapshot | null): ReadonlyArray<string> => {
  if (w === null || observed === null) {
    if (w === observed) return []
    return [w === null ? "the webhook exists, the model has none" : "the webhook is gone, the model still has it"]
  }
  const d = differences()
  const { state } = observed
  d.field("URL", observed.url, w.url)
  d.field("events", [...observed.events].sort(), [...w.events].sort())
  d.field("isValidated", state.isValidated, w.isValidated)
  d.field("isActive", state.isActive, w.isActive)
  d.field("consecutiveFailures", state.consecutiveFailures, w.consecutiveFailures)
  d.field("lastFailureAt", state.lastFailureAt === null ? null : DateTime.toEpochMillis(state.lastFailureAt), w.lastFailureAt)
  d.rule("canDeliver holds exactly when validated and active", canDeliver(state) === (state.isValidated && state.isActive))
  d.rule("the failure count is never negative", state.consecutiveFailures >= 0)
  d.rule(`an active webhook holds fewer than ${FAILURE_THRESHOLD} failures`, !state.isActive || state.consecutiveFailures < FAILURE_THRESHOLD)
  return d.list
}

const show = (trigger: WebhookTrigger): string => {
  switch (trigger._tag) {
    case "Create":
    case "Update":
      return `${trigger._tag.toLowerCase()}(${trigger.url}, [${trigger.events.join(", ")}])`
    case "UpdateEvents":
      return `update(same URL, [${trigger.events.join(", ")}])`
    case "Validate":
      return `validate(${trigger.answersChallenge ? "answered" : "not answered"})`
    case "Activate":
      return `activate(${trigger.isActive})`
    case "EventOccurs":
      return `${trigger.event} occurs(${trigger.outcome} if sent)`
    case "Delete":
      return "delete"
  }
}

/**
 * The reference model of one webhook (see the table above). Only `Create` needs a precondition:
 * one webhook per run, so it waits until there is none.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(webhookCommands(), (cmds) => fc.modelRun(webhookModelSetup, cmds)))
 * ```
 */
export const webhookModel: ReferenceModel<WebhookModelState, WebhookTrigger, WebhookAnswer, WebhookSnapshot | null> = {
  canApply: (w, trigger) => trigger._tag !== "Create" || w === null,
  apply,
  compare: (w, observed) => compare(w, observed),
  show
}
