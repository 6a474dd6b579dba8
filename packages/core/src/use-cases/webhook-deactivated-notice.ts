/**
 * The Webhook Deactivated notification. Called by the delivery worker
 * inside the transaction that switches the webhook off, so the switch-off and its notice commit
 * together or not at all.
 *
 * Every ACTIVE member of the account whose teams hold `webhook-update` is told, through each
 * channel their `WebhookDeactivated` preference enables (notify.ts).
 */
import { Effect } from "effect"
import { NotificationRepository } from "../account/notification-repository.ts"
import { publicLink } from "../public-url.ts"
import { notifyRecipients } from "./notify.ts"

/** The notification's name. */
export const WEBHOOK_DEACTIVATED = "WebhookDeactivated" as const

/** The notification's message, also the first line of its mail. */
export const webhookDeactivatedMessage = (url: string): string =>
  `The webhook ${url} was switched off: 3 deliveries in a row failed after using all their attempts.`

/** The mail's text; the activation endpoint on the public URL when one is set. */
const mailText = (url: string, webhookId: number) =>
  Effect.map(publicLink(`/api/account/webhooks/${webhookId}/activate`), (activate) =>
    [
      webhookDeactivatedMessage(url),
      "",
      "No events are sent to it until it is activated again. Once the endpoint answers, reactivate it with",
      `PUT ${activate} and the body {"is_active": true}.`
    ].join("\n"))

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
    const recipients = yield* NotificationRepository.use((notifications) =>
      notifications.recipients(accountId, "webhook-update", WEBHOOK_DEACTIVATED)
    )
    yield* notifyRecipients(accountId, WEBHOOK_DEACTIVATED, recipients, {
      data: { webhook_id: webhookId, url, message: webhookDeactivatedMessage(url) },
      mail: { subject: "Webhook deactivated", text: yield* mailText(url, webhookId) }
    })
    return recipients.length
  }
)
