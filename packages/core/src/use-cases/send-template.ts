/**
 * `POST /api/broadcasts/{id}/send` (spec §4.1, decisions §7): a non-authentication template to one
 * contact, with its header file and offer code when the template has them. Needs
 * `broadcast-send`. Sends cost no OTP credit. A provider rejection is a 422 on contact_id and stores
 * nothing.
 */
import { Effect } from "effect"
import type { Principal } from "../auth/principal.ts"
import { forbidden } from "../errors.ts"
import { sendThroughProvider, storeMessage } from "../messaging/dispatch.ts"
import { recipientOfContact } from "../messaging/recipient.ts"
import { type UploadedFile, validateSendInput } from "../messaging/send-input.ts"
import { authorize } from "./authenticate.ts"
import { findBroadcast } from "./messaging.ts"

export const AUTHENTICATION_ONLY_VIA_SEND_OTP = "Authentication templates can only be sent through send-otp."
export const NOT_APPROVED = "The template is not approved."

export const sendTemplate = Effect.fn("sendTemplate")(function*(
  principal: Principal,
  broadcastId: number,
  body: unknown,
  file: UploadedFile | undefined
) {
  yield* authorize(principal, "broadcast-send")
  const broadcast = yield* findBroadcast(principal.accountId, broadcastId)
  if (broadcast.template.category === "AUTHENTICATION") return yield* forbidden(AUTHENTICATION_ONLY_VIA_SEND_OTP)
  if (broadcast.status !== "APPROVED") return yield* forbidden(NOT_APPROVED)
  const input = yield* validateSendInput(broadcast.template, body, file)
  const recipient = yield* recipientOfContact(principal.accountId, input.contactId)
  const messageId = yield* sendThroughProvider(broadcast, recipient, "contact_id", {
    ...(input.offerCode === undefined ? {} : { offerCode: input.offerCode }),
    ...(input.headerMedia === undefined ? {} : { headerMedia: input.headerMedia })
  })
  const message = yield* storeMessage(broadcast, recipient, messageId, false)
  return { message, broadcast }
})
