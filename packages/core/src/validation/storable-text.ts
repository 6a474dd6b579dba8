/**
 * Text Wasl can store. PostgreSQL's text and jsonb refuse U+0000 and a UTF-16 surrogate without its
 * pair; JSON can spell both (`\u0000`, `\ud800`) and a JS string holds them, so input carrying one
 * would fail at the database. Every string of a request that may reach a store or a statement is
 * held to this rule and refused with a 422 on its field: the strings of a JSON body (checked where
 * bodies are read), the values of a `complex_filters` given as JSON (the list's parser).
 */
import { displayAttribute } from "./validation-messages.ts"

/** Whether the text can be stored: well-formed UTF-16 (so valid UTF-8) without U+0000. */
export const isStorableText = (text: string): boolean => text.isWellFormed() && !text.includes("\u0000")

/** The 422 message for a string that cannot be stored. */
export const storableTextMessage = (field: string): string =>
  `The ${displayAttribute(field)} field must be a valid UTF-8 string.`
