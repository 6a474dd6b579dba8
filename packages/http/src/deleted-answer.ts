/** What every delete endpoint answers. */
import { Schema } from "effect"

/** The answer of a delete: `{ message, data: [] }`, an empty list in `data` as Laravel answers it. */
export const DeletedAnswer: Schema.Struct<{ readonly message: Schema.String; readonly data: Schema.Tuple<readonly []> }> = Schema
  .Struct({ message: Schema.String, data: Schema.Tuple([]) })
