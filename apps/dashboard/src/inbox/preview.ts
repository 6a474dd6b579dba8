/**
 * A message in one line, for the conversation list: its text (a code stays masked as stored),
 * else what kind of message it is.
 */

/** The message types that have a name of their own in the dashboard's texts. */
export const NAMED_TYPES = ["image", "audio", "video", "document", "sticker", "location", "contacts", "interactive", "button", "reaction", "template", "unsupported"] as const

export type NamedType = typeof NAMED_TYPES[number]

export type Preview = { readonly text: string } | { readonly type: NamedType | "text" }

const MAX = 80

/** The type's own name, or "text" for a type the dashboard has no name for. */
export const namedType = (type: string): NamedType | "text" =>
  (NAMED_TYPES as ReadonlyArray<string>).includes(type) ? (type as NamedType) : "text"

/** The message's text, cut to one line of at most 80 characters, else its type. */
export const previewOf = (message: { readonly body: string; readonly type: string }): Preview => {
  const line = message.body.replace(/\s+/g, " ").trim()
  if (line !== "") return { text: line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line }
  return { type: namedType(message.type) }
}
