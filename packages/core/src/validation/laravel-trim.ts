/**
 * Laravel's TrimStrings middleware, which cleans every input (query strings and JSON bodies alike)
 * before validation.
 */

/** TrimStrings: `~^[\s\x{FEFF}\x{200B}]+|[\s\x{FEFF}\x{200B}]+$~u`. */
export const laravelTrim = (value: string): string => value.replace(/^[\s\uFEFF\u200B]+|[\s\uFEFF\u200B]+$/g, "")
