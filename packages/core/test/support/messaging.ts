/**
 * The ports of the messaging and OTP use-case tests, all in memory: `TestPorts`, the memory
 * messaging provider (its `SentMessages` stand in for the recipient's phone), the messaging
 * settings, a SecretBox, and a contacts-only RecordRepository.
 */
import { MessagingProviderMemory, MessagingSettingsLayer } from "@wasl/adapters"
import { DateTime, Duration, Effect, Layer, Option, Ref } from "effect"
import {
  createBroadcast,
  createPlatform,
  type FilterNode,
  type Principal,
  RecordRepository,
  type RecordWithDerived,
  SecretBox,
  type StoredValues
} from "../../src/index.ts"
import { TestPorts } from "./layers.ts"

/**
 * Contacts only, in memory: what recipient.ts asks of the RecordRepository (insert, get, and a list
 * filtered by an or-group of `eq` conditions, oldest first). A stand-in until the memory adapters
 * carry a RecordRepository; any other use dies.
 */
const ContactsMemory: Layer.Layer<RecordRepository> = Layer.effect(
  RecordRepository,
  Effect.gen(function*() {
    const contacts = yield* Ref.make<ReadonlyArray<RecordWithDerived>>([])
    const unsupported = (what: string) => Effect.die(new Error(`ContactsMemory does not ${what}`))
    const contactsOf = (accountId: number, kind: string) =>
      kind === "contact"
        ? Effect.map(Ref.get(contacts), (all) => all.filter((c) => c.record.account_id === accountId))
        : unsupported(`hold ${kind} records`)
    const matches = (values: StoredValues, node: FilterNode): boolean =>
      node._tag === "Or"
        ? node.conditions.some((condition) => matches(values, condition))
        : node.operator === "eq" && values[node.property] === node.value
    return RecordRepository.of({
      insert: (input) =>
        Effect.gen(function*() {
          if (input.kind !== "contact") return yield* unsupported(`hold ${input.kind} records`)
          const now = yield* DateTime.now
          const stored: RecordWithDerived = {
            record: { _id: input.id, account_id: input.accountId, values: input.values, created_at: now, updated_at: now },
            derived: { channels: [], dealIds: [] }
          }
          yield* Ref.update(contacts, (all) => [...all, stored])
          return stored
        }),
      get: (input) =>
        Effect.map(contactsOf(input.accountId, input.kind), (all) =>
          Option.fromNullishOr(all.find((c) => c.record._id === input.id))),
      list: (input) =>
        Effect.map(contactsOf(input.accountId, input.kind), (all) => {
          const found = all.filter((c) => input.filters.every((node) => matches(c.record.values, node)))
          return { rows: found.slice((input.page - 1) * input.perPage, input.page * input.perPage), total: found.length }
        }),
      update: () => unsupported("update"),
      delete: () => unsupported("delete"),
      existing: () => unsupported("check ids"),
      link: () => unsupported("link"),
      unlink: () => unsupported("unlink")
    })
  })
)

const SECRET_KEY = new Uint8Array(32).fill(9)

/** `TestPorts` with the messaging ports, all in memory. */
export const MessagingTestPorts = (options: { readonly otpCooldown?: Duration.Input } = {}) =>
  Layer.mergeAll(
    MessagingProviderMemory,
    MessagingSettingsLayer({ otpCooldown: options.otpCooldown ?? Duration.seconds(60) }),
    SecretBox.layerAesGcm(SECRET_KEY),
    ContactsMemory
  ).pipe(Layer.provideMerge(TestPorts()))

/** A sandbox sending number and an authentication broadcast on it (codes live `minutes`). */
export const otpBroadcast = (principal: Principal, minutes: number | null = 10) =>
  Effect.gen(function*() {
    const platform = yield* createPlatform(principal, { name: "Sandbox", display_phone_number: "+966110000000" })
    return yield* createBroadcast(principal, {
      name: "Login",
      language: "en",
      platform_id: platform.id,
      template: { name: "login_code", category: "AUTHENTICATION", body: "Your code is {{1}}.", code_expiration_minutes: minutes }
    })
  })

/** A contact of the account reached at `number`. */
export const contactAt = (accountId: number, number: string) =>
  RecordRepository.use((records) =>
    records.insert({
      accountId,
      kind: "contact",
      id: `c0ffee${String(accountId).padStart(6, "0")}${number.replace(/[^0-9]/g, "").slice(-12).padStart(12, "0")}`,
      custom: [],
      values: { whatsapp_number: number }
    })
  ).pipe(Effect.map((stored) => stored.record._id))
