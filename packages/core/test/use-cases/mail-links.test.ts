/**
 * The links of the notification mails: with a public URL (`WASL_PUBLIC_URL`) the export-ready,
 * import-finished and webhook-deactivated mails name their endpoints as absolute URLs on it;
 * without one, as paths alone (the worker that writes them knows no request's host).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { PublicUrl } from "../../src/Deployment.ts"
import { requestExport, runNextExport } from "../../src/Exports.ts"
import { processNextImport, startImport, type UploadPart } from "../../src/Imports.ts"
import { notifyWebhookDeactivated } from "../../src/Webhooks.ts"
import { setup } from "../support/fixtures.ts"
import { TestPorts } from "../support/layers.ts"
import { memoryState } from "../support/store.ts"

const csv: Stream.Stream<UploadPart<never>> = Stream.make({
  _tag: "File",
  key: "file",
  name: "people.csv",
  content: Stream.make(new TextEncoder().encode("firstname\r\nAmal\r\n"))
})

/** The text of every mail queued so far, by notification type. */
const mailTexts = Effect.map(memoryState, (state) =>
  Object.fromEntries(state.notifications.flatMap((n) => n.email == null ? [] : [[n.type, n.email.text] as const])))

/** An export, an import and a deactivated webhook, each telling the owner; answers the mails' texts and the ids. */
const everyNotice = Effect.gen(function*() {
  const { principal } = yield* setup()
  const exported = yield* requestExport(principal, "deal", {})
  yield* runNextExport()
  const imported = yield* startImport(principal, "contact", csv)
  while (yield* processNextImport({ batch: 10 })) {
    // until the import ended
  }
  yield* notifyWebhookDeactivated(principal.accountId, 41, "https://hooks.example.test/in")
  return { texts: yield* mailTexts, exportId: exported._id, importId: imported._id }
})

describe("the links of the notification mails", () => {
  it.effect("are absolute URLs on the public URL when one is set", () =>
    Effect.gen(function*() {
      const { exportId, importId, texts } = yield* everyNotice
      const base = "https://crm.example.com/wasl"
      assert.include(texts["ObjectsExport"], `GET ${base}/api/exports/${exportId}/download`)
      assert.include(texts["ObjectsImport"], `GET ${base}/api/contacts/imports/${importId}`)
      assert.include(texts["WebhookDeactivated"], `PUT ${base}/api/account/webhooks/41/activate`)
    }).pipe(Effect.provide(TestPorts()), Effect.provide(Layer.succeed(PublicUrl, "https://crm.example.com/wasl"))))

  it.effect("are paths alone without a public URL", () =>
    Effect.gen(function*() {
      const { exportId, importId, texts } = yield* everyNotice
      assert.include(texts["ObjectsExport"], `GET /api/exports/${exportId}/download`)
      assert.include(texts["ObjectsImport"], `GET /api/contacts/imports/${importId}`)
      assert.include(texts["WebhookDeactivated"], "PUT /api/account/webhooks/41/activate")
    }).pipe(Effect.provide(TestPorts())))
})
