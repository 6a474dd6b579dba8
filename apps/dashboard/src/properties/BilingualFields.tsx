/** The English and Arabic inputs of a bilingual text (a name or a description), with their 422s. */
import type { Problem } from "../api/errors"
import { fieldError } from "../api/errors"
import { useI18n } from "../i18n/i18n"
import type { MessageKey } from "../i18n/messages"
import { Field } from "../ui/Field"

export interface Bilingual {
  readonly en: string
  readonly ar: string
}

/** The bilingual text as the API takes it: only the languages given. */
export const toLocalized = (text: Bilingual): { en?: string; ar?: string } =>
  Object.fromEntries(Object.entries(text).filter(([, value]) => value.trim() !== "")) as { en?: string; ar?: string }

export const fromLocalized = (text: unknown): Bilingual => {
  const value = (text ?? {}) as { en?: string; ar?: string }
  return { en: value.en ?? "", ar: value.ar ?? "" }
}

export const BilingualFields = ({ field, labels, value, onChange, problem }: {
  readonly field: "name" | "desc"
  readonly labels: readonly [MessageKey, MessageKey]
  readonly value: Bilingual
  readonly onChange: (value: Bilingual) => void
  readonly problem: Problem | undefined
}) => {
  const { t } = useI18n()
  const error = (language: "en" | "ar") => fieldError(problem, `${field}.${language}`) ?? (language === "en" ? fieldError(problem, field) : undefined)
  return (
    <>
      <Field label={t(labels[0])} error={error("en")}>
        <input lang="en" dir="ltr" value={value.en} onChange={(e) => onChange({ ...value, en: e.target.value })} />
      </Field>
      <Field label={t(labels[1])} error={error("ar")}>
        <input lang="ar" dir="rtl" value={value.ar} onChange={(e) => onChange({ ...value, ar: e.target.value })} />
      </Field>
    </>
  )
}
