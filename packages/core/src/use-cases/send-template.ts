/**
 * `POST /api/broadcasts/{id}/send`: a non-authentication template to one
 * contact, with its header file and offer code when the template has them. Needs
 * `broadcast-send`. Each send uses one message of the account's monthly allowance (none left: 402,
 * nothing sent or stored); sends cost no OTP credit. A provider rejection is a 422 on contact_id,
 * stores nothing and gives the message of the allowance back.
 */
import { Effect, Option } from "effect"
import type { SecureRandom } from "effect/crypto"
import type { MessageAllowanceLedger } from "../account/message-allowance-ledger.ts"
import type { Principal } from "../auth/principal.ts"
import type { SecretBox } from "../auth/secret-box.ts"
import {
  type Forbidden,
  forbidden,
  type NotFound,
  type PaymentRequired,
  type ServiceUnavailable,
  type ValidationFailed
} from "../errors.ts"
import type { Broadcast } from "../messaging/broadcast.ts"
import { type MessageStoreServices, sendThroughProvider, storeMessage } from "../messaging/dispatch.ts"
import type { Message } from "../messaging/message.ts"
import type { MessagingProvider } from "../messaging/messaging-provider.ts"
import type { BroadcastRepository } from "../messaging/broadcast-repository.ts"
import { recipientOfContact } from "../messaging/recipient.ts"
import { type UploadedFile, validateSendInput } from "../messaging/send-input.ts"
import { failIfAny, templateVariableCounts } from "../messaging/template.ts"
import { type FilledParameters, fillParameters, type ParameterSources } from "../messaging/template-variables.ts"
import { findBuiltinProperty } from "../records/builtin-properties.ts"
import { PropertyRepository } from "../records/property-repository.ts"
import { RecordRepository } from "../records/record-repository.ts"
import { authorize } from "./authenticate.ts"
import { giveBackMessageAllowance, useMessageAllowance } from "./message-allowance.ts"
import { findBroadcast } from "./messaging.ts"

/** The 403 message of a send of an authentication template (those go through `sendOtp`). */
export const AUTHENTICATION_ONLY_VIA_SEND_OTP = "Authentication templates can only be sent through send-otp."
/** The 403 message of a send of a template that is not approved. */
export const NOT_APPROVED = "The template is not approved."

/**
 * The values of the broadcast's variables for the contact: the given texts, and the contact's
 * values of the properties named; 422 under `parameters.*` for a value missing, extra, or naming
 * a property the account has not or the contact holds no value of.
 */
const parametersFor = (
  broadcast: Broadcast,
  accountId: number,
  contactId: string,
  sources: ParameterSources
): Effect.Effect<FilledParameters, ValidationFailed, PropertyRepository | RecordRepository> =>
  Effect.gen(function*() {
    const custom = yield* PropertyRepository.use((repo) => repo.list(accountId, "contact"))
    const names = sources.body.concat(sources.header).some((s) => typeof s !== "string")
    const contact = names
      ? yield* RecordRepository.use((repo) => repo.get({ accountId, kind: "contact", id: contactId, custom }))
      : Option.none()
    const values = Option.match(contact, { onNone: () => ({}), onSome: (c) => c.record.values })
    const known = (name: string) =>
      findBuiltinProperty("contact", name) !== undefined || custom.some((p) => p.internal_name === name)
    const errors: Record<string, Array<string>> = {}
    const filled = fillParameters(templateVariableCounts(broadcast.template), sources, values, known, errors)
    yield* failIfAny(errors)
    return filled!
  })

/** What {@link sendTemplate} answers: the stored message and the broadcast it was sent with. */
export interface TemplateSent {
  /** The message, as stored. */
  readonly message: Message
  /** The broadcast sent. */
  readonly broadcast: Broadcast
}

/**
 * `POST /api/broadcasts/{id}/send` `{ contact_id, components?, parameters? }`: sends the
 * broadcast's template to one contact of the account through the messaging provider and stores
 * the message, its variables filled from `parameters` (texts, or the contact's properties). `file` is
 * the `header.file` upload a template with a media header needs; `components` carries the offer
 * code of a template with a copy-code button. Uses one message of the account's monthly allowance
 * (given back when the provider refuses it); costs no OTP credit. Needs `broadcast-send`.
 *
 * Answers the message and the broadcast. Fails {@link Forbidden} without the permission, for an
 * authentication template ({@link AUTHENTICATION_ONLY_VIA_SEND_OTP}) or one not approved
 * ({@link NOT_APPROVED}); {@link NotFound} for a broadcast the account does not have;
 * {@link ValidationFailed} for an invalid body or file, a contact without a number, a variable's
 * value missing or extra (`parameters.body.0`, ...), or a rejection
 * by the provider (on `contact_id`; nothing is stored); {@link PaymentRequired} when the month's
 * allowance is used up (`MESSAGE_ALLOWANCE_USED_UP`; nothing is sent); {@link ServiceUnavailable}
 * when the provider cannot be reached for now.
 */
export const sendTemplate: (
  principal: Principal,
  broadcastId: number,
  body: unknown,
  file: UploadedFile | undefined
) => Effect.Effect<
  TemplateSent,
  Forbidden | NotFound | PaymentRequired | ServiceUnavailable | ValidationFailed,
  | BroadcastRepository
  | MessageAllowanceLedger
  | MessageStoreServices
  | MessagingProvider
  | PropertyRepository
  | RecordRepository
  | SecretBox
  | SecureRandom.SecureRandom
> = Effect.fn("sendTemplate")(function*(
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
  const parameters = yield* parametersFor(broadcast, principal.accountId, recipient.contactId, input.parameters)
  const hasVariables = parameters.body.length + parameters.header.length > 0
  const allowance = yield* useMessageAllowance(principal.accountId)
  const messageId = yield* sendThroughProvider(broadcast, recipient, "contact_id", {
    ...(input.offerCode === undefined ? {} : { offerCode: input.offerCode }),
    ...(input.headerMedia === undefined ? {} : { headerMedia: input.headerMedia }),
    ...(hasVariables ? { parameters } : {})
  }).pipe(Effect.onError(() => giveBackMessageAllowance(allowance)))
  const message = yield* storeMessage(broadcast, recipient, messageId, false, hasVariables ? parameters : undefined)
  return { message, broadcast }
})
