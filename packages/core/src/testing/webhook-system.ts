/**
 * The webhook system under test: the core's real transitions (`validated`, `activate`,
 * `urlChanged`, `deliverySucceeded`, `deliveryExhausted`, `canDeliver`) applied to a stored webhook,
 * the way the management use-cases and the delivery worker apply them.
 */
import type { DateTime } from "effect"
import { Result } from "effect"
import {
  activate,
  canDeliver,
  deliveryExhausted,
  deliverySucceeded,
  initialWebhookState,
  urlChanged,
  validated
} from "../webhooks/webhook-state.ts"
import type { SystemUnderTest, Transition } from "./reference-model.ts"
import { memoryStore, type SnapshotStore, storedSystem } from "./snapshot-store.ts"
import type { WebhookAnswer, WebhookSnapshot, WebhookTrigger } from "./webhook-model.ts"

/** A system under test for the webhook model: it holds one webhook (null when there is none). */
export type WebhookSystem = SystemUnderTest<WebhookTrigger, WebhookAnswer, WebhookSnapshot | null>

const keep = (snapshot: WebhookSnapshot | null, answer: WebhookAnswer = "Done"): Transition<WebhookSnapshot | null, WebhookAnswer> => ({
  state: snapshot,
  answer
})

/**
 * One trigger applied to a stored webhook with the core's transitions: the next snapshot (null once
 * deleted) and the answer. Build your own system from it when only the storage is yours (see
 * `webhookSystem`), or wrap it to change one rule.
 */
export const applyWebhookTrigger = (
  stored: WebhookSnapshot | null,
  trigger: WebhookTrigger,
  now: DateTime.Utc
): Transition<WebhookSnapshot | null, WebhookAnswer> => {
  if (trigger._tag === "Create") return keep({ url: trigger.url, events: trigger.events, state: initialWebhookState })
  if (stored === null) return keep(null, trigger._tag === "EventOccurs" ? "NotSent" : "NotFound")
  switch (trigger._tag) {
    case "Validate":
      return trigger.answersChallenge ? keep({ ...stored, state: validated(stored.state) }) : keep(stored, "Forbidden")
    case "Update": {
      // What updateWebhook does: a different URL needs validating again.
      const state = trigger.url === stored.url ? stored.state : urlChanged(stored.state)
      return keep({ url: trigger.url, events: trigger.events, state })
    }
    case "UpdateEvents":
      return keep({ ...stored, events: trigger.events })
    case "Activate": {
      const next = activate(stored.state, trigger.isActive)
      return Result.isFailure(next) ? keep(stored, next.failure._tag) : keep({ ...stored, state: next.success })
    }
    case "EventOccurs": {
      // What the fan-out and the worker do: send only to a subscribed webhook that can deliver.
      if (!canDeliver(stored.state) || !stored.events.includes(trigger.event)) return keep(stored, "NotSent")
      if (trigger.outcome === "Succeeded") return keep({ ...stored, state: deliverySucceeded(stored.state) }, "Succeeded")
      const exhausted = deliveryExhausted(stored.state, now)
      return keep({ ...stored, state: exhausted.state }, exhausted.deactivated ? "Deactivated" : "Exhausted")
    }
    case "Delete":
      return keep(null)
  }
}

/**
 * The core's webhook transitions over `store` (by default a variable that starts empty). Pass your
 * own store to check your persistence of the webhook: what it saves must load back unchanged.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(webhookCommands(), (cmds) =>
 *   fc.modelRun(() => webhookModelSetup({ system: webhookSystem(myStore()) }), cmds)))
 * ```
 */
export const webhookSystem = (
  store: SnapshotStore<WebhookSnapshot | null> = memoryStore<WebhookSnapshot | null>(null)
): WebhookSystem => storedSystem(store, applyWebhookTrigger)
