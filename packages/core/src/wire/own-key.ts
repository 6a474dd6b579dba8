/**
 * Setting a key of a JSON object built from names users choose (a custom property's
 * internal_name), so that every name becomes an own, enumerable key, as it is shown.
 *
 * Plain assignment does that for nearly every name and is what V8 optimizes; `__proto__`
 * would set the object's prototype instead, and a name `Object.prototype` holds (`constructor`,
 * `toString`) would throw on a frozen prototype. Those few are defined instead.
 */

/** `target[key] = value`, always as an own enumerable data property. */
export const setOwnKey = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (Object.hasOwn(Object.prototype, key)) {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  } else {
    target[key] = value
  }
}
