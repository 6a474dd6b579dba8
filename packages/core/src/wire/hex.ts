export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
