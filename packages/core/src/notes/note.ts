/**
 * A note on a record: `_id, body, object_type, record_id, account_id, made_by,
 * created_at, updated_at`, and the validation of its body.
 */
import { type DateTime, Effect, Schema } from "effect"
import type { OBJECT_KINDS, ObjectKind } from "../records/object-kind.ts"
import { ValidationFailed } from "../errors.ts"
import { cleanInput, codePointLength, ownValue } from "../records/body-input.ts"
import { ObjectKindSchema } from "../records/object-kind.ts"
import { LaravelMessage } from "../validation/validation-messages.ts"
import { formatWireTimestamp, WireTimestampString } from "../wire/timestamp.ts"

/** A note on a record, as stored. */
export interface Note {
  /** The note's id (a record id). */
  readonly _id: string
  /** The account of the record. */
  readonly account_id: number
  /** The kind of the record. */
  readonly object_type: ObjectKind
  /** The record's id. */
  readonly record_id: string
  /** The text. */
  readonly body: string
  /** The user who wrote it; null once that user is gone. */
  readonly made_by: number | null
  /** When it was written. */
  readonly created_at: DateTime.Utc
  /** When it was last changed. */
  readonly updated_at: DateTime.Utc
}

/** A note as the API and the note events carry it. */
export const NoteJson: Schema.Struct<{
  readonly _id: Schema.String
  readonly body: Schema.String
  readonly object_type: Schema.Literals<typeof OBJECT_KINDS>
  readonly record_id: Schema.String
  readonly account_id: Schema.Int
  readonly made_by: Schema.NullOr<Schema.Int>
  readonly created_at: Schema.String
  readonly updated_at: Schema.String
}> = Schema.Struct({
  _id: Schema.String,
  body: Schema.String,
  object_type: ObjectKindSchema,
  record_id: Schema.String,
  account_id: Schema.Int,
  made_by: Schema.NullOr(Schema.Int),
  created_at: WireTimestampString,
  updated_at: WireTimestampString
}).annotate({ identifier: "Note" })

/** A note as the API and the note events carry it: {@link Note} with wire timestamps. */
export interface NoteJson {
  /** The note's id. */
  readonly _id: string
  /** The text. */
  readonly body: string
  /** The kind of the record. */
  readonly object_type: ObjectKind
  /** The record's id. */
  readonly record_id: string
  /** The account of the record. */
  readonly account_id: number
  /** The user who wrote it; null once that user is gone. */
  readonly made_by: number | null
  /** When it was written (`YYYY-MM-DDTHH:MM:SS.ffffffZ`). */
  readonly created_at: string
  /** When it was last changed (`YYYY-MM-DDTHH:MM:SS.ffffffZ`). */
  readonly updated_at: string
}

/** The note in its REST shape. */
export const noteJson = (note: Note): NoteJson => ({
  _id: note._id,
  body: note.body,
  object_type: note.object_type,
  record_id: note.record_id,
  account_id: note.account_id,
  made_by: note.made_by,
  created_at: formatWireTimestamp(note.created_at),
  updated_at: formatWireTimestamp(note.updated_at)
})

/** MySQL's TEXT, the size Laravel apps give a note body. */
export const MAX_NOTE_BODY = 65535

/** `body: required|string|max:65535` (trimmed, as Laravel's middleware leaves it). */
export const validateNoteBody = (input: unknown): Effect.Effect<string, ValidationFailed> =>
  Effect.suspend(() => {
    const cleaned = cleanInput(input)
    const body = typeof cleaned === "object" && cleaned !== null && !Array.isArray(cleaned)
      ? ownValue(cleaned, "body")
      : undefined
    const fail = (message: string) => Effect.fail(new ValidationFailed({ errors: { body: [message] } }))
    if (body === undefined || body === null) return fail(LaravelMessage.required("body"))
    if (typeof body !== "string") return fail(LaravelMessage.string("body"))
    if (codePointLength(body) > MAX_NOTE_BODY) {
      return fail(`The body field must not be greater than ${MAX_NOTE_BODY} characters.`)
    }
    return Effect.succeed(body)
  })
