/**
 * The values of an account's or a member's settings, as the host's ECMAScript `Intl` reads them
 * (so Node, Deno and browsers agree, and the lists stay as current as the engine's ICU data): a
 * BCP 47 language tag, an IANA time zone, an ISO 4217 currency, a calendar, an https URL. Each
 * answers the value in its canonical form, or undefined when it is not one.
 */

/** A BCP 47 language tag in its canonical form (`fr-ca` → `fr-CA`). */
export const canonicalLanguageTag = (tag: string): string | undefined => {
  try {
    const canonical = Intl.getCanonicalLocales(tag)
    return canonical.length === 1 ? canonical[0] : undefined
  } catch {
    return undefined
  }
}

/**
 * An IANA time zone name as the engine names it (`asia/riyadh` → `Asia/Riyadh`, `Etc/UTC` →
 * `UTC`). UTC offsets (`+01:00`), which newer engines also accept, are not zone names.
 */
export const canonicalTimeZone = (zone: string): string | undefined => {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return undefined
  try {
    return new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/** An ISO 4217 currency code the engine knows, upper-case (`sar` → `SAR`). */
export const canonicalCurrency = (code: string): string | undefined => {
  const upper = code.toUpperCase()
  return /^[A-Z]{3}$/.test(upper) && Intl.supportedValuesOf("currency").includes(upper) ? upper : undefined
}

/** A Unicode calendar identifier the engine knows (`gregory`, `islamic-umalqura`, …). */
export const canonicalCalendar = (calendar: string): string | undefined => {
  const lower = calendar.toLowerCase()
  return Intl.supportedValuesOf("calendar").includes(lower) ? lower : undefined
}

/** Whether `text` is an absolute https URL with a host; `not-a-url` when it is no URL at all. */
export const isHttpsUrl = (text: string): boolean | "not-a-url" => {
  if (!URL.canParse(text)) return "not-a-url"
  const url = new URL(text)
  return url.protocol === "https:" && url.hostname !== ""
}
