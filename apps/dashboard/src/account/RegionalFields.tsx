/**
 * Time zone, calendar, clock, locale and currency: the account's defaults on its settings page,
 * and a member's own choices on their profile. Suggestions come from the browser's Intl lists;
 * the API validates (an IANA zone, a BCP 47 locale, an ISO 4217 code) and its messages show here.
 */
import { useId } from "react"
import { fieldError, type Problem } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import { Field } from "../ui/Field"

/** The fields as the form holds them; "" is "not set" (the account's value, for a member). */
export interface Regional {
  readonly timeZone: string
  readonly calendar: string
  readonly hour12: "" | "true" | "false"
  readonly locale: string
  readonly currency: string
}

export const regionalOf = (source: {
  readonly timeZone: string | null
  readonly calendar: string | null
  readonly hour12: boolean | null
  readonly locale: string | null
  readonly currency: string | null
}): Regional => ({
  timeZone: source.timeZone ?? "",
  calendar: source.calendar ?? "",
  hour12: source.hour12 === null ? "" : source.hour12 ? "true" : "false",
  locale: source.locale ?? "",
  currency: source.currency ?? ""
})

/** The values to send: "" as null, hour12 as a boolean. */
export const regionalBody = (value: Regional) => ({
  timeZone: value.timeZone.trim() || null,
  calendar: value.calendar || null,
  hour12: value.hour12 === "" ? null : value.hour12 === "true",
  locale: value.locale.trim() || null,
  currency: value.currency.trim() || null
})

const supported = (key: "timeZone" | "calendar" | "currency"): ReadonlyArray<string> =>
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf(key) : []

export const RegionalFields = ({ value, onChange, problem, unsetLabel }: {
  readonly value: Regional
  readonly onChange: (value: Regional) => void
  readonly problem: Problem | undefined
  /** What "not set" means here: the browser's or the account's default. */
  readonly unsetLabel: string
}) => {
  const { t } = useI18n()
  const id = useId()
  const set = <K extends keyof Regional>(key: K, next: Regional[K]) => onChange({ ...value, [key]: next })
  return (
    <>
      <Field label={t("timeZone")} hint={t("timeZoneHint")} error={fieldError(problem, "timeZone")}>
        <input dir="ltr" list={`${id}-zones`} value={value.timeZone} onChange={(e) => set("timeZone", e.target.value)} />
      </Field>
      <datalist id={`${id}-zones`}>{supported("timeZone").map((zone) => <option key={zone} value={zone} />)}</datalist>
      <Field label={t("calendar")} error={fieldError(problem, "calendar")}>
        <select dir="ltr" value={value.calendar} onChange={(e) => set("calendar", e.target.value)}>
          <option value="">{unsetLabel}</option>
          {supported("calendar").map((calendar) => <option key={calendar} value={calendar}>{calendar}</option>)}
        </select>
      </Field>
      <Field label={t("clock")} error={fieldError(problem, "hour12")}>
        <select value={value.hour12} onChange={(e) => set("hour12", e.target.value as Regional["hour12"])}>
          <option value="">{unsetLabel}</option>
          <option value="true">{t("clock12")}</option>
          <option value="false">{t("clock24")}</option>
        </select>
      </Field>
      <Field label={t("locale")} hint={t("localeHint")} error={fieldError(problem, "locale")}>
        <input dir="ltr" value={value.locale} onChange={(e) => set("locale", e.target.value)} />
      </Field>
      <Field label={t("currency")} hint={t("currencyHint")} error={fieldError(problem, "currency")}>
        <input dir="ltr" list={`${id}-currencies`} value={value.currency} onChange={(e) => set("currency", e.target.value)} />
      </Field>
      <datalist id={`${id}-currencies`}>{supported("currency").map((code) => <option key={code} value={code} />)}</datalist>
    </>
  )
}
