/** Merging two records of one customer: `POST /api/{kind}/{_id}/merge`. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { type AuthenticatedGroup, commonErrors, DataMessageAnswer, type WaslEndpoint } from "./endpoint-types.ts"
import { type RecordParams, recordParams } from "./kind-params.ts"
import { RecordView } from "./records-api.ts"
import { withRequestExamples } from "./request-examples-openapi.ts"
import { Authentication } from "./security.ts"

/** The body of a merge: `{ from: "<the other record's _id>" }`, validated by the use-case. */
export const MergeBody: Schema.$Record<Schema.String, Schema.Unknown> = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "{ from: string }: the _id of the record merged into the one in the path"
})

/** `POST /api/:kind/:id/merge`: merges another record of the kind into this one. */
export const MergeRecordsEndpoint: WaslEndpoint<"merge", "POST", "/:kind/:id/merge", {
  params: RecordParams; payload: typeof MergeBody; success: DataMessageAnswer<typeof RecordView>
}> = HttpApiEndpoint.post("merge", "/:kind/:id/merge", {
  params: recordParams,
  payload: MergeBody,
  success: DataMessageAnswer(RecordView),
  error: commonErrors
}).annotate(OpenApi.Summary, "Merge two records").annotate(
  OpenApi.Description,
  "Contacts, companies, deals and tickets. In one transaction the record in the path keeps its _id and values; each of " +
    "its properties without a value takes the value of the record `from` names; that record's notes and links (and a " +
    "contact's channels and messages) move over, and it goes to the trash with merged_into (restoring it undoes the " +
    "merge of the record itself). Fires <kind>-updated for the kept record and <kind>-deleted for the other. from " +
    "missing, the record itself or not the account's: 422 on from. Permissions <kind>-update and <kind>-delete."
).annotate(
  OpenApi.Transform,
  withRequestExamples({ merge: { summary: "Merge a duplicate contact", value: { from: "6744a1f0c2b3d4e5f6a7b8c9" } } })
)

const MergesGroupBase: AuthenticatedGroup<"merges", typeof MergeRecordsEndpoint> = HttpApiGroup.make("merges")
  .add(MergeRecordsEndpoint)
  .middleware(Authentication)
  .prefix("/api")
  .annotate(OpenApi.Description, "Two records of one customer made one: the duplicate's values fill the kept record's gaps.")

/** Merging records (`POST /api/{kind}/{_id}/merge`). */
export class MergesGroup extends MergesGroupBase {}
