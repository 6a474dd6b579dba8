/**
 * The body of `POST /api/broadcasts/{id}/send`: JSON, or multipart/form-data when a
 * header file is sent (`contact_id`, `header[file]`, `components[0][type]`...). Multipart text
 * fields are read in PHP bracket notation, as Laravel would, with the `components` given either
 * that way or as one JSON string; numeric `index` texts become integers.
 */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { UploadedFile } from "@wasl/core/Messaging"
import { parsePhpQuery, phpToJs } from "./query-string.ts"
import { unstorableTextErrors } from "./storable-text.ts"
import type { FieldErrors } from "./validation-errors.ts"

/** The multipart field that carries the template's header file. */
export const HEADER_FILE_FIELD = "header[file]"

/**
 * The body of a send as read: its fields (and header file, if any), malformed JSON, or multipart
 * fields refused (a string PostgreSQL cannot store: the boundary checks JSON bodies, not these).
 */
export type SendBody =
  | { readonly _tag: "Body"; readonly body: unknown; readonly file: UploadedFile | undefined }
  | { readonly _tag: "MalformedJson" }
  | { readonly _tag: "Refused"; readonly errors: FieldErrors }

const coerceIndexes = (components: unknown): unknown =>
  Array.isArray(components)
    ? components.map((c) =>
      typeof c === "object" && c !== null && typeof (c as { index?: unknown }).index === "string" &&
        /^[0-9]{1,9}$/.test((c as { index: string }).index)
        ? { ...c, index: Number((c as { index: string }).index) }
        : c
    )
    : components

const fromForm = async (bytes: ArrayBuffer, contentType: string): Promise<SendBody> => {
  const form = await new Response(bytes, { headers: { "content-type": contentType } }).formData()
  const pairs: Array<[string, string]> = []
  let file: UploadedFile | undefined
  for (const [name, value] of form) {
    if (typeof value === "string") pairs.push([name, value])
    else if (name === HEADER_FILE_FIELD && file === undefined) {
      file = { filename: value.name, contentType: value.type, bytes: new Uint8Array(await value.arrayBuffer()) }
    }
  }
  const body = phpToJs(parsePhpQuery(pairs))
  const fields = typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body as Record<string, unknown> } : {}
  if (typeof fields["components"] === "string") {
    try {
      fields["components"] = JSON.parse(fields["components"])
    } catch {
      // Left as the string: validation reports it is not an array.
    }
  }
  fields["components"] = coerceIndexes(fields["components"])
  if (fields["components"] === undefined) delete fields["components"]
  const refused = unstorableTextErrors(fields)
  return refused === undefined ? { _tag: "Body", body: fields, file } : { _tag: "Refused", errors: refused }
}

/**
 * Reads the request body. A body over the limit fails as the boundary's 413 (a defect it
 * recognises); malformed JSON is reported for the boundary's 400.
 */
export const readSendBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<SendBody> =>
  Effect.gen(function*() {
    const contentType = request.headers["content-type"] ?? ""
    const bytes = yield* Effect.orDie(request.arrayBuffer)
    if (/^multipart\/form-data\s*;/i.test(contentType)) {
      return yield* Effect.promise(() =>
        fromForm(bytes, contentType).catch((): SendBody => ({ _tag: "Body", body: {}, file: undefined }))
      )
    }
    if (bytes.byteLength === 0) return { _tag: "Body", body: {}, file: undefined }
    try {
      return { _tag: "Body", body: JSON.parse(new TextDecoder().decode(bytes)), file: undefined }
    } catch {
      return { _tag: "MalformedJson" }
    }
  })
