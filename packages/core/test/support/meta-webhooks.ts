/**
 * Webhook bodies as Meta's WhatsApp Cloud API sends them (the examples of its messages webhook
 * reference): one change of field `messages` for a business number, with the senders' profiles,
 * their messages and the statuses of the number's sends.
 */

/** A sender: WhatsApp id and profile name. */
export interface MetaSender {
  readonly waId: string
  readonly name?: string
}

/** The body of one `messages` change of the number `phoneNumberId`. */
export const metaBody = (
  phoneNumberId: string,
  value: {
    readonly contacts?: ReadonlyArray<MetaSender>
    readonly messages?: ReadonlyArray<unknown>
    readonly statuses?: ReadonlyArray<unknown>
    readonly displayPhoneNumber?: string
  }
): string =>
  JSON.stringify({
    object: "whatsapp_business_account",
    entry: [{
      id: "102290129340398",
      changes: [{
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: value.displayPhoneNumber ?? "15550783881", phone_number_id: phoneNumberId },
          ...(value.contacts === undefined ? {} : {
            contacts: value.contacts.map((c) => ({ profile: c.name === undefined ? {} : { name: c.name }, wa_id: c.waId }))
          }),
          ...(value.messages === undefined ? {} : { messages: value.messages }),
          ...(value.statuses === undefined ? {} : { statuses: value.statuses })
        },
        field: "messages"
      }]
    }]
  })

/** A received message of `type` carrying `own` as its type's object. */
export const metaMessage = (
  from: string,
  id: string,
  timestamp: number,
  type: string,
  own: Record<string, unknown> = {}
): Record<string, unknown> => ({ from, id, timestamp: String(timestamp), type, ...own })

/** A text message. */
export const metaText = (from: string, id: string, timestamp: number, body: string) =>
  metaMessage(from, id, timestamp, "text", { text: { body } })

/** A status of a message the number sent. */
export const metaStatus = (
  id: string,
  status: string,
  timestamp: number,
  recipient: string,
  errors?: ReadonlyArray<unknown>,
  tracking?: string
): Record<string, unknown> => ({
  id,
  status,
  timestamp: String(timestamp),
  recipient_id: recipient,
  ...(status === "failed" ? {} : {
    conversation: { id: "CONVERSATION_ID", origin: { type: "utility" } },
    pricing: { billable: true, pricing_model: "PMP", category: "utility" }
  }),
  ...(errors === undefined ? {} : { errors }),
  ...(tracking === undefined ? {} : { biz_opaque_callback_data: tracking })
})
