/**
 * The callbacks Meta would send about a `sandbox` number, as the raw JSON bodies of its webhook
 * reference: a message status (`sent`, `delivered`, `read`) and a received text message. The
 * sandbox hands them to the WhatsApp inbox, so they take the same path as Meta's own. A sandbox
 * number has no phone number id at Meta: its digits stand in for it (`metadata.phone_number_id`),
 * which is the `platform_third_party_id` its messages carry.
 */
import { DateTime } from "effect"

/** The sandbox number a callback is about. */
export interface SandboxNumber {
  /** The number's digits: its display number and its stand-in phone number id. */
  readonly digits: string
}

/** Meta's timestamps: Unix seconds, as a string. */
const unixSeconds = (at: DateTime.Utc) => String(Math.floor(DateTime.toEpochMillis(at) / 1000))

const envelope = (number: SandboxNumber, value: Record<string, unknown>) =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      id: number.digits,
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: number.digits, phone_number_id: number.digits },
          ...value
        }
      }]
    }]
  })

/**
 * A status callback: the message `messageId` sent to `recipient` is now `status`; `tracking` is
 * the send's tracking string, handed back as `biz_opaque_callback_data`.
 */
export const sandboxStatusBody = (
  number: SandboxNumber,
  messageId: string,
  recipient: string,
  status: "sent" | "delivered" | "read",
  at: DateTime.Utc,
  tracking?: string
): string =>
  envelope(number, {
    statuses: [{
      id: messageId,
      status,
      timestamp: unixSeconds(at),
      recipient_id: recipient,
      ...(tracking === undefined ? {} : { biz_opaque_callback_data: tracking }),
      ...(status === "read" ? {} : {
        conversation: { id: `sandbox-${recipient}`, origin: { type: "service" } },
        pricing: { billable: false, pricing_model: "PMP", category: "service", type: "free_customer_service" }
      })
    }]
  })

/** A received text message from `from` (digits), whose WhatsApp profile name is `profileName`. */
export const sandboxTextBody = (
  number: SandboxNumber,
  message: { readonly id: string; readonly from: string; readonly profileName: string; readonly text: string },
  at: DateTime.Utc
): string =>
  envelope(number, {
    contacts: [{ profile: { name: message.profileName }, wa_id: message.from }],
    messages: [{ from: message.from, id: message.id, timestamp: unixSeconds(at), type: "text", text: { body: message.text } }]
  })
