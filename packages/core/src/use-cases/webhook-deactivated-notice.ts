/**
 * The Webhook Deactivated notification. Called by the delivery worker
 * inside the transaction that switches the webhook off, so the switch-off and its notice commit
 * together or not at all.
 *
 * Every ACTIVE member of the account whose teams hold `webhook-update` is told, through each
 * channel their `WebhookDeactivated` preference enables (all on by default): a notification row
 * carrying the stored/popup/browser flags when any of those is on, and a queued mail when email
 * is on (sent after commit by `sendPendingEmails`, never inside the worker's transaction). A
 * member who silenced every channel gets nothing.
 */
import { Effect } from "effect"
import { NotificationRepository } from "../account/notification-repository.ts"
import { deliverNotice } from "./notify-user.ts"

/** The notification's name. */
export const WEBHOOK_DEACTIVATED = "WebhookDeactivated" as const

/** The notification's message, also the first line of its mail. */
export const webhookDeactivatedMessage = (url: string): string =>
  `The webhook ${url} was switched off: 3 deliveries in a row failed after using all their attempts.`

const mailText = (url: string, webhookId: number) =>
  [
    webhookDeactivatedMessage(url),
    "",
    "No events are sent to it until it is activated again. Once the endpoint answers, reactivate it with",
    `PUT /api/account/webhooks/${webhookId}/activate and the body {"is_active": true}.`
  ].join("\n")

/**
 * Tells the account's members who may update webhooks that the webhook at `url` was switched off:
 * a notification (and a queued mail, per each member's preference). Call it inside the
 * transaction that switches the webhook off. Answers how many members were considered (those who
 * silenced every channel included).
 */
export const notifyWebhookDeactivated: (
  accountId: number,
  webhookId: number,
  url: string
) => Effect.Effect<number, never, NotificationRepository> = Effect.fn("notifyWebhookDeactivated")(
  function*(accountId: number, webhookId: number, url: string) {
    const notifications = yield* NotificationRepository
    const recipients = yield* notifications.recipients(accountId, "webhook-update", WEBHOOK_DEACTIVATED)
    const notice = {
      type: WEBHOOK_DEACTIVATED,
      data: { webhook_id: webhookId, url, message: webhookDeactivatedMessage(url) },
      mail: { subject: "Webhook deactivated", text: mailText(url, webhookId) }
    }
    for (const recipient of recipients) {
      yield* deliverNotice(accountId, recipient.userId, recipient.channels, notice)
    }
    return recipients.length
  }
)
