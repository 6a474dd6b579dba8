/**
 * An outside project property-tests Wasl's webhook state machine with fast-check, through
 * `@wasl/core/testing`: random sequences of create, validate, (de)activate, URL changes,
 * deliveries and deletes, checked step by step against the reference model of the rules.
 */
import { DateTime, Effect } from "effect"
import * as fc from "fast-check"
import { describe, it } from "vitest"
import type { EventName } from "@wasl/core/Records"
import { type SnapshotStore, webhookCommands, webhookModelSetup, type WebhookSnapshot, webhookSystem } from "@wasl/core/testing"

describe("the webhook state machine", () => {
  it("follows the reference model over random command sequences", () => {
    fc.assert(fc.property(webhookCommands(), (commands) => fc.modelRun(webhookModelSetup, commands)), { numRuns: 300 })
  })

  it("still does when the state goes through our own storage format (JSON text)", () => {
    // Our service stores webhooks as JSON text: the kit runs Wasl's transitions over that storage.
    const jsonStore = (): SnapshotStore<WebhookSnapshot | null> => {
      let text = "null"
      return {
        load: Effect.sync(() => {
          const row = JSON.parse(text)
          return row === null ? null : {
            url: row.url,
            events: row.events as Array<EventName>,
            state: { ...row.state, lastFailureAt: row.state.lastFailureAt === null ? null : DateTime.makeUnsafe(row.state.lastFailureAt) }
          }
        }),
        save: (webhook) =>
          Effect.sync(() => {
            text = JSON.stringify(webhook === null ? null : {
              ...webhook,
              state: { ...webhook.state, lastFailureAt: webhook.state.lastFailureAt && DateTime.formatIso(webhook.state.lastFailureAt) }
            })
          })
      }
    }
    fc.assert(
      fc.property(webhookCommands(), (commands) =>
        fc.modelRun(() => webhookModelSetup({ system: webhookSystem(jsonStore()) }), commands)),
      { numRuns: 300 }
    )
  })
})
