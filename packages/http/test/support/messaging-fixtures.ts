/** Sending numbers, broadcasts and contacts for the messaging suites, created through the API. */
import type { FakeCloudApi } from "@wasl/adapters/testing"
import type { Message } from "@wasl/core/Messaging"
import type { DateTime } from "effect"
import type { TestServer } from "./server.ts"

let seq = 0
/** A fresh 24-hex id (a record id's form), unique within the run. */
export const hex24 = (): string => (Date.now().toString(16) + (++seq).toString(16).padStart(6, "0") + "0".repeat(24)).slice(0, 24)

/**
 * A text message a contact sent to the sandbox number (966110000000) at `at`, as the inbox stores
 * it; `fields` overrides any of it (the sender, the channel entry, the body).
 */
export const inboundMessage = (
  of: { readonly accountId: number; readonly platformId: number; readonly contactId: string; readonly at: DateTime.Utc },
  fields: Partial<Message> = {}
): Message => ({
  _id: hex24(),
  account_id: of.accountId,
  provider_message_id: `wamid.IN${hex24()}`,
  contact_id: of.contactId,
  contact_channel_id: hex24(),
  broadcast_id: null,
  platform_id: of.platformId,
  platform_third_party_id: "966110000000",
  sender_third_party_id: "966500000001",
  receiver_third_party_id: "966110000000",
  direction: "inbound",
  type: "text",
  status: "received",
  body: "hello",
  content: null,
  context_id: null,
  attachments: [],
  error: null,
  sent_at: null,
  delivered_at: null,
  read_at: null,
  failed_at: null,
  created_at: of.at,
  updated_at: of.at,
  ...fields
})

/**
 * Two accounts on `server`: `<prefix>-owner@example.test`, the one under test, and
 * `<prefix>-other@example.test`, a foreign account for the tenancy checks.
 */
export const bootstrapOwnerAndOther = async (server: TestServer, prefix: string) => {
  const owner = await server.bootstrap({ email: `${prefix}-owner@example.test`, password: "pw-owner" })
  const other = await server.bootstrap({ email: `${prefix}-other@example.test`, password: "pw-other" })
  return { owner, other }
}

/** How many rows of `table` the account holds (a refused request must leave the count as it was). */
export const countRows = async (server: TestServer, table: string, accountId: number) =>
  Number((await server.query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [accountId]))[0].n)

export const sandboxPlatform = { name: "Main number", display_phone_number: "+966 11 000 0000", provider: "sandbox" }

export const authenticationTemplate = (overrides: Record<string, unknown> = {}) => ({
  name: "login_code",
  category: "AUTHENTICATION",
  body: "{{1}} is your verification code.",
  buttons: [{ type: "OTP", text: "Copy code" }],
  ...overrides
})

export const utilityTemplate = (overrides: Record<string, unknown> = {}) => ({
  name: "order_update",
  category: "UTILITY",
  header: { format: "TEXT", text: "Your order" },
  body: "Your order has shipped.",
  footer: "Wasl",
  ...overrides
})

export const createPlatform = async (server: TestServer, token: string, body: Record<string, unknown> = sandboxPlatform) => {
  const reply = await server.request("POST", "/api/platforms", { token, body })
  if (reply.status !== 201) throw new Error(`platform: ${reply.status} ${reply.text}`)
  return reply.body.data as { id: number }
}

export const createBroadcast = async (
  server: TestServer,
  token: string,
  platformId: number,
  template: Record<string, unknown>,
  language = "en"
) => {
  const reply = await server.request("POST", "/api/broadcasts", {
    token,
    body: { name: `Broadcast ${String(template["name"])}`, language, platform_id: platformId, template }
  })
  if (reply.status !== 201) throw new Error(`broadcast: ${reply.status} ${reply.text}`)
  return reply.body.data as { id: number; template: { id: number; external_id: string | null } }
}

/**
 * A broadcast on a whatsapp_cloud number, approved: Meta's reviewer (the fake Cloud API) approves
 * its template without a callback, and the sync reads that back (a new one is PENDING).
 */
export const approvedOnCloud = async <B extends { id: number; template: { external_id: string | null } }>(
  server: TestServer,
  api: FakeCloudApi,
  token: string,
  broadcast: B
): Promise<B> => {
  await api.reviewTemplate(broadcast.template.external_id!, "APPROVED", { silently: true })
  const synced = await server.request("POST", "/api/broadcasts/sync", { token })
  if (synced.status !== 200) throw new Error(`sync: ${synced.status} ${synced.text}`)
  return broadcast
}

export const createContact = async (server: TestServer, token: string, body: Record<string, unknown>) => {
  const reply = await server.request("POST", "/api/contacts", { token, body })
  if (reply.status !== 201) throw new Error(`contact: ${reply.status} ${reply.text}`)
  return reply.body.data.properties._id as string
}

export const createToken = async (server: TestServer, ownerToken: string, abilities: ReadonlyArray<string>) => {
  const reply = await server.request("POST", "/api/tokens", { token: ownerToken, body: { name: "scoped", abilities } })
  if (reply.status !== 201) throw new Error(`token: ${reply.status} ${reply.text}`)
  return reply.body.token as string
}

export const sessionCookie = async (server: TestServer, email: string, password: string) => {
  const reply = await server.request("POST", "/api/auth/login", { body: { email, password } })
  if (reply.status !== 200) throw new Error(`login: ${reply.status} ${reply.text}`)
  return reply.headers.get("set-cookie")!.split(";")[0]!
}

/** The sandbox outbox lines (the recipient's "phone"). */
export const readOutbox = async (path: string): Promise<Array<any>> => {
  const { readFile } = await import("node:fs/promises")
  try {
    return (await readFile(path, "utf8")).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
  } catch {
    return []
  }
}
